"""The query planner: for every FROM item the ways its rows can be reached (SQLite's
``WhereLoop``s: full scan, rowid lookup or range, index equality on a prefix plus an
optional range, a full scan of a covering index, an automatic index), each with SQLite's
cost estimates in LogEst units (10*log2), and the join order chosen by SQLite's
``wherePathSolver``: the N best partial paths are kept at each step.

Estimates follow SQLite's defaults for tables without ``sqlite_stat1`` (a table is assumed
to hold about a million rows, an index equality to select ten, a unique one one row, a
range a quarter per bound), so the chosen plans are the ones sqlite3 shows for the same
schema. An index is used only when SQLite's rules allow it to answer a comparison (the
affinity and collation of the comparison must match the index column's), so a term that
keys a lookup needs no test in the loop (the WHERE loop coder drops it).

Every statement of the corpus is planned once, so the planner is compiled: ``_loops.pyx``
makes the loops and their costs, ``_paths.pyx`` picks the join order (``solve``) and
checks the ORDER BY; its ``plan`` is what the WHERE loop coder (``_where.pyx``) calls with
the analysed WHERE clause, and the coder turns each chosen loop into the ``Access`` it
codes. This module re-exports their names and holds the INDEXED BY check and the row
sizes the min()/max() shortcut (``plan_minmax.py``) weighs. It emits no code.
"""

from __future__ import annotations

from sqlengine.compiler._levels import Access  # noqa: F401  (re-exported)
from sqlengine.compiler._loops import (  # noqa: F401  (the compiled core; re-exported)
    TABLE_ROWS, LoopBuilder, WhereLoop, forget_table_facts, log_add, log_est, table_facts)
from sqlengine.compiler._paths import (  # noqa: F401  (the compiled solver; re-exported)
    OrderChecker, TargetHint, order_checker, solve, sorting_cost)
from sqlengine.errors import OperationalError

def check_indexed_by(ref, table) -> None:
    """SQLite's sqlite3IndexedByLookup: a FROM item (or DELETE/UPDATE target) written
    ``INDEXED BY name`` names one of its table's indexes (any case), or the statement
    fails with "no such index" (a view has none)."""
    name = ref.indexed_by
    if name is None:
        return
    low = name.lower()
    for ix in getattr(table, "indexes", None) or ():
        if ix.name.lower() == low:
            return
    raise OperationalError(f"no such index: {name}")


def target_hint(ref):
    """What an UPDATE's or DELETE's target ``ref`` tells the planner: a TargetHint when
    it is written INDEXED BY or NOT INDEXED (passed to where_begin as its ``core``), else
    None."""
    if ref is not None and (ref.indexed_by or ref.not_indexed):
        return TargetHint(ref)
    return None


# ---- what a loop reads -------------------------------------------------------------------


def _sizes(table):
    """(szTabRow, {index name: szIdxRow}) of a table."""
    f = table_facts(table)
    return f.sz_tab, f.sz_idx
