"""DELETE: find the rows (through the planner), remember their rowids, then delete each
row with its index entries, firing BEFORE/AFTER DELETE triggers with OLD bound. A DELETE
without WHERE on a table without triggers clears the b-trees directly (SQLite's truncate
optimisation; the rows still count as changes); a simple one (see ``one_pass``) deletes
each row where its loop finds it. This module emits code; it never runs it.
"""

from __future__ import annotations

import dataclasses

from sqlengine.compiler import returning, truefalse, update_from
from sqlengine.compiler.attach import source_db
from sqlengine.compiler.cte import push_with
from sqlengine.compiler.fkey import code_statement_start
from sqlengine.compiler.generated import code_read_row
from sqlengine.compiler.planner import check_indexed_by, target_hint
from sqlengine.compiler.insert import code_delete_row, open_write_cursors, table_for_write
from sqlengine.compiler.resolve import Scope, table_source
from sqlengine.compiler.trigger import code_triggers, compile_view_update_delete, has_triggers
from sqlengine.compiler.walk import SUBQUERY_NODES, iter_children
from sqlengine.compiler.where import where_begin, where_end
from sqlengine.schema import pk_index
from sqlengine.sql.ast import (Between, Binary, Column, Delete, InList, InSelect, IsNull,
    Literal, ResultColumn, RowValue, Select, SelectCore, TableRef, Unary)
from sqlengine.vdbe.opcodes import (OP_Clear, OP_Column, OP_IdxInsert, OP_Insert,
    OP_MakeRecord, OP_Next, OP_NotExists, OP_OpenEphemeral, OP_OpenRead, OP_OpenWrite,
    OP_Rewind, OP_Rowid)
from sqlengine.vdbe.sorter import SortSpec

_OPEN_READ = frozenset((OP_OpenRead,))


def one_pass(p, table, where, rt, event) -> bool:
    """Whether a DELETE or UPDATE may change each row where its loop finds it, in one pass
    over the write cursor (SQLite's ONEPASS_MULTI): a rowid table, no trigger (foreign-key
    checks and actions are triggers here), no RETURNING, no subquery in the WHERE (it
    could read the table being changed), not inside a trigger. The b-tree cursor then goes
    on from the entry after the one deleted or rewritten; an index the loop walks keeps its
    place through the peer-cursor saves (a DELETE deletes from it through the loop's own
    cursor: ``_walked_index``)."""
    if table.without_rowid or rt is not None or p.nested or has_triggers(table, event, p):
        return False
    return not _has_subquery(where)


def _has_subquery(e) -> bool:
    """Whether a subquery is anywhere under ``e`` (a walk by an explicit stack: the
    corpus's long WHEREs made find_node's recursion of generators a sixth of a DELETE's
    compile time). The nodes such a WHERE is made of (comparisons, AND/OR, IS NULL,
    BETWEEN, IN lists, columns and literals) are opened by their fields here; any other
    goes through walk.iter_children, a generator per node."""
    if e is None:  # (no WHERE)
        return False
    stack = [e]
    while stack:
        e = stack.pop()
        t = type(e)
        if t is Binary:
            stack.append(e.left)
            stack.append(e.right)
        elif t is Column or t is Literal:
            pass
        elif t is Unary:
            stack.append(e.operand)
        elif t is IsNull:
            stack.append(e.expr)
        elif t is InList:
            stack.append(e.expr)
            stack.extend(e.items)
        elif t is Between:
            stack.append(e.expr)
            stack.append(e.low)
            stack.append(e.high)
        elif isinstance(e, SUBQUERY_NODES):
            return True
        else:
            stack.extend(iter_children(e))
    return False


def open_one_pass(p, table, alias, where, ref=None):
    """The write cursors and the loop of a one-pass DELETE/UPDATE: (table cursor, index
    cursors, scope, WhereInfo); the loop's body runs with the table cursor on the row.
    ``ref``: the statement's target, whose INDEXED BY / NOT INDEXED the loop obeys."""
    tcur, icurs = open_write_cursors(p, table)
    src = table_source(alias or table.name, tcur, table)
    src.db = source_db(p.db, table)
    scope = Scope([src])
    return tcur, icurs, scope, where_begin(p, scope, where, {}, core=target_hint(ref),
                                           open_cursors=False)


def loop_index(table, w) -> int:
    """The position in ``table.indexes`` of the index the one-table loop ``w`` walks
    (an index access of one of the table's indexes), else -1."""
    if len(w.levels) != 1:
        return -1
    acc = w.levels[0].access
    if acc.kind != "index":
        return -1
    k = 0
    for idx in table.indexes:
        if idx is acc.index:
            return k
        k += 1
    return -1


def _walked_index(p, table, w):
    """(position in ``table.indexes``, cursor) of the index a one-pass DELETE's loop walks
    with a cursor of its own, which is then opened for writing: the row's entry in that
    index is the one under the cursor, deleted there without a seek, and the loop goes on
    from the entry after it (SQLite's iIdxNoSeek). None for any other loop."""
    k = loop_index(table, w)
    if k < 0:
        return None
    lv = w.levels[0]
    if lv.icur == lv.src.cursor:
        return None
    b = p.b
    opens = b.cursor_uses(lv.icur, _OPEN_READ)
    if len(opens) != 1:
        return None
    b.ops[opens[0][0]][0] = OP_OpenWrite
    return k, lv.icur


