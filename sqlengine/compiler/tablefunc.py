"""Table-valued functions in FROM: ``json_each``, ``json_tree`` and ``pragma_NAME(...)``.

``json_each(X[, P])`` / ``json_tree(X[, P])`` (no rows without X) and the list pragmas'
functions (``pragma_table_info(T)``, compiler/pragma.py) become an ephemeral table filled
when control reaches the FROM clause (``args_source``): the arguments are evaluated there
(they may read columns of an enclosing query, so a correlated subquery refills it on
every run) and the rows come from ``vdbe.func_json`` or the pragma's. Their HIDDEN columns
(json_each's ``json`` and ``root``, a pragma's ``arg`` and ``schema``: the arguments, as
SQLite's virtual tables declare them) are named like any other, qualified or not, but
neither ``*`` nor ``t.*`` shows them (``FunctionSource.star_hidden``, the one HIDDEN
mark: SQLite's COLFLAG_HIDDEN columns are a virtual table's, and a table here has none).

Arguments that read a table to their left in the same FROM clause (``FROM t,
json_each(t.doc)``) make the source correlated: its rows are computed again each time its
loop starts (the WHERE loop calls the source's ``prologue``, keeps FROM order and builds
no automatic index on it), with the arguments read from the current rows of those tables.

As SQLite's xBestIndex takes an equality constraint on a HIDDEN column as an argument,
a term ``hidden = value`` of the WHERE clause (or of the ON clause of the join bringing
the function, alone on the right of a LEFT or RIGHT JOIN) supplies the arguments after
the call's own (``FROM pragma_table_info WHERE arg = 't'``, ``FROM sqlite_schema s
JOIN pragma_table_info p ON p.arg = s.name``): ``value`` may read constants, parameters,
an enclosing query and tables to the function's left, not the function's own row nor a
table to its right; the hidden columns are bound in order, each by the last such term on
it (json_each's root only after its json, a pragma's schema after its arg), and a term
used so is not tested again (SQLite's ``omit``: the column reads the argument as the
function keeps it). ``function_source`` finds the candidate terms; the function's
source waits for the whole FROM clause (names resolve against all of it) and
``bind_hidden`` then chooses the terms and codes the arguments.

This module emits code; it never runs it.
"""

from __future__ import annotations

import dataclasses

from sqlengine.compiler.pushdown import and_terms
from sqlengine.compiler.resolve import Scope, Source
from sqlengine.compiler.walk import SUBQUERY_NODES, find_node, iter_children
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O

TABLE_FUNCTIONS = frozenset({"json_each", "json_tree"})  # (besides pragma_NAME)


def function_name(name) -> bool:
    """Whether FROM item ``name``, naming no CTE, table or view, is a table-valued
    function's (or none: pragma_NAME of no such pragma)."""
    low = name.lower()
    return low in TABLE_FUNCTIONS or low.startswith("pragma_")


def function_source(p, item, scope, terms, pending, TableDest):
    """The source of FROM item ``item``, a table-valued function's call or a bare name
    that ``function_name`` accepts. ``terms``: the WHERE and ON terms that may bind its
    HIDDEN columns (``bound_terms``); a source that waits for them is put on
    ``pending``, for ``bind_hidden`` once the FROM clause is built."""
    if type(item) is not A.TableFunctionRef:
        item = A.TableFunctionRef(item.name, [], None, item.alias, item.pos)
    cands = _candidates(terms, item) if terms else None
    src = table_function_source(p, item, scope, Source, TableDest,
                                (cands, pending) if cands else None)
    src.db = "main"  # (an eponymous virtual table: main's)
    return src


def bound_terms(outer, join, side, items):
    """The terms that may give arguments to the function ``join`` brings into the FROM
    clause of ``items``: its own ON terms on the right of a LEFT JOIN or beside a RIGHT
    JOIN (``side``: rightjoin.outer_side), else the WHERE terms (``outer``: the query's
    (core, ...), None when unknown) and the inner joins' ON terms (SQLite adds those to
    its WHERE)."""
    if side:
        return and_terms(join.on) if join is not None else []
    terms = and_terms(outer[0].where) if outer is not None else []
    for _item, j in items:
        if j is not None and j.on is not None and j.kind not in _OUTER:
            terms += and_terms(j.on)
    return terms


