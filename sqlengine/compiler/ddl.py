"""CREATE / DROP of tables, indexes, views and triggers, and REINDEX: the code that writes
``sqlite_schema`` rows exactly as SQLite does (type, name, tbl_name, rootpage, sql with the
statement's text after ``CREATE <kind>`` normalised to ``CREATE TABLE name...``), creates
or destroys the b-trees, fills a new index, bumps the schema cookie and reloads the schema.

Errors are SQLite's: ``table t1 already exists``, ``no such table: t1``, ``index i1
already exists``, ``there is already a table named x``... This module emits code; it never
runs it.
"""

from __future__ import annotations

import re

from sqlengine import errors as E
from sqlengine import schema as S
from sqlengine.compiler._resolve import COLUMN_NAMES
from sqlengine.compiler import autoinc, selfref, strict
from sqlengine.compiler.expr import code_column, code_expr, if_false
from sqlengine.compiler.resolve import ColRef, Scope, Source
from sqlengine.compiler.select import (TableDest, check_collations, compile_select,
                                       result_info_only)
from sqlengine.compiler.truefalse import columns_named
from sqlengine.compiler.where import index_key_info, table_p4
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.sql.limits import MAX_COLUMN
from sqlengine.vdbe import opcodes as O
from sqlengine.vdbe.collations import nocase

_HEAD = re.compile(
    r"\s*CREATE\s+(?:(?:TEMP|TEMPORARY)\s+)?(UNIQUE\s+)?(TABLE|INDEX|VIEW|TRIGGER)\s+"
    r"(?:IF\s+NOT\s+EXISTS\s+)?", re.IGNORECASE)


def schema_sql(text: str) -> str:
    """The text SQLite stores: ``CREATE <KIND> `` + the statement from its name on."""
    m = _HEAD.match(text)
    if not m:
        return text
    kind = m.group(2).upper()
    uniq = "UNIQUE " if m.group(1) else ""
    return f"CREATE {uniq}{kind} " + text[m.end():]


def _name_taken(p, name):
    low = name.lower()
    s = p.schema
    if low in s.tables or low in s.views:
        return "table"
    if low in s.indexes:
        return "index"
    return None


def _insert_schema_row(p, cur, typ, name, tbl_name, root_reg, sql):
    b = p.b
    r = b.alloc_reg(5)
    p.emit_constant(typ, r)
    p.emit_constant(name, r + 1)
    p.emit_constant(tbl_name, r + 2)
    if root_reg is None:
        b.emit(O.OP_Integer, 0, r + 3)
    else:
        b.emit(O.OP_SCopy, root_reg, r + 3)
    p.emit_constant(sql, r + 4)
    rec = b.alloc_reg()
    rid = b.alloc_reg()
    b.emit(O.OP_MakeRecord, r, 5, rec)
    b.emit(O.OP_NewRowid, cur, rid)
    b.emit(O.OP_Insert, cur, rec, rid)


def _open_schema(p):
    cur = p.b.alloc_cursor()
    p.b.emit(O.OP_OpenWrite, cur, 1, 0, 5, comment="sqlite_schema")
    return cur


def _finish(p, added, deleted, *groups):
    """Bump the schema cookie and update the schema (schema.SchemaEdit): ``groups`` are
    the names of the tables or views whose sqlite_schema rows the statement changed, by
    inserting ``added`` rows and deleting those ``deleted`` (``_delete_schema_rows``'s
    test, or None)."""
    p.b.emit(O.OP_SetCookie, 0, 1, -1)
    p.b.emit(O.OP_ParseSchema, 0, 0, 0, S.SchemaEdit(groups, added, deleted))


def _check_name(name, kind):
    if name.lower().startswith("sqlite_"):
        raise OperationalError(f"object name reserved for internal use: {name}")


