"""OS files with SQLite's POSIX advisory locking.

The lock protocol is SQLite's (os_unix.c): byte ranges at 1 GiB (the "lock-byte page") —
PENDING_BYTE 0x40000000, RESERVED_BYTE PENDING_BYTE+1, SHARED range of 510 bytes at
PENDING_BYTE+2 — so a sqlengine process and a sqlite3 process exclude each other.

    SHARED     read-lock PENDING_BYTE briefly, read-lock the SHARED range, drop PENDING_BYTE
    RESERVED   write-lock RESERVED_BYTE (one writer-to-be; readers continue)
    PENDING    write-lock PENDING_BYTE (no new SHARED locks)
    EXCLUSIVE  write-lock the SHARED range (waits for readers to leave)

fcntl locks belong to the process, not to the file descriptor, and closing any descriptor of a
file drops all of the process's locks on it. So, as SQLite does, the lock state is kept per
inode (``_Inode``) shared by all connections of this process: the fcntl calls happen on the
process-level transitions, conflicts between connections of the same process are decided
here, and descriptors are only closed when no connection of the inode holds a lock.

Never knows pages or SQL.
"""

from __future__ import annotations

import fcntl
import os
import struct
import threading

from sqlengine import errors
from sqlengine.vfs.base import EXCLUSIVE, NO_LOCK, PENDING, RESERVED, SHARED, File, Vfs, ioerr

PENDING_BYTE = 0x40000000
RESERVED_BYTE = PENDING_BYTE + 1
SHARED_FIRST = PENDING_BYTE + 2
SHARED_SIZE = 510

_FLOCK = "hhqqi4x"  # struct flock on Linux (l_type, l_whence, l_start, l_len, l_pid)

_mutex = threading.RLock()
_inodes: dict[tuple[int, int], _Inode] = {}


class _Inode:
    """Process-wide lock bookkeeping for one file."""

    def __init__(self, key):
        self.key = key
        self.nref = 0
        self.nshared = 0          # connections holding SHARED or more
        self.level = NO_LOCK      # the process's fcntl lock level
        self.holders: dict[int, int] = {}   # id(file) -> level, for levels >= RESERVED
        self.pending_close: list[int] = []
        self.lock_fd = -1


# lockf operations: shared and exclusive never wait (a conflict is reported, not waited for)
_SH = fcntl.LOCK_SH | fcntl.LOCK_NB
_EX = fcntl.LOCK_EX | fcntl.LOCK_NB
_UN = fcntl.LOCK_UN


def _setlk(fd: int, op: int, start: int, length: int) -> bool:
    try:
        fcntl.lockf(fd, op, length, start, 0)
        return True
    except OSError:
        return False


