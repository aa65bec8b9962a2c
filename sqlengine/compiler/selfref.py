"""The errors of an expression the schema stores and SQLite resolves against its own table
alone (sqlite3ResolveSelfReference): a CHECK constraint, a generated column, an index
expression, a partial index's WHERE clause. CREATE TABLE, CREATE INDEX and ALTER TABLE
ADD COLUMN (through the table it rebuilds) ask here before they emit anything.

SQLite resolves with a pre-order walk (resolveExprStep) that does not stop at every error:
each new error replaces the message (sqlite3ErrorMsg), so the one reported is the last
made. The walk stops (WRC_Abort) at a name that resolves to no column, at a parameter or
a subquery (prohibited in all four places), and at any other node reached once an error
was made; a function call reports its own error (unknown name, wrong argument count,
an aggregate or window call, a window on a plain function, a non-deterministic function
outside CHECK) and then walks its arguments anyway, and a walk stopped inside them goes on
after the call. Names: the table's columns, qualified by its name (``main.`` ignored in
CHECK and partial-index WHERE, where ``rowid`` also resolves); a ``.`` is prohibited in
generated columns and index expressions; an unknown double-quoted name is a string, an
unknown TRUE or FALSE the value.

While a schema is loaded (``schema_load``: ALTER TABLE's reload of the table it changed)
an unknown function name is no error, as in SQLite (``init.busy``).

This module only finds errors; it never emits code.
"""

from __future__ import annotations

from sqlengine.compiler.walk import iter_children
from sqlengine.compiler.window import WINDOW_FUNCTIONS
from sqlengine.compiler.window_args import count_error
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A

CHECK = "CHECK constraints"
GENERATED = "generated columns"
INDEX_EXPR = "index expressions"
PARTIAL_WHERE = "partial index WHERE clauses"

# functions whose non-determinism is decided per call at run time ('now' arguments)
_NONDET_RUNTIME = ("date", "time", "datetime", "julianday", "unixepoch", "strftime",
                   "timediff")
_ROWID = ("rowid", "oid", "_rowid_")


def check_table(p, table, schema_load=False):
    """Raise SQLite's error for the CHECK constraints and generated columns of ``table``
    (sqlite3EndTable: the CHECK list until one fails, then every generated column, then
    a table made only of generated columns)."""
    walk = None
    for _name, e in table.checks:
        walk = walk or _Walk(p, table, CHECK, schema_load)
        walk.what = CHECK
        walk.expr(e)
        if walk.err is not None:
            break
    generated = [c.generated for c in table.columns if c.generated is not None]
    for e in generated:
        walk = walk or _Walk(p, table, GENERATED, schema_load)
        walk.what = GENERATED
        walk.expr(e)
    if generated and len(generated) == len(table.columns):
        raise OperationalError("must have at least one non-generated column")
    if walk is not None and walk.err is not None:
        raise OperationalError(walk.err)


def check_index(p, table, st):
    """Raise SQLite's error for CREATE INDEX ``st``'s WHERE clause and key terms
    (sqlite3CreateIndex: the WHERE clause, then the terms until one had an error, or the
    first term once the WHERE clause had one)."""
    walk = _Walk(p, table, PARTIAL_WHERE, False)
    if st.where is not None:
        walk.expr(st.where)
    walk.what = INDEX_EXPR
    for ic in st.columns:
        walk.expr(_string_to_id(ic.expr))
        if walk.err is not None:
            raise OperationalError(walk.err)


def _string_to_id(e):
    """An index term written as a string names a column (sqlite3StringToId)."""
    inner = e.expr if type(e) is A.Collate else e
    if type(inner) is A.Literal and type(inner.value) is str:
        return A.Column(inner.value)
    return e


