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

from sqlengine.compiler.exprindex import XN_EXPR, index_column_affinity, same_expr
from sqlengine.compiler.plan_terms import Operand, _column_ref, split_and  # noqa: F401  (re-exported)
from sqlengine.compiler.resolve import comparison_collation, expr_affinity
from sqlengine.sql import ast as A
from sqlengine.vdbe._values import comparison_affinity
from sqlengine.vdbe.opcodes import AFF_BLOB, AFF_NONE, AFF_NUMERIC, AFF_TEXT

# ---- LogEst arithmetic (SQLite's util.c) -------------------------------------------------

_ADD = (10, 10, 9, 9, 8, 8, 7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3,
        2, 2, 2, 2, 2, 2, 2)
_LOW = (0, 2, 3, 5, 6, 7, 8, 9)


def log_est(x: int) -> int:
    """sqlite3LogEst: 10*log2(x), rounded the way SQLite does."""
    y = 40
    if x < 8:
        if x < 2:
            return 0
        while x < 8:
            y -= 10
            x <<= 1
    else:
        i = x.bit_length() - 4
        y += i * 10
        x >>= i
    return _LOW[x & 7] + y - 10


def log_add(a: int, b: int) -> int:
    """sqlite3LogEstAdd: the LogEst of the sum of two LogEst values."""
    if a >= b:
        if a > b + 49:
            return a
        if a > b + 31:
            return a + 1
        return a + _ADD[a - b]
    if b > a + 49:
        return b
    if b > a + 31:
        return b + 1
    return b + _ADD[b - a]


def est_log(n: int) -> int:
    return 0 if n <= 10 else log_est(n) - 33


TABLE_ROWS = 200  # LogEst of 1,048,576: SQLite's row count for a table without statistics
_IDX_EST = (33, 32, 30, 28, 26)  # rows per key prefix: 10, 9, 8, 7, 6, then 5 (23)


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


class WhereLoop:
    """One way to read one source: what it needs first (``prereq``), rows out, run cost."""

    __slots__ = ("src_i", "bit", "prereq", "kind", "index", "eq", "lo", "hi", "n_out",
                 "r_run", "r_setup", "covering", "used", "sort_idx", "ops")

    def __init__(self, src_i, kind):
        self.src_i = src_i
        self.bit = 1 << src_i
        self.prereq = 0
        self.kind = kind
        self.index = None
        self.eq = ()  # Operands, one per leading index column
        self.lo = None
        self.hi = None
        self.n_out = 0
        self.r_run = 0
        self.r_setup = 0
        self.covering = False
        self.used = ()  # the terms the loop's keys come from
        self.sort_idx = 0  # non-zero: the index might deliver the ORDER BY (kept apart)
        self.ops = None  # auto: the operands on its source, which access_of keys it by


# ---- sizes (SQLite's szEst / szTabRow / szIdxRow) -----------------------------------------

def _col_size(c) -> int:
    t = c.type_name
    if not t:
        return 1
    v = 0
    if c.affinity in (AFF_BLOB, AFF_TEXT):
        u = t.upper()
        k = u.rfind("CHAR")
        if k >= 0:
            rest = u[k + 4:]
        elif "BLOB" in u and u[u.rfind("BLOB") + 4:].startswith("("):
            rest = u[u.rfind("BLOB") + 4:]
        else:
            rest = None
        if rest is None:
            v = 16
        else:
            digits = ""
            for ch in rest:
                if ch.isdigit():
                    digits += ch
                elif digits:
                    break
            v = int(digits[:9]) if digits else 0
    v = v // 4 + 1
    return min(v, 255)


class TableFacts:
    """What the planner asks of a table for every statement that reads it and that
    depends on the schema alone: SQLite's szTabRow and szIdxRow sizes, and the indexes
    a loop may read in SQLite's order (the newest first; no partial index, none on a
    column it cannot key) as (position in that order, index, its column set, szIdxRow,
    rows per key prefix)."""

    __slots__ = ("sz_tab", "sz_idx", "usable")

    def __init__(self, table):
        sz = [_col_size(c) for c in table.columns]
        w = sum(sz) + (1 if table.ipk < 0 else 0)
        self.sz_tab = log_est(w * 4)
        idx = {}
        for ix in table.indexes:
            wi = 1 + sum(sz[c] if 0 <= c < len(sz) else 1 for c in ix.columns)
            idx[ix.name] = log_est(wi * 4)
        self.sz_idx = idx
        usable = []
        for k, ix in enumerate(table.indexes[::-1]):
            if ix.where is not None or any(c < 0 and c != XN_EXPR for c in ix.columns):
                continue
            usable.append((k, ix, frozenset(ix.columns), idx[ix.name], _row_est(ix)))
        self.usable = tuple(usable)


