"""ALTER TABLE: ADD COLUMN, RENAME TO, RENAME COLUMN, DROP COLUMN.

The schema is rewritten as SQLite rewrites it: ADD COLUMN appends the column's text to the
CREATE TABLE statement; RENAME TO puts the new name, double-quoted, wherever the old one
named the table (its CREATE TABLE, its indexes, triggers and views, the REFERENCES clauses
of other tables; automatic index names follow): where a token stands decides, so a column,
an alias or a CTE of that name keeps it (alter_refs.table_positions); RENAME COLUMN puts the new name where the
column was named (in a view or trigger: where a name resolves to it; in its table and
indexes: a definition's name, a name in an expression or column list, never a type,
constraint, collation or function name, alter_refs.py); DROP COLUMN cuts the column's
definition out.

Rows are rewritten when their records change shape: ADD COLUMN with a non-NULL default
stores the default in every existing row, DROP COLUMN removes the value from every row.
RENAME TO, RENAME COLUMN and DROP COLUMN first check that every view and trigger still
resolves (alter_check.py), as SQLite's renameTestSchema does.

Each database keeps its rows: an ALTER of a temp table edits sqlite_temp_schema alone; a
rename in a main table edits main's rows and then temp's views and triggers (SQLite's
second pass, which 3.40 also runs for a temp table's column: ``_rename_again``).

This module emits code; it never runs it.
"""

from __future__ import annotations

from sqlengine.compiler.alter_check import altered_schema, check_schema, renamed_schema
from sqlengine.compiler.alter_refs import (own_positions, table_positions, trigger_positions,
                                           view_positions)
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.sql.lexer import dequote, next_token, tokens
from sqlengine.vdbe import opcodes as O

_IDENT = ("ID", "STRING", "INDEXED", "JOIN_KW")


def _ident_value(sql, kind, a, e):
    text = sql[a:e]
    if kind == "ID" or text[:1] in "\"[`'":
        return dequote(text) if text[:1] in "\"[`'" else text
    return text


def _replace_idents(sql, old, new_text, only=None):
    """``sql`` with every identifier token naming ``old`` replaced by ``new_text``;
    ``only(tokens, k)`` may veto a token."""
    toks = tokens(sql)
    out = []
    last = 0
    low = old.lower()
    for k, (kind, a, e) in enumerate(toks):
        if kind not in ("ID", "STRING") and not sql[a:e][:1].isalpha():
            continue
        if _ident_value(sql, kind, a, e).lower() != low:
            continue
        if kind == "STRING" and not _string_is_name(toks, k):
            continue
        if only is not None and not only(sql, toks, k):
            continue
        out.append(sql[last:a])
        if callable(new_text):
            out.append(new_text(sql[a:e]))
        else:
            out.append(new_text)
        last = e
    out.append(sql[last:])
    return "".join(out)


def _string_is_name(toks, k):
    # a 'quoted' name stands where an identifier does: after ON/TABLE/REFERENCES or a dot
    return False


def _quote(name):
    return '"' + name.replace('"', '""') + '"'


def _plain_or_quoted(name):
    if name and (name[0].isalpha() or name[0] == "_") and all(
            c.isalnum() or c == "_" for c in name):
        from sqlengine.sql.lexer import KEYWORDS
        if name.upper() not in KEYWORDS:
            return name
    return _quote(name)


# ------------------------------------------------------------------------------------------

