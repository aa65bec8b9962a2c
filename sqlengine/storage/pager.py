"""The pager: pages of the database file in a bounded cache, the lock protocol, and atomic
commit through a rollback journal in SQLite's format.

States (as SQLite's pager.c; the lock is the VFS lock level):

    OPEN ──begin_read──► READER (SHARED) ──begin_write──► WRITER (RESERVED, journal open)
      ▲                       │                               │ commit: sync journal,
      └────────end_read───────┘                               │ PENDING+EXCLUSIVE, write pages,
      ▲                                                       │ sync db, finalize journal
      └──────────────────────── commit / rollback ◄───────────┘
                        (to READER instead, keeping SHARED, with keep_read set)

* Before a page is first changed in a write transaction its original image is appended to the
  journal (only pages that existed when the transaction began). The database file itself is
  only written at commit (or when the cache spills), after the journal is synced.
* A journal that exists when a SHARED lock is taken, with no RESERVED lock held by anyone, is
  "hot": the previous writer died mid-commit. It is played back (under EXCLUSIVE) before
  anything is read.
* Savepoints keep the pre-images of pages changed since they opened (SQLite's statement
  journal), plus the database size: in memory up to STMT_SPILL_PAGES images, then in a
  temporary file (the image becomes its offset there).

The pager never parses b-tree pages: it hands out page objects made by the factory given by the
b-tree layer (anything with ``pgno``, ``data`` (a bytearray of page_size) and ``invalidate()``).
A page read on a cache miss, the cache's eviction scan and an in-memory database's commit
are compiled (``_pageread.pyx``);
the b-tree's cursors use that miss path directly and make their own pages.
"""

from __future__ import annotations

import os
import random
import tempfile
import time

from sqlengine import errors
from sqlengine.storage import format as fmt
from sqlengine.storage._pageread import (PagerState, commit_memory, load_page, shrink_cache,
                                         stamp_header)
from sqlengine.vfs import EXCLUSIVE, NO_LOCK, RESERVED, SHARED, MemoryVfs, default_vfs


JOURNAL_MODES = ("delete", "truncate", "persist", "memory", "off")
SECTOR_SIZE = 4096
DEFAULT_CACHE_SIZE = -2000  # SQLITE_DEFAULT_CACHE_SIZE (KiB, being negative)
STMT_SPILL_PAGES = 16             # savepoint page images kept in memory before a spill
MAX_PAGE_COUNT = 1073741823       # SQLITE_MAX_PAGE_COUNT of the sqlite3 build answered as
SECURE_DELETE = 1                 # SQLITE_SECURE_DELETE: secure_delete is on by default


def corrupt(msg: str = "database disk image is malformed") -> errors.DatabaseError:
    return errors.DatabaseError(msg, code=errors.SQLITE_CORRUPT)


def notadb() -> errors.DatabaseError:
    return errors.DatabaseError("file is not a database", code=errors.SQLITE_NOTADB)


def full() -> errors.OperationalError:
    return errors.OperationalError("database or disk is full", code=errors.SQLITE_FULL)


def busy() -> errors.OperationalError:
    return errors.OperationalError("database is locked", code=errors.SQLITE_BUSY)


def _checksum(nonce: int, data, page_size: int) -> int:
    """The journal record checksum: the nonce plus the bytes at page_size - 200,
    page_size - 400, ... down to the last offset above 0 (SQLite's pager_cksum)."""
    if page_size <= 200:
        return nonce & 0xFFFFFFFF
    return (nonce + sum(data[page_size - 200:0:-200])) & 0xFFFFFFFF


class Savepoint:
    __slots__ = ("images", "db_size")

    def __init__(self, db_size: int):
        self.images: dict[int, bytes] = {}
        self.db_size = db_size