# id(table) -> (table, column count, index objects, TableFacts): asked for by every
# statement that reads the table; the entry holds the table so that its id stays unique.
_facts_memo: dict = {}


def table_facts(table) -> TableFacts:
    """The TableFacts of a table, remembered while the table object, its column count
    and its list of indexes stay the same (a schema change that alters any of them
    makes them anew)."""
    hit = _facts_memo.get(id(table))
    ixs = tuple(table.indexes)
    # (tuples compare their items by identity first: the same Index objects are equal)
    if hit is not None and hit[0] is table and hit[1] == len(table.columns) and hit[2] == ixs:
        return hit[3]
    ans = TableFacts(table)
    if len(_facts_memo) > 256:
        _facts_memo.clear()
    _facts_memo[id(table)] = (table, len(table.columns), ixs, ans)
    return ans


def _sizes(table):
    """(szTabRow, {index name: szIdxRow}) of a table."""
    f = table_facts(table)
    return f.sz_tab, f.sz_idx


def _row_est(ix):
    n = len(ix.columns)
    a = [TABLE_ROWS] + [(_IDX_EST[i] if i < len(_IDX_EST) else 23) for i in range(n)]
    if ix.unique:
        a[n] = 0
    return a


# ---- validity of an operand for an index column --------------------------------------------

def _affinity_ok(idx_aff, aff):
    if aff in (AFF_BLOB, AFF_NONE, None):
        return True
    if aff == AFF_TEXT:
        return idx_aff == AFF_TEXT
    return idx_aff in (AFF_NUMERIC, "D", "E")


def _coll_name(c):
    return (c or "BINARY").upper()


def _is_small_int(e):
    if isinstance(e, A.Unary) and e.op == "-" and isinstance(e.operand, A.Literal):
        v = e.operand.value
        return type(v) is int and v <= 1
    return isinstance(e, A.Literal) and type(e.value) is int and -1 <= e.value <= 1


# ---- loop generation ---------------------------------------------------------------------

def _cheaper_subset(x, y):
    """whereLoopCheaperProperSubset: ``x`` uses a proper subset of the terms of ``y``, is
    not worse in both cost and rows, and is covering only if ``y`` is."""
    if len(x.used) >= len(y.used):
        return False
    if x.r_run > y.r_run and x.n_out > y.n_out:
        return False
    for t in x.used:
        if t not in y.used:
            return False
    return not (x.covering and not y.covering)


def _adjust_cost(loops, new):
    """whereLoopAdjustCost: an index loop using more terms than a cheaper one on the same
    source is made at least as cheap (and one using fewer at least as costly)."""
    for p in loops:
        if p.src_i != new.src_i or p.kind != "index" or not p.used:
            continue
        if _cheaper_subset(p, new):
            new.r_run = min(p.r_run, new.r_run)
            new.n_out = min(p.n_out, new.n_out) - 1
        elif _cheaper_subset(new, p):
            new.r_run = max(p.r_run, new.r_run)
            new.n_out = max(p.n_out, new.n_out) + 1


