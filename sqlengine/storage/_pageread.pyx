# cython: language_level=3
"""The pager's page-miss path, compiled: read a page the cache does not hold, make its page
object and cache it (the slow half of ``Pager.get``), and the cache's eviction scan.

A full scan of a table larger than the cache misses on every page, so this path runs once
per page read; in plain Python it cost about as much as the rows on the page. When the
pager's file is a plain ``OsFile`` the page is read with one ``pread`` straight into the new
page buffer; any other file (in-memory, fault-injecting) is read through its ``read()``.

The b-tree cursors call ``read_page_data`` and ``cache_page`` directly (they make their own
MemPage); everything else goes through ``Pager.get`` and ``load_page``, which makes pages
with the pager's factory. This module decides nothing of its own: ``Pager`` (pager.py) owns
the cache's size, the locks and the journal; it never writes, and never parses a page.
"""

from cpython.bytearray cimport PyByteArray_FromStringAndSize, PyByteArray_AS_STRING
from cpython.dict cimport PyDict_Next, PyDict_Contains
from cpython.exc cimport PyErr_CheckSignals
from cpython.object cimport PyObject
from libc.errno cimport errno, EINTR
from libc.string cimport memset
from posix.types cimport off_t
from posix.unistd cimport pread

from sqlengine import errors
from sqlengine.vfs.base import ioerr
from sqlengine.vfs.osfile import OsFile

cdef extern from "Python.h":
    Py_ssize_t refcnt "Py_REFCNT" (PyObject* o)


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
    cdef Py_ssize_t ps = pager.page_size
    cdef Py_ssize_t db_size = pager.db_size
    if pgno < 1 or pgno > max(db_size, 1) + 1_000_000_000 // ps:
        raise errors.DatabaseError("database disk image is malformed",
                                   code=errors.SQLITE_CORRUPT)
    f = pager.file
    if pgno <= db_size and type(f) is OsFile:
        return _pread_page(f.fd, pgno, ps)
    if pgno <= db_size and not (pager.memory and f.size() < pgno * ps):
        data = bytearray(f.read((pgno - 1) * ps, ps))
        if len(data) < ps:
            data.extend(bytes(ps - len(data)))
        return data
    return bytearray(ps)


cdef int cache_page(object pager, Py_ssize_t pgno, object page) except -1:
    """Put a page just read into the cache, shrinking the cache past the pager's mark."""
    cdef dict cache = pager.cache
    cache[pgno] = page
    if len(cache) > pager._next_shrink:
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
