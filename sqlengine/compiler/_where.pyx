# cython: language_level=3
"""The compiled WHERE loop coder (``compiler/where.py`` is the public module and holds the
documentation of what the loops do): ``where_begin`` opens the cursors and the nested
loops the planner chose (building automatic indexes) and tests each term at its level,
``where_end`` closes them and turns an index loop whose table reads the index answers
into a covering one, and an automatic index into one holding the columns its loop reads.

Every statement of the corpus is planned and coded once, so these run once per SELECT,
DELETE or UPDATE: here the helpers are C functions calling each other, and the loop
records (``_levels.pxd``), the terms (``_terms.pxd``), the chosen loops (``_loops.pxd``)
and the sources (``_resolve.pxd``) are read as C structs; the aggregate coder
(``_codegen.pyx``) calls ``c_where_begin`` / ``c_where_end`` (``_where.pxd``) without a
Python call. This module emits the loops' code only; it never decides the plan
(``planner.py`` does) nor what the body does.
"""

from sqlengine.compiler._codegen cimport (ProgramBuilder, code_column, code_expr,
                                           code_expr_reg, if_false)
from sqlengine.compiler._levels cimport Access, Level, WhereInfo
from sqlengine.compiler._loops cimport WhereLoop, coll_name
from sqlengine.compiler._paths cimport (TAB_COLUMNS, TAB_NAME, TAB_ROOT, TAB_WITHOUT_ROWID,
                                         plan, table_field)
from sqlengine.compiler._resolve cimport (ColRef, Scope, Source, comparison_collation,
                                          expr_affinity, lookup_name)
from sqlengine.compiler._terms cimport (Masker, Operand, WhereClause, WhereTerm,
                                         new_where_clause, split_and)
from sqlengine.vdbe._values cimport comparison_affinity

from sqlengine.compiler import rightjoin
from sqlengine.compiler.explain import eqp_line, eqp_set
from sqlengine.compiler.plan_terms import PINNED
from sqlengine.compiler.resolve import CoroutineSource, ResolvedColumn
from sqlengine.compiler.walk import find_node
from sqlengine.errors import OperationalError
from sqlengine.sql.ast import Between, Binary, Column, FunctionCall, InList
from sqlengine.storage import KeyInfo
from sqlengine.vdbe.sorter import SortSpec
from sqlengine.vdbe import opcodes as O
from sqlengine.vdbe.opcodes import AFF_BLOB

MAX_JOIN_TABLES = 64  # SQLite's BMS: a bitmask of the FROM items in one 64-bit word
cdef enum:
    MAX_JOIN = 64  # (the same, for C arrays)

cdef object T_Between = Between
cdef object T_Binary = Binary
cdef object T_InList = InList
cdef object T_Column = Column
cdef object T_FunctionCall = FunctionCall
cdef object T_ResolvedColumn = ResolvedColumn
cdef str C_AFF_BLOB = AFF_BLOB
cdef object where_level = rightjoin.where_level
cdef object T_CoroutineSource = CoroutineSource

cdef int OP_Affinity = O.OP_Affinity
cdef int OP_Column = O.OP_Column
cdef int OP_Copy = O.OP_Copy
cdef int OP_Goto = O.OP_Goto
cdef int OP_Gosub = O.OP_Gosub
cdef int OP_EndCoroutine = O.OP_EndCoroutine
cdef int OP_IdxGE = O.OP_IdxGE
cdef int OP_IdxGT = O.OP_IdxGT
cdef int OP_IdxInsert = O.OP_IdxInsert
cdef int OP_IdxLE = O.OP_IdxLE
cdef int OP_IdxLT = O.OP_IdxLT
cdef int OP_IdxRowid = O.OP_IdxRowid
cdef int OP_IfNullJump = O.OP_IfNullJump
cdef int OP_IfNullRow = O.OP_IfNullRow
cdef int OP_IfPos = O.OP_IfPos
cdef int OP_InitCoroutine = O.OP_InitCoroutine
cdef int OP_Integer = O.OP_Integer
cdef int OP_IsNull = O.OP_IsNull
cdef int OP_Last = O.OP_Last
cdef int OP_MakeRecord = O.OP_MakeRecord
cdef int OP_Next = O.OP_Next
cdef int OP_Noop = O.OP_Noop
cdef int OP_Null = O.OP_Null
cdef int OP_NullRow = O.OP_NullRow
cdef int OP_Once = O.OP_Once
cdef int OP_OpenEphemeral = O.OP_OpenEphemeral
cdef int OP_OpenRead = O.OP_OpenRead
cdef int OP_OpenWrite = O.OP_OpenWrite
cdef int OP_Prev = O.OP_Prev
cdef int OP_Rewind = O.OP_Rewind
cdef int OP_Rowid = O.OP_Rowid
cdef int OP_SeekGE = O.OP_SeekGE
cdef int OP_SeekGT = O.OP_SeekGT
cdef int OP_SeekLE = O.OP_SeekLE
cdef int OP_SeekLT = O.OP_SeekLT
cdef int OP_SeekRowid = O.OP_SeekRowid
cdef int OP_Yield = O.OP_Yield


# ---- cursors on tables and indexes ---------------------------------------------------------

def open_source_cursor(p, src, write=False):
    """Emit OpenRead for a table source (once, before any loop)."""
    _open_source_cursor(p, p.b, src, write)


cdef _open_source_cursor(p, ProgramBuilder b, Source src, bint write):
    if src.is_table:
        table = src.table
        p4 = _table_p4(p, table) if table_field(table, TAB_WITHOUT_ROWID) else len(
            table_field(table, TAB_COLUMNS))
        b.emit(OP_OpenWrite if write else OP_OpenRead, src.cursor,
               table_field(table, TAB_ROOT), 0, p4, 0, table_field(table, TAB_NAME))


def table_p4(p, table):
    """P4 of OpenRead/OpenWrite on a table: its column count, or for a WITHOUT ROWID
    table (an index b-tree keyed by its PRIMARY KEY) that key's KeyInfo."""
    return _table_p4(p, table)


cdef _table_p4(p, table):
    if table.without_rowid:
        from sqlengine.schema import pk_index
        pk = pk_index(table)
        if pk is not None:
            return index_key_info(p, pk, table)
    return len(table.columns)


cdef list _ROW_KEY_INFO = []


cdef _row_key_info_class():
    """KeyInfo with ``pk_fields``: where an entry of a WITHOUT ROWID table or of one of
    its indexes holds the PRIMARY KEY (the VM's row key for Rowid/IdxRowid)."""
    if not _ROW_KEY_INFO:
        class RowKeyInfo(KeyInfo):
            pass
        _ROW_KEY_INFO.append(RowKeyInfo)
    return _ROW_KEY_INFO[0]


