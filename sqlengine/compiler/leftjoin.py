"""A LEFT JOIN that the WHERE clause makes an inner join, run as one, as SQLite does.

SQLite's sqlite3Select, before it flattens or plans anything, looks at each FROM item on
the right of a LEFT JOIN: when a term of the WHERE clause cannot be true on the row of
NULLs that pads an unmatched row (``... LEFT JOIN b ON a.x = b.x WHERE b.y = 1``), no such
row survives, so the join is made an inner join (its ON clause then an ordinary term).
The planner may then read ``b`` first, and EXPLAIN QUERY PLAN shows no LEFT-JOIN; the rows
are the same, their order without ORDER BY is the new plan's.

The test is sqlite3ExprImpliesNonNullRow's, on the AST before names are resolved: each
top-level AND term of the WHERE clause and of the ON clauses of the inner joins (SQLite
has appended those to its WHERE; an outer join's ON terms are its own), without a
top-level COLLATE or likely(), ``x NOTNULL`` read as ``x``, is walked as its
impliesNotNullRow walker walks it: a column of the item found through arithmetic, NOT,
CAST, COLLATE, a comparison (not one with a table-valued function's column as an
operand), both sides of an inner AND or BETWEEN's left operand answers yes; IS, IS NOT,
IS [NOT] NULL, OR, IN, CASE, a row value, a function call (LIKE and GLOB included) and a
subquery stop the walk there. Items are looked at left to right; one made inner adds its
ON clause's terms for the items after it.

A column is the item's when qualified by its name, or unqualified and the name of a
column of that item alone among the FROM items whose columns are known (a table's, a
view's or a FROM subquery's; a USING or NATURAL column shared with an item on its left
is that item's). A name this cannot place is taken as not the item's: the join then
stays a LEFT JOIN, where SQLite might make it inner (the same rows). Not done with a
RIGHT or FULL JOIN in the FROM clause, nor for an item in parentheses.
"""

from __future__ import annotations

import dataclasses

from sqlengine.sql.ast import (Between, Binary, Cast, Collate, Column, FunctionCall, IsNull, Join,
                               Literal, SubqueryRef, TableFunctionRef, TableRef, Unary)

_COMPARE = frozenset(("=", "==", "<", "<=", ">", ">=", "!=", "<>"))
_ROWID = ("rowid", "oid", "_rowid_")


def has_left_join(f) -> bool:
    """Whether the FROM clause ``f`` holds a LEFT JOIN and no RIGHT or FULL one."""
    left = False
    while type(f) is Join:
        k = f.kind
        if k == "RIGHT" or k == "FULL" or type(f.right) is Join:
            return False
        left = left or k == "LEFT"
        f = f.left
    return left and type(f) is not Join


def simplify_left_joins(p, core):
    """``core`` with each LEFT JOIN its WHERE or inner ON terms make inner written as an
    inner join (see the module docstring), or ``core`` itself when there is none."""
    joins = []
    f = core.from_
    while type(f) is Join:
        joins.append(f)
        f = f.left
    joins.reverse()
    items = [f] + [j.right for j in joins]
    terms = []
    _conjuncts(core.where, terms)
    for j in joins:
        if j.kind != "LEFT":
            _conjuncts(j.on, terms)
    if not terms:
        return core
    names = [_visible(it) for it in items]
    cols = [_columns(p, it) for it in items]
    shared = [set() for _ in items]  # (USING / NATURAL columns an item shares with the left)
    for k, j in enumerate(joins, 1):
        if j.using:
            shared[k] = {n.lower() for n in j.using}
        elif j.natural and cols[k] is not None:
            left = set().union(*(c for c in cols[:k] if c is not None))
            shared[k] = cols[k] & left
    vtab = {n for n, it in zip(names, items) if n and _maybe_function(p, it)}
    changed = {}
    for k, j in enumerate(joins, 1):
        if j.kind != "LEFT":
            continue
        owns = _owner_test(k, names, cols, shared)
        if owns is None:
            continue
        if any(_implies_row(t, owns, vtab) for t in terms):
            changed[k] = True
            _conjuncts(j.on, terms)
    if not changed:
        return core
    f = items[0]
    for k, j in enumerate(joins, 1):
        if k in changed or f is not j.left:
            j = dataclasses.replace(j, left=f, kind="INNER" if k in changed else j.kind)
        f = j
    return dataclasses.replace(core, from_=f)


