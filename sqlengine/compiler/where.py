"""The WHERE loop: nested loops over the FROM items, each reading its rows the way the
planner chose, testing every term at the outermost level where it can be tested, with
SQLite's LEFT JOIN handling (a match flag per level and a NULL row when nothing matched).

``where_begin`` opens the cursors and loops and returns a ``WhereInfo``; the caller emits
the body; ``where_end`` closes the loops. This module never decides what the body does.
"""

from __future__ import annotations

from sqlengine.compiler import planner, rightjoin
from sqlengine.compiler._levels import Level, WhereInfo  # noqa: F401  (re-exported)
from sqlengine.compiler._paths import plan
from sqlengine.compiler.explain import eqp_line, eqp_set
from sqlengine.compiler.plan_terms import WhereClause, split_and
from sqlengine.sql.ast import Between, Binary, InList
from sqlengine.compiler.expr import aff_code, code_column, code_expr, code_expr_reg, if_false  # noqa: F401
from sqlengine.compiler.resolve import ColRef
from sqlengine.errors import OperationalError
from sqlengine.storage import KeyInfo
from sqlengine.vdbe.sorter import SortSpec
from sqlengine.vdbe.opcodes import (
    OP_Affinity, OP_Close, OP_Column, OP_Copy, OP_Count, OP_Delete, OP_Found, OP_Goto,
    OP_IdxDelete, OP_IdxGE, OP_IdxGT, OP_IdxInsert, OP_IdxKeyCheck, OP_IdxLE, OP_IdxLT,
    OP_IdxRowid, OP_IfNullJump, OP_IfNullRow, OP_IfPos, OP_Insert, OP_Integer, OP_IsNull,
    OP_Last, OP_MakeRecord, OP_NewRowid, OP_Next, OP_NoConflict, OP_Noop, OP_NotExists,
    OP_NotFound, OP_Null, OP_NullRow, OP_Once, OP_OpenEphemeral, OP_OpenPseudo, OP_OpenRead,
    OP_OpenWrite, OP_Prev, OP_ResetSorter, OP_Rewind, OP_RowData, OP_Rowid, OP_SeekGE,
    OP_SeekGT, OP_SeekLE, OP_SeekLT, OP_SeekRowid, OP_Sequence, OP_SorterCutoff,
    OP_SorterData, OP_SorterInsert, OP_SorterNext, OP_SorterOpen, OP_SorterSort)

MAX_JOIN_TABLES = 64  # SQLite's BMS: a bitmask of the FROM items in one 64-bit word


def open_source_cursor(p, src, write=False):
    """Emit OpenRead for a table source (once, before any loop)."""
    if src.is_table:
        p.b.emit(OP_OpenWrite if write else OP_OpenRead, src.cursor, src.table.root, 0,
                 table_p4(p, src.table), comment=src.table.name)


def table_p4(p, table):
    """P4 of OpenRead/OpenWrite on a table: its column count, or for a WITHOUT ROWID
    table (an index b-tree keyed by its PRIMARY KEY) that key's KeyInfo."""
    if table.without_rowid:
        from sqlengine.schema import pk_index
        pk = pk_index(table)
        if pk is not None:
            return index_key_info(p, pk, table)
    return len(table.columns)


_ROW_KEY_INFO = []


def _row_key_info_class():
    """KeyInfo with ``pk_fields``: where an entry of a WITHOUT ROWID table or of one of
    its indexes holds the PRIMARY KEY (the VM's row key for Rowid/IdxRowid)."""
    if not _ROW_KEY_INFO:
        class RowKeyInfo(KeyInfo):
            pass
        _ROW_KEY_INFO.append(RowKeyInfo)
    return _ROW_KEY_INFO[0]


