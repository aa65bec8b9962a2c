# cython: language_level=3
# C-level declarations of the pager's compiled part (_pageread.pyx): its state as C fields
# (PagerState, the base of pager.Pager) and the page-miss path, for the b-tree cursors and
# the VM's transaction start and end.


cdef class PagerState:
    cdef public dict cache              # pgno -> page object (the cache)
    cdef public dict dirty              # pgno -> page changed by the write transaction
    cdef public set journaled           # pgnos whose original image the journal holds
    cdef public list savepoints         # open Savepoint objects, innermost last
    cdef public int in_trans            # 0 none, 1 read, 2 write
    cdef public long long db_size       # pages, as seen by the current transaction
    cdef public long long orig_db_size  # pages when the write transaction began
    cdef public int page_size
    cdef public int reserved            # bytes reserved at the end of every page
    cdef public bint memory             # an in-memory database (":memory:" or "")
    cdef public bint spilled            # the file holds pages of the open write transaction
    cdef public object file             # the VFS file of the database
    cdef public object change_counter   # bytes of the header's change counter last seen
    cdef public object _last_header     # (header, file size, db_size, page_size) last parsed
    cdef public Py_ssize_t spill_limit  # dirty pages beyond which maybe_spill is called
    cdef public Py_ssize_t _next_shrink # cache size at which the eviction scan runs next
    cdef public long long max_pgno      # PRAGMA max_page_count: no page is allocated past it
    cdef public int secure_delete       # PRAGMA secure_delete: 0 off, 1 on, 2 fast
    cdef public bint exclusive          # PRAGMA locking_mode = EXCLUSIVE: locks kept
    cdef public bint kept_journal       # a DELETE journal exclusive mode kept on disk


cdef bytearray read_page_data(object pager, Py_ssize_t pgno)
cdef int cache_page(object pager, Py_ssize_t pgno, object page) except -1
cpdef object load_page(object pager, Py_ssize_t pgno)
cpdef shrink_cache(object pager)
cpdef commit_memory(object pager)