cpdef index_key_info(p, idx, table):
    """The KeyInfo (P4 of OpenRead/OpenWrite) of index ``idx`` of ``table``. One whose
    fields all compare BINARY depends on the schema objects only (no collation function
    of the connection): it is kept on the Index (``Index.key_info``) with the Table object
    it was built for, and a schema change builds new Tables, so the next statement on the
    same schema takes it from there; the programs share it (nothing changes a KeyInfo)."""
    hit = getattr(idx, "key_info", None)
    if hit is not None and (<tuple>hit)[0] is table:
        return (<tuple>hit)[1]
    cdef list names = []
    cdef Py_ssize_t k
    columns = idx.columns
    collations = idx.collations
    tcols = table.columns if table is not None else None
    for k in range(len(columns)):
        names.append(collations[k] or tcols[columns[k]].collation)  # (None: BINARY)
    cdef list desc = list(idx.desc)
    cdef bint row_key = table is not None and getattr(table, "without_rowid", False)
    if row_key:
        # the key columns, then the rest of the record (no rowid)
        from sqlengine.schema import record_tail
        for _c, coll, d in record_tail(table, idx):
            names.append(coll)
            desc.append(d)
    else:
        names.append(None)
        desc.append(False)
    cdef bint binary = True
    for name in names:
        if name is not None and name.upper() != "BINARY":
            binary = False
            break
    cdef list colls
    if binary:
        colls = [None] * len(names)
    else:
        coll_func = p.coll_func
        colls = [None if name is None else coll_func(name) for name in names]
    if row_key:
        from sqlengine.schema import pk_fields
        ki = _row_key_info_class()(len(colls), colls, desc)
        ki.pk_fields = pk_fields(table, idx)
    else:
        ki = KeyInfo(len(columns) + 1, colls, desc)
    if binary:
        try:
            idx.key_info = (table, ki)
        except AttributeError:  # (an index object without the slot: built each time)
            pass
    return ki


# ---- the loops -------------------------------------------------------------------------------

# Whether a connection of this process has set PRAGMA reverse_unordered_selects: until
# then no plan reads the flag (SQLite's SQLITE_ReverseOrder, read where no ORDER BY, GROUP
# BY or DISTINCT asks for an order).
cdef bint _reverse_set = False


def note_reverse_order():
    """PRAGMA reverse_unordered_selects was turned on: plans read the flag from now on."""
    global _reverse_set
    _reverse_set = True


def where_begin(p, scope, where, left_on, extra_terms=(), core=None,
                order_by=None, limit=None, open_cursors=True, minmax=False,
                group=False, distinct=None):
    """Open the loops over ``scope.sources`` (``where.where_begin`` documents the
    arguments); returns the WhereInfo ``where_end`` closes."""
    return c_where_begin(p, p.b, scope, where, left_on, extra_terms, core, order_by, limit,
                         open_cursors, minmax, group, distinct)


cdef WhereInfo c_where_begin(p, ProgramBuilder b, Scope scope, where, left_on, extra_terms,
                             core, order_by, limit, bint open_cursors, bint minmax,
                             int group, distinct):
    """``where_begin`` called from C (the aggregate coder): no argument parsing, ``b`` is
    ``p.b``."""
    cdef WhereInfo info = WhereInfo.__new__(WhereInfo)
    info.levels = []
    info.scope = scope
    info.brk = b.new_label()
    cdef list srcs = scope.sources
    cdef Py_ssize_t n = len(srcs)
    cdef WhereTerm t
    if n > MAX_JOIN_TABLES:
        raise OperationalError(f"at most {MAX_JOIN_TABLES} tables in a join")
    if not n:  # no FROM: one row, every term a constant test before it
        eqp_line(p, "SCAN CONSTANT ROW")
        if where is not None or extra_terms:
            for e in split_and(where, []) + list(extra_terms):
                if_false(p, scope, e, info.brk, True)
        return info
    cdef list exprs = split_and(where, [])
    if extra_terms:
        exprs.extend(extra_terms)
    cdef WhereClause wc = new_where_clause(scope, exprs, left_on)
    info.on_right = _on_refers_right(wc.masker, srcs)
    chosen, n_ordered, backwards, sorted_, d_mode = plan(scope, wc, core, order_by, limit,
                                                         group, distinct, p.db)
    if (_reverse_set and not order_by and not group and (not distinct or d_mode == 2)
            and p.db.reverse_unordered_selects):
        # (SQLite's revMask = ALLBITS: every loop reversed but a co-routine's, which
        # yields its rows in its own order)
        backwards = tuple([i for i in range(n) if type(srcs[i]) is not T_CoroutineSource])
    info.n_ordered = n_ordered
    info.sorted = sorted_
    info.distinct = d_mode
    cdef list chosen_l = chosen
    cdef WhereLoop lp
    cdef Py_ssize_t i, lvl
    cdef bint reordered = False
    for i in range(n):
        if (<WhereLoop>chosen_l[i]).src_i != i:
            reordered = True
            break
    cdef Py_ssize_t pos[MAX_JOIN]  # a source's index in FROM -> its level
    if reordered:
        srcs[:] = [srcs[(<WhereLoop>x).src_i] for x in chosen_l]
        for i in range(n):
            pos[(<WhereLoop>chosen_l[i]).src_i] = i
    else:
        for i in range(n):
            pos[i] = i
    cdef list terms = wc.terms
    cdef int last = _last_right(srcs)
    cdef unsigned long long m
    for t in terms:
        if t.pinned:
            t.level = n - 1
        else:
            m = t.mask
            lvl = -1
            i = 0
            while m:
                if m & 1 and pos[i] > lvl:
                    lvl = pos[i]
                m >>= 1
                i += 1
            t.level = where_level(lvl, last) if last >= 0 else lvl
    cdef dict on_terms = wc.on_terms
    # constant terms first
    for t in terms:
        if t.level < 0:
            if_false(p, scope, t.expr, info.brk, True)
    cdef Source src
    if open_cursors:
        for src in srcs:
            _open_source_cursor(p, b, src, False)
    cdef dict match_sets = None
    if last >= 0:
        match_sets = {}
        for i in range(n):
            src = srcs[i]
            if src.right:
                match_sets[i] = rightjoin.open_match_set(p, src)
    cdef unsigned long long placed = 0
    cdef Level lv
    cdef Access acc
    cdef bint outer
    cdef list levels = info.levels
    for i in range(n):
        src = srcs[i]
        lv = _new_level(src)
        lv.minmax = minmax
        levels.append(lv)
        lv.cont = b.new_label()
        lv.brk = b.new_label()
        lv.done = b.new_label()
        lp = chosen_l[i]
        outer = src.left or src.right or src.ltorj  # (rightjoin.outer_level)
        if match_sets is not None:
            lv.rj = match_sets.get(i)
        if src.left:
            lv.match_reg = b.alloc_reg()
            b.emit(OP_Integer, 0, lv.match_reg)
        if outer:
            acc = _access_of(p, scope, lp, src, placed, on_terms.get(lp.src_i, []))
        else:
            acc = _access_of(p, scope, lp, src, placed, terms)
        if backwards and lp.src_i in backwards:
            acc.reverse = True
        placed |= lp.bit
        lv.access = acc
        _open_loop(p, b, scope, lv)
        done = _enforced_terms(lp)
        if outer:
            for t in on_terms.get(lp.src_i, []):
                if done is None or t not in done:
                    if_false(p, scope, t.expr, lv.cont, True)
        if lv.rj is not None:
            rightjoin.record_match(p, scope, lv)
        if src.left:
            b.emit(OP_Integer, 1, lv.match_reg)
        lv.after_match = b.new_label()
        b.resolve(lv.after_match)
        if lv.rj is not None:
            rightjoin.begin_interior(p, lv)
        for t in terms:  # (the terms of this level, in WHERE order)
            if t.level == i and (done is None or t not in done):
                if_false(p, scope, t.expr, lv.cont, True)
    wc.release()
    return info