def index_key_info(p, idx, table):
    colls = []
    for k, col in enumerate(idx.columns):
        name = idx.collations[k] or table.columns[col].collation
        colls.append(p.coll_func(name))
    desc = list(idx.desc)
    if table is not None and getattr(table, "without_rowid", False):
        # the key columns, then the rest of the record (no rowid)
        from sqlengine.schema import pk_fields, record_tail
        for _c, coll, d in record_tail(table, idx):
            colls.append(p.coll_func(coll))
            desc.append(d)
        ki = _row_key_info_class()(len(colls), colls, desc)
        ki.pk_fields = pk_fields(table, idx)
        return ki
    ki = KeyInfo(len(idx.columns) + 1, colls + [None], desc + [False])
    return ki


def where_begin(p, scope, where, left_on: dict, extra_terms=(), core=None,
                order_by=None, limit=None, open_cursors=True, minmax=False,
                group=False) -> WhereInfo:
    """Open the loops over ``scope.sources``. ``where`` is the WHERE expression (or None),
    ``left_on`` maps a level to the ON expression of its LEFT JOIN; ``core`` (the SELECT
    being coded, when there is one) tells which columns the statement reads, so that a
    covering index can be preferred; ``order_by`` ([(expr, desc, nulls_first, collation)])
    lets the plan weigh a sort against an index that delivers the rows in order, and
    ``limit`` (a constant LIMIT, or None) prices that sort as a top-N one.
    ``open_cursors=False``: the sources' table cursors are open already (a one-pass
    DELETE or UPDATE loops over its write cursor). ``minmax`` marks the loops of a query
    whose one aggregate is min() or max(), which sqlite3's plan calls searches (its
    WHERE_ORDERBY_MIN/MAX) even where they read every row. ``group``: ``order_by`` is a
    GROUP BY, whose terms any direction serves (SQLite's WHERE_GROUPBY)."""
    b = p.b
    info = WhereInfo(scope)
    info.brk = b.new_label()
    srcs = scope.sources
    n = len(srcs)
    if n > MAX_JOIN_TABLES:
        raise OperationalError(f"at most {MAX_JOIN_TABLES} tables in a join")
    if not n:  # no FROM: one row, every term a constant test before it
        eqp_line(p, "SCAN CONSTANT ROW")
        if where is not None or extra_terms:
            for e in split_and(where, []) + list(extra_terms):
                if_false(p, scope, e, info.brk, True)
        return info
    exprs = split_and(where, []) + list(extra_terms)
    wc = WhereClause(scope, exprs, left_on)
    info.on_right = rightjoin.on_refers_right(wc.masker, srcs)
    chosen, info.n_ordered, backwards = plan(scope, wc, core, order_by, limit, group)
    order = [lp.src_i for lp in chosen]
    if order != list(range(n)):
        scope.sources[:] = [srcs[i] for i in order]
    pos = [0] * n
    for lvl, i in enumerate(order):
        pos[i] = lvl
    terms = wc.terms
    last = _last_right(scope.sources)
    for t in terms:
        if n == 0:
            t.level = -1
        elif t.pinned:
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
            t.level = rightjoin.where_level(lvl, last) if last >= 0 else lvl
    on_terms = wc.on_terms
    # constant terms first
    for t in terms:
        if t.level < 0:
            if_false(p, scope, t.expr, info.brk, True)
    if open_cursors:
        for src in scope.sources:
            open_source_cursor(p, src)
    match_sets = {i: rightjoin.open_match_set(p, s) for i, s in enumerate(scope.sources)
                  if s.right}
    placed = 0
    by_level = [[] for _ in range(n)]
    for t in terms:
        if t.level >= 0:
            by_level[t.level].append(t)
    for i, src in enumerate(scope.sources):
        lv = Level(src)
        lv.minmax = minmax
        info.levels.append(lv)
        lv.cont = b.new_label()
        lv.brk = b.new_label()
        lv.done = b.new_label()
        level_terms = by_level[i]
        lp = chosen[i]
        outer = rightjoin.outer_level(src)
        lv.rj = match_sets.get(i)
        if src.left:
            lv.match_reg = b.alloc_reg()
            b.emit(OP_Integer, 0, lv.match_reg)
        if outer:
            acc = planner.access_of(scope, lp, src, placed, wc, on_terms.get(i, []))
        else:
            acc = planner.access_of(scope, lp, src, placed, wc, terms)
        if lp.src_i in backwards:
            acc.reverse = True
        placed |= lp.bit
        lv.access = acc
        _open_loop(p, scope, lv)
        done = _enforced_terms(lp)
        if outer:
            for t in on_terms.get(i, []):
                if t not in done:
                    if_false(p, scope, t.expr, lv.cont, True)
        if lv.rj is not None:
            rightjoin.record_match(p, scope, lv)
        if src.left:
            b.emit(OP_Integer, 1, lv.match_reg)
        lv.after_match = b.new_label()
        b.resolve(lv.after_match)
        if lv.rj is not None:
            rightjoin.begin_interior(p, lv)
        for t in level_terms:
            if t not in done:
                if_false(p, scope, t.expr, lv.cont, True)
    wc.release()
    return info


