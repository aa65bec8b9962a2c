"""A connection shared between threads (``check_same_thread=False``): every call into the
engine is serialized by one lock per connection, as SQLite's serialized threading mode
does with its database mutex, which is why the module reports ``threadsafety = 3`` as the
stdlib does.

Only connections opened with ``check_same_thread=False`` are wrapped: the others are
confined to their thread and pay nothing. ``interrupt()`` never takes the lock (it must
reach a statement running in another thread). This module never looks inside the engine;
it only forwards calls.
"""

from __future__ import annotations

import threading


class SerializedDatabase:
    """The engine's Database behind a re-entrant lock (user callbacks may call back)."""

    def __init__(self, db):
        object.__setattr__(self, "_db", db)
        object.__setattr__(self, "_lock", threading.RLock())

    def __getattr__(self, name):
        value = getattr(self._db, name)
        if name == "interrupt" or not callable(value) or isinstance(value, type):
            return value
        lock = self._lock

        def locked(*args, **kwargs):
            with lock:
                return value(*args, **kwargs)

        return locked

    def __setattr__(self, name, value):
        setattr(self._db, name, value)

    def prepare(self, sql, start=0):
        with self._lock:
            stmt, tail = self._db.prepare(sql, start)
        if stmt is None:
            return None, tail
        return SerializedStatement(stmt, self._lock), tail


class SerializedStatement:
    """A prepared statement whose engine calls hold the connection's lock."""

    __slots__ = ("_stmt", "_lock")

    def __init__(self, stmt, lock):
        object.__setattr__(self, "_stmt", stmt)
        object.__setattr__(self, "_lock", lock)

    def __getattr__(self, name):
        return getattr(self._stmt, name)

    def __setattr__(self, name, value):
        setattr(self._stmt, name, value)

    def step(self):
        with self._lock:
            return self._stmt.step()

    def step_rows(self, append):
        row = self.step()
        while row is not None:
            append(row)
            row = self.step()

    def bind(self, index, value):
        with self._lock:
            self._stmt.bind(index, value)

    def bind_all(self, values):
        bind_all = getattr(self._stmt, "bind_all", None)  # (optional in the contract)
        if bind_all is None:
            return False
        with self._lock:
            return bind_all(values)

    def clear_bindings(self):
        with self._lock:
            self._stmt.clear_bindings()

    def reset(self):
        with self._lock:
            self._stmt.reset()

    def finalize(self):
        with self._lock:
            self._stmt.finalize()
