"""Triggers: the bodies of BEFORE / AFTER / INSTEAD OF triggers coded inline around each
row a statement writes, with NEW and OLD bound to the row's registers, the WHEN clause,
RAISE(IGNORE) skipping the row, and recursion as SQLite's: with recursive_triggers off
a trigger never fires from inside itself; with it on, its statements fire it again
through a sub-program of its own (``OP_Program``, which the VM runs in a frame of its
own, to the connection's trigger depth limit), compiled once per statement.

Also INSERT / UPDATE / DELETE on a view, which only INSTEAD OF triggers make possible.
This module emits code; it never runs it.
"""

from __future__ import annotations

import dataclasses

from sqlengine import schema as S
from sqlengine.compiler._resolve import COLUMN_NAMES
from sqlengine.compiler import autoinc, returning
from sqlengine.compiler.attach import find
from sqlengine.compiler.cte import schema_scope
from sqlengine.compiler.expr import code_expr, if_false
from sqlengine.compiler.fkey import key_error, triggers_for
from sqlengine.compiler.resolve import ColRef, ResolvedColumn, Scope, Source
from sqlengine.compiler.setrow import set_exprs
from sqlengine.compiler.select import (CallbackDest, TableDest, _dedupe, compile_select,
                                       result_info_only)
from sqlengine.compiler.walk import map_children, map_value
from sqlengine.errors import OperationalError
from sqlengine.sql.limits import MAX_TRIGGER_DEPTH
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O
from sqlengine.vdbe.opcodes import AFF_NONE


def _matching(table, event, timing, update_cols, p=None):
    """The triggers of ``table`` that fire for ``event`` at ``timing``, in SQLite's order
    (sqlite3TriggerList): the table's own the most recently made first, after the temp
    triggers on a main table (in the order made: SQLite's follows its hash table), then the
    foreign-key actions."""
    out = []
    own = getattr(table, "triggers", ())
    if own and p is not None and getattr(p, "no_user_triggers", False):
        own = ()    # DROP TABLE's implicit DELETE (fkey.code_drop_table)
    for tr in _in_order(p, list(own)) + list(triggers_for(p, table)):
        if tr.event != event or tr.timing != timing:
            continue
        if event == "UPDATE" and tr.update_columns and update_cols is not None:
            names = {c.lower() for c in tr.update_columns}
            if not names & update_cols:
                continue
        out.append(tr)
    return out


def _in_order(p, triggers):
    """``triggers`` (a table's, in the order made; temp ones on a main table last) in the
    order they fire."""
    temp = None
    if p is not None and len(triggers) > 1 and p.db.attached:
        att = find(p.db, "temp")
        if att is not None:
            ts = att.db.schema
            temp = [tr for tr in triggers if ts.triggers.get(tr.name.lower()) is tr and
                    tr.table.lower() not in ts.tables and tr.table.lower() not in ts.views]
    if not temp:
        return triggers[::-1]
    return temp + [tr for tr in triggers if tr not in temp][::-1]


def has_triggers(table, event, p=None):
    """Whether ``table`` has an ``event`` trigger, its own or a foreign key's (asked by
    every INSERT, UPDATE and DELETE: plain loops, no generators)."""
    for tr in getattr(table, "triggers", ()):
        if tr.event == event:
            return True
    for tr in triggers_for(p, table):
        if tr.event == event:
            return True
    return False


def has_timing(p, table, event, timing) -> bool:
    """Whether ``table`` has a ``timing`` ``event`` trigger that would fire here."""
    return any(tr.name.lower() not in p.trigger_stack or _recurses(p, tr)
               for tr in _matching(table, event, timing, None, p))


def replace_fires_triggers(p, table) -> bool:
    """Whether the rows a REPLACE conflict resolution deletes from ``table`` fire its
    DELETE triggers: only with recursive_triggers on (lang_conflict.html)."""
    return bool(getattr(p.db, "recursive_triggers", 0)) and \
        any(tr.event == "DELETE" for tr in getattr(table, "triggers", ()))


