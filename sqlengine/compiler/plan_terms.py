"""The WHERE clause analysed once per statement (SQLite's ``WhereClause``): the terms of the
AND-split WHERE (and ON) expression, each with the bitmask of the FROM items it reads and,
for a comparison of a column with another expression, the operands an index could use.

Masks are plain integers: bit ``i`` stands for ``scope.sources[i]`` in the order the sources
had when the clause was analysed (FROM order). A term that reads a subquery, a
non-deterministic function or a name that does not resolve to a column of this scope is
*pinned*: it is tested in the innermost loop, where every source is positioned. Every
expression is walked once; name lookups go through the scope's cache. The clause, its terms
and operands and the mask walk are compiled (``_terms.pyx``: every statement of the corpus
is analysed once), as is the AND split (``split_and``); this module re-exports them and
holds the OR-to-IN rewrite and ``column_of``. It emits no code and never decides the plan
(``planner.py`` does).
"""

from __future__ import annotations

from sqlengine.compiler._terms import (  # noqa: F401  (the compiled core; re-exported)
    PINNED, Masker, Operand, WhereClause, WhereTerm, is_constant, split_and)
from sqlengine.compiler._terms import column_ref as _column_ref
from sqlengine.compiler.resolve import ResolvedColumn
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A


def column_of(scope, e, src):
    """The column number of ``src`` that ``e`` is (-1: the rowid or INTEGER PRIMARY KEY of
    a table), or None. A COLLATE-wrapped column is not a column for an index."""
    t = type(e)
    if t is ResolvedColumn:
        ref = e.ref
    elif t is A.Column:
        try:
            ref = scope.lookup(e.name, e.table)
        except OperationalError:
            return None
        if ref is None or ref.depth != 0:
            return None
    else:
        return None
    if ref.source is not src:
        return None
    if src.is_table and ref.col >= 0 and ref.col == src.ipk:
        return -1
    return ref.col


def or_to_in(scope, t):
    """SQLite's OR-to-IN rewrite for the planner: a term ``x = c1 OR x = c2 OR ...`` on one
    column with constants is an operand ``x IN (c1, c2, ...)`` (the term itself is still
    tested in the loop); None for any other OR."""
    stack = [t.expr]
    col = None
    values = []
    while stack:
        e = stack.pop()
        if type(e) is not A.Binary:
            return None
        if e.op == "OR":
            stack.append(e.right)
            stack.append(e.left)
            continue
        if e.op != "=":
            return None
        if is_constant(e.right):
            x, v = e.left, e.right
        elif is_constant(e.left):
            x, v = e.right, e.left
        else:
            return None
        hit = _column_ref(scope, x)
        if hit is None or hit[0].is_table is False:
            return None
        if col is None:
            col, lhs = hit, x
        elif hit != col:
            return None
        values.append(v)
    src, c = col
    return Operand(src, c, "IN", A.InList(lhs, values), lhs, 0, t)
