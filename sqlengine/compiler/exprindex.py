"""Indexes on expressions as the planner sees them: which term of a WHERE clause is an
indexed expression (SQLite's exprIsIndexedExpr), and that column's affinity.

An index column of an expression has the column number ``schema.XN_EXPR`` (-2) and its
expression in ``Index.exprs``. A comparison ``expr op value`` whose ``expr`` is, node for
node, the indexed expression over the same table (names resolved in the query) becomes
an operand on that column; the planner then treats it like a column of the index. This
module reads the AST and the schema; it never emits code.
"""

from __future__ import annotations

import dataclasses

from sqlengine.compiler.resolve import ResolvedColumn
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe.opcodes import AFF_BLOB

XN_EXPR = -2
_IGNORED = frozenset(("pos", "quoted"))


def indexed_expr_sources(scope, e):
    """The table sources of ``scope`` with an index on an expression equal to ``e``."""
    out = []
    for src in scope.sources:
        t = src.table if src.is_table else None
        if t is None:
            continue
        for ix in t.indexes:
            if ix.exprs is None:
                continue
            if any(x is not None and same_expr(scope, src, e, x) for x in ix.exprs):
                out.append(src)
                break
    return out


def same_expr(scope, src, q, x) -> bool:
    """True when the query expression ``q`` is the index expression ``x`` of ``src``'s
    table (``x`` names the table's columns unqualified)."""
    while isinstance(x, A.Collate):
        x = x.expr
    tq = type(q)
    if tq is ResolvedColumn or tq is A.Column:
        if type(x) is not A.Column or x.table is not None:
            return False
        if tq is ResolvedColumn:
            ref = q.ref
        else:
            try:
                ref = scope.lookup(q.name, q.table)
            except OperationalError:
                return False
        if ref is None or ref.depth != 0 or ref.source is not src or ref.col < 0:
            return False
        return ref.col == src.table.find_column(x.name)
    if tq is not type(x):
        return False
    if tq is A.Literal:
        return type(q.value) is type(x.value) and q.value == x.value
    if not dataclasses.is_dataclass(q):
        return q == x
    for f in dataclasses.fields(q):
        if f.name in _IGNORED:
            continue
        a, b = getattr(q, f.name), getattr(x, f.name)
        if f.name == "name" and tq is A.FunctionCall:
            if a.lower() != b.lower():
                return False
            continue
        if not _same_value(scope, src, a, b):
            return False
    return True


def _same_value(scope, src, a, b) -> bool:
    if isinstance(a, (list, tuple)):
        if not isinstance(b, (list, tuple)) or len(a) != len(b):
            return False
        return all(_same_value(scope, src, u, v) for u, v in zip(a, b))
    if dataclasses.is_dataclass(a) or type(a) is ResolvedColumn:
        return b is not None and same_expr(scope, src, a, b)
    return a == b


def index_column_affinity(table, ix, k, lhs_affinity=None):
    """The affinity of index column ``k``: the table column's, or for an expression the
    expression's (``lhs_affinity``), BLOB when it has none."""
    col = ix.columns[k]
    if col >= 0:
        return table.columns[col].affinity
    return lhs_affinity if lhs_affinity not in (None, "", "@") else AFF_BLOB
