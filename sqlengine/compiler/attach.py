"""ATTACH / DETACH: further database files (``aux.t``) beside ``main`` in one connection.

Each attached file is a ``Database`` of its own (its b-tree, its schema). The main
connection sees it through three devices, set up only while something is attached, so a
connection without attachments runs exactly as before:

- the *merged schema*: a copy of main's schema dictionaries plus every attached object under
  ``"aux.name"`` (and under its bare name when main has no object of that name, SQLite's
  search order), with root pages tagged by the database (``code << ROOT_SHIFT | root``);
- a *multi b-tree* in place of ``db.bt``: it forwards to main's b-tree, sends a cursor on a
  tagged root to the attached file's b-tree (beginning its transaction on first use) and
  commits / rolls back / savepoints every file together;
- a prepare step (``prepare_attached``) that rewrites ``aux.t`` into the merged names, runs
  ATTACH and DETACH, answers ``PRAGMA database_list``, and sends DDL and PRAGMAs aimed at an
  attached schema (``CREATE TABLE aux.t``, ``PRAGMA aux.user_version``) to that file's own
  ``Database`` with the qualifier removed (SQLite stores ``CREATE TABLE t(...)`` there too).

The ``temp`` database is one more of these (an in-memory ``Database`` made by the first
CREATE TEMP ...), searched before main as in SQLite; TEMP triggers on main tables are kept
in it and hung on main's tables in the merged schema.

This module never emits VM code of its own and never reads pages itself.
A transaction that wrote to two or more files commits through a super-journal, as SQLite
does (``Btree.commit_together``): after a crash either every file holds it or none.
Known limits: schema changes made to an attached file by another connection are not noticed.
"""

from __future__ import annotations

import copy
import os
import re
import weakref

from sqlengine import errors as E
from sqlengine import schema as S
from sqlengine.compiler.pragma_settings import attach_settings, made_temp
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A

ROOT_SHIFT = 40
ROOT_MASK = (1 << ROOT_SHIFT) - 1
MAX_ATTACHED = 10

_DDL = (A.CreateTable, A.CreateIndex, A.CreateView, A.CreateTrigger, A.Drop, A.AlterTable,
        A.Pragma, A.Reindex, A.Analyze, A.Vacuum)


class Attached:
    """One attached database: its schema name, file name, engine and root tag."""

    def __init__(self, name, path, db, code):
        self.name = name
        self.path = path
        self.db = db
        self.code = code


# -------------------------------------------------------------------------------------------
# the multi b-tree


