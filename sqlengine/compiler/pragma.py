"""PRAGMA statements and the ``pragma_*`` table-valued functions.

Introspection pragmas (table_info, table_xinfo, index_list, index_info, index_xinfo,
foreign_key_list, database_list, table_list, collation_list, compile_options, and function_list,
module_list, pragma_list of compiler/pragma_lists.py) are answered from the schema at
compile time: a schema change recompiles the statement, so the rows cannot go stale.
Values that change without a schema change (the header cookies, page_count,
freelist_count, journal_mode, per-connection flags) are read or written when the program
runs, through ``OP_Function`` calls on the connection. Unknown pragmas do nothing, as in
SQLite. This module never touches storage at compile time and never runs code.
"""

from __future__ import annotations

import math

from sqlengine.compiler.compile_options import OPTIONS
from sqlengine.compiler.pragma_settings import (DB_SETTINGS, SETTINGS, get_int32, atoi,
                                                compile_setting, get_boolean, leading_int)
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.sql.lexer import next_token
from sqlengine.vdbe import opcodes as O

# Column names of each introspection pragma (also the visible columns of pragma_NAME()).
COLUMNS = {
    "table_info": ["cid", "name", "type", "notnull", "dflt_value", "pk"],
    "table_xinfo": ["cid", "name", "type", "notnull", "dflt_value", "pk", "hidden"],
    "index_list": ["seq", "name", "unique", "origin", "partial"],
    "index_info": ["seqno", "cid", "name"],
    "index_xinfo": ["seqno", "cid", "name", "desc", "coll", "key"],
    "foreign_key_list": ["id", "seq", "table", "from", "to", "on_update", "on_delete",
                         "match"],
    "database_list": ["seq", "name", "file"],
    "table_list": ["schema", "name", "type", "ncol", "wr", "strict"],
    "collation_list": ["seq", "name"],
    "compile_options": ["compile_options"],
    "function_list": ["name", "builtin", "type", "enc", "narg", "flags"],
    "module_list": ["name"],
    "pragma_list": ["name"],
}

# Flags kept per connection: name -> (attribute on the Database, default).
FLAGS = {
    "foreign_keys": ("foreign_keys", 0),
    "recursive_triggers": ("recursive_triggers", 0),
    "legacy_alter_table": ("legacy_alter_table", 0),
    "defer_foreign_keys": ("defer_foreign_keys", 0),
    "reverse_unordered_selects": ("reverse_unordered_selects", 0),
    "count_changes": ("count_changes", 0),
    "full_column_names": ("full_column_names", 0),
    "short_column_names": ("short_column_names", 1),
    "empty_result_callbacks": ("empty_result_callbacks", 0),
    "automatic_index": ("automatic_index", 1),
    "cell_size_check": ("cell_size_check", 0),
    "query_only": ("query_only", 0),
    "read_uncommitted": ("read_uncommitted", 0),
    "trusted_schema": ("trusted_schema", 1),
    # (F_FULLFSYNC, macOS only in SQLite: kept and shown, no effect here)
    "fullfsync": ("fullfsync", 0),
    "checkpoint_fullfsync": ("checkpoint_fullfsync", 0),
}

# The pragmas that act on one database (SQLite's PragFlg_SchemaReq / SchemaOpt): with a
# schema name they go to that database (compiler/attach.py); the others set or read the
# connection, whatever schema name they are given.
DB_PRAGMAS = frozenset((
    "application_id", "auto_vacuum", "cache_size", "cache_spill", "default_cache_size",
    "freelist_count", "incremental_vacuum", "index_info", "index_list", "index_xinfo",
    "integrity_check", "journal_mode", "journal_size_limit", "locking_mode",
    "max_page_count", "mmap_size", "page_count", "page_size", "quick_check",
    "schema_version", "secure_delete", "synchronous", "table_info", "table_list",
    "table_xinfo", "user_version", "wal_checkpoint", "foreign_key_check",
    "foreign_key_list"))

# Read-only or connection-level values with SQLite's defaults.
CONSTANTS = {
    "encoding": "UTF-8",
    "threads": 0,
    "soft_heap_limit": 0,
    "hard_heap_limit": 0,
}

_META = {"schema_version": 1, "user_version": 6, "application_id": 8}

# The pragmas compile_pragma answers by name besides those of the tables above (for
# PRAGMA pragma_list, which lists every pragma the engine implements).
_NAMED = ("foreign_key_check", "case_sensitive_like", "ignore_check_constraints",
          "wal_checkpoint", "wal_autocheckpoint",
          "writable_schema", "integrity_check", "quick_check", "page_size", "page_count",
          "freelist_count", "journal_mode", "synchronous", "cache_size", "busy_timeout",
          "mmap_size", "data_version", "auto_vacuum")

_LARGEST_ROOT_META, _INCR_VACUUM_META = 4, 7  # (header offsets 52 and 64)


def _auto_vacuum(db) -> int:
    """PRAGMA auto_vacuum as the database's header records it: 0 NONE (no largest root
    page), 1 FULL, 2 INCREMENTAL (the incremental-vacuum flag set)."""
    bt = db.bt
    if not bt.get_meta(_LARGEST_ROOT_META):
        return 0
    return 2 if bt.get_meta(_INCR_VACUUM_META) else 1


def _value(v):
    if isinstance(v, A.Literal):
        return v.value
    if isinstance(v, A.Column):
        return v.name
    if isinstance(v, A.Unary) and isinstance(v.operand, A.Literal):
        x = v.operand.value
        if isinstance(x, (int, float)):
            return -x if v.op == "-" else x
        return x
    return None


_SAFETY_WORDS = {"on": 1, "no": 0, "off": 0, "false": 0, "yes": 1, "true": 1, "extra": 3,
                 "full": 2, "normal": 1}


def _safety_level(v) -> int:
    """PRAGMA synchronous's value as SQLite reads it (getSafetyLevel, then kept plus one
    in three bits, 0 taken as 1): a leading digit is read as an integer, else one of the
    words, else NORMAL; the level reported back is 0..7 (OFF, NORMAL, FULL, EXTRA; above
    EXTRA it syncs as FULL)."""
    text = str(v).lower() if not isinstance(v, bool) else ("true" if v else "false")
    if text[:1].isdigit():
        n = _int_value(text)
    else:
        n = _SAFETY_WORDS.get(text, 1)
    return (((n + 1) & 7) or 1) - 1


