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

As SQLite's xBestIndex takes an equality constraint on a HIDDEN column as an argument
(and SQLite makes the call's arguments such constraints), a term ``hidden = value`` of
the WHERE clause (or of the ON clause of the join bringing the function, alone on the
right of a LEFT or RIGHT JOIN) supplies an argument the call does not give (``FROM
pragma_table_info WHERE arg = 't'``, ``FROM pragma_table_info p JOIN sqlite_schema s ON
p.arg = s.name``); ``hidden IN (list)``, an OR of ``hidden = value`` terms (SQLite's
OR-to-IN: values without affinity or NUMERIC's) and ``hidden IN (SELECT ...)`` run the
function once per value; any other OR whose every operand binds it runs it once per
operand, leaving out a row whose rowid an earlier operand's rows had (SQLite's
OR-by-union, ``_bind_union``). A value may read constants, parameters, an enclosing query and any other table of the FROM clause, not the
function's own row (``_value_reads``: a subquery's names are resolved as far as the
tables it reads are known, ``_free_columns``); the hidden columns are bound in order,
each by the call's argument or else the last such term on it that reads the fewest
tables (json_each's root only after its json, a pragma's schema after its arg and
reading no table its arg does not: SQLite's cheaper plan omits it), and a term used so is not tested again (SQLite's ``omit``: the
column reads the argument as the function keeps it). ``function_source`` finds the
candidate terms; the function's source waits for the whole FROM clause (names resolve
against all of it) and ``bind_hidden`` then chooses the terms and codes the arguments.

Arguments that read other tables of the FROM clause (``FROM t, json_each(t.doc)``,
``FROM json_each j, t WHERE j.json = t.doc``) make the source correlated: the planner
puts it after those tables (``needs``, its loop's prerequisites: compiler/_loops.pyx),
and its rows are computed again each time its loop starts (the WHERE loop calls the
source's ``prologue``), with the arguments read from the current rows of those tables.
Its loop costs what SQLite's xBestIndex says (``_cost``), and it never gets an
automatic index.

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
    HIDDEN columns (``bound_terms``); a function with HIDDEN columns is put on
    ``pending``, for ``bind_hidden`` once the FROM clause is built (its arguments may
    read any table of it)."""
    if type(item) is not A.TableFunctionRef:
        item = A.TableFunctionRef(item.name, [], None, item.alias, item.pos)
    cands = _candidates(terms, item) if terms else []
    src = table_function_source(p, item, scope, Source, TableDest, (cands, pending))
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
    (which SQLite makes an IN), the InSelect itself for ``column IN (SELECT ...)``: the
    function then runs once per value."""
    own = (item.alias or item.name).lower()
    out = []
    for t in terms:
        tt = type(t)
        if tt is A.Binary and t.op == "=":
            pairs = ((t.left, t.right), (t.right, t.left))
        elif tt is A.InList and not t.negated:
            pairs = ((t.expr, t.items[0] if len(t.items) == 1 else list(t.items)),)
        elif tt is A.InSelect and not t.negated:
            pairs = ((t.expr, t),)
        elif tt is A.Binary and t.op.upper() == "OR":
            pairs = _or_values(t)
            branches = _or_branches(t)
            if branches:
                pairs += ((branches[0][0][0], _Branches(branches)),)
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
    constant value counts as ``x = +value``: SQLite's parser makes it one."""
    leaves, stack = [], [t]
    while stack:
        e = stack.pop()
        te = type(e)
        if te is A.Binary and e.op.upper() == "OR":
            stack += [e.right, e.left]
        elif te is A.Binary and e.op == "=":
            leaves.append(e)
        elif te is A.InList and not e.negated and len(e.items) == 1 and _constant(e.items[0]):
            # (the parser's ``x = +v``: a value without affinity)
            leaves.append(A.Binary("=", e.expr, A.Unary("+", e.items[0], e.pos), e.pos))
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


class _Branches(list):
    """An OR term's operands as a candidate value (``_or_branches``), bound by
    ``_bind_union``."""

    __slots__ = ()


def _or_branches(t):
    """The operands of OR-term ``t`` as [[(column, value)]]: each an AND of terms
    ``column = value`` or ``column IN (list)`` (a list value) on columns, or None."""
    ops, stack = [], [t]
    while stack:
        e = stack.pop()
        if type(e) is A.Binary and e.op.upper() == "OR":
            stack += [e.right, e.left]
        else:
            ops.append(e)
    out = []
    for op in ops:
        pairs = []
        for e in and_terms(op):
            te = type(e)
            if te is A.Binary and e.op == "=":
                c, v = (e.left, e.right) if _spelled(e.left) is not None else (e.right, e.left)
            elif te is A.InList and not e.negated:
                c, v = e.expr, e.items[0] if len(e.items) == 1 else list(e.items)
            else:
                return None
            while type(c) is A.Collate:
                c = c.expr
            if type(c) is not A.Column:
                return None
            pairs.append((c, v))
        out.append(pairs)
    return out


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
                       lambda db, *values: fn(*values) if values else (), 2, bind, "json")


def args_source(p, item, scope, Source, cols, fn, n_hidden=0, bind=None, kind="pragma"):
    """The FROM source of table-valued function call ``item`` (in ``scope``, None for a
    bare name) whose rows are ``fn(db, *arguments)``, computed when control reaches the
    FROM clause: again for each row of the tables its arguments read, and on each run
    when they read an enclosing query. Its last ``n_hidden`` columns are HIDDEN; with
    ``bind`` (``function_source``) its arguments wait for ``bind_hidden``. ``kind``:
    "json" or "pragma", whose estimates ``_cost`` gives."""
    b = p.b
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenEphemeral, cur, 0)
    n = len(cols)
    src = hidden_source(item.alias or item.name, cur, cols, n_hidden)
    if bind is not None and n_hidden:
        free = [c.lower() for c in cols[n - n_hidden:]]
        cands = [c for c in bind[0] if c[1].name.lower() in free]
        bind[1].append((src, list(item.args), cands, free, fn, n - n_hidden,
                        len(scope.sources) if scope is not None else 0, kind))
        return src
    _code_args(p, scope, (), [list(item.args)], src, fn, kind)
    return src


