# cython: language_level=3
"""Inline helpers shared by the compiled storage modules: varints and serial-type sizes and
fixed-width big-endian integers. Pure byte arithmetic; no Python objects, no I/O."""

from libc.string cimport memcpy
from libc.stdint cimport int64_t, uint64_t


cdef inline int get_varint(const unsigned char* p, Py_ssize_t avail, uint64_t* out) noexcept:
    """Read a varint at p (at most avail bytes). Returns its length, or 0 if truncated."""
    cdef uint64_t v = 0
    cdef int i
    if avail <= 0:
        return 0
    if p[0] < 0x80:
        out[0] = p[0]
        return 1
    for i in range(8):
        if i >= avail:
            return 0
        v = (v << 7) | (p[i] & 0x7F)
        if p[i] < 0x80:
            out[0] = v
            return i + 1
    if avail < 9:
        return 0
    v = (v << 8) | p[8]
    out[0] = v
    return 9


cdef inline int varint_len(uint64_t v) noexcept:
    cdef int n = 1
    if v & (<uint64_t>0xff000000 << 32):
        return 9
    v >>= 7
    while v:
        n += 1
        v >>= 7
    return n


cdef inline int put_varint(unsigned char* p, uint64_t v) noexcept:
    cdef unsigned char tmp[10]
    cdef int n, i
    if v <= 0x7F:
        p[0] = <unsigned char>v
        return 1
    if v & (<uint64_t>0xff000000 << 32):
        p[8] = <unsigned char>(v & 0xFF)
        v >>= 8
        for i in range(7, -1, -1):
            p[i] = <unsigned char>((v & 0x7F) | 0x80)
            v >>= 7
        return 9
    n = 0
    while v:
        tmp[n] = <unsigned char>((v & 0x7F) | 0x80)
        v >>= 7
        n += 1
    tmp[0] &= 0x7F
    for i in range(n):
        p[i] = tmp[n - 1 - i]
    return n



cdef inline Py_ssize_t serial_size(uint64_t t) noexcept:
    if t >= 12:
        return <Py_ssize_t>((t - 12) >> 1)
    if t <= 4:
        return (0, 1, 2, 3, 4)[t]
    if t == 5:
        return 6
    if t == 6 or t == 7:
        return 8
    return 0


cdef inline int64_t get_int(const unsigned char* p, int n) noexcept:
    cdef int64_t v = <signed char>p[0]
    cdef int i
    for i in range(1, n):
        v = (v << 8) | p[i]
    return v


cdef inline double get_double(const unsigned char* p) noexcept:
    cdef uint64_t u = 0
    cdef int i
    cdef double d
    for i in range(8):
        u = (u << 8) | p[i]
    memcpy(&d, &u, 8)
    return d