_TERM_OPS = frozenset(("=", "<", "<=", ">", ">="))


def _enforced_terms(lp):
    """The terms a loop's lookup already enforces, which need no test in the loop
    (SQLite's disableTerm): a comparison or ``IN (list)`` whose operand keys a rowid or
    index lookup (the planner let it key the index only with the comparison's affinity
    and collation), a BETWEEN both of whose bounds do. Automatic indexes and indexed
    expressions keep their tests."""
    kind = lp.kind
    if kind == "scan" or kind == "auto" or not lp.used:
        return ()
    ops = list(lp.eq)
    if lp.lo is not None:
        ops.append(lp.lo)
    if lp.hi is not None:
        ops.append(lp.hi)
    done = set()
    for o in ops:
        if o.col < -1:
            continue
        t = o.term
        e = t.expr
        ty = type(e)
        if ty is Binary and e.op in _TERM_OPS or ty is InList and not e.negated:
            done.add(t)
        elif ty is Between and not e.negated:
            if sum(1 for x in ops if x.term is t) == 2:
                done.add(t)
    return done


# (loops, not generator expressions: compiled, each generator costs an object per call)

def _last_right(sources) -> int:
    """The position of the last source a RIGHT or FULL JOIN brings, or -1."""
    last = -1
    for i, s in enumerate(sources):
        if s.right:
            last = i
    return last


def _needs_affinity(aff) -> bool:
    """Whether an affinity string applies any (``@`` and ``A``, none and BLOB, do not)."""
    for c in aff:
        if c not in "@A":
            return True
    return False


def _key_block(p, scope, exprs, aff):
    b = p.b
    base = b.alloc_reg(len(exprs))
    for j, e in enumerate(exprs):
        code_expr(p, scope, e, base + j)
    if aff and _needs_affinity(aff):
        b.emit(OP_Affinity, base, len(exprs), 0, aff)
    return base


def _eqp_text(p, lv, covering=False):
    """The EXPLAIN QUERY PLAN line of a loop, in sqlite3's words (the inner side of a
    LEFT JOIN says so)."""
    text = _eqp_access(p, lv, covering)
    return text + " LEFT-JOIN" if lv.src.left else text


def _eqp_access(p, lv, covering):
    acc = lv.access
    src = lv.src
    name = p.eqp_names.get(src.cursor, src.name)
    k = acc.kind
    scan = "SEARCH" if lv.minmax else "SCAN"
    if k == "scan":
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
        cols = " AND ".join(f"{src.columns[c] if c >= 0 else 'rowid'}=?" for c in acc.index)
        return f"SEARCH {name} USING AUTOMATIC INDEX ({cols})"
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




