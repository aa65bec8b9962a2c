"""Values crossing the DB-API boundary: Row, adapters and converters, PEP 249 type
constructors, SQLite's text rendering of REAL values, and the SQLITE_* constants.

This is the part of the stdlib sqlite3 module's surface that needs no database: it is
imported by ``dbapi.py`` and by the shell. It must never import the engine (``database``,
``compiler``, ``storage``) so that ``import sqlengine`` always works; it only borrows the
VM's rendering of REAL values (``vdbe._values``) when that extension is built.
"""

from __future__ import annotations

import datetime
import math
import time

from sqlengine.errors import ProgrammingError

# ---------------------------------------------------------------------------------------
# PEP 249 type objects and constructors (sqlite3/dbapi2.py names).

Date = datetime.date
Time = datetime.time
Timestamp = datetime.datetime
Binary = memoryview


def DateFromTicks(ticks):
    return Date(*time.localtime(ticks)[:3])


def TimeFromTicks(ticks):
    return Time(*time.localtime(ticks)[3:6])


def TimestampFromTicks(ticks):
    return Timestamp(*time.localtime(ticks)[:6])


# ---------------------------------------------------------------------------------------
# Adapters (Python value -> SQLite value) and converters (declared type -> Python value).


class PrepareProtocol:
    """The protocol object adapters are registered for (PEP 246 style, as the stdlib)."""

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError("PrepareProtocol() takes no arguments")


adapters: dict = {}
converters: dict = {}


def register_adapter(type_, adapter, /):
    """Register ``adapter(obj)`` to turn objects of exactly ``type_`` into a SQLite value."""
    adapters[(type_, PrepareProtocol)] = adapter


def register_converter(typename, converter, /):
    """Register ``converter(bytes)`` for columns whose declared type (or ``[name]``) matches."""
    if not isinstance(typename, str):
        raise TypeError(f"register_converter() argument 1 must be str, not {type(typename).__name__}")
    converters[typename.upper()] = converter


_NO_ALT = object()


def adapt(obj, proto=PrepareProtocol, alt=_NO_ALT, /):
    """Adapt ``obj`` to ``proto`` as the stdlib's microprotocols do."""
    adapter = adapters.get((type(obj), proto))
    if adapter is not None:
        return adapter(obj)
    hook = getattr(proto, "__adapt__", None)
    if hook is not None:
        result = hook(obj)
        if result is not None:
            return result
    hook = getattr(obj, "__conform__", None)
    if hook is not None:
        result = hook(proto)
        if result is not None:
            return result
    if alt is not _NO_ALT:
        return alt
    raise ProgrammingError("can't adapt")


def _adapt_date(value):
    return value.isoformat()


def _adapt_datetime(value):
    return value.isoformat(" ")


def _convert_date(data):
    return datetime.date(*map(int, data.split(b"-")))


def _convert_timestamp(data):
    datepart, timepart = data.split(b" ")
    year, month, day = map(int, datepart.split(b"-"))
    timepart_full = timepart.split(b".")
    hours, minutes, seconds = map(int, timepart_full[0].split(b":"))
    if len(timepart_full) == 2:
        microseconds = int(timepart_full[1].decode("ascii").ljust(6, "0")[:6])
    else:
        microseconds = 0
    return datetime.datetime(year, month, day, hours, minutes, seconds, microseconds)


register_adapter(datetime.date, _adapt_date)
register_adapter(datetime.datetime, _adapt_datetime)
register_converter("date", _convert_date)
register_converter("timestamp", _convert_timestamp)


# ---------------------------------------------------------------------------------------
# SQLite's rendering of values as text (sqlite3_column_text, the shell, quote()).


try:  # the VM's rendering, SQLite's long-double digit generation, when it is built
    from sqlengine.vdbe._values import real_to_text as _vm_real_to_text
    from sqlengine.vdbe._values import render_real as _vm_render_real
except Exception:  # noqa: BLE001 - unbuilt (or broken) extension: Python's rendering
    _vm_real_to_text = _vm_render_real = None


def real_to_text(value: float) -> str:
    """A REAL as SQLite renders it as TEXT (printf ``%!.15g``): 1.0, 1.0e+20, 0.1, Inf."""
    if _vm_real_to_text is not None:
        return _vm_real_to_text(value)
    if value == 0:
        return "0.0"
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    if math.isnan(value):
        return ""  # SQLite stores NaN as NULL; never reached through the engine
    text = "%.15g" % value
    mantissa, sep, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + sep + exponent


def real_to_sql_literal(value: float) -> str:
    """A REAL as quote() renders it: ``%!.15g`` unless that loses precision, then ``%!.20e``."""
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    text = real_to_text(value)
    if float(text) == value:
        return text
    if _vm_render_real is not None:
        return _vm_render_real(value, 20, "e", False, True)
    mantissa, _, exponent = ("%.20e" % value).partition("e")
    return f"{mantissa}e{exponent}"


def text_bytes(value: str) -> bytes:
    """The bytes of a TEXT value the engine hands over: UTF-8, where a byte that was not
    (a surrogate escape, see vdbe._values.text_bytes) comes back as it is."""
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogateescape")


