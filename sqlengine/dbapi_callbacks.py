"""Wrappers that put the stdlib sqlite3 module's rules around user callbacks.

A Python function registered through the DB-API (scalar, aggregate, window, collation,
authorizer, progress handler) is handed to the engine wrapped, so that its exceptions
become the stdlib's messages ("user-defined function raised exception") and its results
are checked as the stdlib checks them. The engine only ever sees clean callables that
return engine values or raise ``sqlengine.errors`` classes. No engine imports here.
"""

from __future__ import annotations

from sqlengine import errors
from sqlengine.errors import DataError, OperationalError

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1


def _report():
    from sqlengine.dbapi import _report_callback_error

    _report_callback_error()


class _BadResult(Exception):
    pass


def result_value(value):
    """A callback result as an engine value; _BadResult for a type SQLite cannot hold."""
    if value is None:
        return None
    if isinstance(value, float):
        return float(value)
    if isinstance(value, int):
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise DataError("string or blob too big", code=errors.SQLITE_TOOBIG)
        return int(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise _BadResult(type(value).__name__)


def _plain(args):
    """The arguments with text carrying a subtype (the engine's JSON text, a ``str``
    subclass) handed over as plain ``str``, as the stdlib does."""
    for a in args:
        if type(a) is not str and isinstance(a, str):
            return tuple(str(x) if isinstance(x, str) else x for x in args)
    return args


def wrap_scalar(func):
    """A scalar function: exceptions and bad results become the stdlib's error."""

    def call(*args):
        try:
            result = func(*_plain(args))
        except Exception:
            _report()
            raise OperationalError("user-defined function raised exception") from None
        try:
            return result_value(result)
        except _BadResult:
            raise OperationalError("user-defined function raised exception") from None

    call.__name__ = getattr(func, "__name__", "function")
    return call


class _Aggregate:
    """One aggregate (or window) instance, created lazily at the first step as the stdlib."""

    __slots__ = ("_cls", "_obj", "_failed")

    def __init__(self, cls):
        self._cls = cls
        self._obj = None
        self._failed = False

    def _instance(self):
        if self._obj is None and not self._failed:
            try:
                self._obj = self._cls()
            except Exception:
                self._failed = True
                _report()
        if self._failed:
            raise OperationalError("user-defined aggregate's '__init__' method raised error")
        return self._obj

    def _call(self, method_name, args):
        method = getattr(self._instance(), method_name, None)
        if method is None:
            raise OperationalError(f"user-defined aggregate's '{method_name}' method not defined")
        try:
            return method(*_plain(args))
        except Exception:
            _report()
            raise OperationalError(
                f"user-defined aggregate's '{method_name}' method raised error"
            ) from None

    def step(self, *args):
        self._call("step", args)

    def inverse(self, *args):
        self._call("inverse", args)

    def _result(self, method_name):
        if self._obj is None and not self._failed:
            return None  # no row reached step(): the stdlib returns NULL without a call
        result = self._call(method_name, ())
        try:
            return result_value(result)
        except _BadResult:
            raise OperationalError(
                f"user-defined aggregate's '{method_name}' method raised error"
            ) from None

    def value(self):
        return self._result("value")

    def finalize(self):
        return self._result("finalize")


def wrap_aggregate(cls, window):
    """A factory the engine calls once per group (or window partition). Its ``window``
    attribute says whether the class came from ``create_window_function``: SQLite refuses
    an OVER clause on an aggregate registered without xValue/xInverse."""

    def factory():
        return _Aggregate(cls)

    factory.window = bool(window)
    return factory


def wrap_collation(func):
    """A collation: its result's sign orders the strings; a non-integer counts as equal."""

    def compare(left, right):
        if type(left) is not str or type(right) is not str:
            left, right = _plain((left, right))
        result = func(left, right)
        try:
            result = int(result.__index__())
        except (AttributeError, TypeError):
            return 0
        return (result > 0) - (result < 0)

    return compare


def wrap_authorizer(func):
    """An authorizer: its result must be SQLITE_OK, SQLITE_DENY or SQLITE_IGNORE."""

    def authorize(action, arg1, arg2, dbname, source):
        try:
            result = func(action, arg1, arg2, dbname, source)
        except Exception:
            _report()
            return 1  # SQLITE_DENY
        if isinstance(result, int) and result in (0, 1, 2):
            return int(result)
        return 1

    return authorize


def wrap_progress(func):
    """A progress handler: a true result (or an exception) interrupts the statement."""

    def progress():
        try:
            return bool(func())
        except Exception:
            _report()
            return True

    return progress
