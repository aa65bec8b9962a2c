# cython: language_level=3
"""The compiled core of the query planner (``compiler/planner.py`` is the public module and
documents the estimates): SQLite's LogEst arithmetic, the ``WhereLoop``, the sizes the
planner reads from a table's schema, and the making of every source's loops with their
costs (SQLite's whereLoopAddBtree, whereLoopAddBtreeIndex, whereLoopInsert and
whereLoopOutputAdjust). Loops, terms and operands are C structs here, so a candidate loop
costs no attribute lookups. It reads the analysed WHERE terms and the schema; it emits no
code and never chooses the join order (``planner.solve`` does).
"""

cimport cython

from sqlengine.compiler._resolve cimport (Source, comparison_collation, expr_affinity, slot,
                                          slot_offset)
from sqlengine.compiler._terms cimport Operand, WhereTerm, is_constant, obj_id
from sqlengine.compiler.exprindex import XN_EXPR, same_expr
from sqlengine.compiler.partial_plan import index_parts, lookup_cost as partial_lookup_cost
from sqlengine.compiler.partial_plan import usable as partial_usable
from sqlengine.compiler.plan_terms import or_to_in
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe._values cimport comparison_affinity
from sqlengine.vdbe.opcodes import AFF_BLOB, AFF_NONE, AFF_NUMERIC, AFF_TEXT

cdef object T_Binary = A.Binary
cdef Py_ssize_t F_BIN_OP = slot_offset(A.Binary, "op")
cdef object T_Unary = A.Unary
cdef object T_Literal = A.Literal

# ---- a Table's or an Index's fields, read from their slots -----------------------------------
# The builder reads a few per source: for a schema.Table or schema.Index (slotted classes)
# straight from the slot (see ``slot`` in _resolve.pxd), by getattr for anything else.

cdef enum:
    KEYED_INDEXED = 1
    KEYED_UNIQUE = 2
    TB_COLUMNS = 0
    TB_INDEXES = 1
    TB_WITHOUT_ROWID = 2
    TB_STATS_USED = 3
    N_TB = 4
    IX_NAME = 0
    IX_COLUMNS = 1
    IX_COLLATIONS = 2
    IX_EXPRS = 3
    IX_UNIQUE = 4
    N_IX = 5

cdef tuple _TB_NAMES = ("columns", "indexes", "without_rowid", "stats_used")
cdef tuple _IX_NAMES = ("name", "columns", "collations", "exprs", "unique")
cdef Py_ssize_t[N_TB] _tb_off
cdef Py_ssize_t[N_IX] _ix_off
cdef object T_Table = None  # schema.Table and schema.Index, read at the first use (the
cdef object T_Index = None  # schema's import reaches the compiler)


cdef void _init_slots() except *:
    global T_Table, T_Index
    cdef Py_ssize_t k
    from sqlengine.schema import Index, Table
    for k in range(N_TB):
        _tb_off[k] = slot_offset(Table, _TB_NAMES[k])
    for k in range(N_IX):
        _ix_off[k] = slot_offset(Index, _IX_NAMES[k])
    T_Index = Index
    T_Table = Table


cdef object tab_f(table, int f):
    """``getattr(table, name)`` of the Table field ``f`` (``TB_*``)."""
    if T_Table is None:
        _init_slots()
    if type(table) is T_Table:
        return slot(table, _tb_off[f])
    return getattr(table, _TB_NAMES[f])


cdef object ix_f(ix, int f):
    """``getattr(ix, name)`` of the Index field ``f`` (``IX_*``)."""
    if T_Index is None:
        _init_slots()
    if type(ix) is T_Index:
        return slot(ix, _ix_off[f])
    return getattr(ix, _IX_NAMES[f])


# ---- LogEst arithmetic (SQLite's util.c) -------------------------------------------------

cdef int[32] _ADD = [10, 10, 9, 9, 8, 8, 7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 3,
                     3, 2, 2, 2, 2, 2, 2, 2]
cdef int[8] _LOW = [0, 2, 3, 5, 6, 7, 8, 9]


cdef int c_log_est(unsigned long long x) noexcept:
    cdef int y = 40
    if x < 8:
        if x < 2:
            return 0
        while x < 8:
            y -= 10
            x <<= 1
    else:
        while x >= 16:
            y += 10
            x >>= 1
    return _LOW[x & 7] + y - 10


def log_est(x) -> int:
    """sqlite3LogEst: 10*log2(x), rounded the way SQLite does."""
    if 0 <= x < 0xFFFFFFFFFFFFFFFF:
        return c_log_est(x)
    y = 40
    if x < 8:
        return 0  # (negative)
    i = x.bit_length() - 4
    y += i * 10
    x >>= i
    return _LOW[x & 7] + y - 10


