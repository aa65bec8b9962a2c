# cython: language_level=3
"""The compiled path solver of the query planner (``compiler/planner.py`` is the public
module): SQLite's wherePathSolver, which picks one loop per source and the join order, and
the ORDER BY check it asks on each candidate path (wherePathSatisfiesOrderBy), with
whereSortingCost for the paths that need a sort. Loops are ``_loops.WhereLoop`` C structs;
a path is a small C struct too. It reads loops, terms and the schema; it emits no code and
never makes loops (``_loops.pyx`` does).
"""

cimport cython

from sqlengine.compiler._loops cimport (WhereLoop, build_loops, c_est_log, c_log_add, c_log_est,
                                         coll_name, new_loop)
from sqlengine.compiler._resolve cimport Scope, Source, comparison_collation, slot, slot_offset
from sqlengine.compiler._terms cimport (Operand, WhereClause, WhereTerm, column_ref,
                                         obj_id)
from sqlengine.compiler._loops import log_est
from sqlengine.compiler.plan_cols cimport columns_used
from sqlengine.compiler.plan_terms import or_to_in
from sqlengine.compiler.rightjoin import outer_level
from sqlengine.sql import ast as A

cdef object T_Binary = A.Binary
cdef object T_Join = A.Join
cdef object T_TableRef = A.TableRef

# ---- a table's fields ----------------------------------------------------------------------

cdef object T_Table = None  # schema.Table, read at the first use (the schema imports us)
cdef tuple _TAB_NAMES = ("name", "root", "columns", "without_rowid", "indexes")
cdef Py_ssize_t[N_TAB_FIELDS] _tab_off


cdef object table_field(table, int f):
    """``getattr(table, name)`` of the Table field number ``f`` (``TAB_*``, _paths.pxd),
    read from its slot for a schema.Table (no attribute lookup: the planner and the loop
    coder read a few per statement), by getattr for anything else."""
    global T_Table
    cdef Py_ssize_t k
    if T_Table is None:
        from sqlengine.schema import Table
        for k in range(N_TAB_FIELDS):
            _tab_off[k] = slot_offset(Table, _TAB_NAMES[k])
        T_Table = Table
    if type(table) is T_Table:
        return slot(table, _tab_off[f])
    return getattr(table, _TAB_NAMES[f])


# ---- the plan of one WHERE loop ------------------------------------------------------------

cdef class SortCost:
    """whereSortingCost of the rows of a first plan, by the number of ORDER BY terms the
    loops deliver (each asked once)."""

    cdef int n_row, n_ob, n_cols
    cdef object limit
    cdef dict memo
    cdef bint distinct

    def __init__(self, int n_row, int n_ob, int n_cols, limit, bint distinct=False):
        self.n_row = n_row
        self.n_ob = n_ob
        self.n_cols = n_cols
        self.limit = limit
        self.memo = {}
        self.distinct = distinct

    def __call__(self, int k):
        return self.cost(k)

    cdef int cost(self, int k) except? -1:
        c = self.memo.get(k)
        if c is None:
            c = self.memo[k] = sorting_cost(self.n_row, self.n_ob, k, self.n_cols, self.limit,
                                            self.distinct)
        return c