class MultiBtree:
    """Main's b-tree plus the attached ones, as one ``bt`` for ``Database``."""

    def __init__(self, main, db):
        object.__setattr__(self, "main", main)
        object.__setattr__(self, "db", db)
        object.__setattr__(self, "sp_depth", 0)

    def __getattr__(self, name):
        return getattr(self.main, name)

    def __setattr__(self, name, value):
        if name in ("sp_depth",):
            object.__setattr__(self, name, value)
        else:
            setattr(self.main, name, value)

    @property
    def in_trans(self):
        level = self.main.in_trans
        for att in self.db.attached:
            if att.db.bt.in_trans > level:
                level = att.db.bt.in_trans
        return level

    def begin(self, write=False):
        # main is read until the statement writes to it (SQLite writes only the files a
        # statement changes): see _main_write
        if self.main.in_trans == 0:
            self.main.begin(False)

    def _main_write(self):
        main = self.main
        if main.in_trans < 2:
            main.begin(True)
            if self.sp_depth:
                main.savepoint_open(self.sp_depth - 1)

    def _route(self, root):
        code = root >> ROOT_SHIFT
        if not code:
            return self.main, root
        for att in self.db.attached:
            if att.code == code:
                return att.db.bt, root & ROOT_MASK
        raise OperationalError("no such database")

    def _enter(self, bt, write):
        if bt is self.main:
            if write:
                self._main_write()
            return
        if bt.in_trans == 0:
            bt.begin(bool(write))
            if write and self.sp_depth:
                bt.savepoint_open(self.sp_depth - 1)
        elif write and bt.in_trans < 2:
            bt.begin(True)
            if self.sp_depth:
                bt.savepoint_open(self.sp_depth - 1)

    def cursor(self, root, write=False, key_info=None):
        bt, root = self._route(root)
        self._enter(bt, write)
        return bt.cursor(root, write, key_info)

    def create_table(self, intkey=True):
        self._main_write()
        return self.main.create_table(intkey)

    def set_meta(self, i, v):
        self._main_write()
        return self.main.set_meta(i, v)

    def drop_table(self, root):
        bt, root = self._route(root)
        self._enter(bt, True)
        return bt.drop_table(root)

    def clear_table(self, root):
        bt, root = self._route(root)
        self._enter(bt, True)
        return bt.clear_table(root)

    def _writers(self):
        bts = [self.main] if self.main.in_trans == 2 else []
        return bts + [att.db.bt for att in self.db.attached if att.db.bt.in_trans == 2]

    def commit(self):
        # one transaction over several files commits through a super-journal (all files
        # or none survive a crash), in the b-tree layer
        ended = [att for att in self.db.attached if att.db.bt.in_trans]
        self.main.commit_together([att.db.bt for att in ended])
        for att in ended:
            _reset_txn_state(att.db)
        self.sp_depth = 0

    def rollback(self):
        if self.main.in_trans:
            self.main.rollback()
        for att in self.db.attached:
            if att.db.bt.in_trans:
                att.db.bt.rollback()
                _reset_txn_state(att.db)
                att.db._load_schema()
        self.sp_depth = 0

    def savepoint_open(self, n):
        for bt in self._writers():
            bt.savepoint_open(n)
        self.sp_depth = max(self.sp_depth, n + 1)

    def savepoint_release(self, n):
        for bt in self._writers():
            _try(bt.savepoint_release, n)
        self.sp_depth = min(self.sp_depth, n)

    def savepoint_rollback(self, n):
        for bt in self._writers():
            _try(bt.savepoint_rollback, n)
        for att in self.db.attached:  # (their schemas as rolled back; main's is reloaded
            if att.db.bt.in_trans == 2:  # by its caller, merging these)
                att.db._reload_schema_in_txn()
        self.sp_depth = n + 1

    def close(self):
        for att in self.db.attached:
            att.db.close()
        self.main.close()


def _try(fn, n):
    try:
        fn(n)
    except E.Error:
        pass


def join_transaction(db, adb, write):
    """Before a statement of ``adb``'s own (an attached or the temp database's DDL or
    PRAGMA) runs while ``db``, its connection, is in an explicit transaction: ``adb`` joins
    it, as the multi b-tree has a file join it (``MultiBtree._enter``). Its transaction
    is opened (a write one for a statement that writes) with the connection's savepoints,
    so that a ROLLBACK TO undoes the statement, and its own statement journal numbered
    after them."""
    if db.autocommit:
        return
    if adb.autocommit:
        adb.execute("BEGIN")
    if write:
        db.bt._enter(adb.bt, True)
        adb._savepoints[:] = db._savepoints


def _reset_txn_state(adb):
    adb.autocommit = True
    adb.schema_changed = False
    adb._savepoints.clear()
    adb._stmt_sp.clear()


# -------------------------------------------------------------------------------------------
# the merged schema


def merged_schema(db, main):
    """Main's schema plus the attached ones (see the module docstring)."""
    m = S.Schema()
    m.tables = dict(main.tables)
    m.indexes = dict(main.indexes)
    m.views = dict(main.views)
    m.triggers = dict(main.triggers)
    m.cookie = main.cookie
    m.version = main.version
    m.main = main
    if db.attached and db.attached[0].name == "temp":
        # temp hides main's names: main.x must still reach main's own objects
        for key, t in main.tables.items():
            m.tables["main." + key] = t
        m.tables["main.sqlite_master"] = main.tables.get("sqlite_schema")
        for key, v in main.views.items():
            m.views["main." + key] = v
    for att in db.attached:
        prefix = att.name.lower() + "."
        aschema = att.db.schema
        first = att.name == "temp"  # temp is searched before main, the others after it
        for key, t in aschema.tables.items():
            et = _tagged_table(t, att.code)
            m.tables[prefix + key] = et
            if key == "sqlite_schema":
                m.tables[prefix + "sqlite_master"] = et
            elif first or key not in m.tables and key not in m.views:
                m.tables[key] = et
                m.views.pop(key, None)
        for key, v in aschema.views.items():
            m.views[prefix + key] = v
            if first or key not in m.tables and key not in m.views:
                m.views[key] = v
                m.tables.pop(key, None)
        for key, ix in aschema.indexes.items():
            if first or key not in m.indexes:
                m.indexes[key] = _tagged_index(ix, att.code)
        if first:
            _add_temp_triggers(m, aschema)
    return m


