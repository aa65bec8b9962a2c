# cython: language_level=3
# C-level declarations of the b-tree pages and cursors of _btree.pyx, so that the VM loop
# can move cursors and read columns without Python calls. See _btree.pyx for the docs.

from libc.stdint cimport int64_t, uint64_t, uint32_t
from cpython.ref cimport PyObject
cimport cython

from sqlengine.storage._record cimport KeyInfo, PreparedKey, Unpacked
from sqlengine.storage._pageread cimport PagerState

cdef enum:
    REC_CACHE = 64      # record fields whose serial type and offset a cursor remembers


cdef struct CellInfo:
    int64_t key          # rowid (table) or payload size (index)
    int64_t npayload
    int hdrlen           # offset of the payload from the cell start
    int nlocal
    int size             # bytes of the cell (without the 4-byte minimum padding)
    uint32_t ovfl        # first overflow page, 0 if none


@cython.final
cdef class MemPage:
    cdef public int pgno
    cdef public bytearray data
    cdef unsigned char* a
    cdef public bint parsed
    cdef public int hdr
    cdef public int ptype
    cdef public bint leaf
    cdef public bint intkey
    cdef public int ncell
    cdef int cell_ptr
    cdef public int usable
    cdef int max_local
    cdef int min_local
    cdef int free_bytes             # nfree() since the last parse (-1: not counted yet)
    cdef public object pending      # (cells, right child) when the content overflows the page,
                                    # or (None, right child, cell, slot): see _pending_cells
    cdef int parse(self) except -1
    cdef int cell_offset(self, int i) except -1
    cdef int parse_cell(self, int off, CellInfo* info) except -1
    cdef uint32_t child(self, int i) except 0
    cdef int64_t cell_rowid(self, int i) except? -1
    cdef list cells(self)
    cdef uint32_t right_child(self)
    cdef int content_start(self) except -1
    cdef int nfree(self) except -1
    cdef int free_space(self, int start, int size, bint zero) except -1
    cdef int insert_cell_at(self, int i, bytes cell) except -1
    cdef int rebuild_with(self, int i, bytes cell) except -1
    cdef int drop_cell(self, int i, bint zero) except -1
    cdef int capacity(self, int ptype)
    cdef int build(self, list cells, int ptype, uint32_t rc) except -1
    cdef int build_from(self, unsigned char** ptrs, const int* sizes, int n, int ptype,
                        uint32_t rc) except -1