cpdef tuple plan(Scope scope, WhereClause wc, core, order_by=None, limit=None,
                 int group=0, distinct=None, db=None):
    """The chosen WhereLoop of every level, outermost first, the number of leading
    ``order_by`` terms they deliver, the source indexes of the loops to run backwards
    for them, whether a GROUP BY (``group`` 2) also comes in its terms' directions, and
    what they do for the ``distinct`` terms (WhereInfo.distinct: 0, 1 equal rows come
    together, 2 no two rows are equal) (``where.where_begin`` documents the arguments;
    ``db`` is the connection's Database, whose PRAGMA automatic_index the loops obey;
    ``core`` may be a TargetHint: an UPDATE's or DELETE's INDEXED BY / NOT INDEXED)."""
    hints = None
    if type(core) is TargetHint:
        hints = {0: (<object>core).ref}
        core = None
    cdef list srcs = scope.sources
    cdef int n = len(srcs)
    cdef WhereLoop lp
    cdef Source src
    cdef list obs = order_terms(scope, order_by) if order_by else None
    # a DISTINCT: redundant (a unique key among its terms), else without an ORDER BY its
    # terms are weighed as one, in any order (SQLite's WHERE_DISTINCTBY)
    cdef list dobs = order_terms(scope, distinct) if distinct else None
    cdef int d_mode = 0
    if dobs is not None and _distinct_unique(scope, wc, dobs):
        d_mode = 2
        dobs = None
    if n == 1 and not (<Source>srcs[0]).left:
        src = srcs[0]
        if _scan_only(scope, wc, src.table) if src.is_table else not _any_operands(wc.terms):
            lp = new_loop(0, "scan")
            if dobs is not None and _scan_may_distinct(wc, dobs):
                d_mode = _distinct_mode(scope, wc, dobs, (lp,))
            if order_by:
                k, rev = new_checker(scope, wc, obs, _GROUP if group else 0).detail([lp])
                if group == 2 and k:
                    return _sorted_by_group(scope, wc, obs, (lp,), k, rev, d_mode)
                return [lp], k, rev, False, d_mode
            return [lp], 0, (), False, d_mode
    cdef bint fixed = _fixed_order(srcs)
    allowed = None
    if wc.on_terms or fixed:  # (an outer join's table: only its ON terms key its loops)
        on_terms = wc.on_terms
        allowed = {}
        for i in range(n):
            if outer_level(srcs[i]):
                allowed[i] = on_terms.get(i, [])
    col_used = None
    if core is not None and _any_indexed(srcs):
        col_used = columns_used(scope, core, wc.masker)
    # the terms the loops are weighed by; not when the FROM order is fixed: under a RIGHT
    # JOIN the unmatched rows come after the loops (a LEFT JOIN's missing rows come inside
    # its left tables' loops: it fixes no order, so its loops may be weighed)
    cdef list ord_obs = obs if order_by else dobs
    if fixed:
        ord_obs = None
    ob_cols = None
    if ord_obs is not None:
        ob_cols = {}
        for t in ord_obs:
            if t is not None:
                ob_cols.setdefault((<tuple>t)[0], set()).add((<tuple>t)[1])
    if core is not None:
        hints = _index_hints(core, n)
    cdef unsigned long long cross = _cross_joined(core, n) if core is not None else 0
    loops = build_loops(scope, wc, col_used, allowed, ob_cols, hints, db, cross)
    cdef int n_row0 = 48 if scope.outer is not None else 0
    res = _solve(loops, n, n_row0, fixed, None)
    if res is None:  # cannot happen: a full scan has no prerequisites
        return [WhereLoop(i, "scan") for i in range(n)], 0, (), False, d_mode
    best, n_row = res
    n_ordered = 0
    backwards = ()
    cdef int n_ob
    cdef OrderChecker check
    if ord_obs is not None and n_row + 1 == 0:
        # (SQLite's second pass is told nRowOut+1 rows; at 0 it weighs no order: the
        # plan stays the first one, the rows sorted)
        ord_obs = None
    if ord_obs is not None:
        # SQLite's second pass: the sort priced for the rows the first plan gives, the
        # order weighed on every partial path
        n_ob = len(ord_obs)
        lim = log_est(limit) if limit else None
        sort_cost = SortCost(n_row + 1, n_ob, len(core.columns) if core is not None else 1,
                             lim, distinct is not None)
        check = new_checker(scope, wc, ord_obs,
                            (_GROUP if group else 0) if order_by else _DISTINCT)
        res = _solve(loops, n, n_row0, fixed, (check, n_ob, sort_cost))
        if res is not None:
            best = res[0]
        if order_by:
            n_ordered, backwards = check.detail(best)
    if dobs is not None:
        d_mode = _distinct_mode(scope, wc, dobs, tuple(best))
    if group == 2 and n_ordered:
        return _sorted_by_group(scope, wc, obs, best, n_ordered, backwards, d_mode)
    return list(best), n_ordered, backwards, False, d_mode


cdef int _distinct_mode(scope, wc, list dobs, tuple loops) except -1:
    """1 when ``loops`` bring rows equal in the DISTINCT terms ``dobs`` together
    (SQLite's WHERE_DISTINCT_ORDERED), else 0."""
    cdef OrderChecker ch = new_checker(scope, wc, dobs, _DISTINCT)
    return 1 if ch.count(loops, False) == len(dobs) else 0


cdef bint _scan_may_distinct(wc, list dobs) except -1:
    """Whether a full scan may bring the DISTINCT terms ``dobs`` in order, so that
    _distinct_mode is worth asking: only when a term is the rowid (its one order key)
    or a WHERE term has an ``=`` operand that may hold a term to one value."""
    cdef WhereTerm t
    cdef Operand o
    for x in dobs:
        if x is not None and (<tuple>x)[1] < 0:
            return True
    for t in wc.terms:
        for o in t.operands:
            if o.op == "=" and not o.prereq:
                return True
    return False


cdef bint _distinct_unique(scope, wc, list dobs) except -1:
    """SQLite's isDistinctRedundant: one table in FROM, and among the DISTINCT terms
    ``dobs`` its rowid, or every column of a unique index (not partial) either held by
    an == WHERE term in the index's collation or a term in that collation over a NOT
    NULL column: no two rows can be equal."""
    srcs = scope.sources
    if len(srcs) != 1 or not srcs[0].is_table:
        return False
    for x in dobs:
        if x is not None and (<tuple>x)[1] < 0:
            return True
    table = srcs[0].table
    cdef WhereTerm t
    cdef Operand o
    cdef dict fixed = None  # column -> collation name of an == constant term on it
    cdef tuple d
    for ix in table.indexes:
        if not ix.unique or ix.where is not None:
            continue
        for j, c in enumerate(ix.columns):
            if c < 0:
                break
            cn = coll_name(ix.collations[j] or table.columns[c].collation)
            if fixed is None:
                fixed = {}
                for t in wc.terms:
                    for o in t.operands:
                        if o.op == "=" and not o.prereq and o.col >= 0:
                            fixed[o.col] = coll_name(comparison_collation(o.lhs, o.rhs, scope))
            if fixed.get(c) == cn:
                continue
            if not table.columns[c].notnull:
                break
            for x in dobs:
                if x is not None:
                    d = <tuple>x
                    if d[1] == c and d[6] == cn:
                        break
            else:
                break
        else:
            return True
    return False


