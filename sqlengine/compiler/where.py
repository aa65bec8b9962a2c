"""The WHERE loop: nested loops over the FROM items, each reading its rows the way the
planner chose, testing every term at the outermost level where it can be tested, with
SQLite's LEFT JOIN handling (a match flag per level and a NULL row when nothing matched).

``where_begin`` opens the cursors and loops and returns a ``WhereInfo``; the caller emits
the body; ``where_end`` closes the loops. This module never decides what the body does.
"""

from __future__ import annotations

from sqlengine.compiler import planner
from sqlengine.compiler.expr import aff_code, code_expr, code_expr_reg, if_false  # noqa: F401
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O


class Level:
    __slots__ = ("src", "access", "top", "cont", "brk", "done", "match_reg", "after_match",
                 "icur", "scratch")

    def __init__(self, src):
        self.src = src
        self.access = None
        self.top = -1
        self.cont = None
        self.brk = None
        self.done = None
        self.match_reg = 0
        self.after_match = None
        self.icur = -1
        self.scratch = 0


class WhereInfo:
    __slots__ = ("levels", "brk", "scope")

    def __init__(self, scope):
        self.levels: list[Level] = []
        self.brk = None
        self.scope = scope


def open_source_cursor(p, src, write=False):
    """Emit OpenRead for a table source (once, before any loop)."""
    if src.is_table:
        p.b.emit(O.OP_OpenWrite if write else O.OP_OpenRead, src.cursor, src.table.root, 0,
                 len(src.columns), comment=src.table.name)


def index_key_info(p, idx, table):
    from sqlengine.storage import KeyInfo
    colls = []
    for k, col in enumerate(idx.columns):
        name = idx.collations[k] or table.columns[col].collation
        colls.append(p.coll_func(name))
    desc = list(idx.desc)
    ki = KeyInfo(len(idx.columns) + 1, colls + [None], desc + [False])
    return ki


def where_begin(p, scope, where, left_on: dict, extra_terms=()) -> WhereInfo:
    """Open the loops over ``scope.sources``. ``where`` is the WHERE expression (or None),
    ``left_on`` maps a level to the ON expression of its LEFT JOIN."""
    b = p.b
    info = WhereInfo(scope)
    info.brk = b.new_label()
    exprs = planner.split_and(where, []) + list(extra_terms)
    _order_sources(scope, exprs)
    srcs = scope.sources
    n = len(srcs)
    terms = []
    for e in exprs:
        m = planner.term_mask(scope, e, n)
        t = planner.Term(e, m)
        t.level = (n - 1) if m is None else (max(m) if m else -1)
        if m is None and n == 0:
            t.level = -1
        terms.append(t)
    on_terms = {}
    for lvl, on in left_on.items():
        lst = []
        for e in planner.split_and(on, []):
            lst.append(planner.Term(e, planner.term_mask(scope, e, n), left_on=True))
        on_terms[lvl] = lst
    # constant terms first
    for t in terms:
        if t.level < 0:
            if_false(p, scope, t.expr, info.brk, True)
    for src in srcs:
        open_source_cursor(p, src)
    for i, src in enumerate(srcs):
        lv = Level(src)
        info.levels.append(lv)
        lv.cont = b.new_label()
        lv.brk = b.new_label()
        lv.done = b.new_label()
        level_terms = [t for t in terms if t.level == i]
        if src.left:
            lv.match_reg = b.alloc_reg()
            b.emit(O.OP_Integer, 0, lv.match_reg)
            acc = planner.choose(p, scope, i, src, on_terms.get(i, []))
        else:
            acc = planner.choose(p, scope, i, src, level_terms)
        lv.access = acc
        _open_loop(p, scope, lv)
        if src.left:
            for t in on_terms.get(i, []):
                if_false(p, scope, t.expr, lv.cont, True)
            b.emit(O.OP_Integer, 1, lv.match_reg)
        lv.after_match = b.new_label()
        b.resolve(lv.after_match)
        for t in level_terms:
            if_false(p, scope, t.expr, lv.cont, True)
    return info