def _code_args(p, scope, reads, branches, src, fn, kind):
    """Code the arguments of function source ``src`` (``branches``: one list of them, or
    an OR's, ``_code_fill``) and the filling of its table: in its loop's prologue when
    they read the FROM sources ``reads`` (which the planner then puts before it:
    ``src.needs``), else here. An argument that is a list of values (an IN list) or an
    InSelect runs the function once per value."""
    outer = scope.outer if scope is not None else None
    corr = scope.corr if scope is not None else None
    cur = src.cursor
    if reads:
        arg_scope = Scope([s for s in scope.sources if s is not src], outer=outer, corr=corr)
        src.prologue = lambda: _code_fill(p, arg_scope, branches, cur, fn, True, kind)
        src.changes_per_run = True
        src.needs = tuple(reads)
        probe = Scope(list(arg_scope.sources), outer=outer, corr=corr)
        _mark_outer(branches, probe)
        if probe.correlated and scope is not None:  # it also reads an enclosing query
            scope.correlated = True
    else:
        arg_scope = Scope([], outer=outer, corr=corr)
        _code_fill(p, arg_scope, branches, cur, fn, False, kind)
        # read from an enclosing query, the rows change from one run to the next: no
        # automatic index is built on them (it would be built once)
        if arg_scope.correlated:
            src.changes_per_run = True
            if scope is not None:
                scope.correlated = True


