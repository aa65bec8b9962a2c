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
    ROWID_NAMES, CoalesceRef, ColRef, OuterAlias, ResolvedColumn, Scope, Source, clear_caches,
    comparison_collation,
    expr_affinity, expr_coll_seq, expr_collation, has_explicit_collate, real_affinity,
    release_scopes, table_source)
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


class CoroutineSource(Source):
    """The source of a FROM subquery, view or CTE run as a co-routine (``coroutine_place``)
    instead of being stored: ``co_reg`` holds the co-routine's return address,
    ``co_entry`` is its first instruction and ``co_base`` the first of the registers it
    yields each row in. The loop over it (compiler/_where.pyx) starts it, takes each row
    with Yield and reads its columns from those registers (SQLite's viaCoroutine)."""

    changes_per_run = True  # (no automatic index over it: a row is gone once read)


def coroutine_place(next_join) -> bool:
    """Whether the first FROM item, followed by the join ``next_join`` (None when it is
    alone), is where SQLite 3.40 runs a subquery, view or CTE as a co-routine (sqlite3Select:
    the subquery is then sure to be the outer loop): alone, or followed by a LEFT or
    CROSS JOIN (JT_OUTER|JT_CROSS; a RIGHT or FULL one puts it on the left of a RIGHT
    JOIN, where it is not: the caller tests that). A MATERIALIZED CTE, or one read twice,
    is materialized even there."""
    return next_join is None or next_join.kind in ("LEFT", "CROSS")


def subquery_rowid_null(db, sel, coroutine, right_of_left) -> bool:
    """Whether the rowid of a FROM subquery or view reads NULL in SQLite (3.40): it does
    when the subquery is run as a co-routine (``coroutine``: see ``coroutine_place``) or
    flattened into the outer query (its rowid is replaced by NULL); a subquery SQLite
    materializes numbers its rows 1, 2, ... The flattening test is the main part of
    SQLite's: a plain SELECT with a FROM clause, no DISTINCT, aggregate, LIMIT or window
    function, and not a join on the right of a LEFT JOIN."""
    if coroutine:
        return True
    body = sel.body
    if sel.with_ is not None or type(body) is not A.SelectCore or sel.limit is not None:
        return False
    if right_of_left and type(body.from_) is A.Join:
        return False
    return _plain_core(db, body)


def _calls(db, core, window_only=False) -> bool:
    """Whether the result columns of ``core`` call an aggregate or window function (only
    a window function with ``window_only``)."""
    if not core.features & (A.FEAT_WINDOW if window_only else A.FEAT_FUNCTION):
        return False
    from sqlengine.compiler.walk import find_node

    def is_agg(e):
        return type(e) is A.FunctionCall and (e.over is not None or not window_only and (
            db.is_aggregate(e.name, 0 if e.star else len(e.args))))
    # (a loop: compiled, a generator closing over is_agg would share its frame, a cycle)
    for rc in core.columns:
        if type(rc) is A.ResultColumn and find_node(rc.expr, is_agg) is not None:
            return True
    return False


def _plain_core(db, core) -> bool:
    """A SELECT core the flattener can take: a FROM clause, no DISTINCT, GROUP BY,
    HAVING, aggregate or window function."""
    return (type(core) is A.SelectCore and core.from_ is not None and not core.distinct
            and not core.group_by and core.having is None and not _calls(db, core))


def subquery_flattens(db, sel, oc, order_by, limit, single, right_of_left) -> bool:
    """Whether SQLite 3.40's query flattener merges the FROM subquery or view ``sel`` into
    the query reading it (its SelectCore ``oc``, ORDER BY and LIMIT; ``single``: the
    subquery is its only FROM item; ``right_of_left``: the right side of a LEFT JOIN, or
    the left of a RIGHT JOIN; "RIGHT" for the right side of a RIGHT or FULL JOIN).
    The restrictions of its flattenSubquery that decide it for ordinary queries: a plain
    subquery (see ``_plain_core``) or a UNION ALL of plain arms, no OFFSET, no window
    function in the outer query; LIMIT only into a lone, unfiltered, non-aggregate,
    non-DISTINCT outer query without its own LIMIT; ORDER BY not into an aggregate (and
    a lone ordered subquery under an outer query without ORDER BY runs as a co-routine);
    on the right of a LEFT JOIN not a join nor under DISTINCT; a compound not into an
    aggregate or DISTINCT query nor on the right of a LEFT JOIN."""
    if sel.with_ is not None or sel.offset is not None or _calls(db, oc, window_only=True) \
            or right_of_left == "RIGHT":  # (the right operand of a RIGHT or FULL JOIN)
        return False
    outer_agg = bool(oc.group_by) or _calls(db, oc)
    body = sel.body
    if type(body) is A.Compound:
        if sel.order_by or sel.limit is not None or outer_agg or oc.distinct or right_of_left:
            return False
        while type(body) is A.Compound:
            if body.op.upper() != "UNION ALL" or not _plain_core(db, body.right):
                return False
            body = body.left
        return _plain_core(db, body)
    if not _plain_core(db, body):
        return False
    if right_of_left and (type(body.from_) is A.Join or oc.distinct):
        return False
    if sel.limit is not None and (not single or oc.where is not None or outer_agg
                                  or oc.distinct or limit is not None):
        return False
    if sel.order_by and (outer_agg or (single and not order_by)):
        return False
    return True


def no_such_column(name, table=None):
    if table:
        return OperationalError(f"no such column: {table}.{name}")
    return OperationalError(f"no such column: {name}")


