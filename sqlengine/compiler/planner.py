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
keys a lookup needs no test in the loop (``where.py`` drops it). This module emits no code;
``where.py`` turns the chosen loops into code.
"""

from __future__ import annotations

from sqlengine.compiler._loops import (  # noqa: F401  (the compiled core; re-exported)
    TABLE_ROWS, LoopBuilder, WhereLoop, coll_name as _coll_name, est_log, in_list_size,
    log_add, log_est, table_facts)
from sqlengine.compiler.exprindex import index_column_affinity
from sqlengine.compiler.plan_terms import Operand, _column_ref, split_and  # noqa: F401  (re-exported)
from sqlengine.compiler.resolve import comparison_collation, expr_affinity
from sqlengine.vdbe._values import comparison_affinity
from sqlengine.vdbe.opcodes import AFF_BLOB

# ---- what a loop reads -------------------------------------------------------------------


class Access:
    """How one loop level reads its source. ``kind``: scan, rowid_eq, rowid_range, index
    (``eq`` on a prefix, optional range, or nothing at all: a full index scan), auto."""

    __slots__ = ("kind", "index", "eq", "lo", "lo_op", "hi", "hi_op", "key_aff", "covering",
                 "eqp", "reverse", "lo_aff", "hi_aff")

    def __init__(self, kind):
        self.kind = kind
        self.index = None
        self.eq = []  # expressions, one per leading index column
        self.lo = None
        self.lo_op = None
        self.hi = None
        self.hi_op = None
        self.key_aff = ""  # of the ``eq`` keys
        self.lo_aff = self.hi_aff = ""  # of the range bounds (an index access)
        self.covering = False
        self.eqp = ""
        self.reverse = False  # read backwards (delivers a descending ORDER BY)


def _sizes(table):
    """(szTabRow, {index name: szIdxRow}) of a table."""
    f = table_facts(table)
    return f.sz_tab, f.sz_idx


def _term_aff(scope, o):
    return comparison_affinity(expr_affinity(o.lhs, scope), expr_affinity(o.rhs, scope))


# ---- the path solver -----------------------------------------------------------------------

def _bits(m, n):
    """The positions of the bits set in mask ``m`` below ``n``, lowest first."""
    out = []
    while m:
        low = m & -m
        i = low.bit_length() - 1
        if i >= n:
            break
        out.append(i)
        m ^= low
    return out


def _cost_of(path):
    return path[2]


def _run_order(lp):
    return (lp.r_run, lp.n_out)


def solve(loops, n, n_row0=0, fixed_order=False, order=None):
    """wherePathSolver: the cheapest sequence of loops, one per source, each placed after
    its prerequisites; the ``mx_choice`` cheapest partial paths survive each step. With
    ``fixed_order`` the sources stay in FROM order.

    A path carries its *frontier*: the loops with prerequisites that its sources satisfy,
    grown by the loops the newest source enables, so a step looks at those and at the
    loops without prerequisites (cheapest first, stopping once none can make the cut).
    The steps read a loop as the tuple (bit, r_run, r_setup, n_out, loop): no attribute
    lookups in the inner loop."""
    if n <= 1 or fixed_order:
        mx_choice = 1
    elif n == 2:
        mx_choice = 5
    else:
        # SQLite keeps 10 paths; in Python a many-way join cannot afford that, and there
        # the plans are chains of lookups that a narrower search finds as well
        mx_choice = 10 if n <= 8 else (5 if n <= 16 else 2)
    if n == 1:
        return _solve_one(loops, n_row0, order)
    free_loops = [(lp.bit, lp.r_run, lp.r_setup, lp.n_out, lp)
                  for lp in sorted([lp for lp in loops if not lp.prereq], key=_run_order)]
    deps: dict = {}  # source index -> (prerequisites, loop tuple) of the loops needing it
    for lp in loops:
        m = lp.prereq
        if not m:
            continue
        entry = (m, (lp.bit, lp.r_run, lp.r_setup, lp.n_out, lp))
        for i in _bits(m, n):
            deps.setdefault(i, []).append(entry)
    add = log_add
    # ``order``: (function giving the ORDER BY terms a sequence of loops satisfies, number
    # of terms, sort cost by number satisfied); the order is judged on complete paths
    ordered_by = n_ob = sort_cost = None
    if order is not None:
        ordered_by, n_ob, sort_cost = order
    last_step = n - 1
    # a path: [mask, rows out, cost, unsorted cost, loops, frontier]
    paths = [[0, n_row0, 0, 0, (), ()]]
    for step in range(n):
        nxt: dict = {}
        mx_cost = 1 << 30  # the worst surviving cost once nxt is full
        step_bit = 1 << step  # (the one source a fixed order may place now)
        judge_order = ordered_by is not None and step == last_step
        paths.sort(key=_cost_of)  # good paths first: the bar rises early
        for path in paths:
            pmask, prow, _pcost, punsorted, ploops, frontier = path
            if ploops:
                frontier = [e for e in frontier if not e[0] & pmask]
                for m, e in deps.get(ploops[-1].src_i, ()):
                    if not m & ~pmask and not e[0] & pmask:
                        frontier.append(e)
                path[5] = frontier
            if punsorted > mx_cost:
                continue
            for group in (frontier, free_loops):
                is_free = group is free_loops
                for bit, r_run, r_setup, lp_out, lp in group:
                    if bit & pmask:
                        continue
                    if fixed_order and bit != step_bit:
                        continue
                    base = r_run + prow
                    if base > mx_cost:
                        if is_free:
                            break  # sorted: the rest cost more
                        continue
                    if r_setup:
                        if prow < 10 or r_setup > mx_cost:
                            continue
                    cost = add(add(r_setup, base), punsorted)
                    unsorted = cost - 2
                    if judge_order:
                        k = ordered_by(ploops + (lp,))
                        if k < n_ob:
                            unsorted = cost
                            cost = add(cost, sort_cost(k)) + 5
                    n_out = prow + lp_out
                    mask = pmask | bit
                    pt = nxt.get(mask)
                    if pt is None:
                        if len(nxt) >= mx_choice:
                            if cost >= mx_cost:
                                continue
                            del nxt[_worst(nxt)[0]]
                        nxt[mask] = [mask, n_out, cost, unsorted, ploops + (lp,), frontier]
                    elif pt[2] > cost or (pt[2] == cost and pt[1] > n_out):
                        pt[1] = n_out
                        pt[2] = cost
                        pt[3] = unsorted
                        pt[4] = ploops + (lp,)
                        pt[5] = frontier
                    else:
                        continue
                    if len(nxt) >= mx_choice:
                        mx_cost = _worst(nxt)[2]
        if not nxt:
            return None
        paths = list(nxt.values())
    best = paths[0]
    for pt in paths[1:]:
        if pt[2] < best[2]:
            best = pt
    return best[4], best[1]


def _solve_one(loops, prow, order):
    """solve() for one source (one path, so the best loop so far sets the bar): the
    cheapest of its loops, the ORDER BY judged on each."""
    best = None
    best_cost = best_rows = 0
    mx_cost = 1 << 30
    for lp in sorted(loops, key=_run_order):
        if lp.prereq:
            continue
        base = lp.r_run + prow
        if base > mx_cost:
            break  # sorted: the rest cost more
        r_setup = lp.r_setup
        if r_setup and (prow < 10 or r_setup > mx_cost):
            continue
        cost = log_add(log_add(r_setup, base), 0)
        if order is not None:
            ordered_by, n_ob, sort_cost = order
            k = ordered_by((lp,))
            if k < n_ob:
                cost = log_add(cost, sort_cost(k)) + 5
        n_out = prow + lp.n_out
        if best is None or best_cost > cost or (best_cost == cost and best_rows > n_out):
            best = lp
            best_cost = cost
            best_rows = n_out
            mx_cost = cost
    if best is None:
        return None
    return (best,), best_rows


def _worst(nxt):
    """The costliest path of ``nxt`` (the first of equals, as max() picks)."""
    worst = None
    for pt in nxt.values():
        if worst is None or pt[2] > worst[2]:
            worst = pt
    return worst


def sorting_cost(n_row, n_ob, n_sorted, n_cols, limit=None):
    """whereSortingCost: the cost of sorting ``n_row`` (LogEst) rows on ``n_ob`` terms of
    which the first ``n_sorted`` already come in order; a constant LIMIT (LogEst) smaller
    than the rows bounds the log factor (a top-N sort)."""
    cost = n_row + log_est((n_cols + 59) // 30)
    if n_sorted > 0:
        cost += log_est((n_ob - n_sorted) * 100 // n_ob) - 66
    if limit is not None and limit < n_row:
        n_row = limit
    return cost + est_log(n_row)


def _key_tail(table, ix):
    """What an index's entries end with after its columns, as order keys (column,
    desc, collation, ends a unique key): the rowid, or for a WITHOUT ROWID table the
    PRIMARY KEY columns the index does not hold (none for the PRIMARY KEY itself)."""
    if not table.without_rowid:
        return [(-1, False, None, True)]
    pk = next((x for x in table.indexes if x.is_pk), None)
    if pk is None or ix is pk:
        return []
    own = set(ix.columns)
    return [(c, d, _coll_name(pk.collations[j] or table.columns[c].collation), False)
            for j, (c, d) in enumerate(zip(pk.columns, pk.desc)) if c not in own]


def order_checker(scope, wc, order_by, group=False):
    """The OrderChecker of ``order_by`` (a GROUP BY's terms when ``group``)."""
    return OrderChecker(scope, wc, order_by, group)


class OrderChecker:
    """Tells how many leading ORDER BY terms a sequence of loops delivers in order
    (SQLite's wherePathSatisfiesOrderBy, for plain column terms): one-row loops fix their
    columns; the first other loop orders by its index columns after the equality prefix,
    then the rowid, forwards or backwards (all terms one way). ``group``: the terms are a
    GROUP BY's, which any direction of each serves (no loop is reversed). Calling it
    answers the number of terms; ``detail`` also the loops to run backwards."""

    __slots__ = ("scope", "obs", "fixed", "n_ob", "group", "_keys")

    def __init__(self, scope, wc, order_by, group=False):
        sources = scope.sources
        obs = []
        for e, desc, nulls_first, coll in order_by:
            hit = _column_ref(scope, e)  # (source, column): one lookup
            if hit is None:
                obs.append(None)
                continue
            src, c = hit
            obs.append((sources.index(src), c, bool(desc), nulls_first, coll, src))
        fixed = {}  # (source index, column) -> collation of an == constant term holding it
        for t in wc.terms:
            for o in t.operands:
                if o.op == "=" and not o.prereq:
                    fixed[(sources.index(o.src), o.col)] = _coll_name(
                        comparison_collation(o.lhs, o.rhs, scope))
        self.scope = scope
        self.obs = obs
        self.fixed = fixed
        self.n_ob = len(obs)
        self.group = group
        self._keys = {}  # id(loop) -> loop_keys' answer (the loops outlive the checker)

    def __call__(self, loops):
        return self.detail(loops)[0]

    def loop_keys(self, lp):
        """(one row, order keys, columns an index equality holds) of a loop; keys None
        when the loop gives no order."""
        hit = self._keys.get(id(lp))
        if hit is None:
            hit = self._keys[id(lp)] = _loop_keys(self.scope, lp)
        return hit

    def held(self, lp, eqcols, t):
        """Whether the loop ``lp`` holds the term ``t`` to one value (an index equality
        in the term's collation, or an == constant WHERE term)."""
        s, c, coll = t[0], t[1], t[4]
        if c in eqcols:
            ix = lp.index
            ne = ix.columns.index(c)
            table = self.scope.sources[s].table
            if c < 0 or _coll_name(ix.collations[ne] or table.columns[c].collation) \
                    == _coll_name(coll):
                return True
        fixed = self.fixed
        return fixed.get((s, c), False) == _coll_name(coll) or c < 0 and (s, c) in fixed

    def detail(self, loops):
        """(number of leading ORDER BY terms delivered, source indexes of the loops that
        must run backwards for them: also when only some terms are delivered, as SQLite
        sets revMask while it matches)."""
        if self.group:
            return self.group_detail(loops), ()
        obs = self.obs
        n_ob = self.n_ob
        k = 0
        rev = None
        moved = []  # loops whose key order delivered a term (reversed when rev)
        for lp in loops:
            if k >= n_ob:
                break
            i = lp.src_i
            one_row, keys, eqcols = self.loop_keys(lp)
            if one_row:
                while k < n_ob and obs[k] is not None and obs[k][0] == i:
                    k += 1
                continue
            if keys is None:
                return k, (tuple(moved) if rev else ())
            j = 0
            unique = False
            while k < n_ob:
                t = obs[k]
                if t is None:
                    return k, (tuple(moved) if rev else ())
                s, c, desc, nulls_first, coll, src = t
                if s != i:
                    if unique:
                        break  # the next loop may order what this one leaves equal
                    return k, (tuple(moved) if rev else ())
                if unique or self.held(lp, eqcols, t):
                    k += 1
                    continue
                if j >= len(keys) or keys[j][0] != c:
                    return k, (tuple(moved) if rev else ())
                kc, kdesc, kcoll, last = keys[j]
                if kc >= 0 and kcoll != _coll_name(coll):
                    return k, (tuple(moved) if rev else ())
                r = desc != kdesc
                if rev is None:
                    rev = r
                elif rev != r:
                    return k, (tuple(moved) if rev else ())
                if nulls_first is not None and nulls_first != (not desc):
                    return k, (tuple(moved) if rev else ())
                if not moved or moved[-1] != i:
                    moved.append(i)
                j += 1
                k += 1
                if last:
                    unique = True
            if k < n_ob and not unique:
                return k, (tuple(moved) if rev else ())
        return k, (tuple(moved) if rev else ())

    def group_detail(self, loops):
        """GROUP BY terms (any direction, any order: SQLite's WHERE_GROUPBY matches each
        key column with whichever term it is) all delivered in groups: n_ob, else 0."""
        obs = self.obs
        if any(t is None for t in obs):
            return 0
        left = list(range(self.n_ob))
        for lp in loops:
            if not left:
                break
            i = lp.src_i
            one_row, keys, eqcols = self.loop_keys(lp)
            mine = [k for k in left if obs[k][0] == i]
            if one_row:
                left = [k for k in left if k not in mine]
                continue
            if keys is None:
                return 0
            mine = [k for k in mine if not self.held(lp, eqcols, obs[k])]
            unique = False
            for kc, _kdesc, kcoll, last in keys:
                if not mine:
                    break
                hit = None
                for k in mine:
                    if obs[k][1] == kc and (kc < 0 or kcoll == _coll_name(obs[k][4])):
                        hit = k
                        break
                if hit is None:
                    return 0
                mine.remove(hit)
                if last:
                    unique = True
                    break
            # terms of this table its keys leave unordered: not delivered (behind a unique
            # key SQLite counts them as ordered, but its costs then pick an index that
            # orders them: tests/compiler/test_without_rowid_order.py)
            if mine:
                return 0
            left = [k for k in left if obs[k][0] != i]
            if left and not unique:
                return 0
        return 0 if left else self.n_ob


def _loop_keys(scope, lp):
    """OrderChecker.loop_keys' answer for loop ``lp``."""
    ix = lp.index if lp.kind == "index" else None
    # an IN list is walked in its column's order: that column orders the rows
    has_in = any(o.op == "IN" for o in lp.eq)
    if not has_in and (lp.kind == "rowid_eq" or (
            ix is not None and ix.unique and len(lp.eq) == len(ix.columns))):
        return True, None, ()
    if lp.kind in ("scan", "rowid_range", "rowid_eq"):
        return False, [(-1, False, None, True)], ()
    if ix is None:
        return False, None, ()
    table = scope.sources[lp.src_i].table
    ne = len(lp.eq)
    keys = [(c, d, _coll_name(ix.collations[j] or table.columns[c].collation), False)
            for j, (c, d) in enumerate(zip(ix.columns, ix.desc))
            if j >= ne or lp.eq[j].op == "IN"]
    keys += _key_tail(table, ix)
    if table.without_rowid and keys:  # the PRIMARY KEY's last column ends it
        keys[-1] = keys[-1][:3] + (True,)
    return False, keys, tuple(c for j, c in enumerate(ix.columns[:ne])
                              if lp.eq[j].op != "IN")


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
