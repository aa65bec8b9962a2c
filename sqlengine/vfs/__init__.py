"""The VFS: the files under the pager — OS files, in-memory files, and a fault-injecting
wrapper that can fail or crash at the Nth operation (for crash and I/O-error tests).

Knows bytes, offsets, syncs and locks; never knows pages or SQL.

A VFS has ``open(path, kind) -> File`` (kind: "main", "journal" or "temp"; creates the file
if missing), ``delete(path)``, ``exists(path)``. A File has ``read(offset, n) -> bytes``
(shorter at end of file), ``write(offset, data)``, ``truncate(size)``, ``sync()``, ``size()``,
``close()``, and the SQLite lock protocol: ``lock(level) -> bool`` (False when busy),
``unlock(level)``, ``check_reserved_lock() -> bool``, ``lock_level``. Levels are
NO_LOCK < SHARED < RESERVED < PENDING < EXCLUSIVE. I/O failures raise
``errors.OperationalError("disk I/O error")`` with an SQLITE_IOERR_* code.
"""

from sqlengine.vfs.base import EXCLUSIVE, NO_LOCK, PENDING, RESERVED, SHARED, File, Vfs
from sqlengine.vfs.fault import FaultVfs
from sqlengine.vfs.memory import MemoryVfs
from sqlengine.vfs.osfile import OsVfs

__all__ = ["Vfs", "File", "OsVfs", "MemoryVfs", "FaultVfs", "NO_LOCK", "SHARED", "RESERVED",
           "PENDING", "EXCLUSIVE", "default_vfs"]

_default = None


def default_vfs():
    """The process-wide OS VFS."""
    global _default
    if _default is None:
        _default = OsVfs()
    return _default