def _synchronous(db) -> int:
    level = getattr(db.bt, "synchronous_pragma", None)
    return level if level is not None else getattr(db.bt, "synchronous", 2)


def _int_value(v) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return int(v)
    s = str(v).strip()
    try:
        return int(s)
    except ValueError:
        pass
    return leading_int(s)  # the leading integer, as sqlite3Atoi


def _atoi(v) -> int:
    """sqlite3Atoi of a pragma's value (cache_size, busy_timeout): its leading 32-bit
    integer; 0 when it has none or one past 32 bits (9223372036854775808, ' 7')."""
    if isinstance(v, (bool, int, float)):
        n = int(v) if not isinstance(v, float) or math.isfinite(v) else 0
        return n if -0x80000000 <= n <= 0x7FFFFFFF else 0
    return get_int32(v) or 0


def _emit_rows(p, ncols, rows, dest=None):
    b = p.b
    for row in rows:
        base = b.alloc_reg(ncols)
        for i, v in enumerate(row):
            p.emit_constant(v, base + i)
        if dest is None:
            b.emit(O.OP_ResultRow, base, ncols)
        else:
            dest.emit(p, base, ncols)


def _mmap_size(p, st, val):
    """PRAGMA mmap_size[=N]: the connection's limit (N < 0: the default, 0; at most SQLite's
    SQLITE_MAX_MMAP_SIZE); an in-memory database (temp too) has no file to map: no row."""
    if p.db._memory or (st.schema or "").lower() == "temp":
        return ["mmap_size"]
    if st.value is not None:
        n = _int_value(val)

        def setmmap(db, n=n):
            db.mmap_size = min(max(n, 0), 0x7FFF0000)
            return db.mmap_size
        _emit_call(p, setmmap)
    else:
        _emit_call(p, lambda db: getattr(db, "mmap_size", 0))
    return ["mmap_size"]


def _emit_call(p, fn, nresult=1, dest=None):
    """Emit a call of fn(vm) at run time; its value becomes one result row (to ``dest``
    when given)."""
    b = p.b
    r = b.alloc_reg()
    b.emit(O.OP_Function, 0, r, r, lambda vm, args: fn(vm.db), 0)
    if dest is not None:
        dest.emit(p, r, 1)
    elif nresult:
        b.emit(O.OP_ResultRow, r, 1)
    return r


def _check(db, quick, limit, table=None):
    """integrity_check / quick_check messages, at most ``limit`` (quick_check leaves out the
    comparison of index entries with table rows, as SQLite's does); ``table``: the name of
    the one table (with its indexes) to check."""
    bt = db.bt
    if table is not None:
        return _check_table(db, quick, limit, table)
    if quick:
        hook, bt.index_check = bt.index_check, None
        try:
            msgs = bt.integrity_check(max_errors=limit)
        finally:
            bt.index_check = hook
    else:
        msgs = bt.integrity_check(max_errors=limit)
    return msgs[:limit]


def _check_table(db, quick, limit, name):
    """PRAGMA integrity_check(TABLE): the b-trees of the table and its indexes (a view has
    none: "ok"), then, unless ``quick``, its index entries against its rows."""
    t = db.schema.table(name)
    if t is None or not t.root:
        return ["ok"]
    owner = _owner(db, t)
    if owner is not None:  # a table of temp or an attached file: checked by its Database
        return _check_table(owner.db, quick, limit, t.name)
    roots = [t.root] + [ix.root for ix in t.indexes if ix.root and ix.root != t.root]
    msgs = db.bt.integrity_check(roots=roots, max_errors=limit, partial=True)
    if not quick and db.bt.index_check is not None:
        errs = [] if msgs == ["ok"] else msgs
        errs = errs + db._index_integrity(limit - len(errs), only=t)
        msgs = errs or ["ok"]
    return msgs[:limit]


def _check_args(p, name, val, schema):
    """(limit, table name) of integrity_check(ARG) / quick_check(ARG): a number is the
    most messages to give (100 when not positive), anything else names a table or view
    of the schema, which must exist (SQLite's sqlite3LocateTable: "no such table")."""
    limit, table = 100, None
    if val is None:
        return limit, table
    if isinstance(val, (int, float)) or str(val).strip().lstrip("+-").isdigit():
        n = _int_value(val)
        return (n if n > 0 else limit), None
    s = p.schema
    key = str(val)
    found = (s.table(key) is not None or key.lower() in s.views
             or key.lower() in ("sqlite_master", "sqlite_temp_master", "sqlite_temp_schema"))
    temp_obj = _in_temp(p, key)
    if schema == "temp" and not temp_obj or schema == "main" and temp_obj and \
            p.schema_given or not found:
        prefix = f"{schema}." if p.schema_given else ""
        raise OperationalError(f"no such table: {prefix}{key}")
    if key.lower() in ("sqlite_master", "sqlite_temp_master", "sqlite_temp_schema"):
        key = "sqlite_schema"
    return limit, key


def _owner(db, t):
    """The ``attach.Attached`` database holding table ``t`` (None: main's own)."""
    from sqlengine.compiler.attach import ROOT_SHIFT
    code = (t.root or 0) >> ROOT_SHIFT
    return next((a for a in getattr(db, "attached", ()) if a.code == code), None) \
        if code else None


def _in_temp(p, key):
    t = p.schema.table(key)
    owner = _owner(p.db, t) if t is not None else None
    return owner is not None and owner.name == "temp"


def _emit_messages(p, fn, dest=None):
    """One result row per message of fn(db) (a list of strings), computed at run time: the
    list is kept in a register and walked by index (rows to ``dest`` when given)."""
    b = p.b
    base = b.alloc_reg(2)
    out = b.alloc_reg()
    b.emit(O.OP_Function, 0, base, base, lambda vm, args: fn(vm.db), 0)
    b.emit(O.OP_Integer, 0, base + 1)
    top = b.addr()
    b.emit(O.OP_Function, 0, base, out, _message_at, 2)
    done = b.new_label()
    b.emit(O.OP_IsNull, out, done)
    if dest is not None:
        dest.emit(p, out, 1)
    else:
        b.emit(O.OP_ResultRow, out, 1)
    b.emit(O.OP_Function, 0, base + 1, base + 1, lambda vm, args: args[0] + 1, 1)
    b.emit(O.OP_Goto, 0, top)
    b.resolve(done)