def _add_temp_triggers(m, temp_schema):
    """TEMP triggers on main tables: stored in temp, fired by main's table (a copy of it
    in the merged schema carries them)."""
    for key, trig in temp_schema.triggers.items():
        m.triggers[key] = trig
        owner = trig.table.lower()
        if owner in temp_schema.tables or owner in temp_schema.views:
            continue
        for name in (owner, "main." + owner):
            table = m.tables.get(name)
            if table is not None:
                table = copy.copy(table)
                table.triggers = list(table.triggers) + [trig]
                m.tables[name] = table
                continue
            view = m.views.get(name)
            if view is not None:
                view = copy.copy(view)
                view.triggers = list(view.triggers) + [trig]
                m.views[name] = view


def _tagged_table(t, code):
    nt = copy.copy(t)
    nt.root = (code << ROOT_SHIFT) | t.root
    nt.indexes = [_tagged_index(ix, code) for ix in t.indexes]
    return nt


def _tagged_index(ix, code):
    nix = copy.copy(ix)
    if nix.root:
        nix.root = (code << ROOT_SHIFT) | ix.root
    return nix


def remerge(db):
    """Rebuild the merged schema after an attach, a detach or DDL in an attached file."""
    main = getattr(db.schema, "main", db.schema)
    db._schema_version += 1
    main.version = db._schema_version
    db._cache.clear()
    if db.attached:
        db.schema = merged_schema(db, main)
    else:
        db.schema = main


# -------------------------------------------------------------------------------------------
# prepare


def find(db, name):
    low = (name or "").lower()
    for att in db.attached:
        if att.name.lower() == low:
            return att
    return None


def holder_name(db, schema, obj, kind="views"):
    """The name SQLite gives the tables named unqualified in the body of the view (or, with
    ``kind="triggers"``, the trigger) ``obj`` of ``schema`` when they are missing: its
    database's ("main", an attached one's), None for a temp one, whose body SQLite leaves
    unbound (sqlite3FixSrcList: "no such table: main.t" against "no such table: t"), and
    for one the schema does not hold (a foreign key's trigger names its tables in full)."""
    key = obj.name.lower()
    if getattr(schema, kind).get(key) is not obj:
        return None
    for att in db.attached:
        # (or under "temp.name": a view or trigger an ALTER has rewritten, alter_check.py)
        if getattr(att.db.schema, kind).get(key) is obj or \
                getattr(schema, kind).get(f"{att.name.lower()}.{key}") is obj:
            return None if att.name.lower() == "temp" else att.name
    return "main"