# ---- from a chosen loop to an access path --------------------------------------------------

cdef Access _new_access(str kind):
    """An Access as ``Access(kind)`` makes it, without the call's argument parsing."""
    cdef Access a = Access.__new__(Access)
    a.kind = kind
    a.eq = []
    a.key_aff = ""
    a.lo_aff = ""
    a.hi_aff = ""
    a.partial = ()
    a.covering = False
    a.eqp = ""
    return a


cdef str _column_affinity(table, ix, Py_ssize_t k, Operand o, scope):
    """exprindex.index_column_affinity of index column ``k`` compared by ``o``: the table
    column's, or for an expression the affinity of the expression ``o`` names."""
    col = ix.columns[k]
    if col >= 0:
        return table.columns[col].affinity
    aff = expr_affinity(o.lhs, scope)
    return aff if aff not in (None, "", "@") else C_AFF_BLOB


cdef Access _access_of(p, scope, WhereLoop lp, src, unsigned long long placed_mask,
                       list terms):
    """The Access that codes loop ``lp`` given the sources already open (``placed_mask``);
    ``terms`` are the terms that may choose the rows of an automatic index: the WHERE
    terms, or for the table of an outer join the terms of its own ON."""
    cdef str kind = lp.kind
    cdef Access a
    cdef Operand o
    cdef WhereTerm t
    if kind == "scan":
        return _new_access("scan")
    if kind == "rowid_eq":
        a = _new_access("rowid_eq")
        a.eq = [(<Operand>lp.eq[0]).rhs]
        return a
    if kind == "rowid_range":
        a = _new_access("rowid_range")
        if lp.lo is not None:
            o = lp.lo
            a.lo, a.lo_op = o.rhs, o.op
        if lp.hi is not None:
            o = lp.hi
            a.hi, a.hi_op = o.rhs, o.op
        return a
    if kind == "auto":
        ops = lp.ops
        if ops is None:
            ops = [o for t in terms for o in t.operands]
        a = _auto(scope, src, placed_mask, ops)
        if a is None:
            return _new_access("scan")
        if not (<Source>src).ltorj:  # (SQLite: no partial index left of a RIGHT JOIN)
            a.partial = _partial_terms(p, scope, terms, lp.bit)
        return a
    table = src.table
    ix = lp.index
    a = _new_access("index")
    a.index = ix
    a.covering = lp.covering
    cdef list eq = a.eq
    affs = ""
    cdef Py_ssize_t k
    for k in range(len(lp.eq)):
        o = lp.eq[k]
        eq.append(o.rhs)
        ka = _column_affinity(table, ix, k, o, scope)
        rhs = o.rhs.items[0] if o.op == "IN" else o.rhs  # (a constant list: one affinity)
        if comparison_affinity(expr_affinity(rhs, scope), ka) == C_AFF_BLOB:
            ka = C_AFF_BLOB
        affs += ka
    a.key_aff = affs
    if lp.lo is not None:
        o = lp.lo
        a.lo, a.lo_op = o.rhs, o.op
    if lp.hi is not None:
        o = lp.hi
        a.hi, a.hi_op = o.rhs, o.op
    if a.lo is not None or a.hi is not None:
        o = lp.lo if lp.lo is not None else lp.hi
        ka = _column_affinity(table, ix, len(lp.eq), o, scope)
        a.lo_aff = _bound_affinity(scope, a.lo, ka)
        a.hi_aff = _bound_affinity(scope, a.hi, ka)
    return a


cdef str _bound_affinity(scope, e, str ka):
    """The affinity a range bound ``e`` gets before it meets index column affinity ``ka``
    (SQLite's updateRangeAffinityStr): none where the comparison has none (the bound is
    a column of another table whose affinity is not numeric, against a TEXT column)."""
    if e is None:
        return ""
    return C_AFF_BLOB if comparison_affinity(expr_affinity(e, scope), ka) == C_AFF_BLOB else ka


# built-in functions sqlite3 counts as constant in a table constraint (SQLITE_FUNC_CONSTANT
# or SLOCHNG) that the engine's registry marks as not deterministic
_CONSTANT_CALLS = frozenset(("sqlite_version", "sqlite_source_id", "current_time",
                             "current_date", "current_timestamp"))


def _partial_terms(p, scope, list terms, unsigned long long bit):
    """The terms of ``terms`` that read only the table of ``bit`` (or no table), hold no
    subquery, no column of an enclosing query and no call of a function that is not
    deterministic: SQLite's sqlite3ExprIsTableConstraint. Its automatic index holds only
    the rows passing them (a PARTIAL index); a tuple, in WHERE order."""
    cdef WhereTerm t
    cdef list out = []
    db = p.db

    def foreign(e):  # (a node that makes ``e`` no constraint of the table alone)
        ty = type(e)
        if ty is T_Column:
            ref = lookup_name(scope, e.name, e.table)
            return ref is None or (<ColRef>ref).depth != 0
        if ty is T_ResolvedColumn:
            return e.ref.scope is not scope
        if ty is T_FunctionCall:
            name = e.name.lower()
            fd = db.find_function(name, len(e.args))
            return fd is not None and name not in _CONSTANT_CALLS and not getattr(
                getattr(fd, "fdef", fd), "deterministic", True)
        return False

    for t in terms:
        if t.pinned or t.mask & ~bit:
            continue
        if find_node(t.expr, foreign) is None:
            out.append(t.expr)
    return tuple(out)