def _conjuncts(e, out):
    """Append the top-level AND terms of ``e`` (None: none) to ``out``. Not
    _terms.split_and, which also splits ``(a, b) = (x, y)`` into ``a = x`` and ``b = y``
    as SQLite's later WHERE analysis does: here, as in sqlite3ExprImpliesNonNullRow, such a
    term is one comparison of row values, which proves nothing."""
    stack = [e]
    while stack:
        x = stack.pop()
        if x is None:
            continue
        if type(x) is Binary and x.op.upper() == "AND":
            stack.append(x.right)
            stack.append(x.left)
        else:
            out.append(x)


def _visible(it):
    """The lower-case name a FROM item's columns are qualified by, or None."""
    if type(it) is SubqueryRef:
        return it.alias.lower() if it.alias else None
    n = it.alias or it.name
    return n.lower() if n else None


def _maybe_function(p, it) -> bool:
    """Whether FROM item ``it`` is or may be a table-valued function: a call, or a name
    no table, view or CTE has (``pragma_table_info`` written without arguments)."""
    if type(it) is TableFunctionRef:
        return True
    if type(it) is not TableRef:
        return False
    low = it.name.lower()
    if p.schema.table(low) is not None or low in p.schema.views:
        return False
    return not any(low in frame for frame in getattr(p, "ctes", None) or ())


def _columns(p, it):
    """The lower-case column names FROM item ``it`` shows, or None when not known here."""
    if type(it) is TableRef:
        if it.schema is not None or getattr(p, "ctes", None):
            return None
        low = it.name.lower()
        view = p.schema.views.get(low)
        if view is not None:
            return None
        t = p.schema.table(low)
        if t is None:
            return None
        out = {c.name.lower() for c in t.columns}
        if not t.without_rowid:
            out.update(_ROWID)
        return out
    if type(it) is SubqueryRef:
        body = it.select.body
        out = set()
        for rc in getattr(body, "columns", None) or ():
            alias = getattr(rc, "alias", None)
            expr = getattr(rc, "expr", None)
            if alias:
                out.add(alias.lower())
            elif type(expr) is Column:
                out.add(expr.name.lower())
            else:
                return None  # (a ``*`` or an expression named by its text)
        return out
    return None


def _owner_test(k, names, cols, shared):
    """A test of a Column node: whether it reads item ``k``, or None when the item's
    columns are not known (an unqualified name could not be placed)."""
    mine = cols[k]
    vis = names[k]
    if mine is None and vis is None:
        return None
    others = [c for i, c in enumerate(cols) if i != k]
    known = all(c is not None for c in others)

    def owns(e):
        if e.schema is not None:
            return False
        if e.table is not None:
            return vis is not None and e.table.lower() == vis
        n = e.name.lower()
        if not known or mine is None or n not in mine or n in shared[k]:
            return False
        return not any(n in c for c in others)
    return owns


def _implies_row(term, owns, vtab) -> bool:
    """sqlite3ExprImpliesNonNullRow for one top-level term (see the module docstring)."""
    while True:
        t = type(term)
        if t is Collate:
            term = term.expr
        elif t is FunctionCall and term.name.lower() in ("likely", "unlikely", "likelihood") \
                and term.args and not getattr(term, "over", None):
            term = term.args[0]
        else:
            break
    if type(term) is IsNull and term.negated:
        term = term.expr
    elif type(term) is Binary and term.op.upper() == "IS NOT" and \
            type(term.right) is Literal and term.right.value is None:
        term = term.left
    return _walk(term, owns, vtab)


def _walk(e, owns, vtab) -> bool:
    """SQLite's impliesNotNullRow walk of ``e``: whether it reaches a column of the item."""
    t = type(e)
    if t is Column:
        return owns(e)
    if t is Binary:
        op = e.op.upper()
        if op == "AND":
            return _walk(e.left, owns, vtab) and _walk(e.right, owns, vtab)
        if op in ("OR", "IS", "IS NOT"):
            return False
        if op in _COMPARE and (_vtab_column(e.left, vtab) or _vtab_column(e.right, vtab)):
            return False
        return _walk(e.left, owns, vtab) or _walk(e.right, owns, vtab)
    if t is Unary:
        return _walk(e.operand, owns, vtab)
    if t is Cast or t is Collate:
        return _walk(e.expr, owns, vtab)
    if t is Between:
        return _walk(e.expr, owns, vtab)
    return False  # (IS NULL, IN, LIKE, CASE, a row value, a function, a subquery, a value)


def _vtab_column(e, vtab) -> bool:
    """Whether ``e`` is a column of a table-valued function of the FROM clause (SQLite
    lets a virtual table take ``x = NULL``: such a comparison proves nothing; with such
    a function in FROM an unqualified column may be one of its)."""
    if type(e) is not Column or not vtab:
        return False
    return e.table is None or e.table.lower() in vtab  # (unqualified: it may be one's)