def _recurses(p, tr) -> bool:
    """Whether ``tr``, being coded already (its own statements fire it), fires again:
    recursive_triggers is on (SQLite's SQLITE_RecTriggers, read when the statement is
    prepared) and it is a user's trigger (foreign-key actions are fkey.py's, which codes
    their cascades itself)."""
    return bool(getattr(p.db, "recursive_triggers", 0)) and \
        not tr.name.lower().startswith("sqlite_")


def code_triggers(p, table, event, timing, new_base, old_base, skip_label, update_cols=None,
                  or_action=None, single_row=False):
    """Code every ``timing`` ``event`` trigger of ``table`` for the current row;
    ``or_action``: the OR clause of the statement that fires them, which overrides the
    conflict clause of each INSERT and UPDATE in their bodies (SQLite's eOrconf). The
    AFTER triggers come with the foreign keys' look-ups, which may fail the statement
    (fkey.key_error, but not in DROP TABLE's implicit DELETE, where SQLite reports
    none; ``single_row``: an INSERT SQLite codes as one row)."""
    if timing == "AFTER" and getattr(p.db, "foreign_keys", 0) and \
            not getattr(p, "no_user_triggers", False):
        msg = key_error(p, table, event, update_cols, single_row and p.nested == 0)
        if msg is not None:
            raise OperationalError(msg)
    for tr in _matching(table, event, timing, update_cols, p):
        if not tr.body:
            continue
        if tr.name.lower() in p.trigger_stack:
            if _recurses(p, tr):
                _code_call(p, tr, table, new_base, old_base, skip_label, or_action)
            continue
        _code_one(p, tr, table, new_base, old_base, skip_label, or_action)


def _depth_checked(p) -> bool:
    """Whether a trigger coded inline checks the depth limit when it fires: when triggers
    may recurse, or the limit was lowered (a change of the limit prepares the statements
    again: Database.set_limit); else no chain of triggers reaches it."""
    db = p.db
    return bool(getattr(db, "recursive_triggers", 0)) or \
        getattr(db, "max_trigger_depth", MAX_TRIGGER_DEPTH) < MAX_TRIGGER_DEPTH


def _row_width(table):
    """The registers of a row NEW or OLD names: the rowid, then each column."""
    if hasattr(table, "columns"):
        return len(table.columns) + 1
    return len(table.col_names) + 1


def _code_call(p, tr, table, new_base, old_base, skip_label, or_action):
    """``tr`` fired from inside itself: an OP_Program running its sub-program with this
    row's NEW and OLD registers copied into the sub-program's; a RAISE(IGNORE) there
    skips the row (``skip_label``). P3 counts the trigger frames coded inline around the
    call, which the VM adds to its frames' count for the depth limit."""
    autoincs = getattr(p, "autoincs", None) or {}
    key = (id(tr), or_action, new_base is None, old_base is None, tuple(sorted(autoincs)))
    subs = getattr(p, "trigger_programs", None)
    if subs is None:
        subs = p.trigger_programs = {}
    sub = subs.get(key)
    if sub is None:
        sub = subs[key] = _sub_program(p, tr, table, new_base is not None,
                                       old_base is not None, or_action, key)
    holder, sub_new, sub_old, sub_seqs = sub
    width = _row_width(table)
    copies = [(src, dst, width) for src, dst in ((new_base, sub_new), (old_base, sub_old))
              if src is not None]
    back = []
    for name, reg in sub_seqs:
        copies.append((autoincs[name].reg, reg, 1))
        back.append((reg, autoincs[name].reg, 1))
    p.b.emit(O.OP_Program, 0, skip_label, len(p.trigger_stack),
             (holder, tuple(copies), tuple(back)))


