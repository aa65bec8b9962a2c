"""The query flattener (SQLite's flattenSubquery), for its plainest case: a SELECT whose
only FROM item is a view or subquery that just picks columns and rows of one table

    SELECT <outer> FROM (SELECT c1, c2 FROM tab WHERE <w>) AS v WHERE <x>

is coded as ``SELECT <outer> FROM tab AS v WHERE <w> AND <x>``: the table is read in the
outer query's own loop (and can use its indexes for both WHERE clauses) instead of being
copied into an ephemeral table first; its plan line names ``tab``, as sqlite3's. SQLite flattens far more shapes; this covers the
ones where the rewrite cannot change a result, a name or an error:

- the inner SELECT is one core over one table of the schema (not a view, CTE or
  table-valued function), without DISTINCT, GROUP BY, HAVING, windows, ORDER BY, LIMIT,
  WITH or a column list (a view's ``(a, b)``), its result columns ``*`` alone or plain
  unqualified, unaliased, distinct names of the table's columns, its WHERE free of
  subqueries and of names other than the table's columns, unqualified;
- the outer query names only the columns the inner one returns, unqualified or qualified
  by the item's alias (a ``*`` stands for those columns), holds no subquery, and no CTE
  is in scope (which could hide the view's table).

A view over such a view is flattened into it first, so the chain ends at the table. An
inner SELECT whose result columns are expressions of its table's columns (or its columns
under other names) is merged by copies of them where the outer query names them
(compiler/flatsubst.py, under its conditions; ``flatten_lone`` then returns the outer
ORDER BY with its copies too).

Unqualified names keep resolving exactly as before (a result alias first where SQLite
looks at aliases, else the column), since each exported column is the table column of the
same name. Anything else is left to materialization. This module rewrites ASTs only.
"""

from __future__ import annotations

import dataclasses
from functools import partial

from sqlengine.compiler.truefalse import WORDS
from sqlengine.compiler.walk import SUBQUERY_NODES, iter_children, map_children, map_value
from sqlengine.sql.ast import (
    FEAT_FUNCTION, Binary, Column, FunctionCall, InTable, Join, Literal, ResultColumn,
    SelectCore, Star, SubqueryRef, TableRef)

_SUBQUERIES = SUBQUERY_NODES + (InTable,)
_AGGREGATES = frozenset(("count", "sum", "total", "avg", "min", "max", "group_concat",
                         "string_agg"))


def flatten_from(p, core, order_by, views=()):
    """``core`` with its one view or subquery FROM item merged into it, or ``core`` itself
    when the rewrite does not apply (``views``: the views being flattened around it)."""
    return flatten_lone(p, core, order_by, views)[0]


def flatten_lone(p, core, order_by, views=()):
    """(``core``, ``order_by``) with its one view or subquery FROM item merged into them,
    or themselves when the rewrite does not apply. An item whose result columns are expressions of its table's columns
    is merged by copies of them (compiler/flatsubst.py)."""
    item = core.from_
    view = None
    if type(item) is SubqueryRef:
        sel, visible = item.select, item.alias
    elif type(item) is TableRef and item.schema is None and not getattr(p, "ctes", None):
        key = item.name.lower()
        view = p.schema.views.get(key)
        if (view is None or view.columns or key in views
                or p.schema.table(item.name) is not None):
            return core, order_by
        if item.indexed_by is not None:  # (a view has no index: the error, not flattened)
            return core, order_by
        sel, visible = view.select, item.alias or item.name
        views = views + (key,)
    else:
        return core, order_by
    if (sel.with_ is not None or sel.order_by or sel.limit is not None
            or type(sel.body) is not SelectCore):
        return core, order_by
    body = _star_listed(p, flatten_from(p, sel.body, None, views))  # (a view of a view ...)
    names = _exported(p, body)
    if names is None:
        if _bare_columns(body) and _exported(p, body, True) is None:
            return core, order_by  # (not merged for another reason: no copy can help)
        if view is not None and (view.columns or p.db.attached and type(
                body.from_) is TableRef and _rebound(p, view, body.from_.name)):
            return core, order_by
        from sqlengine.compiler.flatsubst import lone_copies
        out = lone_copies(p, core, order_by, body, visible)
        return (core, order_by) if out is None else out
    if not _outer_reads_only(core, order_by, names, visible):
        return core, order_by
    table = body.from_
    if view is not None and p.db.attached and _rebound(p, view, table.name):
        return core, order_by
    where = body.where if core.where is None else (
        core.where if body.where is None else Binary("AND", body.where, core.where))
    item = dataclasses.replace(table, alias=visible)
    # its loop's plan line names the table (or the alias it has in the inner SELECT)
    if p.flat_names is None:
        p.flat_names = {}
    p.flat_names[id(item)] = p.flat_names.get(id(table), table.alias or table.name)
    columns = [c for rc in core.columns for c in _expand_star(
        rc, body, None if view is not None else p.schema.table(table.name))]
    return dataclasses.replace(core, columns=columns, from_=item, where=where,
                               features=core.features | body.features), order_by