def compile_create_table(p, st: A.CreateTable, text: str):
    b = p.b
    p.write = p.ddl = True
    if st.schema is not None and st.schema.lower() not in ("main", "temp"):
        raise OperationalError(f"unknown database {st.schema}")
    _check_name(st.name, "table")
    taken = _name_taken(p, st.name)
    if taken:
        if st.if_not_exists:
            return
        if taken == "index":
            raise OperationalError(f"there is already an index named {st.name}")
        kind = "table" if st.name.lower() in p.schema.tables else "view"
        raise OperationalError(f"{kind} {st.name} already exists")
    _check_name(st.name, "table")
    if st.as_select is not None:
        return _create_table_as(p, st, text)
    strict.check_create(st)
    try:
        t = S.table_from_ast(st, 0, None)  # validates (duplicate columns, two primary keys)
    except E.DatabaseError as exc:
        if type(exc) is E.DatabaseError:  # a schema error while preparing: SQLITE_ERROR
            raise OperationalError(str(exc)) from None
        raise
    for c in t.columns:
        if c.collation is not None:
            p.collation(c.collation)
    selfref.check_table(p, t)
    if st.without_rowid and S.pk_index(t) is None:
        raise OperationalError(f"PRIMARY KEY missing on table {st.name}")
    sql = schema_sql(text)
    cur = _open_schema(p)
    root = b.alloc_reg()
    # a WITHOUT ROWID table is an index b-tree keyed by its PRIMARY KEY (no schema row
    # of its own for that key)
    b.emit(O.OP_CreateBtree, 0, root, 2 if st.without_rowid else 1)
    _insert_schema_row(p, cur, "table", st.name, st.name, root, sql)
    added = 1
    groups = [st.name]
    for k, spec in enumerate(t.unique_specs):
        if st.without_rowid and spec[5]:
            continue
        added += 1
        r = b.alloc_reg()
        b.emit(O.OP_CreateBtree, 0, r, 2)
        _insert_schema_row(p, cur, "index", f"sqlite_autoindex_{st.name}_{k + 1}", st.name, r, None)
    if any(cc.autoincrement for cd in st.columns for cc in cd.constraints):
        if st.without_rowid:
            raise OperationalError("AUTOINCREMENT not allowed on WITHOUT ROWID tables")
        if not t.autoinc:
            raise OperationalError("AUTOINCREMENT is only allowed on an INTEGER PRIMARY KEY")
        if p.schema.table("sqlite_sequence") is None:  # (made now)
            added += 1
            groups.append("sqlite_sequence")
        autoinc.create_sequence_table(p, cur, _insert_schema_row)
    _finish(p, added, None, *groups)


def _decl_of_affinity(aff):
    return {"D": "INT", "E": "REAL", "C": "NUM", "B": "TEXT"}.get(aff, "")


def _create_table_as(p, st, text):
    b = p.b
    info = result_info_only(p, st.as_select, naming=COLUMN_NAMES)
    check_collations(p, info)
    names = []
    seen = set()
    for nm in columns_named(info.names):
        base = nm
        k = 0
        while nm.lower() in seen:
            k += 1
            nm = f"{base}:{k}"
        seen.add(nm.lower())
        names.append(nm)
    cols = []
    for nm, aff in zip(names, info.affs):
        decl = _decl_of_affinity(aff)
        q = _quote_ident(nm)
        cols.append(f"{q} {decl}" if decl else q)
    sql = f"CREATE TABLE {_quote_ident(st.name)}(" + ",".join(cols) + ")"
    cur = _open_schema(p)
    root = b.alloc_reg()
    b.emit(O.OP_CreateBtree, 0, root, 1)
    _insert_schema_row(p, cur, "table", st.name, st.name, root, sql)
    # fill it through a write cursor on the new root
    tcur = b.alloc_cursor()
    eph = b.alloc_cursor()
    b.emit(O.OP_OpenEphemeral, eph, len(names))
    compile_select(p, st.as_select, TableDest(eph))
    b.emit(O.OP_OpenWrite, tcur, root, 0, len(names), O.OPFLAG_P2ISREG)
    # The root is only known at run time: store rows with an affinity-applied record.
    done = b.new_label()
    b.emit(O.OP_Rewind, eph, done)
    top = b.addr()
    regs = b.alloc_reg(len(names))
    for j in range(len(names)):
        b.emit(O.OP_Column, eph, j, regs + j)
    rec = b.alloc_reg()
    rid = b.alloc_reg()
    aff = "".join(S.affinity_of_type(_decl_of_affinity(a)) for a in info.affs)
    b.emit(O.OP_MakeRecord, regs, len(names), rec, aff)
    b.emit(O.OP_NewRowid, tcur, rid)
    b.emit(O.OP_Insert, tcur, rec, rid)
    b.emit(O.OP_Next, eph, top)
    b.resolve(done)
    _finish(p, 1, None, st.name)