_OUTER = ("LEFT", "RIGHT", "FULL")


def _candidates(terms, item):
    """[(term, column, value)]: the terms ``column = value`` (``column IN (value)`` too,
    SQLite's parser makes it ``=``) whose column, COLLATE aside, may be one of ``item``'s
    (unqualified or by its name), resolved later (``bind_hidden``); ``value`` is a list
    of values for ``column IN (v1, v2, ...)`` and for ``column = v1 OR column = v2 ...``
    (which SQLite makes an IN): the function then runs once per value."""
    own = (item.alias or item.name).lower()
    out = []
    for t in terms:
        tt = type(t)
        if tt is A.Binary and t.op == "=":
            pairs = ((t.left, t.right), (t.right, t.left))
        elif tt is A.InList and not t.negated:
            pairs = ((t.expr, t.items[0] if len(t.items) == 1 else list(t.items)),)
        elif tt is A.Binary and t.op.upper() == "OR":
            pairs = _or_values(t)
        else:
            continue
        for c, v in pairs:
            while type(c) is A.Collate:
                c = c.expr
            if type(c) is A.Column and (c.table is None or c.table.lower() == own):
                out.append((t, c, v))
    return out


def _or_values(t):
    """((column, [values]),) when every operand of OR-term ``t`` is ``column = value``
    (either side) of one column spelled alike, else (). An operand ``x IN (value)`` of a
    constant value counts as ``x = value``: SQLite's parser makes it one."""
    leaves, stack = [], [t]
    while stack:
        e = stack.pop()
        te = type(e)
        if te is A.Binary and e.op.upper() == "OR":
            stack += [e.right, e.left]
        elif te is A.Binary and e.op == "=":
            leaves.append(e)
        elif te is A.InList and not e.negated and len(e.items) == 1 and _constant(e.items[0]):
            leaves.append(A.Binary("=", e.expr, e.items[0], e.pos))
        else:
            return ()
    for c in (leaves[0].left, leaves[0].right):
        key = _spelled(c)
        if key is None:
            continue
        vals = []
        for e in leaves:
            if _spelled(e.left) == key:
                vals.append(e.right)
            elif _spelled(e.right) == key:
                vals.append(e.left)
            else:
                break
        else:
            return ((c, vals),)
    return ()


def _constant(e) -> bool:
    """Whether ``e`` names no column, calls no function and holds no subquery: what
    sqlite3ExprIsConstant says of the one value of an IN list when the parser asks it
    (before names resolve: a double-quoted string is still a name then)."""
    return find_node(e, lambda x: type(x) in (A.Column, A.FunctionCall)
                     or isinstance(x, SUBQUERY_NODES), ()) is None


def _spelled(e):
    """(name, table) of column reference ``e`` (COLLATE aside), lower-case; else None."""
    while type(e) is A.Collate:
        e = e.expr
    if type(e) is not A.Column:
        return None
    return e.name.lower(), e.table.lower() if e.table is not None else None


def table_function_source(p, item, scope, Source, TableDest, bind=None):
    """The FROM source of a table-valued function call. A CTE, table or view of its name
    is no function; a name that is neither fails as a missing table (SQLite's messages).
    ``bind``: (candidate terms, pending list) of ``function_source``."""
    name = item.name.lower()
    if _names_table(p, item):
        raise OperationalError(f"'{item.name}' is not a function")
    src = None
    if name.startswith("pragma_"):
        from sqlengine.compiler.pragma import pragma_function_source
        src = pragma_function_source(p, item, Source, TableDest, scope, bind)
    if src is not None:
        return src
    if name not in TABLE_FUNCTIONS:
        from sqlengine.compiler.cte import missing_table
        raise missing_table(p, item.name, item.schema)
    from sqlengine.vdbe import func_json
    fn = func_json.json_each if name == "json_each" else func_json.json_tree
    if len(item.args) > 2:
        raise OperationalError(f"too many arguments on {name}() - max 2")
    return args_source(p, item, scope, Source, list(func_json.JSON_EACH_COLUMNS),
                       lambda db, *values: fn(*values) if values else (), 2, bind)