class LoopBuilder:
    """Makes the WhereLoops of every source of one WHERE clause."""

    def __init__(self, scope, wc, col_used, allowed=None, ob_cols=None, hints=None):
        self.scope = scope
        self.hints = hints or {}  # {source index: TableRef} with INDEXED BY / NOT INDEXED
        self.ob_cols = ob_cols or {}  # {source index: columns named by ORDER BY}
        self.sort_idx = 0
        self.wc = wc
        self.col_used = col_used  # {source index: set of columns} or None (unknown: all)
        self.loops: list[WhereLoop] = []
        self.allowed = allowed  # {source index: [terms]} restricting the terms (LEFT JOIN)
        self._op_memo = {}  # id(Operand) -> _op_info's answer, for this build only

    def _op_info(self, o):
        """(comparison affinity, affinity of the column side, comparison collation name)
        of an operand; asked once per index column it could key, answered once per build
        (no code is emitted while the loops are built, so the answers cannot change)."""
        hit = self._op_memo.get(id(o))
        if hit is None:
            scope = self.scope
            lhs_aff = expr_affinity(o.lhs, scope)
            hit = self._op_memo[id(o)] = (
                comparison_affinity(lhs_aff, expr_affinity(o.rhs, scope)), lhs_aff,
                _coll_name(comparison_collation(o.lhs, o.rhs, scope)), o)
        return hit

    def add(self, new):
        """whereLoopInsert: keep ``new`` unless a loop as good with no more prerequisites
        exists; drop the loops it beats."""
        loops = self.loops
        new.sort_idx = self.sort_idx
        if new.kind == "index" and new.used:
            _adjust_cost(loops, new)
        for k, p in enumerate(loops):
            if p.src_i != new.src_i or p.sort_idx != new.sort_idx:
                continue
            if (p.kind == "auto" and new.kind == "index" and new.eq
                    and (p.prereq & new.prereq) == new.prereq):
                loops[k] = new
                self._drop_worse(k, new)
                return
            if ((p.prereq & new.prereq) == p.prereq and p.r_setup <= new.r_setup
                    and p.r_run <= new.r_run and p.n_out <= new.n_out):
                return
            if ((p.prereq & new.prereq) == new.prereq and p.r_run >= new.r_run
                    and p.n_out >= new.n_out):
                loops[k] = new
                self._drop_worse(k, new)
                return
        loops.append(new)

    def _drop_worse(self, k, new):
        loops = self.loops
        j = k + 1
        while j < len(loops):
            p = loops[j]
            if (p.src_i == new.src_i and p.sort_idx == new.sort_idx
                    and (p.prereq & new.prereq) == new.prereq
                    and p.r_setup >= new.r_setup and p.r_run >= new.r_run
                    and p.n_out >= new.n_out):
                del loops[j]
            else:
                j += 1

    def terms_of(self, i):
        if self.allowed is not None and i in self.allowed:
            return self.allowed[i]
        return self.wc.terms

    def output_adjust(self, lp, n_row, terms):
        """whereLoopOutputAdjust: fewer rows out for each term on this source the loop
        does not use."""
        not_allowed = ~(lp.prereq | lp.bit)
        reduce = 0
        n_out = lp.n_out
        for t in terms:
            m = t.mask
            if m & not_allowed or not m & lp.bit:
                continue
            if t in lp.used:
                continue
            n_out -= 1
            e = t.expr
            if type(e) is A.Binary and e.op == "=" and t.operands:
                o = t.operands[0]
                k = 10 if _is_small_int(o.rhs) else 20
                if reduce < k:
                    reduce = k
        if n_out > n_row - reduce:
            n_out = n_row - reduce
        lp.n_out = n_out

    def build(self):
        # A loop is only ever compared with loops of its own source (see add), so each
        # source's loops are collected apart and joined in FROM order.
        out = []
        by_src: dict = {}
        for t in self.wc.terms:
            for o in t.operands:
                by_src.setdefault(id(o.src), []).append(o)
            if not t.operands and type(t.expr) is A.Binary and t.expr.op == "OR":
                o = _or_to_in(self.scope, t)
                if o is not None:
                    by_src.setdefault(id(o.src), []).append(o)
        self._ops_by_src = by_src
        sources = self.scope.sources
        n = len(sources)
        by_bit = [[] for _ in range(n)]  # the terms reading each source, in WHERE order
        for t in self.wc.terms:
            for i in _bits(t.mask, n):
                by_bit[i].append(t)
        self._terms_by_src = by_bit
        for i, src in enumerate(sources):
            self.loops = []
            self.add_source(i, src)
            out.extend(self.loops)
        self.loops = out
        return out

    def add_source(self, i, src):
        terms = self.terms_of(i)
        bit = 1 << i
        # output_adjust looks only at the terms that read this source
        if terms is self.wc.terms:
            ops = self._ops_by_src.get(id(src), [])
            terms = self._terms_by_src[i]
        else:
            ops = [o for t in terms for o in t.operands if o.src is src]
            terms = [t for t in terms if t.mask & bit]
        # (a subquery's own estimate, as SQLite's nRowLogEst of its ephemeral table)
        r_size = src.row_est if src.row_est is not None else TABLE_ROWS
        r_log = est_log(r_size)
        table = src.table if src.is_table else None
        ob = self.ob_cols.get(i, ())
        self.sort_idx = 0
        hint = self.hints.get(i)
        not_indexed = hint is not None and hint.not_indexed
        indexed_by = hint.indexed_by.lower() if hint is not None and hint.indexed_by else None
        # automatic indexes first (SQLite's order: they lose ties); none on the right
        # table of a RIGHT JOIN (SQLite's JT_RIGHT test)
        if (not getattr(src, "changes_per_run", False) and hint is None and not src.right
                and (table is None or not table.without_rowid)):
            for o in ops:
                if o.op != "=" or o.col < 0 and table is not None:
                    continue
                if table is not None and not _affinity_ok(table.columns[o.col].affinity,
                                                        self._op_info(o)[0]):
                    continue
                lp = WhereLoop(i, "auto")
                lp.prereq = o.prereq
                lp.r_setup = r_log + r_size + (28 if table is not None else -10)
                if lp.r_setup < 0:
                    lp.r_setup = 0
                lp.n_out = 43
                lp.r_run = log_add(r_log, 43)
                lp.used = (o.term,)
                lp.ops = ops
                self.add(lp)
        # full scan
        self.sort_idx = 1 if -1 in ob else 0
        lp = WhereLoop(i, "scan")
        if table is not None and table.without_rowid:
            # a WITHOUT ROWID table is read in PRIMARY KEY order (its key is its b-tree)
            pk = next((ix for ix in table.indexes if ix.is_pk), None)
            if pk is not None:
                lp = WhereLoop(i, "index")
                lp.index = pk
        lp.n_out = r_size
        lp.r_run = r_size + 16
        self.output_adjust(lp, r_size, terms)
        self.add(lp)
        if table is None:
            return
        facts = table_facts(table)
        sz_tab = facts.sz_tab
        # rowid (INTEGER PRIMARY KEY) lookups and ranges
        if not table.without_rowid and indexed_by is None:
            self._add_rowid(i, bit, [o for o in ops if o.col == -1], r_size, r_log, terms)
        used = self.col_used.get(i) if self.col_used is not None else None
        op_cols = {o.col for o in ops}
        ob_rowid = -1 in ob  # (every index ends with the rowid: then any might help)
        for k, ix, cols, szi, est in facts.usable:
            if not_indexed or indexed_by is not None and ix.name.lower() != indexed_by:
                continue
            # non-zero: this index might deliver the ORDER BY
            self.sort_idx = k + 2 if ob_rowid or not cols.isdisjoint(ob) else 0
            covering = used is not None and used <= cols
            # a full scan of the index: when it is forced, when it might deliver the
            # ORDER BY, or (covering) when it is smaller than the table
            if (indexed_by is not None or self.sort_idx) and not covering:
                lp = WhereLoop(i, "index")
                lp.index = ix
                lp.n_out = r_size
                lp.r_run = log_add(r_size + 1 + (15 * szi) // sz_tab, r_size + 16)
                self.output_adjust(lp, r_size, terms)
                self.add(lp)
            if covering and (szi < sz_tab or indexed_by is not None or self.sort_idx):
                lp = WhereLoop(i, "index")
                lp.index = ix
                lp.covering = True
                lp.n_out = r_size
                lp.r_run = r_size + 1 + (15 * szi) // sz_tab
                self.output_adjust(lp, r_size, terms)
                self.add(lp)
            if ix.columns and ix.columns[0] in op_cols:  # else no key can start
                cost = (r_log, 1 + (15 * szi) // sz_tab, not covering)
                _IndexLoops(self, i, ix, est, ops, covering, cost, terms).add_from(
                    0, (), 0, TABLE_ROWS, 0)

    def _add_rowid(self, i, bit, ops, r_size, r_log, terms):
        for o in ops:
            n_in = in_list_size(o)
            if o.op == "=" or n_in is not None:
                lp = WhereLoop(i, "rowid_eq")
                lp.eq = (o,)
                lp.prereq = o.prereq
                lp.n_out = n_in or 0
                lp.r_run = log_add(r_log, 16) + (n_in or 0)
                lp.used = (o.term,)
                self.output_adjust(lp, r_size, terms)
                self.add(lp)
        self._add_ranges(i, None, (), 0, r_size, [o for o in ops if o.op in (">", ">=", "<", "<=")],
                         (r_log, 16, False), r_size, terms, "rowid_range")

    def _add_ranges(self, i, ix, eq, prereq, n_out, rops, cost, r_size, terms, kind,
                    covering=False, n_in=0):
        his = [o for o in rops if o.op in ("<", "<=")]
        combos = []
        for o in rops:  # in WHERE order, as SQLite adds them
            if o.op in (">", ">="):
                combos.append((o, None))
                combos.extend((o, hi) for hi in his)
            else:
                combos.append((None, o))
        seen = set()
        for lo, hi in combos:
            key = (id(lo), id(hi))
            if key in seen:
                continue
            seen.add(key)
            lp = WhereLoop(i, kind)
            lp.index = ix
            lp.eq = eq
            lp.lo = lo
            lp.hi = hi
            lp.covering = covering
            lp.prereq = prereq | (lo.prereq if lo else 0) | (hi.prereq if hi else 0)
            n_new = n_out - (20 if lo else 0) - (20 if hi else 0) - (20 if lo and hi else 0)
            out = n_out - (1 if lo else 0) - (1 if hi else 0)
            if n_new < 10:
                n_new = 10
            if n_new < out:
                out = n_new
            lp.n_out = out + n_in
            lp.r_run = _lookup_cost(cost, out) + n_in
            lp.used = tuple(o.term for o in eq) + tuple(x.term for x in (lo, hi) if x)
            self.output_adjust(lp, r_size, terms)
            self.add(lp)


def _lookup_cost(cost, n_out):
    """The run cost of a keyed loop giving ``n_out`` rows (LogEst); ``cost`` is (LogEst of
    the seek, per-row cost of the b-tree read, whether each row is then looked up in the
    table)."""
    r_log, step, lookup = cost
    r = log_add(r_log, n_out + step)
    if lookup:
        r = log_add(r, n_out + 16)
    return r


class _IndexLoops:
    """The loops one index can key for one source (SQLite's whereLoopAddBtreeIndex):
    equalities on a prefix of its columns, after each of them optionally a range."""

    __slots__ = ("builder", "i", "ix", "table", "ops", "covering", "cost", "est", "terms")

    def __init__(self, builder, i, ix, est, ops, covering, cost, terms):
        self.builder = builder
        self.i = i
        self.ix = ix
        self.table = builder.scope.sources[i].table
        self.ops = ops
        self.covering = covering
        self.cost = cost  # for _lookup_cost
        self.est = est  # _row_est(ix)
        self.terms = terms

    def fits(self, o, k):
        """Whether operand ``o`` may key index column ``k`` (affinity and collation)."""
        ix = self.ix
        table = self.table
        coll = ix.collations[k] or table.columns[ix.columns[k]].collation
        term_aff, lhs_aff, coll_name = self.builder._op_info(o)[:3]
        aff = index_column_affinity(table, ix, k, lhs_aff)
        return _affinity_ok(aff, term_aff) and coll_name == _coll_name(coll)

    def add_from(self, k, eq, prereq, n_out, n_in_mul):
        """The loops keyed on columns ``k`` on after the equalities ``eq``."""
        ix = self.ix
        if k >= len(ix.columns):
            return
        b = self.builder
        scope = b.scope
        col = ix.columns[k]
        mine = [o for o in self.ops if o.col == col and (
            col != XN_EXPR or same_expr(scope, o.src, o.lhs.expr, ix.exprs[k]))]
        if not mine:
            return
        i = self.i
        covering = self.covering
        terms = self.terms
        # a range on this column after the equalities
        rops = [o for o in mine if o.op in (">", ">=", "<", "<=") and self.fits(o, k)]
        if rops:
            b._add_ranges(i, ix, eq, prereq, n_out, rops, self.cost, TABLE_ROWS, terms,
                          "index", covering, n_in_mul)
        a = self.est
        for o in mine:
            n_in = in_list_size(o)
            if o.op != "=" and n_in is None or not self.fits(o, k):
                continue
            n_in = n_in or 0
            lp = WhereLoop(i, "index")
            lp.index = ix
            lp.eq = eq + (o,)
            lp.covering = covering
            lp.prereq = prereq | o.prereq
            nxt = n_out + a[k + 1] - a[k]
            # x IN (list): one lookup per value (SQLite's nIn, multiplied along)
            lp.n_out = nxt + n_in_mul + n_in
            lp.r_run = _lookup_cost(self.cost, nxt) + n_in_mul + n_in
            lp.used = tuple(x.term for x in lp.eq)
            b.output_adjust(lp, TABLE_ROWS, terms)
            b.add(lp)
            self.add_from(k + 1, lp.eq, lp.prereq, nxt, n_in_mul + n_in)


def _is_constant(e):
    t = type(e)
    if t is A.Literal or t is A.Param:
        return True
    return t is A.Unary and e.op in ("-", "+") and type(e.operand) is A.Literal


def in_list_size(o):
    """For an operand ``column IN (constant, ...)``: the LogEst of the number of values
    (SQLite's nIn), else None. Only constant lists are looked up value by value (their
    comparison affinity is the column's, as for ``=``)."""
    if o.op != "IN":
        return None
    items = o.rhs.items
    for it in items:
        if not _is_constant(it):
            return None
    return log_est(len(items))


def _or_to_in(scope, t):
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
        if _is_constant(e.right):
            x, v = e.left, e.right
        elif _is_constant(e.left):
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