cdef int c_log_add(int a, int b) noexcept:
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


def log_add(int a, int b) -> int:
    """sqlite3LogEstAdd: the LogEst of the sum of two LogEst values."""
    return c_log_add(a, b)


cdef int c_est_log(int n) noexcept:
    return 0 if n <= 10 else c_log_est(n) - 33


TABLE_ROWS = 200  # LogEst of 1,048,576: SQLite's row count for a table without statistics
cdef int C_TABLE_ROWS = 200
_IDX_EST = (33, 32, 30, 28, 26)  # rows per key prefix: 10, 9, 8, 7, 6, then 5 (23)


@cython.freelist(32)  # (made and freed by the dozen for every statement)
cdef class WhereLoop:
    """One way to read one source: what it needs first (``prereq``), rows out, run cost.
    ``kind``: scan, rowid_eq, rowid_range, index, auto."""

    # (its fields: _loops.pxd)

    def __init__(self, int src_i, str kind):
        self.src_i = src_i
        self.bit = 1ULL << src_i
        self.kind = kind
        self.eq = ()
        self.used = ()


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


cdef class TableFacts:
    """What the planner asks of a table for every statement that reads it and that
    depends on the schema alone: SQLite's szTabRow and szIdxRow sizes, its row count
    (``n_row``, nRowLogEst), and the indexes a loop may read in SQLite's order (the newest
    first; none on a column it cannot key) as (position in that order, index, its column
    set, szIdxRow, rows per key prefix: aiRowLogEst, the AND parts of a partial index's
    WHERE or None: partial_plan.index_parts). The counts are SQLite's defaults (half the
    rows for a partial index) unless the table has sqlite_stat1 statistics
    (``Table.stat``)."""

    cdef public int sz_tab
    cdef public dict sz_idx
    cdef public tuple usable
    cdef public int n_row

    def __init__(self, table):
        st = getattr(table, "stat", None)
        ests = None
        self.n_row = C_TABLE_ROWS
        if st is not None:
            self.n_row, ests = _stat_estimates(table, st)
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
            if any(c < 0 and c != XN_EXPR for c in ix.columns):
                continue
            usable.append((k, ix, frozenset(ix.columns), idx[ix.name],
                           _row_est(ix) if ests is None else ests[ix.name],
                           index_parts(ix)))
        self.usable = tuple(usable)


def _stat_estimates(table, st):
    """(nRowLogEst, {index name: aiRowLogEst}) of a table from its sqlite_stat1 numbers
    (schema.TableStat), as SQLite's analysisLoader and sqlite3DefaultRowEst make them: an
    index with a row takes the LogEst of its numbers (the defaults where the row has fewer);
    one without gets the defaults over the table's count, raised to at least 1,000 rows
    (halved for a partial index)."""
    n = C_TABLE_ROWS if st.n_row is None else log_est(st.n_row)
    out = {}
    for ix in table.indexes:
        ints = st.indexes.get(ix.name.lower())
        if ints is not None:
            a = _row_est(ix)
            for j, v in enumerate(ints):
                a[j] = log_est(v)
            out[ix.name] = a
    for ix in table.indexes:
        if ix.name not in out:
            if n < 99:
                n = 99
            a = _row_est(ix)
            a[0] = n - 10 if ix.where is not None else n
            out[ix.name] = a
    return n, out


# id(table) -> (table, column count, index objects, TableFacts): asked for by every
# statement that reads the table; the entry holds the table so that its id stays unique.
cdef dict _facts_memo = {}


def forget_table_facts():
    """Drop every remembered TableFacts: a table's statistics changed (they are read
    again after ANALYZE or a schema load, schema.apply_stats)."""
    _facts_memo.clear()


def table_facts(table):
    """The TableFacts of a table, remembered while the table object, its column count
    and its list of indexes stay the same (a schema change that alters any of them
    makes them anew)."""
    return c_table_facts(table)


cdef TableFacts c_table_facts(table):
    hit = _facts_memo.get(obj_id(table))
    indexes = tab_f(table, TB_INDEXES)
    cdef Py_ssize_t n_cols = len(tab_f(table, TB_COLUMNS))
    if (hit is not None and (<tuple>hit)[0] is table and (<tuple>hit)[1] == n_cols
            and _same_items(<tuple>(<tuple>hit)[2], indexes)):
        return <TableFacts>(<tuple>hit)[3]
    ixs = tuple(indexes)
    ans = TableFacts(table)
    if len(_facts_memo) > 256:
        _facts_memo.clear()
    _facts_memo[obj_id(table)] = (table, n_cols, ixs, ans)
    return ans