def _message_at(vm, args):
    msgs, i = args
    return msgs[i] if i < len(msgs) else None


def _code_check(p, name, val, schema, dest=None):
    limit, table = _check_args(p, name, val, schema)
    p.b.emit(O.OP_Transaction, 0, 0)
    _emit_messages(p, lambda db, q=name == "quick_check", n=limit, t=table:
                   _check(db, q, n, t), dest)


def _check_schema(p, st):
    if st.schema is None:
        return "main"
    s = st.schema.lower()
    if s == "temp":
        p.db.temp_used = True
    if s in ("main", "temp"):
        return s
    if st.name.lower() not in DB_PRAGMAS:  # (a connection's pragma: any attached name)
        from sqlengine.compiler.attach import find
        if find(p.db, s) is not None:
            return "main"
    raise OperationalError(f"unknown database {st.schema}")


# ------------------------------------------------------------------------------------------
# Entry points
# ------------------------------------------------------------------------------------------

def compile_pragma(p, st: A.Pragma, dest=None):
    """Emit the code of one PRAGMA; returns its result column names (its rows to ``dest``
    when given: a pragma_NAME function's, which never sets a value)."""
    name = st.name.lower()
    schema = _check_schema(p, st)
    p.schema_given = st.schema is not None
    val = _value(st.value) if st.value is not None else None
    b = p.b
    if name == "foreign_key_check":
        return _foreign_key_check(p, val, schema)
    names = _temp_pragma(p, name, schema, st, val, dest)
    if names is not None:
        return names
    if name == "module_list":
        from sqlengine.compiler.pragma_lists import module_names
        _emit_messages(p, module_names)
        return ["name"]
    if name in COLUMNS:
        rows = pragma_rows(p, name, val, schema)
        _emit_rows(p, len(COLUMNS[name]), rows)
        return list(COLUMNS[name])
    if name in _META:
        meta = _META[name]
        if st.value is not None:
            p.write = True
            b.emit(O.OP_Transaction, 0, 1)
            # (sqlite3Atoi: the leading 32-bit integer, 0 when none or out of range)
            b.emit(O.OP_SetCookie, 0, meta, atoi(val) & 0xFFFFFFFF)
            return []
        b.emit(O.OP_Transaction, 0, 0)
        # (each read as SQLite's OP_ReadCookie reads it: a signed 32-bit integer)
        _emit_call(p, lambda db, m=meta: _signed32(db.bt.get_meta(m)), dest=dest)
        return [name]
    if name in FLAGS:
        attr, default = FLAGS[name]
        if st.value is not None:
            on = int(get_boolean(val, 0))

            def setflag(db, attr=attr, on=on, default=default):
                if attr == "foreign_keys" and not db.autocommit:
                    return None  # a no-op inside a transaction, as in SQLite
                if int(getattr(db, attr, default)) != on:
                    if attr == "query_only":
                        from sqlengine.compiler.pragma_settings import set_query_only
                        set_query_only(db, on)
                    else:
                        setattr(db, attr, on)
                    if attr == "reverse_unordered_selects" and on:
                        from sqlengine.compiler._where import note_reverse_order
                        note_reverse_order()
                    _expire_statements(db)
                return None
            _emit_call(p, setflag, 0)
            return []
        _emit_call(p, lambda db, attr=attr, d=default: int(getattr(db, attr, d)), dest=dest)
        return [name]
    if name in ("case_sensitive_like", "ignore_check_constraints", "writable_schema"):
        if st.value is not None:
            on = get_boolean(val, 0)

            def setflag2(db, attr=name, on=on):
                if bool(getattr(db, attr, False)) != on:
                    setattr(db, attr, on)
                    _expire_statements(db)
                return None
            _emit_call(p, setflag2, 0)
            if name != "case_sensitive_like":
                return []
            return []
        if name == "case_sensitive_like":
            return []
        _emit_call(p, lambda db, attr=name: int(bool(getattr(db, attr, False))), dest=dest)
        return [name]
    if name in ("integrity_check", "quick_check"):
        _code_check(p, name, val, schema)
        return [name]
    if name == "page_size":
        if st.value is not None:
            n = _int_value(val)
            from sqlengine.compiler.pragma_settings import set_page_size
            _emit_call(p, lambda db, n=n: set_page_size(db, n), 0)
            return []
        _emit_call(p, lambda db: db.bt.page_size, dest=dest)
        return [name]
    if name in ("page_count", "freelist_count"):
        b.emit(O.OP_Transaction, 0, 0)
        if name == "page_count":
            _emit_call(p, lambda db: db.bt.page_count(), dest=dest)
        else:
            _emit_call(p, lambda db: db.bt.freelist_count(), dest=dest)
        return [name]
    if name == "journal_mode":
        if st.value is not None:
            mode = str(val).lower()
            if mode not in ("delete", "truncate", "persist", "memory", "wal", "off"):
                mode = None

            def setmode(db, mode=mode):
                if mode is None:
                    return db.bt.journal_mode
                return db.bt.set_journal_mode(mode)
            _emit_call(p, setmode, dest=dest)
        else:
            _emit_call(p, lambda db: db.bt.journal_mode, dest=dest)
        return [name]
    if name == "synchronous":
        if st.value is None:
            _emit_call(p, _synchronous, dest=dest)
            return [name]
        level = _safety_level(val)

        def setsync(db, level=level):
            if not db.autocommit:
                raise OperationalError("Safety level may not be changed inside a transaction")
            db.bt.synchronous_pragma = level
            db.bt.synchronous = level if level <= 3 else 2  # (4 and 5 sync as FULL)
            return None
        _emit_call(p, setsync, 0)
        return []
    if name == "cache_size":
        if st.value is not None:
            n = _atoi(val)

            def setcache(db, n=n):
                db.bt.cache_size = n
                return None
            _emit_call(p, setcache, 0)
            return []
        _emit_call(p, lambda db: db.bt.cache_size, dest=dest)
        return [name]
    if name == "busy_timeout":
        if st.value is not None:
            n = _atoi(val)

            def settimeout(db, n=n):
                db.bt.busy_timeout = max(n, 0) / 1000.0
                return max(n, 0)
            _emit_call(p, settimeout, dest=dest)
        else:
            _emit_call(p, lambda db: int(round(db.bt.busy_timeout * 1000)), dest=dest)
        return ["timeout"]
    if name == "mmap_size":
        return _mmap_size(p, st, val)
    if name == "wal_checkpoint":  # (no database here is ever in WAL mode: SQLite's answer)
        _emit_rows(p, 3, [(0, -1, -1)], dest)
        return ["busy", "log", "checkpointed"]
    if name == "wal_autocheckpoint":
        # kept per connection (it acts in WAL mode only, which this engine has not)
        if st.value is not None:
            n = max(_int_value(val), 0)
            _emit_call(p, lambda db, n=n: setattr(db, "wal_autocheckpoint", n) or n, dest=dest)
        else:
            _emit_call(p, lambda db: getattr(db, "wal_autocheckpoint", 1000), dest=dest)
        return [name]
    if name in SETTINGS:
        return compile_setting(p, name, st, val, _emit_call, dest)
    if name == "auto_vacuum":
        # the mode the file was made with; a setting is ignored (README, Known gaps)
        if st.value is not None:
            return []
        p.b.emit(O.OP_Transaction, 0, 0)
        _emit_call(p, _auto_vacuum, dest=dest)
        return [name]
    if name in CONSTANTS:
        if st.value is not None:
            return []
        _emit_rows(p, 1, [(CONSTANTS[name],)], dest)
        return [name]
    if name == "data_version":
        # (read as a read transaction begins: another connection's commit counts)
        p.b.emit(O.OP_Transaction, 0, 0)
        _emit_call(p, lambda db: db.bt.pager.data_version, dest=dest)
        return [name]
    return []