def prepare_attached(db, parsed, stmt=None):
    """A Statement for ``parsed`` (or for ``stmt``, its AST as the authorizer rewrote it)
    on a connection that has attached files (or for ATTACH, DETACH, CREATE TEMP ...)."""
    from sqlengine.compiler.statement import compile_statement
    from sqlengine.database import Statement

    if stmt is None:
        stmt = parsed.stmt
    t = type(stmt)
    if t is A.Attach or t is A.Detach:
        return _ActionStatement(db, parsed, stmt)
    if t is A.Pragma and stmt.name.lower() == "database_list" and stmt.schema is None:
        return _database_list(db)
    if t is A.CreateTrigger and _temp_trigger_on_main(db, stmt):
        return _TempTriggerStatement(db, stmt, parsed.text)
    if t is A.Pragma:
        from sqlengine.compiler.pragma import DB_PRAGMAS
    if t in _DDL and not (t is A.Pragma and (
            stmt.name.lower() == "table_list" and (stmt.schema or "").lower() == "temp"
            or stmt.name.lower() not in DB_PRAGMAS)):
        # (pragma.py lists temp's tables; a connection's pragma is compiled on main)
        att = find(db, stmt.schema)
        if att is None:
            att = _temp_target(db, stmt)
        if att is None and t is A.Drop and stmt.schema is None:
            att = _owner_of_dropped(db, stmt)
        if t is A.AlterTable:
            # (an ALTER of a temp table is compiled here: temp's views and triggers may
            # read main's tables; one of another file's runs there)
            att = _owner_of_altered(db, stmt) if att is None else \
                None if att.name == "temp" else att
        if att is not None:
            # (a qualifier only where the statement has one: CREATE TEMP VIEW v AS SELECT
            # .. FROM temp.t keeps its body's)
            text = "VACUUM" if t is A.Vacuum and stmt.into is None else \
                parsed.text if stmt.schema is None else _strip_qualifier(parsed.text, att.name)
            if att.name == "temp":
                text = _TEMP_KEYWORD.sub(r"\1", text, count=1)
            return _ForeignStatement(db, att, text, parsed.text)
    cacheable = stmt is parsed.stmt  # not an authorizer's rewrite
    if cacheable:
        hit = db._cache.get(parsed.text)
        if hit is not None and hit[0].schema_version == db.schema.version:
            return Statement(db, parsed.text, hit[1], hit[0])
    ast = rewrite(db, stmt)
    target = db
    if t in _CREATE and getattr(stmt, "as_select", None) is None:
        target = _MainOnly(db)  # a main object may share a temp or attached object's name
    elif t is A.Insert:
        target = _with_own_sequence(db, ast)
    prog = compile_statement(target, ast, parsed.text)
    prog.schema_version = db.schema.version
    if cacheable and not prog.is_ddl:
        if len(db._cache) > 500:
            db._cache.clear()
        db._cache[parsed.text] = (prog, ast)
    return Statement(db, parsed.text, ast, prog)


_CREATE = (A.CreateTable, A.CreateView, A.CreateIndex, A.CreateTrigger)


class _MainOnly:
    """The connection as the compiler of a main-schema CREATE sees it: main's own schema
    (or the ``schema`` given)."""

    def __init__(self, db, schema=None):
        self._db = db
        self.schema = schema if schema is not None else getattr(db.schema, "main", db.schema)

    def __getattr__(self, name):
        return getattr(self._db, name)


def source_db(db, table):
    """What a Source reading ``table`` keeps as its ``db`` (see resolve.Source)."""
    return table_db(db, table) if db.attached else "main"


def table_db(db, table):
    """The lower-case name of the database holding ``table`` (of the merged schema), the
    schema a column named ``main.t.a`` must belong to."""
    code = (table.root or 0) >> ROOT_SHIFT
    if code:
        for att in db.attached:
            if att.code == code:
                return att.name.lower()
    return "main"


def view_db(db, view):
    """The lower-case name of the database holding ``view`` (of the merged schema)."""
    key = view.name.lower()
    for att in db.attached:
        if att.db.schema.views.get(key) is view:
            return att.name.lower()
    return "main"


def _with_own_sequence(db, ast):
    """An INSERT sees the sqlite_sequence of the database its table is in (AUTOINCREMENT
    counters are kept per database file)."""
    merged = db.schema
    table = merged.tables.get(ast.table.lower())
    if table is None or not getattr(table, "autoinc", False):
        return db
    code = table.root >> ROOT_SHIFT
    if code:
        att = next((a for a in db.attached if a.code == code), None)
        seq = merged.tables.get(f"{att.name.lower()}.sqlite_sequence") if att else None
    else:
        seq = getattr(merged, "main", merged).tables.get("sqlite_sequence")
    view = copy.copy(merged)
    view.tables = dict(merged.tables)
    if seq is None:
        view.tables.pop("sqlite_sequence", None)
    else:
        view.tables["sqlite_sequence"] = seq
    return _MainOnly(db, view)

    def __getattr__(self, name):
        return getattr(self._db, name)


def _owner_of_dropped(db, stmt):
    low = stmt.name.lower()
    main = getattr(db.schema, "main", db.schema)
    kind = stmt.kind.upper()
    store = {"TABLE": "tables", "VIEW": "views", "INDEX": "indexes", "TRIGGER": "triggers"}
    attr = store.get(kind)
    if attr is None:
        return None
    temp = find(db, "temp")
    if temp is not None and low in getattr(temp.db.schema, attr):
        return temp  # temp comes first in SQLite's search order
    if low in getattr(main, attr):
        return None
    for att in db.attached:
        if low in getattr(att.db.schema, attr):
            return att
    return None