def _order_sources(scope, exprs):
    """Reorder the loops of an inner join whose FROM order would make a cross product
    step: greedily put next a source joined by a term to those already placed (those
    with a constant equality first). FROM order is kept whenever it has no such step."""
    srcs = scope.sources
    n = len(srcs)
    if n < 3 or any(s.left for s in srcs):
        return
    masks = []
    for e in exprs:
        m = planner.term_mask(scope, e, n)
        if m is None:
            return
        masks.append((e, m))
    def linked(k, placed):
        return any(k in m and len(m) > 1 and (m - {k}) <= placed for _e, m in masks)
    if all(linked(k, set(range(k))) for k in range(1, n)):
        return
    const_eq = set()
    for e, m in masks:
        if len(m) == 1 and isinstance(e, A.Binary) and e.op == "=":
            const_eq |= m
    order = []
    placed = set()
    remaining = list(range(n))
    start = next((i for i in remaining if i in const_eq), remaining[0])
    order.append(start)
    placed.add(start)
    remaining.remove(start)
    while remaining:
        cands = [k for k in remaining if linked(k, placed)]
        if cands:
            pick = next((k for k in cands if k in const_eq), cands[0])
        else:
            pick = next((k for k in remaining if k in const_eq), remaining[0])
        order.append(pick)
        placed.add(pick)
        remaining.remove(pick)
    scope.sources[:] = [srcs[i] for i in order]


def _key_block(p, scope, exprs, aff):
    b = p.b
    base = b.alloc_reg(len(exprs))
    for j, e in enumerate(exprs):
        code_expr(p, scope, e, base + j)
    if aff and any(c not in "@A" for c in aff):
        b.emit(O.OP_Affinity, base, len(exprs), 0, aff)
    return base


def _open_loop(p, scope, lv):
    b = p.b
    acc = lv.access
    src = lv.src
    cur = src.cursor
    if acc.kind == "scan":
        b.emit(O.OP_Rewind, cur, lv.brk)
        lv.top = b.addr()
    elif acc.kind == "auto":
        _open_auto(p, scope, lv)
    elif acc.kind == "rowid_eq":
        r = code_expr_reg(p, scope, acc.eq[0])
        lv.top = -1
        b.emit(O.OP_SeekRowid, cur, lv.brk, r)
    elif acc.kind == "rowid_range":
        rh = None
        if acc.hi is not None:
            rh = code_expr_reg(p, scope, acc.hi)
        if acc.lo is not None:
            rl = code_expr_reg(p, scope, acc.lo)
            b.emit(O.OP_IsNull, rl, lv.brk)
            b.emit(O.OP_SeekGT if acc.lo_op == ">" else O.OP_SeekGE, cur, lv.brk, rl, 1)
        else:
            b.emit(O.OP_Rewind, cur, lv.brk)
        lv.top = b.addr()
        if rh is not None:
            b.emit(O.OP_IdxGE if acc.hi_op == "<" else O.OP_IdxGT, cur, lv.brk, rh, 1)
    else:
        idx = acc.index
        lv.icur = p.b.alloc_cursor()
        b.emit(O.OP_OpenRead, lv.icur, idx.root, 0, index_key_info(p, idx, src.table),
               comment=idx.name)
        src.index_cursor = lv.icur
        n_eq = len(acc.eq)
        exprs = list(acc.eq)
        has_lo = acc.lo is not None
        if has_lo:
            exprs.append(acc.lo)
        key = _key_block(p, scope, exprs, acc.key_aff[:len(exprs)])
        if exprs:
            b.emit(O.OP_IfNullJump, key, lv.brk, len(exprs))
        end_key = None
        if acc.hi is not None:
            end_key = b.alloc_reg(n_eq + 1)
            if n_eq:
                b.emit(O.OP_Copy, key, end_key, n_eq - 1)
            code_expr(p, scope, acc.hi, end_key + n_eq)
            aff = acc.key_aff[n_eq:n_eq + 1]
            if aff and aff not in "@A":
                b.emit(O.OP_Affinity, end_key + n_eq, 1, 0, aff)
            b.emit(O.OP_IsNull, end_key + n_eq, lv.brk)
        if has_lo:
            b.emit(O.OP_SeekGT if acc.lo_op == ">" else O.OP_SeekGE, lv.icur, lv.brk, key,
                   n_eq + 1)
        elif n_eq:
            b.emit(O.OP_SeekGE, lv.icur, lv.brk, key, n_eq)
        else:
            # no lower bound: skip the NULL entries at the start of the index
            nul = b.alloc_reg()
            b.emit(O.OP_Null, 0, nul)
            b.emit(O.OP_SeekGT, lv.icur, lv.brk, nul, 1)
        lv.top = b.addr()
        if end_key is not None:
            b.emit(O.OP_IdxGE if acc.hi_op == "<" else O.OP_IdxGT, lv.icur, lv.brk, end_key,
                   n_eq + 1)
        elif n_eq:
            b.emit(O.OP_IdxGT, lv.icur, lv.brk, key, n_eq)
        rr = b.alloc_reg()
        b.emit(O.OP_IdxRowid, lv.icur, rr)
        b.emit(O.OP_SeekRowid, cur, lv.cont, rr)