class Pager(PagerState):
    # The fields the compiled storage reads at every statement (cache, dirty, journaled,
    # savepoints, in_trans, db_size, orig_db_size, page_size, reserved, memory, spilled,
    # file, change_counter, _last_header, spill_limit, _next_shrink) are C fields of the
    # PagerState base (_pageread.pyx); the others live in the instance dict.
    # PRAGMA data_version: 1, plus one each time a read finds the file changed by another
    # connection since the change counter this pager last saw or wrote (change_counter, or
    # _data_counter while change_counter is forgotten). Class defaults, set on a pager
    # only when they change: another attribute on every pager slows its attribute reads.
    data_version = 1
    _data_counter = None
    # Set (by the connection, around a commit or rollback) while other statements of the
    # connection are still reading: the write transaction then ends in a read transaction
    # holding SHARED (end_read keeps it), as SQLite's btreeEndTransaction downgrades to
    # TRANS_READ while nVdbeRead > 1, so that their cursors read a file no one else can
    # change. A class default, set on a pager only for the length of that call.
    keep_read = False
    # PRAGMA journal_size_limit: the bytes a persisted journal keeps after a commit (-1 no
    # limit; 0 empties it). A class default, set on a pager only when it is set.
    journal_size_limit = -1

    def __init__(self, path: str, vfs=None, page_factory=None):
        self.memory = path in ("", ":memory:")
        if self.memory:
            vfs = MemoryVfs()
            path = ":memory:"
        elif vfs is None:
            vfs = default_vfs()
            path = os.path.abspath(path)
        self.vfs = vfs
        self.path = path
        self.journal_path = path + "-journal"
        self.factory = page_factory
        self.file = vfs.open(path, "main")
        self.jfile = None
        self.journal_mode = "memory" if self.memory else "delete"
        self.synchronous = 2          # 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA
        self.busy_timeout = 5.0
        self.cache_size = DEFAULT_CACHE_SIZE  # PRAGMA cache_size: pages if > 0, KiB if < 0
        self.spill_limit = 500        # dirty pages beyond which maybe_spill() is worth a call
        self.cache: dict[int, object] = {}
        self._next_shrink = 0
        self.dirty: dict[int, object] = {}
        self.journaled: set[int] = set()
        self.savepoints: list[Savepoint] = []
        self.in_trans = 0             # 0 none, 1 read, 2 write
        self.page_size = fmt.DEFAULT_PAGE_SIZE
        self.reserved = 0
        self.db_size = 0              # pages, as seen by the current transaction
        self.orig_db_size = 0
        self.change_counter = None
        self._last_header = None      # (header bytes, file size, db_size) of the last parse
        self.nonce = 0
        self.jrecords = 0             # records in the current journal segment
        self.jhdr_off = 0
        self.joff = 0
        self.spilled = False
        self.header_checked = False
        self.stmt_file = None         # the statement journal: savepoint images spilled
        self.stmt_off = 0             # its used size
        self.stmt_mem = 0             # savepoint images held in memory since the last spill
        self.max_pgno = MAX_PAGE_COUNT  # (PRAGMA max_page_count: btree.allocate_page)
        self.secure_delete = SECURE_DELETE  # (PRAGMA secure_delete: the b-tree zeroes
        # freed cells when set, and freed pages when 1)
        # PRAGMA locking_mode = EXCLUSIVE: the locks a transaction took are kept when it
        # ends (SHARED after a read, EXCLUSIVE from the start of a write), and a DELETE
        # journal is kept as a PERSIST one (kept_journal), as SQLite's exclusiveMode; set
        # back to False, the locks go (the kept journal deleted) at the next end_read
        self.exclusive = False
        self.kept_journal = False
        self._read_header_initial()

    # -- configuration --------------------------------------------------------------------
    @property
    def usable_size(self) -> int:
        return self.page_size - self.reserved

    def cache_capacity(self) -> int:
        n = self.cache_size
        if n < 0:
            n = (-n * 1024) // self.page_size
        return max(n, 10)

    def set_cache_size(self, n: int) -> None:
        self.cache_size = n
        self.spill_limit = self.cache_capacity()
        self._next_shrink = 0
        self._shrink_cache()

    def set_page_size(self, n: int) -> bool:
        """Change the page size of a database that has no pages yet. True if done."""
        if n < 512 or n > 65536 or n & (n - 1):
            return False
        if self.db_size > 0 or self.file.size() > 0:
            return False
        self.page_size = n
        self.cache.clear()
        self.spill_limit = self.cache_capacity()
        return True

    def set_journal_mode(self, mode: str) -> str:
        mode = mode.lower()
        if mode in JOURNAL_MODES and not self.memory and self.in_trans < 2:
            if mode in ("memory", "off") and self.journal_mode not in ("memory", "off"):
                self.vfs.delete(self.journal_path)
            self.journal_mode = mode
        elif self.memory and mode in ("memory", "off") and self.in_trans < 2:
            self.journal_mode = mode
        return self.journal_mode

    # -- header ---------------------------------------------------------------------------
    def _read_header_initial(self) -> None:
        """Take the page size from the header at open, as SQLite does, without judging the
        file: a hot journal may be about to restore page 1, and a bad header is reported by
        the first transaction (begin_read), after any hot journal was played back."""
        size = self.file.size()
        if size == 0 or self._journal_may_be_hot():
            return
        try:
            self._parse_header(self.file.read(0, 100), size)
        except errors.DatabaseError:
            pass

    def _parse_header(self, hdr: bytes, fsize: int) -> None:
        last = self._last_header
        if last is not None and last[0] == hdr and last[1] == fsize and \
                self.change_counter == hdr[24:28] and self.page_size == last[3]:
            # the same header and file as at the last read transaction: same answers
            self.db_size = last[2]
            return
        self._last_header = None
        if len(hdr) < 100 or hdr[:16] != fmt.MAGIC:
            raise notadb()
        ps = int.from_bytes(hdr[16:18], "big")
        if ps == 1:
            ps = 65536
        if ps < 512 or ps > 65536 or ps & (ps - 1):
            raise notadb()
        if hdr[18] > 2 or hdr[19] > 2:
            raise notadb()
        if hdr[18] == 2 or hdr[19] == 2:
            raise errors.OperationalError("unable to open database file (WAL mode not supported)",
                                          code=errors.SQLITE_CANTOPEN)
        if hdr[21] != 64 or hdr[22] != 32 or hdr[23] != 32:
            raise notadb()
        reserved = hdr[20]
        if ps - reserved < 480:
            raise notadb()
        if ps != self.page_size or reserved != self.reserved:
            self.cache.clear()
        self.page_size = ps
        self.reserved = reserved
        self.spill_limit = self.cache_capacity()
        nfile = (fsize + ps - 1) // ps
        nhdr = int.from_bytes(hdr[28:32], "big")
        # SQLite (lockBtree): the in-header size counts when it is nonzero and the change
        # counter equals version-valid-for; otherwise the file size gives it. A valid
        # in-header size beyond the end of the file is corruption.
        if nhdr > 0 and hdr[24:28] == hdr[92:96]:
            if nhdr > nfile:
                raise corrupt()
            self.db_size = nhdr
        else:
            self.db_size = nfile
        counter = hdr[24:28]
        if counter != self.change_counter:
            self.cache.clear()
            seen = self.change_counter
            if seen is None:
                seen = self._data_counter
            if seen is not None and seen != counter:
                self.data_version += 1
            self.change_counter = counter
        self._last_header = (bytes(hdr), fsize, self.db_size, self.page_size)

    def _forget_counter(self) -> None:
        """Forget the change counter (the next read transaction reads the cache again),
        keeping the last one seen for PRAGMA data_version."""
        if self.change_counter is not None:
            self._data_counter = self.change_counter
        self.change_counter = None

    # -- locks ----------------------------------------------------------------------------
    def _lock(self, level: int, wait: bool = True, deadline: float | None = None) -> None:
        """Take ``level``, retrying (when ``wait``) until ``deadline`` (default: the busy
        timeout from now); 'database is locked' after that."""
        if self.file.lock(level):
            return
        if not wait:
            raise busy()
        if deadline is None:
            deadline = time.monotonic() + self.busy_timeout
        delay = 0.001
        while True:
            if time.monotonic() >= deadline:
                raise busy()
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
            if self.file.lock(level):
                return

    def _unlock(self, level: int) -> None:
        self.file.unlock(level)

    # -- transactions ---------------------------------------------------------------------
    def begin_read(self, deadline: float | None = None) -> None:
        """Take SHARED (waiting until ``deadline``, default the busy timeout from now), play
        back a hot journal, read the header."""
        if self.in_trans:
            return
        if not self.memory:
            if not self.file.lock(SHARED):
                self._lock(SHARED, deadline=deadline)
            try:
                if self.vfs.exists(self.journal_path) and self._has_hot_journal():
                    self._lock(EXCLUSIVE)
                    self._playback_hot()
                    self._unlock(SHARED)
                size = self.file.size()
                if size > 0:
                    self._parse_header(self.file.read(0, 100), size)
                else:
                    self.db_size = 0
                    if self.cache:
                        self.cache.clear()
                    self._forget_counter()
                    self._data_counter = bytes(4)  # (an empty file: as a counter of 0)
                    self._last_header = None
            except BaseException:
                self._unlock(NO_LOCK)
                raise
        self.in_trans = 1

    def end_read(self) -> None:
        """End the read transaction (drop every lock, none in exclusive locking mode); with
        ``keep_read`` set, keep it open holding SHARED, any stronger lock dropped."""
        if self.in_trans == 1:
            if self.keep_read:
                if not self.memory and not self.exclusive:
                    self.file.unlock(SHARED)
                return
            self.in_trans = 0
            if not self.memory and not self.exclusive:
                if self.kept_journal:
                    self._drop_kept_journal()
                self.file.unlock(NO_LOCK)

    def _drop_kept_journal(self) -> None:
        """Out of exclusive locking mode, the DELETE journal it kept is deleted as the
        locks go (as in sqlite3; it was not hot: its header is zeroed)."""
        self.kept_journal = False
        if self.journal_mode == "delete" and self.vfs.exists(self.journal_path):
            self.vfs.delete(self.journal_path)

    def begin_write(self, wait: bool | None = None, check=None) -> None:
        """Take RESERVED. ``wait`` (default: only when no read transaction was open) says
        whether to retry until the busy timeout. ``check()``, when given, runs under SHARED
        before RESERVED is asked for (the b-tree's page-1 checks).

        As SQLite (btreeBeginTrans): a reader upgrading to writer gets BUSY at once (waiting
        could deadlock with another reader doing the same); a fresh writer waits, but lets
        its SHARED lock go between tries, so the writer it waits for can commit."""
        if self.in_trans == 2:
            return
        if self.memory:
            self._begin_write_memory(check)
            return
        if getattr(self.file, "readonly", False):
            raise errors.OperationalError("attempt to write a readonly database",
                                          code=errors.SQLITE_READONLY)
        was_reading = self.in_trans == 1
        if wait is None:
            wait = not was_reading
        # (an in-memory database takes no lock: nothing to wait for)
        deadline = None if self.memory else time.monotonic() + self.busy_timeout
        delay = 0.001
        while True:
            self.begin_read(deadline)
            try:
                if check is not None:
                    check()
                if not self.memory:
                    self._lock(RESERVED, wait=wait and was_reading, deadline=deadline)
                    if self.exclusive:  # (exclusive locking mode: EXCLUSIVE at once)
                        try:
                            self._lock(EXCLUSIVE, deadline=deadline)
                        except BaseException:
                            self._unlock(SHARED)
                            raise
                break
            except errors.OperationalError as e:
                if not was_reading:
                    self.end_read()
                if (not wait or was_reading or e.sqlite_errorcode != errors.SQLITE_BUSY
                        or deadline is None or time.monotonic() >= deadline):
                    raise
            except BaseException:
                if not was_reading:
                    self.end_read()
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
        self._start_write()

    def _begin_write_memory(self, check) -> None:
        """begin_write of an in-memory database: no lock to take or wait for (begin_read
        only marks the read transaction), no journal file."""
        was_reading = self.in_trans == 1
        self.in_trans = 1
        if check is not None:
            try:
                check()
            except BaseException:
                if not was_reading:
                    self.in_trans = 0
                raise
        self._start_write()

    def _start_write(self) -> None:
        """The write state a begin_write starts with, once its lock is held (an in-memory
        database's is also set by _btree.begin_cookie: change both together)."""
        self.in_trans = 2
        self.orig_db_size = self.db_size
        self.journaled.clear()
        self.jfile = None
        self.spilled = False
        self.jrecords = 0

    def _open_journal(self) -> None:
        if self.jfile is not None:
            return
        self.jfile = self.vfs.open(self.journal_path, "journal")
        self.nonce = random.getrandbits(32)
        self.jhdr_off = 0
        self._write_journal_header()

    def _write_journal_header(self) -> None:
        hdr = bytearray(SECTOR_SIZE)
        if self.synchronous == 0:
            # no syncs: the records run to the end of the file
            hdr[0:8] = fmt.JOURNAL_MAGIC
            hdr[8:12] = (0xFFFFFFFF).to_bytes(4, "big")
        # else the magic and the count are written by _sync_journal once the records are
        # durable (SQLite's writeJournalHdr/syncJournal): until then the segment is not part
        # of the journal, and stale data of an earlier journal after it is never reached
        hdr[12:16] = self.nonce.to_bytes(4, "big")
        hdr[16:20] = self.orig_db_size.to_bytes(4, "big")
        hdr[20:24] = SECTOR_SIZE.to_bytes(4, "big")
        hdr[24:28] = self.page_size.to_bytes(4, "big")
        self.jfile.write(self.jhdr_off, hdr)
        self.joff = self.jhdr_off + SECTOR_SIZE
        self.jrecords = 0

    def _uses_journal_file(self) -> bool:
        return not self.memory and self.journal_mode not in ("memory", "off")

    def _journal_page(self, pgno: int, data) -> None:
        if not self._uses_journal_file():
            return
        self._open_journal()
        rec = (pgno.to_bytes(4, "big") + bytes(data)
               + _checksum(self.nonce, data, self.page_size).to_bytes(4, "big"))
        self.jfile.write(self.joff, rec)
        self.joff += len(rec)
        self.jrecords += 1

    def _write_super_name(self, name: str) -> None:
        """Append the super-journal record to the journal (SQLite's writeSuperJournal): the
        lock-byte page number, the name, its length, its checksum, the journal magic. It
        starts at a sector boundary, so playback reading the next segment header stops at
        it."""
        raw = name.encode("utf-8")
        off = ((self.joff + SECTOR_SIZE - 1) // SECTOR_SIZE) * SECTOR_SIZE
        rec = (fmt.lock_byte_page(self.page_size).to_bytes(4, "big") + raw
               + len(raw).to_bytes(4, "big") + (sum(raw) & 0xFFFFFFFF).to_bytes(4, "big")
               + fmt.JOURNAL_MAGIC)
        self.jfile.write(off, rec)
        self.joff = off + len(rec)
        if self.jfile.size() > self.joff:
            # a longer persistent journal would hide the record at its end
            self.jfile.truncate(self.joff)

    def _sync_journal(self) -> None:
        """Make the journal durable and record its page count in the header."""
        if self.jfile is None:
            return
        # a longer journal of an earlier transaction (PERSIST, TRUNCATE failing) may have a
        # segment header where ours would start next: playback would take its stale pages.
        # Spoil its magic, as SQLite's syncJournal does.
        nxt = ((self.joff + SECTOR_SIZE - 1) // SECTOR_SIZE) * SECTOR_SIZE
        if self.jfile.size() >= nxt + 8 and self.jfile.read(nxt, 8) == fmt.JOURNAL_MAGIC:
            self.jfile.write(nxt, b"\0")
        if self.synchronous >= 2:
            self.jfile.sync()
        if self.synchronous >= 1:
            self.jfile.write(self.jhdr_off, fmt.JOURNAL_MAGIC + self.jrecords.to_bytes(4, "big"))
            self.jfile.sync()

    def write(self, page) -> None:
        """Declare that ``page`` is about to change (journal it, mark it dirty)."""
        pgno = page.pgno
        if self.in_trans != 2:
            raise errors.OperationalError("cannot modify the database outside a write "
                                          "transaction", code=errors.SQLITE_MISUSE)
        if self.cache.get(pgno) is not page:
            self.cache[pgno] = page
        if self.savepoints:
            sp = self.savepoints[-1]
            if pgno not in sp.images and pgno <= sp.db_size:
                sp.images[pgno] = bytes(page.data)
                self.stmt_mem += 1
                if self.stmt_mem > STMT_SPILL_PAGES and not self.memory:
                    self._spill_images()
        if pgno in self.dirty:
            return
        if pgno not in self.journaled:
            if not self.memory and self.journal_mode not in ("memory", "off"):
                # (_uses_journal_file, inline: asked once per page a transaction writes)
                if pgno <= self.orig_db_size:
                    self._journal_page(pgno, page.data)
                elif self.jfile is None:
                    # a transaction that only adds pages (the first one of a new file above
                    # all) still needs a journal: its header's original size is what a crash
                    # rolls the file back to (SQLite opens the journal at the first write too)
                    self._open_journal()
            self.journaled.add(pgno)
        self.dirty[pgno] = page

    def commit(self) -> None:
        if self.in_trans != 2:
            self.end_read()
            return
        if self.memory:
            # phase one and two in one: no journal file, no lock, no sync; the changed pages
            # are copied into the memory file, which a rollback reads them back from
            commit_memory(self)
            return
        self.commit_phase_one()
        self.commit_phase_two()

    def needs_super_journal(self) -> bool:
        """Whether this pager, writing, takes part in a super-journal (SQLite's vdbeCommit:
        a file database with a rollback journal on disk and synchronous not OFF)."""
        return self.in_trans == 2 and self._uses_journal_file() and self.synchronous >= 1

    def commit_phase_one(self, super_name: str | None = None) -> None:
        """Make the transaction durable in the database file (journal synced, pages written,
        file synced) but leave the journal in place. ``super_name``: the super-journal of a
        transaction over several files, recorded at the end of this file's journal before it
        is synced, so a hot journal is played back only while the super-journal exists."""
        if self.in_trans != 2:
            return
        if self.dirty or self.db_size != self.orig_db_size:
            # page 1 (change counter, database size) is journaled before the journal is
            # synced, as every page the commit writes must be (SQLite: pager_incr_changecounter
            # in CommitPhaseOne, before syncJournal)
            self._update_header()
            if super_name and self.jfile is not None:
                self._write_super_name(super_name)
            self._sync_journal()
            if not self.memory:
                self._lock(EXCLUSIVE)
            self.spilled = True       # from here on the file holds new pages: a rollback
            self._write_dirty()       # (after an I/O error) must play the journal back
            self._fit_file_size()
            if self.synchronous >= 1 and not self.memory:
                self.file.sync()

    def commit_phase_two(self) -> None:
        """End the transaction: finalize the journal (the commit point of a one-file
        transaction), drop the write state and the locks."""
        if self.in_trans != 2:
            self.end_read()
            return
        self._finalize_journal()
        self.dirty.clear()
        self.journaled.clear()
        self.savepoints.clear()
        self.in_trans = 1
        self.end_read()
        if len(self.cache) > self.spill_limit:  # (spill_limit is the cache's capacity)
            self._shrink_cache()

    def forget_transaction(self) -> None:
        """Drop the write state after a commit whose pages are durable but whose journal
        could not be finalized (its super-journal is gone, so it is not hot)."""
        if self.jfile is not None:
            try:
                self.jfile.close()
            except errors.Error:
                pass
            self.jfile = None
        self.dirty.clear()
        self.journaled.clear()
        self.savepoints.clear()
        self.in_trans = 1
        self.end_read()

    def _fit_file_size(self) -> None:
        """Make the file exactly db_size pages: cut what lies beyond, and write the last
        page when it was never written (a page allocated but left clean), so the in-header
        size is never beyond the end of the file (SQLite: pager_truncate at commit)."""
        ps = self.page_size
        want = self.db_size * ps
        fsize = self.file.size()
        if fsize > want:
            self.file.truncate(want)
        elif fsize < want and self.db_size != fmt.lock_byte_page(ps):
            self.file.write(want - ps, bytes(ps))

    def _update_header(self) -> None:
        """Page 1 made dirty (journaled) with the commit's header fields stamped in."""
        p1 = self.get(1)
        self.write(p1)
        stamp_header(self, p1.data, self.db_size)

    def _write_dirty(self) -> None:
        dirty = self.dirty
        ps = self.page_size
        size = self.db_size
        write = self.file.write
        for pgno in sorted(dirty):
            if pgno <= size:
                write((pgno - 1) * ps, dirty[pgno].data)

    def _finalize_journal(self) -> None:
        """End the journal's life for this transaction as the journal mode says: DELETE
        unlinks it, TRUNCATE empties it, PERSIST zeroes its header (no longer hot) and cuts
        it to PRAGMA journal_size_limit (empties it for a limit of 0)."""
        if self.jfile is None:
            return
        mode = self.journal_mode
        if mode == "delete" and self.exclusive:
            mode = "persist"  # (SQLite's pager_end_transaction in exclusive mode)
            self.kept_journal = True
        if mode == "truncate":
            self.jfile.truncate(0)
            if self.synchronous >= 1:
                self.jfile.sync()
            self.jfile.close()
        elif mode == "persist":
            limit = self.journal_size_limit
            if limit == 0:  # (SQLite's zeroJournalHdr: an empty journal, not a zero header)
                self.jfile.truncate(0)
            else:
                self.jfile.write(0, bytes(28))
            if self.synchronous >= 1:
                self.jfile.sync()
            if limit > 0 and self.jfile.size() > limit:
                self.jfile.truncate(limit)
            self.jfile.close()
        else:
            jf, self.jfile = self.jfile, None
            jf.close()
            self.vfs.delete(self.journal_path)
        self.jfile = None

    def rollback(self) -> None:
        if self.in_trans != 2:
            self.end_read()
            return
        restored = True
        try:
            if (self.spilled and self._uses_journal_file()
                    and self.vfs.exists(self.journal_path)):
                # the file holds new pages (a spill, or a commit that failed part way, even
                # in finalizing the journal): play the journal back
                restored = False
                self._sync_journal_for_rollback()
                j = self.vfs.open(self.journal_path, "journal")
                try:
                    self._playback(j, own=True)
                finally:
                    j.close()
                restored = True
        finally:
            if self.spilled:
                self.cache.clear()
                self._forget_counter()
                self._last_header = None
            for pgno in self.dirty:
                self.cache.pop(pgno, None)
            self.dirty.clear()
            self.journaled.clear()
            self.savepoints.clear()
            self.db_size = self.orig_db_size
            try:
                if restored:
                    self._finalize_journal()
                elif self.jfile is not None:
                    # the database could not be restored (writes failing): the journal
                    # stays, hot, for the next reader to roll back (SQLite's ERROR state)
                    jf, self.jfile = self.jfile, None
                    jf.close()
            finally:
                self.in_trans = 1
                self.end_read()

    def _sync_journal_for_rollback(self) -> None:
        if self.jfile is not None and self.jrecords:
            self.jfile.write(self.jhdr_off + 8, self.jrecords.to_bytes(4, "big"))

    # -- savepoints -----------------------------------------------------------------------
    def savepoint_open(self, n: int) -> None:
        """Open savepoints until there are n+1 of them (index n is the newest)."""
        if not self.savepoints:
            self.stmt_off = self.stmt_mem = 0   # no image refers to the file any more
        while len(self.savepoints) <= n:
            self.savepoints.append(Savepoint(self.db_size))

    def savepoint_release(self, n: int) -> None:
        """Release savepoint n and all newer ones; their images merge into the parent."""
        if n >= len(self.savepoints):
            return
        released = self.savepoints[n:]
        del self.savepoints[n:]
        if self.savepoints:
            parent = self.savepoints[-1]
            for sp in released:
                for pgno, img in sp.images.items():
                    if pgno not in parent.images and pgno <= parent.db_size:
                        parent.images[pgno] = img

    def savepoint_rollback(self, n: int) -> None:
        """Undo every change made since savepoint n opened; savepoint n stays open, newer
        ones are released."""
        if n >= len(self.savepoints):
            return
        target = self.savepoints[n]
        for sp in reversed(self.savepoints[n:]):
            for pgno, img in sp.images.items():
                page = self.get(pgno)
                self.write(page)
                page.data[:] = self._image(img)
                page.invalidate()
        del self.savepoints[n + 1:]
        for pgno in [p for p in self.cache if p > target.db_size]:
            self.cache.pop(pgno, None)
            self.dirty.pop(pgno, None)
        self.db_size = target.db_size
        target.images = {}

    def _spill_images(self) -> None:
        """Move the savepoints' page images held in memory to the statement journal, a
        temporary file (SQLite spills its statement journal beyond 64 KiB); the images
        then hold the file offset instead of the bytes."""
        if self.stmt_file is None:
            self.stmt_file = tempfile.TemporaryFile(prefix="sqlengine-stmt-")
        buf = bytearray()
        base = self.stmt_off
        for sp in self.savepoints:
            images = sp.images
            for pgno, img in images.items():
                if type(img) is bytes:
                    images[pgno] = base + len(buf)
                    buf += img
        os.pwrite(self.stmt_file.fileno(), buf, base)
        self.stmt_off = base + len(buf)
        self.stmt_mem = 0

    def _image(self, img) -> bytes:
        """A savepoint's page image: the bytes, or read back from the statement journal."""
        if type(img) is bytes:
            return img
        data = os.pread(self.stmt_file.fileno(), self.page_size, img)
        if len(data) != self.page_size:
            raise errors.DatabaseError("disk I/O error", code=errors.SQLITE_IOERR)
        return data

    # -- pages ----------------------------------------------------------------------------
    def get(self, pgno: int):
        """Page ``pgno``: from the cache, else read (the file's bytes within the database,
        zeroes beyond it), made by the factory and cached (_pageread.load_page)."""
        page = self.cache.get(pgno)
        if page is not None:
            return page
        return load_page(self, pgno)

    def _shrink_cache(self) -> None:
        """Evict clean pages no cursor holds, leaves first (_pageread.shrink_cache)."""
        shrink_cache(self)

    def maybe_spill(self) -> None:
        """Called by the b-tree between operations (never in the middle of one, when a page
        may be declared writable but not yet changed): when dirty pages outgrow the cache,
        write them to the database file ahead of commit."""
        if self.in_trans == 2 and len(self.dirty) > self.cache_capacity():
            self._spill()

    def _spill(self) -> None:
        """Write dirty pages to the database file before commit (the cache is full)."""
        if self.memory or self.journal_mode in ("memory", "off"):
            return
        if self.jfile is None and self.orig_db_size > 0:
            return
        self._sync_journal()
        self._lock(EXCLUSIVE)
        if self.jfile is not None and self.synchronous >= 1:
            # later records go to a new journal segment (the header's count is now fixed)
            self.jhdr_off = ((self.joff + SECTOR_SIZE - 1) // SECTOR_SIZE) * SECTOR_SIZE
            self._write_journal_header()
        ps = self.page_size
        for pgno in sorted(self.dirty):
            if pgno != 1 and pgno <= self.db_size:
                self.file.write((pgno - 1) * ps, self.dirty[pgno].data)
        keep = self.dirty.get(1)
        self.dirty.clear()
        if keep is not None:
            self.dirty[1] = keep
        self.spilled = True

    def replace_image(self, tmp_pager, page_size: int) -> None:
        """Commit the current write transaction by replacing the whole file with the pages of
        ``tmp_pager`` (of ``page_size``, which may differ from ours): every original page is
        journaled first, so a crash leaves the old file. Used by VACUUM."""
        if self.in_trans != 2:
            raise errors.OperationalError("replace_image needs a write transaction")
        ps = self.page_size
        # (not recorded in self.journaled: nothing is journaled after this loop, and a set
        # of every page number would cost memory in proportion to the file)
        journaled = self.journaled
        for pgno in range(1, self.orig_db_size + 1):
            if pgno not in journaled:
                data = self.file.read((pgno - 1) * ps, ps)
                if len(data) < ps:
                    data += bytes(ps - len(data))
                self._journal_page(pgno, data)
        self._sync_journal()
        if not self.memory:
            self._lock(EXCLUSIVE)
        n = tmp_pager.db_size
        old = self.get(1).data if self.orig_db_size else bytes(100)
        counter = (int.from_bytes(old[24:28], "big") + 1) & 0xFFFFFFFF
        self.spilled = True
        for pgno in range(1, n + 1):
            data = bytearray(tmp_pager.get(pgno).data)
            if pgno == 1:
                data[24:28] = counter.to_bytes(4, "big")
                data[28:32] = n.to_bytes(4, "big")
                data[92:96] = counter.to_bytes(4, "big")
                data[96:100] = fmt.SQLITE_VERSION_NUMBER.to_bytes(4, "big")
            self.file.write((pgno - 1) * page_size, data)
        self.file.truncate(n * page_size)
        if self.synchronous >= 1 and not self.memory:
            self.file.sync()
        self._finalize_journal()
        self.cache.clear()
        self.dirty.clear()
        self.journaled.clear()
        self.savepoints.clear()
        self.page_size = page_size
        self.reserved = tmp_pager.reserved
        self.spill_limit = self.cache_capacity()
        self.db_size = n
        self.change_counter = counter.to_bytes(4, "big")
        self._last_header = None
        self.in_trans = 1
        self.end_read()

    def truncate_to(self, n: int) -> None:
        """Set the database size (pages) within a write transaction."""
        for pgno in [p for p in self.cache if p > n]:
            self.cache.pop(pgno, None)
            self.dirty.pop(pgno, None)
        self.db_size = n

    # -- hot journals ---------------------------------------------------------------------
    def _has_hot_journal(self) -> bool:
        if not self.vfs.exists(self.journal_path):
            return False
        if self.file.check_reserved_lock():
            return False
        return self._journal_may_be_hot()

    def _journal_may_be_hot(self) -> bool:
        """The journal file exists and starts with a synced segment header."""
        if not self.vfs.exists(self.journal_path):
            return False
        j = self.vfs.open(self.journal_path, "journal")
        try:
            if j.size() < 28:
                return False
            head = j.read(0, 28)
            return head[:8] == fmt.JOURNAL_MAGIC
        finally:
            j.close()

    def _playback_hot(self) -> None:
        j = self.vfs.open(self.journal_path, "journal")
        sup = read_super_name(j)
        # a journal naming a super-journal that no longer exists belongs to a transaction
        # over several files that committed (deleting the super-journal was its commit
        # point): it is not played back, only removed (SQLite's pager_playback)
        if not sup or self.vfs.exists(sup):
            self._playback(j, own=False)
        # finalize: the journal is no longer hot
        if self.journal_mode == "persist":
            j.write(0, bytes(28))
            j.sync()
            j.close()
        elif self.journal_mode == "truncate":
            j.truncate(0)
            j.sync()
            j.close()
        else:
            j.close()
            self.vfs.delete(self.journal_path)
        self.cache.clear()
        self._forget_counter()
        self._last_header = None
        if sup:
            delete_super_journal(self.vfs, sup)

    def _playback(self, j, own: bool) -> None:
        """Copy the journal's page images back into the database file."""
        jsize = j.size()
        off = 0
        orig_size = None
        first = True
        while off + 28 <= jsize:
            hdr_off = off
            hdr = j.read(off, 28)
            if hdr[:8] != fmt.JOURNAL_MAGIC:
                break
            nrec = int.from_bytes(hdr[8:12], "big")
            nonce = int.from_bytes(hdr[12:16], "big")
            dbsize = int.from_bytes(hdr[16:20], "big")
            sector = int.from_bytes(hdr[20:24], "big")
            ps = int.from_bytes(hdr[24:28], "big")
            if (sector < 32 or sector > 65536 or sector & (sector - 1) or ps < 512
                    or ps > 65536 or ps & (ps - 1)):
                break
            if first:
                orig_size = dbsize
                jps = ps
                first = False
            off += sector
            recsz = ps + 8
            if nrec == 0xFFFFFFFF:
                nrec = (jsize - off) // recsz
            elif nrec == 0 and own and hdr_off == self.jhdr_off:
                # our own current segment, whose count is not written yet
                nrec = (jsize - off) // recsz
            for _ in range(nrec):
                if off + recsz > jsize:
                    break
                rec = j.read(off, recsz)
                off += recsz
                pgno = int.from_bytes(rec[0:4], "big")
                data = rec[4:4 + ps]
                ck = int.from_bytes(rec[4 + ps:], "big")
                if ck != _checksum(nonce, data, ps):
                    off = jsize
                    break
                if pgno == 0 or pgno == fmt.lock_byte_page(ps):
                    continue
                if pgno <= dbsize:
                    self.file.write((pgno - 1) * ps, data)
            # a segment without records (a spill that journaled nothing new) does not end
            # the journal: SQLite's pager_playback reads headers until none is left
            off = ((off + sector - 1) // sector) * sector
        if orig_size is not None:
            if self.file.size() > orig_size * jps:
                self.file.truncate(orig_size * jps)
            self.file.sync()

    def close(self) -> None:
        if self.in_trans == 2:
            self.rollback()
        self.end_read()
        self.cache.clear()
        self.file.close()
        if self.stmt_file is not None:
            self.stmt_file.close()
            self.stmt_file = None


# -- transactions over several files (SQLite's super-journal, formerly "master journal") ------
def read_super_name(j) -> str:
    """The super-journal name recorded at the end of journal ``j``, or "" (SQLite's
    readSuperJournal: length, checksum and magic in the last 16 bytes, the lock-byte page
    number before the name)."""
    size = j.size()
    if size < 16 + 4 + 1:
        return ""
    tail = j.read(size - 16, 16)
    n = int.from_bytes(tail[0:4], "big")
    ck = int.from_bytes(tail[4:8], "big")
    if tail[8:16] != fmt.JOURNAL_MAGIC or n == 0 or n > size - 20 or n > 65536:
        return ""
    start = size - 16 - n
    raw = j.read(start, n)
    pg = int.from_bytes(j.read(start - 4, 4), "big")
    hdr = j.read(0, 28)
    ps = int.from_bytes(hdr[24:28], "big") if len(hdr) == 28 else 0
    if ps < 512 or ps > 65536 or ps & (ps - 1) or pg != fmt.lock_byte_page(ps):
        return ""
    if (sum(raw) & 0xFFFFFFFF) != ck or b"\0" in raw:
        return ""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return ""


def delete_super_journal(vfs, name: str) -> None:
    """Delete super-journal ``name`` once no journal it lists still names it (SQLite's
    pager_delsuper); a child journal still naming it is hot and needs it."""
    if not vfs.exists(name):
        return
    f = vfs.open(name, "super_journal")
    try:
        children = [c.decode("utf-8", "replace") for c in f.read(0, f.size()).split(b"\0") if c]
    finally:
        f.close()
    for child in children:
        if vfs.exists(child):
            j = vfs.open(child, "journal")
            try:
                if read_super_name(j) == name:
                    return
            finally:
                j.close()
    vfs.delete(name)


def super_journal_commit(pagers: list, main) -> None:
    """Commit one transaction that wrote to several database files atomically (SQLite's
    vdbeCommit): write the journal names of every file into a new super-journal beside
    ``main``'s file and sync it; commit phase one of every pager, each journal recording the
    super-journal's name; delete the super-journal (the commit point: from here a crash leaves
    every file committed, before it every hot journal is played back); then finalize every
    journal. ``pagers``: every pager with a write transaction (in-memory ones take no part in
    the super-journal but commit with the others)."""
    vfs = main.vfs
    for _ in range(101):
        r = random.getrandbits(32)
        name = f"{main.path}-mj{(r >> 8) & 0xFFFFFF:06X}9{r & 0xFF:02X}"
        if not vfs.exists(name):
            break
    else:
        raise full()
    f = vfs.open(name, "super_journal")
    try:
        body = b"".join(p.journal_path.encode("utf-8") + b"\0"
                        for p in pagers if p.needs_super_journal())
        f.write(0, body)
        f.sync()
    except BaseException:
        f.close()
        vfs.delete(name)
        raise
    try:
        for p in pagers:
            p.commit_phase_one(name if p.needs_super_journal() else None)
    finally:
        f.close()
    vfs.delete(name)
    for p in pagers:
        try:
            p.commit_phase_two()
        except errors.Error:
            # every file is durable: a journal left behind names a deleted super-journal
            # and is removed, not played back, by the next reader
            p.forget_transaction()