def _owner_of_altered(db, stmt):
    """The attached database (not temp) holding the table an unqualified ALTER TABLE
    names when neither temp nor main has one of that name."""
    if stmt.schema is not None:
        return None
    low = stmt.table.lower()
    main = getattr(db.schema, "main", db.schema)
    temp = find(db, "temp")
    if temp is not None and (low in temp.db.schema.tables or low in temp.db.schema.views) \
            or low in main.tables or low in main.views:
        return None
    for att in db.attached:
        if low in att.db.schema.tables or low in att.db.schema.views:
            return att
    return None


_TEMP_KEYWORD = re.compile(r"^(\s*CREATE\s+)(?:TEMP|TEMPORARY)\s+", re.IGNORECASE)


def _temp_target(db, stmt):
    """The temp database for a CREATE TEMP object or a PRAGMA temp.NAME = value (made on
    first use), or for an index or trigger on a temp table (or a trigger on a temp view);
    None for anything else."""
    t = type(stmt)
    temp = find(db, "temp")
    if t is A.CreateIndex or (t is A.CreateTrigger and not stmt.temp):
        if stmt.schema is None and temp is not None and (
                stmt.table.lower() in temp.db.schema.tables or
                t is A.CreateTrigger and stmt.table.lower() in temp.db.schema.views):
            return temp
        return None
    wanted = getattr(stmt, "temp", False) or (getattr(stmt, "schema", None) or "").lower() \
        == "temp"
    if t is A.Pragma and wanted and stmt.value is not None:
        return temp if temp is not None else temp_database(db)  # (a setting is temp's)
    if not wanted or t not in (A.CreateTable, A.CreateView, A.CreateTrigger):
        return None
    return temp if temp is not None else temp_database(db)


def _temp_trigger_on_main(db, stmt):
    wanted = stmt.temp or (stmt.schema or "").lower() == "temp"
    if not wanted:
        return False
    temp = find(db, "temp")
    low = stmt.table.lower()
    return temp is None or (low not in temp.db.schema.tables and low not in temp.db.schema.views)


def temp_database(db):
    """The connection's temp database (an in-memory one), made on first use."""
    from sqlengine.database import Database

    temp = find(db, "temp")
    if temp is None:
        adb = Database(":memory:", getattr(db.bt, "busy_timeout", 5.0))
        adb.is_temp = True  # (what its pragmas answer: pragma._temp_pragma)
        adb.owner = weakref.ref(db)
        adb.functions = db.functions
        adb.collations = db.collations
        made_temp(db, adb)
        db._attach_code += 1
        temp = Attached("temp", "", adb, db._attach_code)
        db.attached.insert(0, temp)
        if not isinstance(db.bt, MultiBtree):
            db.bt = MultiBtree(db.bt, db)
        remerge(db)
    return temp


_QUALIFIED = re.compile(r"(\"(?:[^\"]|\"\")*\"|\[[^\]]*\]|`[^`]*`|'(?:[^']|'')*'|[^\s.\"'`\[(;]+)"
                        r"\s*\.\s*")


def _strip_qualifier(text, name):
    """The statement text without its first ``name.`` qualifier (as SQLite stores it)."""
    for m in _QUALIFIED.finditer(text):
        word = m.group(1)
        if word[0] in "\"[`'":
            word = word[1:-1]
        if word.lower() == name.lower():
            return text[:m.start()] + text[m.end():]
    return text


def rewrite(db, stmt):
    """``stmt``, or a copy of it whose ``aux.t`` references name the merged schema's
    ``aux.t``: the parsed AST is shared (the parser's cache), so it is copied, and only
    when a node must change (most statements name no database and no temp schema table)."""
    names = {att.name.lower() for att in db.attached}
    if "temp" in names:
        names.add("main")
    temp = "temp" in names
    if not _rewrite_node(stmt, names, temp, False):
        return stmt
    stmt = copy.deepcopy(stmt)
    _rewrite_node(stmt, names, temp)
    return stmt


_TEMP_MASTER = ("sqlite_temp_master", "sqlite_temp_schema")


