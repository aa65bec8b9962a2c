"""Table-valued functions in FROM: ``json_each``, ``json_tree`` and ``pragma_NAME(...)``.

``json_each(X[, P])`` / ``json_tree(X[, P])`` (no rows without X) and the list pragmas'
functions (``pragma_table_info(T)``, compiler/pragma.py) become an ephemeral table filled
when control reaches the FROM clause (``args_source``): the arguments are evaluated there
(they may read columns of an enclosing query, so a correlated subquery refills it on
every run) and the rows come from ``vdbe.func_json`` or the pragma's. Their HIDDEN columns
(json_each's ``json`` and ``root``, a pragma's ``arg`` and ``schema``: the arguments, as
SQLite's virtual tables declare them) are named like any other, qualified or not, but
neither ``*`` nor ``t.*`` shows them (``FunctionSource.star_hidden``).

Arguments that read a table to their left in the same FROM clause (``FROM t,
json_each(t.doc)``) make the source correlated: its rows are computed again each time its
loop starts (the WHERE loop calls the source's ``prologue``, keeps FROM order and builds
no automatic index on it), with the arguments read from the current rows of those tables.

This module emits code; it never runs it.
"""

from __future__ import annotations

from sqlengine.compiler.resolve import Scope, Source
from sqlengine.errors import OperationalError
from sqlengine.vdbe import opcodes as O

TABLE_FUNCTIONS = frozenset({"json_each", "json_tree"})  # (besides pragma_NAME)


def table_function_source(p, item, scope, Source, TableDest):
    """The FROM source of a table-valued function call. A CTE, table or view of its name
    is no function; a name that is neither fails as a missing table (SQLite's messages)."""
    name = item.name.lower()
    if _names_table(p, item):
        raise OperationalError(f"'{item.name}' is not a function")
    src = None
    if name.startswith("pragma_"):
        from sqlengine.compiler.pragma import pragma_function_source
        src = pragma_function_source(p, item, Source, TableDest, scope)
    if src is not None:
        return src
    if name not in TABLE_FUNCTIONS:
        from sqlengine.compiler.cte import missing_table
        raise missing_table(p, item.name, item.schema)
    from sqlengine.vdbe import func_json
    fn = func_json.json_each if name == "json_each" else func_json.json_tree
    if len(item.args) > 2:
        raise OperationalError(f"too many arguments on {name}() - max 2")
    if not item.args:  # (no JSON: no rows)
        fn = _no_rows
    return args_source(p, item, scope, Source, list(func_json.JSON_EACH_COLUMNS),
                       lambda db, *values: fn(*values), 2)


def args_source(p, item, scope, Source, cols, fn, n_hidden=0):
    """The FROM source of table-valued function call ``item`` (in ``scope``, None for a
    bare name) whose rows are ``fn(db, *arguments)``, computed when control reaches the
    FROM clause: again for each row of the tables to its left its arguments read, and on
    each run when they read an enclosing query. Its last ``n_hidden`` columns are HIDDEN."""
    args = list(item.args)
    b = p.b
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenEphemeral, cur, 0)
    outer = scope.outer if scope is not None else None
    corr = scope.corr if scope is not None else None
    left = list(scope.sources) if scope is not None else []
    n = len(cols)
    name = item.alias or item.name
    probe = Scope(left, outer=outer, corr=corr)
    if left and _reads_sources(args, probe):
        src = _CorrelatedSource(name, cur, cols, [O.AFF_BLOB] * n, [None] * n, [None] * n)
        src.star_hidden = frozenset(range(n - n_hidden, n))
        arg_scope = Scope(left, outer=outer, corr=corr)
        src.prologue = lambda: _code_fill(p, arg_scope, args, cur, fn, True)
        if probe.correlated and scope is not None:  # it also reads an enclosing query
            scope.correlated = True
    else:
        arg_scope = Scope([], outer=outer, corr=corr)
        _code_fill(p, arg_scope, args, cur, fn, False)
        # read from an enclosing query, the rows change from one run to the next: no
        # automatic index is built on them (it would be built once)
        kind = _CorrelatedSource if arg_scope.correlated else FunctionSource
        if arg_scope.correlated and scope is not None:
            scope.correlated = True
        src = kind(name, cur, cols, [O.AFF_BLOB] * n, [None] * n, [None] * n)
        src.star_hidden = frozenset(range(n - n_hidden, n))
    return src