def _sub_program(p, tr, table, has_new, has_old, or_action, key):
    """The sub-program of ``tr`` (SQLite's TriggerPrg): its body coded as ``_code_one``
    codes it inline, in a program of its own whose first registers take NEW and OLD; the
    triggers its statements fire are coded inline in it, and a call of one being coded
    already (``tr`` itself among them) is again an OP_Program. Returns (holder, new base,
    old base, sequences), the holder a list whose item is the Program once compiled (a
    call of it from its own body is coded before it is done), the sequences (table name,
    register) of the AUTOINCREMENT values that INSERTs around the call keep (SQLite's
    sub-programs use the top frame's): the call copies each in and back out."""
    from sqlengine.compiler._codegen import ProgramBuilder
    width = _row_width(table)
    outer = getattr(p, "autoincs", None) or {}
    saved = (p.b, p.trigger_stack, getattr(p, "autoincs", None),
             getattr(p, "partial_flags", None))
    b = p.b = ProgramBuilder.__new__(ProgramBuilder)
    holder: list = [None]
    sub_new = b.alloc_reg(width) if has_new else None
    sub_old = b.alloc_reg(width) if has_old else None
    seqs = {}
    for name in sorted(outer):
        seqs[name] = autoinc.shared_in(outer[name], b.alloc_reg())
    sub = (holder, sub_new, sub_old, tuple((name, ai.reg) for name, ai in seqs.items()))
    p.trigger_programs[key] = sub
    # (a frame's own registers: none of the outer statement's partial-index flags)
    p.trigger_stack = ()
    p.autoincs = seqs
    p.partial_flags = None
    try:
        init = b.emit(O.OP_Init, 0, 0)
        ignore = b.new_label()
        _code_one(p, tr, table, sub_new, sub_old, ignore, or_action)
        b.emit(O.OP_Halt, 0, 0)
        b.resolve(ignore)
        b.emit(O.OP_Halt, 0, O.OE_IGNORE)
        b.change_p2(init, b.addr())
        b.emit_consts()
        b.emit(O.OP_Goto, 0, init + 1)
        holder[0] = b.finish()
    finally:
        p.b, p.trigger_stack, p.autoincs, p.partial_flags = saved
    return sub


def _code_one(p, tr, table, new_base, old_base, skip_label, or_action=None):
    from sqlengine.compiler.delete import compile_delete
    from sqlengine.compiler.insert import compile_insert
    from sqlengine.compiler.update import compile_update
    b = p.b
    if _depth_checked(p):  # (SQLite's OP_Program checks every trigger's depth)
        b.emit(O.OP_Program, 0, 0, len(p.trigger_stack), None)
    saved = (p.trigger_ctx, p.trigger_ignore)
    p.trigger_stack += (tr.name.lower(),)
    p.trigger_ctx = (new_base, old_base, table)
    p.trigger_ignore = skip_label
    p.nested += 1
    end = b.new_label()
    # Each firing is a fresh run of the body, as SQLite's trigger sub-program: what the
    # body computes once (a subquery, an automatic index) is computed again per row.
    once_addrs: list = []
    reset = b.alloc_reg()
    reset_addr = b.emit(O.OP_Function, 0, reset, reset, _once_resetter(once_addrs), 0)
    first = b.addr()
    when, body = bind_new_old(tr, table, new_base, old_base)
    try:
        with schema_scope(p, tr, "triggers"):
            if when is not None:
                if_false(p, None, when, end, True)
            for st in body:
                if or_action and isinstance(st, (A.Insert, A.Update)):
                    st = dataclasses.replace(st, or_action=or_action)
                if isinstance(st, A.Insert):
                    compile_insert(p, st)
                elif isinstance(st, A.Update):
                    compile_update(p, st)
                elif isinstance(st, A.Delete):
                    compile_delete(p, st)
                elif isinstance(st, A.Select):
                    compile_select(p, st, CallbackDest(lambda base, n: None))
                else:
                    raise OperationalError("unsupported statement in trigger")
    finally:
        b.resolve(end)
        p.nested -= 1
        p.trigger_stack = p.trigger_stack[:-1]
        p.trigger_ctx, p.trigger_ignore = saved
    once_addrs.extend(a for a in range(first, b.addr()) if b.ops[a][0] == O.OP_Once)
    if not once_addrs:  # nothing to reset: no call per row
        b.ops[reset_addr][0] = O.OP_Noop
        b.ops[reset_addr][4] = None


def _once_resetter(addrs):
    def reset(vm, args):
        once = vm.once
        if once is not None:  # (None: no Once has run yet)
            for a in addrs:
                once[a] = False
        return None
    return reset