def args_source(p, item, scope, Source, cols, fn, n_hidden=0, bind=None):
    """The FROM source of table-valued function call ``item`` (in ``scope``, None for a
    bare name) whose rows are ``fn(db, *arguments)``, computed when control reaches the
    FROM clause: again for each row of the tables to its left its arguments read, and on
    each run when they read an enclosing query. Its last ``n_hidden`` columns are HIDDEN;
    with ``bind`` (``function_source``), those after the call's arguments that a
    candidate term names wait for ``bind_hidden``."""
    args = list(item.args)
    b = p.b
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenEphemeral, cur, 0)
    n = len(cols)
    src = FunctionSource(item.alias or item.name, cur, cols, [O.AFF_BLOB] * n, [None] * n,
                         [None] * n)
    src.star_hidden = frozenset(range(n - n_hidden, n))
    left = list(scope.sources) if scope is not None else []
    first = n - n_hidden + len(args)  # (the first HIDDEN column no argument gives)
    if bind is not None and first < n:
        free = [c.lower() for c in cols[first:]]
        cands = [c for c in bind[0] if c[1].name.lower() in free]
        if cands:
            bind[1].append((src, args, cands, free, fn, first, len(left)))
            return src
    _code_args(p, scope, left, args, src, fn, False)
    return src


def _code_args(p, scope, left, args, src, fn, reads_left):
    """Code the arguments ``args`` of function source ``src`` and the filling of its
    table: in its loop's prologue when they read the sources ``left`` of it (or
    ``reads_left``), else here. An argument that is a list of values (an IN list)
    runs the function once per value (``_code_fill``)."""
    shape = None
    if any(type(a) is list for a in args):
        shape = [len(a) if type(a) is list else -1 for a in args]
        args = [x for a in args for x in (a if type(a) is list else (a,))]
    outer = scope.outer if scope is not None else None
    corr = scope.corr if scope is not None else None
    cur = src.cursor
    probe = Scope(left, outer=outer, corr=corr)
    if left and (reads_left or _reads_sources(args, probe)):
        arg_scope = Scope(left, outer=outer, corr=corr)
        src.prologue = lambda: _code_fill(p, arg_scope, args, cur, fn, True, shape)
        src.changes_per_run = True
        if probe.correlated and scope is not None:  # it also reads an enclosing query
            scope.correlated = True
    else:
        arg_scope = Scope([], outer=outer, corr=corr)
        _code_fill(p, arg_scope, args, cur, fn, False, shape)
        # read from an enclosing query, the rows change from one run to the next: no
        # automatic index is built on them (it would be built once)
        if arg_scope.correlated:
            src.changes_per_run = True
            if scope is not None:
                scope.correlated = True


def bind_hidden(p, pending, scope, extra, left_on, outer):
    """Give each function source of ``pending`` (``args_source``) its arguments: the
    call's, then for each HIDDEN column after them, in order, the value of the last
    candidate term that names that column and reads neither the function's row nor a
    table to its right (none: no more arguments); code them. Returns build_from's
    (sources, extra, left_on, bound): the terms used left out of ``extra``, ``left_on``
    and the sources' ``join_on``, and ``bound`` the set of their ids when the WHERE
    clause (``outer`` given) may hold one, for ``without_bound``, else None."""
    sources = scope.sources
    omit = set()
    for src, args, cands, free, fn, first, level in pending:
        vals = []
        reads_left = False
        for j, hname in enumerate(free):
            best = None
            for t, c, v in cands:
                if c.name.lower() == hname and _is_column(scope, c, src, first + j):
                    reads = False
                    for x in (v if type(v) is list else (v,)):
                        r = _usable(p, scope, x, sources, level)
                        if r is None:
                            break
                        reads = reads or r
                    else:
                        best = (t, v, reads)
            if best is None:
                break
            omit.add(id(best[0]))
            vals.append(best[1])
            reads_left = reads_left or best[2]
        _code_args(p, scope, sources[:level], args + vals, src, fn, reads_left)
    if not omit:
        return sources, extra, left_on, None
    extra = [x for x in (_drop(e, omit) for e in extra) if x is not None]
    for k in list(left_on):
        e = _drop(left_on[k], omit)
        if e is None:
            del left_on[k]
        else:
            left_on[k] = e
    for s in sources:
        if s.join_on is not None:
            s.join_on = _drop(s.join_on, omit)
    return sources, extra, left_on, omit if outer is not None else None


def without_bound(core, bound):
    """``core`` without the WHERE terms whose ids are in ``bound`` (``bind_hidden``)."""
    where = _drop(core.where, bound)
    return core if where is core.where else dataclasses.replace(core, where=where)


