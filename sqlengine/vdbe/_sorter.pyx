# cython: language_level=3
"""The sorter's compiled core: a stable merge sort of record tuples by a ``SortSpec`` with a
C comparison of SQL values, and the hashable row keys of DISTINCT, ephemeral indexes and
hash joins.

Order is SQLite's (sqlite3VdbeRecordCompare): per key field, NULL first (or last for NULLS
LAST), then INTEGER/REAL compared exactly, TEXT by the field's collation (BINARY = code
point order, which is UTF-8 byte order), BLOB by memcmp then length; a DESC field is
reversed. Rows equal on every key field keep their insertion order. A collation function
that raises stops the sort and leaves the list untouched.

This module never touches storage and never sees SQL.
"""

from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.float cimport PyFloat_AS_DOUBLE
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.list cimport PyList_GET_ITEM
from cpython.ref cimport PyObject
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy

from sqlengine.vdbe._values cimport compare

cdef extern from "Python.h":
    int PyUnicode_Compare(object a, object b) except? -1
    void list_set_raw "PyList_SET_ITEM"(object lst, Py_ssize_t i, PyObject* o)


cdef struct FieldSpec:
    bint desc
    bint nulls_first
    PyObject* func       # borrowed collation comparison, NULL for BINARY


cdef inline int _cmp_values(object a, object b, PyObject* func) except -2:
    """Three-way compare of two non-NULL SQL values (BINARY unless ``func``)."""
    cdef type ta = type(a), tb = type(b)
    cdef long long x, y
    cdef int ox = 0, oy = 0
    cdef double dx, dy
    cdef Py_ssize_t na, nb
    cdef int r
    if ta is tb:
        if ta is int:
            x = PyLong_AsLongLongAndOverflow(a, &ox)
            y = PyLong_AsLongLongAndOverflow(b, &oy)
            if not ox and not oy:
                return (x > y) - (x < y)
        elif ta is float:
            dx = PyFloat_AS_DOUBLE(a)
            dy = PyFloat_AS_DOUBLE(b)
            return (dx > dy) - (dx < dy)
        elif ta is str:
            if func == NULL:
                return PyUnicode_Compare(a, b)
            return compare(a, b, <object>func)
        elif ta is bytes:
            na = PyBytes_GET_SIZE(a)
            nb = PyBytes_GET_SIZE(b)
            r = memcmp(PyBytes_AS_STRING(a), PyBytes_AS_STRING(b), na if na < nb else nb)
            if r:
                return -1 if r < 0 else 1
            return (na > nb) - (na < nb)
    if func == NULL:
        return compare(a, b, None)
    return compare(a, b, <object>func)


cdef inline int _cmp_rows(PyObject* ra, PyObject* rb, FieldSpec* fs, int n,
                          int start) except -2:
    cdef int i, c
    cdef object x, y
    cdef Py_ssize_t la = PyTuple_GET_SIZE(<object>ra), lb = PyTuple_GET_SIZE(<object>rb)
    for i in range(start, n):
        x = <object>PyTuple_GET_ITEM(<object>ra, i) if i < la else None
        y = <object>PyTuple_GET_ITEM(<object>rb, i) if i < lb else None
        if x is None or y is None:
            if x is None and y is None:
                continue
            c = -1 if x is None else 1
            if not fs[i].nulls_first:
                c = -c
            return c
        c = _cmp_values(x, y, fs[i].func)
        if c:
            return -c if fs[i].desc else c
    return 0


cdef struct Entry:
    int cls              # of the first key field: 0 NULL, 1 INTEGER, 2 REAL, 3 other
    long long i
    double d
    PyObject* v          # the first key field (borrowed)
    PyObject* row        # the row (borrowed)


cdef inline void _set_entry(Entry* e, PyObject* row) noexcept:
    cdef object t = <object>row
    cdef object v
    cdef int ovf = 0
    e.row = row
    if PyTuple_GET_SIZE(t) == 0:
        e.cls = 0
        e.v = NULL
        return
    v = <object>PyTuple_GET_ITEM(t, 0)
    e.v = <PyObject*>v
    if v is None:
        e.cls = 0
    elif type(v) is int:
        e.i = PyLong_AsLongLongAndOverflow(v, &ovf)
        e.cls = 3 if ovf else 1
    elif type(v) is float:
        e.d = PyFloat_AS_DOUBLE(v)
        e.cls = 2
    else:
        e.cls = 3


cdef inline int _cmp_entries(Entry* a, Entry* b, FieldSpec* fs, int n) except -2:
    cdef int c
    if a.cls == 1 and b.cls == 1:
        c = (a.i > b.i) - (a.i < b.i)
    elif a.cls == 2 and b.cls == 2:
        c = (a.d > b.d) - (a.d < b.d)
    elif a.cls == 0 or b.cls == 0:
        if a.cls == 0 and b.cls == 0:
            c = 0
        else:
            c = -1 if a.cls == 0 else 1
            return c if fs[0].nulls_first else -c
    else:
        c = _cmp_values(<object>a.v, <object>b.v, fs[0].func)
    if c:
        return -c if fs[0].desc else c
    if n > 1:
        return _cmp_rows(a.row, b.row, fs, n, 1)
    return 0


