"""The query planner: splits WHERE into terms, finds which FROM items each term needs, and
chooses for every loop level how to reach its rows (rowid lookup, rowid range, index
equality on a prefix plus an optional range, or a full scan).

The choice obeys SQLite's rules for when an index may answer a comparison (the affinity
and collation of the comparison must match the index column's). Terms used by an index
are still tested in the loop, so a plan can only make a query faster, never change its
answer. This module emits no code; ``where.py`` turns an ``Access`` into loops. Join
reordering, OR/IN lookups, covering indexes and cost estimates are the next steps (issue 7).
"""

from __future__ import annotations

from sqlengine.compiler.resolve import (ResolvedColumn, comparison_collation, expr_affinity)
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe.opcodes import AFF_BLOB, AFF_NONE, AFF_TEXT
from sqlengine.vdbe._values import comparison_affinity

ALL = -2  # mask marker: the term needs every source (subqueries, aliases)


class Term:
    __slots__ = ("expr", "mask", "level", "left_on")

    def __init__(self, expr, mask, left_on=False):
        self.expr = expr
        self.mask = mask  # set of source indexes, or None for "all"
        self.level = -1
        self.left_on = left_on


class Access:
    """How one loop level reads its source. ``kind``: scan, rowid_eq, rowid_range, index."""

    __slots__ = ("kind", "index", "eq", "lo", "lo_op", "hi", "hi_op", "key_aff")

    def __init__(self, kind):
        self.kind = kind
        self.index = None
        self.eq = []  # expressions, one per leading index column
        self.lo = None
        self.lo_op = None
        self.hi = None
        self.hi_op = None
        self.key_aff = ""


def split_and(e, out):
    if e is None:
        return out
    if isinstance(e, A.Binary) and e.op == "AND":
        split_and(e.left, out)
        split_and(e.right, out)
    else:
        out.append(e)
    return out


def term_mask(scope, e, n_sources):
    """The set of this scope's source indexes that ``e`` reads, or None for all."""
    cache = scope.__dict__.setdefault("_mask_cache", {})
    key = (id(e), tuple(id(s) for s in scope.sources))
    hit = cache.get(key)
    if hit is not None:
        return hit[1]
    m = _term_mask(scope, e)
    cache[key] = (e, m)  # the node is kept so that its id is not reused
    return m


def _term_mask(scope, e):
    from sqlengine.compiler.expr import walk
    srcs = scope.sources
    index_of = {id(s): i for i, s in enumerate(srcs)}
    mask = set()
    all_flag = [False]

    def visit(x):
        t = type(x)
        if t is A.Column:
            try:
                ref = scope.lookup(x.name, x.table)
            except OperationalError:
                all_flag[0] = True
                return False
            if ref is None:
                all_flag[0] = True
            elif ref.depth == 0:
                mask.add(index_of[id(ref.source)])
            return False
        if t is ResolvedColumn:
            if x.ref.scope is scope:
                mask.add(index_of[id(x.ref.source)])
            return False
        if t in (A.Subquery, A.Exists, A.InSelect, A.InTable, A.Raise):
            all_flag[0] = True
            return t is A.InSelect or t is A.InTable
        if t is A.FunctionCall and x.name.lower() in ("random", "randomblob", "changes",
                                                      "last_insert_rowid", "total_changes"):
            all_flag[0] = True
        return None
    walk(e, visit)
    if all_flag[0]:
        return None
    return mask


def _column_of(scope, e, src):
    """The column number of ``src`` that ``e`` is (-1 rowid), or None."""
    if not src.is_table:
        if isinstance(e, ResolvedColumn):
            return e.ref.col if e.ref.source is src else None
        if isinstance(e, A.Column):
            try:
                ref = scope.lookup(e.name, e.table)
            except OperationalError:
                return None
            if ref is not None and ref.depth == 0 and ref.source is src:
                return ref.col
        return None
    while isinstance(e, A.Collate):
        return None
    if isinstance(e, ResolvedColumn):
        if e.ref.source is src:
            return e.ref.col
        return None
    if isinstance(e, A.Column):
        try:
            ref = scope.lookup(e.name, e.table)
        except OperationalError:
            return None
        if ref is not None and ref.depth == 0 and ref.source is src:
            if src.is_table and ref.col == src.ipk and ref.col >= 0:
                return -1
            return ref.col
    return None