def bind_hidden(p, pending, scope, extra, left_on, outer):
    """Give each function source of ``pending`` (``args_source``) its arguments
    (``_bind_columns``, else an OR's: ``_bind_union``) and code them. A value may read
    any table of the FROM clause but the function's own row (``_value_reads``): the
    tables it reads come before the function in the join (``src.needs``), so one that
    would have to come after it is not usable (``_placeable``). Returns build_from's
    (sources, extra, left_on, bound): the terms used left out of ``extra``, ``left_on``
    and the sources' ``join_on``, and ``bound`` the set of their ids when the WHERE
    clause (``outer`` given) may hold one, for ``without_bound``, else None."""
    sources = scope.sources
    omit = set()
    needs = {}  # position of a function source -> the positions its arguments read
    fixed = any(s.right for s in sources)  # (a RIGHT JOIN keeps the FROM order)
    for src, args, cands, free, fn, first, me, kind in pending:
        outer_src = src.left or src.right or src.ltorj
        # (the first outer join's table after it: it and the tables after it come after
        # the function, so a term reading them gives no argument: SQLite's mUnusable)
        later = next((k for k in range(me + 1, len(sources))
                      if sources[k].left or sources[k].right), len(sources))
        place = (needs, fixed, kind)
        vals, reads, used = _bind_columns(p, scope, src, args, cands, free, first, me,
                                          me if outer_src else later, place)
        branches = [vals]
        if not vals:  # (an OR of terms binding it: SQLite's OR-by-union)
            u = _bind_union(p, scope, src, cands, free, first, me, kind,
                            me if outer_src else later)
            if u is not None and _placeable(u[2], me, sources, *place):
                used, branches, reads = [u[0]], u[1], u[2]
        omit.update(id(t) for t in used)
        needs[me] = reads
        src.vtab = _cost(kind, len(branches[0]), len(free))
        _code_args(p, scope, [sources[k] for k in sorted(reads)], branches, src, fn, kind)
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


def _bind_columns(p, scope, src, args, cands, free, first, me, bound, place):
    """(arguments, positions of the sources they read, terms used) of the function at
    position ``me``: one per HIDDEN column (``free``, the first numbered ``first``) in
    order while there is one: the call's own argument there (SQLite's last constraint
    on it: the call's arguments become terms after the WHERE clause's), else the value
    of the last candidate term on it that reads the fewest tables (SQLite's xBestIndex
    takes the last usable constraint, and a loop needing fewer tables is as cheap),
    reading none at ``bound`` or after it; a pragma's schema only when it reads no
    table its arg does not (SQLite's cheaper plan omits it). On the right of an outer
    join (``bound`` is ``me``) the call's arguments may read only the tables to its
    left."""
    sources = scope.sources
    kind = place[2]
    vals, reads, used = [], set(), []
    for j, hname in enumerate(free):
        best = None
        for t, c, v in cands:
            if c.name.lower() == hname and type(v) is not _Branches \
                    and _is_column(scope, c, src, first + j) and _in_ok(scope, t, v):
                r = _value_reads(p, scope, v, sources, me, False)
                if r is not None and max(r, default=-1) < bound \
                        and _placeable(r, me, sources, *place) \
                        and (best is None or len(r) <= len(best[2])):
                    best = (t, v, r)
        if j < len(args):
            r = _value_reads(p, scope, args[j], sources, me, True)
            if r is not None and bound == me and max(r, default=-1) > me:
                raise OperationalError("ON clause references tables to its right")
            if r is not None and max(r, default=-1) < bound \
                    and _placeable(r, me, sources, *place):
                best = (None, args[j], r)
        if best is None or j and kind == "pragma" and not best[2] <= reads:
            break
        if best[0] is not None:
            used.append(best[0])
        vals.append(best[1])
        reads |= best[2]
    return vals, reads, used


def _in_ok(scope, t, v) -> bool:
    """Whether candidate value ``v`` of term ``t`` is no list SQLite's OR-to-IN would not
    make: an OR's values must have no affinity or the HIDDEN column's, NUMERIC (its
    declared type HIDDEN); else SQLite keeps the OR (``_bind_union``)."""
    if type(v) is not list or type(t) is not A.Binary:
        return True
    from sqlengine.compiler._resolve import expr_affinity
    try:
        return all(expr_affinity(x, scope) in (O.AFF_NONE, O.AFF_NUMERIC)
                   and not _column_subquery(x) for x in v)
    except OperationalError:
        return False