def value_to_bytes(value) -> bytes:
    """A value as sqlite3_column_blob sees it: what converters receive."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return text_bytes(value)
    if isinstance(value, float):
        return real_to_text(value).encode("ascii")
    return str(value).encode("ascii")


def sql_literal(value) -> str:
    """A value as an SQL literal, as SQLite's quote() writes it."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return real_to_sql_literal(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return "X'" + bytes(value).hex().upper() + "'"


# ---------------------------------------------------------------------------------------
# Row: the stdlib's sqlite3.Row, a tuple with case-insensitive access by column name.


def _ascii_lower(text: str) -> str:
    return "".join(ch.lower() if ch < "\x80" else ch for ch in text)


class Row:
    """A result row addressable by index, slice or (case-insensitively) by column name."""

    __slots__ = ("_data", "_description")

    def __new__(cls, cursor, data, /):
        from sqlengine.dbapi import Cursor

        if not isinstance(cursor, Cursor):
            raise TypeError(
                f"Row() argument 1 must be sqlengine.Cursor, not {type(cursor).__name__}"
            )
        if not isinstance(data, tuple):
            raise TypeError(f"Row() argument 2 must be tuple, not {type(data).__name__}")
        self = object.__new__(cls)
        self._data = data
        self._description = cursor.description
        return self

    def keys(self):
        if self._description is None:
            return []
        return [column[0] for column in self._description]

    def __getitem__(self, key):
        if isinstance(key, int):
            return self._data[key]
        if isinstance(key, slice):
            return self._data[key]
        if isinstance(key, str):
            wanted = _ascii_lower(key)
            for i, column in enumerate(self._description or ()):
                if _ascii_lower(column[0]) == wanted:
                    return self._data[i]
            raise IndexError("No item with that key")
        raise IndexError("Index must be int or string")

    def __len__(self):
        return len(self._data)

    def __iter__(self):
        return iter(self._data)

    def __eq__(self, other):
        if not isinstance(other, Row):
            return NotImplemented
        return self._description == other._description and self._data == other._data

    def __ne__(self, other):
        if not isinstance(other, Row):
            return NotImplemented
        return not self == other

    def __lt__(self, other):
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__

    def __hash__(self):
        return hash(self._description) ^ hash(self._data)


# ---------------------------------------------------------------------------------------
# SQLITE_* constants of the stdlib module (values from sqlite3.h).

SQLITE_OK = 0
SQLITE_DENY = 1
SQLITE_IGNORE = 2

# Authorizer action codes.
SQLITE_CREATE_INDEX = 1
SQLITE_CREATE_TABLE = 2
SQLITE_CREATE_TEMP_INDEX = 3
SQLITE_CREATE_TEMP_TABLE = 4
SQLITE_CREATE_TEMP_TRIGGER = 5
SQLITE_CREATE_TEMP_VIEW = 6
SQLITE_CREATE_TRIGGER = 7
SQLITE_CREATE_VIEW = 8
SQLITE_DELETE = 9
SQLITE_DROP_INDEX = 10
SQLITE_DROP_TABLE = 11
SQLITE_DROP_TEMP_INDEX = 12
SQLITE_DROP_TEMP_TABLE = 13
SQLITE_DROP_TEMP_TRIGGER = 14
SQLITE_DROP_TEMP_VIEW = 15
SQLITE_DROP_TRIGGER = 16
SQLITE_DROP_VIEW = 17
SQLITE_INSERT = 18
SQLITE_PRAGMA = 19
SQLITE_READ = 20
SQLITE_SELECT = 21
SQLITE_TRANSACTION = 22
SQLITE_UPDATE = 23
SQLITE_ATTACH = 24
SQLITE_DETACH = 25
SQLITE_ALTER_TABLE = 26
SQLITE_REINDEX = 27
SQLITE_ANALYZE = 28
SQLITE_CREATE_VTABLE = 29
SQLITE_DROP_VTABLE = 30
SQLITE_FUNCTION = 31
SQLITE_SAVEPOINT = 32
SQLITE_RECURSIVE = 33

# Run-time limit categories (sqlite3_limit).
SQLITE_LIMIT_LENGTH = 0
SQLITE_LIMIT_SQL_LENGTH = 1
SQLITE_LIMIT_COLUMN = 2
SQLITE_LIMIT_EXPR_DEPTH = 3
SQLITE_LIMIT_COMPOUND_SELECT = 4
SQLITE_LIMIT_VDBE_OP = 5
SQLITE_LIMIT_FUNCTION_ARG = 6
SQLITE_LIMIT_ATTACHED = 7
SQLITE_LIMIT_LIKE_PATTERN_LENGTH = 8
SQLITE_LIMIT_VARIABLE_NUMBER = 9
SQLITE_LIMIT_TRIGGER_DEPTH = 10
SQLITE_LIMIT_WORKER_THREADS = 11
# (their defaults: dbapi.default_limits)

