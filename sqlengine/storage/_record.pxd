# cython: language_level=3
"""C-level declarations of the record codec shared with the B-tree cursor module."""

from libc.stdint cimport int64_t, uint64_t


cdef class KeyInfo:
    cdef public int n_fields
    cdef public list collations
    cdef public list desc
    cdef int ncoll
    cdef int ndesc
    cdef bint all_binary
    cdef bint any_desc


cdef class PreparedKey:
    cdef public tuple values
    cdef int n
    cdef list cls
    cdef list raw


cdef enum:
    UNPACKED_MAX = 32     # fields an Unpacked record holds (a longer one stays bytes)


cdef struct Unpacked:
    # a record whose header is parsed once for many comparisons (SQLite's UnpackedRecord):
    # the probe of a b-tree search, compared with every cell on its path
    const unsigned char* p          # the record's bytes (owned by whoever unpacked it)
    int n                           # its fields
    uint64_t t[UNPACKED_MAX]        # each field's serial type
    Py_ssize_t off[UNPACKED_MAX]    # each field's value offset in the record


cpdef PreparedKey prepare_key(tuple values)
cpdef bytes encode_record(object values)
cdef tuple decode_record_at(const unsigned char* p, Py_ssize_t size)
cdef object decode_column_at(const unsigned char* p, Py_ssize_t size, Py_ssize_t i)
cdef object decode_last_at(const unsigned char* p, Py_ssize_t size)
cdef object decode_column_or(const unsigned char* p, Py_ssize_t size, Py_ssize_t i,
                             object dflt)
cdef object decode_value(uint64_t t, const unsigned char* p, Py_ssize_t n)
cdef int compare_record_key(const unsigned char* p, Py_ssize_t size, PreparedKey key,
                            KeyInfo ki) except -2
cdef int compare_records(const unsigned char* a, Py_ssize_t na, const unsigned char* b,
                         Py_ssize_t nb, KeyInfo ki) except -2
cdef bint unpack_record(const unsigned char* p, Py_ssize_t size, Unpacked* u) noexcept
cdef int compare_unpacked(const unsigned char* a, Py_ssize_t na, const Unpacked* u,
                          KeyInfo ki) except -2


cdef inline int int_real_compare(long long i, double r) noexcept:
    """-1, 0 or 1 as the INTEGER i is below, equal to or above the REAL r, compared exactly
    (SQLite's sqlite3IntFloatCompare; as Python compares an int with a float); r not NaN."""
    cdef long long y
    cdef double s
    if r < -9223372036854775808.0:
        return 1
    if r >= 9223372036854775808.0:
        return -1
    y = <long long>r
    if i < y:
        return -1
    if i > y:
        return 1
    s = <double>i
    if s < r:
        return -1
    if s > r:
        return 1
    return 0