def bind_new_old(tr, table, new_base, old_base):
    """The trigger's WHEN and body with NEW.x / OLD.x as columns of two row sources whose
    values sit in the registers of the row, so that they carry the column's collation into
    comparisons as in SQLite (and no affinity, as there). On a view they stay names."""
    if getattr(table, "is_view", False) or not hasattr(table, "columns"):
        return tr.when, tr.body
    cols = table.columns
    names = [c.name for c in cols]
    scope = Scope([])
    sources = {}
    for key, base, cursor in (("new", new_base, -7001), ("old", old_base, -7002)):
        if base is None:
            continue
        # a collation but no affinity: SQLite's TK_TRIGGER has the one, not the other
        src = Source(key, cursor, names, [AFF_NONE] * len(cols),
                     [c.collation for c in cols], [c.type_name for c in cols], table=table)
        for i in range(len(cols)):
            scope.overrides[(cursor, i)] = base if i == table.ipk else base + 1 + i
        scope.overrides[(cursor, -1)] = base
        sources[key] = src

    def ref_of(e):
        src = sources.get(e.table.lower())
        if src is None:
            return None
        i = src.find(e.name)
        if i is None:
            if table.without_rowid and e.name.lower() in ("rowid", "oid", "_rowid_"):
                raise OperationalError(f"no such column: {e.table}.{e.name}")
            return None
        return ResolvedColumn(ColRef(src, i, scope, 0))

    def walk(x):
        if type(x) is A.Column:
            if x.table is not None and x.schema is None and x.table.lower() in ("new", "old"):
                r = ref_of(x)
                if r is not None:
                    return r
            return x
        return map_children(x, walk)
    return map_value(tr.when, walk), map_value(tr.body, walk)


def _view_columns(p, view):
    with schema_scope(p, view):
        info = result_info_only(p, view.select, naming=COLUMN_NAMES)
    return _dedupe(view.columns if view.columns else info.names)


def _view_returning(p, view, items):
    """RETURNING of an INSERT, UPDATE or DELETE on a view (SQLite 3.40 returns its rows
    there too), over a Table standing for the view: its columns, their declared types."""
    if not items:
        return None
    with schema_scope(p, view):
        info = result_info_only(p, view.select)
    t = S.Table(view.name, None, None)
    for i, name in enumerate(_view_columns(p, view)):
        decl = info.decltypes[i] if i < len(info.decltypes) else None
        t.columns.append(S.ColumnInfo(name, decl))
        t.col_index.setdefault(name.lower(), i)
    t.is_view = True  # (its rows hold the values as given: no IntReal)
    return returning.start(p, t, items)


class _ViewShape:
    """What NEW./OLD. resolution needs to know about a view's columns."""
    is_view = True

    def __init__(self, name, cols):
        self.name = name
        self.col_names = cols


def view_shape(p, view):
    """What NEW. and OLD. name in an INSTEAD OF trigger of ``view`` (its columns)."""
    shape = _ViewShape(view.name, _view_columns(p, view))
    shape.triggers = view.triggers
    return shape


def compile_view_insert(p, st, view):
    b = p.b
    if not any(tr.event == "INSERT" and tr.timing == "INSTEAD OF" for tr in view.triggers):
        raise OperationalError(f"cannot modify {view.name} because it is a view")
    cols = _view_columns(p, view)
    n = len(cols)
    shape = _ViewShape(view.name, cols)
    shape.triggers = view.triggers
    if st.columns is not None:
        pos = []
        for c in st.columns:
            for i, vc in enumerate(cols):  # noqa: B007
                if vc.lower() == c.lower():
                    break
            else:
                raise OperationalError(f"table {view.name} has no column named {c}")
            pos.append(i)
    else:
        pos = list(range(n))
    base = b.alloc_reg(n + 1)
    skip = b.new_label()
    rt = _view_returning(p, view, st.returning)

    def row(src_base, count):
        if count != len(pos):
            raise OperationalError(
                f"table {view.name} has {n} columns but {count} values were supplied")
        b.emit(O.OP_Integer, -1, base)  # (NEW.rowid of a view's row: -1, as in SQLite)
        b.emit(O.OP_Null, 0, base + 1, base + n)
        for j, i in enumerate(pos):
            b.emit(O.OP_SCopy, src_base + j, base + 1 + i)
        rowskip = b.new_label()
        code_triggers(p, shape, "INSERT", "INSTEAD OF", base, None, rowskip)
        b.resolve(rowskip)
        if rt is not None:
            rt.emit_row(base)
    if st.source is None:
        row(base, 0) if not pos else None
    elif isinstance(st.source.body, A.Values):
        for r in st.source.body.rows:
            tmp = b.alloc_reg(max(len(r), 1))
            for j, e in enumerate(r):
                code_expr(p, None, e, tmp + j)
            row(tmp, len(r))
    else:
        compile_select(p, st.source, CallbackDest(row))
    b.resolve(skip)
    if rt is not None:
        rt.finish()