_FLIP = {"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _usable(scope, term, level, src):
    """(column, op, other_expr) when ``term`` compares a column of ``src`` with an
    expression of outer levels only."""
    e = term.expr
    if not isinstance(e, A.Binary) or e.op not in _FLIP:
        if isinstance(e, A.Between) and not e.negated:
            c = _column_of(scope, e.expr, src)
            if c is not None:
                out = []
                for bound, op in ((e.low, ">="), (e.high, "<=")):
                    m = term_mask(scope, bound, len(scope.sources))
                    if m is not None and all(j < level for j in m):
                        out.append((c, op, bound, e.expr))
                return out or None
        return None
    out = []
    # the term's collation comes from its operands in written order, so the column side is
    # handed on under an explicit COLLATE of it (None = BINARY; never coded)
    coll = comparison_collation(e.left, e.right, scope)
    for lhs, rhs, op in ((e.left, e.right, e.op), (e.right, e.left, _FLIP[e.op])):
        c = _column_of(scope, lhs, src)
        if c is None:
            continue
        m = term_mask(scope, rhs, len(scope.sources))
        if m is None or any(j >= level for j in m):
            continue
        out.append((c, op, rhs, A.Collate(lhs, coll)))
    return out or None


def _affinity_ok(idx_aff, aff):
    if aff in (AFF_BLOB, AFF_NONE, None):
        return True
    if aff == AFF_TEXT:
        return idx_aff == AFF_TEXT
    return idx_aff in ("C", "D", "E")


def _coll_name(c):
    return (c or "BINARY").upper()


def _correlated(scope, e):
    """True when ``e`` reads a column of an enclosing query."""
    from sqlengine.compiler.expr import walk
    found = [False]

    def visit(x):
        if isinstance(x, A.Column):
            try:
                ref = scope.lookup(x.name, x.table)
            except OperationalError:
                return False
            if ref is not None and ref.depth > 0:
                found[0] = True
            return False
        if isinstance(x, ResolvedColumn):
            if x.ref.scope is not scope:
                found[0] = True
            return False
        return None
    walk(e, visit)
    return found[0]


def _auto(scope, level, cands):
    """An automatic (hash) index on the columns compared for equality with values of outer
    loops (or of an enclosing query: a correlated subquery), or None."""
    cols = []
    exprs = []
    affs = ""
    for c, op, rhs, lhs in cands:
        if op != "=" or c in cols:
            continue
        m = term_mask(scope, rhs, len(scope.sources))
        if m is None:
            continue
        if not m and not _correlated(scope, rhs):
            continue  # a constant: a scan with the test is as good
        if comparison_collation(lhs, rhs, scope) is not None:
            continue
        cols.append(c)
        exprs.append(rhs)
        affs += comparison_affinity(expr_affinity(lhs, scope), expr_affinity(rhs, scope))
    if not cols:
        return None
    a = Access("auto")
    a.index = cols
    a.eq = exprs
    a.key_aff = affs
    return a


def choose(p, scope, level, src, terms) -> Access:
    """The access path of loop ``level`` (reading ``src``) given the terms tested there."""
    cands = []
    for t in terms:
        u = _usable(scope, t, level, src)
        if u:
            cands.extend(u)
    if not cands:
        return Access("scan")
    if not src.is_table:
        if getattr(src, "changes_per_run", False):  # a recursive CTE's current row
            return Access("scan")
        return _auto(scope, level, cands) or Access("scan")
    table = src.table
    # rowid equality
    for c, op, rhs, _lhs in cands:
        if c == -1 and op == "=":
            a = Access("rowid_eq")
            a.eq = [rhs]
            return a
    best = None
    best_score = 0
    for idx in table.indexes:
        if idx.where is not None:
            continue
        eq = []
        affs = ""
        for k, col in enumerate(idx.columns):
            col_aff = table.columns[col].affinity
            coll = idx.collations[k] or table.columns[col].collation
            found = None
            for c, op, rhs, lhs in cands:
                if c == col and op == "=":
                    aff = comparison_affinity(expr_affinity(lhs, scope), expr_affinity(rhs, scope))
                    if not _affinity_ok(col_aff, aff):
                        continue
                    if _coll_name(comparison_collation(lhs, rhs, scope)) != _coll_name(coll):
                        continue
                    found = rhs
                    break
            if found is None:
                break
            eq.append(found)
            ka = col_aff
            if comparison_affinity(expr_affinity(found, scope), col_aff) == AFF_BLOB:
                ka = AFF_BLOB
            affs += ka
        lo = hi = None
        lo_op = hi_op = None
        if len(eq) < len(idx.columns) and not idx.desc[len(eq)]:
            col = idx.columns[len(eq)]
            col_aff = table.columns[col].affinity
            coll = idx.collations[len(eq)] or table.columns[col].collation
            for c, op, rhs, lhs in cands:
                if c != col or op == "=":
                    continue
                aff = comparison_affinity(expr_affinity(lhs, scope), expr_affinity(rhs, scope))
                if not _affinity_ok(col_aff, aff):
                    continue
                if _coll_name(comparison_collation(lhs, rhs, scope)) != _coll_name(coll):
                    continue
                if op in (">", ">=") and lo is None:
                    lo, lo_op = rhs, op
                elif op in ("<", "<=") and hi is None:
                    hi, hi_op = rhs, op
        score = len(eq) * 4 + (1 if lo is not None else 0) + (1 if hi is not None else 0)
        if eq and len(eq) == len(idx.columns) and idx.unique:
            score += 2
        if score > best_score:
            best_score = score
            a = Access("index")
            a.index = idx
            a.eq = eq
            a.key_aff = affs
            a.lo, a.lo_op, a.hi, a.hi_op = lo, lo_op, hi, hi_op
            if lo is not None or hi is not None:
                col = idx.columns[len(eq)]
                a.key_aff = affs + table.columns[col].affinity
            best = a
    # rowid range
    lo = hi = None
    lo_op = hi_op = None
    for c, op, rhs, _lhs in cands:
        if c == -1:
            if op in (">", ">=") and lo is None:
                lo, lo_op = rhs, op
            elif op in ("<", "<=") and hi is None:
                hi, hi_op = rhs, op
    if lo is not None or hi is not None:
        if best is None or (not best.eq):
            a = Access("rowid_range")
            a.lo, a.lo_op, a.hi, a.hi_op = lo, lo_op, hi, hi_op
            return a
    if best is not None:
        return best
    return _auto(scope, level, cands) or Access("scan")
