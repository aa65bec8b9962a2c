"""The function calls as the VM runs them, and their context.

A ``functions.FuncDef`` (built-in or user function) becomes one of the two callables the
VM's opcodes take as P4: a ``ScalarCall`` (``call(vm, args)`` for OP_Function) and an
``AggCall`` (``new()``, ``step(state, args)``, ``final(state)`` for OP_AggStep/AggFinal);
the built-in like() and glob() are a compiled ``PatternCall`` (same interface; it keeps
its compiled pattern between rows). ``DbContext`` supplies the function context
(last_insert_rowid, changes, the statement's 'now', random bytes, the call's collation).
The connection's table of them, which the compiler looks calls up in, is
``_functable.FunctionTable``. This module never touches storage or SQL text.
"""

from __future__ import annotations

from sqlengine.vdbe.functions import FunctionContext


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