cdef tuple _sorted_by_group(scope, wc, list obs, best, int n_ordered, backwards,
                            int d_mode):
    """plan()'s answer for a GROUP BY its loops deliver in groups whose ORDER BY is the
    same terms (``obs`` carry its directions: SQLite's WHERE_SORTBYGROUP): checked again
    as an ORDER BY, the loops also give that order (perhaps some run backwards), so the
    ORDER BY needs no sort, or not."""
    k, rev = new_checker(scope, wc, obs, False).detail(best)
    if k == len(obs):
        return list(best), n_ordered, rev, True, d_mode
    return list(best), n_ordered, backwards, False, d_mode


cdef object T_SelectCore = A.SelectCore
cdef Py_ssize_t F_CORE_FROM = slot_offset(A.SelectCore, "from_")
cdef Py_ssize_t F_JOIN_LEFT = slot_offset(A.Join, "left")
cdef Py_ssize_t F_JOIN_RIGHT = slot_offset(A.Join, "right")
cdef Py_ssize_t F_REF_INDEXED_BY = slot_offset(A.TableRef, "indexed_by")
cdef Py_ssize_t F_REF_NOT_INDEXED = slot_offset(A.TableRef, "not_indexed")


class TargetHint:
    """The target of an UPDATE or DELETE written INDEXED BY or NOT INDEXED (its TableRef,
    ``ref``), handed to ``plan`` in place of a SELECT's core: its one source obeys it."""

    __slots__ = ("ref",)

    def __init__(self, ref):
        self.ref = ref


cdef dict _index_hints(core, int n):
    """{source index: TableRef} for the FROM items written with INDEXED BY or NOT INDEXED
    (the sources are made from the FROM items in this order), or None (also when there
    is none). The nodes of the exact AST classes are read from their slots."""
    cdef list items = []
    cdef bint hinted = False
    cdef list stack = [slot(core, F_CORE_FROM) if type(core) is T_SelectCore else core.from_]
    while stack:  # the FROM items left to right (a Join's left side first)
        f = stack.pop()
        t = type(f)
        if t is T_Join:
            stack.append(slot(f, F_JOIN_RIGHT))
            stack.append(slot(f, F_JOIN_LEFT))
        elif t is T_TableRef:
            items.append(f)
            if slot(f, F_REF_NOT_INDEXED) or slot(f, F_REF_INDEXED_BY):
                hinted = True
        elif isinstance(f, T_Join):
            stack.append(f.right)
            stack.append(f.left)
        elif f is not None:
            items.append(f)
            if isinstance(f, T_TableRef) and (f.not_indexed or f.indexed_by):
                hinted = True
    if not hinted or len(items) != n:
        return None
    return {i: t for i, t in enumerate(items)
            if isinstance(t, T_TableRef) and (t.not_indexed or t.indexed_by)}


cdef unsigned long long _cross_joined(core, int n) except? 0:
    """The bits of the sources on the right of a CROSS JOIN (SQLite's JT_CROSS: its
    planner puts no source after it before one to its left), 0 when there is none or the
    FROM items are not the ``n`` sources one to one."""
    cdef list stack = [slot(core, F_CORE_FROM) if type(core) is T_SelectCore else core.from_]
    cdef list crossed = []
    cdef int k = 0
    cdef unsigned long long out = 0
    if n < 2 or not isinstance(stack[0], T_Join):
        return 0
    while stack:  # the FROM items left to right (a Join's left side first)
        f = stack.pop()
        if isinstance(f, T_Join):
            if f.kind == "CROSS":
                crossed.append(f.right)
            stack.append(f.right)
            stack.append(f.left)
        elif f is not None:
            if k < 64:
                for x in crossed:
                    if x is f:
                        out |= 1ULL << k
            k += 1
    return out if k == n and k <= 64 else 0


cdef bint _any_operands(list terms) except -1:
    cdef WhereTerm t
    for t in terms:
        if t.operands:
            return True
    return False


cdef bint _scan_only(Scope scope, WhereClause wc, table) except -1:
    """Whether a full scan is the only loop the one FROM item, ``table``, has: it has no
    index (nor is WITHOUT ROWID), no operand keys its rowid (nor an OR of rowid
    equalities, which the loop builder reads as an IN), and no automatic index can
    compete: LoopBuilder makes one only for an ``=`` operand, and solve_one skips it
    unless the loop runs more than once (a subquery's, whose n_row0 is 48)."""
    cdef WhereTerm t
    cdef Operand o
    if table_field(table, TAB_INDEXES) or table_field(table, TAB_WITHOUT_ROWID):
        return False
    cdef bint sub = scope.outer is not None
    for t in wc.terms:
        if t.operands:
            for o in t.operands:
                if o.col < 0 or sub and o.op == "=":
                    return False
        elif type(t.expr) is T_Binary and t.expr.op == "OR":
            x = or_to_in(scope, t)
            if x is not None and (<Operand>x).col < 0:
                return False
    return True


cdef bint _fixed_order(srcs) except -1:
    """Whether the FROM order must stay: a RIGHT JOIN. (A LEFT JOIN's table comes after
    the tables to its left, and a table-valued function after the tables its arguments
    read: the prerequisites of their loops say so.)"""
    cdef Source src
    for s in srcs:
        src = s
        if src.right or src.ltorj:
            return True
    return False


cdef bint _any_indexed(list srcs) except -1:
    cdef Source s
    for s in srcs:
        if s.is_table and table_field(s.table, TAB_INDEXES):
            return True
    return False