def _open_loop(p, scope, lv):
    b = p.b
    acc = lv.access
    src = lv.src
    cur = src.cursor
    prologue = getattr(src, "prologue", None)
    if prologue is not None:  # a correlated table-valued function computes its rows now
        prologue()
    if p.eqp and (src.is_table or src.cursor in p.eqp_names):  # (a table-valued function: none)
        lv.eqp_addr = eqp_line(p, _eqp_text(p, lv))
    lv.start = b.addr()
    rev = acc.reverse
    if acc.kind == "scan":
        b.emit(OP_Last if rev else OP_Rewind, cur, lv.brk)
        lv.top = b.addr()
    elif acc.kind == "auto":
        _open_auto(p, scope, lv)
    elif acc.kind == "rowid_eq" and type(acc.eq[0]) is InList:
        r = b.alloc_reg()
        brk = _in_loop(p, scope, lv, acc.eq[0], r, "C", None, lv.brk, rev)
        lv.top = -1
        b.emit(OP_SeekRowid, cur, brk, r)
    elif acc.kind == "rowid_eq":
        r = code_expr_reg(p, scope, acc.eq[0])
        lv.top = -1
        b.emit(OP_SeekRowid, cur, lv.brk, r)
    elif acc.kind == "rowid_range" and rev:
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
    elif acc.kind == "rowid_range":
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
        idx = acc.index
        own_key = idx.is_pk and src.table.without_rowid
        if own_key:  # the table's b-tree is this index: seek it directly
            lv.icur = cur
        else:
            lv.icur = p.b.alloc_cursor()
            b.emit(OP_OpenRead, lv.icur, idx.root, 0, index_key_info(p, idx, src.table),
                   comment=idx.name)
        src.index_cursor = lv.icur
        n_eq = len(acc.eq)
        exprs = list(acc.eq)
        # the bound the scan starts from and the one it stops at: in key order a DESC
        # column holds its largest values (and, last, its NULLs) first
        desc = n_eq < len(idx.desc) and idx.desc[n_eq] and (acc.lo is not None
                                                            or acc.hi is not None)
        swap = rev != desc
        if swap:
            first, first_op, last, last_op = acc.hi, acc.hi_op, acc.lo, acc.lo_op
            first_aff, last_aff = acc.hi_aff, acc.lo_aff
        else:
            first, first_op, last, last_op = acc.lo, acc.lo_op, acc.hi, acc.hi_op
            first_aff, last_aff = acc.lo_aff, acc.hi_aff
        first_strict = first_op in ("<", ">")
        last_strict = last_op in ("<", ">")
        if first is not None:
            exprs.append(first)
        brk = lv.brk  # where a lookup that finds nothing more goes
        key_aff = acc.key_aff[:n_eq] + (first_aff if first is not None else "")
        if any(type(e) is InList for e in acc.eq):
            key = _in_key_block(p, scope, lv, exprs, key_aff)
            brk = lv.in_loops[-1][2]
        else:
            key = _key_block(p, scope, exprs, key_aff) if exprs else 0
        if exprs:
            b.emit(OP_IfNullJump, key, brk, len(exprs))
        end_key = None
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
        if first is not None:
            if rev:
                op = OP_SeekLT if first_strict else OP_SeekLE
            else:
                op = OP_SeekGT if first_strict else OP_SeekGE
            b.emit(op, lv.icur, brk, key, n_eq + 1)
        elif end_key is not None and not swap:
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
        if end_key is not None:
            if rev:
                op = OP_IdxLE if last_strict else OP_IdxLT
            else:
                op = OP_IdxGE if last_strict else OP_IdxGT
            b.emit(op, lv.icur, brk, end_key, n_eq + 1)
        elif n_eq:
            b.emit(OP_IdxLT if rev else OP_IdxGT, lv.icur, brk, key, n_eq)
        if own_key:
            return
        rr = b.alloc_reg()
        lv.seek = b.emit(OP_IdxRowid, lv.icur, rr)
        b.emit(OP_SeekRowid, cur, lv.cont, rr)


def _in_values(p, scope, e, aff, coll):
    """An ephemeral index of the values of ``x IN (constant, ...)`` with the comparison's
    affinity applied (NULLs left out, equal values kept once, in ``coll`` order), filled
    once per run; returns its cursor."""
    b = p.b
    eph = b.alloc_cursor()
    filled = b.new_label()
    b.emit(OP_Once, 0, filled)
    b.emit(OP_OpenEphemeral, eph, 1, 0, SortSpec(1, [p.collation(coll)]),
           comment="IN-list")
    r = b.alloc_reg()
    rec = b.alloc_reg()
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


