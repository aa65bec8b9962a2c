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
    cdef int nk
    cdef Py_ssize_t n = len(rows), i
    cdef FieldSpec* fs
    cdef Entry* a
    cdef Entry* tmp
    cdef list colls, desc, nulls_first
    cdef list funcs
    if n < 2:
        return          # (nothing to order: the spec is not read)
    nk = spec.n_key
    if nk == 0:
        return
    colls = spec.colls
    desc = spec.desc
    nulls_first = spec.nulls_first
    funcs = []
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


cdef int _fill_field_specs(FieldSpec* fs, int nk, spec, list keep) except -1:
    """Fill ``fs[0..nk)`` from a sort spec (collation functions kept alive in ``keep``)."""
    cdef int i
    cdef list colls = spec.colls, desc = spec.desc, nulls_first = spec.nulls_first
    for i in range(nk):
        c = colls[i] if i < len(colls) else None
        f = c.func if c is not None else None
        keep.append(f)
        fs[i].func = NULL if f is None else <PyObject*>f
        fs[i].desc = bool(desc[i]) if i < len(desc) else False
        fs[i].nulls_first = bool(nulls_first[i]) if i < len(nulls_first) else True
    return 0


cdef class RowOrder:
    """The order of a SortSpec prepared once, for comparing single rows (the top-N sorter's
    admission test)."""

    cdef FieldSpec* fs
    cdef int nk
    cdef list keep      # the collation functions the FieldSpecs point to

    def __cinit__(self, spec):
        self.nk = spec.n_key
        self.keep = []
        self.fs = <FieldSpec*>malloc((self.nk if self.nk > 0 else 1) * sizeof(FieldSpec))
        if self.fs == NULL:
            raise MemoryError()
        _fill_field_specs(self.fs, self.nk, spec, self.keep)

    def __dealloc__(self):
        free(self.fs)

    cpdef bint sorts_after(self, tuple a, tuple b) except -1:
        """True when row ``a``, inserted after ``b``, would come after it in the sorted
        output (greater, or equal: the sort is stable)."""
        return _cmp_rows(<PyObject*>a, <PyObject*>b, self.fs, self.nk, 0) >= 0


# ---------------------------------------------------------------------------------------------
# Spilled runs: rows written to a temporary file in a private, exact encoding, read back by
# a k-way merge.
#
# A run is a sequence of rows, each ``u32 body length`` then the body: ``u32 field count``
# and per field a tag byte with its payload: 0 NULL; 1 INTEGER (int64, native order);
# 2 REAL (double, native order); 3 TEXT (u32 length + UTF-8, surrogates passed through);
# 4 BLOB (u32 length + bytes). The file lives only as long as the sorter, so the native
# byte order is enough. Only the exact types None, int (64-bit), float, str and bytes are
# written: a row with anything else (a str subclass carrying a subtype, a bool) makes
# ``encode_rows`` return None and the sorter keeps its rows in memory.

from libc.stdint cimport int64_t, uint32_t
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.ref cimport Py_INCREF
from libc.stdlib cimport realloc

import os as _os


cdef struct WBuf:
    char* p
    Py_ssize_t n
    Py_ssize_t cap


cdef int _reserve(WBuf* b, Py_ssize_t extra) except -1:
    cdef Py_ssize_t cap
    cdef char* q
    if b.n + extra <= b.cap:
        return 0
    cap = b.cap * 2 if b.cap else 65536
    while cap < b.n + extra:
        cap *= 2
    q = <char*>realloc(b.p, cap)
    if q == NULL:
        raise MemoryError()
    b.p = q
    b.cap = cap
    return 0


cdef inline void _put_u32(WBuf* b, uint32_t v) noexcept:
    memcpy(b.p + b.n, &v, 4)
    b.n += 4