# ---- the path solver -----------------------------------------------------------------------


@cython.freelist(16)  # (made and freed by the dozen for every statement)
cdef class Path:
    """A partial path of the solver: the sources placed (``mask``), rows out, cost, the
    cost without the sort, the number of order terms its loops deliver (-1: not known
    yet; solve), its loops, and its frontier (the loops with prerequisites that its
    sources satisfy)."""

    cdef unsigned long long mask
    cdef int n_row, cost, unsorted, ordered
    cdef tuple loops
    cdef list frontier


cdef Path new_path(unsigned long long mask, int n_row, int cost, int unsorted, int ordered,
                   tuple loops, list frontier):
    cdef Path p = Path.__new__(Path)
    p.mask = mask
    p.n_row = n_row
    p.cost = cost
    p.unsorted = unsorted
    p.ordered = ordered
    p.loops = loops
    p.frontier = frontier
    return p


cdef list sorted_by_run(list loops):
    """The loops by (r_run, n_out), equals in their order (a stable insertion sort: a
    source has a few loops)."""
    cdef list out = []
    cdef WhereLoop lp, q
    cdef Py_ssize_t j
    for lp in loops:
        j = len(out)
        while j > 0:
            q = <WhereLoop>out[j - 1]
            if q.r_run < lp.r_run or (q.r_run == lp.r_run and q.n_out <= lp.n_out):
                break
            j -= 1
        out.insert(j, lp)
    return out


cpdef object solve(loops, int n, int n_row0=0, bint fixed_order=False, order=None):
    """wherePathSolver: the cheapest sequence of loops, one per source, each placed after
    its prerequisites; the ``mx_choice`` cheapest partial paths survive each step. With
    ``fixed_order`` the sources stay in FROM order. Answers (loops, rows out) or None.

    A path carries its *frontier*: the loops with prerequisites that its sources satisfy,
    grown by the loops the newest source enables, so a step looks at those and at the
    loops without prerequisites (cheapest first, stopping once none can make the cut).
    ``order``: (the OrderChecker of the ORDER BY, GROUP BY or DISTINCT terms, their
    number, the SortCost of the rows): as in SQLite, a path also carries how many terms
    its loops deliver (isOrdered: -1 while its loops so far each end on a unique key, so
    the next may still order the terms left), a path whose count is known and short of
    them costs the sort of its rows, and two paths over the same sources compete only
    when both or neither know it."""
    return _solve(loops, n, n_row0, fixed_order, order)


cdef object _solve(loops, int n, int n_row0, bint fixed_order, order):
    """solve()."""
    cdef int mx_choice
    if n <= 1:
        mx_choice = 1
    elif n == 2:
        mx_choice = 5
    else:
        # SQLite keeps 10 paths; in Python a many-way join cannot afford that, and there
        # the plans are chains of lookups that a narrower search finds as well
        mx_choice = 10 if n <= 8 else (5 if n <= 16 else 2)
    if n == 1:
        return solve_one(loops, n_row0, order)
    cdef WhereLoop lp
    cdef OrderChecker check = None
    cdef SortCost sort_cost = None
    cdef int n_ob = 0
    if order is not None:
        check, n_ob, sort_cost = order
    cdef int last_step = n - 1
    cdef list free_loops = _free_loops(loops)
    cdef dict deps = _deps(loops, n)
    cdef list paths = [new_path(0, n_row0, 0, 0, -1 if check is not None else 0, (), [])]
    cdef list nxt
    cdef int step, mx_cost, base, cost, unsorted, n_out, k, prow, punsorted, pord
    cdef Py_ssize_t j, n_to, mx_i
    cdef unsigned long long step_bit, pmask, mask
    cdef bint is_free, partial, undecided
    cdef Path path, pt
    cdef list frontier, group
    cdef tuple ploops, nl
    for step in range(n):
        nxt = []
        n_to = 0
        mx_i = 0
        mx_cost = 1 << 30  # the worst surviving cost once nxt is full
        step_bit = 1ULL << step  # (the one source a fixed order may place now)
        partial = step != last_step
        paths = sort_paths(paths)  # good paths first: the bar rises early
        for path in paths:
            _grow_frontier(path, deps)
        for path in paths:
            pmask = path.mask
            prow = path.n_row
            punsorted = path.unsorted
            pord = path.ordered
            ploops = path.loops
            frontier = path.frontier
            if punsorted > mx_cost:
                continue
            for group in (frontier, free_loops):
                is_free = group is free_loops
                for lp in group:
                    if lp.bit & pmask:
                        continue
                    if fixed_order and lp.bit != step_bit:
                        continue
                    base = lp.r_run + prow
                    if base > mx_cost:
                        if is_free:
                            break  # sorted: the rest cost more
                        continue
                    if lp.r_setup:
                        if prow < 10 or lp.r_setup > mx_cost:
                            continue
                    unsorted = c_log_add(c_log_add(lp.r_setup, base), punsorted)
                    nl = ploops + (lp,)
                    k = pord
                    if k < 0:
                        k = check.count(nl, partial)
                    if 0 <= k < n_ob:
                        # (a small extra penalty favours the plans needing no sort)
                        cost = c_log_add(unsorted, sort_cost.cost(k)) + 5
                    else:
                        cost = unsorted
                        unsorted -= 2
                    n_out = prow + lp.n_out
                    mask = pmask | lp.bit
                    undecided = k < 0
                    pt = None
                    for j in range(n_to):
                        pt = <Path>nxt[j]
                        if pt.mask == mask and (pt.ordered < 0) == undecided:
                            break
                        pt = None
                    if pt is None:
                        if n_to >= mx_choice:
                            if cost >= mx_cost:
                                continue
                            del nxt[mx_i]  # (the new path goes last: ties keep that order)
                            n_to -= 1
                        nxt.append(new_path(mask, n_out, cost, unsorted, k, nl, frontier))
                        n_to += 1
                    elif pt.cost > cost or (pt.cost == cost and pt.n_row > n_out):
                        pt.n_row = n_out
                        pt.cost = cost
                        pt.unsorted = unsorted
                        pt.ordered = k
                        pt.loops = nl
                        pt.frontier = frontier
                    else:
                        continue
                    if n_to >= mx_choice:  # the costliest (the first of equals) goes next
                        mx_i = 0
                        mx_cost = (<Path>nxt[0]).cost
                        for j in range(1, n_to):
                            if (<Path>nxt[j]).cost > mx_cost:
                                mx_i = j
                                mx_cost = (<Path>nxt[j]).cost
        if not n_to:
            return None
        paths = nxt
    cdef Path best = <Path>paths[0]
    for pt in paths[1:]:
        if pt.cost < best.cost:
            best = pt
    return best.loops, best.n_row


