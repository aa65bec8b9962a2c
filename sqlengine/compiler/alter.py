"""ALTER TABLE: ADD COLUMN, RENAME TO, RENAME COLUMN, DROP COLUMN.

The schema is rewritten as SQLite rewrites it: ADD COLUMN appends the column's text to the
CREATE TABLE statement; RENAME TO puts the new name, double-quoted, wherever the old one
named the table (its CREATE TABLE, its indexes, triggers and views, the REFERENCES clauses
of other tables; automatic index names follow); RENAME COLUMN puts the new name where the
column was named (in a view: where a name resolves to it, alter_refs.py); DROP COLUMN cuts the column's definition out. Names are found token by
token (the lexer's identifiers), which is exact for every schema that does not reuse one
name for a table and a column.

Rows are rewritten when their records change shape: ADD COLUMN with a non-NULL default
stores the default in every existing row, DROP COLUMN removes the value from every row.
RENAME TO, RENAME COLUMN and DROP COLUMN first check that every view and trigger still
resolves (alter_check.py), as SQLite's renameTestSchema does.

This module emits code; it never runs it.
"""

from __future__ import annotations

from sqlengine.compiler.alter_check import altered_schema, check_schema, renamed_schema
from sqlengine.compiler.alter_refs import trigger_positions, view_positions
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
    if low in ("sqlite_schema", "sqlite_master") or low.startswith("sqlite_"):
        raise OperationalError(f"table {st.table} may not be altered")
    t = s.table(st.table)
    action = st.action.upper()
    if t is None:
        if low in s.views:
            raise _view_not_altered(s.views[low].name, action)
        raise OperationalError(f"no such table: {st.table}")
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

def _write_changes(p, changes, t):
    """``_rewrite_schema`` of main's rows and, with a temp database, of the temp views and
    triggers among ``changes`` (keys of the merged schema) in its sqlite_temp_schema: a
    rename in a main table ``t`` edits them too, as SQLite's does."""
    temp = None
    if p.db.attached:
        from sqlengine.compiler.attach import ROOT_SHIFT, find
        if not (t.root or 0) >> ROOT_SHIFT:  # (a table of main)
            temp = find(p.db, "temp")
    if temp is None:
        _rewrite_schema(p, changes)
        return
    ts = temp.db.schema
    main, in_temp = {}, {}
    for key, row in changes.items():
        if key.startswith("main."):
            main[key[5:]] = row
            continue
        bare = key[5:] if key.startswith("temp.") else key
        kind = row[0]
        if kind == "view" and bare in ts.views or kind == "trigger" and bare in ts.triggers:
            in_temp[bare] = row
        elif not key.startswith("temp."):
            main[key] = row
    _rewrite_schema(p, main)
    if in_temp:
        _rewrite_schema(p, in_temp, root=temp.code << ROOT_SHIFT | 1)


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


def _finish(p):
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
    from sqlengine.compiler.expr import is_constant
    cd = st.column_def
    if t.find_column(cd.name) >= 0:
        raise OperationalError(f"duplicate column name: {cd.name}")
    default = None
    notnull = False
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
    if default is not None and not _constant_default(default, is_constant):
        raise OperationalError("Cannot add a column with non-constant default")
    dval = _default_value(default)
    if generated is not None and generated.stored:
        _error_if_not_empty(p, t, "cannot add a STORED column")
    elif generated is None and notnull and dval is None:
        _error_if_not_empty(p, t, "Cannot add a NOT NULL column with default value NULL")
    text = _column_text(p.sql, cd.name)
    sql = t.sql
    close = _end_of_columns(sql, len(t.columns))
    new_sql = sql[:close].rstrip() + ", " + text + sql[close:]
    new_t = _table_after(p, t, new_sql, "add")
    verify = any(cc.kind == "CHECK" for cc in cd.constraints) or (
        notnull and generated is not None)
    if verify:
        # SQLite verifies the rows with a nested query, whose column the caller sees
        p.returning = _Names(["CASE WHEN quick_check GLOB 'CHECK*' THEN raise(ABORT,'CHECK "
                              "constraint failed') ELSE raise(ABORT,'NOT NULL constraint "
                              "failed') END"])
    _rewrite_schema(p, {t.name.lower(): ("table", t.name, t.name, new_sql)})
    if dval is not None and generated is None:
        n = t.n_stored

        def add(regs):
            p.emit_constant(dval, regs + n)
            return regs, n + 1
        _rewrite_rows(p, t, n, add)
    if verify:
        _verify_rows(p, new_t)
    _finish(p)


def _error_if_not_empty(p, t, message):
    """SQLite's sqlite3ErrorIfNotEmpty: the ALTER fails only when the table has rows (the
    statement's column is the nested query's)."""
    from sqlengine.errors import SQLITE_ERROR
    b = p.b
    p.returning = _Names([f"raise(ABORT,'{message}')"])
    from sqlengine.compiler.where import table_p4
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenRead, cur, t.root, 0, table_p4(p, t) if t.without_rowid else 1)
    empty = b.new_label()
    b.emit(O.OP_Rewind, cur, empty)
    b.emit(O.OP_Halt, SQLITE_ERROR, O.OE_ABORT, 0, message)
    b.resolve(empty)


