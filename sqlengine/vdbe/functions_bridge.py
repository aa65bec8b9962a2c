"""The connection's function table as the compiler and the VM use it.

Wraps ``functions.FunctionRegistry`` (built-ins + user functions) into the two callables
the VM's opcodes take as P4: a ``ScalarCall`` (``call(vm, args)`` for OP_Function) and an
``AggCall`` (``new()``, ``step(state, args)``, ``final(state)`` for OP_AggStep/AggFinal),
with the built-in like() and glob() as a compiled ``PatternCall`` (same interface; it keeps
its compiled pattern between rows), and supplies the function context (last_insert_rowid, changes, the statement's 'now',
random bytes, the call's collation). This module never touches storage or SQL text.
"""

from __future__ import annotations

from sqlengine.vdbe.func_pattern import PatternCall
from sqlengine.vdbe.functions import (BUILTINS, FunctionContext, FunctionRegistry, f_glob, f_like,
                                      find_function)


class DbContext(FunctionContext):
    """The function context of one connection."""

    def __init__(self, db):
        super().__init__()
        self.db = db

    @property
    def last_insert_rowid(self):
        return self.db.last_insert_rowid

    @property
    def changes(self):
        return self.db.changes

    @property
    def total_changes(self):
        return self.db.total_changes

    @property
    def case_sensitive_like(self):
        flags = getattr(self.db, "__dict__", None)
        if flags is not None:
            return flags.get("case_sensitive_like", False)
        return getattr(self.db, "case_sensitive_like", False)


class ScalarCall:
    __slots__ = ("fdef", "ctx", "coll", "needs_collation", "explain")

    def __init__(self, fdef, ctx, coll=None):
        self.fdef = fdef
        self.ctx = ctx
        self.coll = coll
        self.needs_collation = fdef.needs_collation
        self.explain = f"{fdef.name}({fdef.nargs})"

    def with_collation(self, coll):
        return ScalarCall(self.fdef, self.ctx, coll)

    def __call__(self, vm, args):
        ctx = self.ctx
        ctx.collation = self.coll
        return self.fdef.func(ctx, *args)


class AggCall:
    """P4 of AggStep/AggFinal. ``distinct_norms``: per-argument text normalisers for
    DISTINCT under a collation (None = BINARY). ``step`` returns what the aggregate's step
    returns (min/max: True when the row became the best)."""

    __slots__ = ("fdef", "ctx", "coll", "needs_collation", "explain", "distinct_norms")

    def __init__(self, fdef, ctx, coll=None, distinct_norms=None):
        self.fdef = fdef
        self.ctx = ctx
        self.coll = coll
        self.needs_collation = fdef.needs_collation or fdef.name in ("min", "max")
        self.explain = f"{fdef.name}({fdef.nargs})"
        self.distinct_norms = distinct_norms

    def with_collation(self, coll):
        return AggCall(self.fdef, self.ctx, coll, self.distinct_norms)

    def with_distinct_norms(self, norms):
        return AggCall(self.fdef, self.ctx, self.coll, norms)

    def new(self):
        self.ctx.collation = self.coll
        return self.fdef.func(self.ctx)

    def step(self, state, args):
        return state.step(*args)

    def final(self, state):
        return state.finalize()


class FunctionTable:
    """The connection's functions. The call objects handed to the compiler (P4 of
    Function/AggStep/AggFinal) hold no state of their own, so one per name (as written)
    and argument count is made and handed out again, as are the ``is_aggregate``
    answers, until a function is created or removed (a compiled like()/glob() keeps its
    pattern: one per use)."""

    def __init__(self, db):
        self.db = db
        self.reg = FunctionRegistry(BUILTINS)
        self.ctx = DbContext(db)
        self._calls: dict = {}  # (name, nargs, kind) -> ScalarCall / AggCall / is_aggregate

    def _find(self, name, nargs):
        # (a built-in variadic's minimum count too: min() is no call of the scalar min)
        return find_function(name, nargs, self.reg)

    def _remember(self, key, value):
        calls = self._calls
        if len(calls) >= 1024:  # (names as written: bounded)
            calls.clear()
        calls[key] = value
        return value

    def scalar(self, name, nargs):
        hit = self._calls.get((name, nargs, "s"))
        if hit is not None:
            return hit
        f = self._find(name, nargs)
        if f is None or f.kind != "scalar":
            return None
        if f.func is f_like or f.func is f_glob:  # the built-ins, not a user override
            return PatternCall(f, self.ctx, f.func is f_glob, getattr(self.db, "__dict__", None))
        return self._remember((name, nargs, "s"), ScalarCall(f, self.ctx))

    def aggregate(self, name, nargs):
        hit = self._calls.get((name, nargs, "a"))
        if hit is not None:
            return hit
        f = self._find(name, nargs)
        if f is None or f.kind == "scalar":
            return None
        return self._remember((name, nargs, "a"), AggCall(f, self.ctx))

    def is_aggregate(self, name, nargs):
        hit = self._calls.get((name, nargs, "?"))
        if hit is None:
            f = self._find(name, nargs)
            hit = self._remember((name, nargs, "?"), f is not None and f.kind == "aggregate")
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