def _quote_ident(name):
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and name.upper() not in _KEYWORDS:
        return name
    return '"' + name.replace('"', '""') + '"'


_KEYWORDS = {"SELECT", "FROM", "WHERE", "TABLE", "ORDER", "GROUP", "BY", "INDEX", "ON",
             "AS", "AND", "OR", "NOT", "NULL", "IN", "IS", "VALUES", "INSERT", "UPDATE",
             "DELETE", "CREATE", "DROP", "PRIMARY", "KEY", "UNIQUE", "CHECK", "DEFAULT"}


def compile_create_index(p, st: A.CreateIndex, text: str):
    b = p.b
    p.write = p.ddl = True
    taken = _name_taken(p, st.name)
    if taken:
        if st.if_not_exists:
            return
        if taken == "index":
            raise OperationalError(f"index {st.name} already exists")
        raise OperationalError(f"there is already a table named {st.name}")
    t = p.schema.table(st.table)
    if t is None:
        if st.table.lower() in p.schema.views:
            raise OperationalError("views may not be indexed")
        raise OperationalError(f"no such table: main.{st.table}")
    if t.name.lower() == "sqlite_schema":
        raise OperationalError("table sqlite_master may not be indexed")
    _check_name(st.name, "index")
    if len(st.columns) > MAX_COLUMN:  # sqlite3ExprListCheckLength
        raise OperationalError("too many columns in index")
    selfref.check_index(p, t, st)
    try:
        idx = S.index_from_ast(st, t, 0, None)
    except E.DatabaseError as exc:
        if type(exc) is E.DatabaseError:  # a schema error while preparing: SQLITE_ERROR
            raise OperationalError(str(exc)) from None
        raise
    for name in idx.collations:
        if name is not None:
            p.collation(name)
    sql = schema_sql(text)
    cur = _open_schema(p)
    root = b.alloc_reg()
    b.emit(O.OP_CreateBtree, 0, root, 2)
    _insert_schema_row(p, cur, "index", st.name, t.name, root, sql)
    _fill_index(p, t, idx, root, st.unique)
    _finish(p, 1, None, t.name)


def _fill_index(p, t, idx, root_reg, unique):
    """Scan the table and write every row's key into the new index."""
    b = p.b
    tcur = b.alloc_cursor()
    b.emit(O.OP_OpenRead, tcur, t.root, 0, table_p4(p, t))
    icur = b.alloc_cursor()
    b.emit(O.OP_OpenWrite, icur, root_reg, 0, index_key_info(p, idx, t), O.OPFLAG_P2ISREG)
    done = b.new_label()
    b.emit(O.OP_Rewind, tcur, done)
    top = b.addr()
    n = len(idx.columns)
    tail = [c for c, _coll, _d in S.record_tail(t, idx)] if t.without_rowid else None
    nk = n + 1 if tail is None else n + len(tail)
    key = b.alloc_reg(nk)
    src = Source(t.name, tcur, [c.name for c in t.columns],
                 [c.affinity for c in t.columns], [c.collation for c in t.columns],
                 [c.type_name for c in t.columns], table=t)
    scope = Scope([src])
    for k, col in enumerate(idx.columns):
        if col < -1:  # an expression of the row
            code_expr(p, scope, idx.exprs[k], key + k)
        else:
            code_column(p, ColRef(src, col, scope, 0), key + k)
    if tail is None:
        b.emit(O.OP_Rowid, tcur, key + n)
    else:  # a WITHOUT ROWID table: its PRIMARY KEY columns stand for the rowid
        for j, col in enumerate(tail):
            code_column(p, ColRef(src, col, scope, 0), key + n + j)
    nxt_partial = None
    if idx.where is not None:  # a partial index: only the rows its WHERE accepts
        nxt_partial = b.new_label()
        if_false(p, scope, idx.where, nxt_partial, True)
    if unique:
        ok = b.new_label()
        b.emit(O.OP_NoConflict, icur, ok, key, n)
        from sqlengine.compiler.insert import _idx_desc
        desc = _idx_desc(t, idx)
        b.emit(O.OP_Halt, E.SQLITE_CONSTRAINT_UNIQUE, O.OE_ABORT, 0,
               f"UNIQUE constraint failed: {desc}")
        b.resolve(ok)
    rec = b.alloc_reg()
    b.emit(O.OP_MakeRecord, key, nk, rec)
    b.emit(O.OP_IdxInsert, icur, rec)
    if nxt_partial is not None:
        b.resolve(nxt_partial)
    b.emit(O.OP_Next, tcur, top)
    b.resolve(done)