cdef Access _auto(scope, src, unsigned long long placed_mask, ops):
    """An automatic (hash) index on the columns of ``src`` compared for equality with
    values of outer loops, constants or an enclosing query, or None; ``ops``: the
    operands of the level's terms (at least those on ``src``), in WHERE order."""
    cdef list cols = []
    cdef list exprs = []
    affs = ""
    cdef Operand o
    for o in ops:
        if o.src is not src or o.op != "=" or o.col in cols:
            continue
        if o.prereq & ~placed_mask:
            continue
        c = comparison_collation(o.lhs, o.rhs, scope)
        if c is not None and coll_name(c) != "BINARY":  # (a COLLATE BINARY, or a copy's)
            continue
        cols.append(o.col)
        exprs.append(o.rhs)
        affs += comparison_affinity(expr_affinity(o.lhs, scope), expr_affinity(o.rhs, scope))
    if not cols:
        return None
    cdef Access a = _new_access("auto")
    a.index = cols
    a.eq = exprs
    a.key_aff = affs
    return a


# ---- the loops' records --------------------------------------------------------------------

cdef Level _new_level(src):
    """A Level as ``Level(src)`` makes it, without the call's argument parsing."""
    cdef Level lv = Level.__new__(Level)
    lv.src = src
    lv.top = -1
    lv.icur = -1
    lv.seek = -1
    lv.start = -1
    lv.eqp_addr = -1
    lv.in_loops = ()
    return lv


cdef bint _on_refers_right(Masker masker, list sources) except -1:
    """rightjoin.on_refers_right: an ON term names a table to its right."""
    cdef Py_ssize_t level
    cdef Source src
    for level in range(len(sources)):
        src = sources[level]
        if src.join_on is not None:
            m = masker.mask(src.join_on)
            if m != PINNED and m >> (level + 1):
                return True
    return False


cdef frozenset _TERM_OPS = frozenset(("=", "<", "<=", ">", ">="))


cdef set _enforced_terms(WhereLoop lp):
    """The terms a loop's lookup already enforces, which need no test in the loop
    (SQLite's disableTerm): a comparison or ``IN (list)`` whose operand keys a rowid or
    index lookup (the planner let it key the index only with the comparison's affinity
    and collation), a BETWEEN both of whose bounds do. Automatic indexes and indexed
    expressions keep their tests. None: no term."""
    cdef str kind = lp.kind
    if kind == "scan" or kind == "auto" or not lp.used:
        return None
    cdef list ops = list(lp.eq)
    if lp.lo is not None:
        ops.append(lp.lo)
    if lp.hi is not None:
        ops.append(lp.hi)
    cdef set done = set()
    cdef Operand o, x
    cdef WhereTerm t
    cdef int count
    for o in ops:
        if o.col < -1:
            continue
        t = o.term
        e = t.expr
        ty = type(e)
        if ty is T_Binary and e.op in _TERM_OPS or ty is T_InList and not e.negated:
            done.add(t)
        elif ty is T_Between and not e.negated:
            count = 0
            for x in ops:
                if x.term is t:
                    count += 1
            if count == 2:
                done.add(t)
    return done


cdef int _last_right(list sources) except -2:
    """The position of the last source a RIGHT or FULL JOIN brings, or -1."""
    cdef int last = -1
    cdef Py_ssize_t i
    for i in range(len(sources)):
        if (<Source>sources[i]).right:
            last = i
    return last


cdef bint _needs_affinity(aff) except -1:
    """Whether an affinity string applies any (``@`` and ``A``, none and BLOB, do not)."""
    for c in aff:
        if c not in "@A":
            return True
    return False


cdef int _key_block(p, ProgramBuilder b, scope, exprs, aff) except? -1:
    cdef Py_ssize_t n = len(exprs), j
    cdef int base = b.alloc_reg(n)
    for j in range(n):
        code_expr(p, scope, exprs[j], base + j)
    if aff and _needs_affinity(aff):
        b.emit(OP_Affinity, base, n, 0, aff)
    return base


cdef str _eqp_text(p, Level lv, bint covering):
    """The EXPLAIN QUERY PLAN line of a loop, in sqlite3's words (the inner side of a
    LEFT JOIN says so)."""
    text = _eqp_access(p, lv, covering)
    return text + " LEFT-JOIN" if lv.src.left else text


cdef str _eqp_access(p, Level lv, bint covering):
    cdef Access acc = lv.access
    src = lv.src
    name = p.eqp_names.get(src.cursor, src.name)
    k = acc.kind
    scan = "SEARCH" if lv.minmax else "SCAN"
    if k == "scan":
        # (a table-valued function's loop: SQLite's words for a virtual table's, with
        # the idxNum of its xBestIndex, tablefunc._cost)
        vtab = None if type(src) is Source else getattr(src, "vtab", None)
        if vtab is not None:
            return f"SCAN {name} VIRTUAL TABLE INDEX {vtab[2]}:"
        return f"{scan} {name}"
    if k == "rowid_eq":
        return f"SEARCH {name} USING INTEGER PRIMARY KEY (rowid=?)"
    if k == "rowid_range":
        parts = []
        if acc.lo is not None:
            parts.append("rowid>?")
        if acc.hi is not None:
            parts.append("rowid<?")
        return f"SEARCH {name} USING INTEGER PRIMARY KEY ({' AND '.join(parts)})"
    if k == "auto":
        cols = " AND ".join([f"{src.columns[c] if c >= 0 else 'rowid'}=?" for c in acc.index])
        how = "AUTOMATIC PARTIAL" if acc.partial else "AUTOMATIC"
        if covering:
            how += " COVERING"
        return f"SEARCH {name} USING {how} INDEX ({cols})"
    idx = acc.index
    cols = [src.columns[c] if c >= 0 else "<expr>" for c in idx.columns]
    parts = [f"{cols[j]}=?" for j in range(len(acc.eq))]
    if acc.lo is not None:
        parts.append(f"{cols[len(acc.eq)]}>?")
    if acc.hi is not None:
        parts.append(f"{cols[len(acc.eq)]}<?")
    if idx.is_pk and src.is_table and src.table.without_rowid:  # the table's own key
        if not parts:
            return f"{scan} {name}"
        return f"SEARCH {name} USING PRIMARY KEY ({' AND '.join(parts)})"
    how = "COVERING INDEX" if covering else "INDEX"
    if not parts:
        return f"{scan} {name} USING {how} {idx.name}"
    return f"SEARCH {name} USING {how} {idx.name} ({' AND '.join(parts)})"


