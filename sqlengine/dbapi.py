"""The DB-API 2.0 module: the stdlib sqlite3 module's surface over sqlengine's Database.

``import sqlengine as sqlite3`` must keep a program working, so every name, default,
message and exception class here follows the stdlib module (Python 3.11, SQLite 3.40),
plus the 3.12 ``autocommit`` attribute. This layer owns the DB-API conventions the engine
knows nothing of: the implicit BEGIN before DML, parameter binding rules, adapters and
converters, row factories, the statement cache, thread checks and callback wrapping.

It talks to the engine only through the ``sqlengine.database`` contract (prepare, bind,
step, reset, finalize, ...). It must never reach into the compiler, VM or storage, and
must never buffer a whole result: cursors step the engine one row ahead, as the stdlib.
"""

from __future__ import annotations

import collections
import operator
import os
import sys
import threading
import urllib.parse
import weakref

from sqlengine import errors
from sqlengine.dbapi_types import (  # noqa: F401  (re-exported surface)
    SQLITE_LIMIT_WORKER_THREADS,
    Binary,
    Date,
    DateFromTicks,
    PrepareProtocol,
    Row,
    Time,
    TimeFromTicks,
    Timestamp,
    TimestampFromTicks,
    adapt,
    adapters,
    converters,
    real_to_text,
    register_adapter,
    register_converter,
    sql_literal,
    text_bytes,
    value_to_bytes,
)
from sqlengine.errors import (
    DataError,
    OperationalError,
    ProgrammingError,
)

apilevel = "2.0"
threadsafety = 3  # as the stdlib: a connection opened with check_same_thread=False may be
# shared, its engine calls serialized by a lock (dbapi_threads.py)
paramstyle = "qmark"
sqlite_version = "3.40.1"
sqlite_version_info = (3, 40, 1)
version = "2.6.0"
version_info = (2, 6, 0)

PARSE_DECLTYPES = 1
PARSE_COLNAMES = 2
LEGACY_TRANSACTION_CONTROL = -1

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1
_callback_tracebacks = False

_DEFAULT_LIMITS = None


def default_limits() -> tuple:
    """SQLite's default run-time limits, by sqlite3_limit category (0-11), as the stdlib
    module's getlimit() reports them: the constants the engine checks, read from where
    they live (sql/limits.py for most) when the first connection opens, as they sit in
    layers ``import sqlengine`` does not load."""
    global _DEFAULT_LIMITS
    if _DEFAULT_LIMITS is None:
        from sqlengine.compiler.attach import MAX_ATTACHED
        from sqlengine.sql import limits as L
        from sqlengine.vdbe.functions import LIKE_PATTERN_LIMIT, MAX_LENGTH
        _DEFAULT_LIMITS = (MAX_LENGTH, L.MAX_SQL_LENGTH, L.MAX_COLUMN, L.MAX_EXPR_DEPTH,
                           L.MAX_COMPOUND_SELECT, L.MAX_VDBE_OP, L.MAX_FUNCTION_ARG,
                           MAX_ATTACHED, LIKE_PATTERN_LIMIT, L.MAX_VARIABLE_NUMBER,
                           L.MAX_TRIGGER_DEPTH, L.MAX_WORKER_THREADS)
    return _DEFAULT_LIMITS

def enable_callback_tracebacks(flag, /):
    """Print tracebacks of exceptions raised in user callbacks (to sys.unraisablehook)."""
    global _callback_tracebacks
    _callback_tracebacks = bool(flag)


def enable_shared_cache(enable):
    """Accepted for compatibility; sqlengine has no shared-cache mode."""
    return None


def _report_callback_error(where=None):
    if _callback_tracebacks:
        exc = sys.exc_info()[1]
        sys.unraisablehook(_Unraisable(type(exc), exc, exc.__traceback__, None, where))


_Unraisable = collections.namedtuple(
    "UnraisableHookArgs", "exc_type exc_value exc_traceback err_msg object"
)


def complete_statement(statement):
    """True if ``statement`` holds at least one complete SQL statement (sqlite3_complete)."""
    if not isinstance(statement, str):
        raise TypeError(
            f"complete_statement() argument 'statement' must be str, not {type(statement).__name__}"
        )
    from sqlengine.sql import complete_statement as complete

    return complete(statement)


# ---------------------------------------------------------------------------------------
# SQL text scanning the DB-API needs (first keyword, tail checks, trace expansion).

from sqlengine.dbapi_sqltext import expand_sql, first_keyword, skip_blanks  # noqa: E402
# the DB-API's view of a prepared statement, compiled (made for every statement prepared)
from sqlengine.dbapi_statement import DDL_KEYWORDS as _DDL_KEYWORDS  # noqa: E402
from sqlengine.dbapi_statement import UNSET as _UNSET  # noqa: E402
from sqlengine.dbapi_statement import Statement as _Statement  # noqa: E402


def _open_database(path, timeout):
    """Open the engine's Database; the one place this module names the engine class."""
    from sqlengine.database import Database

    return Database(path, timeout=timeout)


