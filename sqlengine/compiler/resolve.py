"""Name resolution: FROM-clause sources, scopes, column lookup, ``*`` expansion, aliases.

A ``Scope`` is one SELECT's name context: its sources (tables, views and subqueries of the
FROM clause, each with a cursor), the scope around it (for correlated references) and the
registers that stand for columns and aggregates once rows have left their cursors (the
output phase of an aggregate query). Lookups follow SQLite's rules and raise its errors:
``no such column: x``, ``ambiguous column name: x``. This module emits no code beyond
what a lookup returns; it never touches storage.

The classes and the functions run for every expression node (lookups, the affinity and
collation of an expression) are compiled, in ``_resolve.pyx``, and re-exported here.
"""

from __future__ import annotations

from sqlengine.compiler._resolve import (  # noqa: F401  (the public surface of this module)
    ROWID_NAMES, ColRef, ResolvedColumn, Scope, Source, clear_caches, comparison_collation,
    expr_affinity, expr_coll_seq, expr_collation, has_explicit_collate, real_affinity)
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A

def check_star_column(sources, src, j):
    """SQLite expands ``*`` and ``t.*`` into ``schema.table.column`` names and resolves
    them again: where two FROM items share a name (two tables, or two subqueries), a
    column both have, not merged by USING, is ambiguous."""
    lname = src.columns[j].lower()
    lsrc = src.name.lower()
    hit = None
    for s in sources:
        if s.is_table != src.is_table or s.name.lower() != lsrc:
            continue
        k = s.col_lower.get(lname)
        if k is None:
            continue
        if hit is None:
            hit = s
        elif k not in s.hidden:
            schema = "main" if src.is_table else "*"
            raise OperationalError(
                f"ambiguous column name: {schema}.{src.name}.{src.columns[j]}")


def subquery_rowid_null(db, sel, first, next_kind, right_of_left) -> bool:
    """Whether the rowid of a FROM subquery or view reads NULL in SQLite (3.40): it does
    when the subquery is run as a co-routine (the first FROM item, alone or followed by
    a LEFT or CROSS join) or flattened into the outer query (its rowid is replaced by
    NULL); a subquery SQLite materializes numbers its rows 1, 2, ... The flattening test
    is the main part of SQLite's: a plain SELECT with a FROM clause, no DISTINCT,
    aggregate, LIMIT or window function, and not a join on the right of a LEFT JOIN."""
    if first and next_kind in (None, "LEFT", "CROSS"):
        return True
    body = sel.body
    if sel.with_ is not None or type(body) is not A.SelectCore or sel.limit is not None:
        return False
    if body.from_ is None or body.distinct or body.group_by or body.having is not None:
        return False
    if right_of_left and type(body.from_) is A.Join:
        return False
    if body.features & A.FEAT_FUNCTION:
        from sqlengine.compiler.walk import find_node

        def is_agg(e):
            return type(e) is A.FunctionCall and (e.over is not None or db.is_aggregate(
                e.name, 0 if e.star else len(e.args)))
        for rc in body.columns:
            if type(rc) is A.ResultColumn and find_node(rc.expr, is_agg) is not None:
                return False
    return True


def no_such_column(name, table=None):
    if table:
        return OperationalError(f"no such column: {table}.{name}")
    return OperationalError(f"no such column: {name}")