def fill_source(p, src):
    """Where the loop over ``src`` begins: fill it, when it is a stored FROM subquery,
    view or CTE (``_materialize``'s subroutine), the first time the loop is reached, or
    each time when it reads an enclosing query's row (SQLite's OP_Once and OP_Gosub in
    sqlite3WhereBegin): so a loop never reached never fills it (rightjoin.py too)."""
    _fill_source(p.b, src)


cdef int _fill_source(ProgramBuilder b, Source src) except -1:
    cdef tuple fill = src.fill
    cdef int after
    if src.refill:
        b.emit(OP_Gosub, fill[0], fill[1])
        return 0
    after = b.new_label()
    b.emit(OP_Once, 0, after)
    b.emit(OP_Gosub, fill[0], fill[1])
    b.resolve(after)
    return 0


cdef int _open_loop(p, ProgramBuilder b, scope, Level lv) except -1:
    cdef Access acc = lv.access
    cdef Source src = lv.src
    cur = src.cursor
    if src.fill is not None:  # (a stored subquery: filled first, then scanned or indexed)
        _fill_source(b, src)
    # (only a table-valued function's source, a subclass, has a prologue)
    prologue = None if type(src) is Source else getattr(src, "prologue", None)
    if p.eqp and (src.is_table or src.cursor in p.eqp_names
                  or type(src) is not Source and getattr(src, "vtab", None) is not None):
        lv.eqp_addr = eqp_line(p, _eqp_text(p, lv, False))
    if prologue is not None:  # a correlated table-valued function computes its rows now
        prologue()
    lv.start = b.addr()
    cdef bint rev = acc.reverse
    cdef str kind = acc.kind  # (typed: its comparisons with literals test identity first)
    if type(src) is T_CoroutineSource:  # (the outermost loop, always a scan)
        if kind != "scan" or rev:
            raise OperationalError("internal error: a co-routine read but by a scan")
        b.emit(OP_InitCoroutine, src.co_reg, 0, src.co_entry)
        lv.top = b.emit(OP_Yield, src.co_reg, lv.brk)
    elif kind == "scan":
        b.emit(OP_Last if rev else OP_Rewind, cur, lv.brk)
        lv.top = b.addr()
    elif kind == "auto":
        _open_auto(p, b, scope, lv)
    elif kind == "rowid_eq" and type(acc.eq[0]) is T_InList:
        r = b.alloc_reg()
        brk = _in_loop(p, b, scope, lv, acc.eq[0], r, "C", None, lv.brk, rev)
        lv.top = -1
        b.emit(OP_SeekRowid, cur, brk, r)
    elif kind == "rowid_eq":
        r = code_expr_reg(p, scope, acc.eq[0])
        lv.top = -1
        b.emit(OP_SeekRowid, cur, lv.brk, r)
    elif kind == "rowid_range" and rev:
        rl = None
        if acc.lo is not None:
            rl = code_expr_reg(p, scope, acc.lo)
            b.emit(OP_IsNull, rl, lv.brk)
        if acc.hi is not None:
            rh = code_expr_reg(p, scope, acc.hi)
            b.emit(OP_SeekLT if acc.hi_op == "<" else OP_SeekLE, cur, lv.brk, rh, 1)
        else:
            b.emit(OP_Last, cur, lv.brk)
        lv.top = b.addr()
        if rl is not None:
            b.emit(OP_IdxLE if acc.lo_op == ">" else OP_IdxLT, cur, lv.brk, rl, 1)
    elif kind == "rowid_range":
        rh = None
        if acc.hi is not None:
            rh = code_expr_reg(p, scope, acc.hi)
        if acc.lo is not None:
            rl = code_expr_reg(p, scope, acc.lo)
            b.emit(OP_IsNull, rl, lv.brk)
            b.emit(OP_SeekGT if acc.lo_op == ">" else OP_SeekGE, cur, lv.brk, rl, 1)
        else:
            b.emit(OP_Rewind, cur, lv.brk)
        lv.top = b.addr()
        if rh is not None:
            b.emit(OP_IdxGE if acc.hi_op == "<" else OP_IdxGT, cur, lv.brk, rh, 1)
    else:
        _open_index_loop(p, b, scope, lv, acc, src, cur, rev)
    return 0


