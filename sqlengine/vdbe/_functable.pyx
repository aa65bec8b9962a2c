# cython: language_level=3
"""The connection's function table: where the compiler looks up each function call.

``FunctionTable`` holds the connection's ``functions.FunctionRegistry`` (built-ins + user
functions) and hands out the P4 callables of functions_bridge.py: a ``ScalarCall`` for
OP_Function, an ``AggCall`` for OP_AggStep/AggFinal, a compiled ``PatternCall`` for the
built-in like() and glob(), and answers ``is_aggregate``. The call objects hold no state
of their own, so one per name (as written) and argument count is made and handed out
again, as are the ``is_aggregate`` answers, until a function is created or removed (a
like()/glob() keeps its compiled pattern: one per use).

Every function call of every statement compiled is looked up here, so the class is
compiled and declared in _functable.pxd: the expression coder (_codegen.pyx) calls
``scalar`` and ``is_aggregate`` as C calls. This module never touches storage or SQL text.
"""

from sqlengine.vdbe.func_pattern import PatternCall
from sqlengine.vdbe.functions import BUILTINS, FunctionRegistry, f_glob, f_like, find_function
from sqlengine.vdbe.functions_bridge import AggCall, DbContext, ScalarCall

cdef Py_ssize_t MAX_CALLS = 1024  # (names as written: the remembered calls are bounded)


cdef class FunctionTable:
    """The connection's functions (``db.functions``)."""

    def __init__(self, db):
        self.db = db
        self.reg = FunctionRegistry(BUILTINS)
        self.ctx = DbContext(db)
        self._calls = {}  # (name, nargs, kind) -> ScalarCall / AggCall / is_aggregate

    cdef object _find(self, name, int nargs):
        # (a built-in variadic's minimum count too: min() is no call of the scalar min)
        return find_function(name, nargs, self.reg)

    cdef object _remember(self, tuple key, value):
        if len(self._calls) >= MAX_CALLS:
            self._calls.clear()
        self._calls[key] = value
        return value

    cpdef scalar(self, name, int nargs):
        """The OP_Function callable of ``name(<nargs arguments>)``, None when no scalar
        function takes that call."""
        key = (name, nargs, "s")
        hit = self._calls.get(key)
        if hit is not None:
            return hit
        f = self._find(name, nargs)
        if f is None or f.kind != "scalar":
            return None
        if f.func is f_like or f.func is f_glob:  # the built-ins, not a user override
            return PatternCall(f, self.ctx, f.func is f_glob, getattr(self.db, "__dict__", None))
        return self._remember(key, ScalarCall(f, self.ctx))

    cpdef aggregate(self, name, int nargs):
        """The OP_AggStep/AggFinal callable of ``name(<nargs arguments>)``, None when no
        aggregate takes that call."""
        key = (name, nargs, "a")
        hit = self._calls.get(key)
        if hit is not None:
            return hit
        f = self._find(name, nargs)
        if f is None or f.kind == "scalar":
            return None
        return self._remember(key, AggCall(f, self.ctx))

    cpdef bint is_aggregate(self, name, int nargs) except -1:
        """Whether ``name(<nargs arguments>)`` calls an aggregate function."""
        key = (name, nargs, "?")
        hit = self._calls.get(key)
        if hit is None:
            f = self._find(name, nargs)
            hit = self._remember(key, f is not None and f.kind == "aggregate")
        return hit

    def exists(self, name):
        return self.reg.exists(name)

    def names(self):
        """The lower-case names of every function, built-in or created."""
        return self.reg.names()

    def create_function(self, name, nargs, func, deterministic=False):
        self.reg.register_user_function(name, nargs, func, deterministic)
        self._calls.clear()

    def create_aggregate(self, name, nargs, factory):
        self.reg.register_user_aggregate(name, nargs, factory)
        self._calls.clear()
