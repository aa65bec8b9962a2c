# cython: language_level=3
"""The pager's page-miss path, compiled: read a page the cache does not hold, make its page
object and cache it (the slow half of ``Pager.get``), and the cache's eviction scan; the
commit of an in-memory database (``commit_memory``), which every write statement ends with;
and the page-1 header stamp of every commit (``stamp_header``).

A full scan of a table larger than the cache misses on every page, so this path runs once
per page read; in plain Python it cost about as much as the rows on the page. When the
pager's file is a plain ``OsFile`` the page is read with one ``pread`` straight into the new
page buffer; any other file (in-memory, fault-injecting) is read through its ``read()``.

The b-tree cursors call ``read_page_data`` and ``cache_page`` directly (they make their own
MemPage); everything else goes through ``Pager.get`` and ``load_page``, which makes pages
with the pager's factory. This module decides nothing of its own: ``Pager`` (pager.py) owns
the cache's size, the locks and the journal; it never parses a page, and writes only the
committed pages of an in-memory database into its memory file.
"""

from cpython.bytearray cimport (PyByteArray_FromStringAndSize, PyByteArray_AS_STRING,
                                PyByteArray_GET_SIZE)
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.dict cimport PyDict_Next, PyDict_Contains
from cpython.exc cimport PyErr_CheckSignals
from cpython.object cimport PyObject
from libc.errno cimport errno, EINTR
from libc.string cimport memcpy, memset
from libc.stdint cimport uint32_t
from posix.types cimport off_t
from posix.unistd cimport pread

from sqlengine import errors
from sqlengine.vfs.base import ioerr
from sqlengine.storage.format import PENDING_BYTE, SQLITE_VERSION_NUMBER
from sqlengine.vfs.memory import MemoryFile
from sqlengine.vfs.osfile import OsFile

cdef extern from "Python.h":
    Py_ssize_t refcnt "Py_REFCNT" (PyObject* o)


cdef class PagerState:
    """The pager's state that compiled code reads or writes at every statement, as C fields
    (declared in _pageread.pxd): the base class of ``pager.Pager``, whose methods own it
    (pager.py documents each field). The b-tree cursors, the VM's transaction start and end
    and the in-memory commit read them without an attribute look-up each; Pager's other
    attributes stay in its instance dict."""


cdef bytearray _pread_page(int fd, Py_ssize_t pgno, Py_ssize_t ps):
    """Page ``pgno`` of the file open on ``fd``, zero-filled past the end of the file."""
    cdef bytearray data = PyByteArray_FromStringAndSize(NULL, ps)
    cdef char* buf = PyByteArray_AS_STRING(data)
    cdef Py_ssize_t n
    while True:
        n = pread(fd, buf, ps, <off_t>((pgno - 1) * ps))
        if n >= 0:
            break
        if errno != EINTR:
            raise ioerr(errors.SQLITE_IOERR_READ)
        PyErr_CheckSignals()
    if n < ps:
        memset(buf + n, 0, ps - n)
    return data


cdef bytearray read_page_data(object pager, Py_ssize_t pgno):
    """The bytes of page ``pgno`` (a new bytearray of the page size): the file's within the
    database, zeroes beyond it; corrupt when pgno is beyond any sane size."""
    cdef PagerState pst = <PagerState?>pager
    cdef Py_ssize_t ps = pst.page_size
    cdef Py_ssize_t db_size = pst.db_size
    if pgno < 1 or pgno > max(db_size, 1) + 1_000_000_000 // ps:
        raise errors.DatabaseError("database disk image is malformed",
                                   code=errors.SQLITE_CORRUPT)
    f = pst.file
    if pgno <= db_size and type(f) is OsFile:
        return _pread_page(f.fd, pgno, ps)
    if pgno <= db_size and not (pst.memory and f.size() < pgno * ps):
        data = bytearray(f.read((pgno - 1) * ps, ps))
        if len(data) < ps:
            data.extend(bytes(ps - len(data)))
        return data
    return bytearray(ps)


cdef int cache_page(object pager, Py_ssize_t pgno, object page) except -1:
    """Put a page just read into the cache, shrinking the cache past the pager's mark."""
    cdef PagerState pst = <PagerState?>pager
    cdef dict cache = pst.cache
    cache[pgno] = page
    if len(cache) > pst._next_shrink:
        shrink_cache(pager)
    return 0


cpdef object load_page(object pager, Py_ssize_t pgno):
    """Page ``pgno`` (not in ``pager.cache``), read, made by the pager's factory, cached."""
    page = pager.factory(pgno, read_page_data(pager, pgno))
    cache_page(pager, pgno, page)
    return page