def collect_rowids(p, table, alias, where, tcur, ref=None):
    """Loop over the rows matching ``where`` and store their rowids in a new ephemeral
    table; returns its cursor (``ref``: as for open_one_pass)."""
    b = p.b
    eph = b.alloc_cursor()
    if table.without_rowid:
        # the PRIMARY KEYs, in an ephemeral index ordered as the table (sqlite3's second
        # pass visits the rows in that order)
        pk = pk_index(table)
        n = len(pk.columns)
        colls = [p.collation(pk.collations[j] or table.columns[c].collation)
                 for j, c in enumerate(pk.columns)]
        b.emit(OP_OpenEphemeral, eph, n, 0, SortSpec(n, colls, pk.desc))
    else:
        b.emit(OP_OpenEphemeral, eph, 1)
    src = table_source(alias or table.name, tcur, table)
    src.db = source_db(p.db, table)
    scope = Scope([src])
    w = where_begin(p, scope, where, {}, core=target_hint(ref))
    rec = b.alloc_reg()
    if table.without_rowid:
        r = b.alloc_reg(n)
        for j in range(n):  # the key's fields lead the table's record
            b.emit(OP_Column, tcur, j, r + j)
        b.emit(OP_MakeRecord, r, n, rec)
        b.emit(OP_IdxInsert, eph, rec)
    else:
        r = b.alloc_reg()
        b.emit(OP_Rowid, tcur, r)
        b.emit(OP_MakeRecord, r, 1, rec)
        b.emit(OP_Insert, eph, rec, r)
    where_end(p, w)
    return eph, scope


def code_row_key(p, table, eph, target):
    """``target`` = the row key of the current entry of ``collect_rowids``'s set: its
    rowid, or for a WITHOUT ROWID table the tuple of its PRIMARY KEY (what Rowid gives)."""
    b = p.b
    if not table.without_rowid:
        b.emit(OP_Column, eph, 0, target)
        return
    n = len(pk_index(table).columns)
    r = b.alloc_reg(n)
    for j in range(n):
        b.emit(OP_Column, eph, j, r + j)
    b.emit(OP_MakeRecord, r, n, target)


def limited(p, st, kind):
    """``st`` with its ORDER BY/LIMIT folded into its WHERE (update_from.limited), the rows
    of a WITHOUT ROWID table named by their PRIMARY KEY instead of a rowid:
    ``(k1, k2) IN (SELECT k1, k2 FROM target WHERE ... ORDER BY ... LIMIT ...)``."""

    t = p.schema.table(st.table.name) if st.limit is not None else None
    if t is None or not t.without_rowid or getattr(st, "from_", None) is not None:
        return update_from.limited(st, kind)  # (UPDATE ... FROM limits its join's rows)
    ref = st.table
    qual = ref.alias or ref.name
    names = [t.columns[c].name for c in pk_index(t).columns]
    inner = TableRef(ref.name, ref.schema, ref.alias, ref.indexed_by, ref.not_indexed)
    core = SelectCore(columns=[ResultColumn(Column(n, qual)) for n in names],
                      from_=inner, where=st.where)
    sub = Select(body=core, order_by=st.order_by, limit=st.limit, offset=st.offset)
    keys = [Column(n, qual) for n in names]
    lhs = keys[0] if len(keys) == 1 else RowValue(keys)
    return dataclasses.replace(st, where=InSelect(lhs, sub), order_by=None, limit=None,
                               offset=None)


def compile_delete(p, st: Delete):
    b = p.b
    code_statement_start(p)  # foreign-key marks are per run of a statement
    if st.with_ is not None:
        push_with(p, st.with_, st)  # visible for the rest of this statement
    if st.order_by or st.limit is not None:
        st = limited(p, st, "DELETE")
    table = table_for_write(p, st.table.name, st.table.schema)
    check_indexed_by(st.table, table)
    st = truefalse.bind_dml(st, table)
    p.write = True
    if getattr(table, "is_view", False):
        return compile_view_update_delete(p, st, table, "DELETE")
    rt = returning.start(p, table, st.returning)
    if st.where is None and not has_triggers(table, "DELETE", p) and p.nested == 0 and rt is None:
        b.emit(OP_Clear, table.root, 1)
        for idx in table.indexes:
            if idx.root != table.root:  # (a WITHOUT ROWID table's key is the table)
                b.emit(OP_Clear, idx.root, 0)
        return None
    if one_pass(p, table, st.where, rt, "DELETE"):
        tcur, icurs, _scope, w = open_one_pass(p, table, st.table.alias, st.where, st.table)
        old = b.alloc_reg(len(table.columns) + 1)
        b.emit(OP_Rowid, tcur, old)
        code_delete_row(p, table, tcur, icurs, old, count=True, no_seek=_walked_index(p, table, w))
        where_end(p, w)
        return None
    # pass 1: rowids (reading through a read cursor of its own)
    rcur = b.alloc_cursor()
    eph, _scope = collect_rowids(p, table, st.table.alias, st.where, rcur, st.table)
    tcur, icurs = open_write_cursors(p, table)
    n = len(table.columns)
    done = b.new_label()
    b.emit(OP_Rewind, eph, done)
    top = b.addr()
    nxt = b.new_label()
    old = b.alloc_reg(n + 1)
    code_row_key(p, table, eph, old)
    b.emit(OP_NotExists, tcur, nxt, old)
    trig = has_triggers(table, "DELETE", p)
    if trig or rt is not None:
        code_read_row(p, table, tcur, old)
    if trig:
        code_triggers(p, table, "DELETE", "BEFORE", None, old, nxt)
        b.emit(OP_NotExists, tcur, nxt, old)
    if rt is not None:
        rt.emit_row(old)
    code_delete_row(p, table, tcur, icurs, old, count=True)
    if trig:
        code_triggers(p, table, "DELETE", "AFTER", None, old, nxt)
    b.resolve(nxt)
    b.emit(OP_Next, eph, top)
    b.resolve(done)
    if rt is not None:
        rt.finish()
    return None