def hidden_source(name, cur, cols, n_hidden):
    """A FROM source over ephemeral table ``cur`` whose last ``n_hidden`` columns are
    HIDDEN (a table-valued function's filled once)."""
    n = len(cols)
    src = FunctionSource(name, cur, cols, [O.AFF_BLOB] * n, [None] * n, [None] * n)
    src.star_hidden = frozenset(range(n - n_hidden, n))
    return src


def star_hidden(src):
    """The numbers of the HIDDEN columns of FROM source ``src`` (a table-valued
    function's arguments), which ``*`` and ``t.*`` leave out and NATURAL joins do not
    match; empty for any other source."""
    if type(src) is Source:
        return _NONE
    return getattr(src, "star_hidden", None) or _NONE


_NONE = frozenset()


def _no_rows(*_values):
    return ()


_SCHEMA_TABLES = frozenset(("sqlite_master", "sqlite_schema", "sqlite_temp_master",
                            "sqlite_temp_schema"))


def _names_table(p, item) -> bool:
    """Whether FROM item ``name(...)`` names a CTE, a table or a view (in its schema)."""
    low = item.name.lower()
    if low in _SCHEMA_TABLES:
        return True
    s = p.schema
    if item.schema is None:
        from sqlengine.compiler.cte import find_cte
        return find_cte(p, low) is not None or s.table(low) is not None or low in s.views
    db = item.schema.lower()
    key = f"{db}.{low}"
    if key in s.tables or key in s.views:
        return True
    if db == "main":
        main = getattr(s, "main", s)
        return low in main.tables or low in main.views
    return False


class FunctionSource(Source):
    """A table-valued function's FROM source: ``star_hidden``, its HIDDEN columns."""

    __slots__ = ("star_hidden",)


class _CorrelatedSource(FunctionSource):
    """A table-valued function whose rows change between runs of its loop: reading the
    tables to its left (filled by ``prologue``, set then) or an enclosing query."""

    __slots__ = ("prologue",)
    changes_per_run = True


def _reads_sources(args, scope) -> bool:
    """True when an argument names a column of ``scope``'s own sources."""
    from sqlengine.compiler.generated import _children
    from sqlengine.sql import ast as A

    def visit(e):
        if isinstance(e, A.Column):
            try:
                ref = scope.lookup(e.name, e.table)
            except OperationalError:
                return False
            return ref is not None and ref.depth == 0
        if isinstance(e, (A.Subquery, A.Exists, A.InSelect)):
            return False
        return any(visit(c) for c in _children(e))
    return any(visit(a) for a in args)


def _code_fill(p, arg_scope, args, cur, fn, refill):
    """Evaluate the arguments and put the function's rows in the ephemeral table
    (``refill``: empty it first)."""
    from sqlengine.compiler.expr import code_expr
    b = p.b
    regs = b.alloc_reg(len(args))
    for i, a in enumerate(args):
        code_expr(p, arg_scope, a, regs + i)

    def fill(vm, values, cur=cur, fn=fn, refill=refill):
        data = vm.cursors[cur].data
        if refill:
            data.rows.clear()
            data.rowids.clear()
            data.next_rowid = 1
        for k, row in enumerate(fn(vm.db, *values)):
            data.insert(k + 1, tuple(row))
        return None
    out = b.alloc_reg()
    b.emit(O.OP_Function, 0, regs, out, fill, len(args))