cpdef shrink_cache(object pager):
    """Evict clean pages no cursor holds until the cache is an eighth under its capacity:
    leaves and overflow pages first (oldest first), interior pages only when those are not
    enough (they are few and on every seek path). A page no one holds is one whose only
    reference is the cache's (read on the borrowed reference). The next scan waits until
    another eighth of the capacity has been read in, so the cost stays amortized even when
    most cached pages are dirty (not evictable)."""
    cdef Py_ssize_t cap = pager.cache_capacity()
    cdef dict cache = pager.cache
    cdef dict dirty = pager.dirty
    cdef Py_ssize_t excess = len(cache) - cap
    cdef Py_ssize_t pos
    cdef PyObject* key
    cdef PyObject* value
    cdef list victims
    cdef set seen
    cdef bint keep_interior
    cdef int npass
    if excess <= 0:
        pager._next_shrink = cap + max(cap // 8, 16)
        return
    excess += cap // 8
    victims = []
    seen = set()
    for npass in range(2):
        keep_interior = npass == 0
        pos = 0
        while PyDict_Next(cache, &pos, &key, &value):
            if refcnt(value) != 1 or PyDict_Contains(dirty, <object>key):
                continue
            if keep_interior:
                page = <object>value
                interior = page.parsed and not page.leaf
                page = None
                if interior:
                    continue
            if <object>key not in seen:
                victims.append(<object>key)
                seen.add(<object>key)
                if len(victims) >= excess:
                    break
        if len(victims) >= excess:
            break
    for k in victims:
        del cache[k]
    pager._next_shrink = max(len(cache), cap) + max(cap // 8, 16)


cdef inline uint32_t _get_u32(const unsigned char* p):
    return (<uint32_t>p[0] << 24) | (<uint32_t>p[1] << 16) | (<uint32_t>p[2] << 8) | p[3]


cdef inline void _put_u32(unsigned char* p, uint32_t v):
    p[0] = v >> 24
    p[1] = (v >> 16) & 0xFF
    p[2] = (v >> 8) & 0xFF
    p[3] = v & 0xFF


cpdef stamp_header(object pager, bytearray data, Py_ssize_t db_size):
    """Write a commit's page-1 header fields into ``data`` (page 1, already dirty), as
    SQLite's pager_write_changecounter does: the file change counter incremented (wrapping
    at 32 bits), the database size ``db_size`` in pages, the version-valid-for number (the
    new counter) and the library's version number. The pager keeps the new counter's bytes
    (``change_counter``) and forgets its parsed header. The one writer of these fields for
    both commits: ``Pager._update_header`` (a file) and ``commit_memory``."""
    cdef unsigned char* d
    cdef uint32_t counter
    if PyByteArray_GET_SIZE(data) < 100:
        raise ValueError("page 1 is shorter than the database header")
    d = <unsigned char*>PyByteArray_AS_STRING(data)
    counter = _get_u32(d + 24) + 1
    _put_u32(d + 24, counter)
    _put_u32(d + 28, <uint32_t>db_size)
    _put_u32(d + 92, counter)
    _put_u32(d + 96, SQLITE_VERSION_NUMBER)
    counter_bytes = PyBytes_FromStringAndSize(<char*>d + 24, 4)
    if isinstance(pager, PagerState):
        (<PagerState>pager).change_counter = counter_bytes
        (<PagerState>pager)._last_header = None
    else:
        pager.change_counter = counter_bytes
        pager._last_header = None


cpdef commit_memory(object pager):
    """``Pager.commit`` of an in-memory database: commit its write transaction (no
    journal file, no lock, no sync). As ``_update_header``, ``_write_dirty`` and
    ``_fit_file_size`` do for a file: page 1 made dirty (its page-1 image for a savepoint is
    not needed: the savepoints end here) and its header stamped (``stamp_header``); the
    memory file made exactly db_size pages (zeroes for pages never
    written) and every dirty page within it copied in, which a later rollback or a cache
    miss reads back; the write state dropped. A database as large as the lock-byte page, or
    a file that is not a plain MemoryFile, takes the pager's own methods."""
    cdef PagerState pst = <PagerState?>pager
    cdef dict dirty = pst.dirty
    cdef dict cache = pst.cache
    cdef Py_ssize_t ps, db_size, want, have, pos
    cdef PyObject* key
    cdef PyObject* value
    cdef char* fbuf
    cdef uint32_t pgno
    cdef bytearray fdata, pdata
    db_size = pst.db_size
    if dirty or db_size != pst.orig_db_size:
        ps = pst.page_size
        f = pst.file
        if type(f) is not MemoryFile or db_size >= PENDING_BYTE // ps + 1:
            pager._update_header()
            pst.spilled = True
            pager._write_dirty()
            pager._fit_file_size()
        else:
            p1 = cache.get(1)
            if p1 is None:
                p1 = pager.get(1)
            dirty[1] = p1
            stamp_header(pager, p1.data, db_size)
            pst.spilled = True
            fdata = f.data
            want = db_size * ps
            have = PyByteArray_GET_SIZE(fdata)
            if have > want:
                del fdata[want:]
            elif have < want:
                fdata.extend(bytes(want - have))
            fbuf = PyByteArray_AS_STRING(fdata)
            pos = 0
            while PyDict_Next(dirty, &pos, &key, &value):
                pgno = <uint32_t><object>key
                if pgno <= db_size:
                    pdata = (<object>value).data
                    if PyByteArray_GET_SIZE(pdata) != ps:
                        raise ValueError("page %d is not of the page size" % pgno)
                    memcpy(fbuf + (pgno - 1) * ps, PyByteArray_AS_STRING(pdata), ps)
    dirty.clear()
    if pst.journaled:
        pst.journaled.clear()
    if pst.savepoints:
        pst.savepoints.clear()
    pst.in_trans = 0
    if len(cache) > pst.spill_limit:  # (spill_limit is the cache's capacity)
        shrink_cache(pager)