def _parse_uri(database):
    """Turn a ``file:`` URI into (path, readonly, create, memory)."""
    parts = urllib.parse.urlsplit(database)
    if parts.scheme != "file":
        return database, False, True, database == ":memory:"
    query = dict(urllib.parse.parse_qsl(parts.query))
    mode = query.get("mode", "rwc")
    if mode not in ("ro", "rw", "rwc", "memory"):
        raise OperationalError(f"no such access mode: {mode}")
    path = urllib.parse.unquote(parts.path)
    memory = mode == "memory" or path == ":memory:"
    return path, mode == "ro", mode == "rwc", memory


_get_ident = threading.get_ident  # (the thread check of every execute and fetch)


def _check_limit_category(category):
    if not isinstance(category, int):
        raise TypeError(f"'{type(category).__name__}' object cannot be interpreted as an integer")
    if not 0 <= category <= SQLITE_LIMIT_WORKER_THREADS:
        raise ProgrammingError("'category' is out of bounds")


# ---------------------------------------------------------------------------------------
# Connection


class Connection:
    """An open database, as sqlite3.Connection."""

    _db = None
    _serial_lock = None  # check_same_thread=False: held over a whole execute
    _initialized = False
    _closed = False
    row_factory = None
    text_factory = str

    Warning = errors.Warning
    Error = errors.Error
    InterfaceError = errors.InterfaceError
    DatabaseError = errors.DatabaseError
    DataError = errors.DataError
    OperationalError = errors.OperationalError
    IntegrityError = errors.IntegrityError
    InternalError = errors.InternalError
    ProgrammingError = errors.ProgrammingError
    NotSupportedError = errors.NotSupportedError

    def __init__(self, database, timeout=5.0, detect_types=0, isolation_level="",
                 check_same_thread=True, factory=None, cached_statements=128, uri=False,
                 *, autocommit=LEGACY_TRANSACTION_CONTROL):
        if isinstance(database, bytes):
            path = os.fsdecode(database)
        elif isinstance(database, (str, os.PathLike)):
            path = os.fspath(database)
            if isinstance(path, bytes):
                path = os.fsdecode(path)
        else:
            raise TypeError(
                f"expected str, bytes or os.PathLike object, not {type(database).__name__}"
            )
        if isinstance(timeout, (str, bytes, bytearray)) or not (
                hasattr(timeout, "__float__") or hasattr(timeout, "__index__")):
            raise TypeError(f"must be real number, not {type(timeout).__name__}")
        timeout = float(timeout)
        detect_types = operator.index(detect_types)
        check_same_thread = operator.index(check_same_thread)
        cached_statements = max(0, operator.index(cached_statements))
        self._check_autocommit_value(autocommit)
        self._readonly = False
        if uri:
            path, self._readonly, create, memory = _parse_uri(path)
            if memory:
                path = ":memory:"
            elif not create and not os.path.exists(path):
                raise OperationalError("unable to open database file", code=errors.SQLITE_CANTOPEN)
        if self._db is not None:  # __init__ called again on an open connection
            self.close()
            self._closed = False
        self._db = _open_database(path, timeout)
        self._serial_lock = None
        if not check_same_thread:
            from sqlengine.dbapi_threads import SerializedDatabase

            self._db = SerializedDatabase(self._db)
            self._serial_lock = self._db._lock
        self._path = path
        self._thread_ident = threading.get_ident()
        self._check_same_thread = bool(check_same_thread)
        self._detect_types = detect_types
        self._cache = collections.OrderedDict()
        self._cache_size = cached_statements
        self._schema_generation = 0
        self._cursors = weakref.WeakSet()
        self._blobs = weakref.WeakSet()
        self._trace_callback = None
        self._progress = None
        self._default_limits = default_limits()
        self._limits = list(self._default_limits)
        self.row_factory = None
        self.text_factory = str
        self._isolation_level = None
        self._autocommit = autocommit
        self._initialized = True
        self._closed = False
        self.isolation_level = isolation_level
        if autocommit is False:
            self._exec_internal("BEGIN")

    # -- checks ------------------------------------------------------------------------

    def _check(self, thread=True):
        if not self._initialized:
            raise ProgrammingError("Base Connection.__init__ not called.")
        if thread and self._check_same_thread and _get_ident() != self._thread_ident:
            raise ProgrammingError(
                "SQLite objects created in a thread can only be used in that same thread. "
                f"The object was created in thread id {self._thread_ident} and this is "
                f"thread id {threading.get_ident()}."
            )
        if self._closed:
            raise ProgrammingError("Cannot operate on a closed database.")

    @staticmethod
    def _check_autocommit_value(value):
        if value is True or value is False or (
            type(value) is int and value == LEGACY_TRANSACTION_CONTROL
        ):
            return
        raise ValueError("autocommit must be True, False, or sqlite3.LEGACY_TRANSACTION_CONTROL")

    # -- transaction state -------------------------------------------------------------

    @property
    def isolation_level(self):
        self._check(thread=False)
        return self._isolation_level

    @isolation_level.setter
    def isolation_level(self, value):
        if self._initialized:
            self._check()
        if value is None:
            self._isolation_level = None
            if self._initialized and not self._closed and not self._db.autocommit \
                    and self._autocommit == LEGACY_TRANSACTION_CONTROL:
                self._exec_internal("COMMIT")
            return
        if not isinstance(value, str):
            raise TypeError("isolation_level must be str or None")
        level = value.upper()
        if level not in ("", "DEFERRED", "IMMEDIATE", "EXCLUSIVE"):
            raise ValueError(
                "isolation_level string must be '', 'DEFERRED', 'IMMEDIATE', or 'EXCLUSIVE'"
            )
        self._isolation_level = value if level == "" else level

    @property
    def autocommit(self):
        self._check()
        return self._autocommit

    @autocommit.setter
    def autocommit(self, value):
        self._check()
        self._check_autocommit_value(value)
        self._autocommit = value
        if value is True and not self._db.autocommit:
            self._exec_internal("COMMIT")
        elif value is False and self._db.autocommit:
            self._exec_internal("BEGIN")

    @property
    def in_transaction(self):
        self._check(thread=False)
        return not self._db.autocommit

    @property
    def total_changes(self):
        self._check(thread=False)
        return self._db.total_changes

    def _begin_for(self, statement):
        """The legacy implicit BEGIN before INSERT/UPDATE/DELETE/REPLACE."""
        if (self._autocommit == LEGACY_TRANSACTION_CONTROL and statement.is_dml
                and self._isolation_level is not None and self._db.autocommit):
            self._exec_internal("BEGIN " + self._isolation_level)

    def commit(self):
        self._check()
        if self._autocommit is True:
            return
        if not self._db.autocommit:
            self._exec_internal("COMMIT")
        if self._autocommit is False:
            self._exec_internal("BEGIN")

    def rollback(self):
        self._check()
        if self._autocommit is True:
            return
        if not self._db.autocommit:
            self._exec_internal("ROLLBACK")
        if self._autocommit is False:
            self._exec_internal("BEGIN")

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        if exc_type is None:
            try:
                self.commit()
            except BaseException:
                self.rollback()
                raise
        else:
            self.rollback()
        return False

    def close(self):
        if not self._initialized:
            raise ProgrammingError("Base Connection.__init__ not called.")
        self._check_thread_only()
        if self._closed or self._db is None:
            return
        try:
            if self._autocommit is False and not self._db.autocommit:
                self._exec_internal("ROLLBACK")
        finally:
            for cursor in list(self._cursors):
                cursor._release_statement()
            for blob in list(self._blobs):
                blob._closed = True
            for statement in self._cache.values():
                statement.finalize()
            self._cache.clear()
            self._closed = True
            self._db.close()

    def _check_thread_only(self):
        if self._check_same_thread and threading.get_ident() != self._thread_ident:
            raise ProgrammingError(
                "SQLite objects created in a thread can only be used in that same thread. "
                f"The object was created in thread id {self._thread_ident} and this is "
                f"thread id {threading.get_ident()}."
            )

    def __del__(self):
        try:
            if self._initialized and not self._closed and self._db is not None:
                self._closed = True
                self._db.close()
        except Exception:
            pass

    # -- statements --------------------------------------------------------------------

    def _prepare(self, sql):
        """A _Statement for ``sql`` (from the cache when possible), checked as the stdlib."""
        if self._cache_size:
            key = (sql, self._schema_generation)
            statement = self._cache.get(key)
            if statement is not None and not statement.in_use:
                self._cache.move_to_end(key)
                return statement
        if "\0" in sql:
            raise ProgrammingError("the query contains a null character")
        limit = self._limits[1]
        if len(sql) * 4 > limit and len(sql.encode("utf-8")) > limit:
            raise DataError("query string is too large")
        stmt, tail = self._db.prepare(sql, 0)
        if stmt is not None and tail < len(sql) and skip_blanks(sql, tail) < len(sql):
            stmt.finalize()
            raise ProgrammingError("You can only execute one statement at a time.")
        if stmt is not None:
            count = stmt.param_count
            if count > self._limits[9]:
                stmt.finalize()
                raise OperationalError("too many SQL variables")
        statement = _Statement(stmt, sql, sql[:tail] if stmt is not None else sql)
        if self._cache_size and stmt is not None and key not in self._cache:
            self._cache[key] = statement
            statement.cached = True
            while len(self._cache) > self._cache_size:
                _, old = self._cache.popitem(last=False)
                old.cached = False
                if not old.in_use:
                    old.finalize()
        return statement

    def _schema_changed(self):
        """Forget cached statements after DDL run through this connection."""
        self._schema_generation += 1
        for statement in self._cache.values():
            statement.cached = False
            if not statement.in_use:
                statement.finalize()
        self._cache.clear()

    def _trace(self, text):
        callback = self._trace_callback
        if callback is not None:
            try:
                callback(text)
            except Exception:
                _report_callback_error()

    def _exec_internal(self, sql):
        """Run a statement of this module's own (BEGIN, COMMIT, ROLLBACK) to completion."""
        stmt, _ = self._db.prepare(sql, 0)
        try:
            self._trace(sql)
            while stmt.step() is not None:
                pass
        finally:
            stmt.finalize()

    def _step(self, stmt):
        """One engine step, honouring an emulated progress handler."""
        progress = self._progress
        if progress is not None:
            handler, every, count = progress
            count += 1
            if count >= every:
                count = 0
                try:
                    stop = handler()
                except Exception:
                    _report_callback_error()
                    stop = True
                if stop:
                    raise OperationalError("interrupted", code=errors.SQLITE_INTERRUPT)
            self._progress = (handler, every, count)
        return stmt.step()

    # -- cursors and shortcuts ---------------------------------------------------------

    def cursor(self, factory=None):
        self._check()
        if factory is None:
            factory = Cursor
        cursor = factory(self)
        if not isinstance(cursor, Cursor):
            raise TypeError(f"factory must return a cursor, not {type(cursor).__name__}")
        if self.row_factory is not None:
            cursor.row_factory = self.row_factory
        return cursor

    def execute(self, sql, parameters=(), /):
        return self.cursor().execute(sql, parameters)

    def executemany(self, sql, parameters, /):
        return self.cursor().executemany(sql, parameters)

    def executescript(self, sql_script, /):
        return self.cursor().executescript(sql_script)

    def __call__(self, sql):
        raise NotSupportedError("calling a connection is not supported")

    # -- user functions ----------------------------------------------------------------

    def create_function(self, name, narg, func, *, deterministic=False):
        self._check()
        from sqlengine.dbapi_callbacks import wrap_scalar

        if not isinstance(name, str):
            raise TypeError(f"create_function() argument 'name' must be str, not {type(name).__name__}")
        narg = operator.index(narg)
        if narg < -1 or narg > self._limits[6]:
            raise OperationalError("Error creating function")
        # As the stdlib, None registers a function whose every call fails.
        self._db.create_function(name, narg, wrap_scalar(func), deterministic=bool(deterministic))
        self._schema_changed()

    def create_aggregate(self, name, n_arg, aggregate_class):
        self._check()
        from sqlengine.dbapi_callbacks import wrap_aggregate

        if not isinstance(name, str):
            raise TypeError(f"create_aggregate() argument 'name' must be str, not {type(name).__name__}")
        n_arg = operator.index(n_arg)
        if n_arg < -1 or n_arg > self._limits[6]:
            raise OperationalError("Error creating aggregate")
        self._db.create_aggregate(name, n_arg, wrap_aggregate(aggregate_class, False))
        self._schema_changed()

    def create_window_function(self, name, num_params, aggregate_class, /):
        self._check()
        from sqlengine.dbapi_callbacks import wrap_aggregate

        num_params = operator.index(num_params)
        if num_params < -1 or num_params > self._limits[6]:
            raise ProgrammingError("bad parameter or other API misuse", code=errors.SQLITE_MISUSE)
        factory = None if aggregate_class is None else wrap_aggregate(aggregate_class, True)
        self._db.create_window_function(name, num_params, factory)
        self._schema_changed()

    def create_collation(self, name, callable, /):  # noqa: A002 - stdlib's parameter name
        self._check()
        from sqlengine.dbapi_callbacks import wrap_collation

        if not isinstance(name, str):
            raise TypeError(f"create_collation() argument 1 must be str, not {type(name).__name__}")
        if callable is not None and not hasattr(callable, "__call__"):  # noqa: B004
            raise TypeError("parameter must be callable")
        self._db.create_collation(name, None if callable is None else wrap_collation(callable))
        self._schema_changed()

    # -- hooks -------------------------------------------------------------------------

    def set_authorizer(self, authorizer_callback):
        self._check()
        from sqlengine.dbapi_callbacks import wrap_authorizer

        setter = getattr(self._db, "set_authorizer", None)
        if setter is None:
            raise errors.NotSupportedError("the engine has no authorizer hook yet")
        setter(None if authorizer_callback is None else wrap_authorizer(authorizer_callback))
        if authorizer_callback is not None:
            # SQLite expires the prepared statements when an authorizer is set, not when it
            # is removed: statements prepared under it keep its answers
            self._schema_changed()

    def set_progress_handler(self, progress_handler, n):
        self._check()
        n = operator.index(n)
        setter = getattr(self._db, "set_progress_handler", None)
        if setter is not None:
            from sqlengine.dbapi_callbacks import wrap_progress

            if progress_handler is None or n <= 0:
                setter(None, 0)
            else:
                setter(wrap_progress(progress_handler), n)
            return
        # Emulation: the handler runs every n engine steps (rows) instead of n VM opcodes.
        self._progress = None if progress_handler is None or n <= 0 else (progress_handler, n, 0)

    def set_trace_callback(self, trace_callback):
        self._check()
        self._trace_callback = trace_callback

    def interrupt(self):
        if not self._initialized:
            raise ProgrammingError("Base Connection.__init__ not called.")
        if self._closed:
            raise ProgrammingError("Cannot operate on a closed database.")
        self._db.interrupt()

    # -- limits ------------------------------------------------------------------------

    def getlimit(self, category, /):
        self._check()
        _check_limit_category(category)
        return self._limits[category]

    def setlimit(self, category, limit, /):
        self._check()
        _check_limit_category(category)
        limit = operator.index(limit)
        old = self._limits[category]
        if limit >= 0:
            self._limits[category] = min(limit, self._default_limits[category]) if category != 11 \
                else min(limit, 8)
            setter = getattr(self._db, "set_limit", None)
            if setter is not None:
                setter(category, self._limits[category])
        return old

    # -- configuration (3.12's getconfig/setconfig) ------------------------------------

    _DBCONFIG_DEFAULTS = {1002: False, 1003: True, 1004: True, 1005: True, 1006: False,
                          1007: False, 1008: False, 1009: False, 1010: False, 1011: False,
                          1012: False, 1013: True, 1014: True, 1015: True, 1016: False,
                          1017: True}

    def _config_op(self, op):
        op = operator.index(op)
        if op not in self._DBCONFIG_DEFAULTS:
            raise ValueError(f"unknown config 'op': {op}")
        return op

    def getconfig(self, op, /):
        self._check()
        op = self._config_op(op)
        if op == 1002:  # SQLITE_DBCONFIG_ENABLE_FKEY is PRAGMA foreign_keys
            stmt, _ = self._db.prepare("PRAGMA foreign_keys", 0)
            try:
                row = stmt.step()
            finally:
                stmt.finalize()
            return bool(row and row[0])
        return getattr(self, "_config", {}).get(op, self._DBCONFIG_DEFAULTS[op])

    def setconfig(self, op, enable=True, /):
        self._check()
        op = self._config_op(op)
        enable = bool(enable)
        if op == 1002:
            self._exec_internal(f"PRAGMA foreign_keys = {int(enable)}")
            return
        if not hasattr(self, "_config"):
            self._config = {}
        self._config[op] = enable

    # -- whole-database operations (dbapi_extras) -------------------------------------

    def iterdump(self):
        self._check()
        from sqlengine.dbapi_extras import iterdump

        return iterdump(self)

    def backup(self, target, *, pages=-1, progress=None, name="main", sleep=0.250):
        self._check()
        from sqlengine.dbapi_extras import backup

        return backup(self, target, pages=pages, progress=progress, name=name, sleep=sleep)

    def blobopen(self, table, column, row, /, *, readonly=False, name="main"):
        self._check()
        from sqlengine.dbapi_extras import Blob

        blob = Blob(self, table, column, row, readonly, name)
        self._blobs.add(blob)
        return blob

    def serialize(self, *, name="main"):
        self._check()
        from sqlengine.dbapi_extras import serialize

        return serialize(self, name)

    def deserialize(self, data, /, *, name="main"):
        self._check()
        from sqlengine.dbapi_extras import deserialize

        deserialize(self, data, name)

    def enable_load_extension(self, enabled, /):
        self._check()
        raise errors.NotSupportedError("sqlengine does not load C extensions")

    def load_extension(self, name, /, *, entrypoint=None):
        self._check()
        raise errors.NotSupportedError("sqlengine does not load C extensions")