def _column_subquery(e) -> bool:
    """Whether ``e`` is a subquery whose one result is a column (which has an affinity:
    taken as not NUMERIC, the rarer case)."""
    if type(e) is not A.Subquery or type(e.select.body) is not A.SelectCore:
        return False
    col = e.select.body.columns[0]
    return type(col) is A.ResultColumn and type(col.expr) is A.Column


def _bind_union(p, scope, src, cands, free, first, me, kind, later):
    """(OR term, [arguments of each operand], positions read) of the last OR term whose
    every operand binds the function's HIDDEN columns from its first, in order, with
    values as ``bind_hidden`` takes them, and is nothing else (``_or_branches``); None
    if there is none. SQLite runs each operand as a loop of its own."""
    sources = scope.sources
    best = None
    for t, c, v in cands:
        if type(v) is not _Branches or not _is_column(scope, c, src, first):
            continue
        out, reads = [], set()
        for pairs in v:
            vals, r_all = [], set()
            for j, hname in enumerate(free):
                hit = None
                for c2, v2 in pairs:
                    if c2.name.lower() == hname and _is_column(scope, c2, src, first + j):
                        hit = v2
                if hit is None:
                    break
                r = _value_reads(p, scope, hit, sources, me, False)
                if r is None or max(r, default=-1) >= later or \
                        j and kind == "pragma" and not r <= r_all:
                    break
                vals.append(hit)
                r_all |= r
            if not vals or len(vals) != len(pairs):
                break
            out.append(vals)
            reads |= r_all
        else:
            best = (t, out, reads)
    return best


def _cost(kind, n_bound, n_hidden):
    """(rows out, run cost, idxNum) of a function's loop, as LogEst, as SQLite's
    xBestIndex estimates them for its ``n_bound`` arguments: json_each and json_tree
    cost 1 with their json (idxNum 1, 3 with root too) and SQLite's huge default without
    (idxNum 0: no rows); a pragma's cost 1 with its arg, 20 (20 rows) with arg and
    schema, 2147483647 (as many rows) without; 25 rows otherwise (SQLite's default)."""
    if kind == "json":
        return (46, 0, 3 if n_bound == 2 else 1) if n_bound else (46, 3289, 0)
    if not n_hidden or n_bound == 1:
        return (46, 0, 0)
    return (43, 43, 0) if n_bound else (310, 310, 0)


def _placeable(reads, me, sources, needs, fixed, kind) -> bool:
    """Whether the function at position ``me`` can come after the sources at positions
    ``reads`` in the join (in FROM order when it is ``fixed``). A json_each or
    json_tree that cannot fails (SQLite's xBestIndex rejects every plan where its
    argument is unusable: "no query solution")."""
    if fixed:
        return max(reads, default=-1) < me
    if not _reaches(reads, me, needs, sources):
        return True
    if kind == "json":
        raise OperationalError("no query solution")
    return False


def _reaches(reads, me, needs, sources) -> bool:
    """Whether a source at a position of ``reads`` must come after position ``me`` in the
    join: it is ``me`` or needs it, through the tables a function's arguments read
    (``needs``) and the tables to its left an outer join's table comes after."""
    seen, stack = set(), list(reads)
    while stack:
        k = stack.pop()
        if k == me:
            return True
        if k in seen:
            continue
        seen.add(k)
        stack.extend(needs.get(k, ()))
        s = sources[k]
        if s.left or s.right or s.ltorj:
            stack.extend(range(k))
    return False


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


