# The VM's transient row stores, cimported by _vm.pyx so that it reads their fields and
# calls their per-row methods as C (see _sorter.pyx).

cdef struct FieldSpec:
    bint desc
    bint nulls_first
    void* func           # borrowed collation comparison (a PyObject*), NULL for BINARY

cdef class SortSpec:
    cdef public int n_key
    cdef public list colls
    cdef public list desc
    cdef public list nulls_first
    cdef public object limit_regs
    cdef list _norms            # norms() padded to _norms_n fields (made once)
    cdef Py_ssize_t _norms_n
    cdef int _exact             # all_binary(): -1 not known yet
    cdef list norms(self, Py_ssize_t n)
    cdef bint exact(self) except -1


cdef class RowOrder:
    cdef FieldSpec* fs
    cdef int nk
    cdef list keep
    cpdef bint sorts_after(self, tuple a, tuple b) except -1


cdef class Sorter:
    cdef public list rows
    cdef public SortSpec spec
    cdef public Py_ssize_t pos
    cdef public Py_ssize_t trim_at
    cdef public object cutoff
    cdef public RowOrder order
    cdef public Py_ssize_t budget
    cdef public Py_ssize_t run_rows
    cdef public object file
    cdef public object runs
    cdef public object merger
    cdef public Py_ssize_t peak_rows
    cdef public bint topn
    cdef int _init(self, SortSpec spec) except -1
    cpdef trim(self, mem)
    cdef int _spill_check(self) except -1
    cdef int _write_run(self, data) except -1
    cdef int _merge_runs(self) except -1
    cdef int _load_all(self, list rest) except -1
    cdef Py_ssize_t _bufsize(self, Py_ssize_t nruns)
    cpdef sort(self)
    cpdef bint refill(self) except -1
    cpdef close(self)


cdef class EphTable:
    cdef public list rows
    cdef public list rowids
    cdef public object next_rowid
    cdef public Py_ssize_t pos
    cdef public Py_ssize_t check_at
    cdef public bint full
    cdef int _init(self) except -1
    cpdef int insert(self, object rowid, object row) except -1
    cdef Py_ssize_t find(self, object rowid) except -2
    cdef int _check(self) except -1


cdef class EphIndex:
    cdef public SortSpec spec
    cdef public Py_ssize_t n_fields
    cdef public dict entries
    cdef public list norms
    cdef public bint exact
    cdef public list sorted
    cdef public Py_ssize_t pos
    cdef public dict prefix_sets
    cdef int _init(self, SortSpec spec, Py_ssize_t n_fields) except -1
    cpdef int insert(self, object row) except -1
    cpdef int delete(self, object row) except -1
    cpdef bint found(self, object key_values) except -1
    cdef bint _found_slow(self, key_values) except -1
    cpdef list rows_sorted(self)


cdef class EphHash:
    cdef public int n_key
    cdef public list norms
    cdef public dict groups
    cdef public object cur
    cdef public Py_ssize_t count
    cdef public Py_ssize_t check_at
    cdef public object spilled
    cdef SortSpec order
    cdef Py_ssize_t n_order
    cdef bint unsorted
    cdef int _init(self, SortSpec spec, Py_ssize_t n_fields) except -1
    cpdef int insert(self, object row) except -1
    cdef int _check(self) except -1
    cdef int _sort_groups(self) except -1
    cpdef bint lookup(self, object key) except -1
    cdef int _sort_group(self, list g) except -1


cdef Sorter new_sorter(SortSpec spec)
cdef EphTable new_eph_table()
cdef EphIndex new_eph_index(SortSpec spec, Py_ssize_t n_fields)
cdef EphHash new_eph_hash(SortSpec spec, Py_ssize_t n_fields)
cpdef tuple row_key(object row, Py_ssize_t n, object norms)
