"""UPDATE ... FROM, and UPDATE / DELETE with ORDER BY and LIMIT.

UPDATE FROM works as in SQLite: a join of the target table with the FROM items computes,
for each target row it matches, the target's rowid and every SET value (reading the old
row and the FROM tables); those rows are kept in an ephemeral table, then each target row
is updated once (the first match wins) through the usual UPDATE row code.

ORDER BY / LIMIT / OFFSET on UPDATE and DELETE (SQLITE_ENABLE_UPDATE_DELETE_LIMIT, which
the reference build has) choose the rows first: the statement becomes one whose WHERE is
``rowid IN (SELECT rowid FROM target WHERE ... ORDER BY ... LIMIT ...)``.

This module emits code; it never runs it.
"""

from __future__ import annotations

import dataclasses

from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O
from sqlengine.vdbe.sorter import SortSpec


def limited(st, kind: str):
    """``st`` (an Update or Delete) with its ORDER BY/LIMIT folded into its WHERE."""
    if st.limit is None:
        raise OperationalError(f"ORDER BY without LIMIT on {kind}")
    ref = st.table
    inner_ref = A.TableRef(ref.name, ref.schema, ref.alias, ref.indexed_by, ref.not_indexed)
    qual = ref.alias or ref.name
    core = A.SelectCore(columns=[A.ResultColumn(A.Column("rowid", qual))], from_=inner_ref,
                        where=st.where)
    sub = A.Select(body=core, order_by=st.order_by, limit=st.limit, offset=st.offset)
    where = A.InSelect(A.Column("rowid", qual), sub)
    return dataclasses.replace(st, where=where, order_by=None, limit=None, offset=None)


def _from_names(f, out):
    if isinstance(f, A.Join):
        _from_names(f.left, out)
        _from_names(f.right, out)
    elif isinstance(f, A.TableRef) and f.schema is None:
        out.append(f.name.lower())
    return out


def _prepend(target, f):
    """The FROM clause ``target, f`` as a left-deep join."""
    if isinstance(f, A.Join):
        return dataclasses.replace(f, left=_prepend(target, f.left))
    return A.Join(target, f, ",")


def compile_update_from(p, st, table):
    """The code of UPDATE ... FROM on ``table`` (a real table)."""
    from sqlengine.compiler.insert import open_write_cursors
    from sqlengine.compiler.select import TableDest, compile_select
    from sqlengine.compiler.upsert import code_update_row, set_assignments
    b = p.b
    ref = st.table
    qual = ref.alias or ref.name
    if qual.lower() in _from_names(st.from_, []):
        raise OperationalError(f"target object/alias may not appear in FROM clause: {qual}")
    assigns = set_assignments(table, st.sets)
    keys = sorted(assigns)
    target = A.TableRef(ref.name, ref.schema, ref.alias, ref.indexed_by, ref.not_indexed)
    cols = [A.ResultColumn(A.Column("rowid", qual))]
    cols += [A.ResultColumn(assigns[k]) for k in keys]
    core = A.SelectCore(columns=cols, from_=_prepend(target, st.from_), where=st.where)
    sel = A.Select(body=core)
    eph = b.alloc_cursor()
    b.emit(O.OP_OpenEphemeral, eph, len(cols))
    compile_select(p, sel, TableDest(eph))
    tcur, icurs = open_write_cursors(p, table)
    seen = b.alloc_cursor()
    b.emit(O.OP_OpenEphemeral, seen, 1, 0, SortSpec(1, [None]))
    done = b.new_label()
    b.emit(O.OP_Rewind, eph, done)
    top = b.addr()
    nxt = b.new_label()
    regs = b.alloc_reg(len(cols))
    b.emit(O.OP_Column, eph, 0, regs)
    b.emit(O.OP_Found, seen, nxt, regs, 1)
    rec = b.alloc_reg()
    b.emit(O.OP_MakeRecord, regs, 1, rec)
    b.emit(O.OP_IdxInsert, seen, rec)
    values = {}
    for j, k in enumerate(keys):
        b.emit(O.OP_Column, eph, j + 1, regs + 1 + j)
        values[k] = regs + 1 + j
    code_update_row(p, table, tcur, icurs, regs, values, None, None, nxt, st.or_action)
    b.resolve(nxt)
    b.emit(O.OP_Next, eph, top)
    b.resolve(done)
    rt = getattr(p, "returning", None)
    if rt is not None:
        rt.finish()