def compile_create_view(p, st: A.CreateView, text: str):
    p.write = p.ddl = True
    taken = _name_taken(p, st.name)
    if taken:
        if st.if_not_exists:
            return
        if taken == "index":
            raise OperationalError(f"there is already an index named {st.name}")
        kind = "table" if st.name.lower() in p.schema.tables else "view"
        raise OperationalError(f"{kind} {st.name} already exists")
    _check_name(st.name, "view")
    # SQLite does not resolve the SELECT here (names, functions, collations, limits are
    # checked when the view is used); it only refuses parameters
    if _may_hold_params(p.sql) and p._number_params():
        raise OperationalError("parameters are not allowed in views")
    cur = _open_schema(p)
    _insert_schema_row(p, cur, "view", st.name, st.name, None, schema_sql(text))
    _finish(p, 1, None, st.name)


def _may_hold_params(sql: str) -> bool:
    """Whether ``sql`` may hold a parameter, each of which begins with one of ``?:@$#``:
    a text with none of them (most views) is not tokenized again to find out."""
    return "?" in sql or ":" in sql or "@" in sql or "$" in sql or "#" in sql


def compile_create_trigger(p, st: A.CreateTrigger, text: str):
    p.write = p.ddl = True
    if st.name.lower() in p.schema.triggers:
        if st.if_not_exists:
            return
        raise OperationalError(f"trigger {st.name} already exists")
    t = p.schema.table(st.table)
    v = p.schema.views.get(st.table.lower())
    if t is None and v is None:
        raise OperationalError(f"no such table: main.{st.table}")
    if v is not None and st.timing != "INSTEAD OF":
        raise OperationalError(
            f"cannot create {st.timing} trigger on view: {st.table}")
    if t is not None and st.timing == "INSTEAD OF":
        raise OperationalError(f"cannot create INSTEAD OF trigger on table: {st.table}")
    if t is not None and t.name.lower() == "sqlite_schema":
        raise OperationalError("cannot create trigger on system table")
    cur = _open_schema(p)
    name = t.name if t is not None else v.name
    _insert_schema_row(p, cur, "trigger", st.name, name, None, schema_sql(text))
    _finish(p, 1, None, name)


def _delete_schema_rows(p, cur, col, value, also_type=None):
    """Delete the sqlite_schema rows whose column ``col`` equals ``value``: with
    ``also_type``, the rows of that type named exactly so (SQLite's DROP INDEX and DROP
    TRIGGER: ``name=%Q AND type=...``, the object's own name); without, every row whose
    tbl_name is the table or view's name in any case (NOCASE: a trigger row made by
    sqlite3 keeps the table name as its CREATE TRIGGER wrote it, and SQLite drops the
    table's triggers by their names). Returns that test, for schema.SchemaEdit."""
    b = p.b
    done = b.new_label()
    b.emit(O.OP_Rewind, cur, done)
    top = b.addr()
    r = b.alloc_reg()
    v = b.alloc_reg()
    p.emit_constant(value, v)
    nxt = b.new_label()
    b.emit(O.OP_Column, cur, col, r)
    b.emit(O.OP_Ne, v, nxt, r, nocase if also_type is None else None, 0)
    if also_type is not None:
        tr = b.alloc_reg()
        tv = b.alloc_reg()
        p.emit_constant(also_type, tv)
        b.emit(O.OP_Column, cur, 0, tr)
        b.emit(O.OP_Ne, tv, nxt, tr, None, 0)
    b.emit(O.OP_Delete, cur, 0)
    b.resolve(nxt)
    b.emit(O.OP_Next, cur, top)
    b.resolve(done)
    return col, value, also_type