cdef bint _same_items(tuple kept, items) except -1:
    """Whether ``items`` holds the objects of ``kept`` (as ``kept == tuple(items)``
    compares them: identity first), without making the tuple."""
    cdef Py_ssize_t n = len(kept), k
    if len(items) != n:
        return False
    for k in range(n):
        a = kept[k]
        b = items[k]
        if a is not b and not a == b:
            return False
    return True


cdef object _pk_of(table):
    """The PRIMARY KEY index of a WITHOUT ROWID table (its own b-tree), or None."""
    for ix in table.indexes:
        if ix.is_pk:
            return ix
    return None


def _row_est(ix):
    n = len(ix.columns)
    a = [TABLE_ROWS if ix.where is None else TABLE_ROWS - 10] + \
        [(_IDX_EST[i] if i < len(_IDX_EST) else 23) for i in range(n)]
    if ix.unique:
        a[n] = 0
    return a


# ---- validity of an operand for an index column --------------------------------------------

cdef bint affinity_ok(idx_aff, aff):
    if aff is None or aff == AFF_BLOB or aff == AFF_NONE:
        return True
    if aff == AFF_TEXT:
        return idx_aff == AFF_TEXT
    return idx_aff == AFF_NUMERIC or idx_aff == "D" or idx_aff == "E"


cdef dict _COLL_NAMES = {}  # collation name as written -> as compared (few distinct)


cpdef str coll_name(c):
    """A collation name as compared: upper case, BINARY for none. The answers are kept
    per name written (the planner asks this for every index column and term it
    weighs; ``str.upper`` makes a new string each call)."""
    if c is None:
        return "BINARY"
    if type(c) is not str:
        return (c or "BINARY").upper()
    hit = _COLL_NAMES.get(c)
    if hit is None:
        hit = (c or "BINARY").upper()
        if len(_COLL_NAMES) < 1024:
            _COLL_NAMES[c] = hit
    return <str>hit


cdef bint is_small_int(e):
    if type(e) is T_Unary and e.op == "-" and type(e.operand) is T_Literal:
        v = e.operand.value
        return type(v) is int and v <= 1
    return type(e) is T_Literal and type(e.value) is int and -1 <= e.value <= 1


cpdef object in_list_size(Operand o):
    """For an operand ``column IN (constant, ...)``: the LogEst of the number of values
    (SQLite's nIn), else None. Only constant lists are looked up value by value (their
    comparison affinity is the column's, as for ``=``)."""
    if o.op != "IN":
        return None
    items = o.rhs.items
    for it in items:
        if not is_constant(it):
            return None
    return c_log_est(len(items))


# ---- loop generation ---------------------------------------------------------------------

cdef bint cheaper_subset(WhereLoop x, WhereLoop y):
    """whereLoopCheaperProperSubset: ``x`` uses a proper subset of the terms of ``y``, is
    not worse in both cost and rows, and is covering only if ``y`` is."""
    if len(x.used) >= len(y.used):
        return False
    if x.r_run > y.r_run and x.n_out > y.n_out:
        return False
    for t in x.used:
        if not _holds(y.used, t):
            return False
    return not (x.covering and not y.covering)


cdef inline bint _holds(tuple terms, t) noexcept:
    """``t in terms`` for WhereTerms, which are equal only to themselves: found by
    identity, no rich comparison with each of the others."""
    cdef Py_ssize_t k
    for k in range(len(terms)):
        if <object>terms[k] is t:
            return True
    return False


cdef void adjust_cost(list loops, WhereLoop new):
    """whereLoopAdjustCost: an index loop using more terms than a cheaper one on the same
    source is made at least as cheap (and one using fewer at least as costly)."""
    cdef WhereLoop p
    for p in loops:
        if p.src_i != new.src_i or p.kind != "index":
            continue
        if cheaper_subset(p, new):
            new.r_run = min(p.r_run, new.r_run)
            new.n_out = min(p.n_out, new.n_out) - 1
        elif cheaper_subset(new, p):
            new.r_run = max(p.r_run, new.r_run)
            new.n_out = max(p.n_out, new.n_out) + 1


cdef int lookup_cost(int r_log, int step, bint lookup, int n_out) noexcept:
    """The run cost of a keyed loop giving ``n_out`` rows (LogEst): the seek's ``r_log``,
    ``step`` per row read from the b-tree, and (``lookup``) each row then looked up in
    the table."""
    cdef int r = c_log_add(r_log, n_out + step)
    if lookup:
        r = c_log_add(r, n_out + 16)
    return r


cdef bint _names_one(tuple usable, str name) except -1:
    """Whether an index of ``usable`` (TableFacts.usable) is named ``name`` (lower
    case)."""
    for e in usable:
        if ix_f((<tuple>e)[1], IX_NAME).lower() == name:
            return True
    return False