def compile_alter(p, st: A.AlterTable):
    p.write = p.ddl = True
    if st.schema is not None and st.schema.lower() not in ("main", "temp"):
        raise OperationalError(f"unknown database {st.schema}")
    s = p.schema
    low = st.table.lower()
    db = (st.schema or "").lower()
    if low in ("sqlite_schema", "sqlite_master", "sqlite_temp_schema", "sqlite_temp_master") \
            and not (db == "main" and "temp" in low):   # (main has no temp master)
        temp = "temp" in low or db == "temp"
        raise OperationalError(
            f"table {'sqlite_temp_master' if temp else 'sqlite_master'} may not be altered")
    key = low
    if st.schema is not None and _temp(p) is not None:
        key = f"{st.schema.lower()}.{low}"  # (main.x and temp.x: each one's own object)
    t = s.tables.get(key)
    if st.schema is not None and st.schema.lower() == "temp" and _temp(p) is None:
        t = None
    action = st.action.upper()
    if t is None:
        if key in s.views:
            raise _view_not_altered(s.views[key].name, action)
        written = f"{st.schema}.{st.table}" if st.schema is not None else st.table
        raise OperationalError(f"no such table: {written}")
    if low.startswith("sqlite_"):   # (SQLite finds the table first: its own name)
        raise OperationalError(f"table {t.name} may not be altered")
    if action in ("ADD", "ADD COLUMN"):
        return _add_column(p, t, st)
    if action in ("RENAME", "RENAME TO", "RENAME TABLE"):
        return _rename_table(p, t, st.new_name)
    if action in ("RENAME COLUMN",):
        return _rename_column(p, t, st.column, st.new_name)
    if action in ("DROP", "DROP COLUMN"):
        return _drop_column(p, t, st.column)
    raise OperationalError(f"unsupported ALTER TABLE action: {st.action}")


def _view_not_altered(name, action):
    """SQLite's refusal to ALTER a view, worded per action, naming the view as declared."""
    if action in ("ADD", "ADD COLUMN"):
        return OperationalError("Cannot add a column to a view")
    if action == "RENAME COLUMN":
        return OperationalError(f'cannot rename columns of view "{name}"')
    if action in ("DROP", "DROP COLUMN"):
        return OperationalError(f'cannot drop column from view "{name}"')
    return OperationalError(f"view {name} may not be altered")


# ---- the schema rows ---------------------------------------------------------------------

def _temp(p):
    """The connection's temp database (an Attached), or None."""
    if not p.db.attached:
        return None
    from sqlengine.compiler.attach import find
    return find(p.db, "temp")


def _home(p, t):
    """("main" or "temp", that database's own Schema): where table ``t`` is."""
    from sqlengine.compiler.attach import ROOT_SHIFT
    temp = _temp(p)
    if temp is not None and (t.root or 0) >> ROOT_SHIFT == temp.code:
        return "temp", temp.db.schema
    return "main", getattr(p.schema, "main", p.schema)


def _dependents(p, db, home):
    """(database, kind, object) of the views and triggers a rename in a table of ``db``
    edits: its database's own, then, for a main table, temp's (SQLite's second pass over
    sqlite_temp_schema)."""
    out = [(db, "trigger", tr) for tr in home.triggers.values()]
    out += [(db, "view", v) for v in home.views.values()]
    temp = _temp(p)
    if db == "main" and temp is not None:
        out += [("temp", "trigger", tr) for tr in temp.db.schema.triggers.values()]
        out += [("temp", "view", v) for v in temp.db.schema.views.values()]
    return out


def _write_changes(p, changes):
    """``_rewrite_schema`` of the rows among ``changes`` ((database, lower-case name) ->
    row) in each database's schema table: main's, then temp's sqlite_temp_schema."""
    from sqlengine.compiler.attach import ROOT_SHIFT
    for db in ("main", "temp"):
        rows = {key: row for (d, key), row in changes.items() if d == db}
        if rows:
            root = 1 if db == "main" else _temp(p).code << ROOT_SHIFT | 1
            _rewrite_schema(p, rows, root=root)


