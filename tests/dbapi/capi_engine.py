"""A stand-in for ``sqlengine.database.Database`` built on the system's libsqlite3 (ctypes).

It implements the ``database.py`` contract over SQLite's own C API, so the DB-API layer's
logic (binding rules, transactions, row factories, converters, callbacks) can be tested
against the stdlib module independently of how far the engine has got: the suite runs
every test on ``sqlite3``, on ``sqlengine`` over this stand-in ("sqlengine-capi") and on
``sqlengine`` over the real engine where the engine supports what the test needs. Test
code only; never imported by the package.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import itertools

from sqlengine import errors

_lib = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
_p = ctypes.c_void_p
_i64 = ctypes.c_int64
_DESTRUCTOR = ctypes.CFUNCTYPE(None, _p)
_TRANSIENT = _p(-1)

_FUNC = ctypes.CFUNCTYPE(None, _p, ctypes.c_int, ctypes.POINTER(_p))
_FINAL = ctypes.CFUNCTYPE(None, _p)
_COLL = ctypes.CFUNCTYPE(ctypes.c_int, _p, ctypes.c_int, _p, ctypes.c_int, _p)
_PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, _p)
_AUTH = ctypes.CFUNCTYPE(ctypes.c_int, _p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p,
                         ctypes.c_char_p, ctypes.c_char_p)


def _sig(name, restype, *argtypes):
    fn = getattr(_lib, name)
    fn.restype = restype
    fn.argtypes = argtypes
    return fn


open_v2 = _sig("sqlite3_open_v2", ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(_p), ctypes.c_int, _p)
close_v2 = _sig("sqlite3_close_v2", ctypes.c_int, _p)
errmsg = _sig("sqlite3_errmsg", ctypes.c_char_p, _p)
extended_errcode = _sig("sqlite3_extended_errcode", ctypes.c_int, _p)
busy_timeout = _sig("sqlite3_busy_timeout", ctypes.c_int, _p, ctypes.c_int)
prepare_v2 = _sig("sqlite3_prepare_v2", ctypes.c_int, _p, ctypes.c_char_p, ctypes.c_int,
                  ctypes.POINTER(_p), ctypes.POINTER(_p))
step = _sig("sqlite3_step", ctypes.c_int, _p)
reset = _sig("sqlite3_reset", ctypes.c_int, _p)
finalize = _sig("sqlite3_finalize", ctypes.c_int, _p)
clear_bindings = _sig("sqlite3_clear_bindings", ctypes.c_int, _p)
column_count = _sig("sqlite3_column_count", ctypes.c_int, _p)
column_name = _sig("sqlite3_column_name", ctypes.c_char_p, _p, ctypes.c_int)
column_decltype = _sig("sqlite3_column_decltype", ctypes.c_char_p, _p, ctypes.c_int)
column_type = _sig("sqlite3_column_type", ctypes.c_int, _p, ctypes.c_int)
column_int64 = _sig("sqlite3_column_int64", _i64, _p, ctypes.c_int)
column_double = _sig("sqlite3_column_double", ctypes.c_double, _p, ctypes.c_int)
column_blob = _sig("sqlite3_column_blob", _p, _p, ctypes.c_int)
column_text = _sig("sqlite3_column_text", _p, _p, ctypes.c_int)
column_bytes = _sig("sqlite3_column_bytes", ctypes.c_int, _p, ctypes.c_int)
bind_count = _sig("sqlite3_bind_parameter_count", ctypes.c_int, _p)
bind_name = _sig("sqlite3_bind_parameter_name", ctypes.c_char_p, _p, ctypes.c_int)
bind_null = _sig("sqlite3_bind_null", ctypes.c_int, _p, ctypes.c_int)
bind_int64 = _sig("sqlite3_bind_int64", ctypes.c_int, _p, ctypes.c_int, _i64)
bind_double = _sig("sqlite3_bind_double", ctypes.c_int, _p, ctypes.c_int, ctypes.c_double)
bind_text = _sig("sqlite3_bind_text", ctypes.c_int, _p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, _p)
bind_blob = _sig("sqlite3_bind_blob", ctypes.c_int, _p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, _p)
stmt_readonly = _sig("sqlite3_stmt_readonly", ctypes.c_int, _p)
stmt_isexplain = _sig("sqlite3_stmt_isexplain", ctypes.c_int, _p)
get_autocommit = _sig("sqlite3_get_autocommit", ctypes.c_int, _p)
changes = _sig("sqlite3_changes", ctypes.c_int, _p)
total_changes = _sig("sqlite3_total_changes", ctypes.c_int, _p)
last_insert_rowid = _sig("sqlite3_last_insert_rowid", _i64, _p)
interrupt = _sig("sqlite3_interrupt", None, _p)
create_function_v2 = _sig("sqlite3_create_function_v2", ctypes.c_int, _p, ctypes.c_char_p,
                          ctypes.c_int, ctypes.c_int, _p, _FUNC, _FUNC, _FINAL, _p)
create_window_function = _sig("sqlite3_create_window_function", ctypes.c_int, _p,
                              ctypes.c_char_p, ctypes.c_int, ctypes.c_int, _p, _FUNC, _FINAL,
                              _FINAL, _FUNC, _p)
create_collation_v2 = _sig("sqlite3_create_collation_v2", ctypes.c_int, _p, ctypes.c_char_p,
                           ctypes.c_int, _p, _COLL, _p)
progress_handler = _sig("sqlite3_progress_handler", None, _p, ctypes.c_int, _PROGRESS, _p)
set_authorizer = _sig("sqlite3_set_authorizer", ctypes.c_int, _p, _AUTH, _p)
value_type = _sig("sqlite3_value_type", ctypes.c_int, _p)
value_int64 = _sig("sqlite3_value_int64", _i64, _p)
value_double = _sig("sqlite3_value_double", ctypes.c_double, _p)
value_blob = _sig("sqlite3_value_blob", _p, _p)
value_text = _sig("sqlite3_value_text", _p, _p)
value_bytes = _sig("sqlite3_value_bytes", ctypes.c_int, _p)
result_null = _sig("sqlite3_result_null", None, _p)
result_int64 = _sig("sqlite3_result_int64", None, _p, _i64)
result_double = _sig("sqlite3_result_double", None, _p, ctypes.c_double)
result_text = _sig("sqlite3_result_text", None, _p, ctypes.c_char_p, ctypes.c_int, _p)
result_blob = _sig("sqlite3_result_blob", None, _p, ctypes.c_char_p, ctypes.c_int, _p)
result_error = _sig("sqlite3_result_error", None, _p, ctypes.c_char_p, ctypes.c_int)
result_error_code = _sig("sqlite3_result_error_code", None, _p, ctypes.c_int)
aggregate_context = _sig("sqlite3_aggregate_context", _p, _p, ctypes.c_int)

backup_init = _sig("sqlite3_backup_init", _p, _p, ctypes.c_char_p, _p, ctypes.c_char_p)
backup_step = _sig("sqlite3_backup_step", ctypes.c_int, _p, ctypes.c_int)
backup_remaining = _sig("sqlite3_backup_remaining", ctypes.c_int, _p)
backup_pagecount = _sig("sqlite3_backup_pagecount", ctypes.c_int, _p)
backup_finish = _sig("sqlite3_backup_finish", ctypes.c_int, _p)
serialize = _sig("sqlite3_serialize", _p, _p, ctypes.c_char_p, ctypes.POINTER(_i64),
                 ctypes.c_uint)
deserialize = _sig("sqlite3_deserialize", ctypes.c_int, _p, ctypes.c_char_p, _p, _i64, _i64,
                   ctypes.c_uint)
blob_open_ = _sig("sqlite3_blob_open", ctypes.c_int, _p, ctypes.c_char_p, ctypes.c_char_p,
                   ctypes.c_char_p, _i64, ctypes.c_int, ctypes.POINTER(_p))
blob_bytes = _sig("sqlite3_blob_bytes", ctypes.c_int, _p)
blob_read = _sig("sqlite3_blob_read", ctypes.c_int, _p, ctypes.c_char_p, ctypes.c_int,
                 ctypes.c_int)
blob_write = _sig("sqlite3_blob_write", ctypes.c_int, _p, ctypes.c_char_p, ctypes.c_int,
                  ctypes.c_int)
blob_close = _sig("sqlite3_blob_close", ctypes.c_int, _p)
malloc64 = _sig("sqlite3_malloc64", _p, ctypes.c_uint64)
free = _sig("sqlite3_free", None, _p)

SQLITE_UTF8 = 1
SQLITE_DETERMINISTIC = 0x800


def _column(st, i):
    kind = column_type(st, i)
    if kind == 1:
        return column_int64(st, i)
    if kind == 2:
        return column_double(st, i)
    if kind == 5:
        return None
    if kind == 3:
        ptr = column_text(st, i)
        return ctypes.string_at(ptr, column_bytes(st, i)).decode("utf-8", "replace")
    ptr = column_blob(st, i)
    n = column_bytes(st, i)
    return ctypes.string_at(ptr, n) if n else b""


def _value(v):
    kind = value_type(v)
    if kind == 1:
        return value_int64(v)
    if kind == 2:
        return value_double(v)
    if kind == 5:
        return None
    if kind == 3:
        return ctypes.string_at(value_text(v), value_bytes(v)).decode("utf-8", "replace")
    n = value_bytes(v)
    return ctypes.string_at(value_blob(v), n) if n else b""


def _set_result(ctx, value):
    if value is None:
        result_null(ctx)
    elif isinstance(value, int):
        result_int64(ctx, value)
    elif isinstance(value, float):
        result_double(ctx, value)
    elif isinstance(value, str):
        data = value.encode("utf-8")
        result_text(ctx, data, len(data), _TRANSIENT)
    else:
        result_blob(ctx, value, len(value), _TRANSIENT)


def _set_error(ctx, exc):
    if isinstance(exc, errors.Error):
        msg = str(exc).encode("utf-8")
        result_error(ctx, msg, len(msg))
        if exc.sqlite_errorcode != errors.SQLITE_ERROR:
            result_error_code(ctx, exc.sqlite_errorcode)
    else:
        msg = str(exc).encode("utf-8")
        result_error(ctx, msg, len(msg))


class Statement:
    def __init__(self, db, handle):
        self._db = db
        self._h = handle
        n = column_count(handle)
        self.column_names = [column_name(handle, i).decode("utf-8") for i in range(n)]
        self.column_decltypes = [
            (lambda d: d.decode("utf-8") if d else None)(column_decltype(handle, i))
            for i in range(n)
        ]
        self.param_count = bind_count(handle)
        self.param_names = [
            (lambda b: b.decode("utf-8") if b else None)(bind_name(handle, i + 1))
            for i in range(self.param_count)
        ]
        self.readonly = bool(stmt_readonly(handle))
        self.is_explain = stmt_isexplain(handle)
        self._ncols = n

    def bind(self, index, value):
        h = self._h
        if value is None:
            rc = bind_null(h, index)
        elif isinstance(value, int):
            rc = bind_int64(h, index, value)
        elif isinstance(value, float):
            rc = bind_double(h, index, value)
        elif isinstance(value, str):
            data = value.encode("utf-8")
            rc = bind_text(h, index, data, len(data), _TRANSIENT)
        else:
            rc = bind_blob(h, index, bytes(value), len(value), _TRANSIENT)
        if rc:
            self._db._raise(rc)

    def clear_bindings(self):
        clear_bindings(self._h)

    def step(self):
        db = self._db
        db._pending = None
        rc = step(self._h)
        if db._pending is not None and rc in (100, 101):  # a collation raised
            reset(self._h)
            exc, db._pending = db._pending, None
            raise exc
        if rc == 100:
            h = self._h
            return tuple(_column(h, i) for i in range(self._ncols))
        if rc == 101:
            return None
        reset(self._h)
        if db._pending is not None:
            exc, db._pending = db._pending, None
            raise exc
        db._raise(rc)

    def reset(self):
        reset(self._h)

    def finalize(self):
        if self._h:
            finalize(self._h)
            self._h = None


class _Blob:
    """sqlite3_blob over ctypes: the handle dbapi_pages.blob_open returns."""

    def __init__(self, db, handle):
        self.db = db
        self.handle = handle
        self.length = blob_bytes(handle)

    def read(self):
        buf = ctypes.create_string_buffer(self.length)
        rc = blob_read(self.handle, buf, self.length, 0)
        if rc:
            self.db._raise(rc)
        return buf.raw[:self.length]

    def write(self, value):
        rc = blob_write(self.handle, value, len(value), 0)
        if rc:
            self.db._raise(rc)

    def close(self):
        if self.handle:
            blob_close(self.handle)
            self.handle = None


class Database:
    def __init__(self, path, timeout=5.0, vfs=None):
        handle = _p()
        rc = open_v2(path.encode("utf-8"), ctypes.byref(handle), 0x06 | 0x40, None)
        self._h = handle
        self._keep = {}
        self._pending = None
        if rc:
            msg = errmsg(handle).decode()
            close_v2(handle)
            raise errors.error_for_code(rc, msg)
        busy_timeout(handle, int(timeout * 1000))

    def _raise(self, rc):
        code = extended_errcode(self._h)
        raise errors.error_for_code(code, errmsg(self._h).decode("utf-8"))

    # -- page-level operations (optional part of the contract, see dbapi_pages.py) ------------
    def backup_pages(self, target, name, pages, progress):
        pages = pages if pages > 0 else -1  # as the stdlib: 0 copies everything at once
        handle = backup_init(target._h, b"main", self._h, name.encode("utf-8"))
        if not handle:
            target._raise(1)
        try:
            while True:
                rc = backup_step(handle, pages)
                if progress is not None and rc in (0, 101):
                    progress(rc, backup_remaining(handle), backup_pagecount(handle))
                if rc == 101:
                    break
                if rc in (5, 6):
                    continue
                if rc:
                    target._raise(rc)
        finally:
            backup_finish(handle)

    def blob_open(self, name, table, column, rowid, writable):
        handle = _p()
        rc = blob_open_(self._h, name.encode("utf-8"), table.encode("utf-8"),
                        column.encode("utf-8"), rowid, int(writable), ctypes.byref(handle))
        if rc:
            self._raise(rc)
        return _Blob(self, handle)

    def serialize_pages(self, name):
        size = _i64()
        ptr = serialize(self._h, name.encode("utf-8"), ctypes.byref(size), 0)
        if not ptr:
            raise errors.OperationalError(f"unable to serialize '{name}'")
        try:
            return ctypes.string_at(ptr, size.value)
        finally:
            free(ptr)

    def deserialize_pages(self, data, name):
        buf = malloc64(max(len(data), 1))
        ctypes.memmove(buf, data, len(data))
        rc = deserialize(self._h, name.encode("utf-8"), buf, len(data), len(data), 1 | 2)
        if rc:
            self._raise(rc)

    def prepare(self, sql, start=0):
        data = sql[start:].encode("utf-8")
        buf = ctypes.create_string_buffer(data)
        base = ctypes.addressof(buf)
        pos = 0
        while True:
            st = _p()
            tail = _p()
            rc = prepare_v2(self._h, ctypes.c_char_p(base + pos), len(data) - pos + 1,
                            ctypes.byref(st), ctypes.byref(tail))
            if rc:
                self._raise(rc)
            new_pos = (tail.value or base + len(data)) - base
            if st.value:
                char_tail = start + len(data[:new_pos].decode("utf-8"))
                return Statement(self, st), char_tail
            if new_pos >= len(data) or new_pos == pos:
                return None, len(sql)
            pos = new_pos

    @property
    def autocommit(self):
        return bool(get_autocommit(self._h))

    @property
    def changes(self):
        return changes(self._h)

    @property
    def total_changes(self):
        return total_changes(self._h)

    @property
    def last_insert_rowid(self):
        return last_insert_rowid(self._h)

    def _guard(self, ctx, fn, *args):
        try:
            return fn(*args)
        except errors.Error as exc:
            _set_error(ctx, exc)
        except BaseException as exc:  # leave it for step() to re-raise, as the stdlib does
            self._pending = exc
            _set_error(ctx, exc)
        return _NO_RESULT

    def function_names(self):
        """The names ``PRAGMA function_list`` gives (what the shell completes)."""
        st, _ = self.prepare("SELECT DISTINCT name FROM pragma_function_list")
        try:
            names = set()
            while (row := st.step()) is not None:
                names.add(row[0])
            return names
        finally:
            st.finalize()

    def create_function(self, name, nargs, func, deterministic=False):
        flags = SQLITE_UTF8 | (SQLITE_DETERMINISTIC if deterministic else 0)
        if func is None:
            cb = _FUNC()
        else:
            def cb_py(ctx, argc, argv):
                args = [_value(argv[i]) for i in range(argc)]
                result = self._guard(ctx, func, *args)
                if result is not _NO_RESULT:
                    _set_result(ctx, result)
            cb = _FUNC(cb_py)
        self._keep[("f", name.lower(), nargs)] = cb
        rc = create_function_v2(self._h, name.encode(), nargs, flags, None, cb, _FUNC(), _FINAL(), None)
        if rc:
            raise errors.OperationalError("Error creating function")

    def _agg_callbacks(self, factory):
        instances = {}

        def instance(ctx, create=True):
            slot = aggregate_context(ctx, 8 if create else 0)
            if not slot:
                return None
            key = ctypes.cast(slot, ctypes.POINTER(_i64))
            if key[0] == 0:
                if not create:
                    return None
                key[0] = next(_ids)
                instances[key[0]] = factory()
            return key[0]

        def step_py(ctx, argc, argv):
            k = instance(ctx)
            args = [_value(argv[i]) for i in range(argc)]
            self._guard(ctx, instances[k].step, *args)

        def inverse_py(ctx, argc, argv):
            k = instance(ctx)
            args = [_value(argv[i]) for i in range(argc)]
            self._guard(ctx, instances[k].inverse, *args)

        def final_py(ctx):
            k = instance(ctx, create=True)
            obj = instances.pop(k)
            result = self._guard(ctx, obj.finalize)
            if result is not _NO_RESULT:
                _set_result(ctx, result)

        def value_py(ctx):
            k = instance(ctx)
            result = self._guard(ctx, instances[k].value)
            if result is not _NO_RESULT:
                _set_result(ctx, result)

        return _FUNC(step_py), _FINAL(final_py), _FINAL(value_py), _FUNC(inverse_py)

    def create_aggregate(self, name, nargs, factory):
        if factory is None:
            cbs = (_FUNC(), _FINAL())
            rc = create_function_v2(self._h, name.encode(), nargs, SQLITE_UTF8, None, _FUNC(),
                                    _FUNC(), _FINAL(), None)
        else:
            step_cb, final_cb, _, _ = cbs = self._agg_callbacks(factory)
            rc = create_function_v2(self._h, name.encode(), nargs, SQLITE_UTF8, None, _FUNC(),
                                    step_cb, final_cb, None)
        self._keep[("a", name.lower(), nargs)] = cbs
        if rc:
            raise errors.OperationalError("Error creating aggregate")

    def create_window_function(self, name, nargs, factory):
        if factory is None:
            cbs = (_FUNC(), _FINAL(), _FINAL(), _FUNC())
        else:
            cbs = self._agg_callbacks(factory)
        self._keep[("w", name.lower(), nargs)] = cbs
        step_cb, final_cb, value_cb, inverse_cb = cbs
        rc = create_window_function(self._h, name.encode(), nargs, SQLITE_UTF8, None, step_cb,
                                    final_cb, value_cb, inverse_cb, None)
        if rc:
            raise errors.ProgrammingError("Error creating window function")

    def create_collation(self, name, func):
        if func is None:
            cb = _COLL()
        else:
            def cb_py(_, n1, p1, n2, p2):
                a = ctypes.string_at(p1, n1).decode("utf-8", "replace")
                b = ctypes.string_at(p2, n2).decode("utf-8", "replace")
                try:
                    return func(a, b)
                except BaseException as exc:
                    self._pending = exc
                    return 0
            cb = _COLL(cb_py)
        self._keep[("c", name.lower())] = cb
        create_collation_v2(self._h, name.encode(), SQLITE_UTF8, None, cb, None)

    def set_progress_handler(self, func, n):
        cb = _PROGRESS() if func is None else _PROGRESS(lambda _: int(bool(func())))
        self._keep["progress"] = cb
        progress_handler(self._h, n, cb, None)

    def set_authorizer(self, func):
        if func is None:
            cb = _AUTH()
        else:
            def cb_py(_, action, a1, a2, a3, a4):
                dec = [x.decode("utf-8") if x is not None else None for x in (a1, a2, a3, a4)]
                return func(action, *dec)
            cb = _AUTH(cb_py)
        self._keep["auth"] = cb
        set_authorizer(self._h, cb, None)

    def interrupt(self):
        interrupt(self._h)

    def close(self):
        if self._h:
            close_v2(self._h)
            self._h = None


_NO_RESULT = object()
_ids = itertools.count(1)