cdef list _free_loops(loops):
    """The loops without prerequisites, by run cost (sorted_by_run)."""
    cdef list free = []
    cdef WhereLoop lp
    for lp in loops:
        if not lp.prereq:
            free.append(lp)
    return sorted_by_run(free)


cdef dict _deps(loops, int n):
    """{source index: the loops needing it}."""
    cdef dict deps = {}
    cdef WhereLoop lp
    cdef unsigned long long m
    cdef int i
    for lp in loops:
        m = lp.prereq
        i = 0
        while m and i < n:
            if m & 1:
                deps.setdefault(i, []).append(lp)
            m >>= 1
            i += 1
    return deps


cdef int _grow_frontier(Path path, dict deps) except -1:
    """A path's frontier as its next step looks at it: without the loops of the sources
    it placed, with the loops its newest source enables."""
    cdef unsigned long long pmask = path.mask
    cdef tuple ploops = path.loops
    cdef WhereLoop lp
    if not ploops:
        return 0
    cdef list frontier = [e for e in path.frontier if not (<WhereLoop>e).bit & pmask]
    for e in deps.get((<WhereLoop>ploops[-1]).src_i, ()):
        lp = <WhereLoop>e
        if not lp.prereq & ~pmask and not lp.bit & pmask:
            frontier.append(lp)
    path.frontier = frontier
    return 0


cdef list sort_paths(list paths):
    """The paths by cost, equals in their order (a stable insertion sort: a few paths)."""
    cdef list out = []
    cdef Path p, q
    cdef Py_ssize_t j
    for p in paths:
        j = len(out)
        while j > 0:
            q = <Path>out[j - 1]
            if q.cost <= p.cost:
                break
            j -= 1
        out.insert(j, p)
    return out


cdef object solve_one(list loops, int prow, order):
    """solve() for one source (one path, so the best loop so far sets the bar): the
    cheapest of its loops, the ORDER BY judged on each."""
    cdef WhereLoop best = None
    cdef WhereLoop lp
    cdef int best_cost = 0, best_rows = 0, base, cost, n_out, k
    cdef int mx_cost = 1 << 30
    cdef int n_ob = 0
    cdef OrderChecker check = None
    cdef SortCost sort_cost = None
    if order is not None:
        check, n_ob, sort_cost = order
    for lp in sorted_by_run(loops):
        if lp.prereq:
            continue
        base = lp.r_run + prow
        if base > mx_cost:
            break  # sorted: the rest cost more
        if lp.r_setup and (prow < 10 or lp.r_setup > mx_cost):
            continue
        cost = c_log_add(c_log_add(lp.r_setup, base), 0)
        if check is not None:
            k = check.count((lp,), False)
            if k < n_ob:
                cost = c_log_add(cost, sort_cost.cost(k)) + 5
        n_out = prow + lp.n_out
        if best is None or best_cost > cost or (best_cost == cost and best_rows > n_out):
            best = lp
            best_cost = cost
            best_rows = n_out
            mx_cost = cost
    if best is None:
        return None
    return (best,), best_rows