cdef int _merge_sort(Entry* a, Entry* tmp, Py_ssize_t n, FieldSpec* fs, int nk) except -1:
    """Stable bottom-up merge sort of ``a[0:n]`` (runs of 8 by insertion sort first)."""
    cdef Py_ssize_t i, j, k, lo, mid, hi, width
    cdef Entry v
    cdef Entry* src = a
    cdef Entry* dst = tmp
    cdef Entry* sw
    # insertion sort of small runs
    lo = 0
    while lo < n:
        hi = lo + 8 if lo + 8 < n else n
        for i in range(lo + 1, hi):
            v = a[i]
            j = i
            while j > lo and _cmp_entries(&a[j - 1], &v, fs, nk) > 0:
                a[j] = a[j - 1]
                j -= 1
            a[j] = v
        lo = hi
    width = 8
    while width < n:
        lo = 0
        while lo < n:
            mid = lo + width if lo + width < n else n
            hi = lo + 2 * width if lo + 2 * width < n else n
            if mid >= hi or _cmp_entries(&src[mid - 1], &src[mid], fs, nk) <= 0:
                memcpy(dst + lo, src + lo, (hi - lo) * sizeof(Entry))
            else:
                i = lo
                j = mid
                k = lo
                while i < mid and j < hi:
                    if _cmp_entries(&src[j], &src[i], fs, nk) < 0:
                        dst[k] = src[j]
                        j += 1
                    else:
                        dst[k] = src[i]
                        i += 1
                    k += 1
                while i < mid:
                    dst[k] = src[i]
                    i += 1
                    k += 1
                while j < hi:
                    dst[k] = src[j]
                    j += 1
                    k += 1
            lo = hi
        sw = src
        src = dst
        dst = sw
        width *= 2
    if src != a:
        memcpy(a, src, n * sizeof(Entry))
    return 0


def sort_rows(list rows, spec):
    """Sort ``rows`` (tuples) in place by ``spec`` (a sorter.SortSpec); stable."""
    cdef int nk = spec.n_key
    cdef Py_ssize_t n = len(rows), i
    cdef FieldSpec* fs
    cdef Entry* a
    cdef Entry* tmp
    cdef list colls = spec.colls, desc = spec.desc, nulls_first = spec.nulls_first
    cdef list funcs = []
    if nk == 0 or n < 2:
        return
    for i in range(n):
        if type(rows[i]) is not tuple:
            rows[i] = tuple(rows[i])
    fs = <FieldSpec*>malloc(nk * sizeof(FieldSpec))
    a = <Entry*>malloc(n * sizeof(Entry))
    tmp = <Entry*>malloc(n * sizeof(Entry))
    if fs == NULL or a == NULL or tmp == NULL:
        free(fs)
        free(a)
        free(tmp)
        raise MemoryError()
    try:
        for i in range(nk):
            c = colls[i] if i < len(colls) else None
            f = c.func if c is not None else None
            funcs.append(f)  # keeps the borrowed pointer alive
            fs[i].func = NULL if f is None else <PyObject*>f
            fs[i].desc = bool(desc[i]) if i < len(desc) else False
            fs[i].nulls_first = bool(nulls_first[i]) if i < len(nulls_first) else True
        for i in range(n):
            _set_entry(&a[i], PyList_GET_ITEM(rows, i))
        _merge_sort(a, tmp, n, fs, nk)
        # the list still owns one reference to each row; only the order changes
        for i in range(n):
            list_set_raw(rows, i, a[i].row)
    finally:
        free(fs)
        free(a)
        free(tmp)


def row_key(row, Py_ssize_t n, norms):
    """A hashable key for the first ``n`` fields of ``row`` under per-field normalisers."""
    cdef Py_ssize_t i
    cdef list out = [None] * n
    cdef type t
    for i in range(n):
        v = row[i]
        t = type(v)
        if t is str:
            nm = norms[i]
            out[i] = ("s", nm(v)) if nm is not None else ("s", v)
        elif t is bytes:
            out[i] = ("b", v)
        elif t is bytearray or t is memoryview:
            out[i] = ("b", bytes(v))
        else:
            out[i] = v  # None, int, float: Python equality is SQLite's (1 == 1.0)
    return tuple(out)


cdef class RowOrder:
    """The order of a SortSpec prepared once, for comparing single rows (the top-N sorter's
    admission test)."""

    cdef FieldSpec* fs
    cdef int nk
    cdef list keep      # the collation functions the FieldSpecs point to

    def __cinit__(self, spec):
        cdef int i
        cdef list colls = spec.colls, desc = spec.desc, nulls_first = spec.nulls_first
        self.nk = spec.n_key
        self.keep = []
        self.fs = <FieldSpec*>malloc((self.nk if self.nk > 0 else 1) * sizeof(FieldSpec))
        if self.fs == NULL:
            raise MemoryError()
        for i in range(self.nk):
            c = colls[i] if i < len(colls) else None
            f = c.func if c is not None else None
            self.keep.append(f)
            self.fs[i].func = NULL if f is None else <PyObject*>f
            self.fs[i].desc = bool(desc[i]) if i < len(desc) else False
            self.fs[i].nulls_first = bool(nulls_first[i]) if i < len(nulls_first) else True

    def __dealloc__(self):
        free(self.fs)

    cpdef bint sorts_after(self, tuple a, tuple b) except -1:
        """True when row ``a``, inserted after ``b``, would come after it in the sorted
        output (greater, or equal: the sort is stable)."""
        return _cmp_rows(<PyObject*>a, <PyObject*>b, self.fs, self.nk, 0) >= 0