def encode_rows(rows):
    """The run bytes of ``rows`` (tuples, in order), or None when a value cannot be
    written exactly."""
    cdef WBuf b
    cdef Py_ssize_t start, i, nf, ln
    cdef object v, e
    cdef type t
    cdef int64_t iv
    cdef int ovf
    cdef double dv
    cdef uint32_t u
    b.p = NULL
    b.n = 0
    b.cap = 0
    try:
        for row in rows:
            if type(row) is not tuple:
                return None
            nf = PyTuple_GET_SIZE(row)
            _reserve(&b, 8 + 9 * nf)
            start = b.n
            b.n += 4
            _put_u32(&b, <uint32_t>nf)
            for i in range(nf):
                v = <object>PyTuple_GET_ITEM(row, i)
                t = type(v)
                if v is None:
                    _reserve(&b, 1)
                    b.p[b.n] = 0
                    b.n += 1
                elif t is int:
                    ovf = 0
                    iv = PyLong_AsLongLongAndOverflow(v, &ovf)
                    if ovf:
                        return None
                    _reserve(&b, 9)
                    b.p[b.n] = 1
                    memcpy(b.p + b.n + 1, &iv, 8)
                    b.n += 9
                elif t is float:
                    dv = PyFloat_AS_DOUBLE(v)
                    _reserve(&b, 9)
                    b.p[b.n] = 2
                    memcpy(b.p + b.n + 1, &dv, 8)
                    b.n += 9
                elif t is str or t is bytes:
                    if t is str:
                        e = (<str>v).encode("utf-8", "surrogatepass")
                    else:
                        e = v
                    ln = PyBytes_GET_SIZE(e)
                    if ln > 0x7FFFFFFF:
                        return None
                    _reserve(&b, 5 + ln)
                    b.p[b.n] = 3 if t is str else 4
                    b.n += 1
                    _put_u32(&b, <uint32_t>ln)
                    memcpy(b.p + b.n, PyBytes_AS_STRING(e), ln)
                    b.n += ln
                else:
                    return None
            u = <uint32_t>(b.n - start - 4)
            memcpy(b.p + start, &u, 4)
        return PyBytes_FromStringAndSize(b.p, b.n)
    finally:
        free(b.p)


cdef tuple _decode_row(const unsigned char* p, Py_ssize_t n):
    cdef uint32_t nf, ln
    cdef Py_ssize_t i, pos = 4
    cdef int64_t iv
    cdef double dv
    cdef object v
    cdef unsigned char tag
    memcpy(&nf, p, 4)
    cdef tuple out = PyTuple_New(nf)
    for i in range(nf):
        tag = p[pos]
        pos += 1
        if tag == 0:
            v = None
        elif tag == 1:
            memcpy(&iv, p + pos, 8)
            pos += 8
            v = iv
        elif tag == 2:
            memcpy(&dv, p + pos, 8)
            pos += 8
            v = dv
        else:
            memcpy(&ln, p + pos, 4)
            pos += 4
            if tag == 3:
                v = (<const char*>(p + pos))[:ln].decode("utf-8", "surrogatepass")
            else:
                v = PyBytes_FromStringAndSize(<const char*>(p + pos), ln)
            pos += ln
        Py_INCREF(v)
        PyTuple_SET_ITEM(out, i, v)
    return out


def decode_rows(data):
    """The rows of run bytes written by ``encode_rows`` (for tests and small runs)."""
    cdef const unsigned char[:] mv = data
    cdef Py_ssize_t pos = 0, n = mv.shape[0]
    cdef uint32_t ln
    cdef list out = []
    while pos < n:
        memcpy(&ln, &mv[pos], 4)
        out.append(_decode_row(&mv[pos + 4], ln))
        pos += 4 + ln
    return out