def _expand_star(rc, body, table):
    """The result columns ``rc`` stands for: a ``*`` the inner SELECT's columns, named as
    the inner SELECT writes them when ``table`` is given (SQLite names a FROM subquery's
    columns before resolving them: ``A`` for a column declared ``a``), else (a view's,
    named after they resolve) as the table declares them."""
    if type(rc) is ResultColumn:
        return [rc]
    return [ResultColumn(dataclasses.replace(c.expr), _written(c.expr.name, table),
                           c.expr.name) for c in body.columns]


def _written(name, table):
    """``name`` as an alias when it is spelled otherwise than the column's declared name."""
    i = table.col_index.get(name.lower(), -1) if table is not None else -1
    return name if i >= 0 and table.columns[i].name != name else None


def _star_listed(p, body):
    """``body`` with a lone ``*`` over one table of the schema written out as its
    columns (the ones ``*`` shows), else ``body`` itself."""
    cols, item = body.columns, body.from_
    if (len(cols) != 1 or type(cols[0]) is not Star or cols[0].table is not None
            or type(item) is not TableRef or item.schema is not None):
        return body
    t = p.schema.table(item.name)
    if t is None:
        return body
    names = [c.name for c in t.columns]
    return dataclasses.replace(body, columns=[ResultColumn(Column(n), None, n)
                                              for n in names])


def _rebound(p, view, name):
    """Whether the table ``name`` in the body of ``view`` is another than the statement's
    own ``name`` (or none): the view's database's, where a temp table hides it, or a
    temp one only (SQLite binds the body's names to that database, cte.bound_object);
    such a view is not merged."""
    from sqlengine.compiler.attach import holder_name
    from sqlengine.compiler.cte import bound_object
    db = holder_name(p.db, p.schema, view)
    if db is None:
        return False
    return bound_object(p, name, db) is not p.schema.table(name)


def _exported(p, body, qualified=False):
    """The names of the columns a SELECT core the flattener can merge returns, else
    None (with ``qualified``, its names may be qualified by its table's name or alias:
    flatjoin.py names every column of the merged table by the item's name)."""
    if body.distinct or body.group_by or body.having is not None or body.windows:
        return None
    table = body.from_
    t = p.schema.table(table.name) if type(table) is TableRef else None
    if (t is None or table.schema is not None
            or getattr(p, "ctes", None) and _names_cte(p, table.name)):
        return None
    columns = {c.name.lower() for c in t.columns}
    own = (table.alias or table.name).lower() if qualified else None
    names = set()
    for rc in body.columns:
        if type(rc) is not ResultColumn or rc.alias is not None:
            return None
        e = rc.expr
        if type(e) is not Column or e.schema is not None or e.table is not None and (
                own is None or e.table.lower() != own):
            return None
        key = e.name.lower()
        if key in names or key not in columns or key in WORDS:  # (WORDS: named columnN)
            return None
        names.add(key)
    if body.where is not None and not _plain_names(body.where, own, columns):
        return None
    return names


def _bare_columns(body) -> bool:
    """Whether every result column of ``body`` is an unqualified column name without an
    alias (what ``_exported`` takes; flatsubst.py's copies are for the others)."""
    for rc in body.columns:
        if type(rc) is not ResultColumn or rc.alias is not None:
            return False
        e = rc.expr
        if type(e) is not Column or e.table is not None or e.schema is not None:
            return False
    return True


def _names_cte(p, name):
    from sqlengine.compiler.cte import find_cte
    return find_cte(p, name) is not None


