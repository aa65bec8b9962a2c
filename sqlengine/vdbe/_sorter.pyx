# cython: language_level=3
"""The VM's transient row stores, compiled: ``SortSpec`` (a sorter's or index's ordering),
``Sorter`` (with its spill to sorted runs in a temporary file and their k-way merge),
``EphTable``, ``EphIndex`` and ``EphHash`` (the VM cimports them, _sorter.pxd, and calls
their per-row methods as C); a stable merge sort of record tuples with a C comparison of
SQL values; and the hashable row keys of DISTINCT, ephemeral indexes and hash joins.

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
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_New, PyTuple_SET_ITEM
from cpython.ref cimport Py_INCREF
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy

from sqlengine.vdbe._values cimport compare

cdef extern from "Python.h":
    int PyUnicode_Compare(object a, object b) except? -1
    void list_set_raw "PyList_SET_ITEM"(object lst, Py_ssize_t i, PyObject* o)


cdef inline int _cmp_values(object a, object b, void* func) except -2:
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


def sort_rows(list rows, SortSpec spec):
    """Sort ``rows`` (tuples) in place by ``spec`` (a SortSpec); stable."""
    _sort(rows, spec)


cdef int _sort(list rows, SortSpec spec) except -1:
    cdef int nk
    cdef Py_ssize_t n = len(rows), i
    cdef FieldSpec* fs
    cdef Entry* a
    cdef Entry* tmp
    cdef list keep
    if n < 2:
        return 0        # (nothing to order: the spec is not read)
    nk = spec.n_key
    if nk == 0:
        return 0
    for i in range(n):
        if type(<object>PyList_GET_ITEM(rows, i)) is not tuple:
            rows[i] = tuple(rows[i])
    keep = []
    fs = <FieldSpec*>malloc(nk * sizeof(FieldSpec))
    a = <Entry*>malloc(n * sizeof(Entry))
    tmp = <Entry*>malloc(n * sizeof(Entry))
    if fs == NULL or a == NULL or tmp == NULL:
        free(fs)
        free(a)
        free(tmp)
        raise MemoryError()
    try:
        _fill_field_specs(fs, nk, spec, keep)
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
    return 0


cpdef tuple row_key(object row, Py_ssize_t n, object norms):
    """A hashable key for the first ``n`` fields of ``row`` under per-field normalisers."""
    cdef Py_ssize_t i
    cdef tuple out = PyTuple_New(n)
    cdef type t
    cdef object v
    for i in range(n):
        v = row[i]
        t = type(v)
        if t is str:
            nm = norms[i]
            v = ("s", nm(v)) if nm is not None else ("s", v)
        elif t is bytes:
            v = ("b", v)
        elif t is bytearray or t is memoryview:
            v = ("b", bytes(v))
        # None, int, float: kept (Python equality is SQLite's: 1 == 1.0)
        Py_INCREF(v)
        PyTuple_SET_ITEM(out, i, v)
    return out


cdef int _fill_field_specs(FieldSpec* fs, int nk, SortSpec spec, list keep) except -1:
    """Fill ``fs[0..nk)`` from a sort spec (collation functions kept alive in ``keep``)."""
    cdef int i
    cdef list colls = spec.colls, desc = spec.desc, nulls_first = spec.nulls_first
    for i in range(nk):
        c = colls[i] if i < len(colls) else None
        f = c.func if c is not None else None
        keep.append(f)
        fs[i].func = NULL if f is None else <void*>f
        fs[i].desc = bool(desc[i]) if i < len(desc) else False
        fs[i].nulls_first = bool(nulls_first[i]) if i < len(nulls_first) else True
    return 0


cdef class RowOrder:
    """The order of a SortSpec prepared once, for comparing single rows (the top-N sorter's
    admission test)."""

    # (fields in _sorter.pxd: fs, nk, and keep, the collation functions fs points to)

    def __cinit__(self, SortSpec spec):
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

    def __cinit__(self, int fd, list runs, SortSpec spec, Py_ssize_t bufsize=16384):
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


# ---------------------------------------------------------------------------------------------
# The row stores the VM keeps per cursor: SortSpec (a sorter's or index's P4), Sorter,
# EphTable, EphIndex and EphHash. The VM cimports them (_sorter.pxd) and reads their fields
# and calls their per-row methods as C. Their budgets and run sizes are sorter.py's module
# attributes (tests change them): read from that module's namespace (``use_settings``) when
# a store is made or checked, never per row.

cimport cython
from cpython.list cimport PyList_GET_SIZE
from cpython.pyport cimport PY_SSIZE_T_MAX

import bisect as _bisect
import tempfile as _tempfile
from sys import getsizeof as sys_getsizeof

cdef extern from "Python.h":
    Py_ssize_t _PySys_GetSizeOf(object o) except? -1    # sys.getsizeof without the call
    const int PY_VERSION_HEX
    bint PyUnicode_IS_COMPACT_ASCII(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    Py_ssize_t Py_SIZE(object o)

# the defaults of sorter.py's settings (the values used until ``use_settings``)
cdef dict _cfg = {"SORTER_BUDGET": 1 << 20, "EPH_BUDGET": 1 << 20, "MERGE_FANIN": 64,
                  "_FIRST_CHECK": 64, "_MIN_RUN": 256, "_WINDOW": 256, "_MERGE_BATCH": 1024}


def use_settings(dict namespace):
    """Read the budgets and run sizes from ``namespace`` (sorter.py's globals) from now on."""
    global _cfg
    _cfg = namespace


cdef inline Py_ssize_t _setting(str name) except? -1:
    return _cfg[name]


# per row besides the tuple and its values: the list slot and the two sort entries
DEF ROW_OVERHEAD = 8 + 2 * 40

# sys.getsizeof of the common values without asking the object (a method look-up and call
# each): a tuple, float, bytes and ASCII str are a fixed size plus one per item, byte or
# character, an int (CPython 3.11's layout) a fixed size plus one per 30-bit digit beyond
# the first. The sizes are measured here and the shortcut is used only when it gives
# sys.getsizeof's answer for every sample below (so never on another layout). (An ASCII
# str's wchar_t copy, made only by the deprecated Py_UNICODE calls, is not counted.)
cdef Py_ssize_t _SZ_FLOAT = sys_getsizeof(0.0), _SZ_BYTES = sys_getsizeof(b"")
cdef Py_ssize_t _SZ_STR = sys_getsizeof(""), _SZ_TUPLE = sys_getsizeof(())
cdef Py_ssize_t _SZ_TUPLE_ITEM = sys_getsizeof((None,)) - _SZ_TUPLE
cdef Py_ssize_t _SZ_INT = sys_getsizeof(1), _SZ_DIGIT = sys_getsizeof(1 << 30) - _SZ_INT
cdef bint _sizes_known = False


cdef inline Py_ssize_t _size_of(object v) except -1:
    """sys.getsizeof(v)."""
    cdef type t = type(v)
    cdef Py_ssize_t n
    if _sizes_known:
        if t is int and PY_VERSION_HEX < 0x030C0000:
            n = Py_SIZE(v)
            if n < 0:
                n = -n
            return _SZ_INT + (n - 1) * _SZ_DIGIT if n > 1 else _SZ_INT
        if t is str and PyUnicode_IS_COMPACT_ASCII(v):
            return _SZ_STR + PyUnicode_GET_LENGTH(v)
        if t is float:
            return _SZ_FLOAT
        if t is bytes:
            return _SZ_BYTES + PyBytes_GET_SIZE(v)
        if t is tuple:
            return _SZ_TUPLE + PyTuple_GET_SIZE(v) * _SZ_TUPLE_ITEM
    return _PySys_GetSizeOf(v)


def _check_sizes():
    samples = [0, 1, -1, 7, 1 << 29, 1 << 30, -(1 << 45), 1 << 62, -(1 << 63), 1 << 100,
               0.0, -2.5, b"", b"abc", b"x" * 300, "", "a", "abc", "x" * 500, (), (1,),
               (1, "a", None, 2.5), tuple(range(40))]
    global _sizes_known
    _sizes_known = True
    for v in samples:
        if _size_of(v) != sys_getsizeof(v):
            _sizes_known = False
            return


_check_sizes()


cpdef Py_ssize_t row_bytes(list rows) except -1:
    """The estimated memory of one row of ``rows`` (from a sample of at most 32 of them):
    sys.getsizeof of the row and of each of its non-NULL values (``_size_of``), plus the
    overhead."""
    cdef Py_ssize_t n = PyList_GET_SIZE(rows), step, i, total = 0, count = 0, j
    cdef object r, v
    if not n:
        return 64 + ROW_OVERHEAD
    step = n // 32 if n >= 32 else 1
    i = 0
    while i < n:
        r = <object>PyList_GET_ITEM(rows, i)
        total += _size_of(r)
        if type(r) is tuple:
            for j in range(PyTuple_GET_SIZE(r)):
                v = <object>PyTuple_GET_ITEM(r, j)
                if v is not None:
                    total += _size_of(v)
        else:
            for v in r:
                if v is not None:
                    total += _size_of(v)
        count += 1
        i += step
    return total // count + ROW_OVERHEAD


@cython.final
cdef class SortSpec:
    """The ordering of a sorter or ephemeral index: ``n_key`` leading fields compared, each
    with a Coll (or None), a DESC flag and a NULLS FIRST flag. Made once per sorter a
    statement compiles (its P4), so the EXPLAIN text is only made when a listing asks.
    ``limit_regs``: (LIMIT register, OFFSET register or 0) of an ORDER BY ... LIMIT sorter:
    only the first LIMIT+OFFSET rows in sort order are ever read, so the sorter keeps no
    more (SQLite's top-N sort); None: every row is kept. The fields are not changed once
    a statement uses the spec (its normalisers are worked out once)."""

    def __init__(self, int n_key, colls=None, desc=None, nulls_first=None):
        self.n_key = n_key
        self.colls = list(colls) if colls else [None] * n_key
        if desc:
            self.desc = list(desc)
            self.nulls_first = ([not d for d in self.desc] if nulls_first is None
                                else list(nulls_first))
        else:
            self.desc = [False] * n_key
            self.nulls_first = [True] * n_key if nulls_first is None else list(nulls_first)
        self.limit_regs = None
        self._norms = None
        self._exact = -1

    @property
    def explain(self):
        """The P4 text of EXPLAIN: ``k(N,...)``, a ``-`` for each DESC field."""
        return "k(%d%s)" % (self.n_key, "".join([",-" if d else "," for d in self.desc]))

    def all_binary(self):
        return all(c is None or c.func is None or c.key is not None for c in self.colls)

    cdef bint exact(self) except -1:
        if self._exact < 0:
            self._exact = 1 if self.all_binary() else 0
        return self._exact

    cdef list norms(self, Py_ssize_t n):
        """The text normaliser of each of ``n`` fields (a collation's key, or None)."""
        if self._norms is not None and self._norms_n == n:
            return self._norms
        out = [c.key if c is not None else None for c in self.colls]
        if n > len(out):
            out += [None] * (n - len(out))
        self._norms = out
        self._norms_n = n
        return out


def _field_cmp(coll):
    f = coll.func if coll is not None else None

    def cmp(a, b):
        return compare(a, b, f)
    return cmp


@cython.final
cdef class Sorter:
    """Rows added in any order, read back sorted (SorterOpen/Insert/Sort/Next).

    The VM appends to ``rows`` and calls ``trim`` when their count reaches ``trim_at``
    (0: never). After ``sort``, ``rows`` holds the sorted rows the VM reads by ``pos``; when
    the rows were spilled, it holds only a window of them and ``refill`` (called by the VM
    at the window's end, ``merger`` set) loads the next window.

    Top-N (``spec.limit_regs`` set): ``trim`` sorts the rows and cuts them to LIMIT+OFFSET
    (read from the registers then). The sort is stable, so the rows kept are exactly the
    first ones of the full sort. After a cut, ``cutoff`` is the last row kept: a new row
    that ``order.sorts_after`` it can never be read and the VM drops it at once.

    Otherwise the in-memory part is bounded (SQLite's external merge sort): ``trim`` first
    estimates the memory of a row and sets the run length that fits ``SORTER_BUDGET`` bytes;
    each full run is sorted and written to an anonymous temporary file (``encode_rows``) and
    ``sort`` merges the runs (``RunMerger``; at most ``MERGE_FANIN`` at once, more go
    through intermediate merges). Runs are written in insertion order and the merge takes
    equal rows from the earlier run first, so the whole sort stays stable. A row holding a
    value the run format cannot keep exactly (a str subclass with a subtype) makes the
    sorter keep everything in memory."""

    def __init__(self, SortSpec spec):
        self._init(spec)

    cdef int _init(self, SortSpec spec) except -1:
        self.rows = []
        self.spec = spec
        self.pos = 0
        self.cutoff = None
        self.order = None
        self.budget = _setting("SORTER_BUDGET")
        self.run_rows = 0        # rows per run once estimated; 0 before
        self.file = None
        self.runs = None
        self.merger = None
        self.peak_rows = 0       # the most rows held in memory at once (for tests)
        self.topn = spec.limit_regs is not None
        if self.topn:
            self.trim_at = 256
        else:
            self.trim_at = _setting("_FIRST_CHECK") if self.budget else 0
        return 0

    cpdef trim(self, mem):
        if not self.topn:
            self._spill_check()
            return
        lreg, oreg = self.spec.limit_regs
        limit = mem[lreg]
        offset = mem[oreg] if oreg else 0
        if type(limit) is not int or limit < 0 or (oreg and type(offset) is not int):
            # no usable bound: keep every row, as an ordinary (spilling) sorter
            self.topn = False
            self.trim_at = _setting("_FIRST_CHECK") if self.budget else 0
            self._spill_check()
            return
        bound = limit + (offset if offset > 0 else 0)
        _sort(self.rows, self.spec)
        if bound < len(self.rows):
            del self.rows[bound:]
        # max(2 * bound, 256); a bound beyond any list's length: never trimmed again
        self.trim_at = (PY_SSIZE_T_MAX if bound > PY_SSIZE_T_MAX // 4 else
                        2 * bound if bound > 128 else 256)
        if bound > 0 and len(self.rows) == bound and type(self.rows[-1]) is tuple:
            self.cutoff = self.rows[-1]
            if self.order is None:
                self.order = RowOrder(self.spec)

    cdef int _spill_check(self) except -1:
        cdef list rows = self.rows
        cdef Py_ssize_t min_run
        if not self.budget:
            self.trim_at = 0
            return 0
        # estimated again at each check: the rows of one sorter may grow as it fills
        min_run = _setting("_MIN_RUN")
        self.run_rows = self.budget // row_bytes(rows)
        if self.run_rows < min_run:
            self.run_rows = min_run
        if len(rows) < self.run_rows:
            self.trim_at = self.run_rows
            return 0
        if len(rows) > self.peak_rows:
            self.peak_rows = len(rows)
        _sort(rows, self.spec)
        data = encode_rows(rows)
        if data is None:
            # a value the run format cannot hold: everything stays in memory
            self.trim_at = 0
            return 0
        self._write_run(data)
        rows.clear()
        self.trim_at = self.run_rows
        return 0

    cdef int _write_run(self, data) except -1:
        if self.file is None:
            self.file = _tempfile.TemporaryFile(prefix="sqlengine-sort-")
            self.runs = []
        f = self.file
        off = f.seek(0, 2)
        f.write(data)
        f.flush()
        self.runs.append((off, len(data)))
        return 0

    cpdef sort(self):
        cdef list rows = self.rows
        if len(rows) > self.peak_rows:
            self.peak_rows = len(rows)
        _sort(rows, self.spec)
        self.pos = 0
        if self.runs is None:
            return
        if rows:
            data = encode_rows(rows)
            if data is None:
                # the last rows hold a value the runs cannot keep: finish in memory
                rest = list(rows)
                rows.clear()
                self._load_all(rest)
                return
            self._write_run(data)
            rows.clear()
        self._merge_runs()

    cdef int _merge_runs(self) except -1:
        cdef Py_ssize_t fanin = _setting("MERGE_FANIN"), batch = _setting("_MERGE_BATCH")
        fd = self.file.fileno()
        runs = self.runs
        while len(runs) > fanin:
            merged = []
            for i in range(0, len(runs), fanin):
                group = runs[i:i + fanin]
                if len(group) == 1:
                    merged.append(group[0])
                    continue
                m = RunMerger(fd, group, self.spec, self._bufsize(len(group)))
                f = self.file
                off = f.seek(0, 2)
                total = 0
                while True:
                    rows = m.next_rows(batch)
                    if not rows:
                        break
                    data = encode_rows(rows)
                    f.write(data)
                    total += len(data)
                f.flush()
                merged.append((off, total))
            runs = merged
        self.runs = runs
        self.merger = RunMerger(fd, runs, self.spec, self._bufsize(len(runs)))
        self.rows = self.merger.next_rows(_setting("_WINDOW"))
        return 0

    cdef int _load_all(self, list rest) except -1:
        m = RunMerger(self.file.fileno(), self.runs, self.spec, self._bufsize(len(self.runs)))
        cdef Py_ssize_t batch = _setting("_MERGE_BATCH")
        cdef list out = []
        while True:
            rows = m.next_rows(batch)
            if not rows:
                break
            out.extend(rows)
        out.extend(rest)
        _sort(out, self.spec)
        self.rows = out
        self.close()
        return 0

    cdef Py_ssize_t _bufsize(self, Py_ssize_t nruns):
        cdef Py_ssize_t n = self.budget // (nruns if nruns > 1 else 1) // 2
        return n if n > 4096 else 4096

    cpdef bint refill(self) except -1:
        """Load the next window of merged rows; False at the end."""
        self.rows = self.merger.next_rows(_setting("_WINDOW"))
        if self.rows:
            return True
        self.close()
        return False

    cpdef close(self):
        self.merger = None
        if self.file is not None:
            self.file.close()
            self.file = None
        self.runs = None


cdef Sorter new_sorter(SortSpec spec):
    """Sorter(spec) without the type call (one per SorterOpen and ResetSorter run)."""
    cdef Sorter s = Sorter.__new__(Sorter)
    s._init(spec)
    return s


@cython.final
cdef class EphTable:
    """A transient rowid table: rows kept in rowid order (rowids only ever grow).

    Beyond ``EPH_BUDGET`` bytes (estimated at the ``check_at``-th row, then again when the
    estimate's row count is reached) ``full`` is set; the VM then moves a table whose
    cursor has not been positioned yet into a ``SpilledTable`` (a rowid b-tree in a
    temporary file, which the VM reads as an ordinary table cursor)."""

    def __init__(self):
        self._init()

    cdef int _init(self) except -1:
        cdef Py_ssize_t budget = _setting("EPH_BUDGET")
        self.rows = []
        self.rowids = []
        self.next_rowid = 1
        self.pos = -1
        self.check_at = _setting("_FIRST_CHECK") if budget else -1
        self.full = False
        return 0

    cpdef int insert(self, object rowid, object row) except -1:
        cdef list rowids = self.rowids
        cdef Py_ssize_t n = PyList_GET_SIZE(rowids), i
        if n and rowid <= <object>PyList_GET_ITEM(rowids, n - 1):
            # Out of order or replace: keep the lists sorted.
            i = _bisect.bisect_left(rowids, rowid)
            if i < n and rowids[i] == rowid:
                self.rows[i] = row
                return 0
            rowids.insert(i, rowid)
            self.rows.insert(i, row)
        else:
            rowids.append(rowid)
            self.rows.append(row)
        if rowid >= self.next_rowid:
            self.next_rowid = rowid + 1
        if PyList_GET_SIZE(self.rows) == self.check_at:
            self._check()
        return 0

    cdef Py_ssize_t find(self, object rowid) except -2:
        """The position of ``rowid`` in the table, -1 when it has none."""
        cdef Py_ssize_t i = _bisect.bisect_left(self.rowids, rowid)
        if i < PyList_GET_SIZE(self.rowids) and self.rowids[i] == rowid:
            return i
        return -1

    cdef int _check(self) except -1:
        cdef list rows = self.rows
        cdef Py_ssize_t per, limit, first = _setting("_FIRST_CHECK")
        sample = rows[::max(1, len(rows) // 32)]
        per = row_bytes(sample) - ROW_OVERHEAD + 8 + 8 + 32   # + rowid and its slot
        limit = _setting("EPH_BUDGET") // per
        if limit < first:
            limit = first
        if len(rows) < limit:
            self.check_at = limit
        elif encode_rows(sample) is None or any(type(r) is not int for r in self.rowids[:1]):
            self.check_at = -1       # values a b-tree cannot keep exactly: stay in memory
        else:
            self.full = True
            self.check_at = -1
        return 0


cdef EphTable new_eph_table():
    """EphTable() without the type call."""
    cdef EphTable t = EphTable.__new__(EphTable)
    t._init()
    return t


@cython.final
cdef class EphIndex:
    """A transient index of rows: membership by key prefix, iteration in key order."""

    def __init__(self, SortSpec spec, Py_ssize_t n_fields):
        self._init(spec, n_fields)

    cdef int _init(self, SortSpec spec, Py_ssize_t n_fields) except -1:
        self.spec = spec
        self.n_fields = n_fields
        self.entries = {}
        self.norms = spec.norms(n_fields)     # shared with the spec: never changed
        self.exact = spec.exact()
        self.sorted = None
        self.pos = -1
        self.prefix_sets = None
        return 0

    def key(self, row, n):
        return row_key(row, n, self.norms)

    cpdef int insert(self, object row) except -1:
        self.entries[row_key(row, len(row), self.norms)] = row
        self.sorted = None
        self.prefix_sets = None
        return 0

    cpdef int delete(self, object row) except -1:
        k = row_key(row, len(row), self.norms)
        if k in self.entries:
            del self.entries[k]
            self.sorted = None
            self.prefix_sets = None
        return 0

    cpdef bint found(self, object key_values) except -1:
        cdef Py_ssize_t n = len(key_values)
        if not self.exact:
            return self._found_slow(key_values)
        k = row_key(key_values, n, self.norms)
        if n >= self.n_fields:
            return k in self.entries
        if self.prefix_sets is None:
            self.prefix_sets = {}
        s = self.prefix_sets.get(n)
        if s is None:
            s = {kk[:n] for kk in self.entries}
            self.prefix_sets[n] = s
        return k in s

    cdef bint _found_slow(self, key_values) except -1:
        n = len(key_values)
        cmps = [_field_cmp(c) for c in self.spec.colls] + [_field_cmp(None)] * n
        for row in self.entries.values():
            for i in range(n):
                if cmps[i](row[i], key_values[i]) != 0:
                    break
            else:
                return True
        return False

    cpdef list rows_sorted(self):
        cdef SortSpec spec
        cdef Py_ssize_t extra
        if self.sorted is None:
            rows = list(self.entries.values())
            spec = self.spec
            if spec.n_key < self.n_fields:
                extra = self.n_fields - spec.n_key
                spec = SortSpec(self.n_fields, spec.colls + [None] * extra,
                                spec.desc + [False] * extra)
            _sort(rows, spec)
            self.sorted = rows
        return self.sorted

    def __len__(self):
        return len(self.entries)


cdef EphIndex new_eph_index(SortSpec spec, Py_ssize_t n_fields):
    """EphIndex(spec, n_fields) without the type call."""
    cdef EphIndex x = EphIndex.__new__(EphIndex)
    x._init(spec, n_fields)
    return x


@cython.final
cdef class EphHash:
    """A transient hash index (SQLite's automatic index, as a hash): rows grouped by the
    normalised value of their first ``n_key`` fields; a lookup yields one group (``cur``),
    in the order of SQLite's b-tree index: by the rows' other fields (BINARY, then the
    rowid that ends them). Rows holding the key and the rowid alone come in insertion
    order (the fill reads its table in rowid order), so only wider rows are sorted, each
    group once, at the first lookup after an insert.

    Beyond ``EPH_BUDGET`` bytes (estimated) the rows move to a ``SpilledIndex`` (sorter.py):
    a b-tree index in a temporary file with a bounded page cache, as SQLite keeps its
    automatic indexes; lookups then seek it."""

    def __init__(self, SortSpec spec, Py_ssize_t n_fields=0):
        self._init(spec, n_fields)

    cdef int _init(self, SortSpec spec, Py_ssize_t n_fields) except -1:
        cdef Py_ssize_t budget = _setting("EPH_BUDGET")
        self.order = None  # (made at the first group to sort)
        self.n_order = n_fields if n_fields > spec.n_key + 1 else 0
        self.unsorted = False
        self.n_key = spec.n_key
        self.norms = spec.norms(spec.n_key)   # shared with the spec: never changed
        self.groups = {}
        self.cur = ()
        self.count = 0
        self.check_at = _setting("_FIRST_CHECK") if budget else -1
        self.spilled = None
        return 0

    cpdef int insert(self, object row) except -1:
        self.unsorted = True
        if self.spilled is not None:
            self.spilled.add(row)
            self.count += 1
            return 0
        k = row_key(row, self.n_key, self.norms)
        g = self.groups.get(k)
        if g is None:
            self.groups[k] = [row]
        else:
            (<list?>g).append(row)
        self.count += 1
        if self.count == self.check_at:
            self._check()
        return 0

    cdef int _check(self) except -1:
        cdef Py_ssize_t per, limit, first = _setting("_FIRST_CHECK")
        cdef list sample = []
        for g in self.groups.values():
            sample.append(g[0])
            if len(sample) >= 32:
                break
        # the row, its key tuple and the dict's and group list's share
        per = row_bytes(sample) + 56 + 8 * self.n_key + 100
        limit = _setting("EPH_BUDGET") // per
        if limit < first:
            limit = first
        if self.count < limit:
            self.check_at = limit
            return 0
        if encode_rows(sample) is None:
            self.check_at = -1     # values the temporary b-tree cannot keep exactly
            return 0
        from sqlengine.vdbe.sorter import SpilledIndex
        sp = SpilledIndex(self.n_key, self.norms)
        for g in self.groups.values():
            for row in g:
                sp.add(row)
        self.groups = {}
        self.spilled = sp
        return 0

    cdef int _sort_group(self, list g) except -1:
        """Put group ``g`` in the index's order (see the class docstring)."""
        if len(g) > 1:
            if self.order is None:
                self.order = SortSpec(self.n_order)
            _sort(g, self.order)
        return 0

    cdef int _sort_groups(self) except -1:
        for g in self.groups.values():
            self._sort_group(<list>g)
        self.unsorted = False
        return 0

    cpdef bint lookup(self, object key) except -1:
        if self.spilled is not None:
            self.cur = self.spilled.lookup(key)  # (a new list each time)
            if self.n_order:
                self._sort_group(<list>self.cur)
        else:
            if self.unsorted and self.n_order:
                self._sort_groups()
            self.cur = self.groups.get(row_key(key, self.n_key, self.norms), ())
        return len(self.cur) > 0

    def __len__(self):
        return self.count


cdef EphHash new_eph_hash(SortSpec spec, Py_ssize_t n_fields):
    """EphHash(spec, n_fields) without the type call."""
    cdef EphHash h = EphHash.__new__(EphHash)
    h._init(spec, n_fields)
    return h