def _rewrite_node(node, names, temp, apply=True):
    """Rename the nodes under ``node`` that ``rewrite`` changes; with ``apply`` False,
    change nothing and say whether there is one."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, list):
            stack.extend(n)
            continue
        if isinstance(n, tuple):
            stack.extend(n)
            continue
        slots = getattr(type(n), "__slots__", None)
        if slots is None or type(n).__module__ != A.__name__:
            continue
        t = type(n)
        schema = getattr(n, "schema", None)
        if not apply:
            if schema is not None and schema.lower() in names and (
                    t is A.TableRef or t is A.InTable or t is A.Insert) \
                    or temp and t is A.TableRef and n.name.lower() in _TEMP_MASTER:
                return True
            for s in slots:
                v = getattr(n, s, None)
                if v is not None and not isinstance(v, (str, int, float, bytes, bool)):
                    stack.append(v)
            continue
        if temp and t is A.TableRef and (
                n.name.lower() in _TEMP_MASTER and (schema is None or schema.lower() == "temp")
                or schema is not None and schema.lower() == "temp"
                and n.name.lower() == "sqlite_schema"):
            # temp's schema table by any of its names: the merged schema's temp.sqlite_master,
            # named sqlite_temp_master (SQLite's name for it, whatever the FROM clause says)
            schema = n.schema = "temp"
            n.name = "sqlite_master"
        if schema is not None and schema.lower() in names:
            if t is A.TableRef or t is A.InTable:
                if t is A.TableRef and n.alias is None:
                    n.alias = n.name if n.name != "sqlite_master" or schema != "temp" \
                        else "sqlite_temp_master"
                n.name = f"{schema.lower()}.{n.name}"
                n.schema = None
            elif t is A.Insert:
                if n.alias is None:
                    n.alias = n.table
                n.table = f"{schema.lower()}.{n.table}"
                n.schema = None
        for s in slots:
            v = getattr(n, s, None)
            if v is not None and not isinstance(v, (str, int, float, bytes, bool)):
                stack.append(v)
    return False


def _database_list(db):
    main = "" if db._memory else os.path.abspath(db.path)
    rows = [(0, "main", main)]
    if find(db, "temp") is not None:
        rows.append((1, "temp", ""))
    others = [att for att in db.attached if att.name != "temp"]
    rows += [(i + 2, att.name, att.path) for i, att in enumerate(others)]
    sql = " UNION ALL ".join(
        f"SELECT {seq} AS seq, '{_q(name)}' AS name, '{_q(path)}' AS file"
        for seq, name, path in rows)
    from sqlengine.compiler.statement import compile_statement
    from sqlengine.database import Statement
    from sqlengine.sql import parse_one
    ast = parse_one(sql).stmt
    prog = compile_statement(db, ast, sql)
    prog.schema_version = db.schema.version

    class DatabaseList(Statement):
        """Rebuilt, not recompiled, when an attach or detach changed the list."""

        def _recompile(self):
            fresh = _database_list(self.db)
            self.text, self.ast = fresh.text, fresh.ast
            self._set_program(fresh.prog)

    return DatabaseList(db, sql, ast, prog)


def _q(s):
    return str(s).replace("'", "''")


# -------------------------------------------------------------------------------------------
# statements that are not one program of the main connection


class _Delegate:
    """Statement surface over something else (sqlite3_stmt for ATTACH or foreign DDL)."""

    column_names: list = []
    column_decltypes: list = []
    is_explain = 0

    def __init__(self, db, inner):
        self.db = db
        self.inner = inner
        self.param_count = inner.param_count
        self.param_names = inner.param_names
        self.readonly = False
        self.finalized = False
        self.done = False

    def bind(self, index, value):
        self.inner.bind(index, value)

    def clear_bindings(self):
        self.inner.clear_bindings()

    def reset(self):
        self.inner.reset()
        self.done = False

    def finalize(self):
        if not self.finalized:
            self.inner.finalize()
            self.finalized = True


class _ActionStatement(_Delegate):
    """ATTACH expr AS name / DETACH name: the operands are evaluated by a SELECT."""

    def __init__(self, db, parsed, st):
        from sqlengine.compiler.statement import compile_statement
        from sqlengine.database import Statement

        self.attach = type(st) is A.Attach
        if self.attach:
            exprs = [st.expr, _name_expr(st.schema_expr)]
        else:
            exprs = [_name_expr(st.expr) if st.expr is not None else A.Literal(st.schema)]
        ast = A.Select(A.SelectCore([A.ResultColumn(e) for e in exprs]))
        prog = compile_statement(db, ast, parsed.text)
        prog.schema_version = db.schema.version
        super().__init__(db, Statement(db, parsed.text, ast, prog))

    def step(self):
        if self.finalized:
            raise E.ProgrammingError("Cannot operate on a finalized statement.")
        if self.done:
            return None
        row = self.inner.step()
        self.inner.reset()
        self.done = True
        if self.attach:
            attach(self.db, row[0], row[1])
        else:
            detach(self.db, row[0])
        return None


def _name_expr(e):
    if isinstance(e, A.Column) and e.table is None:
        return A.Literal(e.name)
    return e


class _ForeignStatement(_Delegate):
    """A statement run by an attached file's own Database (DDL, PRAGMA aux.x). Prepared
    again, as SQLite re-prepares an expired statement, when it starts after that
    database is gone (DETACH, or a PRAGMA temp_store that closed temp): ``source`` is
    the statement's text as the connection was given it."""

    def __init__(self, db, att, text, source):
        self.att = att
        self.source = source
        self.running = False
        try:
            inner, _ = att.db.prepare(text)
        except OperationalError as e:
            msg = str(e)
            for kind in ("table", "index", "view", "trigger"):
                prefix = f"no such {kind}: "
                if msg.startswith(prefix) and "." not in msg[len(prefix):]:
                    raise OperationalError(f"{prefix}{att.name}.{msg[len(prefix):]}") from None
            raise
        if inner is None:
            inner, _ = att.db.prepare("PRAGMA sqlengine_nothing")
        super().__init__(db, inner)
        self.column_names = inner.column_names
        self.column_decltypes = inner.column_decltypes
        self.is_explain = inner.is_explain
        self.readonly = inner.readonly

    def step(self):
        if not self.running:
            self.running = True
            if self.att is not None and not any(a is self.att for a in self.db.attached):
                self._prepare_again()
        if self.att is not None:
            join_transaction(self.db, self.att.db, not self.inner.readonly)
        row = self.inner.step()
        if row is None:
            remerge(self.db)
        return row

    def reset(self):
        super().reset()
        self.running = False

    def _prepare_again(self):
        """Prepare ``source`` on what its schema name names now (or on main, which answers
        for a temp database not made again yet), keeping the values bound."""
        new, _ = self.db.prepare(self.source)
        bindings = getattr(self.inner, "_bindings", None)
        self.inner.finalize()
        if isinstance(new, _ForeignStatement):
            self.att, self.inner = new.att, new.inner
        else:
            self.att, self.inner = None, new
        if bindings is not None and len(getattr(self.inner, "_bindings", ())) == len(bindings):
            self.inner._bindings = bindings