class OsFile(File):
    def __init__(self, path: str, fd: int, inode: _Inode | None, readonly: bool = False):
        self.path = path
        self.readonly = readonly
        self.fd = fd
        self.inode = inode
        self.lock_level = NO_LOCK

    # -- I/O ------------------------------------------------------------------------------
    def read(self, offset: int, n: int) -> bytes:
        try:
            return os.pread(self.fd, n, offset)
        except OSError as e:
            raise ioerr(errors.SQLITE_IOERR_READ) from e

    def write(self, offset: int, data) -> None:
        try:
            view = memoryview(data)
            while view:
                k = os.pwrite(self.fd, view, offset)
                view = view[k:]
                offset += k
        except OSError as e:
            raise ioerr(errors.SQLITE_IOERR_WRITE) from e

    def truncate(self, size: int) -> None:
        try:
            os.ftruncate(self.fd, size)
        except OSError as e:
            raise ioerr(errors.SQLITE_IOERR_TRUNCATE) from e

    def sync(self) -> None:
        try:
            os.fsync(self.fd)
        except OSError as e:
            raise ioerr(errors.SQLITE_IOERR_FSYNC) from e

    def size(self) -> int:
        # the end offset, as fstat's st_size but without building a stat result (the
        # file offset itself is never used: reads and writes are positioned)
        try:
            return os.lseek(self.fd, 0, os.SEEK_END)
        except OSError as e:
            raise ioerr(errors.SQLITE_IOERR_FSTAT) from e

    def close(self) -> None:
        if self.fd < 0:
            return
        if self.lock_level:
            self.unlock(NO_LOCK)
        with _mutex:
            ino = self.inode
            if ino is None:
                os.close(self.fd)
            else:
                ino.nref -= 1
                if ino.nshared > 0:
                    ino.pending_close.append(self.fd)
                else:
                    os.close(self.fd)
                if ino.nref == 0:
                    for fd in ino.pending_close:
                        os.close(fd)
                    ino.pending_close.clear()
                    _inodes.pop(ino.key, None)
        self.fd = -1

    # -- locks ----------------------------------------------------------------------------
    def lock(self, level: int) -> bool:
        if self.inode is None or level <= self.lock_level:
            return True
        with _mutex:
            ino = self.inode
            fd = self.fd
            me = id(self)
            # the strongest level another connection of this process holds (>= RESERVED)
            others = max([lv for k, lv in ino.holders.items() if k != me], default=NO_LOCK) \
                if ino.holders else NO_LOCK
            if self.lock_level == NO_LOCK:
                # SHARED
                if others >= PENDING:
                    return False
                if ino.nshared == 0:
                    if not _setlk(fd, _SH, PENDING_BYTE, 1):
                        return False
                    ok = _setlk(fd, _SH, SHARED_FIRST, SHARED_SIZE)
                    _setlk(fd, _UN, PENDING_BYTE, 1)
                    if not ok:
                        return False
                    ino.level = SHARED
                    ino.lock_fd = fd
                ino.nshared += 1
                self.lock_level = SHARED
            if level == SHARED:
                return True
            if self.lock_level == SHARED:
                # RESERVED
                if others >= RESERVED:
                    return False
                if not _setlk(ino.lock_fd, _EX, RESERVED_BYTE, 1):
                    return False
                ino.level = RESERVED
                self.lock_level = RESERVED
                ino.holders[me] = RESERVED
            if level == RESERVED:
                return True
            if self.lock_level == RESERVED:
                if not _setlk(ino.lock_fd, _EX, PENDING_BYTE, 1):
                    return False
                ino.level = PENDING
                self.lock_level = PENDING
                ino.holders[me] = PENDING
            if level == PENDING:
                return True
            # EXCLUSIVE: no other connection of this process may hold SHARED
            if ino.nshared > 1:
                return False
            if not _setlk(ino.lock_fd, _EX, SHARED_FIRST, SHARED_SIZE):
                return False
            ino.level = EXCLUSIVE
            self.lock_level = EXCLUSIVE
            ino.holders[me] = EXCLUSIVE
            return True

    def unlock(self, level: int) -> None:
        if self.inode is None or level >= self.lock_level:
            return
        with _mutex:
            ino = self.inode
            fd = ino.lock_fd
            me = id(self)
            if self.lock_level >= RESERVED:
                if self.lock_level == EXCLUSIVE:
                    _setlk(fd, _SH, SHARED_FIRST, SHARED_SIZE)
                _setlk(fd, _UN, PENDING_BYTE, 2)  # PENDING and RESERVED bytes
                ino.holders.pop(me, None)
                ino.level = SHARED
                self.lock_level = SHARED
            if level == NO_LOCK and self.lock_level == SHARED:
                ino.nshared -= 1
                if ino.nshared == 0:
                    _setlk(fd, _UN, SHARED_FIRST, SHARED_SIZE)
                    ino.level = NO_LOCK
                    for pfd in ino.pending_close:
                        os.close(pfd)
                    ino.pending_close.clear()
                self.lock_level = NO_LOCK

    def check_reserved_lock(self) -> bool:
        if self.inode is None:
            return False
        with _mutex:
            if any(lv >= RESERVED for lv in self.inode.holders.values()):
                return True
            try:
                res = fcntl.fcntl(self.fd, fcntl.F_GETLK,
                                  struct.pack(_FLOCK, fcntl.F_WRLCK, 0, RESERVED_BYTE, 1, 0))
            except OSError:
                return False
            return struct.unpack(_FLOCK, res)[0] != fcntl.F_UNLCK


class OsVfs(Vfs):
    def open(self, path: str, kind: str = "main") -> OsFile:
        readonly = False
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except PermissionError as e:
            # an existing file we may only read: open it read-only, as SQLite does
            try:
                fd = os.open(path, os.O_RDONLY)
                readonly = True
            except OSError:
                raise errors.OperationalError("unable to open database file",
                                              code=errors.SQLITE_CANTOPEN) from e
        except OSError as e:
            raise errors.OperationalError("unable to open database file",
                                          code=errors.SQLITE_CANTOPEN) from e
        inode = None
        if kind == "main":
            st = os.fstat(fd)
            key = (st.st_dev, st.st_ino)
            with _mutex:
                inode = _inodes.get(key)
                if inode is None:
                    inode = _inodes[key] = _Inode(key)
                inode.nref += 1
        return OsFile(path, fd, inode, readonly)

    def delete(self, path: str) -> None:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError as e:
            raise ioerr(errors.SQLITE_IOERR_DELETE) from e

    def exists(self, path: str) -> bool:
        try:
            return os.access(path, os.F_OK)  # (SQLite's unixAccess; cheaper than a stat)
        except ValueError:
            return False