def _drop(e, omit):
    """AND-tree ``e`` without its terms whose id is in ``omit`` (None if none is left)."""
    if e is None or id(e) in omit:
        return None
    if type(e) is A.Binary and e.op.upper() == "AND":
        left, right = _drop(e.left, omit), _drop(e.right, omit)
        if left is e.left and right is e.right:
            return e
        if left is None or right is None:
            return right if left is None else left
        return A.Binary("AND", left, right, e.pos)
    return e


def _is_column(scope, c, src, col) -> bool:
    """Whether column reference ``c`` names column ``col`` of ``src`` in ``scope``."""
    try:
        ref = scope.lookup(c.name, c.table)
    except OperationalError:  # (ambiguous: the WHERE clause says so)
        return False
    return ref is not None and ref.depth == 0 and ref.source is src and ref.col == col


def _usable(p, scope, v, sources, level):
    """None when value ``v`` cannot be an argument of the function at ``level`` of
    ``sources`` (it reads that function's row or a table to its right, or holds an
    aggregate or window call); else whether it reads a table to its left."""
    reads = False
    stack = [v]
    while stack:
        e = stack.pop()
        t = type(e)
        if t is A.Column:
            try:
                ref = scope.lookup(e.name, e.table)
            except OperationalError:
                return None
            if ref is None:
                if e.quoted and e.table is None:  # (a string)
                    continue
                return None
            if ref.depth == 0:
                k = next((i for i, s in enumerate(sources) if s is ref.source), level)
                if k >= level:
                    return None
                reads = True
            continue
        if t is A.Subquery or t is A.Exists or t is A.InSelect:
            if _names_any(e.select, sources[level:]):
                return None
            reads = reads or level > 0  # (it may read them: coded where they are open)
            if t is A.InSelect:
                stack.append(e.expr)
            continue
        if t is A.FunctionCall and (e.over is not None or p.functions.is_aggregate(
                e.name, 0 if e.star else len(e.args))):
            return None
        stack.extend(iter_children(e))
    return reads


def _names_any(sel, later) -> bool:
    """Whether SELECT ``sel`` names (perhaps) a column of one of the sources ``later``:
    an unqualified column of one of their column names, or one qualified by one of their
    names (``s.name`` of another table is not theirs, whatever its column's name)."""
    names = {c.lower() for s in later for c in s.columns}
    tables = {s.name.lower() for s in later}
    return find_node(sel, lambda x: type(x) is A.Column and (
        x.name.lower() in names if x.table is None else x.table.lower() in tables),
        ()) is not None


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
    """A table-valued function's FROM source: ``star_hidden``, its HIDDEN columns; a
    ``prologue`` (set when its arguments read the tables to its left) that fills it when
    its loop starts, and ``changes_per_run`` when its rows change between runs of its
    loop (it reads those tables or an enclosing query)."""

    __slots__ = ("star_hidden", "prologue", "changes_per_run")


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


def _in_combinations(values, shape):
    """The argument tuples of ``values`` laid out by ``shape`` (``_code_fill``)."""
    from functools import cmp_to_key
    from itertools import product

    from sqlengine.vdbe._values import compare
    lists, i = [], 0
    for n in shape:
        if n < 0:
            lists.append((values[i],))
            i += 1
            continue
        vals = sorted((v for v in values[i:i + n] if v is not None), key=cmp_to_key(compare))
        lists.append([v for k, v in enumerate(vals) if not k or compare(vals[k - 1], v)])
        i += n
    return product(*lists)


def _code_fill(p, arg_scope, args, cur, fn, refill, shape=None):
    """Evaluate the arguments and put the function's rows in the ephemeral table
    (``refill``: empty it first). ``shape``: per argument, -1 for one value or the
    number of the values of its IN list, which follow in ``args``: the function runs for
    each combination, as SQLite's IN loops do (each list's values in their order, NULL
    left out, equal ones once; the first argument outermost)."""
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
        k = 0
        for vals in ((values,) if shape is None else _in_combinations(values, shape)):
            for row in fn(vm.db, *vals):
                k += 1
                data.insert(k, tuple(row))
        return None
    out = b.alloc_reg()
    b.emit(O.OP_Function, 0, regs, out, fill, len(args))