# what SQLite's temp database answers before it is made (a value set makes it first:
# attach._temp_target)
_TEMP_UNMADE = {"page_count": 0, "freelist_count": 0, "cache_size": -2000, "auto_vacuum": 0,
                "schema_version": 0, "user_version": 0, "application_id": 0}


def _temp_pragma(p, name, schema, st, val, dest):
    """The temp database's answers where they are not a database file's: its journal mode
    is its own setting (pragma_settings.temp_journal_mode), it syncs never (synchronous 0,
    a setting ignored) and is locked exclusively; before it is made, the values of an
    empty database (read as the statement runs). None for anything else."""
    made = getattr(p.db, "is_temp", False)  # (compiled on the temp database itself)
    if not made and schema != "temp":
        return None
    if name == "journal_mode":
        from sqlengine.compiler.pragma_settings import temp_journal_mode, temp_journal_unmade
        mode = str(val).lower() if st.value is not None else None
        if not made:
            _emit_call(p, lambda db: _temp_value(db, name, temp_journal_unmade(db)), dest=dest)
        else:
            _emit_call(p, lambda db, mode=mode: temp_journal_mode(db, mode), dest=dest)
        return [name]
    if name == "synchronous":
        if st.value is None:
            _emit_rows(p, 1, [(0,)], dest)
            return [name]
        return []
    if name == "locking_mode":
        _emit_rows(p, 1, [("exclusive",)], dest)
        return [name]
    if not made and name in DB_SETTINGS and st.value is None:
        from sqlengine.compiler.pragma_settings import temp_unmade
        _emit_call(p, lambda db: _temp_value(db, name, temp_unmade(db, name)), dest=dest)
        return ["cache_size" if name == "default_cache_size" else name]
    if not made and name == "page_size" and st.value is None:
        from sqlengine.compiler.pragma_settings import temp_page_size
        _emit_call(p, lambda db: _temp_value(db, name, temp_page_size(db)), dest=dest)
        return [name]
    if not made and name in _TEMP_UNMADE and st.value is None:
        _emit_call(p, lambda db: _temp_value(db, name, _TEMP_UNMADE[name]), dest=dest)
        return [name]
    return None


def _temp_value(db, name, unmade):
    """PRAGMA temp.NAME as the statement runs: the temp database's value, or ``unmade``
    while there is none (a program compiled before it was made may run after)."""
    from sqlengine.compiler.attach import find
    temp = find(db, "temp")
    if temp is None:
        return unmade
    rows = temp.db.execute(f"PRAGMA {name}")
    return rows[0][0] if rows else None


def _foreign_key_check(p, val, schema, dest=None):
    """PRAGMA foreign_key_check[(table)]: one row per (row, foreign key) without a parent,
    in rowid then foreign-key order for each table (to ``dest`` when given: the
    pragma_foreign_key_check table-valued function)."""
    from sqlengine.compiler.fkey import _foreign_keys, _key_found, _parent_columns, _q
    from sqlengine.compiler.select import OutputDest, compile_select
    from sqlengine.sql import parse_one
    names = ["table", "rowid", "parent", "fkid"]
    s = p.schema
    if val is not None:
        t = s.table(str(val))
        if t is None:
            raise OperationalError(f"no such table: {val}")
        tables = [t]
    else:
        # main's own tables only (a merged schema also lists attached and main.x aliases)
        own = getattr(s, "main", s)
        from sqlengine.compiler.analyze import hash_order
        # (in the order SQLite walks its table hash: the first key that fails names it)
        tables = hash_order(p, [t for k, t in own.tables.items() if k != "sqlite_schema"])
    if schema == "temp":
        tables = []
    p.b.emit(O.OP_Transaction, 0, 0)
    for t in tables:
        fks = _foreign_keys(t)
        parts = []
        for fkid, (ccols, fk) in enumerate(reversed(fks)):
            parent, pcols = _parent_columns(s, fk)
            if parent is not None and not _key_found(parent, fk, pcols, ccols):
                raise OperationalError(
                    f'foreign key mismatch - "{t.name}" referencing "{parent.name}"')
            cq = _q(t.name)
            notnull = " AND ".join(f"{cq}.{_q(c)} IS NOT NULL" for c in ccols)
            rowid = "NULL" if t.without_rowid else f"{cq}.rowid"
            head = (f"SELECT {_sql_str(t.name)}, {rowid}, {_sql_str(fk.table)}, {fkid} "
                    f"FROM {cq} WHERE {notnull}")
            if parent is not None and pcols is not None and len(pcols) == len(ccols):
                match = " AND ".join(f"{_q(parent.name)}.{_q(pc)} = {cq}.{_q(c)}"
                                     for c, pc in zip(ccols, pcols))
                head += f" AND NOT EXISTS (SELECT 1 FROM {_q(parent.name)} WHERE {match})"
            parts.append(head)
        if not parts:
            continue
        sql = "SELECT * FROM (" + " UNION ALL ".join(parts) + ") ORDER BY 2, 4"
        compile_select(p, parse_one(sql).stmt, dest or OutputDest())
    return names