def _rewrite_schema(p, changes, deletes=(), root=1):
    """Rewrite sqlite_schema rows (of the schema table at ``root``: main's, or a tagged
    root of an attached database): ``changes`` maps an object name (lower case) to
    (type, name, tbl_name, sql) for its row; the root page is kept."""
    b = p.b
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenWrite, cur, root, 0, 5, comment="sqlite_schema")
    done = b.new_label()
    top = b.new_label()
    nxt = b.new_label()
    b.emit(O.OP_Rewind, cur, done)
    b.resolve(top)
    name = b.alloc_reg()
    b.emit(O.OP_Column, cur, 1, name)
    lowname = b.alloc_reg()
    b.emit(O.OP_Function, 0, name, lowname,
           lambda vm, a: a[0].lower() if isinstance(a[0], str) else a[0], 1)
    for key, row in changes.items():
        skip = b.new_label()
        k = b.alloc_reg()
        p.emit_constant(key, k)
        b.emit(O.OP_Ne, k, skip, lowname, None, 0x10)
        regs = b.alloc_reg(5)
        p.emit_constant(row[0], regs)
        p.emit_constant(row[1], regs + 1)
        p.emit_constant(row[2], regs + 2)
        b.emit(O.OP_Column, cur, 3, regs + 3)
        p.emit_constant(row[3], regs + 4)
        rec = b.alloc_reg()
        rid = b.alloc_reg()
        b.emit(O.OP_MakeRecord, regs, 5, rec)
        b.emit(O.OP_Rowid, cur, rid)
        b.emit(O.OP_Insert, cur, rec, rid)
        b.emit(O.OP_Goto, 0, nxt)
        b.resolve(skip)
    b.resolve(nxt)
    b.emit(O.OP_Next, cur, top)
    b.resolve(done)


def _finish(p, db="main"):
    if db == "main":  # (temp's cookie is the connection's own: nothing reads it)
        p.b.emit(O.OP_SetCookie, 0, 1, -1)
    p.b.emit(O.OP_ParseSchema, 0, 0, 0, "schema changed")


def _rewrite_rows(p, t, n_old, transform):
    """Rewrite every row of ``t``: ``transform(regs)`` emits code turning the n_old
    column values in regs.. into the new record's values and returns (first, count)."""
    b = p.b
    from sqlengine.compiler.where import table_p4
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenWrite, cur, t.root, 0, table_p4(p, t))
    done = b.new_label()
    b.emit(O.OP_Rewind, cur, done)
    top = b.addr()
    regs = b.alloc_reg(n_old + 1)
    for i in range(n_old):
        b.emit(O.OP_Column, cur, i, regs + i)
    first, count = transform(regs)
    rec = b.alloc_reg()
    b.emit(O.OP_MakeRecord, first, count, rec)
    if t.without_rowid:  # the entry is its record: replace it (same key, same place)
        b.emit(O.OP_Delete, cur, 0)
        b.emit(O.OP_IdxInsert, cur, rec)
    else:
        rid = b.alloc_reg()
        b.emit(O.OP_Rowid, cur, rid)
        b.emit(O.OP_Insert, cur, rec, rid)
    b.emit(O.OP_Next, cur, top)
    b.resolve(done)


# ---- ADD COLUMN ----------------------------------------------------------------------------