cdef bint _meets(frozenset cols, ob) except -1:
    """``not cols.isdisjoint(ob)`` without the method call (``ob`` is nearly always
    empty)."""
    for c in ob:
        if c in cols:
            return True
    return False


cdef class LoopBuilder:
    """Makes the WhereLoops of every source of one WHERE clause."""

    cdef object scope
    cdef dict hints  # {source index: TableRef} with INDEXED BY / NOT INDEXED
    cdef dict ob_cols  # {source index: columns named by ORDER BY}
    cdef int sort_idx
    cdef object wc
    cdef object col_used  # {source index: set of columns} or None (unknown: all)
    cdef public list loops
    cdef object allowed  # {source index: [terms]} restricting the terms (LEFT JOIN)
    # the sources an outer join's table comes after (every table to its left: SQLite's
    # mPrior), prerequisites of each of its loops
    cdef unsigned long long m_prior
    # the sources on the right of a CROSS JOIN (bits; see build_loops)
    cdef unsigned long long cross
    cdef dict _op_memo  # id(Operand) -> op_info's answer, for this build only
    cdef dict _ops_by_src
    cdef list _terms_by_src
    cdef object db  # the connection's Database (None: automatic indexes allowed)
    cdef int auto_index  # PRAGMA automatic_index of db: -1 until asked

    def __init__(self, scope, wc, col_used, allowed=None, ob_cols=None, hints=None,
                 db=None):
        self.init(scope, wc, col_used, allowed, ob_cols, hints, db)

    cdef void init(self, scope, wc, col_used, allowed, ob_cols, hints, db) except *:
        self.scope = scope
        self.db = db
        self.cross = 0
        self.auto_index = -1
        self.hints = hints or {}
        self.ob_cols = ob_cols or {}
        self.sort_idx = 0
        self.wc = wc
        self.col_used = col_used
        self.loops = []
        self.allowed = allowed
        self._op_memo = {}

    cdef bint auto_index_on(self) except -1:
        """Whether automatic indexes may be weighed: PRAGMA automatic_index of the
        connection (SQLite's SQLITE_AutoIndex flag), read once per build, and only for a
        source that could have one."""
        if self.auto_index < 0:
            self.auto_index = self.db is None or bool(self.db.automatic_index)
        return self.auto_index

    cdef tuple op_info(self, Operand o):
        """(comparison affinity, affinity of the column side, comparison collation name)
        of an operand; asked once per index column it could key, answered once per build
        (no code is emitted while the loops are built, so the answers cannot change)."""
        hit = self._op_memo.get(obj_id(o))
        if hit is None:
            scope = self.scope
            lhs_aff = expr_affinity(o.lhs, scope)
            hit = self._op_memo[obj_id(o)] = (
                comparison_affinity(lhs_aff, expr_affinity(o.rhs, scope)), lhs_aff,
                coll_name(comparison_collation(o.lhs, o.rhs, scope)), o)
        return <tuple>hit

    cdef void add(self, WhereLoop new) except *:
        """whereLoopInsert: keep ``new`` unless a loop as good with no more prerequisites
        exists; drop the loops it beats."""
        cdef list loops = self.loops
        cdef WhereLoop p
        cdef Py_ssize_t k
        new.sort_idx = self.sort_idx
        new.prereq |= self.m_prior
        if new.kind == "index":
            adjust_cost(loops, new)
        for k in range(len(loops)):
            p = <WhereLoop>loops[k]
            if p.src_i != new.src_i or p.sort_idx != new.sort_idx:
                continue
            if (p.kind == "auto" and new.kind == "index" and new.eq
                    and (p.prereq & new.prereq) == new.prereq):
                loops[k] = new
                self.drop_worse(k, new)
                return
            if ((p.prereq & new.prereq) == p.prereq and p.r_setup <= new.r_setup
                    and p.r_run <= new.r_run and p.n_out <= new.n_out):
                return
            if ((p.prereq & new.prereq) == new.prereq and p.r_run >= new.r_run
                    and p.n_out >= new.n_out):
                loops[k] = new
                self.drop_worse(k, new)
                return
        loops.append(new)

    cdef void drop_worse(self, Py_ssize_t k, WhereLoop new) except *:
        cdef list loops = self.loops
        cdef Py_ssize_t j = k + 1
        cdef WhereLoop p
        while j < len(loops):
            p = <WhereLoop>loops[j]
            if (p.src_i == new.src_i and p.sort_idx == new.sort_idx
                    and (p.prereq & new.prereq) == new.prereq
                    and p.r_setup >= new.r_setup and p.r_run >= new.r_run
                    and p.n_out >= new.n_out):
                del loops[j]
            else:
                j += 1

    cdef object terms_of(self, int i):
        if self.allowed is not None and i in self.allowed:
            return self.allowed[i]
        return self.wc.terms

    cdef void output_adjust(self, WhereLoop lp, int n_row, list terms) except *:
        """whereLoopOutputAdjust: fewer rows out for each term on this source the loop
        does not use."""
        cdef unsigned long long not_allowed = ~(lp.prereq | lp.bit | self.m_prior)
        cdef unsigned long long m
        cdef int reduce = 0
        cdef int k
        cdef int n_out = lp.n_out
        cdef WhereTerm t
        cdef Operand o
        for t in terms:
            m = t.mask
            if m & not_allowed or not m & lp.bit:
                continue
            if _holds(lp.used, t):
                continue
            n_out -= 1
            e = t.expr
            if type(e) is T_Binary and slot(e, F_BIN_OP) == "=" and t.operands:
                o = <Operand>t.operands[0]
                k = 10 if is_small_int(o.rhs) else 20
                if reduce < k:
                    reduce = k
        if n_out > n_row - reduce:
            n_out = n_row - reduce
        lp.n_out = n_out

    def build(self):
        return self.c_build()

    cdef list c_build(self):
        # A loop is only ever compared with loops of its own source (see add), so each
        # source's loops are collected apart and joined in FROM order.
        cdef WhereTerm t
        cdef Operand o
        cdef list out = []
        cdef dict by_src = {}
        scope = self.scope
        for t in self.wc.terms:
            for o in t.operands:
                by_src.setdefault(obj_id(o.src), []).append(o)
            if not t.operands and type(t.expr) is T_Binary and t.expr.op == "OR":
                x = or_to_in(scope, t)
                if x is not None:
                    by_src.setdefault(obj_id((<Operand>x).src), []).append(x)
        self._ops_by_src = by_src
        sources = scope.sources
        cdef int n = len(sources)
        cdef list by_bit = [[] for _ in range(n)]  # the terms reading each source
        cdef unsigned long long m, low
        cdef int i
        for t in self.wc.terms:
            m = t.mask
            i = 0
            while m and i < n:
                if m & 1:
                    (<list>by_bit[i]).append(t)
                m >>= 1
                i += 1
        self._terms_by_src = by_bit
        cdef Source src
        cdef unsigned long long prior = 0
        for i in range(n):
            self.loops = []
            src = <Source>sources[i]
            # (SQLite's whereLoopAddAll: the right of an outer or CROSS join, and every
            # source after it, comes after all the sources left of that join)
            if src.left or src.right or src.ltorj or self.cross >> i & 1:
                prior = (1ULL << i) - 1
            self.m_prior = prior
            self.add_source(i, src)
            out.extend(self.loops)
        self.loops = out
        return out

    cdef void add_function(self, int i, src, tuple vtab) except *:
        """A table-valued function's one loop, as SQLite's whereLoopAddVirtual makes it
        from xBestIndex's answer (``vtab``: rows out, run cost; tablefunc._cost): after
        the sources its arguments read (``src.needs``), never an automatic index."""
        cdef WhereLoop lp = new_loop(i, "scan")
        lp.n_out = vtab[0]
        lp.r_run = vtab[1]
        needs = src.needs
        if needs:
            for k, s in enumerate(self.scope.sources):
                if s in needs:
                    lp.prereq |= 1ULL << k
        self.add(lp)

    cdef void add_source(self, int i, src_) except *:
        cdef Source src = <Source>src_
        cdef unsigned long long bit = 1ULL << i
        cdef list ops
        cdef list terms
        cdef Operand o
        cdef WhereTerm t
        cdef WhereLoop lp
        cdef TableFacts facts
        cdef tuple entry
        cdef int r_size, r_log, sz_tab, szi, k, ix_size, ix_log
        cdef bint covering
        cdef IndexLoops il
        # (a plain Source is no table-valued function: only tablefunc's subclass has vtab)
        vtab = None if type(src) is Source else getattr(src, "vtab", None)
        if vtab is not None:
            self.add_function(i, src, vtab)
            return
        tl = self.terms_of(i)
        # output_adjust looks only at the terms that read this source
        if tl is self.wc.terms:
            ops = self._ops_by_src.get(obj_id(src), [])
            terms = self._terms_by_src[i]
        else:
            ops = []
            for t in tl:
                for o in t.operands:
                    if o.src is src:
                        ops.append(o)
            terms = [t for t in tl if t.mask & bit]
        table = src.table if src.is_table else None
        if table is not None:
            facts = c_table_facts(table)
            r_size = facts.n_row
        else:
            # (a subquery's own estimate, as SQLite's nRowLogEst of its ephemeral table)
            row_est = src.row_est
            r_size = row_est if row_est is not None else C_TABLE_ROWS
        r_log = c_est_log(r_size)
        cdef bint without_rowid = table is not None and tab_f(table, TB_WITHOUT_ROWID)
        ob = self.ob_cols.get(i, ())
        self.sort_idx = 0
        hint = self.hints.get(i)
        cdef bint not_indexed = hint is not None and hint.not_indexed
        indexed_by = hint.indexed_by.lower() if hint is not None and hint.indexed_by else None
        # automatic indexes first (SQLite's order: they lose ties); none on the right
        # table of a RIGHT JOIN (SQLite's JT_RIGHT test) nor over a FROM subquery that
        # reads an enclosing query's row (``refill``: SQLite's isCorrelated test)
        # (a plain Source has no changes_per_run: only the row sources of cte.py and
        # tablefunc.py, subclasses, set it)
        if ((type(src) is Source or not getattr(src, "changes_per_run", False))
                and hint is None and not src.right and not src.refill
                and not without_rowid and self.auto_index_on()):
            for o in ops:
                if o.op != "=" or o.col < 0 and table is not None:
                    continue
                if table is not None and not affinity_ok(
                        tab_f(table, TB_COLUMNS)[o.col].affinity, self.op_info(o)[0]):
                    continue
                lp = new_loop(i, "auto")
                lp.prereq = o.prereq
                lp.r_setup = r_log + r_size + (28 if table is not None else -10)
                if lp.r_setup < 0:
                    lp.r_setup = 0
                lp.n_out = 43
                lp.r_run = c_log_add(r_log, 43)
                lp.used = (o.term,)
                lp.ops = ops
                self.add(lp)
        # full scan
        self.sort_idx = 1 if -1 in ob else 0
        lp = new_loop(i, "scan")
        if without_rowid:
            # a WITHOUT ROWID table is read in PRIMARY KEY order (its key is its b-tree)
            pk = _pk_of(table)
            if pk is not None:
                lp = new_loop(i, "index")
                lp.index = pk
        lp.n_out = r_size
        lp.r_run = r_size + 16
        self.output_adjust(lp, r_size, terms)
        # (INDEXED BY: SQLite weighs no loop but the named index's)
        cdef WhereLoop scan = lp
        if indexed_by is None or table is None or not _names_one(facts.usable, indexed_by):
            self.add(lp)
        if table is None:
            return
        sz_tab = facts.sz_tab
        # rowid (INTEGER PRIMARY KEY) lookups and ranges
        cdef list rowid_ops
        if not without_rowid and indexed_by is None:
            rowid_ops = []
            for o in ops:
                if o.col == -1:
                    rowid_ops.append(o)
            self.add_rowid(i, rowid_ops, r_size, r_log, terms)
        used = (<dict>self.col_used).get(i) if self.col_used is not None else None
        cdef set op_cols = set()
        for o in ops:
            op_cols.add(o.col)
        cdef bint ob_rowid = -1 in ob  # (every index ends with the rowid: any might help)
        cdef bint partial
        for e in facts.usable:
            entry = <tuple>e
            k = entry[0]
            ix = entry[1]
            cols = entry[2]
            szi = entry[3]
            if not_indexed or indexed_by is not None and \
                    ix_f(ix, IX_NAME).lower() != indexed_by:
                continue
            # a partial index: only when the terms imply its WHERE (then it is always
            # weighed for a full scan, as SQLite does)
            partial = entry[5] is not None
            if partial and not partial_usable(self.scope, src, tl, entry[5]):
                # (an outer join's table: SQLite makes the join an inner one when a WHERE
                # term rejects its NULL row, which the engine does not, so that the WHERE
                # terms then imply the index's WHERE: it reads the table instead)
                if indexed_by is not None:
                    if tl is self.wc.terms or not partial_usable(self.scope, src,
                                                                 self.wc.terms, entry[5]):
                        raise OperationalError("no query solution")
                    self.sort_idx = 1 if ob_rowid else 0
                    self.add(scan)
                continue
            # non-zero: this index might deliver the ORDER BY
            self.sort_idx = k + 2 if ob_rowid or _meets(cols, ob) else 0
            covering = used is not None and used <= cols
            # (the index's own count: the table's, unless statistics say otherwise)
            ix_size = <int>(<list>entry[4])[0]
            ix_log = r_log if ix_size == r_size else c_est_log(ix_size)
            # a full scan of the index: when it is forced, when it might deliver the
            # ORDER BY, or (covering) when it is smaller than the table
            if (indexed_by is not None or self.sort_idx or partial) and not covering:
                lp = new_loop(i, "index")
                lp.index = ix
                lp.n_out = ix_size
                lp.r_run = c_log_add(ix_size + 1 + (15 * szi) // sz_tab,
                                     partial_lookup_cost(self.scope, src, self.wc, ix, ix_size)
                                     if partial else ix_size + 16)
                self.output_adjust(lp, ix_size, terms)
                self.add(lp)
            if covering and (szi < sz_tab or indexed_by is not None or self.sort_idx
                             or partial):
                lp = new_loop(i, "index")
                lp.index = ix
                lp.covering = True
                lp.n_out = ix_size
                lp.r_run = ix_size + 1 + (15 * szi) // sz_tab
                self.output_adjust(lp, ix_size, terms)
                self.add(lp)
            ix_cols = ix_f(ix, IX_COLUMNS)
            if ix_cols and ix_cols[0] in op_cols:  # else no key can start
                il = new_index_loops(self, i, ix, table, <list>entry[4], ops, covering,
                                     ix_log, 1 + (15 * szi) // sz_tab, not covering, terms)
                il.add_from(0, (), 0, ix_size, 0)
                if il.keyed == KEYED_INDEXED and type(table) is T_Table \
                        and tab_f(table, TB_STATS_USED) is False:
                    table.stats_used = True

    cdef void add_rowid(self, int i, list ops, int r_size, int r_log, list terms) except *:
        cdef Operand o
        cdef WhereLoop lp
        cdef int n
        cdef list rops = []
        for o in ops:
            if o.op == ">" or o.op == ">=" or o.op == "<" or o.op == "<=":
                rops.append(o)
                continue
            n_in = in_list_size(o)
            if o.op == "=" or n_in is not None:
                n = n_in or 0
                lp = new_loop(i, "rowid_eq")
                lp.eq = (o,)
                lp.prereq = o.prereq
                lp.n_out = n
                lp.r_run = c_log_add(r_log, 16) + n
                lp.used = (o.term,)
                self.output_adjust(lp, r_size, terms)
                self.add(lp)
        if rops:
            self.add_ranges(i, None, (), 0, r_size, rops, r_log, 16, False, r_size, terms,
                            "rowid_range", False, 0)

    cdef void add_ranges(self, int i, ix, tuple eq, unsigned long long prereq, int n_out,
                         list rops, int r_log, int step, bint lookup, int r_size,
                         list terms, str kind, bint covering, int n_in) except *:
        cdef Operand o, lo, hi
        cdef list his = []
        for o in rops:
            if o.op == "<" or o.op == "<=":
                his.append(o)
        cdef list combos = []
        for o in rops:  # in WHERE order, as SQLite adds them
            if o.op == ">" or o.op == ">=":
                combos.append((o, None))
                for hi in his:
                    combos.append((o, hi))
            else:
                combos.append((None, o))
        cdef set seen = set()
        cdef WhereLoop lp
        cdef int n_new, out
        cdef tuple used
        for c in combos:
            lo_ = (<tuple>c)[0]
            hi_ = (<tuple>c)[1]
            key = (obj_id(lo_), obj_id(hi_))
            if key in seen:
                continue
            seen.add(key)
            lp = new_loop(i, kind)
            lp.index = ix
            lp.eq = eq
            lp.lo = lo_
            lp.hi = hi_
            lp.covering = covering
            lp.prereq = prereq
            n_new = n_out
            out = n_out
            used = tuple([(<Operand>x).term for x in eq])
            if lo_ is not None:
                lo = <Operand>lo_
                lp.prereq |= lo.prereq
                n_new -= 20
                out -= 1
                used += (lo.term,)
            if hi_ is not None:
                hi = <Operand>hi_
                lp.prereq |= hi.prereq
                n_new -= 20
                out -= 1
                used += (hi.term,)
            if lo_ is not None and hi_ is not None:
                n_new -= 20
            if n_new < 10:
                n_new = 10
            if n_new < out:
                out = n_new
            lp.n_out = out + n_in
            lp.r_run = lookup_cost(r_log, step, lookup, out) + n_in
            lp.used = used
            self.output_adjust(lp, r_size, terms)
            self.add(lp)


cpdef list build_loops(scope, wc, col_used, allowed, ob_cols, hints, db,
                       unsigned long long cross=0):
    """``LoopBuilder(scope, wc, col_used, allowed, ob_cols, hints, db).build()``, called
    from C (the path solver) without the calls' argument parsing; ``cross``: the bits of
    the sources on the right of a CROSS JOIN, which SQLite never puts before a source to
    their left (its documented way to fix a join's order)."""
    cdef LoopBuilder builder = LoopBuilder.__new__(LoopBuilder)
    builder.init(scope, wc, col_used, allowed, ob_cols, hints, db)
    builder.cross = cross
    return builder.c_build()


cdef class IndexLoops:
    """The loops one index can key for one source (SQLite's whereLoopAddBtreeIndex):
    equalities on a prefix of its columns, after each of them optionally a range."""

    cdef LoopBuilder builder
    cdef int i
    cdef object ix, table
    cdef list ops, terms, est
    cdef bint covering, lookup
    cdef int r_log, step  # (the seek, the per-row b-tree read: lookup_cost)
    # KEYED_* bits: what the terms that key it did (SQLite's bldFlags1): a unique key
    # completed, or a key that is not (what makes statistics matter: ``Table.stats_used``)
    cdef int keyed


    # (made by new_index_loops)

    cdef bint fits(self, Operand o, int k) except -1:
        """Whether operand ``o`` may key index column ``k`` (affinity and collation)."""
        ix = self.ix
        tcols = tab_f(self.table, TB_COLUMNS)
        col = ix_f(ix, IX_COLUMNS)[k]
        coll = ix_f(ix, IX_COLLATIONS)[k] or tcols[col].collation
        cdef tuple info = self.builder.op_info(o)
        # (exprindex.index_column_affinity: the table column's, an expression's own)
        if col >= 0:
            aff = tcols[col].affinity
        else:
            aff = info[1]
            if aff is None or aff == "" or aff == "@":
                aff = AFF_BLOB
        return affinity_ok(aff, info[0]) and info[2] == coll_name(coll)

    cdef void add_from(self, int k, tuple eq, unsigned long long prereq, int n_out,
                       int n_in_mul) except *:
        """The loops keyed on columns ``k`` on after the equalities ``eq``."""
        ix = self.ix
        cols = ix_f(ix, IX_COLUMNS)
        if k >= len(cols):
            return
        cdef LoopBuilder b = self.builder
        cdef Operand o
        cdef WhereLoop lp
        cdef int col = cols[k]
        cdef int nxt, n
        cdef list mine = []
        for o in self.ops:
            if o.col == col and (col != XN_EXPR or same_expr(b.scope, o.src, o.lhs.expr,
                                                              ix_f(ix, IX_EXPRS)[k])):
                mine.append(o)
        if not mine:
            return
        cdef int i = self.i
        cdef bint covering = self.covering
        cdef list terms = self.terms
        # a range on this column after the equalities
        cdef list a = self.est
        cdef list rops = []
        cdef int keyed = KEYED_UNIQUE if ix_f(ix, IX_UNIQUE) and k == len(cols) - 1 \
            else KEYED_INDEXED
        for o in mine:
            if (o.op == ">" or o.op == ">=" or o.op == "<" or o.op == "<=") and \
                    self.fits(o, k):
                rops.append(o)
                self.keyed |= keyed
        if rops:
            b.add_ranges(i, ix, eq, prereq, n_out, rops, self.r_log, self.step,
                         self.lookup, <int>a[0], terms, "index", covering, n_in_mul)
        for o in mine:
            n_in = in_list_size(o)
            if o.op != "=" and n_in is None or not self.fits(o, k):
                continue
            self.keyed |= keyed
            n = n_in or 0
            lp = new_loop(i, "index")
            lp.index = ix
            lp.eq = eq + (o,)
            lp.covering = covering
            lp.prereq = prereq | o.prereq
            nxt = n_out + <int>a[k + 1] - <int>a[k]
            # x IN (list): one lookup per value (SQLite's nIn, multiplied along)
            lp.n_out = nxt + n_in_mul + n
            lp.r_run = lookup_cost(self.r_log, self.step, self.lookup, nxt) + n_in_mul + n
            lp.used = tuple([(<Operand>x).term for x in lp.eq])
            b.output_adjust(lp, <int>a[0], terms)
            b.add(lp)
            self.add_from(k + 1, lp.eq, lp.prereq, nxt, n_in_mul + n)


cdef IndexLoops new_index_loops(LoopBuilder builder, int i, ix, table, list est, list ops,
                                bint covering, int r_log, int step, bint lookup,
                                list terms):
    """The IndexLoops of index ``ix`` of source ``i`` (``est``: its _row_est)."""
    cdef IndexLoops il = IndexLoops.__new__(IndexLoops)
    il.builder = builder
    il.i = i
    il.ix = ix
    il.table = table  # (the source's)
    il.ops = ops
    il.covering = covering
    il.r_log = r_log
    il.step = step
    il.lookup = lookup
    il.est = est
    il.terms = terms
    il.keyed = 0
    return il
