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
        return <Py_ssize_t>t        # types 0..4: NULL, then ints of 1..4 bytes
    if t == 5:
        return 6
    if t == 6 or t == 7:
        return 8
    return 0


cdef inline int64_t get_int(const unsigned char* p, int n) noexcept:
    cdef int64_t v
    cdef int i
    if n == 8:
        return <int64_t>load_be64(p)
    v = <signed char>p[0]
    for i in range(1, n):
        v = (v << 8) | p[i]
    return v


cdef extern from *:
    """
    static inline uint64_t sqlengine_load_be64(const unsigned char* p) {
        uint64_t u;
        memcpy(&u, p, 8);
    #if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        return __builtin_bswap64(u);
    #elif defined(__GNUC__)
        return u;
    #else
        return ((uint64_t)p[0] << 56) | ((uint64_t)p[1] << 48) | ((uint64_t)p[2] << 40)
             | ((uint64_t)p[3] << 32) | ((uint64_t)p[4] << 24) | ((uint64_t)p[5] << 16)
             | ((uint64_t)p[6] << 8) | (uint64_t)p[7];
    #endif
    }
    """
    uint64_t load_be64 "sqlengine_load_be64" (const unsigned char* p) noexcept nogil


cdef inline double get_double(const unsigned char* p) noexcept:
    cdef uint64_t u = load_be64(p)
    cdef double d
    memcpy(&d, &u, 8)
    return d