def _value_reads(p, scope, v, sources, me, strict):
    """The positions in ``sources`` of the FROM sources value ``v`` reads (a list: each
    of its values; an InSelect: its subquery), or None when it cannot be an argument of
    the function at position ``me``: it reads that function's row (a subquery: names one
    of its columns, ``_subquery_reads``), or holds an aggregate or window call. With
    ``strict`` (a call's own argument) a name that resolves to no column or to several
    fails here; a WHERE term's fails when the WHERE clause is coded."""
    reads = set()
    stack = list(v) if type(v) is list else [v.select if type(v) is A.InSelect else v]
    while stack:
        e = stack.pop()
        t = type(e)
        if t is A.Column:
            try:
                ref = scope.lookup(e.name, e.table)
            except OperationalError:
                if strict:
                    raise
                return None
            if ref is None:
                if e.quoted and e.table is None:  # (a string)
                    continue
                if strict:
                    raise OperationalError("no such column: " + (
                        e.name if e.table is None else f"{e.table}.{e.name}"))
                return None
            if ref.depth == 0:
                k = next(i for i, s in enumerate(sources) if s is ref.source)
                if k == me:
                    return None
                reads.add(k)
            continue
        if t is A.Select:
            r = _subquery_reads(p, e, sources)
            if me in r:
                return None
            reads |= r
            continue
        if t is A.Subquery or t is A.Exists:
            stack.append(e.select)
            continue
        if t is A.InSelect:
            stack += [e.expr, e.select]
            continue
        if t is A.FunctionCall and (e.over is not None or p.functions.is_aggregate(
                e.name, 0 if e.star else len(e.args))):
            if strict and e.over is None:  # (SQLite resolves the call's arguments so)
                raise OperationalError(f"misuse of aggregate: {e.name}()")
            if not strict:
                return None
        stack.extend(iter_children(e))
    return reads


_ROWID_NAMES = frozenset(("rowid", "oid", "_rowid_"))


def _subquery_reads(p, sel, sources):
    """The positions in ``sources`` of the FROM sources subquery ``sel`` may read: those
    one of its free columns (``_free_columns``) may name, by a column name (or a rowid
    name) unqualified, or qualified by the source's name."""
    free = _free_columns(p, sel)
    out = set()
    if not free:
        return out
    for k, s in enumerate(sources):
        names = {c.lower() for c in s.columns} | _ROWID_NAMES
        own = s.name.lower()
        for c in free:
            if c.name.lower() in names if c.table is None else c.table.lower() == own:
                out.add(k)
                break
    return out


def _free_columns(p, sel):
    """The column references of SELECT ``sel`` that may name a column of a query around
    it: all but those that a SELECT core they are in (``sel``'s or a nested one's)
    certainly resolves, naming a column of a table or view of known columns of its FROM
    clause, or qualified by the name of one of its FROM items (SQLite resolves a name in
    the innermost query that has it)."""
    ctes = {c.name.lower() for w in _nodes(sel, A.With) for c in w.ctes}
    out = []
    stack = [(sel, ())]
    while stack:
        e, loc = stack.pop()
        t = type(e)
        if t is A.Column:
            if not _local(e, loc):
                out.append(e)
            continue
        if t is A.SelectCore:
            inner = loc + (_core_names(p, e, ctes),)
            stack += [(c, inner) for c in iter_children(e) if c is not e.from_]
            if e.from_ is not None:  # (its subqueries see only the queries around)
                stack += [(c, loc if type(c) is A.SubqueryRef else inner)
                          for c in _from_parts(e.from_)]
            continue
        if t is A.Select and type(e.body) is A.SelectCore:  # (its ORDER BY sees the core's)
            inner = loc + (_core_names(p, e.body, ctes),)
            stack += [(c, loc if c is e.body or c is e.with_ else inner)
                      for c in iter_children(e)]
            continue
        stack += [(c, loc) for c in iter_children(e)]
    return out


def _nodes(node, cls):
    """The nodes of class ``cls`` under ``node`` (itself included)."""
    out, stack = [], [node]
    while stack:
        e = stack.pop()
        if type(e) is cls:
            out.append(e)
        stack.extend(iter_children(e))
    return out