class _Walk:
    """One resolution: ``err`` is the last error made (None: none yet)."""

    __slots__ = ("db", "table", "what", "schema_load", "err")

    def __init__(self, p, table, what, schema_load):
        self.db = p.db
        self.table = table
        self.what = what
        self.schema_load = schema_load
        self.err = None

    def expr(self, e) -> bool:
        """Resolve ``e``; True when the walk stopped (WRC_Abort)."""
        t = type(e)
        if t is A.Column:
            return self._column(e)
        if t is A.FunctionCall:
            self._function(e)
            return False
        if t is A.Like:
            self._like(e)
            return False
        if t is A.Case and e.truth is not None:  # x IS [NOT] TRUE|FALSE: x, even after an error
            return self.expr(e.truth[1])
        if t is A.Param:
            self.err = "parameters prohibited in " + self.what
            return True
        if t in (A.Subquery, A.Exists, A.InSelect, A.InTable):
            self.err = "subqueries prohibited in " + self.what
            return True
        if self.err is not None:
            return True
        for c in iter_children(e):
            if self.expr(c):
                return True
        return False

    def _column(self, e) -> bool:
        table = self.table
        qualified = e.table is not None
        schema = e.schema
        if qualified and self.what in (GENERATED, INDEX_EXPR):
            self.err = 'the "." operator prohibited in ' + self.what
        if schema is not None and self.what in (CHECK, PARTIAL_WHERE):
            schema = None  # (SQLite ignores it there)
        found = table.find_column(e.name) >= 0 or (
            self.what in (CHECK, PARTIAL_WHERE) and e.name.lower() in _ROWID
            and not table.without_rowid)
        if qualified and (e.table.lower() != table.name.lower() or (
                schema is not None and schema.lower() != "main")):
            found = False
        if found:
            return False
        if not qualified:
            if e.quoted or e.name.lower() in ("true", "false"):
                return False  # (a string, or the truth value)
            self.err = f"no such column: {e.name}"
        elif schema is not None:
            self.err = f"no such column: {schema}.{e.table[:]}.{e.name}"
        else:
            self.err = f"no such column: {e.table[:]}.{e.name}"
        return True

    def _function(self, e):
        db = self.db
        name = e.name.lower()
        nargs = 0 if e.star else len(e.args)
        window = name in WINDOW_FUNCTIONS
        aggregate = window or db.is_aggregate(name, nargs)
        fd = None if aggregate else db.find_function(name, nargs)
        if fd is not None and name == "likelihood" and nargs == 2:
            from sqlengine.compiler.resolve_order import likelihood_error
            err = likelihood_error(e)
            if err is not None:
                self.err = str(err)
        if fd is not None and self.what != CHECK and name not in _NONDET_RUNTIME and \
                not getattr(getattr(fd, "fdef", fd), "deterministic", True):
            self.err = "non-deterministic functions prohibited in " + self.what
        self._call_error(e, name, aggregate, window, aggregate or fd is not None)
        for a in e.args:
            if self.expr(a):
                break

    def _call_error(self, e, name, aggregate, window, exists):
        """A call's own error, in resolveExprStep's order."""
        over = e.over is not None
        named = exists or self.db.function_exists(name)
        if over and named and not aggregate and (exists or not self._aggregate_name(name)):
            self.err = f"{e.name}() may not be used as a window function"
        elif window and count_error(e) is not None:
            self.err = str(count_error(e))
        elif aggregate:
            kind = "window" if window or over else "aggregate"
            self.err = f"misuse of {kind} function {e.name}()"
        elif not named:
            if not self.schema_load:
                self.err = f"no such function: {e.name}"
            elif over or e.filter is not None:
                self.err = f"FILTER may not be used with non-aggregate {e.name}()"
        elif not exists:
            self.err = f"wrong number of arguments to function {e.name}()"
        elif e.filter is not None:
            self.err = f"FILTER may not be used with non-aggregate {e.name}()"

    def _aggregate_name(self, name) -> bool:
        """Whether ``name`` is an aggregate for some argument count (SQLite finds it with
        nArg -2 when the count is wrong, and it can be a window function)."""
        is_aggregate = self.db.is_aggregate
        return any(is_aggregate(name, n) for n in range(4))

    def _like(self, e):
        """LIKE, GLOB, REGEXP and MATCH are calls of the function of that name (no error
        but REGEXP's when none is registered) with the pattern first."""
        if e.op == "REGEXP" and self.db.find_function("regexp", 2) is None \
                and not self.schema_load:
            self.err = "no such function: REGEXP"
        for a in (e.right, e.left, e.escape):
            if a is not None and self.expr(a):
                break
