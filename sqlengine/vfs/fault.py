"""A fault-injecting VFS for I/O-error and crash tests.

``FaultVfs(base=None)`` wraps another VFS (a fresh MemoryVfs by default). Every read, write,
truncate and sync through it counts as one operation; ``fail_at(n, persistent=False,
ops=None)`` makes the nth following operation (of the kinds in ``ops``, default all) raise
``disk I/O error`` — once, or for every operation from then on when persistent.

Crash simulation: with ``record=True`` the VFS keeps, for every file, the durable image (what
the last ``sync`` made permanent) beside the live one. ``crash_image(keep_unsynced=...)``
returns a new MemoryVfs holding the durable images, optionally with a chosen subset of the
unsynced writes applied (a torn crash); ``crash_at(n)`` makes the nth operation raise and
freezes the files, as if the power failed there.

Never knows pages or SQL.
"""

from __future__ import annotations

from sqlengine import errors
from sqlengine.vfs.base import File, Vfs, ioerr
from sqlengine.vfs.memory import MemoryVfs

_CODES = {"read": errors.SQLITE_IOERR_READ, "write": errors.SQLITE_IOERR_WRITE,
          "truncate": errors.SQLITE_IOERR_TRUNCATE, "sync": errors.SQLITE_IOERR_FSYNC,
          "delete": errors.SQLITE_IOERR_DELETE}


class FaultFile(File):
    def __init__(self, vfs: FaultVfs, path: str, inner: File):
        self.vfs = vfs
        self.path = path
        self.inner = inner

    @property
    def lock_level(self):
        return self.inner.lock_level

    @property
    def readonly(self):
        return self.inner.readonly

    def read(self, offset, n):
        self.vfs._op("read")
        return self.inner.read(offset, n)

    def write(self, offset, data):
        self.vfs._op("write")
        data = bytes(data)
        self.inner.write(offset, data)
        if self.vfs.record:
            self.vfs.unsynced.setdefault(self.path, []).append(("write", offset, data))

    def truncate(self, size):
        self.vfs._op("truncate")
        self.inner.truncate(size)
        if self.vfs.record:
            self.vfs.unsynced.setdefault(self.path, []).append(("truncate", size, None))

    def sync(self):
        self.vfs._op("sync")
        self.inner.sync()
        if self.vfs.record:
            self.vfs._make_durable(self.path)

    def size(self):
        return self.inner.size()

    def close(self):
        self.inner.close()

    def lock(self, level):
        return self.inner.lock(level)

    def unlock(self, level):
        self.inner.unlock(level)

    def check_reserved_lock(self):
        return self.inner.check_reserved_lock()


class FaultVfs(Vfs):
    def __init__(self, base: Vfs | None = None, record: bool = False):
        self.base = base if base is not None else MemoryVfs()
        self.record = record
        self.count = 0
        self._fail_at = None
        self._persistent = False
        self._ops = None
        self._crash = False
        self.crashed = False
        self.failures = 0
        self.durable: dict[str, bytes] = {}
        self.unsynced: dict[str, list] = {}
        self.deleted_unsynced: set[str] = set()

    # -- control --------------------------------------------------------------------------
    def fail_at(self, n: int, persistent: bool = False, ops=None) -> None:
        """Make the nth following operation (1-based) fail."""
        self.count = 0
        self._fail_at = n
        self._persistent = persistent
        self._ops = set(ops) if ops else None
        self._crash = False

    def crash_at(self, n: int, ops=None) -> None:
        """Make the nth following operation fail and every later one too, as a power cut."""
        self.fail_at(n, persistent=True, ops=ops)
        self._crash = True

    def clear(self) -> None:
        self._fail_at = None
        self._persistent = False
        self._crash = False

    def _op(self, kind: str) -> None:
        if self.crashed:
            raise ioerr(_CODES.get(kind, errors.SQLITE_IOERR))
        if self._fail_at is None or (self._ops and kind not in self._ops):
            return
        self.count += 1
        if self.count >= self._fail_at:
            if self.count == self._fail_at or self._persistent:
                self.failures += 1
                if self._crash:
                    self.crashed = True
                raise ioerr(_CODES.get(kind, errors.SQLITE_IOERR))

    # -- crash images ---------------------------------------------------------------------
    def _make_durable(self, path: str) -> None:
        f = self.base.open(path)
        size = f.size()
        self.durable[path] = f.read(0, size)
        self.unsynced.pop(path, None)

    def crash_image(self, keep_unsynced=None) -> MemoryVfs:
        """The files as they would be after a power cut. keep_unsynced(path, index, op) ->
        bool chooses which unsynced writes survive (default: none)."""
        out = MemoryVfs()
        for path in set(self.durable) | set(self.unsynced):
            data = bytearray(self.durable.get(path, b""))
            for i, (op, a, b) in enumerate(self.unsynced.get(path, [])):
                if keep_unsynced is not None and keep_unsynced(path, i, op):
                    if op == "write":
                        end = a + len(b)
                        if end > len(data):
                            data.extend(bytes(end - len(data)))
                        data[a:end] = b
                    else:
                        del data[a:]
            out.files[path] = data
        for path in self.deleted_unsynced:
            out.files.pop(path, None)
        return out

    # -- Vfs ------------------------------------------------------------------------------
    def open(self, path: str, kind: str = "main") -> FaultFile:
        existed = self.base.exists(path)
        f = FaultFile(self, path, self.base.open(path, kind))
        if self.record and not existed:
            self.durable.setdefault(path, b"")
        return f

    def delete(self, path: str) -> None:
        self._op("delete")
        self.base.delete(path)
        if self.record:
            # SQLite syncs the directory after deleting a journal; treat delete as durable
            self.durable.pop(path, None)
            self.unsynced.pop(path, None)

    def exists(self, path: str) -> bool:
        return self.base.exists(path)