cdef int _open_index_loop(p, ProgramBuilder b, scope, Level lv, Access acc, src, cur,
                          bint rev) except -1:
    """The loop over an index: the seek to its first entry (an equality prefix and a
    lower bound, or none), the test of its last (the upper bound) and the table lookup."""
    idx = acc.index
    cdef bint own_key = idx.is_pk and src.table.without_rowid
    if own_key:  # the table's b-tree is this index: seek it directly
        lv.icur = cur
    else:
        lv.icur = b.alloc_cursor()
        b.emit(OP_OpenRead, lv.icur, idx.root, 0, index_key_info(p, idx, src.table), 0,
               idx.name)
    src.index_cursor = lv.icur
    cdef list eq = acc.eq
    cdef int n_eq = len(eq)
    cdef list exprs = list(eq)
    # the bound the scan starts from and the one it stops at: in key order a DESC
    # column holds its largest values (and, last, its NULLs) first
    idx_desc = idx.desc
    desc = n_eq < len(idx_desc) and idx_desc[n_eq] and (acc.lo is not None
                                                        or acc.hi is not None)
    cdef bint swap = rev != desc
    if swap:
        first, first_op, last, last_op = acc.hi, acc.hi_op, acc.lo, acc.lo_op
        first_aff, last_aff = acc.hi_aff, acc.lo_aff
    else:
        first, first_op, last, last_op = acc.lo, acc.lo_op, acc.hi, acc.hi_op
        first_aff, last_aff = acc.lo_aff, acc.hi_aff
    cdef bint first_strict = first_op == "<" or first_op == ">"
    cdef bint last_strict = last_op == "<" or last_op == ">"
    if first is not None:
        exprs.append(first)
    cdef int brk = lv.brk  # where a lookup that finds nothing more goes
    key_aff = acc.key_aff[:n_eq] + (first_aff if first is not None else "")
    cdef bint has_in = False
    for e in eq:
        if type(e) is T_InList:
            has_in = True
            break
    cdef int key
    if has_in:
        key = _in_key_block(p, b, scope, lv, exprs, key_aff)
        brk = lv.in_loops[-1][2]
    else:
        key = _key_block(p, b, scope, exprs, key_aff) if exprs else 0
    if exprs:
        b.emit(OP_IfNullJump, key, brk, len(exprs))
    cdef int end_key = -1
    cdef int nul
    if last is not None:
        end_key = b.alloc_reg(n_eq + 1)
        if n_eq:
            b.emit(OP_Copy, key, end_key, n_eq - 1)
        code_expr(p, scope, last, end_key + n_eq)
        if last_aff and last_aff not in "@A":
            b.emit(OP_Affinity, end_key + n_eq, 1, 0, last_aff)
        b.emit(OP_IsNull, end_key + n_eq, brk)
    elif swap and first is not None:
        # the NULL entries follow the bound in scan order: stop on the first of them
        end_key = b.alloc_reg(n_eq + 1)
        if n_eq:
            b.emit(OP_Copy, key, end_key, n_eq - 1)
        b.emit(OP_Null, 0, end_key + n_eq)
        last_strict = True  # stop on an entry equal to (..., NULL)
    cdef int op
    if first is not None:
        if rev:
            op = OP_SeekLT if first_strict else OP_SeekLE
        else:
            op = OP_SeekGT if first_strict else OP_SeekGE
        b.emit(op, lv.icur, brk, key, n_eq + 1)
    elif end_key >= 0 and not swap:
        # no bound on this side: skip the NULL entries the scan starts with
        nul = b.alloc_reg(n_eq + 1)
        if n_eq:
            b.emit(OP_Copy, key, nul, n_eq - 1)
        b.emit(OP_Null, 0, nul + n_eq)
        b.emit(OP_SeekLT if rev else OP_SeekGT, lv.icur, brk, nul, n_eq + 1)
    elif n_eq:
        b.emit(OP_SeekLE if rev else OP_SeekGE, lv.icur, brk, key, n_eq)
    else:
        b.emit(OP_Last if rev else OP_Rewind, lv.icur, brk)  # the whole index
    lv.top = b.addr()
    if end_key >= 0:
        if rev:
            op = OP_IdxLE if last_strict else OP_IdxLT
        else:
            op = OP_IdxGE if last_strict else OP_IdxGT
        b.emit(op, lv.icur, brk, end_key, n_eq + 1)
    elif n_eq:
        b.emit(OP_IdxLT if rev else OP_IdxGT, lv.icur, brk, key, n_eq)
    if own_key:
        return 0
    cdef int rr = b.alloc_reg()
    lv.seek = b.emit(OP_IdxRowid, lv.icur, rr)
    b.emit(OP_SeekRowid, cur, lv.cont, rr)
    return 0


cdef int _in_values(p, ProgramBuilder b, scope, e, aff, coll) except? -1:
    """An ephemeral index of the values of ``x IN (constant, ...)`` with the comparison's
    affinity applied (NULLs left out, equal values kept once, in ``coll`` order), filled
    once per run; returns its cursor."""
    cdef int eph = b.alloc_cursor()
    cdef int filled = b.new_label()
    b.emit(OP_Once, 0, filled)
    b.emit(OP_OpenEphemeral, eph, 1, 0, SortSpec(1, [p.collation(coll)]), 0, "IN-list")
    cdef int r = b.alloc_reg()
    cdef int rec = b.alloc_reg()
    cdef int skip
    for item in e.items:
        code_expr(p, scope, item, r)
        if aff and aff not in "@A":
            b.emit(OP_Affinity, r, 1, 0, aff)
        skip = b.new_label()
        b.emit(OP_IsNull, r, skip)
        b.emit(OP_MakeRecord, r, 1, rec)
        b.emit(OP_IdxInsert, eph, rec)
        b.resolve(skip)
    b.resolve(filled)
    return eph


cdef int _in_loop(p, ProgramBuilder b, scope, Level lv, e, int reg, aff, coll, int brk,
                  bint desc) except? 0:
    """Open a loop over the values of ``x IN (list)``, each in turn in ``reg`` (in the
    order of the index column: descending for a DESC one); returns the label the inner
    lookup goes to when it is done (the next value)."""
    cdef int eph = _in_values(p, b, scope, e, aff, coll)
    b.emit(OP_Last if desc else OP_Rewind, eph, brk)
    top = b.addr()
    b.emit(OP_Column, eph, 0, reg)
    cdef int nxt = b.new_label()
    lv.in_loops = lv.in_loops + ((eph, top, nxt, desc),)
    return nxt


cdef int _in_key_block(p, ProgramBuilder b, scope, Level lv, list exprs, aff) except? -1:
    """``_key_block`` for an index key with IN lists among its equalities: the other
    parts coded once, then one loop per IN list (outermost first) fills its part."""
    src = lv.src
    ix = lv.access.index
    cdef Py_ssize_t n = len(exprs), j
    cdef int base = b.alloc_reg(n)
    for j in range(n):
        e = exprs[j]
        if type(e) is not T_InList:
            code_expr(p, scope, e, base + j)
    cdef int brk = lv.brk
    for j in range(n):
        e = exprs[j]
        if type(e) is T_InList:
            col = ix.columns[j]
            coll = ix.collations[j] or src.table.columns[col].collation
            brk = _in_loop(p, b, scope, lv, e, base + j, aff[j:j + 1], coll, brk,
                           ix.desc[j] != lv.access.reverse)
    if aff and _needs_affinity(aff):
        b.emit(OP_Affinity, base, n, 0, aff)
    return base


