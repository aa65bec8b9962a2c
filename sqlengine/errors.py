"""The exception hierarchy of PEP 249 as the stdlib sqlite3 module shapes it, and SQLite's
result codes.

Every layer of the engine raises these classes (never bare Python exceptions) so that the
DB-API module can pass them through unchanged. Each carries ``sqlite_errorcode`` and
``sqlite_errorname`` like the stdlib's. This module imports nothing from the engine.
"""

from __future__ import annotations

# SQLite primary result codes (sqlite3.h).
SQLITE_OK = 0
SQLITE_ERROR = 1
SQLITE_INTERNAL = 2
SQLITE_PERM = 3
SQLITE_ABORT = 4
SQLITE_BUSY = 5
SQLITE_LOCKED = 6
SQLITE_NOMEM = 7
SQLITE_READONLY = 8
SQLITE_INTERRUPT = 9
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_NOTFOUND = 12
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_PROTOCOL = 15
SQLITE_EMPTY = 16
SQLITE_SCHEMA = 17
SQLITE_TOOBIG = 18
SQLITE_CONSTRAINT = 19
SQLITE_MISMATCH = 20
SQLITE_MISUSE = 21
SQLITE_NOLFS = 22
SQLITE_AUTH = 23
SQLITE_FORMAT = 24
SQLITE_RANGE = 25
SQLITE_NOTADB = 26
SQLITE_NOTICE = 27
SQLITE_WARNING = 28
SQLITE_ROW = 100
SQLITE_DONE = 101

# Extended result codes used by the engine.
SQLITE_CONSTRAINT_CHECK = SQLITE_CONSTRAINT | (1 << 8)
SQLITE_CONSTRAINT_FOREIGNKEY = SQLITE_CONSTRAINT | (3 << 8)
SQLITE_CONSTRAINT_NOTNULL = SQLITE_CONSTRAINT | (5 << 8)
SQLITE_CONSTRAINT_PRIMARYKEY = SQLITE_CONSTRAINT | (6 << 8)
SQLITE_CONSTRAINT_TRIGGER = SQLITE_CONSTRAINT | (7 << 8)
SQLITE_CONSTRAINT_UNIQUE = SQLITE_CONSTRAINT | (8 << 8)
SQLITE_CONSTRAINT_ROWID = SQLITE_CONSTRAINT | (10 << 8)
SQLITE_IOERR_READ = SQLITE_IOERR | (1 << 8)
SQLITE_IOERR_SHORT_READ = SQLITE_IOERR | (2 << 8)
SQLITE_IOERR_WRITE = SQLITE_IOERR | (3 << 8)
SQLITE_IOERR_FSYNC = SQLITE_IOERR | (4 << 8)
SQLITE_IOERR_TRUNCATE = SQLITE_IOERR | (6 << 8)
SQLITE_IOERR_FSTAT = SQLITE_IOERR | (7 << 8)
SQLITE_IOERR_DELETE = SQLITE_IOERR | (10 << 8)

_NAMES = {v: k for k, v in list(globals().items()) if k.startswith("SQLITE_") and isinstance(v, int)}
_NAMES[SQLITE_OK] = "SQLITE_OK"


def errorname(code: int) -> str:
    return _NAMES.get(code, _NAMES.get(code & 0xFF, "SQLITE_ERROR"))


class Warning(Exception):  # noqa: A001 - PEP 249 name
    pass


class Error(Exception):
    sqlite_errorcode: int = SQLITE_ERROR
    sqlite_errorname: str = "SQLITE_ERROR"

    # BaseException.__init__ only stores the positional arguments as ``args``; storing them
    # here is the same (a subclass's super().__init__("other") still sets them) without the
    # super() look-up and call, which cost every error raised about 1,300 instructions.
    def __init__(self, *args, code: int | None = None):
        self.args = args
        if code is not None:
            self.sqlite_errorcode = code
            self.sqlite_errorname = errorname(code)


class InterfaceError(Error):
    pass


class DatabaseError(Error):
    pass


class DataError(DatabaseError):
    pass


class OperationalError(DatabaseError):
    pass


class IntegrityError(DatabaseError):
    sqlite_errorcode = SQLITE_CONSTRAINT
    sqlite_errorname = "SQLITE_CONSTRAINT"


class InternalError(DatabaseError):
    pass


class ProgrammingError(DatabaseError):
    pass


class NotSupportedError(DatabaseError):
    pass


# Which exception class the stdlib module raises for each primary result code.
_CLASS_FOR_CODE = {
    SQLITE_INTERNAL: InternalError,
    SQLITE_NOTFOUND: InternalError,
    SQLITE_NOMEM: MemoryError,
    SQLITE_ERROR: OperationalError,
    SQLITE_PERM: OperationalError,
    SQLITE_ABORT: OperationalError,
    SQLITE_BUSY: OperationalError,
    SQLITE_LOCKED: OperationalError,
    SQLITE_READONLY: OperationalError,
    SQLITE_INTERRUPT: OperationalError,
    SQLITE_IOERR: OperationalError,
    SQLITE_FULL: OperationalError,
    SQLITE_CANTOPEN: OperationalError,
    SQLITE_PROTOCOL: OperationalError,
    SQLITE_EMPTY: OperationalError,
    SQLITE_SCHEMA: OperationalError,
    SQLITE_CORRUPT: DatabaseError,
    SQLITE_TOOBIG: DataError,
    SQLITE_CONSTRAINT: IntegrityError,
    SQLITE_MISMATCH: IntegrityError,
    SQLITE_MISUSE: ProgrammingError,
    SQLITE_RANGE: InterfaceError,
    SQLITE_NOTADB: DatabaseError,
}


def error_for_code(code: int, message: str) -> Exception:
    """The exception the stdlib sqlite3 module would raise for a SQLite result code."""
    cls = _CLASS_FOR_CODE.get(code & 0xFF, DatabaseError)
    if cls is MemoryError:
        return MemoryError(message)
    return cls(message, code=code)