def _open_auto(p, scope, lv):
    """Build (once) a hash index over the source on the compared columns, then look the
    outer values up in it."""
    from sqlengine.compiler.expr import code_column
    from sqlengine.compiler.resolve import ColRef
    from sqlengine.vdbe.sorter import SortSpec
    b = p.b
    acc = lv.access
    src = lv.src
    cols = acc.index
    n = len(cols)
    lv.icur = b.alloc_cursor()
    built = b.new_label()
    b.emit(O.OP_Once, 0, built)
    b.emit(O.OP_OpenEphemeral, lv.icur, n, 0, SortSpec(n), 1, comment="auto-index")
    done = b.new_label()
    b.emit(O.OP_Rewind, src.cursor, done)
    top = b.addr()
    key = b.alloc_reg(n + 1)
    nxt = b.new_label()
    for j, c in enumerate(cols):
        code_column(p, ColRef(src, c, scope, 0), key + j)
    if any(a not in "@A" for a in acc.key_aff):
        b.emit(O.OP_Affinity, key, n, 0, acc.key_aff)
    b.emit(O.OP_IfNullJump, key, nxt, n)
    b.emit(O.OP_Rowid, src.cursor, key + n)
    rec = b.alloc_reg()
    b.emit(O.OP_MakeRecord, key, n + 1, rec)
    b.emit(O.OP_IdxInsert, lv.icur, rec)
    b.resolve(nxt)
    b.emit(O.OP_Next, src.cursor, top)
    b.resolve(done)
    b.resolve(built)
    probe = _key_block(p, scope, acc.eq, acc.key_aff)
    b.emit(O.OP_IfNullJump, probe, lv.brk, n)
    b.emit(O.OP_SeekGE, lv.icur, lv.brk, probe, n)
    lv.top = b.addr()
    rr = b.alloc_reg()
    b.emit(O.OP_IdxRowid, lv.icur, rr)
    b.emit(O.OP_SeekRowid, src.cursor, lv.cont, rr)


def where_end(p, info: WhereInfo) -> None:
    b = p.b
    for lv in reversed(info.levels):
        src = lv.src
        b.resolve(lv.cont)
        if src.left:
            lv.scratch = b.alloc_reg()
            b.emit(O.OP_IfNullRow, src.cursor, lv.done, lv.scratch)
        acc = lv.access
        if acc.kind in ("scan", "rowid_range"):
            b.emit(O.OP_Next, src.cursor, lv.top)
        elif acc.kind in ("index", "auto"):
            b.emit(O.OP_Next, lv.icur, lv.top)
        b.resolve(lv.brk)
        if src.left:
            b.emit(O.OP_IfPos, lv.match_reg, lv.done, 0)
            b.emit(O.OP_NullRow, src.cursor)
            if lv.icur >= 0:
                b.emit(O.OP_NullRow, lv.icur)
            b.emit(O.OP_Integer, 1, lv.match_reg)
            b.emit(O.OP_Goto, 0, lv.after_match)
        b.resolve(lv.done)
    b.resolve(info.brk)
