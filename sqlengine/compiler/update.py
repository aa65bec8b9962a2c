"""UPDATE: find the rows (through the planner), remember their rowids, then for each row
compute the new values from the old ones, check constraints, replace the index entries
and the record, firing BEFORE/AFTER UPDATE triggers with OLD and NEW bound. A simple one
(delete.one_pass, keeping the rowid, no REPLACE) rewrites each row where its loop finds
it, unless the loop walks an index whose entries it changes. This module emits code; it
never runs it.
"""

from __future__ import annotations

from sqlengine.compiler import returning, truefalse
from sqlengine.compiler.cte import push_with
from sqlengine.compiler.delete import code_row_key, collect_rowids, limited, loop_index, \
    one_pass, open_one_pass
from sqlengine.compiler.fkey import code_statement_start
from sqlengine.compiler.generated import code_read_row, has_generated
from sqlengine.compiler.expr import code_expr
from sqlengine.compiler.planner import check_indexed_by
from sqlengine.compiler.insert import (code_delete_keys, code_finish_row, code_write_row,
                                       conflict_action, open_write_cursors, table_for_write)
from sqlengine.compiler.resolve_order import update_error
from sqlengine.compiler.trigger import code_triggers, compile_view_update_delete, has_triggers
from sqlengine.compiler.update_from import compile_update_from
from sqlengine.compiler.upsert import code_after_before_triggers, code_new_row, set_assignments
from sqlengine.compiler.where import where_end
from sqlengine.errors import OperationalError
from sqlengine.sql.ast import Update
from sqlengine.sql.limits import MAX_COLUMN
from sqlengine.vdbe.opcodes import (AFF_REAL, OE_REPLACE, OP_Column, OP_Delete, OP_Eq,
    OP_Insert, OP_MakeRecord, OP_MustBeInt, OP_Next, OP_Noop, OP_NotExists, OP_OpenEphemeral,
    OP_RealAffinity, OP_Rewind, OP_Rowid, OP_SCopy)


def compile_update(p, st: Update):
    code_statement_start(p)  # foreign-key marks are per run of a statement
    n_set = 0
    for s in st.sets:
        n_set += len(s.columns)
    if n_set > MAX_COLUMN:  # a parse-time check
        raise OperationalError("too many columns in set list")
    if st.with_ is not None:
        push_with(p, st.with_, st)  # visible for the rest of this statement
    if st.order_by or st.limit is not None:
        st = limited(p, st, "UPDATE")
    table = table_for_write(p, st.table.name, st.table.schema)
    check_indexed_by(st.table, table)
    st = truefalse.bind_dml(st, table)
    p.write = True
    try:
        return _compile_update(p, st, table)
    except OperationalError as err:
        raise update_error(p, st, table, err) from None


def _compile_update(p, st, table):
    b = p.b
    if getattr(table, "is_view", False):
        return compile_view_update_delete(p, st, table, "UPDATE")
    rt = returning.start(p, table, st.returning)
    if st.from_ is not None:
        return compile_update_from(p, st, table)
    n = len(table.columns)
    assigns = set_assignments(table, st.sets)  # column number (-1 rowid) -> expr
    old = b.alloc_reg(n + 1)
    if _one_pass_update(p, table, st, assigns, rt):
        found = _code_one_pass(p, st, table, assigns, rt, old)
        if found is None:
            if rt is not None:
                rt.finish()
            return None
        eph, tcur, icurs, scope = found
    else:
        rcur = b.alloc_cursor()
        eph, scope = collect_rowids(p, table, st.table.alias, st.where, rcur, st.table)
        tcur, icurs = open_write_cursors(p, table)
        # the expressions read the row through the write cursor
        scope.sources[0].cursor = tcur
    done = b.new_label()
    b.emit(OP_Rewind, eph, done)
    top = b.addr()
    nxt = b.new_label()
    code_row_key(p, table, eph, old)
    b.emit(OP_NotExists, tcur, nxt, old)
    _code_row(p, st, table, tcur, icurs, scope, assigns, rt, old, nxt)
    b.resolve(nxt)
    b.emit(OP_Next, eph, top)
    b.resolve(done)
    if rt is not None:
        rt.finish()
    return None


def _code_one_pass(p, st, table, assigns, rt, old):
    """The loop of an UPDATE that ``_one_pass_update`` allows in one pass, updating each
    row where the loop finds it (SQLite's ONEPASS_MULTI); None when it did. When the loop
    walks an index whose entries the update changes, the loop only stores the rowids in an
    ephemeral table (opened before it, a Noop otherwise, as SQLite's update.c does):
    (its cursor, the table cursor, the index cursors, the scope) for the second loop."""
    b = p.b
    changed = changed_indexes(table, assigns)
    if changed:
        eph = b.alloc_cursor()
        open_eph = b.emit(OP_OpenEphemeral, eph, 1)
    tcur, icurs, scope, w = open_one_pass(p, table, st.table.alias, st.where, st.table)
    b.emit(OP_Rowid, tcur, old)
    if changed and loop_index(table, w) in changed:
        rec = b.alloc_reg()
        b.emit(OP_MakeRecord, old, 1, rec)
        b.emit(OP_Insert, eph, rec, old)
        where_end(p, w)
        return eph, tcur, icurs, scope
    if changed:
        b.ops[open_eph] = [OP_Noop, eph, 1, 0, None, 0, None]
    _code_row(p, st, table, tcur, icurs, scope, assigns, rt, old, w.levels[0].cont)
    where_end(p, w)
    return None