def sorting_cost(int n_row, int n_ob, int n_sorted, int n_cols, limit=None,
                 bint distinct=False):
    """whereSortingCost: the cost of sorting ``n_row`` (LogEst) rows on ``n_ob`` terms of
    which the first ``n_sorted`` already come in order; a constant LIMIT (LogEst) smaller
    than the rows bounds the log factor (a top-N sort), else in a DISTINCT query the rows
    are taken to be halved (its TUNING)."""
    cdef int cost = n_row + c_log_est((n_cols + 59) // 30)
    if n_sorted > 0:
        cost += c_log_est((n_ob - n_sorted) * 100 // n_ob) - 66
    if limit is not None and limit < n_row:
        n_row = limit
    elif distinct and n_row > 10:
        n_row -= 10
    return cost + c_est_log(n_row)


cdef list key_tail(table, ix):
    """What an index's entries end with after its columns, as order keys (column,
    desc, collation, ends a unique key): the rowid, or for a WITHOUT ROWID table the
    PRIMARY KEY columns the index does not hold (none for the PRIMARY KEY itself)."""
    if not table.without_rowid:
        return [(-1, False, None, True)]
    pk = next((x for x in table.indexes if x.is_pk), None)
    if pk is None or ix is pk:
        return []
    own = set(ix.columns)
    return [(c, d, coll_name(pk.collations[j] or table.columns[c].collation), False)
            for j, (c, d) in enumerate(zip(pk.columns, pk.desc)) if c not in own]


def order_checker(scope, wc, order_by, group=False):
    """The OrderChecker of ``order_by`` (a GROUP BY's terms when ``group``)."""
    return OrderChecker(scope, wc, order_by, group)


cdef Py_ssize_t _source_index(sources, src) except -1:
    """``sources.index(src)`` without the method call: a Source is equal only to itself,
    so the list is searched by identity (a missing one fails as before)."""
    cdef Py_ssize_t i
    if type(sources) is list:
        for i in range(len(<list>sources)):
            if (<list>sources)[i] is src:
                return i
    return sources.index(src)


cdef list order_terms(scope, order_by):
    """OrderChecker's terms of ``order_by`` (see there): each resolved once per query."""
    sources = scope.sources
    cdef list obs = []
    for e, desc, nulls_first, coll in order_by:
        hit = column_ref(scope, e)  # (source, column): one lookup
        if hit is None:
            obs.append(None)
            continue
        src, c = hit
        obs.append((_source_index(sources, src), c, bool(desc), nulls_first, coll, src,
                    coll_name(coll)))
    return obs


cdef int _GROUP = 1  # (OrderChecker's modes besides an ORDER BY's, 0)
cdef int _DISTINCT = 2


cdef OrderChecker new_checker(scope, wc, list obs, int group):
    """The OrderChecker of the terms ``order_terms`` made."""
    cdef OrderChecker ch = OrderChecker.__new__(OrderChecker)
    ch.init(scope, wc, obs, group)
    return ch


cdef class OrderChecker:
    """Tells how many leading ORDER BY terms a sequence of loops delivers in order
    (SQLite's wherePathSatisfiesOrderBy, for plain column terms): one-row loops fix their
    columns; the first other loop orders by its index columns after the equality prefix,
    then the rowid, forwards or backwards (all terms one way). ``group``: 1, the terms
    are a GROUP BY's, which any direction of each serves (no loop is reversed); 2, a
    DISTINCT's (``distinct_count``). Calling it answers the number of terms; ``detail``
    also the loops to run backwards.

    An ORDER BY term is (source index, column, desc, nulls first, collation, source,
    collation name as compared, held to one value by an == constant WHERE term in that
    collation), or None when it is no column of this scope."""

    cdef object scope
    cdef list obs
    cdef int n_ob
    cdef int group

    def __init__(self, scope, wc, order_by, group=False):
        self.init(scope, wc, order_terms(scope, order_by), int(group))

    cdef void init(self, scope, wc, list obs, int group) except *:
        cdef WhereTerm t
        cdef Operand o
        sources = scope.sources
        # (source index, column) -> collation of an == constant WHERE term holding it
        cdef dict fixed = {}
        for t in wc.terms:
            for o in t.operands:
                if o.op == "=" and not o.prereq:
                    fixed[(_source_index(sources, o.src), o.col)] = coll_name(
                        comparison_collation(o.lhs, o.rhs, scope))
        cdef list out = []
        cdef tuple ob
        for x in obs:
            if x is None or not fixed:
                out.append(x if x is None else (<tuple>x) + (False,))
                continue
            ob = <tuple>x
            key = (ob[0], ob[1])
            out.append(ob + (fixed.get(key, False) == ob[6] or ob[1] < 0 and key in fixed,))
        self.scope = scope
        self.obs = out
        self.n_ob = len(out)
        self.group = group

    def __call__(self, loops):
        return self.count(tuple(loops), False)

    cdef int count(self, tuple loops, bint partial) except? -2:
        """The number of terms ``loops`` deliver; ``partial``: the loops start a path,
        and -1 says the loops after them may still deliver the terms left (each loop so
        far ends on a unique key: SQLite's isOrderDistinct)."""
        if self.group == _DISTINCT:
            return self.distinct_count(loops, partial)
        if self.group:
            return self.group_detail(loops, partial)
        return self.ordered(loops, None, partial)

    cdef tuple loop_keys(self, WhereLoop lp):
        """(one row, order keys, {column an index equality holds: its collation name})
        of a loop; keys None when the loop gives no order."""
        if lp.order_keys is None:
            lp.order_keys = _loop_keys(self.scope, lp)
        return lp.order_keys

    cdef bint held(self, WhereLoop lp, dict eqcols, tuple t) except -1:
        """Whether the loop ``lp`` holds the term ``t`` to one value (an index equality
        in the term's collation, or an == constant WHERE term). ``eqcols``: loop_keys'
        columns of the loop's index equality, each with its collation name (None for
        the rowid, which any collation holds)."""
        if eqcols:
            held_coll = eqcols.get(t[1], False)
            if held_coll is not False and (held_coll is None or held_coll == t[6]):
                return True
        return t[7]

    cpdef tuple detail(self, loops):
        """(number of leading ORDER BY terms delivered, source indexes of the loops that
        must run backwards for them: also when only some terms are delivered, as SQLite
        sets revMask while it matches)."""
        loops = tuple(loops)
        if self.group:
            return self.count(loops, False), ()
        moved = []
        k = self.ordered(loops, moved, False)
        return k, tuple(moved)

    cdef int ordered(self, tuple loops, list moved_out, bint partial) except? -2:
        """detail()'s count (or count()'s -1 when ``partial``); ``moved_out`` (when given)
        receives the source indexes of the loops to run backwards."""
        cdef list obs = self.obs
        cdef int n_ob = self.n_ob
        cdef int k = 0
        cdef int rev = -1  # -1: not known yet, else 0 or 1
        cdef list moved = []  # loops whose key order delivered a term (reversed when rev)
        cdef WhereLoop lp
        cdef int i, j, s, c, kc
        cdef bint unique, desc, kdesc, last, r, one_row
        cdef tuple t, key, lk
        for lp in loops:
            if k >= n_ob:
                break
            i = lp.src_i
            lk = self.loop_keys(lp)
            one_row = lk[0]
            keys = lk[1]
            eqcols = lk[2]
            if one_row:
                while k < n_ob and obs[k] is not None and (<tuple>obs[k])[0] == i:
                    k += 1
                continue
            if keys is None:
                return self._done(k, rev, moved, moved_out)
            j = 0
            unique = False
            while k < n_ob:
                if obs[k] is None:
                    return self._done(k, rev, moved, moved_out)
                t = <tuple>obs[k]
                s = t[0]
                c = t[1]
                desc = t[2]
                nulls_first = t[3]
                if s != i:
                    if unique:
                        break  # the next loop may order what this one leaves equal
                    return self._done(k, rev, moved, moved_out)
                if unique or self.held(lp, eqcols, t):
                    k += 1
                    continue
                if j >= len(keys) or (<tuple>keys[j])[0] != c:
                    return self._done(k, rev, moved, moved_out)
                key = <tuple>keys[j]
                kc = key[0]
                kdesc = key[1]
                last = key[3]
                if kc >= 0 and key[2] != t[6]:
                    return self._done(k, rev, moved, moved_out)
                r = desc != kdesc
                if rev < 0:
                    rev = r
                elif rev != r:
                    return self._done(k, rev, moved, moved_out)
                if nulls_first is not None and nulls_first != (not desc):
                    return self._done(k, rev, moved, moved_out)
                if not moved or moved[-1] != i:
                    moved.append(i)
                j += 1
                k += 1
                if last:
                    unique = True
            if k < n_ob and not unique:
                return self._done(k, rev, moved, moved_out)
        if partial and k < n_ob:
            return -1
        return self._done(k, rev, moved, moved_out)

    cdef int _done(self, int k, int rev, list moved, list moved_out):
        if moved_out is not None and rev == 1:
            moved_out.extend(moved)
        return k

    cdef int group_detail(self, tuple loops, bint partial) except? -2:
        """GROUP BY terms (any direction, any order: SQLite's WHERE_GROUPBY matches each
        key column with whichever term it is) all delivered in groups: n_ob, else 0."""
        cdef list obs = self.obs
        cdef Py_ssize_t n_ob = self.n_ob
        cdef Py_ssize_t k, m, hit
        for x in obs:
            if x is None:
                return 0
        cdef WhereLoop lp
        cdef int i
        cdef bint unique
        cdef tuple lk, t, key
        cdef list mine, rest
        cdef list left = [k for k in range(n_ob)]  # (the term numbers not delivered yet)
        for lp in loops:
            if not left:
                break
            i = lp.src_i
            lk = self.loop_keys(lp)
            keys = lk[1]
            eqcols = lk[2]
            mine = []  # the terms of this loop's source, and the others
            rest = []
            for x in left:
                if (<tuple>obs[<Py_ssize_t>x])[0] == i:
                    mine.append(x)
                else:
                    rest.append(x)
            if lk[0]:  # one row: every term of its source is one value
                left = rest
                continue
            if keys is None:
                return 0
            mine = [x for x in mine if not self.held(lp, eqcols, <tuple>obs[<Py_ssize_t>x])]
            unique = False
            for y in <tuple>keys:
                if not mine:
                    break
                key = <tuple>y
                kc = key[0]
                hit = -1
                for m in range(len(mine)):
                    t = <tuple>obs[<Py_ssize_t>mine[m]]
                    if t[1] == kc and (kc < 0 or key[2] == t[6]):
                        hit = m
                        break
                if hit < 0:
                    return 0
                del mine[hit]
                if key[3]:
                    unique = True
                    break
            # terms of this table its keys leave unordered: not delivered (behind a unique
            # key SQLite counts them as ordered, but its costs then pick an index that
            # orders them: tests/compiler/test_without_rowid_order.py)
            if mine:
                return 0
            left = rest
            if left and not unique:
                return 0
        if left:
            return -1 if partial else 0
        return n_ob


    cdef int distinct_count(self, tuple loops, bint partial) except? -2:
        """DISTINCT terms (any order, each loop's keys one way: SQLite's WHERE_DISTINCTBY)
        that the loops bring in order: all of them when each term is a key column (in
        its collation) or held to one value, loop after loop as long as each ends on a
        unique key; else the number of leading terms delivered (which prices the sort
        the DISTINCT's table then is)."""
        cdef list obs = self.obs
        cdef Py_ssize_t n_ob = self.n_ob
        cdef list done = [False] * n_ob
        cdef list mine
        cdef Py_ssize_t x, m, hit
        cdef WhereLoop lp
        cdef int i, rev
        cdef bint unique
        cdef bint decided = False
        cdef tuple lk, t, key
        for lp in loops:
            i = lp.src_i
            mine = [x for x in range(n_ob) if not done[x] and obs[x] is not None
                    and (<tuple>obs[x])[0] == i]
            lk = self.loop_keys(lp)
            if lk[0]:  # one row: every term of its source is one value
                for x in mine:
                    done[x] = True
                continue
            keys = lk[1]
            if keys is None:
                decided = True
                break
            eqcols = lk[2]
            for x in list(mine):
                if self.held(lp, eqcols, <tuple>obs[x]):
                    done[x] = True
                    mine.remove(x)
            unique = False
            rev = -1
            for y in <tuple>keys:
                if not mine:
                    break
                key = <tuple>y
                kc = key[0]
                hit = -1
                for m in range(len(mine)):
                    t = <tuple>obs[<Py_ssize_t>mine[m]]
                    if t[1] == kc and (kc < 0 or key[2] == t[6]):
                        hit = m
                        break
                if hit < 0:
                    break
                if rev < 0:
                    rev = key[1]
                elif rev != key[1]:
                    break
                done[<Py_ssize_t>mine[hit]] = True
                del mine[hit]
                if key[3]:
                    unique = True
                    break
            if not unique:
                decided = True
                break
            for x in mine:  # (behind a unique key: one value each)
                done[x] = True
        x = 0
        while x < n_ob and done[x]:
            x += 1
        if partial and x < n_ob and not decided:
            return -1
        return x


cdef tuple _ONE_ROW = (True, None, {})
cdef tuple _ROWID_ORDER = (False, ((-1, False, None, True),), {})
cdef tuple _NO_ORDER = (False, None, {})
# id(index) -> (index, its table, {number of equalities, or (that number, bits of the IN
# ones) when there are IN ones: the order keys of a loop on the index}): the keys depend
# on the schema alone, and most statements read the same few indexes; the entry holds
# the index so its id stays unique
cdef dict _keys_memo = {}


cdef tuple _loop_keys(scope, WhereLoop lp):
    """OrderChecker.loop_keys' answer for loop ``lp`` (shared: never changed)."""
    cdef Operand o
    cdef str kind = lp.kind
    ix = lp.index if kind == "index" else None
    # an IN list is walked in its column's order: that column orders the rows
    cdef unsigned long long in_bits = 0
    cdef Py_ssize_t j = 0
    cdef tuple eq = lp.eq
    cdef Py_ssize_t ne = len(eq)
    for o in eq:
        if o.op == "IN":
            in_bits |= 1ULL << (j if j < 63 else 63)
        j += 1
    if ix is None:
        if kind == "rowid_eq" and not in_bits:
            return _ONE_ROW
        if kind == "scan" or kind == "rowid_range" or kind == "rowid_eq":
            return _ROWID_ORDER
        return _NO_ORDER
    if type(scope) is Scope:  # (the fields read in C)
        table = (<Source>(<Scope>scope).sources[lp.src_i]).table
    else:
        table = scope.sources[lp.src_i].table
    if ne >= 63:
        return _index_answer(table, ix, eq, in_bits)
    ix_id = obj_id(ix)
    hit = _keys_memo.get(ix_id)
    if hit is None or (<tuple>hit)[0] is not ix or (<tuple>hit)[1] is not table:
        if len(_keys_memo) > 256:
            _keys_memo.clear()
        hit = _keys_memo[ix_id] = (ix, table, {})
    cdef dict per = (<tuple>hit)[2]
    key = (ne, in_bits) if in_bits else <object>ne
    ans = per.get(key)
    if ans is None:
        ans = per[key] = _index_answer(table, ix, eq, in_bits)
    return <tuple>ans


cdef tuple _index_answer(table, ix, tuple eq, unsigned long long in_bits):
    """_loop_keys' answer for a loop on index ``ix`` with the equalities ``eq`` (the IN
    ones ``in_bits``): one row for equalities on every column of a unique index."""
    if not in_bits and ix.unique and len(eq) == len(ix.columns):
        return _ONE_ROW
    return _index_keys(table, ix, eq)


cdef tuple _index_keys(table, ix, tuple eq):
    """_loop_keys' answer for an index loop with the equalities ``eq``."""
    cdef Py_ssize_t ne = len(eq)
    keys = [(c, d, coll_name(ix.collations[j] or table.columns[c].collation), False)
            for j, (c, d) in enumerate(zip(ix.columns, ix.desc))
            if j >= ne or (<Operand>eq[j]).op == "IN"]
    keys += key_tail(table, ix)
    if table.without_rowid and keys:  # the PRIMARY KEY's last column ends it
        keys[-1] = keys[-1][:3] + (True,)
    # each equality column's collation is the one of its first place in the index
    cdef dict eqcols = {}
    cols = ix.columns
    for j in range(ne):
        c = cols[j]
        if (<Operand>eq[j]).op != "IN" and c not in eqcols:
            eqcols[c] = None if c < 0 else coll_name(
                ix.collations[cols.index(c)] or table.columns[c].collation)
    return False, tuple(keys), eqcols