cdef class RunMerger:
    """The k-way merge of sorted runs stored in one file (``fd``; each run an
    ``(offset, length)``), read through a buffer of about ``bufsize`` bytes per run. Rows
    come out in ``spec`` order; rows that compare equal come from the earlier run first, so
    the merge of the runs of a stable sort is stable."""

    cdef int fd
    cdef int nk
    cdef FieldSpec* fs
    cdef list keep
    cdef Py_ssize_t bufsize
    cdef int nruns
    cdef int nheap
    cdef int* heap
    cdef list cur        # the current row of each run (None when exhausted)
    cdef list bufs       # the bytes read and not yet decoded of each run
    cdef Py_ssize_t* bpos
    cdef Py_ssize_t* off  # next file offset to read of each run
    cdef Py_ssize_t* end

    def __cinit__(self, int fd, list runs, spec, Py_ssize_t bufsize=16384):
        cdef int i
        self.fd = fd
        self.nk = spec.n_key
        self.bufsize = bufsize if bufsize > 64 else 64
        self.nruns = len(runs)
        self.keep = []
        self.fs = <FieldSpec*>malloc((self.nk if self.nk > 0 else 1) * sizeof(FieldSpec))
        self.heap = <int*>malloc((self.nruns + 1) * sizeof(int))
        self.bpos = <Py_ssize_t*>malloc((self.nruns + 1) * sizeof(Py_ssize_t))
        self.off = <Py_ssize_t*>malloc((self.nruns + 1) * sizeof(Py_ssize_t))
        self.end = <Py_ssize_t*>malloc((self.nruns + 1) * sizeof(Py_ssize_t))
        if self.fs == NULL or self.heap == NULL or self.bpos == NULL or self.off == NULL \
                or self.end == NULL:
            raise MemoryError()
        _fill_field_specs(self.fs, self.nk, spec, self.keep)
        self.cur = [None] * self.nruns
        self.bufs = [b""] * self.nruns
        for i in range(self.nruns):
            self.off[i] = runs[i][0]
            self.end[i] = runs[i][0] + runs[i][1]
            self.bpos[i] = 0
        self.nheap = 0
        for i in range(self.nruns):
            row = self._read(i)
            if row is not None:
                self.cur[i] = row
                self.heap[self.nheap] = i
                self.nheap += 1
        i = self.nheap // 2 - 1
        while i >= 0:
            self._sift(i)
            i -= 1

    def __dealloc__(self):
        free(self.fs)
        free(self.heap)
        free(self.bpos)
        free(self.off)
        free(self.end)

    cdef object _read(self, int r):
        """The next row of run ``r``, or None at its end."""
        cdef bytes buf = self.bufs[r]
        cdef Py_ssize_t pos = self.bpos[r], avail = PyBytes_GET_SIZE(buf) - pos
        cdef Py_ssize_t need = 4, want
        cdef uint32_t ln
        cdef const unsigned char* p
        while True:
            if avail >= 4:
                memcpy(&ln, PyBytes_AS_STRING(buf) + pos, 4)
                need = 4 + <Py_ssize_t>ln
                if avail >= need:
                    p = <const unsigned char*>PyBytes_AS_STRING(buf) + pos
                    self.bpos[r] = pos + need
                    return _decode_row(p + 4, ln)
            if self.off[r] >= self.end[r]:
                if avail:
                    raise RuntimeError("sorter run truncated")
                self.bufs[r] = b""
                self.bpos[r] = 0
                return None
            want = self.bufsize if self.bufsize > need - avail else need - avail
            if want > self.end[r] - self.off[r]:
                want = self.end[r] - self.off[r]
            chunk = _os.pread(self.fd, want, self.off[r])
            if not chunk:
                raise RuntimeError("sorter run truncated")
            self.off[r] += len(chunk)
            buf = buf[pos:] + chunk if avail else chunk
            self.bufs[r] = buf
            pos = 0
            avail = PyBytes_GET_SIZE(buf)

    cdef inline bint _less(self, int a, int b) except -1:
        cdef int c = _cmp_rows(PyList_GET_ITEM(self.cur, a), PyList_GET_ITEM(self.cur, b),
                               self.fs, self.nk, 0)
        if c:
            return c < 0
        return a < b

    cdef int _sift(self, int i) except -1:
        cdef int n = self.nheap, l, m, t
        while True:
            l = 2 * i + 1
            if l >= n:
                return 0
            m = l
            if l + 1 < n and self._less(self.heap[l + 1], self.heap[l]):
                m = l + 1
            if self._less(self.heap[m], self.heap[i]):
                t = self.heap[m]
                self.heap[m] = self.heap[i]
                self.heap[i] = t
                i = m
            else:
                return 0

    def next_rows(self, Py_ssize_t n):
        """Up to ``n`` next rows in order (an empty list at the end)."""
        cdef list out = []
        cdef int r
        while self.nheap > 0 and len(out) < n:
            r = self.heap[0]
            out.append(self.cur[r])
            row = self._read(r)
            self.cur[r] = row
            if row is None:
                self.nheap -= 1
                self.heap[0] = self.heap[self.nheap]
            if self.nheap > 1:
                self._sift(0)
        return out