# sqlite3_db_config verbs (3.12's getconfig/setconfig).
SQLITE_DBCONFIG_ENABLE_FKEY = 1002
SQLITE_DBCONFIG_ENABLE_TRIGGER = 1003
SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER = 1004
SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION = 1005
SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE = 1006
SQLITE_DBCONFIG_ENABLE_QPSG = 1007
SQLITE_DBCONFIG_TRIGGER_EQP = 1008
SQLITE_DBCONFIG_RESET_DATABASE = 1009
SQLITE_DBCONFIG_DEFENSIVE = 1010
SQLITE_DBCONFIG_WRITABLE_SCHEMA = 1011
SQLITE_DBCONFIG_LEGACY_ALTER_TABLE = 1012
SQLITE_DBCONFIG_DQS_DML = 1013
SQLITE_DBCONFIG_DQS_DDL = 1014
SQLITE_DBCONFIG_ENABLE_VIEW = 1015
SQLITE_DBCONFIG_LEGACY_FILE_FORMAT = 1016
SQLITE_DBCONFIG_TRUSTED_SCHEMA = 1017

# Extended result codes beyond those errors.py defines (3.11+ exposes them all).
_EXTENDED_CODES = {
    "SQLITE_ABORT_ROLLBACK": 516, "SQLITE_AUTH_USER": 279, "SQLITE_BUSY_RECOVERY": 261,
    "SQLITE_BUSY_SNAPSHOT": 517, "SQLITE_BUSY_TIMEOUT": 773, "SQLITE_CANTOPEN_CONVPATH": 1038,
    "SQLITE_CANTOPEN_DIRTYWAL": 1294, "SQLITE_CANTOPEN_FULLPATH": 782,
    "SQLITE_CANTOPEN_ISDIR": 526, "SQLITE_CANTOPEN_NOTEMPDIR": 270,
    "SQLITE_CANTOPEN_SYMLINK": 1550, "SQLITE_CONSTRAINT_COMMITHOOK": 531,
    "SQLITE_CONSTRAINT_FUNCTION": 1043, "SQLITE_CONSTRAINT_PINNED": 2835,
    "SQLITE_CONSTRAINT_VTAB": 2323, "SQLITE_CORRUPT_INDEX": 779,
    "SQLITE_CORRUPT_SEQUENCE": 523, "SQLITE_CORRUPT_VTAB": 267,
    "SQLITE_ERROR_MISSING_COLLSEQ": 257, "SQLITE_ERROR_RETRY": 513,
    "SQLITE_ERROR_SNAPSHOT": 769, "SQLITE_IOERR_ACCESS": 3338, "SQLITE_IOERR_AUTH": 7178,
    "SQLITE_IOERR_BEGIN_ATOMIC": 7434, "SQLITE_IOERR_BLOCKED": 2826,
    "SQLITE_IOERR_CHECKRESERVEDLOCK": 3594, "SQLITE_IOERR_CLOSE": 4106,
    "SQLITE_IOERR_COMMIT_ATOMIC": 7690, "SQLITE_IOERR_CONVPATH": 6666,
    "SQLITE_IOERR_CORRUPTFS": 8458, "SQLITE_IOERR_DATA": 8202,
    "SQLITE_IOERR_DELETE_NOENT": 5898, "SQLITE_IOERR_DIR_CLOSE": 4362,
    "SQLITE_IOERR_DIR_FSYNC": 1290, "SQLITE_IOERR_FSTAT": 1802, "SQLITE_IOERR_GETTEMPPATH": 6410,
    "SQLITE_IOERR_LOCK": 3850, "SQLITE_IOERR_MMAP": 6154, "SQLITE_IOERR_NOMEM": 3082,
    "SQLITE_IOERR_RDLOCK": 2314, "SQLITE_IOERR_ROLLBACK_ATOMIC": 7946, "SQLITE_IOERR_SEEK": 5642,
    "SQLITE_IOERR_SHMLOCK": 5130, "SQLITE_IOERR_SHMMAP": 5386, "SQLITE_IOERR_SHMOPEN": 4618,
    "SQLITE_IOERR_SHMSIZE": 4874, "SQLITE_IOERR_UNLOCK": 2058, "SQLITE_IOERR_VNODE": 6922,
    "SQLITE_LOCKED_SHAREDCACHE": 262, "SQLITE_LOCKED_VTAB": 518,
    "SQLITE_NOTICE_RECOVER_ROLLBACK": 539, "SQLITE_NOTICE_RECOVER_WAL": 283,
    "SQLITE_OK_LOAD_PERMANENTLY": 256, "SQLITE_OK_SYMLINK": 512,
    "SQLITE_READONLY_CANTINIT": 1288, "SQLITE_READONLY_CANTLOCK": 520,
    "SQLITE_READONLY_DBMOVED": 1032, "SQLITE_READONLY_DIRECTORY": 1544,
    "SQLITE_READONLY_RECOVERY": 264, "SQLITE_READONLY_ROLLBACK": 776,
    "SQLITE_WARNING_AUTOINDEX": 284,
}
globals().update(_EXTENDED_CODES)