def _one_pass_update(p, table, st, assigns, rt) -> bool:
    """delete.one_pass, and the rowid stays, no constraint resolves by REPLACE (its
    deletions) and no generated column on a table with indexes: SQLite's conditions for
    a one-pass UPDATE (whose loop must then not walk an index the update changes:
    ``_code_one_pass``)."""
    if table.ipk in assigns or -1 in assigns or not one_pass(p, table, st.where, rt, "UPDATE"):
        return False
    if conflict_action(st.or_action, table.pk_conflict) == OE_REPLACE:
        return False
    for ix in table.indexes:
        if conflict_action(st.or_action, ix.conflict) == OE_REPLACE:
            return False
    return not (table.indexes and has_generated(table))


def _code_row(p, st, table, tcur, icurs, scope, assigns, rt, old, nxt):
    """The update of the row the table cursor is on (its rowid in ``old``): the new row,
    triggers, checks, the new index entries and record; ``nxt`` skips it. The SET
    expressions read the row through the cursor. Without triggers (nothing reads OLD) only
    the old values of the indexes the update changes are read into ``old``, and the
    other columns go straight from the record to their place in the new row, which is
    ``old``'s own registers when no old value is needed, as in SQLite."""
    b = p.b
    n = len(table.columns)
    same_rowid = not table.without_rowid and table.ipk not in assigns and -1 not in assigns
    trig = has_triggers(table, "UPDATE", p)
    if trig or table.without_rowid or has_generated(table):
        only = None
        new = b.alloc_reg(n + 1)
        code_read_row(p, table, tcur, old)
        cols = code_new_row(p, table, assigns, old, new,
                            lambda e, target: code_expr(p, scope, e, target))
    else:
        only = changed_indexes(table, assigns)
        need = _old_columns(table, only)
        new = old if same_rowid and not need else b.alloc_reg(n + 1)
        for i in sorted(need):
            _code_column(p, table, tcur, i, old + 1 + i)
        for i in range(n):
            if i in assigns:
                code_expr(p, scope, assigns[i], new if i == table.ipk else new + 1 + i)
            elif i == table.ipk:
                continue
            elif i in need:
                b.emit(OP_SCopy, old + 1 + i, new + 1 + i)
            else:
                _code_column(p, table, tcur, i, new + 1 + i)
        if -1 in assigns:
            code_expr(p, scope, assigns[-1], new)
        if not same_rowid:
            b.emit(OP_MustBeInt, new, 0)
        elif new != old:
            b.emit(OP_SCopy, old, new)
        cols = None
    if trig:
        code_triggers(p, table, "UPDATE", "BEFORE", new, old, nxt, cols,
                      or_action=st.or_action)
    now = code_after_before_triggers(p, table, tcur, assigns, old, new, nxt)
    keys = code_write_row(p, table, tcur, icurs, new, st.or_action, nxt, old_rowid=old,
                          same_rowid=same_rowid, only=only)
    # remove the old index entries, and the old record when the rowid changes
    code_delete_keys(p, table, icurs, now, old, only)
    if not same_rowid:
        same = b.new_label()
        b.emit(OP_Eq, old, same, new, None, 0)
        b.emit(OP_NotExists, tcur, same, old)
        b.emit(OP_Delete, tcur, 0)
        b.resolve(same)
    code_finish_row(p, table, tcur, icurs, new, keys, old_rowid=old)
    if rt is not None:
        rt.emit_row(new)
    if trig:
        code_triggers(p, table, "UPDATE", "AFTER", new, old, nxt, cols,
                      or_action=st.or_action)


def changed_indexes(table, assigns) -> set:
    """The positions in ``table.indexes`` of the indexes whose entry an UPDATE of the
    ``assigns`` columns (-1 the rowid) changes: all when the rowid changes, else those
    with an assigned column, and (not looked into) those on expressions or partial."""
    if -1 in assigns or table.ipk in assigns:
        return set(range(len(table.indexes)))
    out = set()
    for k, ix in enumerate(table.indexes):
        if ix.exprs is not None or ix.where is not None or _assigns_any(assigns, ix.columns):
            out.add(k)
    return out


def _assigns_any(assigns, columns) -> bool:
    """Whether ``assigns`` (column number -> expression) sets any of ``columns``."""
    for c in columns:
        if c in assigns:
            return True
    return False


def _old_columns(table, only) -> set:
    """The columns whose old value the old entries of the ``only`` indexes need."""
    need = set()
    ipk = table.ipk
    for k in only:
        ix = table.indexes[k]
        if ix.exprs is not None or ix.where is not None:
            return set(range(len(table.columns))) - {ipk}
        for c in ix.columns:
            if c != ipk:
                need.add(c)
    return need


def _code_column(p, table, cur, i, target):
    """Column ``i`` (stored, not the rowid alias) of the row under ``cur`` into ``target``."""
    b = p.b
    b.emit(OP_Column, cur, i, target)
    if table.columns[i].affinity == AFF_REAL:
        b.emit(OP_RealAffinity, target)