cdef tuple _norm_key(object row, Py_ssize_t n_key, list norms):
    """The first ``n_key`` fields of ``row`` normalised: TEXT by the field's collation key,
    byte strings as bytes (equal tuples = equal keys, and equal keys hash alike)."""
    cdef Py_ssize_t n = len(row), i
    cdef tuple out = PyTuple_New(n_key)
    cdef object v, nm
    cdef type t
    for i in range(n_key):
        v = row[i] if i < n else None
        t = type(v)
        if t is str:
            nm = norms[i]
            if nm is not None:
                v = nm(v)
        elif t is bytearray or t is memoryview:
            v = bytes(v)
        Py_INCREF(v)
        PyTuple_SET_ITEM(out, i, v)
    return out


cdef inline long long _bucket(tuple key) except -1:
    return (<long long>(hash(key) & 0x7FFFFFFF)) << 32


def hashed_entry(row, Py_ssize_t n_key, list norms, long long seq):
    """``(rowid, *row)`` for a spilled automatic index: the rowid is the hash of the
    normalised key (31 bits) above ``seq`` (32 bits)."""
    cdef tuple r = row if type(row) is tuple else tuple(row)
    cdef Py_ssize_t n = PyTuple_GET_SIZE(r), i
    cdef tuple out = PyTuple_New(n + 1)
    cdef object v = _bucket(_norm_key(r, n_key, norms)) | (seq & 0xFFFFFFFF)
    Py_INCREF(v)
    PyTuple_SET_ITEM(out, 0, v)
    for i in range(n):
        v = <object>PyTuple_GET_ITEM(r, i)
        Py_INCREF(v)
        PyTuple_SET_ITEM(out, i + 1, v)
    return out


def hashed_lookup(HashedRun run, key, Py_ssize_t n_key, list norms, list late):
    """The rows of a spilled automatic index whose normalised key equals ``key``'s, in
    insertion order (``late``: entries added after the run was written, or None)."""
    cdef tuple k = _norm_key(key, n_key, norms)
    cdef long long lo = _bucket(k)
    cdef long long hi = lo | 0xFFFFFFFF
    cdef list out = []
    for row in run.lookup(lo, hi):
        if _norm_key(row, n_key, norms) == k:
            out.append(row)
    if late is not None:
        for e in late:
            if lo <= e[0] <= hi and _norm_key(e[1:], n_key, norms) == k:
                out.append(e[1:])
    return out


def append_table(cursor, list rowids, list rows, encode):
    """``cursor.append(rowid, encode(row))`` for each rowid and row (rowids increasing)."""
    cdef Py_ssize_t i
    app = cursor.append
    for i in range(len(rows)):
        app(rowids[i], encode(rows[i]))


def _first(e):
    return e[0]