def _in_loop(p, scope, lv, e, reg, aff, coll, brk, desc=False):
    """Open a loop over the values of ``x IN (list)``, each in turn in ``reg`` (in the
    order of the index column: descending for a DESC one); returns the label the inner
    lookup goes to when it is done (the next value)."""
    b = p.b
    eph = _in_values(p, scope, e, aff, coll)
    b.emit(OP_Last if desc else OP_Rewind, eph, brk)
    top = b.addr()
    b.emit(OP_Column, eph, 0, reg)
    nxt = b.new_label()
    lv.in_loops = lv.in_loops + ((eph, top, nxt, desc),)
    return nxt


def _in_key_block(p, scope, lv, exprs, aff):
    """``_key_block`` for an index key with IN lists among its equalities: the other
    parts coded once, then one loop per IN list (outermost first) fills its part."""
    b = p.b
    src = lv.src
    ix = lv.access.index
    base = b.alloc_reg(len(exprs))
    for j, e in enumerate(exprs):
        if type(e) is not InList:
            code_expr(p, scope, e, base + j)
    brk = lv.brk
    for j, e in enumerate(exprs):
        if type(e) is InList:
            col = ix.columns[j]
            coll = ix.collations[j] or src.table.columns[col].collation
            brk = _in_loop(p, scope, lv, e, base + j, aff[j:j + 1], coll, brk,
                           ix.desc[j] != lv.access.reverse)
    if aff and _needs_affinity(aff):
        b.emit(OP_Affinity, base, len(exprs), 0, aff)
    return base


def _open_auto(p, scope, lv):
    """Build (once) a hash index over the source on the compared columns, then look the
    outer values up in it."""
    b = p.b
    acc = lv.access
    src = lv.src
    cols = acc.index
    n = len(cols)
    lv.icur = b.alloc_cursor()
    built = b.new_label()
    if not src.refill:  # (over a FROM subquery filled on each run: built on each run)
        b.emit(OP_Once, 0, built)
    b.emit(OP_OpenEphemeral, lv.icur, n, 0, SortSpec(n), 1, comment="auto-index")
    done = b.new_label()
    b.emit(OP_Rewind, src.cursor, done)
    top = b.addr()
    key = b.alloc_reg(n + 1)
    nxt = b.new_label()
    for j, c in enumerate(cols):
        code_column(p, ColRef(src, c, scope, 0), key + j)
    if _needs_affinity(acc.key_aff):
        b.emit(OP_Affinity, key, n, 0, acc.key_aff)
    b.emit(OP_IfNullJump, key, nxt, n)
    b.emit(OP_Rowid, src.cursor, key + n)
    rec = b.alloc_reg()
    b.emit(OP_MakeRecord, key, n + 1, rec)
    b.emit(OP_IdxInsert, lv.icur, rec)
    b.resolve(nxt)
    b.emit(OP_Next, src.cursor, top)
    b.resolve(done)
    b.resolve(built)
    probe = _key_block(p, scope, acc.eq, acc.key_aff)
    b.emit(OP_IfNullJump, probe, lv.brk, n)
    b.emit(OP_SeekGE, lv.icur, lv.brk, probe, n)
    lv.top = b.addr()
    rr = b.alloc_reg()
    b.emit(OP_IdxRowid, lv.icur, rr)
    b.emit(OP_SeekRowid, src.cursor, lv.cont, rr)