def _from_parts(f):
    """The FROM items of FROM clause ``f`` and its joins' ON expressions."""
    out, stack = [], [f]
    while stack:
        x = stack.pop()
        if type(x) is A.Join:
            stack += [x.left, x.right]
            if x.on is not None:
                out.append(x.on)
        else:
            out.append(x)
    return out


def _core_names(p, core, ctes):
    """(the lower-case column names of the FROM items of SELECT core ``core``, None when
    one's are not known: a subquery, a function, a view, a CTE (``ctes``: the names of
    those around); the lower-case names of its FROM items)."""
    names, tables = set(), set()
    for x in _from_parts(core.from_) if core.from_ is not None else ():
        if type(x) is A.TableRef:
            tables.add((x.alias or x.name).lower())
            cols = _table_columns(p, x, ctes)
            names = None if cols is None or names is None else names | cols
        elif type(x) in (A.SubqueryRef, A.TableFunctionRef):
            if x.alias is not None or type(x) is A.TableFunctionRef:
                tables.add((x.alias or x.name).lower())
            names = None
    return names, tables


_SCHEMA_COLUMNS = frozenset(("type", "name", "tbl_name", "rootpage", "sql")) | _ROWID_NAMES


def _table_columns(p, ref, ctes):
    """The lower-case column names of table ``ref`` (rowid names included), or None
    when not known (a view, a CTE, no such table)."""
    low = ref.name.lower()
    if low in ctes:
        return None
    from sqlengine.compiler.cte import find_cte
    if find_cte(p, low) is not None:
        return None
    if low in _SCHEMA_TABLES:
        return _SCHEMA_COLUMNS
    table = p.schema.table(low) if ref.schema is None else None
    if table is None:
        return None
    return {c.name.lower() for c in table.columns} | _ROWID_NAMES


def _local(c, loc) -> bool:
    """Whether column reference ``c`` resolves in one of the SELECT cores ``loc``
    (``_core_names``'s answers)."""
    if c.table is not None:
        low = c.table.lower()
        return any(low in tables for _names, tables in loc)
    low = c.name.lower()
    return any(names is not None and low in names for names, _tables in loc)


def hidden_source(name, cur, cols, n_hidden):
    """A FROM source over ephemeral table ``cur`` whose last ``n_hidden`` columns are
    HIDDEN (a table-valued function's), read after no other source until
    ``_code_args`` says so."""
    n = len(cols)
    src = FunctionSource(name, cur, cols, [O.AFF_BLOB] * n, [None] * n, [None] * n)
    src.star_hidden = frozenset(range(n - n_hidden, n))
    src.needs = ()
    src.vtab = _cost("pragma", 0, 0)
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
    ``prologue`` (set when its arguments read other FROM sources, ``needs``, which the
    planner puts before it) that fills it when its loop starts, and ``changes_per_run``
    when its rows change between runs of its loop (it reads those sources or an
    enclosing query); ``vtab``, its loop's estimates (``_cost``), which the planner
    takes as SQLite takes a virtual table's xBestIndex answer."""

    __slots__ = ("star_hidden", "prologue", "changes_per_run", "needs", "vtab")


def _mark_outer(args, scope):
    """Look up the names of ``args`` (outside subqueries) in ``scope``: those of an
    enclosing query mark it correlated."""
    stack = list(args)
    while stack:
        e = stack.pop()
        t = type(e)
        if t is list:
            stack.extend(e)
        elif t is A.Column:
            try:
                scope.lookup(e.name, e.table)
            except OperationalError:
                pass
        elif not isinstance(e, SUBQUERY_NODES):
            stack.extend(iter_children(e))


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