def _add_column(p, t, st):
    cd = st.column_def
    if t.find_column(cd.name) >= 0:
        raise OperationalError(f"duplicate column name: {cd.name}")
    default = None
    notnull = False
    for cc in cd.constraints:  # (a collation is looked up as the definition is parsed)
        if cc.kind == "COLLATE" and p.db.find_collation(cc.collation) is None:
            raise OperationalError(f"no such collation sequence: {cc.collation}")
    for cc in cd.constraints:
        if cc.kind == "PRIMARY KEY":
            raise OperationalError("Cannot add a PRIMARY KEY column")
        if cc.kind == "UNIQUE":
            raise OperationalError("Cannot add a UNIQUE column")
        if cc.kind == "DEFAULT":
            default = cc.expr
        if cc.kind == "NOT NULL":
            notnull = True
    generated = next((cc for cc in cd.constraints if cc.kind == "GENERATED"), None)
    if type(default) is A.Literal and default.value is None:
        default = None  # (DEFAULT NULL is no default)
    dval = _default_value(default)
    # SQLite's tests in sqlite3AlterFinishAddColumn's order, each failing only when the
    # table has rows (sqlite3ErrorIfNotEmpty)
    if generated is not None:
        if generated.stored:
            _error_if_not_empty(p, t, "cannot add a STORED column")
    else:
        if default is not None and getattr(p.db, "foreign_keys", 0) and any(
                cc.kind == "REFERENCES" for cc in cd.constraints):
            _error_if_not_empty(p, t,
                                "Cannot add a REFERENCES column with non-NULL default value")
        if notnull and default is None:
            _error_if_not_empty(p, t, "Cannot add a NOT NULL column with default value NULL")
        if default is not None and not _constant_default(default):
            _error_if_not_empty(p, t, "Cannot add a column with non-constant default")
    text = _column_text(p.sql, cd.name)
    sql = t.sql
    close = _end_of_columns(sql, len(t.columns))
    new_sql = sql[:close].rstrip() + ", " + text + sql[close:]
    new_t = _table_after(p, t, new_sql, "add")
    verify = any(cc.kind == "CHECK" for cc in cd.constraints) or (
        notnull and generated is not None)
    if verify and p.returning is None:
        # SQLite verifies the rows with a nested query, whose column the caller sees
        # (unless an earlier nested query's is already the statement's)
        p.returning = _Names(["CASE WHEN quick_check GLOB 'CHECK*' THEN raise(ABORT,'CHECK "
                              "constraint failed') ELSE raise(ABORT,'NOT NULL constraint "
                              "failed') END"])
    db = _home(p, t)[0]
    _write_changes(p, {(db, t.name.lower()): ("table", t.name, t.name, new_sql)})
    if dval is not None and generated is None:
        n = t.n_stored

        def add(regs):
            p.emit_constant(dval, regs + n)
            return regs, n + 1
        _rewrite_rows(p, t, n, add)
    if verify:
        _verify_rows(p, new_t)
    _finish(p, db)


def _error_if_not_empty(p, t, message):
    """SQLite's sqlite3ErrorIfNotEmpty: the ALTER fails only when the table has rows (the
    statement's column is the first such nested query's)."""
    from sqlengine.errors import SQLITE_ERROR
    b = p.b
    if p.returning is None:
        p.returning = _Names([f"raise(ABORT,'{message}')"])
    from sqlengine.compiler.where import table_p4
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenRead, cur, t.root, 0, table_p4(p, t) if t.without_rowid else 1)
    empty = b.new_label()
    b.emit(O.OP_Rewind, cur, empty)
    b.emit(O.OP_Halt, SQLITE_ERROR, O.OE_ABORT, 0, message)
    b.resolve(empty)


def _table_after(p, t, new_sql, what):
    """The table as ``new_sql`` defines it, its CHECK constraints and generated columns
    resolved as SQLite's schema reload does ('error in table t after add column: ...')."""
    from sqlengine import schema as S
    from sqlengine.compiler.selfref import check_table
    from sqlengine.sql import parse_one
    try:
        new_t = S.table_from_ast(parse_one(new_sql).stmt, t.root, new_sql)
        check_table(p, new_t, schema_load=True)
    except OperationalError as exc:
        raise OperationalError(f"error in table {t.name} after {what} column: {exc}") from None
    return new_t


