"""RIGHT and FULL JOIN, coded the way SQLite 3.39+ codes them (its wherecode.c and
sqlite3WhereRightJoinLoop):

- the FROM order stays; the right-hand table R of ``... RIGHT JOIN R ON c`` is looped
  over like the inner table of an inner join, its ON terms tested at its level;
- each row of R that passes them has its row key (the rowid, or the PRIMARY KEY of a
  WITHOUT ROWID table) recorded in an ephemeral index, the "match set";
- everything inside R's loop (the WHERE terms left to that level, the inner loops and
  the body) is a subroutine: the ordinary pass falls through it (its return register
  is NULL there), and once the outermost loop is done a last pass over R calls it for
  each row not in the match set, with every table to R's left on its NULL row;
- a FULL JOIN is also a LEFT JOIN at R's level (a NULL row of R when nothing matched);
- the WHERE terms on tables to the left of a RIGHT JOIN (SQLite's JT_LTORJ) wait until
  the level of the last RIGHT JOIN, so that they filter joined rows, never the matches;
  on those tables, as on the joined tables, only their own ON terms may key a lookup.

``where.py`` runs the loops and calls in here at the points above. This module emits
code only for those pieces; it never plans.
"""

from __future__ import annotations

from sqlengine.compiler.explain import eqp_close, eqp_line, eqp_open
from sqlengine.compiler.plan_terms import PINNED
from sqlengine.vdbe import opcodes as O


def last_right(items) -> int:
    """The position of the last FROM item a RIGHT or FULL JOIN brings (-1: none);
    ``items``: [(item, Join or None)] in FROM order."""
    last = -1
    for k, (_item, join) in enumerate(items):
        if join is not None and join.kind in ("RIGHT", "FULL"):
            last = k
    return last


def outer_side(join, level, last):
    """How SQLite's flattener sees the FROM item ``join`` brings at ``level`` (``last``:
    the last RIGHT JOIN's level): "RIGHT" for the right operand of a RIGHT or FULL JOIN
    (never flattened, its restriction 26), True on the right of a LEFT JOIN or to the left
    of a RIGHT JOIN (its isOuterJoin restrictions), else False."""
    if join is not None and join.kind in ("RIGHT", "FULL"):
        return "RIGHT"
    return join is not None and join.kind == "LEFT" or level < last


def on_refers_right(masker, sources) -> bool:
    """SQLite's "ON clause references tables to its right": whether the ON terms of an
    outer join, or with a RIGHT or FULL JOIN in the FROM clause of any join (each
    source's ``join_on``, ``sources`` in FROM order), name a table after their own."""
    for level, src in enumerate(sources):
        if src.join_on is not None:
            m = masker.mask(src.join_on)
            if m != PINNED and m >> (level + 1):
                return True
    return False


def outer_level(src) -> bool:
    """Whether a level's terms follow the outer-join rules (its ON terms tested there,
    only they key its lookup, the WHERE terms wait)."""
    return src.left or src.right or src.ltorj


def where_level(t_level, last) -> int:
    """The level a WHERE term of ``t_level`` (its innermost table) is tested at."""
    return last if 0 <= t_level < last else t_level


class RightJoin:
    """A RIGHT JOIN level's code state: the match set's cursor, the return register and
    the address of the subroutine (the inside of the level's loop)."""

    __slots__ = ("match", "ret", "sub", "key_cols")

    def __init__(self, match, ret, key_cols):
        self.match = match
        self.ret = ret
        self.sub = None  # (a label)
        self.key_cols = key_cols


def open_match_set(p, src) -> RightJoin:
    """Open (empty, at each run of the statement) the match set of a RIGHT JOIN table."""
    from sqlengine.vdbe.sorter import SortSpec
    b = p.b
    key_cols = _key_columns(src)
    n = len(key_cols) if key_cols else 1
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenEphemeral, cur, n, 0, SortSpec(n), comment=f"match set of {src.name}")
    ret = b.alloc_reg()
    b.emit(O.OP_Null, 0, ret)  # (a Gosub of the last run's unmatched pass set it)
    return RightJoin(cur, ret, key_cols)