def _table_after(p, t, new_sql, what):
    """The table as ``new_sql`` defines it, its generated columns checked as SQLite's
    renameTestSchema does ('error in table t after add column: ...')."""
    from sqlengine import schema as S
    from sqlengine.compiler.generated import check_create
    from sqlengine.sql import parse_one
    new_t = S.table_from_ast(parse_one(new_sql).stmt, t.root, new_sql)
    try:
        check_create(p, new_t)
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
        if_true(p, scope, expr, ok, True)
        b.emit(O.OP_Halt, SQLITE_ERROR, O.OE_ABORT, 0, "CHECK constraint failed")
        b.resolve(ok)
    b.emit(O.OP_Next, cur, top)
    b.resolve(done)


def _constant_default(e, is_constant):
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
    s = p.schema
    if s.table(new) is not None or new.lower() in s.views or new.lower() in s.indexes:
        raise OperationalError(
            f"there is already another table or index with this name: {new}")
    if new.lower().startswith("sqlite_"):
        raise OperationalError(f"object name reserved for internal use: {new}")
    check_schema(p, rename_table=True)
    old = t.name
    qn = _quote(new)
    changes = {}
    changes[old.lower()] = ("table", new, new, _replace_idents(t.sql, old, qn))
    for idx in t.indexes:
        iname = idx.name
        if idx.auto and iname.lower().startswith(f"sqlite_autoindex_{old.lower()}_"):
            iname = f"sqlite_autoindex_{new}_" + iname.rsplit("_", 1)[1]
        sql = _replace_idents(idx.sql, old, qn) if idx.sql else None
        changes[idx.name.lower()] = ("index", iname, new, sql)
    for tr in s.triggers.values():
        if tr.table.lower() == old.lower():
            changes[tr.name.lower()] = ("trigger", tr.name, new,
                                        _replace_idents(tr.sql, old, qn))
        elif _mentions(tr.sql, old):
            changes[tr.name.lower()] = ("trigger", tr.name, tr.table,
                                        _replace_idents(tr.sql, old, qn))
    for key, other in s.tables.items():
        if other is t or key == "sqlite_schema" or not other.sql:
            continue
        new_sql = _replace_idents(other.sql, old, qn, only=_after_keyword("REFERENCES"))
        if new_sql != other.sql:
            changes[key] = ("table", other.name, other.name, new_sql)
    for key, v in s.views.items():
        if _mentions(v.sql, old):
            changes[key] = ("view", v.name, v.name, _replace_idents(v.sql, old, qn))
    _check_after_rename(p, changes, old.lower())
    _write_changes(p, changes, t)
    if t.autoinc and s.table("sqlite_sequence") is not None:
        _rename_sequence(p, old, new)
    _finish(p)


def _check_after_rename(p, changes, old_table=None):
    """SQLite's renameTestSchema after the rewrite: every view and trigger must still
    resolve in the schema as the rename leaves it ('error in view v after rename: ...')."""
    schema, objects = renamed_schema(p, changes, old_table)
    check_schema(p, "after rename", schema, rename_table=old_table is not None,
                 objects=objects)


def _mentions(sql, name):
    return bool(sql) and _replace_idents(sql, name, "\x00") != sql


def _rename_sequence(p, old, new):
    b = p.b
    seq = p.schema.table("sqlite_sequence")
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
    s = p.schema
    i = t.find_column(old)
    if i < 0:
        raise OperationalError(f'no such column: "{old}"')
    if t.find_column(new) >= 0 and new.lower() != old.lower():
        raise OperationalError(
            f"error in table {t.name} after rename: duplicate column name: {new}")
    check_schema(p)

    def nt(original, new=new):
        # the new name keeps the old token's quoting
        return _quote(new) if original[:1] in "\"[`" else _plain_or_quoted(new)
    changes = {t.name.lower(): ("table", t.name, t.name, _replace_idents(t.sql, old, nt))}
    for idx in t.indexes:
        if idx.sql:
            changes[idx.name.lower()] = ("index", idx.name, t.name,
                                         _replace_idents(idx.sql, old, nt))
    for tr in s.triggers.values():
        on_t = tr.table.lower() == t.name.lower()
        if (on_t or _mentions(tr.sql, t.name)) and _mentions(tr.sql, old):
            positions = trigger_positions(s, tr.sql, t, old)
            if positions is not None:
                sql = _renamed_at(tr.sql, positions, nt)
            elif on_t:
                sql = _replace_idents(tr.sql, old, nt)
            else:
                continue
            changes[tr.name.lower()] = ("trigger", tr.name, tr.table, sql)
    for key, v in s.views.items():
        if _mentions(v.sql, t.name) and _mentions(v.sql, old):
            changes[key] = ("view", v.name, v.name, _view_renamed(s, v.sql, t, old, nt))
    for key, other in s.tables.items():
        # ("main.x", "temp.x": a merged schema's second names, not rows of their own)
        if other is t or key == "sqlite_schema" or "." in key or not other.sql:
            continue
        if _mentions(other.sql, t.name) and _mentions(other.sql, old):
            changes[key] = ("table", other.name, other.name,
                            _replace_idents(other.sql, old, nt,
                                            only=_after_references(t.name)))
    _check_after_rename(p, changes)
    _write_changes(p, changes, t)
    _finish(p)


def _view_renamed(s, sql, t, old, nt):
    """``sql`` of a view with the names that resolve to column ``old`` of ``t`` renamed
    (alter_refs.py); every token of the name where that resolving does not cover the
    view."""
    positions = view_positions(s, sql, t, old)
    if positions is None:
        return _replace_idents(sql, old, nt)
    return _renamed_at(sql, positions, nt)


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
    check_schema(p)
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
    check_schema(p, "after drop column", altered_schema(p, t, new_t), own)
    _rewrite_schema(p, {t.name.lower(): ("table", t.name, t.name, new_sql)})
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
    _finish(p)


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