@cython.final
cdef class BtCursor:
    cdef public object bt
    cdef PagerState pager
    cdef dict cache
    cdef public uint32_t root
    cdef public bint writable
    cdef public KeyInfo key_info
    cdef public bint intkey
    cdef int state
    cdef list pages
    cdef int idx[20]
    cdef int depth
    cdef object saved_key
    cdef int skip_next
    cdef bint kept           # REQUIRESEEK after a delete with the path still held (restore is free)
    cdef int usable
    cdef tuple probe_key     # the key self.probe encodes (None: unknown)
    cdef bytes probe         # the record compared by compare_cell when no PreparedKey is given
    cdef Unpacked probe_u    # its header parsed (_set_probe), valid while probe_ok
    cdef bint probe_ok
    cdef list peers          # weak references to every cursor on this root (shared list)
    cdef dict registry       # the Btree's roots -> peers lists (Btree._cursors)
    cdef list parked         # its Btree's parked cursors while open (None: parked, or no pool)
    cdef object selfref
    cdef dict dirty
    cdef list savepoints
    cdef bint memdb          # the pager's database is in memory (mark_dirty's inline write)
    cdef bint memo_ok        # the cursor is where seek_rowid(memo_key) left it (result memo_c)
    cdef int64_t memo_key
    cdef int memo_c
    # the record of the current entry, its header parsed as far as Column has needed it
    # (SQLite's VdbeCursor aType/aOffset cache): valid while rec_ok; every move clears it
    cdef bint rec_ok
    cdef const unsigned char* rec_p     # the record (its local bytes: no overflow)
    cdef Py_ssize_t rec_size
    cdef Py_ssize_t rec_hsz             # header size
    cdef Py_ssize_t rec_hpos            # header bytes parsed so far
    cdef Py_ssize_t rec_body            # body offset of field rec_n
    cdef int rec_n                      # fields parsed
    cdef void* rec_page                 # the page and cell index the cache was made on
    cdef int rec_idx
    cdef uint32_t rec_type[REC_CACHE]
    cdef uint32_t rec_off[REC_CACHE]
    # the fields of that record read more than once, decoded (NULL: not kept), owned
    # references; they stay until the next record is loaded (_rec_load) or the cursor goes
    cdef uint64_t rec_seen              # bit i: field i read once since the record was loaded
    cdef PyObject* rec_val[REC_CACHE]
    cdef int rec_nval                   # rec_val[rec_nval:] are all NULL
    cdef object __weakref__
    cdef int attach(self) except -1
    cdef int detach(self) except -1
    cdef int mark_dirty(self, MemPage p) except -1
    cdef int save_peers(self) except -1
    cdef int _memo(self, int64_t rowid, int c)
    cdef MemPage get_page(self, uint32_t pgno)
    cdef int push(self, uint32_t pgno) except -1
    cdef MemPage top(self)
    cdef void _release(self)
    cdef int move_to_root(self) except -1
    cdef int move_to_leftmost(self) except -1
    cdef int move_to_rightmost(self) except -1
    cdef int restore(self) except -1
    cdef int save_position(self) except -1
    cdef int next_(self) except -1
    cdef int prev_(self) except -1
    cdef int seek_rowid(self, int64_t rowid) except -2
    cdef int _check_table(self) except -1
    cdef int _check_index(self) except -1
    cdef int _set_probe(self, bytes rec) except -1
    cdef int compare_cell(self, MemPage p, int i, PreparedKey key) except -2
    cdef int move_to_key(self, PreparedKey key, int bias, bint leaf_only) except -2
    cdef PreparedKey _probe_key(self, key)
    cdef bint _back_one(self, int c) except -1
    cdef int _need_valid(self) except -1
    cdef int64_t current_rowid(self) except? -1
    cdef bytes current_payload(self)
    cdef bytes read_payload(self, MemPage p, int off, CellInfo* info)
    cdef bytes make_cell(self, bint table, int64_t rowid, bytes payload)
    cdef int free_cell_overflow(self, MemPage p, int i) except -1
    cdef int _prepare_write(self) except -1
    cdef int _append(self, rowid, bytes payload) except -1
    cdef int _empty_leaf(self) except -1
    cdef int insert_row(self, int64_t rowid, bytes payload) except -1
    cdef int insert_key(self, bytes rec) except -1
    cdef bint payload_is(self, MemPage p, int i, bytes rec) except -1
    cdef void _after_write(self, key)
    cdef int replace_cell(self, int i, bytes cell) except -1
    cdef int insert_cell(self, int i, bytes cell) except -1
    cdef int balance_quick(self, MemPage p, bytes cell) except -1
    cdef int balance(self) except -1
    cdef bint underfull(self, MemPage p) except -1
    cdef int balance_root(self, MemPage root) except -1
    cdef bint edit_parent(self, MemPage parent, int first, int n, list newdivs, uint32_t lastpg) except -1
    cdef int balance_nonroot(self, MemPage parent, int pi, MemPage page) except -1
    cdef object column_or(self, Py_ssize_t i, object dflt, bint* done)
    cdef int _rec_load(self) except -1
    cdef void _rec_forget(self) noexcept
    cdef object rowid_c(self)
    cdef object idx_rowid_c(self)
    cdef bint seek_rowid_eq(self, int64_t rowid) except -1
    cpdef bint first(self) except -1
    cpdef bint last(self) except -1
    cpdef bint seek_ge(self, key) except -1
    cpdef bint seek_gt(self, key) except -1
    cpdef bint seek_le(self, key) except -1
    cpdef bint seek_lt(self, key) except -1
    cpdef int compare_key(self, key) except -2
    cdef bint seek_eq(self, key) except -1
    cdef int delete_entry(self) except -1


cdef BtCursor open_cursor(object bt, object root, bint writable, KeyInfo key_info)
cdef int park_cursor(BtCursor c) except -1
cpdef int save_all(object bt) except -1
cpdef int btree_commit(object bt) except -1
cdef int end_transaction(object bt) except -1
cpdef long long begin_cookie(object bt, bint write) except? -1
