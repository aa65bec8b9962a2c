"""The VFS interface the pager programs against, and the lock levels of SQLite's protocol.

Never knows pages or SQL: only bytes at offsets, syncs and locks.
"""

from __future__ import annotations

from sqlengine import errors

NO_LOCK = 0
SHARED = 1
RESERVED = 2
PENDING = 3
EXCLUSIVE = 4

LOCK_NAMES = {NO_LOCK: "none", SHARED: "shared", RESERVED: "reserved", PENDING: "pending",
              EXCLUSIVE: "exclusive"}


def ioerr(code: int = errors.SQLITE_IOERR) -> errors.OperationalError:
    return errors.OperationalError("disk I/O error", code=code)


class File:
    """One open file. Subclasses implement the I/O; locking defaults to always granted."""

    lock_level = NO_LOCK
    readonly = False

    def read(self, offset: int, n: int) -> bytes:
        raise NotImplementedError

    def write(self, offset: int, data) -> None:
        raise NotImplementedError

    def truncate(self, size: int) -> None:
        raise NotImplementedError

    def sync(self) -> None:
        pass

    def size(self) -> int:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def lock(self, level: int) -> bool:
        if level > self.lock_level:
            self.lock_level = level
        return True

    def unlock(self, level: int) -> None:
        if level < self.lock_level:
            self.lock_level = level

    def check_reserved_lock(self) -> bool:
        return False


class Vfs:
    """A namespace of files."""

    def open(self, path: str, kind: str = "main") -> File:
        raise NotImplementedError

    def delete(self, path: str) -> None:
        raise NotImplementedError

    def exists(self, path: str) -> bool:
        raise NotImplementedError