def _sql_str(v):
    return "'" + str(v).replace("'", "''") + "'"


def _expire_statements(db):
    """Make prepared statements recompile (a flag read at compile time changed)."""
    if hasattr(db, "_schema_version"):
        db._schema_version += 1
        db.schema.version = db._schema_version


def _signed32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


# ------------------------------------------------------------------------------------------
# Table-valued pragma functions: SELECT ... FROM pragma_table_info('t')
# ------------------------------------------------------------------------------------------

# the pragmas whose pragma_NAME function takes an argument and a schema: its hidden
# columns "arg" and "schema" (SQLite's pragma virtual table declares them)
_FUNCTION_ARGS = frozenset(("table_info", "table_xinfo", "index_list", "index_info",
                            "index_xinfo", "foreign_key_list", "foreign_key_check",
                            "integrity_check", "quick_check", "table_list"))
# of those, the ones whose function has "arg" alone (SQLite's PragFlg_Result1 without
# PragFlg_SchemaOpt): it takes one argument
_ARG_ONLY = frozenset(("table_list",))


def _hidden_columns(prag):
    """The HIDDEN columns of the pragma_NAME function of list pragma ``prag``."""
    if prag not in _FUNCTION_ARGS:
        return []
    return ["arg"] if prag in _ARG_ONLY else ["arg", "schema"]


def function_columns(prag):
    """The column names of the pragma_NAME function of pragma ``prag`` (its hidden
    "arg" and "schema" included), or None when that function does not exist."""
    if prag in ("integrity_check", "quick_check"):
        cols = [prag]
    elif prag == "foreign_key_check":
        cols = ["table", "rowid", "parent", "fkid"]
    elif prag in COLUMNS:
        cols = list(COLUMNS[prag])
    elif prag in _VALUE_FUNCTIONS:
        cols = ["timeout" if prag == "busy_timeout" else prag]
        return cols + ["schema"] if _VALUE_FUNCTIONS[prag] else cols
    else:
        return None
    return cols + _hidden_columns(prag)


# the one-value pragmas SQLite also gives as pragma_NAME functions (those this engine
# answers), with the most arguments each takes: 1 where it has a hidden schema column
# (its argument names the database, as in SQLite's pragma virtual table)
_VALUE_FUNCTIONS = dict.fromkeys((
    "analysis_limit", "application_id", "automatic_index", "busy_timeout", "cell_size_check",
    "checkpoint_fullfsync", "fullfsync", "count_changes", "data_version", "defer_foreign_keys", "empty_result_callbacks",
    "encoding", "foreign_keys", "freelist_count", "full_column_names", "hard_heap_limit",
    "ignore_check_constraints", "legacy_alter_table", "query_only", "read_uncommitted",
    "recursive_triggers", "reverse_unordered_selects", "schema_version", "secure_delete",
    "optimize",
    "short_column_names", "soft_heap_limit", "temp_store", "threads", "trusted_schema",
    "user_version", "writable_schema"), 0) | dict.fromkeys((
        "auto_vacuum", "cache_size", "journal_mode", "journal_size_limit", "locking_mode",
        "max_page_count", "page_count", "page_size", "synchronous", "cache_spill",
        "default_cache_size"), 1)
# (pragma_optimize's one argument is its value, in its HIDDEN column arg)
_VALUE_FUNCTIONS["optimize"] = 1


def _value_function_source(p, item, prag, Source, TableDest):
    """pragma_NAME([SCHEMA]) of a one-value pragma: the rows ``PRAGMA SCHEMA.NAME`` gives,
    computed when the statement reaches the FROM clause. One
    that takes a schema has SQLite's HIDDEN column ``schema``, which reads NULL (its
    pragma virtual table files a lone schema argument in the slot of ``arg``)."""
    from sqlengine.compiler.pragma_lists import register_module
    register_module(p.db, item.name)
    most = _VALUE_FUNCTIONS[prag]
    if len(item.args) > most:
        raise OperationalError(f"too many arguments on {item.name}() - max {most}")
    schema = _value(item.args[0]) if item.args else None
    hidden = (None,)
    if prag == "optimize":  # (its argument: the value, in column arg)
        schema, hidden = None, _arg_texts([schema] if item.args else [])[:1]
    if schema is not None:
        schema = str(schema)
        if schema.lower() not in ("main", "temp"):
            from sqlengine.compiler.attach import find
            if find(p.db, schema) is None:
                raise OperationalError(f"unknown database '{schema}'")
            return _attached_value_source(p, item, prag, schema, Source)
    b = p.b
    cur = b.alloc_cursor()
    once = b.new_label()
    b.emit(O.OP_Once, 0, once)
    b.emit(O.OP_OpenEphemeral, cur, 0)
    dest = TableDest(cur)
    if most:
        dest = _HiddenDest(dest, hidden)
    names = compile_pragma(p, A.Pragma(prag, schema), dest)
    b.resolve(once)
    return _function_source(item, cur, names, dest, prag == "optimize")


def _attached_value_source(p, item, prag, schema, Source):
    """pragma_NAME('aux') of a one-value pragma on attached database ``aux``: the rows its
    own ``PRAGMA NAME`` gives (its file's settings), run when the statement reaches the
    FROM clause."""
    from sqlengine.compiler.tablefunc import args_source

    def rows(db, schema=schema, prag=prag):
        from sqlengine.compiler.attach import find
        att = find(db, schema)
        if att is None:  # (detached since)
            raise OperationalError(f"unknown database '{schema}'")
        return [tuple(r) + (None,) for r in att.db.execute(f'PRAGMA "{prag}"')]
    bare = A.TableFunctionRef(item.name, [], None, item.alias)
    return args_source(p, bare, None, Source, [prag, "schema"], rows, 1)