cdef class HashedRun:
    """The entries ``(rowid, *row)`` of a spilled automatic index, added in increasing rowid
    order, stored in a temporary file (``fd``) in blocks of ``block`` entries (run format);
    in memory only each block's first rowid, offset and length. ``lookup(lo, hi)`` reads the
    blocks that may hold rowids in ``[lo, hi]`` and decodes only the matching entries."""

    cdef int fd
    cdef Py_ssize_t block
    cdef Py_ssize_t nblocks
    cdef Py_ssize_t cap
    cdef long long* first
    cdef Py_ssize_t* off
    cdef Py_ssize_t* size
    cdef Py_ssize_t end
    cdef list pending
    cdef list odd       # entries the run format cannot hold (a str subtype), in memory

    def __cinit__(self, int fd, Py_ssize_t block=64):
        self.fd = fd
        self.block = block if block > 0 else 64
        self.nblocks = 0
        self.cap = 0
        self.first = NULL
        self.off = NULL
        self.size = NULL
        self.end = 0
        self.pending = []
        self.odd = []

    def __dealloc__(self):
        free(self.first)
        free(self.off)
        free(self.size)

    cdef int _grow(self) except -1:
        cdef Py_ssize_t cap = self.cap * 2 if self.cap else 256
        cdef long long* f = <long long*>realloc(self.first, cap * sizeof(long long))
        if f == NULL:
            raise MemoryError()
        self.first = f
        cdef Py_ssize_t* o = <Py_ssize_t*>realloc(self.off, cap * sizeof(Py_ssize_t))
        if o == NULL:
            raise MemoryError()
        self.off = o
        o = <Py_ssize_t*>realloc(self.size, cap * sizeof(Py_ssize_t))
        if o == NULL:
            raise MemoryError()
        self.size = o
        self.cap = cap
        return 0

    cdef int _flush(self) except -1:
        cdef bytes data
        if not self.pending:
            return 0
        data = encode_rows(self.pending)
        if data is None:
            good = []
            for e in self.pending:
                (good if encode_rows([e]) is not None else self.odd).append(e)
            self.pending = good
            if not good:
                return 0
            data = encode_rows(good)
        if self.nblocks == self.cap:
            self._grow()
        self.first[self.nblocks] = self.pending[0][0]
        self.off[self.nblocks] = self.end
        self.size[self.nblocks] = PyBytes_GET_SIZE(data)
        _os.pwrite(self.fd, data, self.end)
        self.end += PyBytes_GET_SIZE(data)
        self.nblocks += 1
        self.pending = []
        return 0

    def add(self, list entries):
        """Append entries (rowids not below the last one added)."""
        for e in entries:
            self.pending.append(e)
            if len(self.pending) >= self.block:
                self._flush()

    def finish(self):
        self._flush()

    def lookup(self, long long lo, long long hi):
        """The rows (without the rowid) of the entries with ``lo <= rowid <= hi``."""
        cdef Py_ssize_t a = 0, b = self.nblocks, m, i
        cdef list out = []
        cdef bytes data
        cdef const unsigned char* p
        cdef Py_ssize_t pos, n
        cdef uint32_t ln, nf
        cdef long long rid
        cdef tuple row
        # the last block whose first rowid is below lo: it may hold lo's first entries
        while a < b:
            m = (a + b) // 2
            if self.first[m] < lo:
                a = m + 1
            else:
                b = m
        i = a - 1 if a > 0 else 0
        while i < self.nblocks and self.first[i] <= hi:
            data = _os.pread(self.fd, self.size[i], self.off[i])
            p = <const unsigned char*>PyBytes_AS_STRING(data)
            n = PyBytes_GET_SIZE(data)
            pos = 0
            while pos + 4 <= n:
                memcpy(&ln, p + pos, 4)
                # each entry starts with its field count and the rowid (tag 1, int64)
                memcpy(&rid, p + pos + 4 + 4 + 1, 8)
                if rid > hi:
                    return self._with_odd(out, lo, hi)
                if rid >= lo:
                    row = _decode_row(p + pos + 4, ln)
                    out.append(row)
                pos += 4 + ln
            i += 1
        return self._with_odd(out, lo, hi)

    cdef list _with_odd(self, list entries, long long lo, long long hi):
        if self.odd:
            entries.extend([e for e in self.odd if lo <= e[0] <= hi])
            entries.sort(key=_first)
        return [e[1:] for e in entries]