def _verify_rows(p, t):
    """PRAGMA quick_check's NOT NULL and CHECK tests over every row of ``t`` (the table as
    altered), failing as SQLite's nested verification query does."""
    from sqlengine.compiler.expr import code_column, if_true
    from sqlengine.compiler.resolve import ColRef, Scope, table_source
    from sqlengine.errors import SQLITE_ERROR
    b = p.b
    from sqlengine.compiler.where import table_p4
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenRead, cur, t.root, 0, table_p4(p, t))
    src = table_source(t.name, cur, t)
    scope = Scope([src])
    done = b.new_label()
    b.emit(O.OP_Rewind, cur, done)
    top = b.addr()
    r = b.alloc_reg()
    for i, c in enumerate(t.columns):
        if c.notnull and i != t.ipk:
            code_column(p, ColRef(src, i, scope, 0), r)
            b.emit(O.OP_HaltIfNull, SQLITE_ERROR, O.OE_ABORT, r, "NOT NULL constraint failed")
    for _name, expr in t.checks:
        ok = b.new_label()
        try:
            if_true(p, scope, expr, ok, True)
        except OperationalError as exc:  # (a name the reload let pass: sqlite3ExprCodeTarget)
            name = str(exc).removeprefix("no such function: ")
            if name == str(exc):
                raise
            raise OperationalError(f"unknown function: {name}()") from None
        b.emit(O.OP_Halt, SQLITE_ERROR, O.OE_ABORT, 0, "CHECK constraint failed")
        b.resolve(ok)
    b.emit(O.OP_Next, cur, top)
    b.resolve(done)


def _constant_default(e):
    while isinstance(e, A.Unary) and e.op in ("-", "+"):
        e = e.operand
    return isinstance(e, A.Literal)


def _default_value(e):
    if e is None:
        return None
    sign = 1
    while isinstance(e, A.Unary) and e.op in ("-", "+"):
        if e.op == "-":
            sign = -sign
        e = e.operand
    if not isinstance(e, A.Literal):
        return None
    v = e.value
    if isinstance(v, bool):
        v = int(v)
    if isinstance(v, (int, float)):
        return sign * v
    return v


def _column_text(stmt_sql, name):
    """The column definition as written after ADD [COLUMN]."""
    toks = tokens(stmt_sql)
    for k, (_kind, a, e) in enumerate(toks):
        if stmt_sql[a:e].upper() == "ADD":
            j = k + 1
            if j < len(toks) and stmt_sql[toks[j][1]:toks[j][2]].upper() == "COLUMN":
                j += 1
            if j < len(toks):
                end = len(stmt_sql)
                return stmt_sql[toks[j][1]:end].strip().rstrip(";").strip()
    return name


class _Names:
    """Result column names for a statement that returns no rows."""

    def __init__(self, names):
        self.names = names
        self.decltypes = [None] * len(names)


def _end_of_columns(sql, ncols):
    """Offset just past the last column definition of a CREATE TABLE (before its table
    constraints), where SQLite appends an added column."""
    depth = 0
    seen = 0
    for kind, a, _e in tokens(sql):
        if kind == "LP":
            depth += 1
        elif kind == "RP":
            depth -= 1
            if depth == 0:
                return a
        elif kind == "COMMA" and depth == 1:
            seen += 1
            if seen == ncols:
                return a
    return len(sql)


# ---- RENAME TO -------------------------------------------------------------------------------