def compile_drop(p, st: A.Drop):
    b = p.b
    p.write = p.ddl = True
    kind = st.kind.upper()
    low = st.name.lower()
    s = p.schema
    if kind == "TABLE":
        t = s.tables.get(low)
        if t is None:
            if st.if_exists:
                return
            if low in s.views:
                raise OperationalError(f"use DROP VIEW to delete view {st.name}")
            raise OperationalError(f"no such table: {st.name}")
        if low == "sqlite_schema":
            raise OperationalError("table sqlite_master may not be dropped")
        if low == "sqlite_sequence":
            raise OperationalError("table sqlite_sequence may not be dropped")
        if getattr(p.db, "foreign_keys", 0):
            from sqlengine.compiler.fkey import code_drop_table
            code_drop_table(p, t, st.schema)  # the implicit DELETE of a parent table
        cur = _open_schema(p)
        deleted = _delete_schema_rows(p, cur, 2, t.name)
        from sqlengine.compiler.analyze import delete_stat_rows
        delete_stat_rows(p, "tbl", t.name)
        if t.autoinc:
            autoinc.code_drop(p, t.name)
        for idx in t.indexes:
            if idx.root != t.root:  # (a WITHOUT ROWID table's key is the table)
                b.emit(O.OP_Destroy, idx.root)
        b.emit(O.OP_Destroy, t.root)
        group = t.name
    elif kind == "VIEW":
        v = s.views.get(low)
        if v is None:
            if st.if_exists:
                return
            if low in s.tables:
                raise OperationalError(f"use DROP TABLE to delete table {st.name}")
            raise OperationalError(f"no such view: {st.name}")
        cur = _open_schema(p)
        deleted = _delete_schema_rows(p, cur, 2, v.name)
        group = v.name
    elif kind == "INDEX":
        idx = s.indexes.get(low)
        if idx is None:
            if st.if_exists:
                return
            raise OperationalError(f"no such index: {st.name}")
        if idx.auto:
            raise OperationalError(
                "index associated with UNIQUE or PRIMARY KEY constraint cannot be dropped")
        cur = _open_schema(p)
        deleted = _delete_schema_rows(p, cur, 1, idx.name, "index")
        from sqlengine.compiler.analyze import delete_stat_rows
        delete_stat_rows(p, "idx", idx.name)
        b.emit(O.OP_Destroy, idx.root)
        group = idx.table
    elif kind == "TRIGGER":
        tr = s.triggers.get(low)
        if tr is None:
            if st.if_exists:
                return
            raise OperationalError(f"no such trigger: {st.name}")
        cur = _open_schema(p)
        deleted = _delete_schema_rows(p, cur, 1, tr.name, "trigger")
        group = tr.table
    else:
        raise OperationalError(f"unsupported DROP {kind}")
    _finish(p, 0, deleted, group)


def compile_reindex(p, st: A.Reindex):
    """REINDEX [name]: rebuild the named index, the indexes of a table, or those using a
    collation (all indexes when no name is given)."""
    b = p.b
    p.write = True
    s = p.schema
    targets = []
    if st.name is None:
        for t in s.tables.values():
            targets += [(t, i) for i in t.indexes]
    else:
        low = st.name.lower()
        if low in s.indexes:
            i = s.indexes[low]
            targets.append((s.table(i.table), i))
        elif low in s.tables:
            t = s.tables[low]
            targets += [(t, i) for i in t.indexes]
        else:
            found = False
            for t in s.tables.values():
                for i in t.indexes:
                    colls = [(c or t.columns[col].collation or "BINARY").lower()
                             for c, col in zip(i.collations, i.columns)]
                    if low in colls:
                        targets.append((t, i))
                        found = True
            if not found and p.db.find_collation(st.name) is None and low != "binary":
                raise OperationalError("unable to identify the object to be reindexed")
    for t, idx in targets:
        if idx.root == t.root:  # a WITHOUT ROWID table's key: the table itself, kept
            continue
        b.emit(O.OP_Clear, idx.root, 0)
        r = b.alloc_reg()
        b.emit(O.OP_Integer, idx.root, r)
        _fill_index(p, t, idx, r, idx.unique)
