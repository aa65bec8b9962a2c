# cython: language_level=3
"""B-tree pages and cursors: parsing cells, moving (first/last/next/prev/seek), inserting and
deleting entries, and balancing (redistributing cells among up to three siblings, growing and
shrinking the tree at the root), for table b-trees (intkey, data in leaves) and index b-trees
(keys are records, in interior cells too).

Invariants kept here (checked by integrity_check): every leaf is at the same depth; no page
but the root is empty; keys are ordered within and across pages; each cell lies inside the
cell content area; a page written here has no freeblocks (it is rebuilt defragmented).

A cursor is VALID (on an entry), INVALID (no entry: empty tree or past either end) or
REQUIRESEEK (its tree changed under it, or it deleted its entry: the key is saved and the
position is restored lazily by a seek, SQLite's saveCursorPosition/restoreCursorPosition).
After a delete, the next ``next()`` lands on the entry that followed the deleted one; when
the delete left the leaf without balancing and that entry on it, the cursor keeps its path
(``kept``) and restoring costs no seek (SQLite's BTREE_SAVEPOSITION), until any change of
the tree through another cursor or any move drops the path.

This module never reads files (pages come from the pager), never knows SQL; corruption is
reported as DatabaseError("database disk image is malformed"), and every loop is bounded.
"""

from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE
from libc.string cimport memcmp, memcpy, memmove, memset
from libc.stdlib cimport malloc, free
from libc.stdint cimport int64_t, uint64_t, uint32_t
cimport cython

from sqlengine.storage._varint cimport get_varint, put_varint, varint_len, serial_size
from sqlengine.storage._record cimport (KeyInfo, PreparedKey, prepare_key, compare_record_key,
                                        decode_value, decode_record_at, decode_column_at,
                                        decode_column_or, decode_last_at,
                                        compare_records, encode_record, Unpacked,
                                        unpack_record, compare_unpacked)
from sqlengine.storage._record import decode_record, decode_column

from sqlengine.storage._pageread cimport (PagerState, load_page, read_page_data, cache_page,
                                          commit_memory)
from sqlengine.errors import DatabaseError, Error, SQLITE_CORRUPT
from cpython.weakref cimport PyWeakref_NewRef, PyWeakref_GET_OBJECT
from cpython.list cimport PyList_GET_ITEM
from cpython.ref cimport PyObject, Py_INCREF, Py_XDECREF

DEF MAX_DEPTH = 20

cdef enum:
    CURSOR_INVALID = 0
    CURSOR_VALID = 1
    CURSOR_REQUIRESEEK = 2


# balancing's cell arrays (see balance_nonroot): pointers and sizes, no object per cell
cdef struct Gather:
    unsigned char** ptrs      # each cell's bytes (no copy of its own)
    int* sizes                # each cell's size (without the 4-byte minimum)
    int n                     # cells gathered
    int* ends                 # _pack's page ends (room for a page per cell, plus one)
    unsigned char* scratch    # copies of the sibling pages and of the dividers
    int used                  # bytes of scratch taken


cdef object corrupt():
    return DatabaseError("database disk image is malformed", code=SQLITE_CORRUPT)


cdef inline uint32_t get2(const unsigned char* p) noexcept:
    return (p[0] << 8) | p[1]


cdef inline uint32_t get4(const unsigned char* p) noexcept:
    return (<uint32_t>p[0] << 24) | (<uint32_t>p[1] << 16) | (<uint32_t>p[2] << 8) | p[3]


cdef inline void put2(unsigned char* p, uint32_t v) noexcept:
    p[0] = (v >> 8) & 0xFF
    p[1] = v & 0xFF


cdef inline void put4(unsigned char* p, uint32_t v) noexcept:
    p[0] = (v >> 24) & 0xFF
    p[1] = (v >> 16) & 0xFF
    p[2] = (v >> 8) & 0xFF
    p[3] = v & 0xFF


cdef bytes pack4(uint32_t v):
    cdef unsigned char b[4]
    put4(b, v)
    return PyBytes_FromStringAndSize(<char*>b, 4)


# ---------------------------------------------------------------------------------------------
# pages