def _rename_table(p, t, new):
    db, home = _home(p, t)
    # (a name is taken only in the table's own database)
    if home.table(new) is not None or new.lower() in home.views or new.lower() in home.indexes:
        raise OperationalError(
            f"there is already another table or index with this name: {new}")
    if new.lower().startswith("sqlite_"):
        raise OperationalError(f"object name reserved for internal use: {new}")
    check_schema(p, rename_table=True, db=db)
    old = t.name
    qn = _quote(new)

    # PRAGMA legacy_alter_table: SQLite renames only the name a table, index or trigger
    # is made on (not CHECK, partial-index WHERE or trigger bodies; no view), and the
    # REFERENCES of other tables only while foreign_keys is on
    legacy = getattr(p.db, "legacy_alter_table", 0)

    def renamed(sql, first_only=legacy):
        """``sql`` with the table's name renamed where it names the table (where the
        object is made on it only, ``first_only``), or None."""
        positions = table_positions(sql, old) if sql else None
        if positions and first_only:
            positions = positions[:1]
        return _renamed_at(sql, positions, lambda _text: qn) if positions else None
    changes = {}
    changes[(db, old.lower())] = ("table", new, new, renamed(t.sql) or t.sql)
    for idx in t.indexes:
        iname = idx.name
        if idx.auto and iname.lower().startswith(f"sqlite_autoindex_{old.lower()}_"):
            iname = f"sqlite_autoindex_{new}_" + iname.rsplit("_", 1)[1]
        changes[(db, idx.name.lower())] = ("index", iname, new, renamed(idx.sql) or idx.sql)
    for key, other in home.tables.items():
        if key == old.lower() or key == "sqlite_schema" or not other.sql or \
                legacy and not getattr(p.db, "foreign_keys", 0):
            continue
        new_sql = _replace_idents(other.sql, old, qn, only=_after_keyword("REFERENCES"))
        if new_sql != other.sql:
            changes[(db, key)] = ("table", other.name, other.name, new_sql)
    for odb, kind, obj in _dependents(p, db, home):
        if legacy and (kind == "view" or obj.table.lower() != old.lower()):
            continue
        sql = renamed(obj.sql)
        if sql is None:
            continue
        if kind == "view":
            changes[(odb, obj.name.lower())] = ("view", obj.name, obj.name, sql)
        else:
            owner = new if obj.table.lower() == old.lower() else obj.table
            changes[(odb, obj.name.lower())] = ("trigger", obj.name, owner, sql)
    _check_after_rename(p, changes, db, (db, old.lower()))
    _write_changes(p, changes)
    seq = p.schema.tables.get("temp.sqlite_sequence") if db == "temp" else \
        home.tables.get("sqlite_sequence")
    if t.autoinc and seq is not None:
        _rename_sequence(p, seq, old, new)
    _finish(p, db)


def _check_after_rename(p, changes, db, old_table=None):
    """SQLite's renameTestSchema after the rewrite: every view and trigger must still
    resolve in the schema as the rename leaves it ('error in view v after rename: ...')."""
    schema, objects = renamed_schema(p, changes, old_table)
    check_schema(p, "after rename", schema, rename_table=old_table is not None, db=db,
                 objects=objects)


def _mentions(sql, name):
    return bool(sql) and _replace_idents(sql, name, "\x00") != sql


def _rename_sequence(p, seq, old, new):
    b = p.b
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenWrite, cur, seq.root, 0, 2)
    done = b.new_label()
    nxt = b.new_label()
    b.emit(O.OP_Rewind, cur, done)
    top = b.addr()
    regs = b.alloc_reg(2)
    k = b.alloc_reg()
    b.emit(O.OP_Column, cur, 0, regs)
    p.emit_constant(old, k)
    b.emit(O.OP_Ne, k, nxt, regs, None, 0x10)
    b.emit(O.OP_Column, cur, 1, regs + 1)
    p.emit_constant(new, regs)
    rec = b.alloc_reg()
    rid = b.alloc_reg()
    b.emit(O.OP_MakeRecord, regs, 2, rec)
    b.emit(O.OP_Rowid, cur, rid)
    b.emit(O.OP_Insert, cur, rec, rid)
    b.resolve(nxt)
    b.emit(O.OP_Next, cur, top)
    b.resolve(done)


# ---- RENAME COLUMN ---------------------------------------------------------------------------

