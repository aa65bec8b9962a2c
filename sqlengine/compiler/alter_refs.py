"""RENAME COLUMN in a view, driven by name resolution: the source offsets of the
identifiers of a view's SELECT that resolve to the renamed column of the renamed table,
as SQLite's renameColumnFunc collects them (``select t.a, u.a from t, u`` renames
``t.a`` alone).

The resolving here is SQLite's for the shapes it covers: each SELECT core's FROM items
(tables, views, FROM subqueries) form a scope, an unqualified name is looked up from the
innermost scope outwards, a qualified one by the item's alias or name. ``view_positions``
returns None for what it does not cover (a WITH clause, NATURAL or USING joins, table
functions); the caller then falls back to rewriting every token of the name.

This module only reads the AST; it emits no code.
"""

from __future__ import annotations

from sqlengine.compiler.walk import compound_cores, iter_children
from sqlengine.sql import ast as A
from sqlengine.sql import parse_one
from sqlengine.sql.lexer import next_token


class _Unsupported(Exception):
    pass


def view_positions(schema, sql, table, old):
    """Offsets into ``sql`` (a CREATE VIEW) of the identifier tokens naming column
    ``old`` of table ``table`` (a schema Table), or None when the view's shape is not
    covered."""
    try:
        stmt = parse_one(sql).stmt
        hits: list[int] = []
        _select(schema, stmt.select, [], table, old.lower(), hits)
    except _Unsupported:
        return None
    return sorted({_name_token(sql, p, n) for p, n in hits} - {None})


def _name_token(sql, pos, dots):
    """The offset of the identifier after ``dots`` dots from ``pos`` (a Column's)."""
    i = pos
    seen = 0
    while i < len(sql):
        kind, end = next_token(sql, i)
        if kind == "DOT":
            seen += 1
        elif kind != "SPACE":
            if seen == dots:
                return i
        i = end
    return None


def _select(schema, sel, outer, table, old, hits):
    if sel.with_ is not None:
        raise _Unsupported
    cores = compound_cores(sel.body)
    last = None
    for core in cores:
        if type(core) is not A.SelectCore:
            raise _Unsupported  # (VALUES)
        scope = []
        if core.from_ is not None:
            _sources(schema, core.from_, scope, table, old, hits, outer)
        chain = [scope] + outer
        for rc in core.columns:
            if type(rc) is A.ResultColumn:
                _expr(schema, rc.expr, chain, table, old, hits)
        for e in (core.where, core.having):
            if e is not None:
                _expr(schema, e, chain, table, old, hits)
        for e in core.group_by or ():
            _expr(schema, e, chain, table, old, hits)
        if core.windows:
            raise _Unsupported
        last = chain
    for term in sel.order_by or ():
        _expr(schema, term, last, table, old, hits)
    for e in (sel.limit, sel.offset):
        if e is not None:
            _expr(schema, e, last, table, old, hits)


def _sources(schema, item, scope, table, old, hits, outer):
    t = type(item)
    if t is A.Join:
        if item.natural or item.using:
            raise _Unsupported
        _sources(schema, item.left, scope, table, old, hits, outer)
        _sources(schema, item.right, scope, table, old, hits, outer)
        if item.on is not None:
            _expr(schema, item.on, [scope] + outer, table, old, hits)
    elif t is A.TableRef:
        if item.schema is not None:
            raise _Unsupported
        low = item.name.lower()
        tab = schema.table(item.name)
        if tab is not None:
            cols = {c.name.lower() for c in tab.columns}
            scope.append(((item.alias or item.name).lower(), tab is table, cols))
        elif low in schema.views:
            v = schema.views[low]
            cols = {c.lower() for c in (v.columns or ())}
            if not cols:
                raise _Unsupported
            scope.append(((item.alias or item.name).lower(), False, cols))
        else:
            raise _Unsupported
    elif t is A.SubqueryRef:
        _select(schema, item.select, [], table, old, hits)
        cols = set()
        for core in compound_cores(item.select.body)[-1:]:
            for rc in getattr(core, "columns", ()):
                if type(rc) is not A.ResultColumn:
                    raise _Unsupported
                if rc.alias:
                    cols.add(rc.alias.lower())
                elif type(rc.expr) is A.Column:
                    cols.add(rc.expr.name.lower())
        scope.append(((item.alias or "").lower(), False, cols))
    else:
        raise _Unsupported


def _expr(schema, e, chain, table, old, hits):
    t = type(e)
    if t is A.Column:
        _column(e, chain, old, hits)
        return
    if t is A.Select:
        _select(schema, e, chain, table, old, hits)
        return
    for c in iter_children(e):
        _expr(schema, c, chain, table, old, hits)


def _column(e, chain, old, hits):
    if e.schema is not None:
        raise _Unsupported
    name = e.name.lower()
    if e.table is not None:
        q = e.table.lower()
        for scope in chain:
            for alias, is_target, _cols in scope:
                if alias == q:
                    if is_target and name == old:
                        hits.append((e.pos, 1))
                    return
        return
    for scope in chain:
        found = [s for s in scope if name in s[2]]
        if found:
            if found[0][1] and name == old:
                hits.append((e.pos, 0))
            return