@cython.final
cdef class MemPage:
    """One page as the b-tree sees it: the pager's bytearray plus its parsed header."""

    def __init__(self, int pgno, bytearray data, int usable):
        self.pgno = pgno
        self.data = data
        self.a = <unsigned char*>PyByteArray_AS_STRING(data)
        self.parsed = False
        self.hdr = 100 if pgno == 1 else 0
        self.usable = usable
        self.pending = None
        self.free_bytes = -1

    def invalidate(self):
        self.a = <unsigned char*>PyByteArray_AS_STRING(self.data)
        self.parsed = False
        self.free_bytes = -1

    cdef int parse(self) except -1:
        cdef unsigned char* a = <unsigned char*>PyByteArray_AS_STRING(self.data)
        self.a = a
        cdef int t = a[self.hdr]
        if t != 2 and t != 5 and t != 10 and t != 13:
            raise corrupt()
        self.ptype = t
        self.leaf = (t & 8) != 0
        self.intkey = (t == 5 or t == 13)
        self.ncell = get2(a + self.hdr + 3)
        self.cell_ptr = self.hdr + (8 if self.leaf else 12)
        if self.cell_ptr + 2 * self.ncell > self.usable:
            raise corrupt()
        if self.intkey:
            self.max_local = self.usable - 35
        else:
            self.max_local = ((self.usable - 12) * 64 // 255) - 23
        self.min_local = ((self.usable - 12) * 32 // 255) - 23
        self.free_bytes = -1
        self.parsed = True
        return 0

    def parse_header(self):
        self.parse()

    cdef int cell_offset(self, int i) except -1:
        cdef int off = get2(self.a + self.cell_ptr + 2 * i)
        if off < self.cell_ptr + 2 * self.ncell or off > self.usable - 4:
            raise corrupt()
        return off

    cdef int parse_cell(self, int off, CellInfo* info) except -1:
        cdef const unsigned char* p = self.a + off
        cdef int avail = self.usable - off
        cdef uint64_t v
        cdef int n, pos = 0
        cdef int64_t npay
        info.ovfl = 0
        if not self.leaf:
            if avail < 5:
                raise corrupt()
            pos = 4
            if self.intkey:
                n = get_varint(p + 4, avail - 4, &v)
                if n == 0:
                    raise corrupt()
                info.key = <int64_t>v
                info.npayload = 0
                info.hdrlen = 4 + n
                info.nlocal = 0
                info.size = 4 + n
                return 0
        n = get_varint(p + pos, avail - pos, &v)
        if n == 0:
            raise corrupt()
        pos += n
        npay = <int64_t>v
        if v > 0x7FFFFFFF:
            raise corrupt()
        if self.intkey:
            n = get_varint(p + pos, avail - pos, &v)
            if n == 0:
                raise corrupt()
            pos += n
            info.key = <int64_t>v
        else:
            info.key = npay
        info.npayload = npay
        info.hdrlen = pos
        if npay <= self.max_local:
            info.nlocal = <int>npay
            info.size = pos + <int>npay
        else:
            k = self.min_local + (npay - self.min_local) % (self.usable - 4)
            info.nlocal = <int>(k if k <= self.max_local else self.min_local)
            info.size = pos + info.nlocal + 4
        if info.size > avail:
            raise corrupt()
        if info.nlocal < npay:
            info.ovfl = get4(p + pos + info.nlocal)
        return 0

    cdef uint32_t child(self, int i) except 0:
        """Child page i of an interior page (i == ncell: the right-most child)."""
        cdef uint32_t pg
        if i >= self.ncell:
            pg = get4(self.a + self.hdr + 8)
        else:
            pg = get4(self.a + self.cell_offset(i))
        if pg == 0:
            raise corrupt()
        return pg

    cdef int64_t cell_rowid(self, int i) except? -1:
        cdef CellInfo info
        self.parse_cell(self.cell_offset(i), &info)
        return info.key

    cdef list cells(self):
        """The cells of the page, as bytes, in order."""
        cdef CellInfo info
        cdef int i, off
        out = []
        for i in range(self.ncell):
            off = self.cell_offset(i)
            self.parse_cell(off, &info)
            out.append(PyBytes_FromStringAndSize(<char*>self.a + off, info.size))
        return out

    cdef uint32_t right_child(self):
        return 0 if self.leaf else get4(self.a + self.hdr + 8)

    cdef int content_start(self) except -1:
        cdef int top = get2(self.a + self.hdr + 5)
        if top == 0:
            top = 65536
        if top > self.usable or top < self.cell_ptr + 2 * self.ncell:
            raise corrupt()
        return top

    cdef int nfree(self) except -1:
        """Free bytes: the gap, the freeblocks and the fragments. Counted once after each
        parse (walking the freeblocks), then kept in ``free_bytes`` by every change made
        here (SQLite's MemPage.nFree)."""
        if self.free_bytes >= 0:
            return self.free_bytes
        cdef unsigned char* a = self.a
        cdef int top = self.content_start()
        cdef int total = top - (self.cell_ptr + 2 * self.ncell) + a[self.hdr + 7]
        cdef int fb = get2(a + self.hdr + 1)
        cdef int guard = 0
        while fb:
            guard += 1
            if fb < top or fb > self.usable - 4 or guard > self.usable // 4:
                raise corrupt()
            total += get2(a + fb + 2)
            fb = get2(a + fb)
        if total > self.usable:
            raise corrupt()
        self.free_bytes = total
        return total

    cdef int free_space(self, int start, int size, bint zero) except -1:
        """Return [start, start+size) to the page as a freeblock, merging neighbours
        (SQLite's freeSpace), its bytes first overwritten with zeros when ``zero`` (PRAGMA
        secure_delete ON or FAST). size >= 4."""
        cdef unsigned char* a = self.a
        cdef int hdr = self.hdr
        cdef int iptr = hdr + 1
        cdef int fb = get2(a + iptr)
        cdef int end = start + size
        cdef int nfrag = 0
        cdef int guard = 0
        cdef int top, ptr_end
        if zero:
            memset(a + start, 0, size)
        while fb != 0 and fb < start:
            guard += 1
            if fb <= iptr or guard > self.usable // 4:
                raise corrupt()
            iptr = fb
            fb = get2(a + fb)
        if fb > self.usable - 4 or (fb != 0 and fb < end):
            raise corrupt()
        if fb != 0 and end + 3 >= fb:
            nfrag = fb - end
            end = fb + get2(a + fb + 2)
            if end > self.usable:
                raise corrupt()
            fb = get2(a + fb)
        if iptr > hdr + 1:
            ptr_end = iptr + get2(a + iptr + 2)
            if ptr_end + 3 >= start:
                if ptr_end > start:
                    raise corrupt()
                nfrag += start - ptr_end
                start = iptr
        if nfrag > a[hdr + 7]:
            raise corrupt()
        a[hdr + 7] -= nfrag
        size = end - start
        top = self.content_start()
        if start <= top:
            if start < top or iptr != hdr + 1:
                raise corrupt()
            put2(a + hdr + 1, fb)
            put2(a + hdr + 5, end if end < 65536 else 0)
        else:
            put2(a + iptr, start)
            put2(a + start, fb)
            put2(a + start + 2, size)
        return 0

    cdef int insert_cell_at(self, int i, bytes cell) except -1:
        """Insert a cell at slot i; the caller has checked that it fits in nfree()."""
        cdef int sz = PyBytes_GET_SIZE(cell)
        cdef int alloc = sz if sz >= 4 else 4
        cdef int n = self.ncell
        cdef int top = self.content_start()
        cdef unsigned char* a
        if top - (self.cell_ptr + 2 * n) < alloc + 2:
            self.rebuild_with(i, cell)
            return 0
        a = self.a
        top -= alloc
        memcpy(a + top, PyBytes_AS_STRING(cell), sz)
        if alloc > sz:
            memset(a + top + sz, 0, alloc - sz)
        memmove(a + self.cell_ptr + 2 * i + 2, a + self.cell_ptr + 2 * i, 2 * (n - i))
        put2(a + self.cell_ptr + 2 * i, top)
        put2(a + self.hdr + 3, n + 1)
        put2(a + self.hdr + 5, top)
        self.ncell = n + 1
        if self.free_bytes >= 0:
            self.free_bytes -= alloc + 2
        return 0

    cdef int rebuild_with(self, int i, bytes cell) except -1:
        """Rewrite the page defragmented with ``cell`` inserted at slot i (corrupt when the
        cells do not fit)."""
        cdef Gather g
        _gather_init(&g, self.ncell + 1, 1, self.usable)
        try:
            _gather_page(&g, self, cell, i)
            self.build_from(g.ptrs, g.sizes, g.n, self.ptype, self.right_child())
        finally:
            _gather_free(&g)
        return 0

    cdef int drop_cell(self, int i, bint zero) except -1:
        """Remove cell i in place (its bytes become free space, zeroed when ``zero``)."""
        cdef CellInfo info
        cdef int off = self.cell_offset(i)
        cdef int n = self.ncell
        self.parse_cell(off, &info)
        if off + (info.size if info.size >= 4 else 4) > self.usable:
            raise corrupt()
        if n == 1:
            self.build([], self.ptype, self.right_child())
            return 0
        self.free_space(off, info.size if info.size >= 4 else 4, zero)
        memmove(self.a + self.cell_ptr + 2 * i, self.a + self.cell_ptr + 2 * i + 2,
                2 * (n - 1 - i))
        self.ncell = n - 1
        put2(self.a + self.hdr + 3, n - 1)
        if self.free_bytes >= 0:
            self.free_bytes += (info.size if info.size >= 4 else 4) + 2
        return 0

    cdef int capacity(self, int ptype):
        return self.usable - self.hdr - (8 if (ptype & 8) else 12)

    cdef int build(self, list cells, int ptype, uint32_t rc) except -1:
        """Rewrite the page with these cells (defragmented)."""
        cdef Py_ssize_t n = len(cells), i
        cdef unsigned char** ptrs = <unsigned char**>malloc(sizeof(unsigned char*) * (n + 1))
        cdef int* sizes = <int*>malloc(sizeof(int) * (n + 1))
        cdef bytes c
        if ptrs == NULL or sizes == NULL:
            free(ptrs)
            free(sizes)
            raise MemoryError()
        for i in range(n):
            c = <bytes>cells[i]
            ptrs[i] = <unsigned char*>PyBytes_AS_STRING(c)
            sizes[i] = <int>PyBytes_GET_SIZE(c)
        self.build_from(ptrs, sizes, <int>n, ptype, rc)
        free(ptrs)
        free(sizes)
        return 0

    cdef int build_from(self, unsigned char** ptrs, const int* sizes, int n, int ptype,
                        uint32_t rc) except -1:
        """Rewrite the page with the n cells at ptrs (of these sizes), defragmented: cell 0
        last in the page, the free gap zeroed. No cell may lie in this page's buffer; cells
        that do not fit are refused (corrupt) before anything is written."""
        cdef unsigned char* a = <unsigned char*>PyByteArray_AS_STRING(self.data)
        cdef int hdr = self.hdr
        cdef int hsz = 8 if (ptype & 8) else 12
        cdef int ptr = hdr + hsz
        cdef int top = self.usable
        cdef int sz, alloc, i
        cdef int need = 2 * n
        for i in range(n):
            need += sizes[i] if sizes[i] >= 4 else 4
        if need > self.usable - ptr:
            raise corrupt()
        self.a = a
        a[hdr] = ptype
        put2(a + hdr + 1, 0)
        put2(a + hdr + 3, n)
        a[hdr + 7] = 0
        if hsz == 12:
            put4(a + hdr + 8, rc)
        for i in range(n):
            sz = sizes[i]
            alloc = sz if sz >= 4 else 4
            top -= alloc
            memcpy(a + top, ptrs[i], sz)
            if alloc > sz:
                memset(a + top + sz, 0, alloc - sz)
            put2(a + ptr + 2 * i, top)
        put2(a + hdr + 5, top if top < 65536 else 0)
        if top > ptr + 2 * n:
            memset(a + ptr + 2 * n, 0, top - (ptr + 2 * n))
        self.parse()
        self.free_bytes = top - (ptr + 2 * n)
        return 0


cdef inline int cell_cost(bytes c) noexcept:
    cdef int n = PyBytes_GET_SIZE(c)
    return (n if n >= 4 else 4) + 2


cdef int cells_cost(list cells) except -1:
    cdef int s = 0
    for c in cells:
        s += cell_cost(<bytes>c)
    return s


# ---------------------------------------------------------------------------------------------
# balancing's cell arrays

cdef int _gather_init(Gather* g, int ncells, int npages, int usable) except -1:
    """Room for ncells cells and for copies of npages pages plus their dividers."""
    g.n = 0
    g.used = 0
    g.ptrs = <unsigned char**>malloc(sizeof(unsigned char*) * (ncells + 1))
    g.sizes = <int*>malloc(sizeof(int) * (ncells + 1))
    g.ends = <int*>malloc(sizeof(int) * (ncells + 2))
    g.scratch = <unsigned char*>malloc(<size_t>usable * (2 * npages + 1))
    if g.ptrs == NULL or g.sizes == NULL or g.ends == NULL or g.scratch == NULL:
        _gather_free(g)
        raise MemoryError()
    return 0


cdef void _gather_free(Gather* g) noexcept:
    free(g.ptrs)
    free(g.sizes)
    free(g.ends)
    free(g.scratch)
    g.ptrs = NULL
    g.sizes = NULL
    g.ends = NULL
    g.scratch = NULL


cdef int _gather_page(Gather* g, MemPage p, bytes extra, int at) except -1:
    """Append the cells of page p, read from a copy of it (p may then be rebuilt), with the
    cell ``extra`` (unless None; the caller keeps it referenced) as the page's cell ``at``."""
    cdef unsigned char* copy = g.scratch + g.used
    cdef CellInfo info
    cdef int i, off
    memcpy(copy, p.a, p.usable)
    g.used += p.usable
    for i in range(p.ncell + 1):
        if i == at and extra is not None:
            g.ptrs[g.n] = <unsigned char*>PyBytes_AS_STRING(extra)
            g.sizes[g.n] = <int>PyBytes_GET_SIZE(extra)
            g.n += 1
        if i == p.ncell:
            break
        off = p.cell_offset(i)
        p.parse_cell(off, &info)
        g.ptrs[g.n] = copy + off
        g.sizes[g.n] = info.size
        g.n += 1
    return 0


cdef list _pending_cells(MemPage p):
    """The cells of an overflowing page (p.pending set) as a list: pending's own list, or,
    for an overflow cell waiting beside the page's cells (pending is ``(None, right child,
    cell, slot)``), the page's cells with that cell inserted."""
    cdef tuple pend = <tuple>p.pending
    if pend[0] is not None:
        return <list>pend[0]
    cells = p.cells()
    cells.insert(<int>pend[3], pend[2])
    return cells


cdef int _gather_list(Gather* g, list cells) except -1:
    """Append the cells of a pending list (the caller keeps the list referenced)."""
    cdef bytes c
    for c in cells:
        g.ptrs[g.n] = <unsigned char*>PyBytes_AS_STRING(c)
        g.sizes[g.n] = PyBytes_GET_SIZE(c)
        g.n += 1
    return 0


cdef int _gather_copy(Gather* g, const unsigned char* src, int size) except -1:
    """Append a cell copied into the scratch buffer (a divider taken from the parent)."""
    cdef unsigned char* copy = g.scratch + g.used
    memcpy(copy, src, size)
    g.used += size
    g.ptrs[g.n] = copy
    g.sizes[g.n] = size
    g.n += 1
    return 0


cdef bytes _divider(uint32_t pgno, const unsigned char* body, int size, int64_t rowid):
    """A divider cell for the parent: the left child's pgno, then ``size`` bytes of body,
    or (body NULL) the varint of ``rowid`` (a table's interior cell)."""
    cdef unsigned char vb[10]
    cdef bytes out
    cdef unsigned char* o
    if body == NULL:
        size = put_varint(vb, <uint64_t>rowid)
        body = vb
    out = PyBytes_FromStringAndSize(NULL, 4 + size)
    o = <unsigned char*>PyBytes_AS_STRING(out)
    put4(o, pgno)
    memcpy(o + 4, body, size)
    return out


cdef int _pack(const int* sizes, int N, int cap, bint leafdata, int* ends) except -1:
    """Split N cells (of these sizes) over pages of ``cap`` bytes: sets ends[j], the
    exclusive end of page j's cells, and returns the number of pages; for non-leafdata
    trees the cell at ends[j] is the divider between pages j and j+1. Greedy packing, then
    cells move right while that evens the pages out."""
    cdef int* costs = <int*>malloc(sizeof(int) * (N + 1))
    cdef int* used_of = <int*>malloc(sizeof(int) * (N + 2))
    cdef int i, j, k = 0, used, start, st, st_left, e, moved, moved_in, moved_out
    cdef int skip = 0 if leafdata else 1
    if costs == NULL or used_of == NULL:
        free(costs)
        free(used_of)
        raise MemoryError()
    try:
        for i in range(N):
            costs[i] = (sizes[i] if sizes[i] >= 4 else 4) + 2
        i = 0
        while i < N:
            used = 0
            start = i
            while i < N and used + costs[i] <= cap:
                used += costs[i]
                i += 1
            if i == start:
                raise corrupt()
            ends[k] = i
            k += 1
            if skip and i < N:
                i += 1
                if i == N:
                    # the divider would be the last cell: it becomes the single cell of a
                    # last page and the previous cell the divider
                    if ends[k - 1] - (0 if k == 1 else ends[k - 2] + 1) <= 1:
                        raise corrupt()
                    ends[k - 1] -= 1
                    ends[k] = N
                    k += 1
        if k == 0:
            ends[0] = 0
            k = 1
        for j in range(k):
            st = 0 if j == 0 else ends[j - 1] + skip
            used_of[j] = 0
            for i in range(st, ends[j]):
                used_of[j] += costs[i]
        for j in range(k - 1, 0, -1):
            while True:
                st_left = 0 if j == 1 else ends[j - 2] + skip
                e = ends[j - 1]
                if e - st_left <= 1:
                    break
                if leafdata:
                    moved = costs[e - 1]
                    if used_of[j] + moved > cap or used_of[j] + moved > used_of[j - 1] - moved:
                        break
                    used_of[j] += moved
                    used_of[j - 1] -= moved
                else:
                    moved_in = costs[e]
                    moved_out = costs[e - 1]
                    if (used_of[j] + moved_in > cap
                            or used_of[j] + moved_in > used_of[j - 1] - moved_out):
                        break
                    used_of[j] += moved_in
                    used_of[j - 1] -= moved_out
                ends[j - 1] = e - 1
        return k
    finally:
        free(costs)
        free(used_of)


@cython.final
cdef class PageFactory:
    """The page factory of a b-tree file's pager: ``factory(pgno, data)`` is the MemPage of
    that buffer, with the usable size the pager has when the page is made."""
    cdef PagerState pager

    def __init__(self, PagerState pager):
        self.pager = pager

    def __call__(self, int pgno, bytearray data):
        return MemPage(pgno, data, self.pager.page_size - self.pager.reserved)


def init_empty_page(MemPage page, bint intkey):
    """Format a page as an empty leaf of a table (intkey) or index b-tree."""
    page.build([], 13 if intkey else 10, 0)


# ---------------------------------------------------------------------------------------------
# cursors

@cython.final
cdef int _init_cursor(BtCursor c, object bt, uint32_t root, bint writable,
                      KeyInfo key_info) except -1:
    """BtCursor.__init__'s work, shared with open_cursor."""
    cdef PagerState pager = <PagerState?>bt.pager
    c.bt = bt
    c.pager = pager
    c.cache = pager.cache
    c.root = root
    c.writable = writable
    c.key_info = key_info
    c.intkey = key_info is None
    c.pages = [None] * MAX_DEPTH
    c.depth = -1
    c.dirty = pager.dirty
    c.savepoints = pager.savepoints
    c.memdb = pager.memory
    c.selfref = PyWeakref_NewRef(c, None)   # (weakref.ref(c), without the type call)
    c.registry = <dict?>bt._cursors
    if type(bt) is _btree_type:
        c.parked = _parked_for(bt)
    c.attach()
    return 0


cdef object _btree_type = None   # btree.Btree (set by btree.py: it imports this module)


def register_btree_type(t):
    """Name the class whose ``cursor`` method open_cursor stands in for."""
    global _btree_type
    _btree_type = t


cpdef int save_all(object bt) except -1:
    """``Btree._save_all``: every live cursor of the b-tree file ``bt`` saves its position
    (the tree may change under it: a commit or rollback, another connection); a cursor whose
    page cannot be read loses its place. The weak references of cursors the VM dropped are
    pruned from their root's list, and a root whose list is left empty is dropped from the
    registry (no cursor holds an empty list as its peers: attach asks the registry again),
    so that the walk at every statement's end does not grow with every table ever opened."""
    cdef dict registry = bt._cursors
    cdef list lst, live, empty = None
    cdef Py_ssize_t i, n
    for root, lst in registry.items():
        n = len(lst)
        if n == 0:
            if empty is None:
                empty = []
            empty.append(root)
            continue
        live = None
        for i in range(n):
            c = lst[i]()
            if c is None:
                if live is None:
                    live = lst[:i]
                continue           # a cursor the VM dropped: pruned from the list
            if live is not None:
                live.append(lst[i])
            try:
                if type(c) is BtCursor:
                    (<BtCursor>c).save_position()
                else:
                    c.save()
            except Error:
                c.invalidate()     # its page could not be read: it just loses its place
        if live is not None:
            lst[:] = live
    if empty is not None:
        for root in empty:
            del registry[root]
    return 0


cpdef int btree_commit(object bt) except -1:
    """``Btree.commit``, compiled (the VM's end of every autocommit statement): the cursors
    saved, then a read transaction ended (an in-memory database's only marked ended: it
    holds no lock), an in-memory database's write transaction committed by
    ``_pageread.commit_memory``, any other by ``Pager.commit``."""
    cdef PagerState p
    cdef int level
    save_all(bt)
    p = <PagerState?>bt.pager
    level = p.in_trans
    if level == 1:
        if p.memory:
            p.in_trans = 0
        else:
            p.end_read()
    elif level == 2 and p.memory:
        commit_memory(p)
    else:
        p.commit()
    return 0


cpdef long long begin_cookie(object bt, bint write) except? -1:
    """``bt.begin(write)`` then ``bt.get_meta(1)`` (the schema cookie), for the VM's start
    of a statement with no transaction open. An in-memory btree.Btree (no other connection,
    no lock, no journal file, no header to re-read) whose cached page 1 is the one last
    checked (for a write: checked writable) needs neither call: the transaction is marked
    (a write one with ``Pager._start_write``'s state) and the cookie read from that page. A
    file database, or any other ``bt`` (the attached databases' MultiBtree), takes both
    calls and every check they make."""
    cdef bytearray d
    cdef PagerState p
    if type(bt) is _btree_type:
        p = <PagerState?>bt.pager
        if p.memory and not p.in_trans and p.db_size > 0 and not bt.closed:
            p1 = p.cache.get(1)
            if p1 is not None:
                if not write:
                    if p1 is bt._page1_checked:
                        p.in_trans = 1
                        d = (<MemPage>p1).data
                        return get4(<unsigned char*>PyByteArray_AS_STRING(d) + 40)
                elif p1 is bt._page1_writable:
                    # Pager._start_write's state, of which an in-memory pager has only these
                    # (it never opens a journal: jfile stays None, jrecords 0, and what its
                    # journaled set holds decides nothing)
                    p.in_trans = 2
                    p.orig_db_size = p.db_size
                    if p.spilled:
                        p.spilled = False
                    d = (<MemPage>p1).data
                    return get4(<unsigned char*>PyByteArray_AS_STRING(d) + 40)
    bt.begin(write)
    return bt.get_meta(1)


cdef int end_transaction(object bt) except -1:
    """``bt.commit()`` for the VM: ``btree_commit`` for a btree.Btree, the object's own
    method for any other (the attached databases' MultiBtree)."""
    if type(bt) is _btree_type:
        return btree_commit(bt)
    bt.commit()
    return 0


DEF MAX_PARKED = 16   # cursors a Btree keeps parked for reuse (_parked)

# The Btree open_cursor last took a parked cursor for (a weak reference, dropped with it)
# and its _parked list: one attribute look-up saved per open while the same connection
# runs statement after statement.
cdef object _parked_of = None
cdef list _parked_list = None


def _forget_parked(ref):
    """The weak reference's Btree is gone: so is the memo of its _parked list."""
    global _parked_of, _parked_list
    if ref is _parked_of:
        _parked_of = None
        _parked_list = None


cdef inline list _parked_for(object bt):
    """``bt._parked`` (bt a btree.Btree), from the memo when bt is the last one asked."""
    global _parked_of, _parked_list
    if _parked_of is not None and <object>PyWeakref_GET_OBJECT(_parked_of) is bt:
        return _parked_list
    parked = <list?>bt._parked
    _parked_of = PyWeakref_NewRef(bt, _forget_parked)
    _parked_list = parked
    return parked


cdef BtCursor open_cursor(object bt, object root, bint writable, KeyInfo key_info):
    """``bt.cursor(root, writable, key_info)`` for the VM's OpenRead/OpenWrite. For a
    btree.Btree (whose cursor method is ``BtCursor(bt, ...)``) a cursor the VM parked at
    the end of an earlier run (``park_cursor``) is opened again on the new root, else the
    object made by tp_new gets its fields stored, without a Python-level method call or a
    type call's argument parsing; any other ``bt`` (the attached databases' router, whose
    roots carry a database number above 32 bits) opens one through its own method."""
    cdef BtCursor c
    cdef list parked
    cdef Py_ssize_t n
    cdef uint32_t pgno
    if type(bt) is not _btree_type:
        return bt.cursor(root, writable, key_info)
    parked = _parked_for(bt)
    n = len(parked)
    if n:
        # a parked cursor: the same pager, page cache and savepoint list (those of its
        # Btree), no page, no position; what names its tree is stored again
        pgno = root
        c = <BtCursor>parked.pop()
        c.bt = bt
        c.parked = parked
        c.root = pgno
        c.writable = writable
        c.key_info = key_info
        c.intkey = key_info is None
        c.attach()
        return c
    c = BtCursor.__new__(BtCursor)
    _init_cursor(c, bt, root, writable, key_info)
    return c


cdef int park_cursor(BtCursor c) except -1:
    """The VM is done with ``c`` (the end of a run): it leaves its tree's cursors
    (``detach``) and, when its tree is a btree.Btree with room, waits in that Btree's
    ``_parked`` list for ``open_cursor`` to open it again, holding no reference to the
    Btree or the list (no cycle through the list), its KeyInfo or its last search key."""
    cdef list parked = c.parked
    c.detach()
    if parked is None:
        return 0
    c.parked = None
    if len(parked) < MAX_PARKED:
        c.bt = None
        c.key_info = None
        c.peers = None
        c.probe_key = None
        c.probe = None
        c.probe_ok = False
        parked.append(c)
    return 0


cdef class BtCursor:
    """A position in one b-tree. See the module docstring for the states."""

    def __init__(self, bt, uint32_t root, bint writable=False, KeyInfo key_info=None):
        _init_cursor(self, bt, root, writable, key_info)

    cdef int attach(self) except -1:
        """Join the cursors of this root (the peers every write saves) as a cursor just
        opened: no position, the pager's current usable size. __init__, and
        ``open_cursor`` reopening a parked cursor."""
        cdef dict registry = self.registry
        cdef list peers
        cdef PagerState pager = self.pager
        self.state = CURSOR_INVALID
        self.saved_key = None
        self.skip_next = 0
        self.kept = False
        self.usable = pager.page_size - pager.reserved
        peers = registry.get(self.root)
        if peers is None:
            # (Btree._peers: a new shared list; save_all drops it again once it is empty)
            peers = registry[self.root] = []
        elif len(peers) >= 8:
            # dead cursors (the VM drops them without close()) are pruned here and in
            # save_peers rather than by a weakref callback per cursor
            peers[:] = [r for r in peers if r() is not None]
        self.peers = peers
        peers.append(self.selfref)
        return 0

    cdef int detach(self) except -1:
        """Leave the cursors of this root, holding no page and no position, but keep the
        object for ``attach`` (``park_cursor``: the VM's cursors at the end of a run)."""
        cdef list peers = self.peers
        cdef Py_ssize_t i
        self._release()
        self.state = CURSOR_INVALID
        self.saved_key = None
        if peers is not None:
            # (peers.remove(selfref) without the method call; the newest entry is last)
            for i in range(len(peers) - 1, -1, -1):
                if <object>PyList_GET_ITEM(peers, i) is self.selfref:
                    if i == len(peers) - 1:
                        peers.pop()
                    else:
                        del peers[i]
                    break
        return 0

    def close(self):
        self._release()
        self.state = CURSOR_INVALID
        self.parked = None      # (never parked once closed)
        if self.selfref is not None:
            try:
                self.peers.remove(self.selfref)
            except ValueError:
                pass
            self.selfref = None

    cdef int mark_dirty(self, MemPage p) except -1:
        """pager.write(p), skipping the call when p is already dirty and no savepoint
        needs its pre-image, and doing its work inline for an in-memory database with no
        savepoint open (no journal, no pre-image: the page is only made dirty)."""
        cdef object sp
        cdef dict cache
        if p.pgno in self.dirty:
            if not self.savepoints:
                return 0
            sp = self.savepoints[len(self.savepoints) - 1]
            if p.pgno in sp.images or p.pgno > sp.db_size:
                return 0
        elif self.memdb and not self.savepoints and self.pager.in_trans == 2:
            # (pager.write's work for this case; its journaled set only decides what a
            # journal file records, which an in-memory database has not)
            cache = self.cache
            if cache.get(p.pgno) is not p:
                cache[p.pgno] = p
            self.dirty[p.pgno] = p
            return 0
        self.pager.write(p)
        return 0

    cdef int save_peers(self) except -1:
        cdef BtCursor c
        cdef list live
        if len(self.peers) <= 1:
            return 0
        live = []
        for r in list(self.peers):
            c = r()
            if c is not None:
                live.append(r)
                if c is not self:
                    c.save_position()
        self.peers[:] = live
        return 0

    # -- page access ----------------------------------------------------------------------
    cdef MemPage get_page(self, uint32_t pgno):
        cdef MemPage p = self.cache.get(pgno)
        if p is None:
            if pgno < 1 or pgno > <uint32_t>self.pager.db_size:
                raise corrupt()
            pager = self.pager
            p = MemPage(pgno, read_page_data(pager, pgno), pager.page_size - pager.reserved)
            cache_page(pager, pgno, p)
        if not p.parsed:
            p.parse()
        return p

    cdef int push(self, uint32_t pgno) except -1:
        cdef MemPage p
        if self.depth + 1 >= MAX_DEPTH:
            raise corrupt()
        p = self.get_page(pgno)
        if p.intkey != self.intkey:
            raise corrupt()
        self.depth += 1
        self.pages[self.depth] = p
        self.idx[self.depth] = 0
        return 0

    cdef MemPage top(self):
        return <MemPage>self.pages[self.depth]

    cdef void _release(self):
        cdef int i
        self.memo_ok = False
        self.rec_ok = False
        for i in range(self.depth + 1):
            self.pages[i] = None
        self.depth = -1
        self.kept = False

    cdef int move_to_root(self) except -1:
        """Returns 1 if the tree has at least one entry."""
        cdef MemPage r
        self._release()
        self.skip_next = 0
        self.saved_key = None
        # a cached page is one of the file's (an empty file's pager caches none): the
        # cache is asked only for an empty file (push asks it once more otherwise)
        if self.pager.db_size == 0 and self.cache.get(self.root) is None:
            self.state = CURSOR_INVALID
            return 0
        self.push(self.root)
        r = self.top()
        if r.ncell == 0:
            if not r.leaf:
                # an interior root with no cells: its only child holds everything
                self.idx[0] = 0
                self.push(r.child(0))
                if self.top().ncell == 0:
                    self.state = CURSOR_INVALID
                    return 0
                self._release()
                self.push(self.root)
                self.state = CURSOR_VALID
                return 1
            self.state = CURSOR_INVALID
            return 0
        self.state = CURSOR_VALID
        return 1

    cdef int move_to_leftmost(self) except -1:
        cdef MemPage p = self.top()
        while not p.leaf:
            self.idx[self.depth] = 0
            self.push(p.child(0))
            p = self.top()
        if p.ncell == 0:
            raise corrupt()
        self.idx[self.depth] = 0
        return 0

    cdef int move_to_rightmost(self) except -1:
        cdef MemPage p = self.top()
        while not p.leaf:
            self.idx[self.depth] = p.ncell
            self.push(p.child(p.ncell))
            p = self.top()
        if p.ncell == 0:
            raise corrupt()
        self.idx[self.depth] = p.ncell - 1
        return 0

    cdef int restore(self) except -1:
        """Re-seek a REQUIRESEEK cursor to its saved key (or a neighbour)."""
        cdef int c
        cdef object key = self.saved_key
        if self.state != CURSOR_REQUIRESEEK:
            return 0
        if self.kept:  # on the entry after the deleted one, path intact
            self.kept = False
            self.state = CURSOR_VALID
            self.skip_next = 1
            return 0
        if self.intkey:
            c = self.seek_rowid(<int64_t>key)
            if self.state != CURSOR_VALID:
                self.skip_next = 0
            elif c == 0:
                self.skip_next = 0
            elif c < 0:
                self.skip_next = -1
            else:
                self.skip_next = 1
        else:
            self._set_probe(<bytes>key)
            self.probe_key = None
            c = self.move_to_key(None, -1, False)
            if c == 1:
                # nothing >= the saved key: sit on the last entry, next() gives eof
                if self.move_to_root():
                    self.move_to_rightmost()
                    self.skip_next = -1
                else:
                    self.skip_next = 0
            elif c == 0:
                if self.current_payload() == key:
                    self.skip_next = 0
                else:
                    self.skip_next = 1
            else:
                self.skip_next = 0
        return 0

    cdef int save_position(self) except -1:
        if self.state == CURSOR_VALID:
            if self.intkey:
                self.saved_key = self.current_rowid()
            else:
                self.saved_key = self.current_payload()
            self._release()
            self.state = CURSOR_REQUIRESEEK
            self.skip_next = 0
        elif self.state == CURSOR_INVALID or self.kept:
            self._release()
        return 0

    def save(self):
        """Save the position so that the tree may change under this cursor."""
        self.save_position()

    def invalidate(self):
        """Forget the position (the tree was dropped or cleared)."""
        self._release()
        self.state = CURSOR_INVALID
        self.saved_key = None

    # -- positioning: public ----------------------------------------------------------------
    cpdef bint first(self) except -1:
        """Move to the first entry; False if the tree is empty."""
        if not self.move_to_root():
            return False
        self.move_to_leftmost()
        return True

    cpdef bint last(self) except -1:
        if not self.move_to_root():
            return False
        self.move_to_rightmost()
        return True

    @property
    def eof(self):
        if self.state == CURSOR_REQUIRESEEK:
            self.restore()
        return self.state != CURSOR_VALID

    @property
    def valid(self):
        return not self.eof

    def next(self):
        """Move to the next entry; False (and eof) past the last one."""
        return self.next_() == 1

    def prev(self):
        return self.prev_() == 1

    cdef int next_(self) except -1:
        cdef MemPage p
        cdef int d
        self.rec_ok = False
        if self.state == CURSOR_REQUIRESEEK:
            self.restore()
            self.memo_ok = False
            if self.skip_next > 0:
                self.skip_next = 0
                return self.state == CURSOR_VALID
        self.skip_next = 0
        self.memo_ok = False
        if self.state != CURSOR_VALID:
            return 0
        d = self.depth
        p = <MemPage>self.pages[d]
        if not p.leaf:
            # index tree, on an interior cell: the next entry is leftmost in the next child
            self.idx[d] += 1
            self.push(p.child(self.idx[d]))
            self.move_to_leftmost()
            return 1
        self.idx[d] += 1
        if self.idx[d] < p.ncell:
            return 1
        while True:
            if self.depth == 0:
                self.idx[0] = p.ncell
                self._release()
                self.state = CURSOR_INVALID
                return 0
            self.pages[self.depth] = None
            self.depth -= 1
            d = self.depth
            p = <MemPage>self.pages[d]
            if self.idx[d] < p.ncell:
                if self.intkey:
                    self.idx[d] += 1
                    self.push(p.child(self.idx[d]))
                    self.move_to_leftmost()
                return 1

    cdef int prev_(self) except -1:
        cdef MemPage p
        cdef int d
        self.rec_ok = False
        if self.state == CURSOR_REQUIRESEEK:
            self.restore()
            self.memo_ok = False
            if self.skip_next < 0:
                self.skip_next = 0
                return self.state == CURSOR_VALID
        self.skip_next = 0
        self.memo_ok = False
        if self.state != CURSOR_VALID:
            return 0
        d = self.depth
        p = <MemPage>self.pages[d]
        if not p.leaf:
            self.push(p.child(self.idx[d]))
            self.move_to_rightmost()
            return 1
        if self.idx[d] > 0:
            self.idx[d] -= 1
            return 1
        while True:
            if self.depth == 0:
                self._release()
                self.state = CURSOR_INVALID
                return 0
            self.pages[self.depth] = None
            self.depth -= 1
            d = self.depth
            p = <MemPage>self.pages[d]
            if self.idx[d] > 0:
                self.idx[d] -= 1
                if self.intkey:
                    self.push(p.child(self.idx[d]))
                    self.move_to_rightmost()
                return 1

    # -- table seeks ------------------------------------------------------------------------
    cdef int seek_rowid(self, int64_t rowid) except -2:
        """Position near rowid: 0 exactly on it, -1 on a smaller entry, 1 on a larger one
        (and -1 with the cursor INVALID when the table is empty).

        Each page is searched in sqlite3BtreeTableMoveto's order (first probe at the middle
        cell (ncell - 1) / 2, an equal key on an interior page descends into that cell's
        child): on sorted keys any binary search finds the same place, but on a damaged
        page whose keys are out of order this reads the rows sqlite3 reads."""
        cdef MemPage p
        cdef int lo, hi, mid
        cdef int64_t k
        if not self.move_to_root():
            return -1
        while True:
            p = self.top()
            if p.leaf and p.ncell == 0:
                raise corrupt()
            lo = 0
            hi = p.ncell - 1
            mid = hi >> 1
            while lo <= hi:
                k = p.cell_rowid(mid)
                if k < rowid:
                    lo = mid + 1
                elif k > rowid:
                    hi = mid - 1
                elif p.leaf:
                    self.idx[self.depth] = mid
                    return self._memo(rowid, 0)
                else:
                    lo = mid
                    break
                mid = (lo + hi) >> 1
            if p.leaf:
                if lo >= p.ncell:
                    self.idx[self.depth] = p.ncell - 1
                    return self._memo(rowid, -1)
                self.idx[self.depth] = lo
                return self._memo(rowid, 1)
            self.idx[self.depth] = lo
            self.push(p.child(lo))

    cdef int _memo(self, int64_t rowid, int c):
        """Remember where seek_rowid(rowid) left the cursor, for an insert of that rowid
        right after (SQLite's OPFLAG_USESEEKRESULT: the NotExists before an Insert found
        the place already). Any move or change of the tree forgets it (_release)."""
        self.memo_ok = True
        self.memo_key = rowid
        self.memo_c = c
        return c

    cdef int _check_table(self) except -1:
        if not self.intkey:
            raise TypeError("rowid seek on an index cursor")
        return 0

    cdef int _check_index(self) except -1:
        if self.intkey:
            raise TypeError("key seek on a table cursor")
        return 0

    # -- index seeks ------------------------------------------------------------------------
    cdef int _set_probe(self, bytes rec) except -1:
        """Make ``rec`` the record compare_cell compares with (no PreparedKey given), its
        header parsed once for the whole search (compared as bytes if it cannot be)."""
        self.probe = rec
        self.probe_ok = unpack_record(<const unsigned char*>PyBytes_AS_STRING(rec),
                                      PyBytes_GET_SIZE(rec), &self.probe_u)
        return 0

    cdef int compare_cell(self, MemPage p, int i, PreparedKey key) except -2:
        cdef CellInfo info
        cdef int off = get2(p.a + p.cell_ptr + 2 * i)
        cdef int pos, n, avail
        cdef uint64_t v
        cdef const unsigned char* c
        if off < p.cell_ptr + 2 * p.ncell or off > p.usable - 4:
            raise corrupt()    # (cell_offset's test)
        if key is None and self.probe_ok:
            # an index cell whose payload is all on the page, as parse_cell reads it
            # (anything else takes parse_cell, with its errors)
            avail = p.usable - off
            pos = 0 if p.leaf else 4
            c = p.a + off
            if not p.intkey and avail >= 5:
                n = get_varint(c + pos, avail - pos, &v)
                if n != 0 and v <= <uint64_t>p.max_local and pos + n + <int>v <= avail:
                    return compare_unpacked(c + pos + n, <Py_ssize_t>v, &self.probe_u,
                                            self.key_info)
        p.parse_cell(off, &info)
        if key is None:
            # compare with the whole record self.probe (index inserts and restores)
            if info.nlocal == info.npayload:
                return compare_records(p.a + off + info.hdrlen, info.nlocal,
                                       <const unsigned char*>PyBytes_AS_STRING(self.probe),
                                       PyBytes_GET_SIZE(self.probe), self.key_info)
            payload = self.read_payload(p, off, &info)
            return compare_records(<const unsigned char*>PyBytes_AS_STRING(payload),
                                   PyBytes_GET_SIZE(payload),
                                   <const unsigned char*>PyBytes_AS_STRING(self.probe),
                                   PyBytes_GET_SIZE(self.probe), self.key_info)
        if info.nlocal == info.npayload:
            return compare_record_key(p.a + off + info.hdrlen, info.nlocal, key, self.key_info)
        payload = self.read_payload(p, off, &info)
        return compare_record_key(<const unsigned char*>PyBytes_AS_STRING(payload),
                                  PyBytes_GET_SIZE(payload), key, self.key_info)

    cdef int move_to_key(self, PreparedKey key, int bias, bint leaf_only) except -2:
        """Move to the first entry greater than key-eps (bias -1) or key+eps (bias +1).
        Returns 0 when on such an entry, 1 past the end (cursor INVALID), -1 if empty.
        With leaf_only, stop on the leaf slot where the key would be inserted (returns 2).
        Pages are searched in sqlite3BtreeIndexMoveto's probe order (as ``seek_rowid``)."""
        cdef MemPage p
        cdef int lo, hi, mid, c
        if not self.move_to_root():
            return -1
        while True:
            p = self.top()
            lo = 0
            hi = p.ncell - 1
            mid = hi >> 1
            while lo <= hi:
                c = self.compare_cell(p, mid, key)
                if c == 0:
                    c = -bias
                if c > 0:
                    hi = mid - 1
                else:
                    lo = mid + 1
                mid = (lo + hi) >> 1
            self.idx[self.depth] = lo
            if not p.leaf:
                self.push(p.child(lo))
                continue
            if leaf_only:
                return 2
            if lo < p.ncell:
                return 0
            while True:
                if self.depth == 0:
                    self._release()
                    self.state = CURSOR_INVALID
                    return 1
                self.pages[self.depth] = None
                self.depth -= 1
                p = self.top()
                if self.idx[self.depth] < p.ncell:
                    return 0

    def seek(self, key):
        """Table cursor: seek(rowid) -> 0 on it, <0 on a smaller, >0 on a larger entry (eof
        when the table is empty). Index cursor: seek(key_tuple) is seek_ge, returning 0 when
        the entry found has the key as its prefix, 1 when larger, -1 when none."""
        if self.intkey:
            return self.seek_rowid(key)
        if not self.seek_ge(key):
            return -1
        return 0 if self.compare_key(key) == 0 else 1

    cdef PreparedKey _probe_key(self, key):
        """Prepare an index probe: normally the key encoded as a record (compared in C by
        compare_records); a PreparedKey when it cannot be encoded (integers beyond 64 bits).
        The last key encoded is remembered: a scan compares every entry with the same bound."""
        if self.probe_key is not None and type(key) is tuple and key == self.probe_key:
            return None
        self.probe_key = None
        try:
            self._set_probe(encode_record(key))
            if PyBytes_GET_SIZE(self.probe) > 1:
                if type(key) is tuple:
                    self.probe_key = key
                return None
        except (OverflowError, TypeError):
            pass
        return prepare_key(tuple(key))

    cpdef bint seek_ge(self, key) except -1:
        cdef int c
        if self.intkey:
            c = self.seek_rowid(key)
            if self.state == CURSOR_VALID and c < 0:
                self.next_()
            return self.state == CURSOR_VALID
        c = self.move_to_key(self._probe_key(key), -1, False)
        return c == 0

    cpdef bint seek_gt(self, key) except -1:
        cdef int c
        if self.intkey:
            c = self.seek_rowid(key)
            if self.state == CURSOR_VALID and c <= 0:
                self.next_()
            return self.state == CURSOR_VALID
        c = self.move_to_key(self._probe_key(key), 1, False)
        return c == 0

    cpdef bint seek_le(self, key) except -1:
        cdef int c
        if self.intkey:
            c = self.seek_rowid(key)
            if self.state == CURSOR_VALID and c > 0:
                self.prev_()
            return self.state == CURSOR_VALID
        c = self.move_to_key(self._probe_key(key), 1, False)
        return self._back_one(c)

    cpdef bint seek_lt(self, key) except -1:
        cdef int c
        if self.intkey:
            c = self.seek_rowid(key)
            if self.state == CURSOR_VALID and c >= 0:
                self.prev_()
            return self.state == CURSOR_VALID
        c = self.move_to_key(self._probe_key(key), -1, False)
        return self._back_one(c)

    cdef bint _back_one(self, int c) except -1:
        if c == -1:
            return False
        if c == 1:
            return self.last()
        return self.prev_() == 1

    cpdef int compare_key(self, key) except -2:
        """Compare the current entry's first len(key) fields with key: -1, 0 or 1."""
        self._need_valid()
        return self.compare_cell(self.top(), self.idx[self.depth], self._probe_key(key))

    cdef bint seek_eq(self, key) except -1:
        """Index cursor: ``seek_ge(key) and compare_key(key) == 0`` with the key encoded
        once: on the first entry whose leading fields equal ``key`` (the VM's IdxDelete)."""
        cdef PreparedKey pk
        if self.intkey:
            return self.seek_ge(key) and self.compare_key(key) == 0
        pk = self._probe_key(key)
        if self.move_to_key(pk, -1, False) != 0:
            return False
        return self.compare_cell(self.top(), self.idx[self.depth], pk) == 0

    # -- reading ----------------------------------------------------------------------------
    cdef int _need_valid(self) except -1:
        if self.state == CURSOR_REQUIRESEEK:
            self.restore()
        if self.state != CURSOR_VALID:
            raise DatabaseError("cursor is not on an entry")
        return 0

    cdef int64_t current_rowid(self) except? -1:
        cdef MemPage p = self.top()
        return p.cell_rowid(self.idx[self.depth])

    cdef bytes current_payload(self):
        cdef MemPage p = self.top()
        cdef CellInfo info
        cdef int off = p.cell_offset(self.idx[self.depth])
        p.parse_cell(off, &info)
        return self.read_payload(p, off, &info)

    cdef bytes read_payload(self, MemPage p, int off, CellInfo* info):
        cdef int64_t npay = info.npayload
        cdef int nlocal = info.nlocal
        if nlocal == npay:
            return PyBytes_FromStringAndSize(<char*>p.a + off + info.hdrlen, nlocal)
        # An overflow chain cannot have more pages than the file (SQLite's
        # sqlite3BtreeMaxRecordSize): a damaged size is corrupt at once, before allocating.
        if (npay - nlocal + self.usable - 5) // (self.usable - 4) > <int64_t>self.pager.db_size:
            raise corrupt()
        cdef bytearray out = bytearray(npay)
        cdef unsigned char* o = <unsigned char*>PyByteArray_AS_STRING(out)
        memcpy(o, p.a + off + info.hdrlen, nlocal)
        cdef int64_t pos = nlocal
        cdef uint32_t pg = info.ovfl
        cdef int chunk = self.usable - 4
        cdef int64_t n
        cdef uint32_t dbsize = self.pager.db_size
        cdef int64_t left_pages = (npay - nlocal + chunk - 1) // chunk
        cdef bytearray od
        while pos < npay:
            if pg < 2 or pg > dbsize or left_pages <= 0:
                raise corrupt()
            left_pages -= 1
            op = self.cache.get(pg)
            if op is None:
                op = load_page(self.pager, pg)
            od = op.data
            n = npay - pos
            if n > chunk:
                n = chunk
            memcpy(o + pos, <unsigned char*>PyByteArray_AS_STRING(od) + 4, n)
            pos += n
            pg = get4(<unsigned char*>PyByteArray_AS_STRING(od))
        return bytes(out)

    @property
    def rowid(self):
        self._need_valid()
        if self.intkey:
            return self.current_rowid()
        return decode_column(self.current_payload(), -1)

    def payload(self):
        """The record of the current entry (bytes)."""
        self._need_valid()
        return self.current_payload()

    def key(self):
        """The index record of the current entry (bytes); for a table, its payload."""
        self._need_valid()
        return self.current_payload()

    def payload_size(self):
        cdef CellInfo info
        self._need_valid()
        p = self.top()
        (<MemPage>p).parse_cell((<MemPage>p).cell_offset(self.idx[self.depth]), &info)
        return info.npayload

    def column(self, Py_ssize_t i):
        """Field i of the current record, decoded from the page without copying it when the
        record has no overflow."""
        cdef CellInfo info
        cdef MemPage p
        cdef int off
        self._need_valid()
        p = self.top()
        off = p.cell_offset(self.idx[self.depth])
        p.parse_cell(off, &info)
        if info.nlocal == info.npayload and i >= 0:
            return decode_column_at(p.a + off + info.hdrlen, info.nlocal, i)
        return decode_column(self.read_payload(p, off, &info), i)

    cdef object column_or(self, Py_ssize_t i, object dflt, bint* done):
        """Field i (>= 0) of the current record (``dflt`` past its last field) decoded in
        place, for the VM's Column; ``*done`` is False (and None returned) when the record
        overflows its page (the caller then reads the whole payload once). The record's
        header is parsed once per entry, as far as the fields asked for (``rec_*``); the
        fields before i are checked as decode_column_or checks them. A field read a second
        time on the same entry is kept decoded (``rec_val``) for the reads after that."""
        cdef uint64_t t
        cdef Py_ssize_t sz, body
        cdef int n
        cdef PyObject* known
        cdef uint64_t bit
        # (state VALID: 0 <= depth < MAX_DEPTH = len(pages))
        if not (self.rec_ok and self.state == CURSOR_VALID
                and <void*>PyList_GET_ITEM(self.pages, self.depth) == self.rec_page
                and self.rec_idx == self.idx[self.depth]):
            if not self._rec_load():
                done[0] = False
                return None
        done[0] = True
        if i >= REC_CACHE:
            return decode_column_or(self.rec_p, self.rec_size, i, dflt)
        if i < self.rec_nval:
            known = self.rec_val[i]
            if known != NULL:
                return <object>known
        while self.rec_n <= i:
            if self.rec_hpos >= self.rec_hsz:
                return dflt
            n = get_varint(self.rec_p + self.rec_hpos, self.rec_hsz - self.rec_hpos, &t)
            if n == 0 or t == 10 or t == 11:
                raise corrupt()
            sz = serial_size(t)
            body = self.rec_body
            if body + sz > self.rec_size:
                raise corrupt()
            self.rec_hpos += n
            self.rec_type[self.rec_n] = <uint32_t>t
            self.rec_off[self.rec_n] = <uint32_t>body
            self.rec_body = body + sz
            self.rec_n += 1
        t = self.rec_type[i]
        v = decode_value(t, self.rec_p + self.rec_off[i], serial_size(t))
        bit = (<uint64_t>1) << i
        if self.rec_seen & bit:
            # read again (an outer loop's row under an inner loop, a column used twice):
            # kept for the reads after this one
            Py_INCREF(v)
            self.rec_val[i] = <PyObject*>v
            if i >= self.rec_nval:
                self.rec_nval = i + 1
        else:
            self.rec_seen |= bit
        return v

    cdef void _rec_forget(self) noexcept:
        """Drop the decoded fields of the last record loaded."""
        cdef int j
        cdef PyObject* v
        for j in range(self.rec_nval):
            v = self.rec_val[j]
            self.rec_val[j] = NULL
            Py_XDECREF(v)
        self.rec_nval = 0

    def __dealloc__(self):
        self._rec_forget()

    cdef int _rec_load(self) except -1:
        """Start the record cache on the current entry: 1, or 0 when its record overflows
        the page (not cached)."""
        cdef CellInfo info
        cdef MemPage p
        cdef int off, n
        cdef uint64_t hsz
        self.rec_ok = False
        self.rec_seen = 0
        if self.rec_nval:
            self._rec_forget()
        self._need_valid()
        p = <MemPage>self.pages[self.depth]
        off = p.cell_offset(self.idx[self.depth])
        p.parse_cell(off, &info)
        if info.nlocal != info.npayload:
            return 0
        if info.nlocal <= 0:
            raise corrupt()
        self.rec_p = p.a + off + info.hdrlen
        self.rec_size = info.nlocal
        n = get_varint(self.rec_p, self.rec_size, &hsz)
        if n == 0 or hsz > <uint64_t>self.rec_size or hsz < <uint64_t>n:
            raise corrupt()
        self.rec_hsz = <Py_ssize_t>hsz
        self.rec_hpos = n
        self.rec_body = <Py_ssize_t>hsz
        self.rec_n = 0
        self.rec_page = <void*>p
        self.rec_idx = self.idx[self.depth]
        self.rec_ok = True
        return 1

    cdef bint seek_rowid_eq(self, int64_t rowid) except -1:
        """Move to the entry with this rowid: True when it exists (the VM's SeekRowid)."""
        return self.seek_rowid(rowid) == 0 and self.state == CURSOR_VALID

    cdef object idx_rowid_c(self):
        """The last field of the current index entry (its rowid), decoded in place."""
        cdef CellInfo info
        cdef MemPage p
        cdef int off
        self._need_valid()
        p = <MemPage>self.pages[self.depth]
        off = p.cell_offset(self.idx[self.depth])
        p.parse_cell(off, &info)
        if info.nlocal == info.npayload:
            return decode_last_at(p.a + off + info.hdrlen, info.nlocal)
        return decode_last_at(<const unsigned char*>PyBytes_AS_STRING(
            self.read_payload(p, off, &info)), info.npayload)

    cdef object rowid_c(self):
        """The rowid of the current entry (for an index, the record's last field)."""
        self._need_valid()
        if self.intkey:
            return self.current_rowid()
        return decode_column(self.current_payload(), -1)

    def record(self):
        """The current record decoded to a tuple."""
        cdef CellInfo info
        cdef MemPage p
        cdef int off
        self._need_valid()
        p = self.top()
        off = p.cell_offset(self.idx[self.depth])
        p.parse_cell(off, &info)
        if info.nlocal == info.npayload:
            return decode_record_at(p.a + off + info.hdrlen, info.nlocal)
        return decode_record(self.read_payload(p, off, &info))

    def count(self):
        """The number of entries, counted from cell counts (no record is decoded)."""
        cdef MemPage p
        cdef long n = 0
        cdef list stack
        cdef uint32_t pg
        cdef int d, i
        cdef long visited = 0
        cdef long limit = self.pager.db_size
        if self.pager.db_size == 0:
            return 0
        stack = [(self.root, 0)]
        while stack:
            pg, d = stack.pop()
            visited += 1
            if visited > limit or d >= MAX_DEPTH:
                raise corrupt()
            p = self.get_page(pg)
            if p.intkey != self.intkey or (d > 0 and p.ncell == 0):
                # a child page without cells is corrupt (SQLite's getAndInitPage)
                raise corrupt()
            if p.leaf:
                n += p.ncell
            else:
                if not self.intkey:
                    n += p.ncell
                for i in range(p.ncell + 1):
                    stack.append((p.child(i), d + 1))
        return n

    # -- writing ----------------------------------------------------------------------------
    cdef bytes make_cell(self, bint table, int64_t rowid, bytes payload):
        """A leaf cell for the payload, writing overflow pages as needed."""
        cdef int64_t n = PyBytes_GET_SIZE(payload)
        cdef int U = self.usable
        cdef int max_local = U - 35 if table else ((U - 12) * 64 // 255) - 23
        cdef int min_local = ((U - 12) * 32 // 255) - 23
        cdef int64_t local, k, pos
        cdef unsigned char hbuf[20]
        cdef int hn = put_varint(hbuf, <uint64_t>n)
        cdef bytes cell
        cdef char* buf
        if table:
            hn += put_varint(hbuf + hn, <uint64_t>rowid)
        if n <= max_local:  # (the common case: header and payload in one new object)
            cell = PyBytes_FromStringAndSize(NULL, hn + n)
            buf = PyBytes_AS_STRING(cell)
            memcpy(buf, hbuf, hn)
            memcpy(buf + hn, PyBytes_AS_STRING(payload), n)
            return cell
        head = PyBytes_FromStringAndSize(<char*>hbuf, hn)
        k = min_local + (n - min_local) % (U - 4)
        local = k if k <= max_local else min_local
        # overflow chain: allocate pages, each "next pgno" + U-4 bytes
        pages = []
        pos = local
        while pos < n:
            pages.append(self.bt.allocate_page())
            pos += U - 4
        pos = local
        cdef MemPage op
        cdef unsigned char* a
        cdef int j, chunk
        for j in range(len(pages)):
            op = <MemPage>pages[j]
            a = <unsigned char*>PyByteArray_AS_STRING(op.data)
            chunk = <int>min(n - pos, U - 4)
            put4(a, (<MemPage>pages[j + 1]).pgno if j + 1 < len(pages) else 0)
            memcpy(a + 4, PyBytes_AS_STRING(payload) + pos, chunk)
            if chunk < U - 4:
                memset(a + 4 + chunk, 0, U - 4 - chunk)
            op.parsed = False
            pos += chunk
        return head + payload[:local] + pack4((<MemPage>pages[0]).pgno)

    cdef int free_cell_overflow(self, MemPage p, int i) except -1:
        cdef CellInfo info
        p.parse_cell(p.cell_offset(i), &info)
        if info.ovfl:
            self.bt.free_overflow(info.ovfl, (info.npayload - info.nlocal + self.usable - 5)
                                  // (self.usable - 4))
        return 0

    cdef int _prepare_write(self) except -1:
        if not self.writable:
            raise DatabaseError("attempt to write a readonly cursor")
        # (an in-memory database never spills: its pager's _spill returns at once)
        if not self.memdb and len(self.dirty) > self.pager.spill_limit:
            self.pager.maybe_spill()
        self.save_peers()
        return 0

    def insert(self, *args):
        """Table cursor: insert(rowid, payload) (replacing an existing rowid). Index cursor:
        insert(record). Afterwards the cursor is on the new entry (restored lazily)."""
        if self.intkey:
            if len(args) != 2:
                self._prepare_write()
                raise TypeError("insert(rowid, payload) on a table cursor")
            self.insert_row(args[0], bytes(args[1]))
        else:
            if len(args) != 1:
                self._prepare_write()
                raise TypeError("insert(record) on an index cursor")
            self.insert_key(bytes(args[0]))

    cdef int _empty_leaf(self) except -1:
        """Position 0 of the leaf an insert into an empty tree goes to: the root is an
        empty leaf, or an interior root whose only child is empty."""
        self._release()
        self.push(self.root)
        while not self.top().leaf:
            self.idx[self.depth] = 0
            self.push(self.top().child(0))
        return 0

    cdef int insert_key(self, bytes rec) except -1:
        """insert(record) on an index cursor, for the VM's IdxInsert."""
        cdef int c, i
        cdef MemPage p
        cdef bytes cell
        self._prepare_write()
        if len(rec) == 0:
            raise corrupt()
        self._set_probe(rec)
        self.probe_key = None
        c = self.move_to_key(None, -1, True)
        cell = self.make_cell(False, 0, rec)
        if c == -1:
            i = self._empty_leaf()
        else:
            i = self.idx[self.depth]
            p = self.top()
            if i < p.ncell and self.payload_is(p, i, rec):
                self.free_cell_overflow(p, i)
                self.replace_cell(i, cell)
                self._after_write(rec)
                return 0
        self.insert_cell(i, cell)
        self._after_write(rec)
        return 0

    cdef int insert_row(self, int64_t rowid, bytes payload) except -1:
        """insert(rowid, payload) on a table cursor, for the VM's Insert (no argument tuple)."""
        cdef int c, i
        cdef MemPage p
        cdef bytes cell
        self._prepare_write()
        if self.memo_ok and self.state == CURSOR_VALID and self.memo_key == rowid:
            c = self.memo_c   # placed by the seek just before (the VM's NotExists)
        else:
            c = self.seek_rowid(rowid)
        self.memo_ok = False
        self.rec_ok = False
        cell = self.make_cell(True, rowid, payload)
        if self.state != CURSOR_VALID:
            i = self._empty_leaf()
        else:
            i = self.idx[self.depth]
            if c == 0:
                p = self.top()
                self.free_cell_overflow(p, i)
                self.replace_cell(i, cell)
                self._after_write(rowid)
                return 0
            if c < 0:
                i += 1
        self.insert_cell(i, cell)
        self._after_write(rowid)
        return 0

    def append(self, *args):
        """Insert an entry known to sort after every entry of the tree (no key compare):
        append(rowid, payload) for tables, append(record) for indexes. Used to copy a tree
        in order (VACUUM) without its collations."""
        if self.intkey:
            self._append(args[0], bytes(args[1]))
        else:
            self._append(None, bytes(args[0]))

    def append_from(self, BtCursor src):
        """Append every entry of ``src``'s tree, in its order (``append`` for each): VACUUM's
        copy of a b-tree into an empty one of the same kind. Returns the count."""
        cdef long long n = 0
        cdef int ok = src.first()
        while ok:
            if self.intkey:
                self._append(src.current_rowid(), src.current_payload())
            else:
                self._append(None, src.current_payload())
            n += 1
            ok = src.next_()
        return n

    cdef int _append(self, rowid, bytes payload) except -1:
        """append(): a table entry (rowid, payload), or an index record (rowid None)."""
        cdef bytes cell
        cdef int i
        self._prepare_write()
        if self.intkey:
            cell = self.make_cell(True, rowid, payload)
            key = rowid
        else:
            key = payload
            cell = self.make_cell(False, 0, key)
        if self.move_to_root():
            self.move_to_rightmost()
            i = self.top().ncell
        else:
            self._release()
            self.push(self.root)
            while not self.top().leaf:
                self.idx[self.depth] = self.top().ncell
                self.push(self.top().child(self.top().ncell))
            i = 0
        self.insert_cell(i, cell)
        self._after_write(key)
        return 0

    cdef bint payload_is(self, MemPage p, int i, bytes rec) except -1:
        """Whether the payload of cell i of p is ``rec`` (compared in the page when it has
        no overflow, without a copy)."""
        cdef CellInfo info
        cdef int off = p.cell_offset(i)
        p.parse_cell(off, &info)
        if info.npayload != PyBytes_GET_SIZE(rec):
            return False
        if info.nlocal == info.npayload:
            return memcmp(p.a + off + info.hdrlen, PyBytes_AS_STRING(rec), info.nlocal) == 0
        return self.read_payload(p, off, &info) == rec

    cdef void _after_write(self, key):
        self._release()
        self.saved_key = key
        self.state = CURSOR_REQUIRESEEK
        self.skip_next = 0

    def delete(self):
        """Delete the current entry. The cursor then sits between its neighbours: next()
        gives the entry after the deleted one, prev() the one before."""
        self.delete_entry()

    cdef int delete_entry(self) except -1:
        """delete(), for the VM's Delete and IdxDelete (no Python call)."""
        cdef MemPage p, leaf
        cdef int i, d
        cdef bytes pred
        self._need_valid()
        self._prepare_write()
        self.memo_ok = False
        self.rec_ok = False
        key = self.current_rowid() if self.intkey else self.current_payload()
        d = self.depth
        p = self.top()
        i = self.idx[d]
        self.free_cell_overflow(p, i)
        if p.leaf:
            self.mark_dirty(p)
            p.drop_cell(i, self.pager.secure_delete)
            if self.depth > 0 and self.underfull(p):
                self.balance()
            elif i < p.ncell:
                # the path still holds: the cursor is on the entry after the deleted one
                self.saved_key = key
                self.state = CURSOR_REQUIRESEEK
                self.skip_next = 0
                self.kept = True
                return 0
        else:
            # index interior cell: replace it by its predecessor, the last entry of the
            # left subtree, taken out of its leaf
            left = p.child(i)
            self.push(left)
            self.move_to_rightmost()
            leaf = self.top()
            self.mark_dirty(leaf)
            cells = leaf.cells()
            pred = cells.pop()
            leaf.build(cells, leaf.ptype, 0)
            self.mark_dirty(p)
            pcells = _pending_cells(p) if p.pending is not None else p.cells()
            pcells[i] = pack4(left) + pred
            if cells_cost(pcells) <= p.capacity(p.ptype):
                p.build(pcells, p.ptype, p.right_child())
            else:
                p.pending = (pcells, p.right_child())
            self.balance()
        self._after_write(key)
        return 0

    cdef int replace_cell(self, int i, bytes cell) except -1:
        """Put ``cell`` in place of leaf cell i: over it when it takes the same room, else
        through the page's free space when it fits there, else by rebuilding the page
        (balancing it if it overflows)."""
        cdef MemPage p = self.top()
        cdef CellInfo info
        cdef int off, old, sz = PyBytes_GET_SIZE(cell)
        cdef int alloc = sz if sz >= 4 else 4
        self.mark_dirty(p)
        if p.leaf and p.pending is None:
            off = p.cell_offset(i)
            p.parse_cell(off, &info)
            old = info.size if info.size >= 4 else 4
            if old == alloc:
                memcpy(p.a + off, PyBytes_AS_STRING(cell), sz)
                if alloc > sz:
                    memset(p.a + off + sz, 0, alloc - sz)
                return 0
            if p.nfree() + old >= alloc + 2:
                p.drop_cell(i, self.pager.secure_delete)
                p.insert_cell_at(i, cell)
                self.balance()
                return 0
        cells = p.cells()
        cells[i] = cell
        if cells_cost(cells) <= p.capacity(p.ptype):
            p.build(cells, p.ptype, p.right_child())
        else:
            p.pending = (cells, p.right_child())
        self.balance()
        return 0

    cdef int insert_cell(self, int i, bytes cell) except -1:
        """Insert a leaf cell at slot i of the current leaf, balancing if it overflows."""
        cdef MemPage p = self.top()
        cdef int sz = PyBytes_GET_SIZE(cell)
        cdef int alloc = sz if sz >= 4 else 4
        cdef int top, gap_start, n
        cdef unsigned char* a
        self.mark_dirty(p)
        a = p.a
        n = p.ncell
        gap_start = p.cell_ptr + 2 * n
        top = p.content_start()
        if top - gap_start >= alloc + 2:
            top -= alloc
            memcpy(a + top, PyBytes_AS_STRING(cell), sz)
            if alloc > sz:
                memset(a + top + sz, 0, alloc - sz)
            memmove(a + p.cell_ptr + 2 * i + 2, a + p.cell_ptr + 2 * i, 2 * (n - i))
            put2(a + p.cell_ptr + 2 * i, top)
            put2(a + p.hdr + 3, n + 1)
            put2(a + p.hdr + 5, top)
            p.ncell = n + 1
            if p.free_bytes >= 0:
                p.free_bytes -= alloc + 2
            return 0
        if p.nfree() >= alloc + 2:
            p.rebuild_with(i, cell)
            return 0
        if (p.intkey and i == n and self.depth > 0
                and self.idx[self.depth - 1] == (<MemPage>self.pages[self.depth - 1]).ncell
                and (<MemPage>self.pages[self.depth - 1]).pending is None):
            self.balance_quick(p, cell)
            return 0
        p.pending = (None, p.right_child(), cell, i)   # (see _pending_cells)
        self.balance()
        return 0

    cdef int balance_quick(self, MemPage p, bytes cell) except -1:
        """Appending past the end of the right-most leaf of a table: start a new right-most
        leaf holding only the new cell (SQLite's balance_quick), leaving p full."""
        cdef MemPage parent = <MemPage>self.pages[self.depth - 1]
        cdef MemPage new = self.bt.allocate_page()
        new.build([cell], p.ptype, 0)
        div = pack4(p.pgno) + _varint_bytes(<uint64_t>p.cell_rowid(p.ncell - 1))
        self.mark_dirty(parent)
        cdef int sz = PyBytes_GET_SIZE(div)
        cdef int n = parent.ncell
        cdef int top = parent.content_start()
        cdef unsigned char* a = parent.a
        if top - (parent.cell_ptr + 2 * n) >= sz + 2:
            top -= sz
            memcpy(a + top, PyBytes_AS_STRING(div), sz)
            put2(a + parent.cell_ptr + 2 * n, top)
            put2(a + parent.hdr + 3, n + 1)
            put2(a + parent.hdr + 5, top)
            parent.ncell = n + 1
            if parent.free_bytes >= 0:
                parent.free_bytes -= sz + 2
            put4(a + parent.hdr + 8, new.pgno)
            return 0
        cells = parent.cells()
        cells.append(div)
        if cells_cost(cells) <= parent.capacity(parent.ptype):
            parent.build(cells, parent.ptype, new.pgno)
            return 0
        parent.pending = (cells, new.pgno)
        self.pages[self.depth] = None
        self.depth -= 1
        self.balance()
        return 0

    # -- balancing --------------------------------------------------------------------------
    cdef int balance(self) except -1:
        """Walk the cursor's path from the leaf to the root, fixing every page that
        overflows (pending content) or is less than a third full."""
        cdef int d
        cdef MemPage p, parent
        d = self.depth
        while d >= 0:
            p = <MemPage>self.pages[d]
            if d == 0:
                self.balance_root(p)
            elif p.pending is not None or self.underfull(p):
                parent = <MemPage>self.pages[d - 1]
                self.balance_nonroot(parent, self.idx[d - 1], p)
            d -= 1
        return 0

    cdef bint underfull(self, MemPage p) except -1:
        if p.pending is not None:
            return False
        return p.nfree() > (2 * p.usable) // 3

    cdef int balance_root(self, MemPage root) except -1:
        cdef MemPage child
        cdef int guard = 0
        while root.pending is not None:
            guard += 1
            if guard > MAX_DEPTH:
                raise corrupt()
            # balance_deeper: the root's content moves to a new child
            cells = _pending_cells(root)
            rc = root.pending[1]
            child = self.bt.allocate_page()
            child.pending = (cells, rc)
            child.ptype = root.ptype
            child.leaf = root.leaf
            child.intkey = root.intkey
            self.mark_dirty(root)
            root.pending = None
            root.build([], 5 if root.intkey else 2, child.pgno)
            self.balance_nonroot(root, 0, child)
        if not root.leaf and root.ncell == 0:
            # balance_shallower: pull the only child up into the root if it fits
            child = self.get_page(root.child(0))
            if child.leaf and child.ncell == 0:
                self.mark_dirty(root)
                root.build([], child.ptype, 0)
                self.bt.free_page(child.pgno)
                return 0
            cells = child.cells()
            if cells_cost(cells) <= root.capacity(child.ptype):
                self.mark_dirty(root)
                root.build(cells, child.ptype, child.right_child())
                self.bt.free_page(child.pgno)
        return 0

    cdef bint edit_parent(self, MemPage parent, int first, int n, list newdivs,
                          uint32_t lastpg) except -1:
        """Replace the n-1 dividers at ``first`` by newdivs in place, pointing the slot after
        them at lastpg. False (parent untouched) when the new dividers do not fit in the
        page's free space."""
        cdef int need = 0, have, j
        cdef int old_cost = 0
        cdef CellInfo info
        for d in newdivs:
            need += cell_cost(<bytes>d)
        for j in range(first, first + n - 1):
            parent.parse_cell(parent.cell_offset(j), &info)
            old_cost += (info.size if info.size >= 4 else 4) + 2
        have = parent.nfree()
        if need > have + old_cost:
            return False
        for j in range(n - 1):
            parent.drop_cell(first, self.pager.secure_delete)
        if first < parent.ncell:
            put4(parent.a + parent.cell_offset(first), lastpg)
        else:
            put4(parent.a + parent.hdr + 8, lastpg)
        for j in range(len(newdivs)):
            parent.insert_cell_at(first + j, <bytes>newdivs[j])
        return True

    cdef int balance_nonroot(self, MemPage parent, int pi, MemPage page) except -1:
        """Redistribute the cells of ``page`` (child pi of parent) and up to two siblings over
        as many pages as they need, rewriting the parent's dividers.

        As SQLite's balance_nonroot, the cells are not copied one by one into objects: the
        siblings' pages are copied whole into one scratch buffer (they are rebuilt in place)
        and every cell is a pointer and a size in C arrays (``Gather``), pointing into that
        copy, into a divider copied from the parent, or into the bytes of a page's pending
        list (kept referenced until the end)."""
        cdef int nchild, first, n, j, k, N, cap, st, cnt
        cdef MemPage s, np_
        cdef int ptype
        cdef bint leafdata, leaf
        cdef uint32_t pg, rc, last_rc, prc = 0, lastpg
        cdef list pcells = None
        cdef list sibs = []
        cdef list keep = []
        cdef list newdivs = []
        cdef list newpages = []
        cdef Gather g
        cdef CellInfo info
        cdef int off
        cdef unsigned char* dv
        cdef bytes d
        if parent.pending is not None:
            pcells = _pending_cells(parent)
            prc = parent.pending[1]
            nchild = len(pcells) + 1
        else:
            nchild = parent.ncell + 1
        if pi < 0 or pi >= nchild:
            raise corrupt()
        if nchild == 1 or pi == 0:
            first = 0
        elif pi == nchild - 1:
            first = pi - 2
        else:
            first = pi - 1
        if first < 0:
            first = 0
        n = min(3, nchild - first)
        N = 0
        for j in range(first, first + n):
            if pcells is not None:
                pg = (get4(<unsigned char*>PyBytes_AS_STRING(<bytes>pcells[j])) if j < len(pcells)
                      else prc)
            else:
                pg = parent.child(j)
            if pg == <uint32_t>page.pgno:
                s = page
            else:
                s = self.get_page(pg)
                if s.intkey != page.intkey or s.leaf != page.leaf:
                    raise corrupt()
            if s.pending is not None:
                N += len(<list>s.pending[0]) if s.pending[0] is not None else s.ncell + 1
            else:
                if not s.parsed:
                    s.parse()
                N += s.ncell
            sibs.append(s)
        ptype = page.ptype
        leaf = page.leaf
        leafdata = leaf and page.intkey
        N += n - 1
        _gather_init(&g, N, n, self.usable)
        try:
            # gather every cell, with the dividers turned into cells where the tree keeps them
            last_rc = 0
            for j in range(n):
                s = <MemPage>sibs[j]
                pend = s.pending
                if pend is None:
                    _gather_page(&g, s, None, 0)
                    last_rc = s.right_child()
                else:
                    keep.append(pend)
                    if pend[0] is None:
                        _gather_page(&g, s, <bytes>pend[2], <int>pend[3])
                    else:
                        _gather_list(&g, <list>pend[0])
                    last_rc = pend[1]
                if j < n - 1 and not leafdata:
                    if pcells is not None:
                        d = <bytes>pcells[first + j]
                        dv = <unsigned char*>PyBytes_AS_STRING(d)
                        off = PyBytes_GET_SIZE(d)
                    else:
                        off = parent.cell_offset(first + j)
                        parent.parse_cell(off, &info)
                        dv = parent.a + off
                        off = info.size
                    if leaf:
                        _gather_copy(&g, dv + 4, off - 4)
                    else:
                        _gather_copy(&g, dv, off)
                        put4(g.ptrs[g.n - 1], last_rc)
            N = g.n
            cap = self.usable - (8 if leaf else 12)
            k = _pack(g.sizes, N, cap, leafdata, g.ends)
            # pages: reuse the siblings, allocate more if needed
            for j in range(k):
                if j < n:
                    np_ = <MemPage>sibs[j]
                    self.mark_dirty(np_)
                else:
                    np_ = self.bt.allocate_page()
                newpages.append(np_)
            for j in range(k):
                np_ = <MemPage>newpages[j]
                st = 0 if j == 0 else g.ends[j - 1] + (0 if leafdata else 1)
                cnt = g.ends[j] - st
                if leaf:
                    rc = 0
                elif j < k - 1:
                    rc = get4(g.ptrs[g.ends[j]])
                else:
                    rc = last_rc
                np_.pending = None
                np_.build_from(g.ptrs + st, g.sizes + st, cnt, ptype, rc)
                if j < k - 1:
                    if leafdata:
                        newdivs.append(_divider(np_.pgno, NULL, 0,
                                                np_.cell_rowid(np_.ncell - 1)))
                    elif leaf:
                        newdivs.append(_divider(np_.pgno, g.ptrs[g.ends[j]], g.sizes[g.ends[j]], 0))
                    else:
                        newdivs.append(_divider(np_.pgno, g.ptrs[g.ends[j]] + 4,
                                                g.sizes[g.ends[j]] - 4, 0))
        finally:
            _gather_free(&g)
        for j in range(k, n):
            s = <MemPage>sibs[j]
            s.pending = None
            self.bt.free_page(s.pgno)
        lastpg = (<MemPage>newpages[k - 1]).pgno
        self.mark_dirty(parent)
        if parent.pending is None:
            if self.edit_parent(parent, first, n, newdivs, lastpg):
                return 0
            pcells = parent.cells()
            prc = parent.right_child()
        newp = pcells[:first] + newdivs + pcells[first + n - 1:]
        if first + n - 1 < len(pcells):
            j = first + k - 1
            newp[j] = pack4(lastpg) + (<bytes>newp[j])[4:]
        else:
            prc = lastpg
        if cells_cost(newp) <= parent.capacity(parent.ptype):
            parent.pending = None
            parent.build(newp, parent.ptype, prc)
        else:
            parent.pending = (newp, prc)
        return 0


cdef bytes _varint_bytes(uint64_t v):
    cdef unsigned char b[10]
    cdef int n = put_varint(b, v)
    return PyBytes_FromStringAndSize(<char*>b, n)


def page_cells(MemPage p):
    """The cells of a parsed page as bytes (for integrity checks and tools)."""
    if not p.parsed:
        p.parse()
    return p.cells()


def cell_info(MemPage p, int i):
    """(key, npayload, nlocal, size, first overflow page, child pgno or 0) of cell i, where
    key is the rowid for tables and the payload size for indexes."""
    cdef CellInfo info
    cdef int off
    if not p.parsed:
        p.parse()
    off = p.cell_offset(i)
    p.parse_cell(off, &info)
    ch = 0 if p.leaf else get4(p.a + off)
    return (info.key, info.npayload, info.nlocal, info.size, info.ovfl, ch, off)


def local_payload_bytes(MemPage p, int i):
    cdef CellInfo info
    cdef int off
    if not p.parsed:
        p.parse()
    off = p.cell_offset(i)
    p.parse_cell(off, &info)
    return PyBytes_FromStringAndSize(<char*>p.a + off + info.hdrlen, info.nlocal)