def _rename_column(p, t, old, new):
    i = t.find_column(old)
    if i < 0:
        raise OperationalError(f'no such column: "{old}"')
    db, home = _home(p, t)
    check_schema(p, db=db)
    j = t.find_column(new)
    if j >= 0 and new.lower() != old.lower():
        # (the table's text parsed again: the later of the two columns is the duplicate)
        raise OperationalError(f"error in table {t.name} after rename: duplicate column "
                               f"name: {t.columns[j].name if j > i else new}")

    def nt(original, new=new):
        # the new name keeps the old token's quoting
        return _quote(new) if original[:1] in "\"[`" else _plain_or_quoted(new)
    changes = {(db, t.name.lower()): ("table", t.name, t.name, _renamed_at(
        t.sql, own_positions(t.sql, t.name, old), nt))}
    for idx in t.indexes:
        if idx.sql:
            changes[(db, idx.name.lower())] = ("index", idx.name, t.name, _renamed_at(
                idx.sql, own_positions(idx.sql, t.name, old), nt))
    for odb, kind, obj in _dependents(p, db, home):
        sql = _column_renamed(p.schema, kind, obj, t, old, nt)
        if sql is not None:
            changes[(odb, obj.name.lower())] = (kind, obj.name, getattr(obj, "table", obj.name),
                                                sql)
    for key, other in home.tables.items():
        if key == t.name.lower() or key == "sqlite_schema" or not other.sql:
            continue
        if _mentions(other.sql, t.name) and _mentions(other.sql, old):
            changes[(db, key)] = ("table", other.name, other.name,
                                  _replace_idents(other.sql, old, nt,
                                                  only=_after_references(t.name)))
    if db == "temp":
        _rename_again(p, changes, t, old, nt)
    _check_after_rename(p, changes, db)
    _write_changes(p, changes)
    _finish(p, db)


def _column_renamed(s, kind, obj, t, old, nt):
    """The text of view or trigger ``obj`` with column ``old`` of ``t`` renamed by ``nt``,
    or None when the rename leaves it as it is."""
    if kind == "view":
        if _mentions(obj.sql, t.name) and _mentions(obj.sql, old):
            return _view_renamed(s, obj.sql, t, old, nt)
        return None
    on_t = obj.table.lower() == t.name.lower()
    if not (on_t or _mentions(obj.sql, t.name)) or not _mentions(obj.sql, old):
        return None
    positions = trigger_positions(s, obj.sql, t, old)
    return _renamed_at(obj.sql, positions, nt) if positions else None


def _rename_again(p, changes, t, old, nt):
    """SQLite 3.40 renames a column of a temp table in sqlite_temp_schema twice: once with
    every row of it, then again in its views and triggers (the pass meant for a main
    table's temp dependents), both against the schema as it was. The second pass
    resolves the rewritten text, so a view or trigger that now names the new column fails
    there: 'error in view v: no such column: b'."""
    from sqlengine import schema as S
    from sqlengine.compiler.alter_check import error_of, schema_rows
    from sqlengine.sql import parse_one
    for db, kind, name, _obj in schema_rows(p):
        key = (db, name.lower())
        if db != "temp" or kind not in ("view", "trigger") or key not in changes:
            continue
        row = changes[key]
        ast = parse_one(row[3]).stmt
        obj = S.View(row[1], ast.select, ast.columns, row[3]) if kind == "view" else \
            S.Trigger(ast, row[3])
        msg = error_of(p, p.schema, kind, obj)
        if msg is not None:
            raise OperationalError(f"error in {kind} {name}: {msg}")
        sql = _column_renamed(p.schema, kind, obj, t, old, nt)
        if sql is not None:
            changes[key] = row[:3] + (sql,)


def _view_renamed(s, sql, t, old, nt):
    """``sql`` of a view with the names that resolve to column ``old`` of ``t`` renamed
    (alter_refs.py), or None when none does (or the view names what no schema object
    is: it is left as it is, and its test after the rename reports it)."""
    positions = view_positions(s, sql, t, old)
    return _renamed_at(sql, positions, nt) if positions else None


def _renamed_at(sql, positions, nt):
    """``sql`` with the identifier tokens at ``positions`` (sorted) renamed by ``nt``."""
    out = []
    last = 0
    for a in positions:
        _kind, e = next_token(sql, a)
        out += [sql[last:a], nt(sql[a:e])]
        last = e
    out.append(sql[last:])
    return "".join(out)