cdef int _open_auto(p, ProgramBuilder b, scope, Level lv) except -1:
    """Build (once) an automatic index over the source, then look the outer values up in
    it: SQLite's constructAutomaticIndex. Each row of the source passing the index's
    partial terms gives an entry: the key (with the comparison's affinity; none for a
    NULL key), then one field of each column of the source as stored (``where_end``
    keeps those the loop reads and drops the others: ``_cover_auto``), then the rowid."""
    cdef Access acc = lv.access
    cdef Source src = lv.src
    cols = acc.index
    cdef int n = len(cols), j
    lv.icur = b.alloc_cursor()
    cdef int built = b.new_label()
    b.emit(OP_Once, 0, built)  # (none over a FROM subquery filled again: _loops.pyx)
    lv.fill_at = b.emit(OP_OpenEphemeral, lv.icur, n + 1, 0, SortSpec(n), 1, "auto-index")
    cdef int done = b.new_label()
    b.emit(OP_Rewind, src.cursor, done)
    top = b.addr()
    cdef int nxt = b.new_label()
    for e in acc.partial:
        if_false(p, scope, e, nxt, True)
    cdef list fields = _stored_fields(src)
    cdef int m = len(fields)
    cdef int key = b.alloc_reg(n + m + 1)
    for j in range(n):
        code_column(p, ColRef(src, cols[j], scope, 0), key + j)
    if _needs_affinity(acc.key_aff):
        b.emit(OP_Affinity, key, n, 0, acc.key_aff)
    b.emit(OP_IfNullJump, key, nxt, n)
    defaults = src.defaults
    cdef tuple fc
    for fc in fields:  # (the column slots, P5 the column: where_end keeps the ones read)
        b.emit(OP_Noop, src.cursor, fc[0], key + n,
               defaults[fc[1]] if defaults is not None else None, fc[1])
    b.emit(OP_Rowid, src.cursor, key + n)
    cdef int rec = b.alloc_reg()
    b.emit(OP_MakeRecord, key, n + 1, rec)
    b.emit(OP_IdxInsert, lv.icur, rec)
    b.resolve(nxt)
    b.emit(OP_Next, src.cursor, top)
    b.resolve(done)
    b.resolve(built)
    lv.fill_end = b.addr()
    cdef int probe = _key_block(p, b, scope, acc.eq, acc.key_aff)
    b.emit(OP_IfNullJump, probe, lv.brk, n)
    b.emit(OP_SeekGE, lv.icur, lv.brk, probe, n)
    lv.top = b.addr()
    cdef int rr = b.alloc_reg()
    lv.seek = b.emit(OP_IdxRowid, lv.icur, rr)
    b.emit(OP_SeekRowid, src.cursor, lv.cont, rr)  # (dropped when the index covers)
    return 0


cdef list _stored_fields(Source src):
    """(record field, column) of each column of ``src`` stored in its rows (a VIRTUAL
    generated column is not), in column order."""
    cdef Py_ssize_t c
    table = src.table if src.is_table else None
    st = table.storage if table is not None else None
    if st is None:
        return [(c, c) for c in range(len(src.columns))]
    return [(st[c], c) for c in range(len(src.columns)) if st[c] >= 0]


cdef int _cover_auto(p, ProgramBuilder b, Level lv) except -1:
    """Once the loop's body is coded: make automatic index ``lv`` hold, after its key,
    the columns the loop reads from its table (SQLite's extraCols: in column order, and
    past the 63rd every column from there on, as its Bitmask keeps them), move those
    reads to the index and drop the table lookup (a covering index, as SQLite's always
    is). When the table's cursor is read before the loop, or used in it otherwise than by
    Column and Rowid, the index holds the key and the rowid only and the row is read
    back."""
    cdef Source src = lv.src
    cdef Access acc = lv.access
    cdef int seek = lv.seek, start = lv.start, fill_at = lv.fill_at, fill_end = lv.fill_end
    cdef list reads = []  # (the addresses of the loop's reads of the table)
    cdef set read_fields = set()
    cdef Py_ssize_t a, n_ops = b.n_ops
    cdef int op
    cdef long long cur = src.cursor
    cdef long long *p1 = b._p1
    cdef int *ops = b._op
    cdef bint covers = lv.rj is None
    # (a scan of the C arrays, its opcodes compared in C: the programs of the corpus's
    # many-table joins are long, and each automatic index reads them once)
    for a in range(n_ops):
        if p1[a] != cur or a == seek + 1 or fill_at <= a < fill_end:
            continue
        op = ops[a]
        if op == OP_Column or op == OP_Rowid:
            if a < start:
                covers = False
                break
            reads.append(a)
            if op == OP_Column:
                read_fields.add(b._p2[a])
        elif op in _CURSOR_OPS and a >= start:  # (before: opening or filling the table)
            covers = False
            break
    cdef Py_ssize_t n_key = len(acc.index), k = 0
    cdef int last = MAX_JOIN - 1
    # the column slots of the fill, in column order: before its Rowid, MakeRecord,
    # IdxInsert and Next (a source stores one column at least)
    cdef Py_ssize_t rowid_at = fill_end - 4
    slots = range(rowid_at - len(_stored_fields(src)), rowid_at)
    cdef bint wide = False  # (a column past the 63rd is read: all of those are kept)
    if covers:
        for a in slots:
            if b._p5[a] >= last and b._p2[a] in read_fields:
                wide = True
                break
    cdef dict pos_of = {}
    for a in slots:
        if covers and (b._p2[a] in read_fields or wide and b._p5[a] >= last):
            b._op[a] = OP_Column
            b._p5[a] = 0
            pos_of[b._p2[a]] = n_key + k
            b._p3[a] = b._p3[a] + k
            k += 1
        else:
            b._p1[a] = b._p2[a] = b._p3[a] = b._p5[a] = 0
            b._p4[a] = None
    # the rowid after them, the record's and the index's width
    b._p2[rowid_at] = b._p2[rowid_at] + k
    b._p2[rowid_at + 1] = n_key + k + 1
    b._p2[fill_at] = n_key + k + 1
    if not covers:
        return 0
    cdef list p4 = b._p4
    cdef long long icur = lv.icur
    for a in reads:
        p1[a] = icur
        if ops[a] == OP_Rowid:
            ops[a] = OP_IdxRowid
        else:
            b._p2[a] = pos_of[b._p2[a]]
            p4[a] = None
    for a in (seek, seek + 1):  # (no rowid wanted, no row read back)
        b._op[a] = OP_Noop
        b._p1[a] = b._p2[a] = b._p3[a] = 0
        p4[a] = None
    lv.top = seek + 2  # (the next entry's loop starts after them)
    acc.covering = True
    if p.eqp:
        eqp_set(p, lv.eqp_addr, _eqp_text(p, lv, True))
    return 0


# opcodes whose P1 is a cursor (the others' P1 is a register or a constant)
cdef frozenset _CURSOR_OPS = frozenset((
    O.OP_OpenRead, O.OP_OpenWrite, O.OP_OpenEphemeral, O.OP_OpenPseudo, O.OP_Close,
    O.OP_Rewind, O.OP_Last, O.OP_Next, O.OP_Prev, O.OP_SeekRowid, O.OP_NotExists,
    O.OP_SeekGE, O.OP_SeekGT, O.OP_SeekLE, O.OP_SeekLT, O.OP_IdxGE, O.OP_IdxGT, O.OP_IdxLE,
    O.OP_IdxLT, O.OP_IdxRowid, O.OP_Column, O.OP_Rowid, O.OP_NullRow, O.OP_IfNullRow,
    O.OP_NewRowid, O.OP_Insert, O.OP_IdxInsert, O.OP_Delete, O.OP_IdxDelete, O.OP_Found,
    O.OP_NotFound, O.OP_NoConflict, O.OP_Count, O.OP_Sequence, O.OP_IdxKeyCheck,
    O.OP_RowData, O.OP_SorterOpen, O.OP_SorterInsert, O.OP_SorterSort, O.OP_SorterNext,
    O.OP_SorterData, O.OP_ResetSorter, O.OP_SorterCutoff))