class _HiddenDest:
    """Rows to ``dest`` with the constant values of a pragma function's HIDDEN columns
    (its arguments as text, SQLite's ``arg`` and ``schema``) after each row's own."""

    def __init__(self, dest, values):
        self.dest = dest
        self.values = values

    def emit(self, p, base, n):
        from sqlengine.compiler._codegen import emit_constant
        b = p.b
        k = len(self.values)
        regs = b.alloc_reg(n + k)
        b.emit(O.OP_Copy, base, regs, n - 1)
        for i, v in enumerate(self.values):
            emit_constant(b, v, regs + n + i)
        self.dest.emit(p, regs, n + k)


def _function_source(item, cur, names, dest, arg_only=False):
    """The Source of a pragma function whose rows ``dest`` put in ``cur``: its columns
    ``names``, then the HIDDEN ones ``dest`` adds (``arg_only``: its one is arg)."""
    from sqlengine.compiler.tablefunc import hidden_source
    if type(dest) is not _HiddenDest:
        return hidden_source(item.alias or item.name, cur, list(names), 0)
    hidden = ["arg"] if arg_only else ["arg", "schema"][-len(dest.values):]
    return hidden_source(item.alias or item.name, cur, list(names) + hidden, len(hidden))


def _arg_texts(values):
    """The values of a pragma function's HIDDEN ``arg`` and ``schema`` columns for its
    arguments ``values``: each as text (SQLite's pragma virtual table keeps them so),
    NULL when not given."""
    from sqlengine.vdbe._values import to_text
    vals = list(values)[:2]
    return tuple(to_text(v) for v in vals) + (None,) * (2 - len(vals))


def pragma_function_source(p, item, Source, TableDest, scope=None, bind=None):
    """A FROM source for ``pragma_NAME(arg)`` (or a bare ``pragma_NAME``) in ``scope``;
    None when NAME is not a table pragma. The list pragmas' arguments are expressions,
    evaluated when the statement runs (``pragma_table_info(m.name)`` reads the row of the
    FROM item on its left), and their rows are computed then; ``bind``: the WHERE terms
    that may give the arguments after the call's (tablefunc.function_source)."""
    name = item.name.lower()
    if not hasattr(item, "args"):
        item = A.TableFunctionRef(item.name, [], None, item.alias)
    if not name.startswith("pragma_"):
        return None
    prag = name[7:]
    checks = prag in ("integrity_check", "quick_check")
    if prag in _VALUE_FUNCTIONS:
        return _value_function_source(p, item, prag, Source, TableDest)
    if prag not in COLUMNS and not checks and prag != "foreign_key_check":
        return None
    from sqlengine.compiler.pragma_lists import module_names, register_module
    register_module(p.db, name)
    hidden = _hidden_columns(prag)
    most = len(hidden)  # (its arguments: the values of its hidden arg and schema columns)
    if len(item.args) > most:
        raise OperationalError(f"too many arguments on {item.name}() - max {most}")
    p.schema_given = len(item.args) > 1
    if prag in COLUMNS and prag != "module_list":
        from sqlengine.compiler.tablefunc import args_source
        cols = list(COLUMNS[prag])
        if not hidden:
            return args_source(p, item, scope, Source, cols,
                               lambda db, *values, prag=prag: _rows_now(db, prag, values))
        return args_source(p, item, scope, Source, cols + hidden,
                           lambda db, *values, prag=prag, k=most: [
                               tuple(r) + _arg_texts(values)[:k]
                               for r in _rows_now(db, prag, values)], most, bind)
    args = [_value(a) for a in item.args]
    schema = _schema_arg(p.db, args)
    val = args[0] if args else None
    if prag == "foreign_key_check":
        cur = p.b.alloc_cursor()
        once = p.b.new_label()
        p.b.emit(O.OP_Once, 0, once)
        p.b.emit(O.OP_OpenEphemeral, cur, 0)
        dest = _HiddenDest(TableDest(cur), _arg_texts(args))
        names = _foreign_key_check(p, val, schema, dest)
        p.b.resolve(once)
        return _function_source(item, cur, names, dest)
    # integrity_check, quick_check, module_list: rows computed when the statement runs
    cur = p.b.alloc_cursor()
    once = p.b.new_label()
    p.b.emit(O.OP_Once, 0, once)
    p.b.emit(O.OP_OpenEphemeral, cur, 0)
    dest = TableDest(cur)
    if checks:
        dest = _HiddenDest(dest, _arg_texts(args))
        _code_check(p, prag, val, schema, dest)
    else:
        _emit_messages(p, module_names, dest)
    p.b.resolve(once)
    return _function_source(item, cur, ["name" if prag == "module_list" else prag], dest)


def _rows_now(db, prag, values):
    """The rows of list pragma ``prag`` for the arguments ``values`` ([arg[, schema]]), as
    the statement runs."""
    from sqlengine.compiler.context import Parse
    q = Parse(db, "")
    q.schema_given = len(values) > 1
    schema = _schema_arg(db, values)
    return pragma_rows(q, prag, values[0] if values else None, schema)


def _schema_arg(db, values):
    """The lower-case database a pragma function's arguments ``values`` ([arg[,
    schema]]) name: main without a schema (or a NULL one); one that names no database
    fails as SQLite's pragma virtual table does (its schema read as text)."""
    if len(values) < 2 or values[1] is None:
        return "main"
    from sqlengine.vdbe._values import to_text
    name = to_text(values[1])
    low = name.lower()
    if low not in ("main", "temp"):
        from sqlengine.compiler.attach import find
        if find(db, name) is None:
            raise OperationalError(f"unknown database '{name}'")
    return low


# ------------------------------------------------------------------------------------------
# Rows of the introspection pragmas
# ------------------------------------------------------------------------------------------