def _code_fill(p, arg_scope, branches, cur, fn, refill, kind):
    """Evaluate the arguments and put the function's rows in the ephemeral table
    (``refill``: empty it first). ``branches``: one list of arguments, or several, an
    OR's operands, each run in turn as SQLite's OR-by-union does: a row whose rowid
    (``_rowids``) an earlier operand's rows had is left out. An argument may be a list
    of values (an IN list) or (alone) an InSelect (``x IN (SELECT ...)``): the function
    runs for each combination of their values, as SQLite's IN loops call xFilter, each
    subquery's a loop over its rows in its ephemeral index (NULL left out, equal ones
    once), outermost; each list's values in their order (``_in_combinations``); the
    first argument outermost."""
    from sqlengine.compiler.expr import code_expr
    b = p.b
    flat, shapes = [], []
    for args in branches:
        shape = []
        for a in args:
            if type(a) is list:
                shape.append(len(a))
                flat += a
            else:
                shape.append(-1)
                flat.append(a)
        shapes.append(shape)
    regs = b.alloc_reg(len(flat))
    sets = []
    for i, a in enumerate(flat):
        if type(a) is A.InSelect:
            sets.append((regs + i, _code_set(p, arg_scope, a.select)))
        else:
            code_expr(p, arg_scope, a, regs + i)
    rowids = _rowids(kind) if len(branches) > 1 else None

    def fill(vm, values, cur=cur, fn=fn):
        data = vm.cursors[cur].data
        seen, i = set(), 0
        for k, shape in enumerate(shapes):
            n = sum(1 if w < 0 else w for w in shape)
            vals = values[i:i + n]
            i += n
            combos = _in_combinations(vals, shape) if any(n >= 0 for n in shape) else (vals,)
            if rowids is None:
                for vals in combos:
                    for row in fn(vm.db, *vals):
                        data.insert(data.next_rowid, tuple(row))
                continue
            mine = []
            for rowid, row in rowids(vm.db, fn, combos):
                if not k or rowid not in seen:
                    data.insert(data.next_rowid, tuple(row))
                mine.append(rowid)
            seen.update(mine)
        return None

    def clear(vm, values, cur=cur):
        data = vm.cursors[cur].data
        data.rows.clear()
        data.rowids.clear()
        data.next_rowid = 1
        return None
    out = b.alloc_reg()
    if refill:
        b.emit(O.OP_Function, 0, regs, out, clear, 0)
    ends = []
    for reg, scur in sets:
        end = b.new_label()
        b.emit(O.OP_Rewind, scur, end)
        top = b.addr()
        nxt = b.new_label()
        b.emit(O.OP_Column, scur, 0, reg)
        b.emit(O.OP_IsNull, reg, nxt)
        ends.append((scur, top, nxt, end))
    b.emit(O.OP_Function, 0, regs, out, fill, len(flat))
    for scur, top, nxt, end in reversed(ends):
        b.resolve(nxt)
        b.emit(O.OP_Next, scur, top)
        b.resolve(end)


def _rowids(kind):
    """The rows and rowids of one OR operand's calls, ``rows(db, fn, combos)``, as the
    function's virtual table numbers them: json_each's count from 0 in each call, a
    pragma's from 1 on across the operand's calls (its cursor counts the end of each
    call too)."""
    if kind == "json":
        def rows(db, fn, combos):
            for vals in combos:
                yield from enumerate(fn(db, *vals))
        return rows

    def rows(db, fn, combos):
        r = 0
        for vals in combos:
            for row in fn(db, *vals):
                r += 1
                yield r, row
            r += 1
    return rows


def _code_set(p, scope, sel):
    """The cursor of an ephemeral index filled with the rows of one-column subquery
    ``sel`` (in ``scope``), an IN's set (BINARY: the HIDDEN column's collation)."""
    from sqlengine.compiler.select import (SetDest, _close_subquery_line,
                                           _open_subquery_line, compile_select)
    from sqlengine.vdbe.sorter import SortSpec
    b = p.b
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenEphemeral, cur, 1, 0, SortSpec(1, [p.collation(None)]))
    corr = [False]
    line = _open_subquery_line(p, sel, "LIST")
    info = compile_select(p, sel, SetDest(cur), scope, corr)
    _close_subquery_line(p, line, corr[0])
    if len(info.names) != 1:
        raise OperationalError(f"sub-select returns {len(info.names)} columns - expected 1")
    return cur