cdef bint _make_covering(p, ProgramBuilder b, Level lv) except -1:
    """Drop the table lookup of an index loop when every read of the table's cursor is a
    column the index holds (or the rowid): those reads move to the index cursor. The whole
    program so far is checked, so a read anywhere else keeps the lookup. The instructions
    are patched in the builder's arrays (no row views of ``b.ops``)."""
    cdef Source src = lv.src
    cdef int seek = lv.seek
    cdef int start = lv.start
    cdef dict pos_of = {}  # the table's record field -> the index entry's field
    idx = lv.access.index
    table = src.table
    st = table.storage
    columns = idx.columns
    cdef Py_ssize_t k, j
    for k in range(len(columns)):
        c = columns[k]
        pos_of.setdefault(c if st is None or c < 0 else st[c], k)
    if table.without_rowid:  # its entries end with the PRIMARY KEY columns
        from sqlengine.schema import record_tail
        j = len(columns)
        for c, _coll, _d in record_tail(table, idx):
            pos_of.setdefault(st[c], j)
            j += 1
    pos_of.pop(-1, None)  # (a VIRTUAL column is computed, never read by Column)
    cdef list changes = []  # (address, the index field it reads; -1: the rowid)
    cdef tuple use
    cdef Py_ssize_t a
    cdef int op
    for use in b.cursor_uses(src.cursor, _CURSOR_OPS):
        a = use[0]
        op = use[1]
        if a == seek + 1 or op == OP_OpenRead and a < start:
            continue
        if a < start:
            return False
        if op == OP_Column:
            kk = pos_of.get(use[2])
            if kk is None:
                return False
            changes.append((a, kk))
        elif op == OP_Rowid:
            changes.append((a, -1))
        else:
            return False
    cdef long long icur = lv.icur
    cdef list p4 = b._p4
    for use in changes:
        a = use[0]
        k = use[1]
        b._p1[a] = icur
        if k < 0:
            b._op[a] = OP_IdxRowid
        else:
            b._p2[a] = k
            p4[a] = None
    # the IdxRowid stays: it reads the rowid (and checks the entry) as sqlite3 does
    a = seek + 1
    b._op[a] = OP_Noop
    b._p1[a] = b._p2[a] = b._p3[a] = 0
    p4[a] = None
    if p.eqp:
        eqp_set(p, lv.eqp_addr, _eqp_text(p, lv, True))
    return True


cdef int _read_yielded(ProgramBuilder b, Level lv) except -1:
    """Turn the reads of a co-routine's cursor into reads of the registers it yields its
    row in (SQLite's translateColumnToCopy): a column becomes a Copy of its register,
    the rowid a NULL."""
    src = lv.src
    cdef int base = src.co_base
    cdef tuple use
    cdef Py_ssize_t a
    cdef list p4 = b._p4
    for use in b.cursor_uses(src.cursor, _CURSOR_OPS):
        a = use[0]
        if use[1] == OP_Column:
            b._op[a] = OP_Copy
            b._p1[a] = base + use[2]
            b._p2[a] = b._p3[a]
            b._p3[a] = 0
        elif use[1] == OP_Rowid:
            b._op[a] = OP_Null
            b._p1[a] = 0
        else:
            raise OperationalError("internal error: a co-routine's row read as a table's")
        p4[a] = None
    return 0


def where_end(p, WhereInfo info):
    """Close the loops ``where_begin`` opened (``where.where_end`` documents it)."""
    c_where_end(p, p.b, info)


cdef int c_where_end(p, ProgramBuilder b, WhereInfo info) except -1:
    """``where_end`` called from C; ``b`` is ``p.b``."""
    if info.on_right:  # (told after the names of the body are resolved, as SQLite does)
        raise OperationalError("ON clause references tables to its right")
    cdef list levels = info.levels
    if not levels:  # (no FROM: one row, no loop to close)
        b.resolve(info.brk)
        return 0
    cdef Level lv
    cdef Access acc
    cdef Source src
    cdef Py_ssize_t i
    cdef bint any_rj = False
    cdef str kind
    cdef int step
    cdef set covered = None  # (the LEFT JOIN levels whose table lookup went)
    for lv in levels:
        if lv.seek >= 0 and lv.access.kind == "index":
            src = lv.src
            if not src.right and _make_covering(p, b, lv) and src.left:
                if covered is None:
                    covered = set()
                covered.add(id(lv))
        elif lv.access.kind == "auto":
            _cover_auto(p, b, lv)
    for i in range(len(levels) - 1, -1, -1):
        lv = levels[i]
        src = lv.src
        b.resolve(lv.cont)
        if lv.rj is not None:
            any_rj = True
            rightjoin.end_interior(p, lv)
        if src.left:
            lv.scratch = b.alloc_reg()
            # (a covering index's cursor holds the row: the table's is never moved)
            b.emit(OP_IfNullRow, lv.icur if lv.access.covering and lv.access.kind == "auto"
                   or covered is not None and id(lv) in covered
                   else src.cursor, lv.done, lv.scratch)
        acc = lv.access
        step = OP_Prev if acc.reverse else OP_Next
        kind = acc.kind
        if type(src) is T_CoroutineSource:
            b.emit(OP_Goto, 0, lv.top)
            _read_yielded(b, lv)
        elif kind == "scan" or kind == "rowid_range":
            b.emit(step, src.cursor, lv.top)
        elif kind == "index" or kind == "auto":
            b.emit(step, lv.icur, lv.top)
        if lv.in_loops:
            for eph, top, nxt, desc in reversed(lv.in_loops):  # each IN list's next value
                b.resolve(nxt)
                b.emit(OP_Prev if desc else OP_Next, eph, top)
        b.resolve(lv.brk)
        if src.left:
            b.emit(OP_IfPos, lv.match_reg, lv.done, 0)
            b.emit(OP_NullRow, src.cursor)
            if lv.icur >= 0:
                b.emit(OP_NullRow, lv.icur)
            b.emit(OP_Integer, 1, lv.match_reg)
            b.emit(OP_Goto, 0, lv.after_match)
        b.resolve(lv.done)
    if any_rj:
        rightjoin.unmatched_passes(p, info)
    b.resolve(info.brk)
    return 0