def pragma_rows(p, name, val, schema="main"):
    """The rows of an introspection pragma (none when it names no object: it still has its
    columns, as in SQLite)."""
    s = p.schema
    if name == "database_list":
        rows = [(0, "main", _db_file(p))]
        if getattr(p.db, "temp_used", False) or any(
                att.name == "temp" for att in getattr(p.db, "attached", ())):
            rows.append((1, "temp", ""))
        # (the attached files, numbered from 2 in the order attached: also when a
        # statement made before an ATTACH is compiled again, or pragma_database_list)
        others = [att for att in getattr(p.db, "attached", ()) if att.name != "temp"]
        return rows + [(i + 2, att.name, att.path) for i, att in enumerate(others)]
    if name == "collation_list":
        return list(enumerate(p.db.collations.listed()))
    if name == "table_list":
        return _table_list(p, val, schema)
    if name == "compile_options":
        return [(o,) for o in OPTIONS]
    if name == "function_list":
        from sqlengine.compiler import pragma_lists
        return pragma_lists.function_rows(p.functions.reg)
    if name == "pragma_list":
        names = set(COLUMNS) | set(FLAGS) | set(CONSTANTS) | set(_META) | set(_NAMED) \
            | SETTINGS
        return [(n,) for n in sorted(names)]
    if val is None:  # (no object named: the columns, no row)
        return []
    if schema == "temp":
        return []
    if str(val).lower() in ("sqlite_master", "sqlite_temp_master", "sqlite_temp_schema"):
        val = "sqlite_schema"
    if name in ("table_info", "table_xinfo"):
        t = s.table(str(val))
        if t is None:
            v = s.views.get(str(val).lower())
            if v is None:
                return []
            return _view_info(p, v, name == "table_xinfo")
        return _table_info(t, name == "table_xinfo")
    if name == "index_list":
        t = s.table(str(val))
        if t is None:
            return []
        rows = []
        for i, idx in enumerate(reversed(t.indexes)):
            origin = "pk" if idx.is_pk else ("u" if idx.auto else "c")
            rows.append((i, idx.name, 1 if idx.unique else 0, origin,
                         1 if idx.where is not None else 0))
        return rows
    if name in ("index_info", "index_xinfo"):
        idx = s.indexes.get(str(val).lower())
        if idx is None:
            t = s.table(str(val))
            if t is not None and t.without_rowid:
                idx = next((i for i in t.indexes if i.is_pk), None)
            if idx is None:
                return []
        return _index_info(s, idx, name == "index_xinfo")
    if name == "foreign_key_list":
        t = s.table(str(val))
        if t is None:
            return []
        return _fk_list(t)
    return []


def _db_file(p):
    path = getattr(p.db, "path", "") or ""
    if path in (":memory:", "") or path.startswith("file::memory:") or "mode=memory" in path:
        return ""
    import os
    return os.path.abspath(path)


def _ast_of(sql):
    from sqlengine.sql import parse_one
    parsed = parse_one(sql)
    return parsed.stmt if parsed is not None else None


def clause_spans(sql: str, keyword: str) -> list[str]:
    """The source text of every ``keyword (expr)`` clause (CHECK, AS) of a CREATE TABLE,
    in order: the text between the parentheses, trimmed."""
    toks = _tokens(sql)
    out = []
    for k, (_kind, a, e) in enumerate(toks):
        if sql[a:e].upper() == keyword and k + 1 < len(toks) and toks[k + 1][0] == "LP":
            j = _closing(toks, k + 1)
            end = toks[j][1] if j < len(toks) else len(sql)
            out.append(sql[toks[k + 1][2]:end].strip())
    return out


def _closing(toks, k):
    """The index of the token that closes the parenthesis ``toks[k]`` opens (len(toks)
    when none does)."""
    depth = 0
    j = k
    while j < len(toks):
        if toks[j][0] == "LP":
            depth += 1
        elif toks[j][0] == "RP":
            depth -= 1
            if depth == 0:
                break
        j += 1
    return j


def _tokens(sql):
    """(kind, start, end) of each token of ``sql`` but white space and comments."""
    toks = []
    i = 0
    n = len(sql)
    while i < n:
        kind, end = next_token(sql, i)
        if kind != "SPACE":
            toks.append((kind, i, end))
        i = end
    return toks


def default_spans(sql: str) -> list[str]:
    """The source text of every DEFAULT clause of a CREATE TABLE, in order (SQLite keeps
    the span as written: without the parentheses of ``DEFAULT (expr)``)."""
    toks = _tokens(sql)
    out = []
    k = 0
    while k < len(toks):
        kind, a, e = toks[k]
        if kind == "DEFAULT" and sql[a:e].upper() == "DEFAULT" and k + 1 < len(toks):
            nk, na, ne = toks[k + 1]
            if nk == "LP":
                j = _closing(toks, k + 1)
                end = toks[j][1] if j < len(toks) else len(sql)
                out.append(sql[ne:end].strip())
                k = j
            elif nk in ("PLUS", "MINUS") and k + 2 < len(toks):
                out.append(sql[na:toks[k + 2][2]])
                k += 2
            else:
                out.append(sql[na:ne])
                k += 1
        k += 1
    return out


def _table_info(t, xinfo):
    rows = []
    pk_order = {}
    for spec in t.unique_specs:
        if spec[5]:
            for k, c in enumerate(spec[0]):
                pk_order[c] = k + 1
    if t.ipk >= 0:
        pk_order[t.ipk] = 1
    ast = _ast_of(t.sql) if t.sql else None
    spans = default_spans(t.sql) if t.sql else []
    span_of = {}
    generated = {}
    if ast is not None and isinstance(ast, A.CreateTable):
        k = 0
        for i, cd in enumerate(ast.columns):
            for cc in cd.constraints:
                if cc.kind == "DEFAULT":
                    if k < len(spans):
                        span_of[i] = spans[k]
                    k += 1
                elif cc.kind in ("GENERATED", "AS"):
                    generated[i] = 3 if cc.stored else 2
    for i, c in enumerate(t.columns):
        hidden = generated.get(i, 0)
        if hidden and not xinfo:
            continue
        dflt = span_of.get(i) if c.default is not None or i in span_of else None
        notnull = c.notnull or (t.without_rowid and i in pk_order)
        row = (i if xinfo else len(rows), c.name, _type_text(c.type_name), 1 if notnull else 0,
               dflt, pk_order.get(i, 0))
        if xinfo:
            row = row + (hidden,)
        rows.append(row)
    return rows