NotSupportedError = errors.NotSupportedError


# ---------------------------------------------------------------------------------------
# Cursor


def _is_sequence(obj):
    return not isinstance(obj, dict) and hasattr(type(obj), "__getitem__")


_base_type_adapted = False
_NO_ADAPT_TYPES = (int, float, str, bytearray)


def register_adapter(type_, adapter, /):  # noqa: F811 - wraps dbapi_types' version
    """Register ``adapter(obj)`` to turn objects of exactly ``type_`` into a SQLite value."""
    global _base_type_adapted
    from sqlengine import dbapi_types

    if type_ in _NO_ADAPT_TYPES:
        _base_type_adapted = True
    dbapi_types.register_adapter(type_, adapter)


def _sql_value(value, index):
    """``value`` as one of the engine's types (None, int, float, str, bytes), adapting it."""
    cls = type(value)
    if _base_type_adapted or cls not in _NO_ADAPT_TYPES:
        value = adapt(value, PrepareProtocol, value)
        cls = type(value)
    if value is None:
        return None
    if cls is int or isinstance(value, int):
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise OverflowError("Python int too large to convert to SQLite INTEGER")
        return int(value)
    if cls is float or isinstance(value, float):
        return float(value)
    if cls is str or isinstance(value, str):
        if not value.isascii():
            value.encode("utf-8")  # raises UnicodeEncodeError for lone surrogates, as the stdlib
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    try:
        return bytes(memoryview(value))
    except TypeError:
        pass
    raise ProgrammingError(
        f"Error binding parameter {index}: type '{_type_name(cls)}' is not supported"
    )