def _outer_reads_only(core, order_by, names, visible):
    """True when every name the outer query reads is an exported column (unqualified or
    qualified by ``visible``) and it holds no ``*`` nor subquery."""
    vis = visible.lower() if visible else None
    for rc in core.columns:
        if type(rc) is not ResultColumn and (
                type(rc) is not Star or rc.table is not None and rc.table.lower() != vis):
            return False
    parts = [rc.expr for rc in core.columns if type(rc) is ResultColumn]
    parts += [x for x in (core.where, core.having) if x is not None]
    parts += list(core.group_by or ())
    parts += [w for _n, w in core.windows or ()]
    parts += [o.expr for o in order_by or ()]
    return all(_plain_names(e, vis, names) for e in parts)


def _plain_names(e, qualifier, names=None):
    """No subquery under ``e``, and each column name in it unqualified or qualified by
    ``qualifier`` (and among ``names`` when given)."""
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, _SUBQUERIES):
            return False
        if type(x) is Column:
            if x.schema is not None:
                return False
            if x.table is not None and (qualifier is None or x.table.lower() != qualifier):
                return False
            if names is not None and x.name.lower() not in names:
                return False
            continue
        stack.extend(iter_children(x))
    return True


ALL_COLUMNS = frozenset()  # (``unused_columns``' ``uncoded``: every result column)


def unused_columns(body, col_names, outer_core, order_by, uncoded=None):
    """The numbers of the result columns of ``body`` (a FROM subquery's core that SQLite's
    flattener merges into ``outer_core``; ``col_names``: the names a CTE's or view's
    column list gives them) that the outer query never names: merged away, SQLite never
    codes them, so their code-time errors never show. Judged by name over the whole outer
    query (its subqueries too); any ``*`` or quoted name there uses them all, except in
    the outer query's result columns ``uncoded`` (ALL_COLUMNS: all of them, as in an
    EXISTS subquery), which SQLite never codes either."""
    names = set()
    stack = [o.expr for o in order_by or ()]
    skip = () if uncoded is None else {
        id(c) for i, c in enumerate(outer_core.columns) if uncoded is ALL_COLUMNS or i in uncoded}
    stack += [c for c in iter_children(outer_core) if id(c) not in skip]
    while stack:
        x = stack.pop()
        if x is body:
            continue
        t = type(x)
        if t is Star or t is Column and x.quoted:
            return set()
        if t is Column:
            names.add(x.name.lower())
        stack.extend(iter_children(x))
    if not names and skip:
        return ALL_COLUMNS  # (its ``*`` too: the outer query reads none of them)
    out = set()
    for i, rc in enumerate(body.columns):
        if type(rc) is not ResultColumn:
            return set()
        if col_names:
            name = col_names[i] if i < len(col_names) else ""
        else:
            name = rc.alias or (rc.expr.name if type(rc.expr) is Column else rc.text)
        if name.lower() not in names:
            out.add(i)
    return out


def without_outer_aggregates(sel):
    """``sel`` (a FROM subquery) with each aggregate call of its result columns that reads
    an enclosing query's columns only (every column qualified by a name no FROM item of
    its own has: aggscope attaches such a call further out) made NULL, or None when it
    has none: SQLite's flattener sees no aggregate query there."""
    body = sel.body
    if type(body) is not SelectCore or not body.features & FEAT_FUNCTION:
        return None
    own = set()
    stack = [body.from_] if body.from_ is not None else []
    while stack:
        item = stack.pop()
        if type(item) is Join:
            stack += [item.left, item.right]
        else:
            name = getattr(item, "alias", None) or getattr(item, "name", None)
            if name:
                own.add(name.lower())
    columns = map_value(body.columns, partial(_null_outer, own=own))
    if columns is body.columns:
        return None
    return dataclasses.replace(sel, body=dataclasses.replace(body, columns=columns))


def _null_outer(x, own):
    """``x`` with each aggregate call that reads only columns of names outside ``own``
    made NULL (without_outer_aggregates; a module function, not a closure: see
    tests/test_source_guard.py)."""
    if isinstance(x, _SUBQUERIES):
        return x
    if type(x) is FunctionCall and x.name.lower() in _AGGREGATES and x.over is None:
        cols = [c for a in x.args for c in _walk(a) if type(c) is Column]
        if x.star or not cols or any(c.table is None or c.table.lower() in own
                                     for c in cols):
            return x
        return Literal(None)
    return map_children(x, partial(_null_outer, own=own))


def _walk(e):
    stack = [e]
    while stack:
        x = stack.pop()
        yield x
        if not isinstance(x, _SUBQUERIES):
            stack.extend(iter_children(x))