def _type_text(type_name):
    """The declared type as SQLite reports it: the STRICT type names upper-cased."""
    if not type_name:
        return ""
    if type_name.upper() in ("INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY"):
        return type_name.upper()
    return type_name


def _view_info(p, v, xinfo):
    """PRAGMA table_info of the view ``v``: its body is compiled to learn its columns, so a
    body that no longer compiles (a table dropped under it) is the PRAGMA's error, as in
    SQLite's sqlite3ViewGetColumnNames. Its columns are named as a FROM view's (a name
    true or false is ``columnN``, a repeated one gets ``:N``: sqlite3ColumnsFromExprList)."""
    from sqlengine.compiler._resolve import COLUMN_NAMES
    from sqlengine.compiler.cte import schema_scope
    from sqlengine.compiler.select import _dedupe, result_info_only, view_types
    with schema_scope(p, v):
        info = result_info_only(p, v.select, naming=COLUMN_NAMES)
    names = _dedupe(v.columns if v.columns else info.names)
    decltypes = view_types(info, v.columns).decltypes
    rows = []
    for i, n in enumerate(names):
        row = (i, n, _type_text(decltypes[i]), 0, None, 0)
        if xinfo:
            row = row + (0,)
        rows.append(row)
    return rows


def _coll_name(t, idx, k, c):
    coll = idx.collations[k] if k < len(idx.collations) else None
    if coll is None and c >= 0:
        coll = t.columns[c].collation
    return coll or "BINARY"


def _index_info(s, idx, xinfo):
    t = s.table(idx.table)
    rows = []
    for k, c in enumerate(idx.columns):
        cname = t.columns[c].name if c >= 0 else None
        if xinfo:
            rows.append((k, c, cname, 1 if idx.desc[k] else 0, _coll_name(t, idx, k, c), 1))
        else:
            rows.append((k, c, cname))
    if xinfo:
        k = len(idx.columns)
        if t.without_rowid:  # the rest of the record: no rowid
            from sqlengine.schema import record_tail
            for c, coll, d in record_tail(t, idx):
                rows.append((k, c, t.columns[c].name, 1 if d else 0, coll or "BINARY", 0))
                k += 1
        else:
            rows.append((k, -1, None, 0, "BINARY", 0))
    return rows


def _fk_list(t):
    ast = _ast_of(t.sql) if t.sql else None
    if ast is None or not isinstance(ast, A.CreateTable):
        return []
    fks = []
    for cd in ast.columns:
        for cc in cd.constraints:
            if cc.kind in ("REFERENCES", "FOREIGN KEY") and cc.foreign_key is not None:
                fks.append(([cd.name], cc.foreign_key))
    for tc in ast.constraints:
        if tc.foreign_key is not None:
            fks.append((list(tc.fk_columns or []), tc.foreign_key))
    rows = []
    for fid, (cols, fk) in enumerate(reversed(fks)):
        to = fk.columns or []
        for seq, c in enumerate(cols):
            rows.append((fid, seq, fk.table, c, to[seq] if seq < len(to) else None,
                         fk.on_update or "NO ACTION", fk.on_delete or "NO ACTION", "NONE"))
    return rows


def _table_list(p, val, schema):
    """PRAGMA table_list [(X)]: main's tables then temp's (only the one schema named);
    X is matched against the names SQLite's table hash holds (its schema tables as
    "sqlite_master" / "sqlite_temp_master")."""
    temp = next((a for a in getattr(p.db, "attached", ()) if a.name == "temp"), None)
    dbs = [("main", p.db, p.schema)]
    if temp is not None:
        dbs.append(("temp", temp.db, temp.db.schema))
    rows = []
    for sch, db, s in dbs:
        if p.schema_given and schema != sch:
            continue
        rows += [r for key, r in _table_list_of(p, sch, db, s)
                 if val is None or key.lower() == str(val).lower()]
    if temp is None and (val is None and (not p.schema_given or schema == "temp") or
                         val is not None and str(val).lower() == "sqlite_temp_master"):
        rows.append(("temp", "sqlite_temp_schema", "table", 5, 0, 0))
    return rows


def _table_list_of(p, name, db, s):
    """[(hash key, table_list row)] of one database, in the order SQLite walks its table
    hash (``schema.table_hash_order``); its schema table is listed under its own name."""
    from sqlengine.compiler.attach import ROOT_SHIFT
    from sqlengine.schema import table_hash_order
    bt = getattr(db.bt, "main", db.bt)
    rows = []
    for n in table_hash_order(bt):
        if n == "sqlite_master":
            key = "sqlite_master" if name == "main" else "sqlite_temp_master"
            rows.append((key, (name, "sqlite_schema" if name == "main" else
                               "sqlite_temp_schema", "table", 5, 0, 0)))
            continue
        t = s.tables.get("main." + n.lower()) if name == "main" else None
        t = t if t is not None else s.table(n)
        if t is not None and name == "main" and (t.root or 0) >> ROOT_SHIFT:
            t = None  # (a temp table of the same name: main's is under "main.")
        v = s.views.get(n.lower()) if t is None else None
        if t is not None:
            rows.append((n, (name, t.name, "table", len(t.columns),
                             1 if t.without_rowid else 0, _is_strict(t))))
        elif v is not None:
            try:
                ncol = len(_view_info(p, v, False))
            except OperationalError:  # (SQLite counts the columns it could not name: 0)
                ncol = 0
            rows.append((n, (name, v.name, "view", ncol, 0, 0)))
    return rows


def _is_strict(t):
    ast = _ast_of(t.sql) if t.sql else None
    return 1 if ast is not None and getattr(ast, "strict", False) else 0


def temp_schema_source(p, item, Source):
    """``sqlite_temp_master``: the (empty) schema table of the temp database."""
    p.db.temp_used = True
    b = p.b
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenEphemeral, cur, 0)
    names = ["type", "name", "tbl_name", "rootpage", "sql"]
    return Source(item.alias or item.name, cur, names,
                  [O.AFF_TEXT, O.AFF_TEXT, O.AFF_TEXT, O.AFF_INTEGER, O.AFF_TEXT],
                  [None] * 5, ["TEXT", "TEXT", "TEXT", "INT", "TEXT"])