def _after_keyword(word):
    def only(sql, toks, k):
        return k > 0 and sql[toks[k - 1][1]:toks[k - 1][2]].upper() == word
    return only


def _after_references(table_name):
    """Veto a column token unless it sits in ``REFERENCES table(...)``."""
    def only(sql, toks, k):
        depth = 0
        j = k - 1
        while j >= 0:
            kind = toks[j][0]
            if kind == "RP":
                depth += 1
            elif kind == "LP":
                if depth == 0:
                    if j >= 1 and _ident_value(sql, *toks[j - 1]).lower() == table_name.lower():
                        return j >= 2 and sql[toks[j - 2][1]:toks[j - 2][2]].upper() == \
                            "REFERENCES"
                    return False
                depth -= 1
            j -= 1
        return False
    return only


# ---- DROP COLUMN -----------------------------------------------------------------------------

def _drop_column(p, t, name):
    i = t.find_column(name)
    if i < 0:
        raise OperationalError(f'no such column: "{name}"')
    c = t.columns[i]
    if c.pk or i == t.ipk:
        raise OperationalError(f'cannot drop PRIMARY KEY column: "{c.name}"')
    for spec in t.unique_specs:
        if i in spec[0]:
            raise OperationalError(f'cannot drop UNIQUE column: "{c.name}"')
    if len(t.columns) == 1:
        raise OperationalError(f'cannot drop column "{c.name}": no other columns exist')
    db = _home(p, t)[0]
    check_schema(p, db=db)
    new_sql = _cut_column(t.sql, i)
    if new_sql is None:
        raise OperationalError(f"cannot drop column: {c.name}")
    new_t = _table_after(p, t, new_sql, "drop")
    from sqlengine.compiler.generated import _column_refs
    own_indexes = {}
    for idx in t.indexes:
        refs = set()
        for e in (idx.exprs or []) + [idx.where]:
            if e is not None:
                _column_refs(e, refs)
        if i in idx.columns or c.name.lower() in refs:
            own_indexes[idx.name.lower()] = f"no such column: {c.name}"

    def own(kind, name):
        return own_indexes.get(name.lower()) if kind == "index" else None
    check_schema(p, "after drop column", altered_schema(p, t, new_t), own, db=db)
    _write_changes(p, {(db, t.name.lower()): ("table", t.name, t.name, new_sql)})
    n = t.n_stored
    field = i if t.storage is None else t.storage[i]
    if field >= 0:  # a virtual column has no value in the records

        def drop(regs):
            b = p.b
            out = b.alloc_reg(n - 1)
            k = 0
            for j in range(n):
                if j != field:
                    b.emit(O.OP_SCopy, regs + j, out + k)
                    k += 1
            return out, n - 1
        _rewrite_rows(p, t, n, drop)
    _finish(p, db)


def _cut_column(sql, col):
    """The CREATE TABLE text without the definition of column number ``col``."""
    toks = tokens(sql)
    depth = 0
    starts = []  # (token index of each top-level item's first token)
    seps = []
    for k, (kind, _a, _e) in enumerate(toks):
        if kind == "LP":
            depth += 1
            if depth == 1:
                starts.append(k + 1)
            continue
        if kind == "RP":
            depth -= 1
            if depth == 0:
                seps.append(k)
                break
            continue
        if kind == "COMMA" and depth == 1:
            seps.append(k)
            starts.append(k + 1)
    if col >= len(starts) - 0 or col + 1 > len(seps):
        return None
    first = toks[starts[col]][1]
    if col == 0:
        end = toks[starts[col + 1]][1] if col + 1 < len(starts) else toks[seps[col]][1]
        return sql[:first] + sql[end:]
    prev_comma = toks[seps[col - 1]][1]
    end = toks[seps[col]][1]
    return sql[:prev_comma] + sql[end:]
