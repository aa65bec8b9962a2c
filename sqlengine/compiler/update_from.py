"""UPDATE ... FROM, and UPDATE / DELETE with ORDER BY and LIMIT.

UPDATE FROM works as in SQLite: a join of the target table with the FROM items computes,
for each target row it matches, the target's rowid and every SET value (reading the old
row and the FROM tables); those rows are kept in an ephemeral table, then each target row
is updated once (the first match wins) through the usual UPDATE row code.

ORDER BY / LIMIT / OFFSET on UPDATE and DELETE (SQLITE_ENABLE_UPDATE_DELETE_LIMIT, which
the reference build has) choose the rows first: the statement becomes one whose WHERE is
``rowid IN (SELECT rowid FROM target WHERE ... ORDER BY ... LIMIT ...)``; with FROM they
limit the rows of the join instead.

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
    if getattr(st, "from_", None) is not None:
        return st  # UPDATE ... FROM limits its join's rows (compile_update_from)
    ref = st.table
    inner_ref = A.TableRef(ref.name, ref.schema, ref.alias, ref.indexed_by, ref.not_indexed)
    qual = ref.alias or ref.name
    core = A.SelectCore(columns=[A.ResultColumn(A.Column("rowid", qual))], from_=inner_ref,
                        where=st.where)
    sub = A.Select(body=core, order_by=st.order_by, limit=st.limit, offset=st.offset)
    where = A.InSelect(A.Column("rowid", qual), sub)
    return dataclasses.replace(st, where=where, order_by=None, limit=None, offset=None)


def _from_names(f, out):
    """The (name, alias) of every table named in FROM clause ``f``, lower-cased."""
    if isinstance(f, A.Join):
        _from_names(f.left, out)
        _from_names(f.right, out)
    elif type(f) is A.TableRef:
        out.append((f.name.lower(), f.alias.lower() if f.alias else None))
    return out


def _has_right_join(f) -> bool:
    return isinstance(f, A.Join) and (f.kind in ("RIGHT", "FULL") or _has_right_join(f.left))


def _joined(target, f):
    """The join of the target with the FROM clause ``f``, and the qualifier that names the
    target's columns in it. The target comes first; after a FROM clause with a RIGHT or
    FULL JOIN, which SQLite joins with the target as a whole (the target is no table to
    the left of its RIGHT JOIN, whose unmatched rows still meet every target row)."""
    from sqlengine.compiler._resolve import FirstItem, LastItem
    qual = target.alias or target.name
    if _has_right_join(f):
        return A.Join(f, target, ","), LastItem(qual)
    if type(f) is A.Join:
        # SQLite's parser makes a FROM clause of several items one parenthesized join
        # (a nested subquery, compiler/nestedfrom.py): its ON clauses do not see the
        # target, its tables' names stay visible beside the target's
        f = A.SubqueryRef(A.Select(A.SelectCore([A.Star(None, nested=True)], from_=f)))
    return A.Join(target, f, ","), FirstItem(qual)


def compile_update_from(p, st, table):
    """The code of UPDATE ... FROM on ``table`` (a real table), as SQLite's
    updateFromSelect: the join of the target (first) with the FROM items writes, per
    matching row, the target's row key and every SET value; of several rows for one target
    row the last one written wins; the rows are then updated in key order."""
    from sqlengine.compiler.insert import open_write_cursors
    from sqlengine.compiler.select import TableDest, compile_select
    from sqlengine.compiler.upsert import code_update_row, set_items
    b = p.b
    ref = st.table
    qual = ref.alias or ref.name
    # (every SET value in the order of the SET clause, as SQLite resolves them; the last
    # one of a column is written)
    items = set_items(table, st.sets)
    target = A.TableRef(ref.name, ref.schema, ref.alias, ref.indexed_by, ref.not_indexed)
    # The target's row key, read from the join's target item without looking its visible
    # name up: a FROM item may carry the same name (SQLite's TK_ROW). A rowid table's key
    # is its rowid; a WITHOUT ROWID table's the columns of its PRIMARY KEY.
    from_, first = _joined(target, st.from_)
    if table.without_rowid:
        from sqlengine.schema import pk_index
        pk = pk_index(table)
        key_names = [table.columns[c].name for c in pk.columns]
        # (the rows are updated in the key's own order: its collations and DESC flags)
        key_colls = [p.collation(pk.collations[k] or table.columns[c].collation)
                     for k, c in enumerate(pk.columns)]
        key_desc = list(pk.desc)
    else:
        key_names = ["rowid"]
        key_colls, key_desc = [None], [False]
    nkey = len(key_names)
    cols = [A.ResultColumn(A.Column(n, first)) for n in key_names]
    cols += [A.ResultColumn(e) for _k, e in items]
    ncol = len(cols)
    core = A.SelectCore(columns=cols, from_=from_, where=st.where)
    # (ORDER BY / LIMIT / OFFSET choose among the join's rows, as in SQLite)
    sel = A.Select(body=core, order_by=st.order_by, limit=st.limit, offset=st.offset)
    joined = b.alloc_cursor()  # the join's rows in the order it makes them
    b.emit(O.OP_OpenEphemeral, joined, ncol)
    compile_select(p, sel, TableDest(joined))
    # (SQLite refuses a FROM item only when it is the target again under the same alias,
    # and only once the join's names resolved: an ambiguous column is the error first)
    me = (ref.name.lower(), ref.alias.lower() if ref.alias else None)
    if me in _from_names(st.from_, []):
        raise OperationalError(f"target object/alias may not appear in FROM clause: {qual}")
    # the last row of each key, found walking the join's rows backwards, in key order
    rows = b.alloc_cursor()
    b.emit(O.OP_OpenEphemeral, rows, ncol, 0, SortSpec(ncol, key_colls + [None] * (ncol - nkey),
                                                     key_desc + [False] * (ncol - nkey)))
    regs = b.alloc_reg(ncol)
    kept = b.new_label()
    b.emit(O.OP_Last, joined, kept)
    back = b.addr()
    prev = b.new_label()
    for j in range(ncol):
        b.emit(O.OP_Column, joined, j, regs + j)
    b.emit(O.OP_Found, rows, prev, regs, nkey)
    rec = b.alloc_reg()
    b.emit(O.OP_MakeRecord, regs, ncol, rec)
    b.emit(O.OP_IdxInsert, rows, rec)
    b.resolve(prev)
    b.emit(O.OP_Prev, joined, back)
    b.resolve(kept)
    tcur, icurs = open_write_cursors(p, table)
    done = b.new_label()
    b.emit(O.OP_Rewind, rows, done)
    top = b.addr()
    nxt = b.new_label()
    for j in range(ncol):
        b.emit(O.OP_Column, rows, j, regs + j)
    values = {k: regs + nkey + j for j, (k, _e) in enumerate(items)}
    if table.without_rowid:  # the row key as Rowid gives it (delete.code_row_key)
        key = b.alloc_reg()
        b.emit(O.OP_MakeRecord, regs, nkey, key)
    else:
        key = regs
    code_update_row(p, table, tcur, icurs, key, values, None, None, nxt, st.or_action)
    b.resolve(nxt)
    b.emit(O.OP_Next, rows, top)
    b.resolve(done)
    rt = getattr(p, "returning", None)
    if rt is not None:
        rt.finish()