def _type_name(cls) -> str:
    """A type's name as C's tp_name spells it: "datetime.time", "Decimal" for classes."""
    if cls.__flags__ & (1 << 9) or cls.__module__ == "builtins":  # heap type or builtin
        return cls.__name__
    return f"{cls.__module__}.{cls.__qualname__}"


class Cursor:
    """A cursor over one connection, as sqlite3.Cursor. Rows are stepped one ahead."""

    # Defaults live on the class: a cursor is made for every Connection.execute().
    _initialized = False
    _closed = False
    _statement = None
    _next_row = None
    _description = None
    _converters = None
    _rowcount = -1
    _lastrowid = None
    _locked = False
    _arraysize = 1
    _tracked_in = None  # the connection's set of cursors this one was added to
    row_factory = None

    def __init__(self, connection, /):
        if not isinstance(connection, Connection):
            raise TypeError(
                f"Cursor() argument 1 must be sqlengine.Connection, not {type(connection).__name__}"
            )
        self._connection = connection
        self._initialized = True

    # -- attributes --------------------------------------------------------------------

    @property
    def connection(self):
        return self._connection

    @property
    def description(self):
        return self._description

    @property
    def rowcount(self):
        return self._rowcount

    @property
    def lastrowid(self):
        return self._lastrowid

    @property
    def arraysize(self):
        return self._arraysize

    @arraysize.setter
    def arraysize(self, value):
        if not isinstance(value, int):
            raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer")
        self._arraysize = value

    def setinputsizes(self, sizes, /):
        pass

    def setoutputsize(self, size, column=None, /):
        pass

    # -- checks ------------------------------------------------------------------------

    def _check(self):
        if not self._initialized:
            raise ProgrammingError("Base Cursor.__init__ not called.")
        conn = self._connection
        # Connection._check's tests, it called (to raise its error) only when one fails
        if not conn._initialized or conn._closed or (
                conn._check_same_thread and _get_ident() != conn._thread_ident):
            conn._check()
        if self._closed:
            raise ProgrammingError("Cannot operate on a closed cursor.")
        if self._locked:
            raise ProgrammingError("Recursive use of cursors not allowed.")

    def close(self):
        if not self._initialized:
            raise ProgrammingError("Base Cursor.__init__ not called.")
        if self._locked:
            raise ProgrammingError("Recursive use of cursors not allowed.")
        self._connection._check()
        self._release_statement()
        self._closed = True

    def _release_statement(self):
        statement = self._statement
        self._statement = None
        self._next_row = None
        if statement is not None:
            if statement.stmt is not None and not self._connection._closed:
                statement.reset()
                if not statement.cached:
                    statement.finalize()
            statement.in_use = False

    # -- execution ---------------------------------------------------------------------

    def execute(self, sql, parameters=(), /):
        if not isinstance(sql, str):
            self._check()
            raise TypeError(f"execute() argument 1 must be str, not {type(sql).__name__}")
        self._check()
        lock = self._connection._serial_lock
        if lock is None:
            return self._execute_now(sql, (parameters,), False)
        with lock:  # (see _execute)
            return self._execute_now(sql, (parameters,), False)

    def executemany(self, sql, seq_of_parameters, /):
        if not isinstance(sql, str):
            self._check()
            raise TypeError(f"executemany() argument 1 must be str, not {type(sql).__name__}")
        return self._execute(sql, iter(seq_of_parameters), True)

    def _execute(self, sql, parameter_sets, multiple):
        self._check()
        lock = self._connection._serial_lock
        if lock is None:
            return self._execute_now(sql, parameter_sets, multiple)
        # A shared connection: taking a cached statement, binding and the first step are one
        # unit, as under the stdlib's GIL (another thread must not rebind it in between)
        with lock:
            return self._execute_now(sql, parameter_sets, multiple)

    def _execute_now(self, sql, parameter_sets, multiple):
        conn = self._connection
        self._locked = True
        try:
            if self._statement is not None:
                self._release_statement()
            self._description = None
            self._converters = None
            self._rowcount = -1
            statement = conn._prepare(sql)
            if multiple and statement.stmt is None:
                raise ProgrammingError("executemany() can only execute DML statements.")
            if statement.stmt is None:
                return self
            if multiple and statement.readonly and statement.ncols:
                raise ProgrammingError("executemany() can only execute DML statements.")
            if conn._readonly and not statement.readonly:
                raise OperationalError("attempt to write a readonly database",
                                       code=errors.SQLITE_READONLY)
            if statement.is_dml:
                conn._begin_for(statement)
                self._rowcount = 0
            statement.in_use = True
            self._statement = statement
            stmt = statement.stmt
            row = None
            first = True
            for parameters in parameter_sets:
                if not first:
                    stmt.reset()
                first = False
                if type(parameters) is not tuple or parameters or stmt.param_count:
                    values = self._bind(statement, parameters)
                else:  # (no parameters, none given: _bind's first test)
                    values = parameters
                if conn._trace_callback is not None:
                    conn._trace(expand_sql(statement.text, values, statement.param_names()))
                try:
                    row = stmt.step() if conn._progress is None else conn._step(stmt)
                except BaseException:
                    self._rowcount = -1
                    self._statement = None
                    statement.reset()
                    raise
                if self._description is None and statement.ncols:
                    self._set_description(statement)
                if row is None and statement.is_dml:
                    self._rowcount += conn._db.changes
            if not multiple:
                self._lastrowid = conn._db.last_insert_rowid
            if statement.is_ddl:
                self._statement = None
                statement.reset()
                conn._schema_changed()
                statement.finalize()
            elif row is None:
                self._statement = None
                statement.reset()
            else:
                self._next_row = row
                # close() finalizes cached ones itself; a cursor is added once (the set
                # holds it until it is gone)
                if not statement.cached and self._tracked_in is not conn._cursors:
                    conn._cursors.add(self)
                    self._tracked_in = conn._cursors
            return self
        finally:
            self._locked = False

    def _bind(self, statement, parameters):
        """Bind one parameter set; returns the bound values (index 0 is ?1)."""
        stmt = statement.stmt
        needed = stmt.param_count
        kind = type(parameters)
        if not needed and kind is tuple and not parameters:
            return parameters  # (the usual statement without parameters)
        values = []
        if (kind is tuple or kind is list) and not _base_type_adapted:
            if len(parameters) != needed:
                raise ProgrammingError(
                    "Incorrect number of bindings supplied. The current statement uses "
                    f"{needed}, and there are {len(parameters)} supplied."
                )
            # the executemany hot path: plain values bound in one call, else one by one;
            # the values are returned as given unless an adapter changed one
            bind_all = statement.bind_all
            if bind_all is _UNSET:
                bind_all = statement.bind_all = getattr(stmt, "bind_all", None)
            if bind_all is not None and bind_all(parameters):
                if self._connection._limits[0] < self._connection._default_limits[0]:
                    self._check_lengths(parameters)
                return parameters
            bind = stmt.bind
            i = 0
            for value in parameters:
                i += 1
                cls = type(value)
                if cls is int:
                    if not _INT64_MIN <= value <= _INT64_MAX:
                        raise OverflowError("Python int too large to convert to SQLite INTEGER")
                elif cls is str:
                    if not value.isascii():
                        value.encode("utf-8")
                elif cls is not float and value is not None and cls is not bytes:
                    value = _sql_value(value, i)
                    if not values:
                        values = list(parameters)
                    values[i - 1] = value
                bind(i, value)
            if not values:
                values = parameters
            if self._connection._limits[0] < self._connection._default_limits[0]:
                self._check_lengths(values)
            return values
        if kind in (tuple, list) or _is_sequence(parameters):
            supplied = len(parameters)
            if supplied != needed:
                raise ProgrammingError(
                    "Incorrect number of bindings supplied. The current statement uses "
                    f"{needed}, and there are {supplied} supplied."
                )
            for i in range(needed):
                value = _sql_value(parameters[i], i + 1)
                stmt.bind(i + 1, value)
                values.append(value)
        elif isinstance(parameters, dict):
            exact = type(parameters) is dict
            for i, name in enumerate(statement.param_names()):
                if not name:
                    raise ProgrammingError(
                        f"Binding {i + 1} has no name, but you supplied a dictionary "
                        "(which has only names)."
                    )
                key = name[1:]
                try:
                    raw = parameters[key] if not exact else parameters[key]
                except KeyError:
                    raise ProgrammingError(
                        f"You did not supply a value for binding parameter :{key}."
                    ) from None
                value = _sql_value(raw, i + 1)
                stmt.bind(i + 1, value)
                values.append(value)
        else:
            raise ProgrammingError("parameters are of unsupported type")
        if self._connection._limits[0] < self._connection._default_limits[0]:
            self._check_lengths(values)
        return values

    def _check_lengths(self, values):
        limit = self._connection._limits[0]
        for value in values:
            if isinstance(value, (str, bytes)) and len(value) > limit:
                raise DataError("string or blob too big", code=errors.SQLITE_TOOBIG)

    def _set_description(self, statement):
        conn = self._connection
        names = statement.stmt.column_names
        if names != statement.names:  # (recompiled: the schema changed, a ROLLBACK of DDL)
            statement.names = list(names)
            statement.ncols = len(names)
            statement.description = None
        names = statement.names
        detect = conn._detect_types
        if not detect:
            self._description = statement.plain_description()
            self._converters = None
            return
        described = []
        convs = []
        decltypes = None
        for i, name in enumerate(names):
            converter = None
            if detect & PARSE_COLNAMES:
                start = name.find("[")
                if start != -1:
                    end = name.find("]", start)
                    if end != -1:
                        converter = converters.get(name[start + 1:end].upper())
                    cut = start - 1 if start > 0 and name[start - 1] == " " else start
                    name = name[:cut]
            if converter is None and detect & PARSE_DECLTYPES:
                if decltypes is None:
                    decltypes = list(getattr(statement.stmt, "column_decltypes", []) or [])
                decl = decltypes[i] if i < len(decltypes) else None
                if decl:
                    key = decl.split(" ", 1)[0].split("(", 1)[0]
                    converter = converters.get(key.upper())
            described.append((name, None, None, None, None, None, None))
            convs.append(converter)
        self._description = tuple(described)
        self._converters = convs if any(c is not None for c in convs) else None

    def executescript(self, sql_script, /):
        self._check()
        if not isinstance(sql_script, str):
            raise TypeError(
                f"executescript() argument must be str, not {type(sql_script).__name__}"
            )
        if "\0" in sql_script:
            raise ValueError("embedded null character")
        conn = self._connection
        if len(sql_script.encode("utf-8")) > conn._limits[1]:
            raise DataError("query string is too large")
        self._locked = True
        try:
            self._release_statement()
            if conn._autocommit == LEGACY_TRANSACTION_CONTROL and not conn._db.autocommit:
                conn._exec_internal("COMMIT")
            db = conn._db
            position = 0
            ddl = False
            while True:
                stmt, tail = db.prepare(sql_script, position)
                if stmt is None:
                    break
                try:
                    if conn._readonly and not getattr(stmt, "readonly", True):
                        raise OperationalError("attempt to write a readonly database",
                                               code=errors.SQLITE_READONLY)
                    conn._trace(sql_script[position:tail])
                    while conn._step(stmt) is not None:
                        pass
                finally:
                    stmt.finalize()
                ddl = ddl or first_keyword(sql_script[position:tail]) in _DDL_KEYWORDS
                position = tail
            if ddl:
                conn._schema_changed()
            return self
        finally:
            self._locked = False

    # -- fetching ----------------------------------------------------------------------

    def _make_row(self, values):
        conn = self._connection
        text_factory = conn.text_factory
        convs = self._converters
        if convs is not None or text_factory is not str:
            out = []
            for i, value in enumerate(values):
                converter = convs[i] if convs is not None else None
                if converter is not None and value is not None:
                    value = converter(value_to_bytes(value))
                elif isinstance(value, str) and text_factory is not str:
                    data = text_bytes(value)
                    value = data if text_factory is bytes else text_factory(data)
                out.append(value)
            values = tuple(out)
        factory = self.row_factory
        if factory is not None:
            return factory(self, values)
        return values

    def _advance(self):
        """Return the pending row (converted) and step the engine to the next."""
        values = self._next_row
        statement = self._statement
        row = self._make_row(values)
        conn = self._connection
        try:
            nxt = statement.stmt.step() if conn._progress is None else conn._step(statement.stmt)
        except BaseException:
            self._next_row = None
            self._statement = None
            statement.reset()
            raise
        if nxt is None:
            if statement.is_dml:
                self._rowcount = self._connection._db.changes
            self._next_row = None
            self._statement = None
            statement.reset()
        else:
            self._next_row = nxt
        return row

    def fetchone(self):
        self._check()
        if self._next_row is None:
            return None
        self._locked = True
        try:
            return self._advance()
        finally:
            self._locked = False

    def fetchmany(self, size=None):
        self._check()
        if size is None:
            size = self._arraysize
        rows = []
        self._locked = True
        try:  # as the stdlib: stop when ``size`` rows are in (never, for size <= 0)
            while self._next_row is not None:
                rows.append(self._advance())
                if len(rows) == size:
                    break
        finally:
            self._locked = False
        return rows

    def fetchall(self):
        self._check()
        rows = []
        self._locked = True
        try:
            conn = self._connection
            if (self._converters is None and conn.text_factory is str
                    and self.row_factory is None and conn._progress is None
                    and self._next_row is not None):
                # Plain rows: the engine's tuples are the result, step after step.
                statement = self._statement
                stmt = statement.stmt
                append = rows.append
                append(self._next_row)
                try:
                    step_rows = getattr(stmt, "step_rows", None)  # (optional in the contract)
                    if step_rows is not None:
                        step_rows(append)
                    else:
                        row = stmt.step()
                        while row is not None:
                            append(row)
                            row = stmt.step()
                except BaseException:
                    self._next_row = None
                    self._statement = None
                    statement.reset()
                    raise
                if statement.is_dml:
                    self._rowcount = conn._db.changes
                self._next_row = None
                self._statement = None
                statement.reset()
                return rows
            while self._next_row is not None:
                rows.append(self._advance())
        finally:
            self._locked = False
        return rows

    def __iter__(self):
        return self

    def __next__(self):
        row = self.fetchone()
        if row is None:
            raise StopIteration
        return row


def connect(database, timeout=5.0, detect_types=0, isolation_level="", check_same_thread=True,
            factory=Connection, cached_statements=128, uri=False, *,
            autocommit=LEGACY_TRANSACTION_CONTROL):
    """Open a connection to the database file ``database`` (":memory:" for RAM)."""
    kwargs = dict(timeout=timeout, detect_types=detect_types, isolation_level=isolation_level,
                  check_same_thread=check_same_thread, cached_statements=cached_statements,
                  uri=uri)
    if autocommit is not LEGACY_TRANSACTION_CONTROL:
        kwargs["autocommit"] = autocommit
    if factory is None:
        factory = Connection
    return factory(database, **kwargs)