# opcodes whose P1 is a cursor (the others' P1 is a register or a constant)
_CURSOR_OPS = frozenset((
    OP_OpenRead, OP_OpenWrite, OP_OpenEphemeral, OP_OpenPseudo, OP_Close,
    OP_Rewind, OP_Last, OP_Next, OP_Prev, OP_SeekRowid, OP_NotExists,
    OP_SeekGE, OP_SeekGT, OP_SeekLE, OP_SeekLT, OP_IdxGE, OP_IdxGT, OP_IdxLE,
    OP_IdxLT, OP_IdxRowid, OP_Column, OP_Rowid, OP_NullRow, OP_IfNullRow,
    OP_NewRowid, OP_Insert, OP_IdxInsert, OP_Delete, OP_IdxDelete, OP_Found,
    OP_NotFound, OP_NoConflict, OP_Count, OP_Sequence, OP_IdxKeyCheck,
    OP_RowData, OP_SorterOpen, OP_SorterInsert, OP_SorterSort, OP_SorterNext,
    OP_SorterData, OP_ResetSorter, OP_SorterCutoff))


def _make_covering(p, scope, lv) -> bool:
    """Drop the table lookup of an index loop when every read of the table's cursor is a
    column the index holds (or the rowid): those reads move to the index cursor. The whole
    program so far is checked, so a read anywhere else keeps the lookup."""
    cur = lv.src.cursor
    seek = lv.seek
    pos_of = {}  # the table's record field -> the index entry's field
    idx = lv.access.index
    table = lv.src.table
    st = table.storage
    for k, c in enumerate(idx.columns):
        pos_of.setdefault(c if st is None or c < 0 else st[c], k)
    if table.without_rowid:  # its entries end with the PRIMARY KEY columns
        from sqlengine.schema import record_tail
        for j, (c, _coll, _d) in enumerate(record_tail(table, idx)):
            pos_of.setdefault(st[c], len(idx.columns) + j)
    pos_of.pop(-1, None)  # (a VIRTUAL column is computed, never read by Column)
    changes = []
    for a, op, p2 in p.b.cursor_uses(cur, _CURSOR_OPS):
        if a == seek + 1 or op == OP_OpenRead and a < lv.start:
            continue
        if a < lv.start:
            return False
        if op == OP_Column:
            k = pos_of.get(p2)
            if k is None:
                return False
            changes.append((a, k))
        elif op == OP_Rowid:
            changes.append((a, -1))
        else:
            return False
    icur = lv.icur
    ops = p.b.ops
    for a, k in changes:
        ins = ops[a]
        if k < 0:
            ins[0] = OP_IdxRowid
            ins[1] = icur
        else:
            ins[1] = icur
            ins[2] = k
            ins[4] = None
    # the IdxRowid stays: it reads the rowid (and checks the entry) as sqlite3 does
    ins = ops[seek + 1]
    ins[0] = OP_Noop
    ins[1] = ins[2] = ins[3] = 0
    ins[4] = None
    if p.eqp:
        eqp_set(p, lv.eqp_addr, _eqp_text(p, lv, True))
    return True


def where_end(p, info: WhereInfo) -> None:
    if info.on_right:  # (told after the names of the body are resolved, as SQLite does)
        raise OperationalError("ON clause references tables to its right")
    b = p.b
    levels = info.levels
    if not levels:  # (no FROM: one row, no loop to close)
        b.resolve(info.brk)
        return
    for lv in levels:
        if lv.seek >= 0 and not lv.src.left and not lv.src.right and \
                lv.access.kind == "index":
            _make_covering(p, info.scope, lv)
    for lv in reversed(info.levels):
        src = lv.src
        b.resolve(lv.cont)
        if lv.rj is not None:
            rightjoin.end_interior(p, lv)
        if src.left:
            lv.scratch = b.alloc_reg()
            b.emit(OP_IfNullRow, src.cursor, lv.done, lv.scratch)
        acc = lv.access
        step = OP_Prev if acc.reverse else OP_Next
        if acc.kind in ("scan", "rowid_range"):
            b.emit(step, src.cursor, lv.top)
        elif acc.kind in ("index", "auto"):
            b.emit(step, lv.icur, lv.top)
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
    for lv in info.levels:
        if lv.rj is not None:
            rightjoin.unmatched_passes(p, info)
            break
    b.resolve(info.brk)