def compile_view_update_delete(p, st, view, event):
    """UPDATE / DELETE on a view: loop over the view's rows matching WHERE and fire the
    INSTEAD OF triggers."""
    b = p.b
    changed = {c.lower() for s in st.sets for c in s.columns} if event == "UPDATE" else None
    # an INSTEAD OF UPDATE OF x trigger counts only when the statement sets x
    if not any(tr.event == event and tr.timing == "INSTEAD OF" and (
            changed is None or not tr.update_columns
            or changed & {c.lower() for c in tr.update_columns}) for tr in view.triggers):
        raise OperationalError(f"cannot modify {view.name} because it is a view")
    cols = _view_columns(p, view)
    n = len(cols)
    shape = _ViewShape(view.name, cols)
    shape.triggers = view.triggers
    old = b.alloc_reg(n + 1)
    new = b.alloc_reg(n + 1) if event == "UPDATE" else None
    rt = _view_returning(p, view, st.returning)
    # (3.40's RETURNING of an UPDATE on a view sees the SET columns alone, the others NULL)
    ret = b.alloc_reg(n + 1) if rt is not None and new is not None else old
    sel_cols = [A.ResultColumn(A.Column(c)) for c in cols]
    pairs = []  # (column name, expression) of each column the SET clauses assign
    if event == "UPDATE":
        for s in st.sets:
            for c in s.columns:
                if not any(c.lower() == vc.lower() for vc in cols):
                    raise OperationalError(f"no such column: {c}")
        for s in st.sets:
            pairs += zip(s.columns, set_exprs(s))
        sel_cols += [A.ResultColumn(e) for _c, e in pairs]
    sel = A.Select(A.SelectCore(sel_cols, from_=A.TableRef(view.name, alias=st.table.alias),
                                where=st.where))

    eph = b.alloc_cursor()

    def row(base, count):
        # (the rowid: the row's number among the view's rows matched, as SQLite's)
        b.emit(O.OP_Rowid, eph, old)
        b.emit(O.OP_Copy, base, old + 1, n - 1)
        if new is not None:
            b.emit(O.OP_SCopy, old, new)
            b.emit(O.OP_Copy, base, new + 1, n - 1)
            for k, (c, _e) in enumerate(pairs):
                i = [vc.lower() for vc in cols].index(c.lower())
                b.emit(O.OP_SCopy, base + n + k, new + 1 + i)
        rowskip = b.new_label()
        code_triggers(p, shape, event, "INSTEAD OF", new, old, rowskip)
        b.resolve(rowskip)
        if rt is not None:
            if ret is not old:
                b.emit(O.OP_Null, 0, ret + 1, ret + n)
                b.emit(O.OP_SCopy, old, ret)
                for k, (c, _e) in enumerate(pairs):
                    i = [vc.lower() for vc in cols].index(c.lower())
                    b.emit(O.OP_SCopy, base + n + k, ret + 1 + i)
            rt.emit_row(ret)
    # materialise first: the triggers may change the tables under the view
    width = len(sel_cols)
    b.emit(O.OP_OpenEphemeral, eph, width)
    compile_select(p, sel, TableDest(eph))
    done = b.new_label()
    b.emit(O.OP_Rewind, eph, done)
    top = b.addr()
    regs = b.alloc_reg(width)
    for j in range(width):
        b.emit(O.OP_Column, eph, j, regs + j)
    row(regs, width)
    b.emit(O.OP_Next, eph, top)
    b.resolve(done)
    if rt is not None:
        rt.finish()
    _ = code_expr
    _ = CallbackDest