def _key_columns(src):
    """The PRIMARY KEY columns of a WITHOUT ROWID table (None: the rowid is the key)."""
    if src.is_table and src.table.without_rowid:
        from sqlengine.schema import pk_index
        return list(pk_index(src.table).columns)
    return None


def _code_key(p, scope, src, rj):
    """The row key of ``src``'s current row as a record; its register."""
    from sqlengine.compiler.expr import code_column
    from sqlengine.compiler.resolve import ColRef
    b = p.b
    if rj.key_cols is None:
        base = b.alloc_reg()
        b.emit(O.OP_Rowid, src.cursor, base)
        n = 1
    else:
        n = len(rj.key_cols)
        base = b.alloc_reg(n)
        for k, c in enumerate(rj.key_cols):
            code_column(p, ColRef(src, c, scope, 0), base + k)
    rec = b.alloc_reg()
    b.emit(O.OP_MakeRecord, base, n, rec)
    return rec


def record_match(p, scope, lv) -> None:
    """The current row of the RIGHT JOIN table matched: into its match set (once)."""
    b = p.b
    rj = lv.rj
    rec = _code_key(p, scope, lv.src, rj)
    skip = b.new_label()
    b.emit(O.OP_Found, rj.match, skip, rec, 0)
    b.emit(O.OP_IdxInsert, rj.match, rec)
    b.resolve(skip)


def begin_interior(p, lv) -> None:
    """The subroutine the unmatched pass calls starts here (the ordinary pass runs
    through it with its return register NULL: only the pass sets it)."""
    lv.rj.sub = p.b.new_label()
    p.b.resolve(lv.rj.sub)


def end_interior(p, lv) -> None:
    """The end of the subroutine: back to the unmatched pass when it called, else on to
    the level's next row."""
    b = p.b
    on = b.new_label()
    b.emit(O.OP_IsNull, lv.rj.ret, on)
    b.emit(O.OP_Return, lv.rj.ret)
    b.resolve(on)


def unmatched_passes(p, info) -> None:
    """After the outermost loop: for each RIGHT JOIN table (left to right, so that rows a
    later RIGHT JOIN's table matches in an earlier pass count as matched), its rows not
    in the match set, each with the tables to its left on their NULL rows."""
    levels = info.levels
    for i, lv in enumerate(levels):
        if lv.rj is not None:
            _unmatched_pass(p, info.scope, levels, i)


def _unmatched_pass(p, scope, levels, i):
    b = p.b
    lv = levels[i]
    src = lv.src
    rj = lv.rj
    if p.eqp:  # (the RIGHT-JOIN line names a table, not its alias, as sqlite3's does)
        name = p.eqp_names.get(src.cursor, src.name)
        line = eqp_open(p, f"RIGHT-JOIN {src.table.name if src.is_table else name}")
        eqp_line(p, f"SCAN {name}")
        eqp_close(p, line)
    for outer in levels[:i]:
        b.emit(O.OP_NullRow, outer.src.cursor)
        if outer.icur >= 0 and outer.icur != outer.src.cursor:
            b.emit(O.OP_NullRow, outer.icur)
    if src.fill is not None:  # (a stored subquery whose loop the rows never reached)
        from sqlengine.compiler._where import fill_source
        fill_source(p, src)
    done = b.new_label()
    nxt = b.new_label()
    b.emit(O.OP_Rewind, src.cursor, done)
    top = b.addr()
    rec = _code_key(p, scope, src, rj)
    b.emit(O.OP_Found, rj.match, nxt, rec, 0)
    b.emit(O.OP_Gosub, rj.ret, rj.sub)
    b.resolve(nxt)
    b.emit(O.OP_Next, src.cursor, top)
    b.resolve(done)
