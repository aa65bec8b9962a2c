"""The b-tree layer's connection object: one database file seen as a set of b-trees.

``Btree`` ties the pager (pages, transactions, journal, locks) to the compiled cursors of
``_btree.pyx``. It owns what is not on a cursor's path: page 1 and its header fields (meta
values, freelist), allocating and freeing pages (the freelist of trunk and leaf pages, the
lock-byte page skipped), creating/dropping/clearing b-trees, and the registry of open cursors
so that a change made through one cursor makes the others on the same tree save their
position (SQLite's saveAllCursors).

Never parses SQL or records; never touches files except through the pager.
"""

from __future__ import annotations

import struct

from sqlengine import errors
from sqlengine.storage import _btree
from sqlengine.storage import format as fmt
from sqlengine.storage._btree import BtCursor
from sqlengine.storage.pager import Pager, corrupt, full, super_journal_commit


_unpack_u32 = struct.Struct(">I").unpack_from  # (buffer, offset) -> (big-endian 4 bytes,)


def _get4(b, off: int) -> int:
    return _unpack_u32(b, off)[0]  # (no slice copied first)


def _put4(b, off: int, v: int) -> None:
    b[off:off + 4] = (v & 0xFFFFFFFF).to_bytes(4, "big")


class Btree:
    """An open database file. See the package docstring for the interface."""

    def __init__(self, path: str, vfs=None):
        self.pager = Pager(path, vfs)
        self.pager.factory = _btree.PageFactory(self.pager)
        self.path = self.pager.path
        self._cursors: dict[int, list] = {}
        self._parked: list = []      # cursors the VM finished with (_btree.park_cursor)
        self._page1_checked = None   # page 1 as _check_page1 last found it good
        self._page1_writable = None  # ... and _check_writable (not auto-vacuum)
        self.closed = False
        # set by the layer above: index_check(max_errors) -> [message], the comparison of
        # index entries with their table rows that integrity_check adds to the page checks
        self.index_check = None
        # PRAGMA page_size on a database that has pages: the size the next VACUUM builds
        self.pending_page_size = None

    @classmethod
    def open(cls, path: str, vfs=None) -> Btree:
        return cls(path, vfs)

    # -- configuration --------------------------------------------------------------------
    @property
    def page_size(self) -> int:
        return self.pager.page_size

    def set_page_size(self, n: int) -> bool:
        """Set the page size of an empty database; on one with pages, remember a valid
        size for the next VACUUM (as SQLite does). True if the size changed now."""
        if self.pager.set_page_size(n):
            return True
        if 512 <= n <= 65536 and not n & (n - 1):
            self.pending_page_size = n
        return False

    @property
    def usable_size(self) -> int:
        return self.pager.usable_size

    @property
    def cache_size(self) -> int:
        return self.pager.cache_size

    @cache_size.setter
    def cache_size(self, n: int) -> None:
        self.pager.set_cache_size(n)

    @property
    def journal_mode(self) -> str:
        return self.pager.journal_mode

    def set_journal_mode(self, mode: str) -> str:
        return self.pager.set_journal_mode(mode)

    @property
    def synchronous(self) -> int:
        return self.pager.synchronous

    @synchronous.setter
    def synchronous(self, level: int) -> None:
        self.pager.synchronous = level

    @property
    def busy_timeout(self) -> float:
        return self.pager.busy_timeout

    @busy_timeout.setter
    def busy_timeout(self, seconds: float) -> None:
        self.pager.busy_timeout = seconds

    @property
    def is_memory(self) -> bool:
        return self.pager.memory

    # -- transactions ---------------------------------------------------------------------
    @property
    def in_trans(self) -> int:
        return self.pager.in_trans

    def begin(self, write: bool = False) -> None:
        """Start a read (SHARED) or write (RESERVED) transaction; a no-op when one at least
        as strong is open. Raises OperationalError("database is locked") after the busy
        timeout."""
        if self.closed:
            raise errors.ProgrammingError("Cannot operate on a closed database.")
        p = self.pager
        if write:
            if p.in_trans == 2:
                return
            p.begin_write(check=self._check_writable)
            if p.db_size == 0:
                self._new_database()
        else:
            if p.in_trans:
                return
            p.begin_read()
            # (_check_page1's own first test, inline: nearly every statement starts here)
            if p.db_size > 0 and (p.cache.get(1) is not self._page1_checked
                                  or self._page1_checked is None):
                try:
                    self._check_page1()
                except BaseException:
                    p.end_read()
                    raise

    def begin_cookie(self, write: bool = False) -> int:
        """``begin(write)`` then ``get_meta(1)`` (the schema cookie): the VM's start of a
        statement with no transaction open (compiled: _btree.begin_cookie, which an
        in-memory database whose page 1 was checked passes through without either call)."""
        return _btree.begin_cookie(self, write)

    def _check_writable(self) -> None:
        p = self.pager
        if p.db_size > 0:
            p1 = p.cache.get(1)
            if p1 is self._page1_writable is not None:
                # the same cached page 1 as at the last check: the file did not change, and
                # this connection never sets the auto-vacuum field
                return
            self._check_page1()
            if self.get_meta(4):
                # auto-vacuum files keep pointer maps this engine does not maintain
                raise errors.NotSupportedError(
                    "cannot write an auto_vacuum database (in sqlite3, PRAGMA "
                    "auto_vacuum=NONE then VACUUM converts it)")
            self._page1_writable = self._page1_checked

    def _check_page1(self) -> None:
        if self.pager.cache.get(1) is self._page1_checked is not None:
            return  # the same cached page as at the last check (the file did not change)
        p1 = self.pager.get(1)
        if bytes(p1.data[:16]) != fmt.MAGIC:
            raise errors.DatabaseError("file is not a database", code=errors.SQLITE_NOTADB)
        if _get4(p1.data, 56) in (2, 3):
            raise errors.NotSupportedError("UTF-16 databases are not supported by sqlengine "
                                           "(text is stored as UTF-8)")
        try:
            p1.parse_header()
        except errors.DatabaseError:
            raise
        if not p1.intkey or not (p1.leaf or True):
            raise corrupt()
        self._page1_checked = p1

    def _new_database(self) -> None:
        p = self.pager
        p.db_size = 1
        page = p.get(1)
        p.write(page)
        page.data[:] = bytes(p.page_size)
        page.data[:100] = fmt.new_database_header(p.page_size)
        page.data[20] = p.reserved
        page.invalidate()
        _btree.init_empty_page(page, True)

    def commit(self) -> None:
        # the cursors saved, then a read transaction ended or a write one committed
        # (compiled, as the VM's end of every autocommit statement calls it)
        _btree.btree_commit(self)

    def commit_together(self, others: list) -> None:
        """Commit this file's write transaction and those of the b-trees ``others``
        (attached files) as one: through a super-journal when two or more of them are
        files with a rollback journal (see pager.super_journal_commit), else one by one."""
        bts = [self] + [b for b in others if b.in_trans]
        writers = [b for b in bts if b.pager.in_trans == 2]
        if self.pager.memory or sum(b.pager.needs_super_journal() for b in writers) < 2:
            for b in bts:
                b.commit()
            return
        for b in bts:
            _btree.save_all(b)
        super_journal_commit([b.pager for b in writers], self.pager)
        for b in bts:
            if b.pager.in_trans:
                b.pager.commit()          # the files only read: end their read transactions

    def rollback(self) -> None:
        _btree.save_all(self)
        self.pager.rollback()

    def savepoint_open(self, n: int) -> None:
        """Open savepoint number n (0 = outermost); opens the missing ones below it."""
        if self.pager.in_trans != 2:
            raise errors.OperationalError("cannot open savepoint - no write transaction")
        self.pager.savepoint_open(n)

    def savepoint_release(self, n: int) -> None:
        self.pager.savepoint_release(n)

    def savepoint_rollback(self, n: int) -> None:
        _btree.save_all(self)
        self.pager.savepoint_rollback(n)

    def close(self) -> None:
        if self.closed:
            return
        for c in list(self._live_cursors()):
            c.invalidate()
        self._cursors.clear()
        self.pager.close()
        self.closed = True

    # -- meta -----------------------------------------------------------------------------
    def get_meta(self, i: int) -> int:
        p = self.pager
        if p.db_size == 0:
            return 0
        p1 = p.cache.get(1)
        if p1 is None:
            p1 = p.get(1)
        return _get4(p1.data, 36 + 4 * i)

    def set_meta(self, i: int, v: int) -> None:
        if i < 1 or i > 15:
            raise ValueError("meta index out of range")
        p1 = self.pager.get(1)
        self.pager.write(p1)
        _put4(p1.data, 36 + 4 * i, v)

    def page_count(self) -> int:
        return self.pager.db_size

    def freelist_count(self) -> int:
        return self.get_meta(0)

    # -- cursors --------------------------------------------------------------------------
    def cursor(self, root: int, write: bool = False, key_info=None) -> BtCursor:
        # (the VM opens its cursors through _btree.open_cursor, which does the same)
        return BtCursor(self, root, write, key_info)

    def _peers(self, root: int) -> list:
        """The shared list of weak references to the cursors open on a root."""
        lst = self._cursors.get(root)
        if lst is None:
            lst = self._cursors[root] = []
        return lst

    def _live_cursors(self, root=None):
        lists = [self._cursors.get(root, [])] if root is not None else list(self._cursors.values())
        for lst in lists:
            for r in list(lst):
                c = r()
                if c is not None:
                    yield c

    # -- pages ----------------------------------------------------------------------------
    def allocate_page(self):
        """A page for new content, from the freelist or the end of the file; it is already
        writable (journaled) and its content is zeroed."""
        p = self.pager
        p1 = p.get(1)
        d = p1.data
        trunk = _get4(d, 32)
        nfree = _get4(d, 36)
        if trunk:
            if trunk > p.db_size or trunk < 2:
                raise corrupt()
            tp = p.get(trunk)
            td = tp.data
            n = _get4(td, 4)
            if n > p.usable_size // 4 - 2:
                raise corrupt()
            p.write(p1)
            if n > 0:
                pgno = _get4(td, 8 + 4 * (n - 1))
                if pgno < 2 or pgno > p.db_size:
                    raise corrupt()
                p.write(tp)
                _put4(td, 4, n - 1)
                tp.invalidate()
            else:
                pgno = trunk
                _put4(d, 32, _get4(td, 0))
            _put4(d, 36, max(nfree - 1, 0))
            page = p.get(pgno)
            p.write(page)
            page.data[:] = bytes(p.page_size)
            page.invalidate()
            page.pending = None
            return page
        pgno = p.db_size + 1
        if pgno == fmt.lock_byte_page(p.page_size):
            pgno += 1
        if pgno > p.max_pgno:  # (PRAGMA max_page_count: SQLite's SQLITE_FULL)
            raise full()
        p.db_size = pgno
        page = p.get(pgno)
        p.write(page)
        page.data[:] = bytes(p.page_size)
        page.invalidate()
        page.pending = None
        return page

    def free_page(self, pgno: int) -> None:
        """Put a page on the freelist."""
        p = self.pager
        if pgno < 2 or pgno > p.db_size:
            raise corrupt()
        p1 = p.get(1)
        d = p1.data
        p.write(p1)
        trunk = _get4(d, 32)
        _put4(d, 36, _get4(d, 36) + 1)
        page = p.get(pgno)
        page.pending = None
        if trunk:
            if trunk > p.db_size:
                raise corrupt()
            tp = p.get(trunk)
            n = _get4(tp.data, 4)
            if n < p.usable_size // 4 - 8:
                p.write(tp)
                _put4(tp.data, 8 + 4 * n, pgno)
                _put4(tp.data, 4, n + 1)
                tp.invalidate()
                if p.secure_delete == 1:  # (PRAGMA secure_delete ON: SQLite's freePage2)
                    p.write(page)
                    page.data[:] = bytes(p.page_size)
                page.invalidate()
                return
        p.write(page)
        page.data[:] = bytes(p.page_size)
        _put4(page.data, 0, trunk)
        page.invalidate()
        _put4(d, 32, pgno)

    def free_overflow(self, pgno: int, count: int) -> None:
        """Free an overflow chain of ``count`` pages starting at pgno."""
        p = self.pager
        for _ in range(count):
            if pgno < 2 or pgno > p.db_size:
                raise corrupt()
            nxt = _get4(p.get(pgno).data, 0)
            self.free_page(pgno)
            pgno = nxt
            if pgno == 0:
                break

    # -- whole b-trees --------------------------------------------------------------------
    def create_table(self, intkey: bool = True) -> int:
        """A new empty b-tree: a table (intkey, rowid keys) or an index. Returns its root."""
        page = self.allocate_page()
        _btree.init_empty_page(page, bool(intkey))
        return page.pgno

    def _walk_free(self, pgno: int, free_root: bool, depth: int = 0) -> int:
        """Free every page below (and maybe including) pgno; returns the entry count."""
        if depth > 20:
            raise corrupt()
        page = self.pager.get(pgno)
        if not page.parsed:
            page.parse_header()
        n = 0
        for i in range(page.ncell):
            key, npayload, nlocal, size, ovfl, child, off = _btree.cell_info(page, i)
            if ovfl:
                u = self.pager.usable_size
                self.free_overflow(ovfl, (npayload - nlocal + u - 5) // (u - 4))
            if child:
                n += self._walk_free(child, True, depth + 1)
            if page.leaf or not page.intkey:
                n += 1
        if not page.leaf:
            n += self._walk_free(_get4(page.data, page.hdr + 8), True, depth + 1)
        if free_root:
            self.free_page(pgno)
        return n

    def row_count_est(self, root: int) -> int:
        """The rough row count of b-tree ``root`` SQLite's OP_IfSmaller weighs (its
        sqlite3BtreeRowCountEst on the first entry): the cells of the first leaf times
        those of each page above it on the way down; 0 for an empty tree."""
        n = 1
        pgno = root
        for _ in range(20):  # (no deeper than a cursor goes)
            page = self.pager.get(pgno)
            if not page.parsed:
                page.parse_header()
            if page.leaf or not page.ncell:
                return n * page.ncell
            n *= page.ncell
            pgno = _btree.cell_info(page, 0)[5]
        return n

    def clear_table(self, root: int) -> int:
        """Delete every entry of a b-tree (its root stays). Returns how many there were."""
        self._invalidate_cursors(root)
        page = self.pager.get(root)
        if not page.parsed:
            page.parse_header()
        intkey = page.intkey
        n = self._walk_free(root, False)
        self.pager.write(page)
        _btree.init_empty_page(page, intkey)
        return n

    def drop_table(self, root: int) -> None:
        """Free every page of a b-tree, root included (page 1 cannot be dropped)."""
        if root == 1:
            raise errors.OperationalError("cannot drop the schema table")
        self._invalidate_cursors(root)
        self._walk_free(root, True)

    def _invalidate_cursors(self, root: int) -> None:
        for c in list(self._live_cursors(root)):
            c.invalidate()

    def vacuum(self, page_size: int | None = None) -> dict[int, int]:
        """Rebuild the file compactly, optionally with a new page size (see storage.vacuum);
        returns {old root: new root}."""
        from sqlengine.storage.vacuum import vacuum
        return vacuum(self, page_size)

    # -- checks ---------------------------------------------------------------------------
    def integrity_check(self, roots=None, max_errors: int = 100, partial=False) -> list[str]:
        """SQLite-style integrity messages for the b-trees at ``roots`` (default: page 1 and
        every root named in sqlite_schema; ``partial``: those of one table only, see
        storage.integrity); ["ok"] when clean."""
        from sqlengine.storage.integrity import integrity_check
        res = integrity_check(self, roots, max_errors, partial)
        hook = self.index_check
        if hook is None or roots is not None or self.pager.db_size == 0:
            return res
        errs = [] if res == ["ok"] else res
        started = self.pager.in_trans == 0
        if started:
            self.begin(False)
        try:
            errs = errs + hook(max_errors - len(errs))
        finally:
            if started:
                self.pager.end_read()
        return errs or ["ok"]


_btree.register_btree_type(Btree)  # (the VM's _btree.open_cursor stands in for Btree.cursor)