_TRIGGER_HEAD = re.compile(r"\s*CREATE\s+(?:(?:TEMP|TEMPORARY)\s+)?TRIGGER\s+"
                           r"(?:IF\s+NOT\s+EXISTS\s+)?", re.IGNORECASE)


class _TempTriggerStatement:
    """CREATE TEMP TRIGGER on a main table: the trigger's row goes into temp's
    sqlite_master (as SQLite keeps it), and the merged schema hangs it on main's table."""

    column_names: list = []
    column_decltypes: list = []
    is_explain = 0
    param_count = 0
    param_names: list = []
    readonly = False

    def __init__(self, db, stmt, text):
        self.db = db
        self.stmt = stmt
        # (the AST keeps one qualifier: temp. names the trigger, main. its table)
        qualified = (stmt.schema or "").lower() == "temp"
        if stmt.temp and qualified:
            raise OperationalError("temporary trigger may not have qualified name")
        # SQLite stores 'CREATE TRIGGER ' and the text from the trigger's name on
        m = _TRIGGER_HEAD.match(text)
        rest = text[m.end():] if m else text
        if qualified:
            rest = _strip_qualifier(rest, "temp")
        self.text = "CREATE TRIGGER " + rest
        self.done = False
        self.finalized = False

    def bind(self, index, value):
        raise E.InterfaceError("bind index out of range", code=E.SQLITE_RANGE)

    def clear_bindings(self):
        pass

    def reset(self):
        self.done = False

    def finalize(self):
        self.finalized = True

    def step(self):
        if self.finalized:
            raise E.ProgrammingError("Cannot operate on a finalized statement.")
        if self.done:
            return None
        self.done = True
        db, st = self.db, self.stmt
        name = st.name.lower()
        if name in db.schema.triggers:
            if st.if_not_exists:
                return None
            raise OperationalError(f"trigger {st.name} already exists")
        owner = db.schema.tables.get(st.table.lower()) or db.schema.views.get(st.table.lower())
        # (the table as written: SQLite names it with the schema only when one was given)
        written = f"main.{st.table}" if (st.schema or "").lower() == "main" else st.table
        if owner is None:
            raise OperationalError(f"no such table: {written}")
        is_view = getattr(owner, "is_view", False)
        if is_view and st.timing != "INSTEAD OF":
            raise OperationalError(f"cannot create {st.timing} trigger on view: {written}")
        if not is_view and st.timing == "INSTEAD OF":
            raise OperationalError(f"cannot create INSTEAD OF trigger on table: {written}")
        temp = temp_database(db)
        adb = temp.db
        join_transaction(db, adb, True)
        adb.writable_schema = True
        try:
            adb.execute("INSERT INTO sqlite_schema VALUES('trigger', ?, ?, 0, ?)",
                        (st.name, owner.name, self.text))
            # (temp's schema changed: its cookie moves, as SQLite's CREATE TRIGGER sets it)
            adb.execute(f"PRAGMA schema_version = {adb.schema.cookie + 1}")
        finally:
            adb.writable_schema = False
        if adb.autocommit:
            adb._load_schema()
        else:
            adb._reload_schema_in_txn()
        remerge(db)
        return None


