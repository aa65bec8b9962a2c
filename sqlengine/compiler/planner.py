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
keys a lookup needs no test in the loop (``where.py`` drops it).

Every statement of the corpus is planned once, so the hot parts are compiled: the loops
and their costs are made in ``_loops.pyx``, the join order and the ORDER BY check are in
``_paths.pyx``; this module is their public face and turns a chosen loop into the
``Access`` that ``where.py`` codes. It emits no code.
"""

from __future__ import annotations

from sqlengine.compiler._levels import Access  # noqa: F401  (re-exported)
from sqlengine.compiler._loops import (  # noqa: F401  (the compiled core; re-exported)
    TABLE_ROWS, LoopBuilder, WhereLoop, log_add, log_est, table_facts)
from sqlengine.compiler._paths import (  # noqa: F401  (the compiled solver; re-exported)
    OrderChecker, order_checker, solve, sorting_cost)
from sqlengine.compiler.exprindex import index_column_affinity
from sqlengine.compiler.resolve import comparison_collation, expr_affinity
from sqlengine.errors import OperationalError
from sqlengine.vdbe._values import comparison_affinity
from sqlengine.vdbe.opcodes import AFF_BLOB

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


# ---- what a loop reads -------------------------------------------------------------------


def _sizes(table):
    """(szTabRow, {index name: szIdxRow}) of a table."""
    f = table_facts(table)
    return f.sz_tab, f.sz_idx


def _term_aff(scope, o):
    return comparison_affinity(expr_affinity(o.lhs, scope), expr_affinity(o.rhs, scope))


# ---- from a loop to an access path ----------------------------------------------------------

def access_of(scope, lp, src, placed_mask, wc, terms) -> Access:
    """The Access that codes loop ``lp`` given the sources already open (``placed_mask``);
    ``terms`` are the terms tested at this level (for an automatic index)."""
    kind = lp.kind
    if kind == "scan":
        return Access("scan")
    if kind == "rowid_eq":
        a = Access("rowid_eq")
        a.eq = [lp.eq[0].rhs]
        return a
    if kind == "rowid_range":
        a = Access("rowid_range")
        if lp.lo is not None:
            a.lo, a.lo_op = lp.lo.rhs, lp.lo.op
        if lp.hi is not None:
            a.hi, a.hi_op = lp.hi.rhs, lp.hi.op
        return a
    if kind == "auto":
        ops = lp.ops
        if ops is None:
            ops = [o for t in terms for o in t.operands]
        return _auto(scope, src, placed_mask, ops) or Access("scan")
    table = src.table
    ix = lp.index
    a = Access("index")
    a.index = ix
    a.covering = lp.covering
    affs = ""
    for k, o in enumerate(lp.eq):
        a.eq.append(o.rhs)
        ka = index_column_affinity(table, ix, k, expr_affinity(o.lhs, scope))
        rhs = o.rhs.items[0] if o.op == "IN" else o.rhs  # (a constant list: one affinity)
        if comparison_affinity(expr_affinity(rhs, scope), ka) == AFF_BLOB:
            ka = AFF_BLOB
        affs += ka
    a.key_aff = affs
    if lp.lo is not None:
        a.lo, a.lo_op = lp.lo.rhs, lp.lo.op
    if lp.hi is not None:
        a.hi, a.hi_op = lp.hi.rhs, lp.hi.op
    if a.lo is not None or a.hi is not None:
        bound = lp.lo if lp.lo is not None else lp.hi
        ka = index_column_affinity(table, ix, len(lp.eq), expr_affinity(bound.lhs, scope))
        a.lo_aff = _bound_affinity(scope, a.lo, ka)
        a.hi_aff = _bound_affinity(scope, a.hi, ka)
    return a


def _bound_affinity(scope, e, ka):
    """The affinity a range bound ``e`` gets before it meets index column affinity ``ka``
    (SQLite's updateRangeAffinityStr): none where the comparison has none (the bound is
    a column of another table whose affinity is not numeric, against a TEXT column)."""
    if e is None:
        return ""
    return AFF_BLOB if comparison_affinity(expr_affinity(e, scope), ka) == AFF_BLOB else ka


def _auto(scope, src, placed_mask, ops):
    """An automatic (hash) index on the columns of ``src`` compared for equality with
    values of outer loops, constants or an enclosing query, or None; ``ops``: the
    operands of the level's terms (at least those on ``src``), in WHERE order."""
    cols = []
    exprs = []
    affs = ""
    for o in ops:
        if o.src is not src or o.op != "=" or o.col in cols:
            continue
        if o.prereq & ~placed_mask:
            continue
        if comparison_collation(o.lhs, o.rhs, scope) is not None:
            continue
        cols.append(o.col)
        exprs.append(o.rhs)
        affs += _term_aff(scope, o)
    if not cols:
        return None
    a = Access("auto")
    a.index = cols
    a.eq = exprs
    a.key_aff = affs
    return a