# -------------------------------------------------------------------------------------------
# the actions


def attach(db, filename, name):
    from sqlengine.database import Database

    if name is None:
        name = ""
    name = str(name)
    if filename is None:
        filename = ""
    if not isinstance(filename, str):
        filename = str(filename)
    if name.lower() in ("main", "temp") or find(db, name) is not None:
        raise OperationalError(f"database {name} is already in use")
    if len(db.attached) >= MAX_ATTACHED:
        raise OperationalError(f"too many attached databases - max {MAX_ATTACHED}")
    memory = filename in ("", ":memory:")
    # a file attached to a connection on a VFS of its own (the fault VFS of the crash and
    # I/O-error tools) lives in that VFS too; the OS VFS is the default
    vfs = None
    pager = getattr(db.bt, "pager", None)
    if not memory and pager is not None and not pager.memory \
            and type(pager.vfs).__name__ != "OsVfs":
        vfs = pager.vfs
    try:
        adb = Database(":memory:" if memory else filename,
                       getattr(db.bt, "busy_timeout", 5.0), vfs)
    except E.Error as e:
        if "unable to open" in str(e):
            raise OperationalError(f"unable to open database: {filename}",
                                   code=E.SQLITE_CANTOPEN) from None
        raise
    adb.functions = db.functions
    adb.collations = db.collations
    adb.owner = weakref.ref(db)
    attach_settings(db, adb)
    db._attach_code += 1
    path = "" if memory else (filename if vfs is not None else os.path.abspath(filename))
    db.attached.append(Attached(name, path, adb, db._attach_code))
    if not isinstance(db.bt, MultiBtree):
        db.bt = MultiBtree(db.bt, db)
    remerge(db)


def drop_temp(db, temp):
    """Close the temp database ``temp`` of ``db``, its tables, views and triggers gone
    (PRAGMA temp_store changed: compiler/pragma_settings.py)."""
    db.attached.remove(temp)
    temp.db.close()
    if not db.attached and isinstance(db.bt, MultiBtree):
        db.bt = db.bt.main
    remerge(db)


def detach(db, name):
    name = "" if name is None else str(name)
    if name.lower() in ("main", "temp"):
        raise OperationalError(f"cannot detach database {name}")
    att = find(db, name)
    if att is None:
        raise OperationalError(f"no such database: {name}")
    if att.db.bt.in_trans or att.db._active:
        raise OperationalError(f"database {name} is locked")
    db.attached.remove(att)
    att.db.close()
    if not db.attached and isinstance(db.bt, MultiBtree):
        db.bt = db.bt.main
    remerge(db)
