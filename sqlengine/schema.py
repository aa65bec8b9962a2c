"""The in-memory schema: tables, indexes, views and triggers loaded from ``sqlite_schema``.

Each object is built from its CREATE statement's AST (parsed by ``sql``) plus the root page
stored beside it, exactly as SQLite rebuilds its schema from the file. A column's affinity
from its declared type (``affinity_of_type``: the VM's rules, ``_values.affinity_of_decltype``,
re-exported), INTEGER PRIMARY KEY as rowid alias, the naming of automatic indexes
(``sqlite_autoindex_<table>_<n>``) and the record layout of WITHOUT ROWID tables (their
PRIMARY KEY index is the table's own b-tree; ``record_tail``, ``pk_fields``) live here.
This module never writes to storage and never emits code; the compiler reads these
objects, ``database.py`` builds them.
"""

from __future__ import annotations

import dataclasses

from sqlengine.errors import SQLITE_CORRUPT, DatabaseError
from sqlengine.schema_fast import plain_index, plain_table
from sqlengine.sql import ast as A
from sqlengine.vdbe._values import affinity_of_decltype as affinity_of_type
from sqlengine.vdbe.opcodes import AFF_BLOB

SCHEMA_TABLE = "sqlite_schema"
STAT1 = "sqlite_stat1"  # (the statistics ANALYZE writes: apply_stats)
SCHEMA_ALIASES = ("sqlite_schema", "sqlite_master", "sqlite_temp_schema", "sqlite_temp_master")


class ColumnInfo:
    __slots__ = ("name", "type_name", "affinity", "notnull", "notnull_conflict", "default",
                 "collation", "pk", "generated", "stored")

    def __init__(self, name, type_name):
        self.name = name
        self.type_name = type_name
        self.affinity = affinity_of_type(type_name)
        self.notnull = False
        self.notnull_conflict = None
        self.default = None  # an AST expression or None
        self.collation = None
        self.pk = False
        self.generated = None  # the expression of a generated column (AS (...)), or None
        self.stored = False  # a STORED generated column (VIRTUAL ones are not in the record)


class Index:
    __slots__ = ("name", "table", "columns", "collations", "desc", "unique", "root", "sql",
                 "auto", "conflict", "is_pk", "where", "exprs", "key_info")

    def __init__(self, name, table, columns, collations, desc, unique, root, sql, auto=False,
                 conflict=None, is_pk=False):
        self.name = name
        self.table = table  # table name
        self.columns = columns  # column numbers in the table
        self.collations = collations  # collation names (None = column default / BINARY)
        self.desc = desc
        self.unique = unique
        self.root = root
        self.sql = sql
        self.auto = auto
        self.conflict = conflict
        self.is_pk = is_pk
        self.where = None
        self.exprs = None
        # (table, KeyInfo): the compiler's key info of this index as an index of that Table
        # object, kept when every key field compares BINARY (compiler/_where.pyx
        # index_key_info); None until first asked
        self.key_info = None


class Table:
    __slots__ = ("name", "columns", "root", "sql", "ipk", "indexes", "triggers", "checks",
                 "without_rowid", "autoinc", "col_index", "is_view", "pk_conflict", "unique_specs",
                 "storage", "n_stored", "source_lists", "stat", "stats_used")

    def __init__(self, name, root, sql):
        self.name = name
        self.columns: list[ColumnInfo] = []
        self.root = root
        self.sql = sql
        self.ipk = -1  # column number of the INTEGER PRIMARY KEY (rowid alias), or -1
        self.indexes: list[Index] = []
        self.triggers: list = []
        self.checks: list = []
        self.without_rowid = False
        self.autoinc = False
        self.col_index: dict[str, int] = {}
        self.is_view = False
        self.pk_conflict = None
        # (columns, collations, desc, conflict, is_pk) per UNIQUE/PRIMARY KEY constraint that
        # needs an automatic index, in the order SQLite numbers them.
        self.unique_specs: list = []
        # With VIRTUAL generated columns, which are not stored: the record field of each
        # column (-1 for a virtual one) and the record's field count; None otherwise.
        self.storage: list[int] | None = None
        self.n_stored = 0
        # the column lists every FROM item reading this table shares, built by the compiler
        # on first use (compiler/_resolve.pyx table_source); a Table's columns never
        # change once built (a schema change builds new Tables)
        self.source_lists = None
        # its sqlite_stat1 statistics (a TableStat), None without (apply_stats)
        self.stat = None
        # whether the planner weighed a key of one of its indexes that is not a whole
        # unique key (SQLite's TF_StatsUsed: PRAGMA optimize analyzes such a table)
        self.stats_used = False

    def find_column(self, name: str) -> int:
        return self.col_index.get(name.lower(), -1)


class View:
    __slots__ = ("name", "select", "columns", "sql", "triggers")
    is_view = True

    def __init__(self, name, select, columns, sql):
        self.name = name
        self.select = select
        self.columns = columns
        self.sql = sql
        self.triggers: list = []


class Trigger:
    __slots__ = ("name", "table", "timing", "event", "update_columns", "when", "body", "sql",
                 "for_each_row")

    def __init__(self, ast: A.CreateTrigger, sql):
        self.name = ast.name
        self.table = ast.table
        self.timing = ast.timing
        self.event = ast.event
        self.update_columns = ast.update_columns
        self.when = ast.when
        self.body = ast.body
        self.sql = sql
        self.for_each_row = ast.for_each_row


def _indexed_column_number(table: Table, ic: A.IndexedColumn) -> int:
    e = ic.expr
    while isinstance(e, A.Collate):
        e = e.expr
    if isinstance(e, A.Column) and e.table is None:
        n = table.find_column(e.name)
        if n >= 0:
            return n
        raise DatabaseError(f"no such column: {e.name}")
    if isinstance(e, A.Literal) and (isinstance(e.value, str) or e.word):
        # a string names a column of its text; a TRUE/FALSE word one of its name
        n = table.find_column(e.value if type(e.value) is str else _WORDS[not e.value])
        if n >= 0:
            return n
    raise DatabaseError("expressions prohibited in PRIMARY KEY and UNIQUE constraints")


_WORDS = ("true", "false")


def _ic_collation(ic: A.IndexedColumn):
    if ic.collation:
        return ic.collation
    e = ic.expr
    if isinstance(e, A.Collate):
        return e.collation
    return None


def table_from_ast(ast: A.CreateTable, root: int, sql: str | None) -> Table:
    """Build a Table (without its automatic indexes' roots) from CREATE TABLE."""
    t = Table(ast.name, root, sql)
    t.without_rowid = ast.without_rowid
    strict = getattr(ast, "strict", False)
    pk_cols = None
    for i, cd in enumerate(ast.columns):
        c = ColumnInfo(cd.name, cd.type_name)
        if strict and (cd.type_name or "").upper() == "ANY":
            c.affinity = AFF_BLOB  # ANY in a STRICT table keeps values as given
        if cd.name.lower() in t.col_index:
            raise DatabaseError(f"duplicate column name: {cd.name}")
        t.col_index[cd.name.lower()] = i
        t.columns.append(c)
        for cc in cd.constraints:
            k = cc.kind
            if k == "NOT NULL":
                c.notnull = True
                c.notnull_conflict = cc.conflict
            elif k == "DEFAULT":
                c.default = cc.expr
            elif k == "COLLATE":
                c.collation = cc.collation
            elif k == "PRIMARY KEY":
                if pk_cols is not None:
                    raise DatabaseError(f'table "{ast.name}" has more than one primary key')
                pk_cols = ([i], [None], [cc.desc], cc.conflict, cc.autoincrement, True)
                t.unique_specs.append(pk_cols)
            elif k == "UNIQUE":
                t.unique_specs.append(([i], [None], [False], cc.conflict, False, False))
            elif k == "CHECK":
                t.checks.append((cc.name, cc.expr))
            elif k == "GENERATED":
                c.generated = cc.expr
                c.stored = cc.stored
    for tc in ast.constraints:
        if tc.kind in ("PRIMARY KEY", "UNIQUE"):
            cols = [_indexed_column_number(t, ic) for ic in tc.columns]
            colls = [_ic_collation(ic) for ic in tc.columns]
            desc = [ic.desc for ic in tc.columns]
            spec = (cols, colls, desc, tc.conflict, False, tc.kind == "PRIMARY KEY")
            if tc.kind == "PRIMARY KEY":
                if pk_cols is not None:
                    raise DatabaseError(f'table "{ast.name}" has more than one primary key')
                pk_cols = spec
            t.unique_specs.append(spec)
        elif tc.kind == "CHECK":
            t.checks.append((tc.name, tc.expr))
    if pk_cols is not None:
        cols = pk_cols[0]
        for n in cols:
            t.columns[n].pk = True
            if t.without_rowid:
                t.columns[n].notnull = True  # implied for WITHOUT ROWID keys
        if len(cols) == 1 and (t.columns[cols[0]].type_name or "").upper() == "INTEGER":
            # INTEGER PRIMARY KEY: the rowid alias, no index (column-constraint DESC excepted).
            is_col_desc = pk_cols[2][0] and pk_cols[4] is not None and any(
                cc.kind == "PRIMARY KEY" and cc.desc for cc in ast.columns[cols[0]].constraints)
            if t.without_rowid:
                if not is_col_desc:  # sqlite3 makes its key index last, so numbers it last
                    t.unique_specs = [s for s in t.unique_specs if s is not pk_cols]
                    t.unique_specs.append(pk_cols)
            elif not is_col_desc:
                t.ipk = cols[0]
                t.pk_conflict = pk_cols[3]
                t.autoinc = bool(pk_cols[4])
                t.unique_specs = [s for s in t.unique_specs if s is not pk_cols]
        if strict:
            for n in cols:  # a STRICT table's key columns are NOT NULL (sqlite3EndTable)
                if n != t.ipk:
                    t.columns[n].notnull = True
    # Drop UNIQUE specs that duplicate an earlier one on the same columns (SQLite merges them).
    seen = []
    specs = []
    for s in t.unique_specs:
        key = tuple(s[0])
        if key in seen:
            continue
        seen.append(key)
        specs.append(s)
    t.unique_specs = specs
    if t.without_rowid and pk_cols is not None:
        _without_rowid_layout(t, pk_cols)
    elif any(c.generated is not None and not c.stored for c in t.columns):
        t.storage = []
        for c in t.columns:
            virtual = c.generated is not None and not c.stored
            t.storage.append(-1 if virtual else t.n_stored)
            t.n_stored += 0 if virtual else 1
    else:
        t.n_stored = len(t.columns)
    return t


def _without_rowid_layout(t: Table, pk_spec) -> None:
    """SQLite's layout of a WITHOUT ROWID table (convertToWithoutRowidTable): the table's
    b-tree is an index b-tree keyed by the PRIMARY KEY (duplicate key columns dropped),
    each record holding the key columns first, then the other stored columns in declared
    order. The key is an Index (``is_pk``) whose root is the table's own root; it has no
    sqlite_schema row but keeps its number among the automatic indexes."""
    cols, colls, desc = [], [], []
    for c, coll, d in zip(*pk_spec[:3]):
        name = (coll or t.columns[c].collation or "BINARY").lower()
        if any(c == c2 and name == (k2 or t.columns[c2].collation or "BINARY").lower()
               for c2, k2 in zip(cols, colls)):
            continue
        cols.append(c)
        colls.append(coll)
        desc.append(d)
    # a UNIQUE constraint on the same columns before it gives the key its number
    k = next(i for i, s in enumerate(t.unique_specs) if s is pk_spec or s[0] == pk_spec[0])
    spec = (cols, colls, desc) + tuple(pk_spec[3:])
    t.unique_specs[k] = spec
    t.storage = [-1] * len(t.columns)
    for j, c in enumerate(cols):
        t.storage[c] = j
    n = len(cols)
    for i, c in enumerate(t.columns):
        if i not in cols and not (c.generated is not None and not c.stored):
            t.storage[i] = n
            n += 1
    t.n_stored = n
    idx = Index(f"sqlite_autoindex_{t.name}_{k + 1}", t.name, cols, colls, desc, True, t.root,
                None, auto=True, conflict=spec[3], is_pk=True)
    t.indexes.append(idx)


def pk_index(table):
    """The PRIMARY KEY index of a table (for a WITHOUT ROWID table: the table itself)."""
    for idx in table.indexes:
        if idx.is_pk:
            return idx
    return None


def _coll_name(table, idx, k) -> str:
    c = idx.collations[k]
    if c:
        return c.lower()
    col = idx.columns[k]
    if col >= 0 and table.columns[col].collation:
        return table.columns[col].collation.lower()
    return "binary"


def record_tail(table: Table, idx: Index) -> list:
    """The fields after the key columns of an index record of a WITHOUT ROWID table, as
    (column number, collation or None, desc) triples: for the table's own key, the other
    stored columns (record order); for another index, the PRIMARY KEY columns it does not
    hold already with the same collation (sqlite3CreateIndex). Their DESC flags are the
    key's, except in the automatic indexes of UNIQUE constraints, which sqlite3 builds
    before the key is known (ascending: its bAscKeyBug)."""
    if idx.is_pk:
        st = table.storage
        out = [None] * (table.n_stored - len(idx.columns))
        n = len(idx.columns)
        for i, f in enumerate(st):
            if f >= n:
                out[f - n] = (i, table.columns[i].collation, False)
        return out
    pk = pk_index(table)
    out = []
    n = len(idx.columns)
    for j, c in enumerate(pk.columns):
        name = _coll_name(table, pk, j)
        if any(idx.columns[k] == c and _coll_name(table, idx, k) == name for k in range(n)):
            continue
        out.append((c, pk.collations[j] or table.columns[c].collation,
                    False if idx.auto else pk.desc[j]))
    return out


def pk_fields(table: Table, idx: Index) -> tuple:
    """Where each PRIMARY KEY column sits in a record of ``idx`` (WITHOUT ROWID): the
    value the VM hands out as the row's key (its "rowid")."""
    if idx.is_pk:
        return tuple(range(len(idx.columns)))
    pk = pk_index(table)
    n = len(idx.columns)
    tail = [c for c, _coll, _d in record_tail(table, idx)]
    out = []
    for j, c in enumerate(pk.columns):
        name = _coll_name(table, pk, j)
        k = next((k for k in range(n)
                  if idx.columns[k] == c and _coll_name(table, idx, k) == name), None)
        out.append(k if k is not None else n + tail.index(c))
    return tuple(out)


XN_EXPR = -2  # the column number of an expression in an index (SQLite's XN_EXPR)


def index_from_ast(ast: A.CreateIndex, table: Table, root: int, sql: str | None) -> Index:
    """An index of CREATE INDEX. A term that is not a column of the table is an expression
    (column number XN_EXPR, the expression in ``exprs``, BINARY unless a top-level COLLATE
    names another collation, as sqlite3CreateIndex does). An unquoted TRUE or FALSE in a
    term or the WHERE names the table's column of that name where it has one."""
    where = ast.where
    if table.col_index.keys() & _WORDS:
        from sqlengine.compiler.truefalse import bind_for_table
        where = bind_for_table(where, table) if where is not None else None
        ast = dataclasses.replace(ast, columns=[
            dataclasses.replace(ic, expr=bind_for_table(ic.expr, table)) for ic in ast.columns])
    cols = []
    colls = []
    exprs = []
    for ic in ast.columns:
        try:
            n = _indexed_column_number(table, ic)
        except DatabaseError:
            e = ic.expr
            while isinstance(e, A.Collate):
                e = e.expr
            if isinstance(e, A.Column) and e.table is None and not e.quoted:
                raise
            n = XN_EXPR  # (an unknown double-quoted name is a string: an expression)
        cols.append(n)
        coll = _ic_collation(ic)
        colls.append(coll if coll or n >= 0 else "BINARY")
        exprs.append(ic.expr if n == XN_EXPR else None)
    idx = Index(ast.name, table.name, cols, colls, [ic.desc for ic in ast.columns], ast.unique,
                root, sql)
    idx.where = where
    if XN_EXPR in cols:
        idx.exprs = exprs
    return idx


class Schema:
    """Every object of one database, by lower-case name."""

    # its maps may hold objects built on first use, and are linked for it (_link_lazy)
    lazy = False
    has_stats = False  # whether a table holds sqlite_stat1 statistics (apply_stats)

    def __init__(self, schema_tab: Table | None = None):
        self.tables: dict[str, Table] = {}
        self.indexes: dict[str, Index] = {}
        self.views: dict[str, View] = {}
        self.triggers: dict[str, Trigger] = {}
        self.cookie = 0
        self.version = 0  # bumped on every reload (invalidates compiled programs)
        self.tables[SCHEMA_TABLE] = schema_tab if schema_tab is not None else schema_table()
        # the sqlite_schema rows each object was built from, by lower-case tbl_name (a
        # table or view with its indexes and triggers): a reload reuses a group whose
        # rows did not change (build_schema's ``old``)
        self.groups: dict[str, tuple] = {}
        self.n_rows = 0  # the sqlite_schema rows it was built from (database._edit_schema)

    def table(self, name: str):
        return self.tables.get(name.lower())


def schema_table() -> Table:
    t = Table(SCHEMA_TABLE, 1, None)
    for i, n in enumerate(("type", "name", "tbl_name", "rootpage", "sql")):
        t.columns.append(ColumnInfo(n, "INT" if n == "rootpage" else "TEXT"))
        t.col_index[n] = i
    return t


def _check_schema_row(typ, name, tbl_name, root, sql) -> None:
    """A sqlite_schema row whose fields have the wrong types is corruption, worded as
    SQLite's schema loader words it (the row's name, or ``?`` when the name is NULL)."""
    if not isinstance(name, str):
        raise DatabaseError("malformed database schema (?)", code=SQLITE_CORRUPT)
    if not isinstance(tbl_name, str) or (sql is not None and not isinstance(sql, str)):
        raise DatabaseError(f"malformed database schema ({name})", code=SQLITE_CORRUPT)
    if typ in ("table", "index") and sql is not None:
        if root is None:
            raise DatabaseError(f"malformed database schema ({name})", code=SQLITE_CORRUPT)
        if not isinstance(root, int):
            raise DatabaseError(f"malformed database schema ({name}) - invalid rootpage",
                                code=SQLITE_CORRUPT)


class _Deferred(tuple):
    """A table built on first use: its group of sqlite_schema rows (``SchemaRows``: the
    key, then type, name, tbl_name, rootpage, sql of each row), all plain (``schema_fast``):
    the table's CREATE TABLE and CREATE INDEX texts of its columns, nothing else. The same
    object is the group's entry in ``Schema.groups`` and the placeholder of the table and
    of each of its indexes in ``Schema.tables`` / ``Schema.indexes``, so a cold open keeps
    one tuple per table and the texts it read."""

    __slots__ = ()


class _LazyMap(dict):
    """A dict whose values may be placeholders (instances of ``deferred``) that are built
    on first read. Every way of reading values (``[]``, ``get``, ``values``, ``items``,
    ``pop``, iteration by ``dict(...)``) returns built objects; keys and ``in`` need no
    building. Subclasses give ``deferred``, ``_resolve`` and ``build_all``."""

    __slots__ = ()
    deferred: type = type(None)

    def _resolve(self, key, v):
        raise NotImplementedError

    def build_all(self):
        raise NotImplementedError

    def __getitem__(self, key):
        v = dict.__getitem__(self, key)
        return self._resolve(key, v) if type(v) is self.deferred else v

    def get(self, key, default=None):
        v = dict.get(self, key, default)
        return self._resolve(key, v) if type(v) is self.deferred else v

    def pop(self, key, *default):
        if type(dict.get(self, key)) is self.deferred:
            self[key]
        return dict.pop(self, key, *default)

    def setdefault(self, key, default=None):
        if key in self:
            return self[key]
        dict.__setitem__(self, key, default)
        return default

    def values(self):
        self.build_all()
        return dict.values(self)

    def items(self):
        self.build_all()
        return dict.items(self)

    def popitem(self):
        self.build_all()
        return dict.popitem(self)

    def copy(self):
        self.build_all()
        return dict(dict.items(self))

    def __iter__(self):  # (overridden so that dict(m) and update(m) read through [])
        return dict.__iter__(self)

    def __eq__(self, other):
        self.build_all()
        return dict.__eq__(self, other)

    __hash__ = None

    def __repr__(self):
        self.build_all()
        return dict.__repr__(self)


class TableMap(_LazyMap):
    """``Schema.tables`` as loaded from a file: lower-case name -> Table, where a table
    whose group is plain (``_Deferred``) is built with its indexes the first time anything
    reads it."""

    __slots__ = ("parse", "schema")
    deferred = _Deferred

    def _resolve(self, key, d):
        parse = self.parse
        t = None
        for i in range(1, len(d), 5):
            if d[i] == "table":
                name, root, sql = d[i + 1], d[i + 3], d[i + 4]
                t = table_from_ast(parse(sql, "table", name), root, sql)
        dict.__setitem__(self, key, t)
        indexes = self.schema.indexes
        for i in range(1, len(d), 5):
            if d[i] == "index":
                name, root, sql = d[i + 1], d[i + 3], d[i + 4]
                idx = index_from_ast(parse(sql, "index", name), t, root, sql)
                t.indexes.append(idx)
                dict.__setitem__(indexes, name.lower(), idx)
        return t

    def build_all(self):
        for key, v in list(dict.items(self)):
            if type(v) is _Deferred:
                self._resolve(key, v)


class IndexMap(_LazyMap):
    """``Schema.indexes`` as loaded from a file: an index of a table not built yet is
    reached through that table (see TableMap)."""

    __slots__ = ("tables",)
    deferred = _Deferred

    def _resolve(self, key, d):
        self.tables[d[0]]  # builds the table, which stores its indexes here
        return dict.__getitem__(self, key)

    def build_all(self):
        self.tables.build_all()


def _link_lazy(s, parse) -> None:
    """Give the tables map of ``s`` what building a placeholder needs: ``parse`` and the
    schema (for its indexes map). Only for a schema that holds placeholders: the link
    makes the schema a reference cycle, which only the cyclic garbage collector frees,
    and a DDL statement makes a new schema (a connection whose tables are all built, an
    in-memory one, makes none)."""
    tables = s.tables
    tables.parse = parse
    tables.schema = s
    s.lazy = True


_TYPES = {t: t for t in ("table", "index", "view", "trigger")}


class SchemaRows:
    """The sqlite_schema rows of a database as ``build_schema`` takes them, gathered one
    record at a time (``add``) into groups: a row's group is the lower-case name of the
    table or view it is (its own name) or belongs to (an index's or trigger's tbl_name,
    the name it is attached by). ``keys``: each row's group, in rowid order; ``groups``:
    key -> [key, then type, name, tbl_name, rootpage, sql of each of its rows]. Equal
    names share one string object and the type names are the constants, as the groups
    stay in memory for the next reload to compare with (and a cold open of a large schema
    keeps little more than the texts it read)."""

    __slots__ = ("keys", "groups", "only", "skipped")

    def __init__(self, only=None):
        self.keys: list = []
        self.groups: dict = {}
        # with ``only`` (a collection of group keys: a DDL statement's, edit_schema), a
        # row of another group is left out and counted (``skipped``)
        self.only = only
        self.skipped = 0

    def add(self, rec) -> None:
        if len(rec) != 5:
            rec = (tuple(rec) + (None,) * 5)[:5]
        typ, name, tbl_name, root, sql = rec
        if type(typ) is str:
            typ = _TYPES.get(typ, typ)
        if self.only is not None:
            k = name if typ == "table" or typ == "view" else tbl_name
            if (k.lower() if type(k) is str else k) not in self.only:
                self.skipped += 1
                return
        groups = self.groups
        if typ == "table" or typ == "view":
            key = name
            if type(name) is str:
                key = name.lower()
                if key == name:
                    key = name
                if tbl_name == name:
                    tbl_name = name
        else:
            key = tbl_name
            if type(tbl_name) is str:
                key = tbl_name.lower()
                g = groups.get(key)
                if g is not None:
                    key = g[0]
                    if tbl_name == key:
                        tbl_name = key
                    elif len(g) > 2 and tbl_name == g[2]:
                        tbl_name = g[2]  # (the name of the group's first row)
                elif key == tbl_name:
                    key = tbl_name
        self.keys.append(key)
        g = groups.get(key)
        if g is None:
            groups[key] = g = [key]
        g += (typ, name, tbl_name, root, sql)

    def rows(self) -> list:
        """(type, name, tbl_name, rootpage, sql, group key) of each row, in rowid order (a
        list: build_schema walks it up to three times)."""
        groups = self.groups
        at: dict = {}
        out = []
        for key in self.keys:
            g = groups[key]
            i = at.get(key, 1)
            at[key] = i + 5
            out.append((g[i], g[i + 1], g[i + 2], g[i + 3], g[i + 4], key))
        return out


def _final_groups(lists, old, defer=True) -> tuple:
    """The groups of a build as kept in ``Schema.groups`` (one tuple each: a group of
    ``old`` whose rows did not change, whose objects are taken over as they are; with
    ``defer``, a ``_Deferred`` for a plain one old has not built; else the rows as a
    tuple), and the set of the kept."""
    prev = old.groups if old is not None else {}
    groups: dict = {}
    kept = set()
    for key, g in lists.items():
        p = prev.get(key)
        if p is not None and len(p) == len(g) and p == tuple(g):
            kept.add(key)
            groups[key] = p
        elif defer and (p is None or type(dict.get(old.tables, key)) is not Table) \
                and _plain_group(g):
            # (a changed group whose table old has built is built again at once, from
            # old's objects where its rows did not change: see build_schema)
            groups[key] = _Deferred(g)
        else:
            groups[key] = tuple(g)
    return groups, kept


def _plain_group(g):
    """A group (``SchemaRows``) whose table can be built on first use: one CREATE TABLE
    row with a plain text (``schema_fast``) and an integer rootpage, and otherwise only
    rows of plain CREATE INDEX texts on that table's columns (a trigger, a view of the
    same name, an automatic index or any other row builds the table at once)."""
    names = None
    for i in range(1, len(g), 5):
        if g[i] == "table":
            sql = g[i + 4]
            if names is not None or type(sql) is not str or type(g[i + 3]) is not int \
                    or type(g[i + 1]) is not str:
                return False
            names = plain_table(sql)
            if names is None:
                return False
    if names is None:
        return False
    key = g[0]
    for i in range(1, len(g), 5):
        if g[i] == "table":
            continue
        sql = g[i + 4]
        if g[i] != "index" or type(sql) is not str or type(g[i + 3]) is not int \
                or type(g[i + 1]) is not str or type(g[i + 2]) is not str:
            return False
        plain = plain_index(sql)
        if plain is None or plain[0].lower() != key or not plain[1] <= names:
            return False
    return True


def _no_table(name, table):
    return DatabaseError(f"malformed database schema ({name}) - no such table: main.{table}",
                         code=SQLITE_CORRUPT)


class _OldRows:
    """The rows of ``old``'s groups, as sets, for asking whether a row of a changed group
    is one that ``old`` built an object from (a CREATE INDEX changes its table's group, but
    the table's own row and its other indexes' rows are the same)."""

    __slots__ = ("old", "sets")

    def __init__(self, old):
        self.old = old
        self.sets: dict = {}

    def has(self, key, row) -> bool:
        if self.old is None:
            return False
        rows = self.sets.get(key)
        if rows is None:
            g = self.old.groups.get(key, ())
            rows = self.sets[key] = {g[i:i + 5] for i in range(1, len(g), 5)}
        return row in rows


def _table_again(old: Table, indexes=None, triggers=None) -> Table:
    """A Table built from the same CREATE TABLE row as ``old``: its columns, constraints
    and layout are old's (nothing changes them once built), its lists of indexes and
    triggers new: ``indexes`` and ``triggers``, or by default only a WITHOUT ROWID
    table's key (its own b-tree) and no trigger."""
    t = Table.__new__(Table)
    for f in Table.__slots__:
        setattr(t, f, getattr(old, f))
    t.indexes = indexes if indexes is not None else \
        [i for i in old.indexes if i.is_pk and old.without_rowid]
    t.triggers = triggers if triggers is not None else []
    return t


def build_schema(rows: SchemaRows, parse, old: Schema | None = None,
                 known_tables=None, defer=True) -> Schema:
    """The schema from the sqlite_schema rows;
    ``parse(sql, type, name)`` returns the AST of a row's statement. A table whose rows are
    all plain CREATE texts (``_plain_group``) is built with its indexes on first use
    (TableMap); every other text is parsed here, so a damaged schema is reported at once,
    as SQLite reports it. With ``old`` (the schema this connection had), the objects of
    every group of rows that did not change are taken from it instead of being built again
    (a DDL statement changes one group; SQLite likewise parses only the new rows), in the
    same order a full build gives; in a changed group, a row ``old`` has too gives the
    object built from it again without parsing (its table only when the table's own row
    is the same). ``known_tables``: lower-case names of tables outside ``rows`` that an
    index row may name, and ``defer`` False (no table built on first use): edit_schema's
    build of the groups a statement changed."""
    s = Schema(old.tables[SCHEMA_TABLE] if old is not None else None)
    s.n_rows = len(rows.keys)
    tables = TableMap(s.tables)
    indexes = IndexMap()
    indexes.tables = tables
    s.tables = tables
    s.indexes = indexes
    groups, kept = _final_groups(rows.groups, old, defer)
    s.groups = groups
    for g in groups.values():
        if type(g) is _Deferred:  # (a kept group's objects may be old's placeholder)
            _link_lazy(s, parse)
            break
    autos: list = []
    n_idx = 0  # CREATE INDEX rows, built after the tables (second pass over the rows)
    trig_rows = []
    table_names = None  # every table row's lower-case name: the tables an index may be on
    same = _OldRows(old)
    again = set()  # the groups whose Table was made again from old's (_table_again)
    all_rows = rows.rows()
    for typ, name, tbl_name, root, sql, key in all_rows:
        reuse = key in kept  # (its rows were checked when they were first built)
        if not reuse:
            _check_schema_row(typ, name, tbl_name, root, sql)
        if typ == "table":
            if sql is None:
                continue
            if reuse:
                t = dict.__getitem__(old.tables, key)
                dict.__setitem__(tables, key, t)
                if type(t) is Table and t.without_rowid:
                    for idx in t.indexes:  # the key of a WITHOUT ROWID table
                        if idx.is_pk:
                            dict.__setitem__(indexes, idx.name.lower(), idx)
                continue
            g = groups[key]
            if type(g) is _Deferred:
                dict.__setitem__(tables, key, g)
                continue
            t = dict.get(old.tables, key) if same.has(key, (typ, name, tbl_name, root, sql)) \
                else None
            if type(t) is Table:
                t = _table_again(t)
                again.add(key)
            else:
                t = table_from_ast(parse(sql, typ, name), root, sql)
            s.tables[key] = t
            for idx in t.indexes:  # the key of a WITHOUT ROWID table
                s.indexes[idx.name.lower()] = idx
        elif typ == "view":
            if reuse:
                s.views[name.lower()] = old.views[name.lower()]
                continue
            v = old.views.get(name.lower()) if same.has(key, (typ, name, tbl_name, root, sql)) \
                else None
            if v is None:
                v = parse(sql, typ, name)
            s.views[name.lower()] = View(v.name, v.select, v.columns, sql)
        elif typ == "index":
            if sql is None:
                autos.append((name, tbl_name, root, reuse))
            else:
                n_idx += 1
        elif typ == "trigger":
            trig_rows.append((name, tbl_name, sql, reuse,
                              same.has(key, (typ, name, tbl_name, root, sql))))
    for name, tbl_name, root, reuse in autos:
        if reuse:
            _take_over(indexes, old.indexes, name.lower())
            continue
        t = s.table(tbl_name)
        if t is None:
            continue
        try:
            n = int(name.rsplit("_", 1)[1])
        except (ValueError, IndexError):
            continue
        if 1 <= n <= len(t.unique_specs):
            cols, colls, desc, conflict, _ai, is_pk = t.unique_specs[n - 1]
            if is_pk and t.without_rowid:
                continue  # the table's own b-tree (built with the table)
            idx = Index(name, t.name, cols, colls, desc, True, root, None, auto=True,
                        conflict=conflict, is_pk=is_pk)
            if t.without_rowid:  # after the key when its number is larger
                t.indexes.insert(sum(1 for i in t.indexes if i.auto and
                                     int(i.name.rsplit("_", 1)[1]) < n), idx)
            else:
                t.indexes.append(idx)
            s.indexes[name.lower()] = idx
    for typ, name, tbl_name, root, sql, key in all_rows if n_idx else ():
        if typ != "index" or sql is None:
            continue
        if key in kept:
            _take_over(indexes, old.indexes, name.lower())
            continue
        g = groups[key]
        if type(g) is _Deferred:
            low = name.lower()
            dict.__setitem__(indexes, name if low == name else low, g)
            continue
        t = s.table(tbl_name)
        if t is None:
            continue
        if key in again and same.has(key, (typ, name, tbl_name, root, sql)):
            idx = dict.get(old.indexes, name.lower())
            if type(idx) is Index:
                t.indexes.append(idx)
                s.indexes[name.lower()] = idx
                continue
        st = parse(sql, "index", name)
        if table_names is None:
            table_names = {r[1].lower() for r in all_rows if r[0] == "table"}
        if st.table.lower() not in table_names and (known_tables is None
                                                    or st.table.lower() not in known_tables):
            raise _no_table(name, st.table)
        idx = index_from_ast(st, t, root, sql)
        t.indexes.append(idx)
        s.indexes[name.lower()] = idx
    for name, tbl_name, sql, reuse, unchanged in trig_rows:
        if reuse:
            s.triggers[name.lower()] = old.triggers[name.lower()]
            continue
        tr = old.triggers.get(name.lower()) if unchanged else None
        if tr is None:
            tr = Trigger(parse(sql, "trigger", name), sql)
        s.triggers[name.lower()] = tr
        owner = s.table(tbl_name) or s.views.get(tbl_name.lower())
        if owner is not None:
            owner.triggers.append(tr)
    return s


def _take_over(indexes, old_indexes, key) -> None:
    """An index of a kept group, as the old schema holds it (built, or still deferred with
    its table); none when the old build left it out (an index of no table)."""
    v = dict.get(old_indexes, key)
    if v is not None:
        dict.__setitem__(indexes, key, v)


class SchemaEdit:
    """OP_ParseSchema's P4 after CREATE or DROP: the groups of sqlite_schema rows
    (``SchemaRows``: lower-case table or view names) whose rows the statement changed,
    by appending ``added`` rows (a new row has the largest rowid) and deleting the rows
    ``deleted`` tests (column number, value, type or None: ddl.py's _delete_schema_rows,
    which compares the value exactly with a type, NOCASE without), so that only those
    groups are built again (``edit_schema``), as SQLite parses only the new rows and
    drops only the dropped object."""

    __slots__ = ("keys", "added", "deleted")

    def __init__(self, groups, added=0, deleted=None):
        self.keys = frozenset(g.lower() for g in groups)
        self.added = added
        self.deleted = deleted

    def explain(self):
        return " OR ".join(f"tbl_name='{k}'" for k in sorted(self.keys))

    def gone(self, s: Schema) -> dict:
        """The rows of the groups ``keys`` of ``s`` that the statement deleted: group key
        -> the positions of their first fields in ``s.groups[key]``."""
        out: dict = {}
        deleted = self.deleted
        if deleted is None:
            return out
        col, value, typ = deleted
        if typ is None:
            value = _nocase(value)
        for key in self.keys:
            g = s.groups.get(key)
            if g is None:
                continue
            for i in range(1, len(g), 5):
                v = g[i + col]
                if typ is None:
                    if type(v) is not str or _nocase(v) != value:
                        continue
                elif g[i] != typ or v != value:
                    continue
                out.setdefault(key, []).append(i)
        return out


_ASCII_LOWER = {c: c + 32 for c in range(65, 91)}


def _nocase(text: str) -> str:
    """``text`` as the NOCASE collation compares it (ASCII letters folded)."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


def group_rows_count(s: Schema, keys) -> int:
    """How many of the rows ``s`` was built from belong to the groups ``keys``."""
    n = 0
    for key in keys:
        g = s.groups.get(key)
        if g is not None:
            n += (len(g) - 1) // 5
    return n


def edit_schema(old: Schema, change: SchemaEdit, gone: dict, added: SchemaRows,
                parse) -> Schema:
    """The schema of ``old``'s rows after ``change``: the rows ``gone``
    (``SchemaEdit.gone``) deleted from its groups and the rows ``added`` (``SchemaRows``
    of the groups ``change.keys``) appended. ``old`` is left as it was: a new Schema, as
    after a full build (compiled programs and caches know a schema by its identity), in
    which each object keeps its place in the maps, a new one going last, as a build from
    every row would place them (sqlite_schema gives a new row the largest rowid).
    Indexes and triggers added to or dropped from a built table or a view, and groups
    dropped whole, are applied to ``old``'s objects (``_edit_in_place``); any other
    change builds its groups again (``_edit_groups``)."""
    s = _edit_in_place(old, change, gone, added, parse)
    if s is not None:
        return s
    rows = SchemaRows(change.keys)
    for key in change.keys:  # the groups' rows the statement kept, then the new ones
        g = old.groups.get(key)
        if g is not None:
            dels = gone.get(key, ())
            for i in range(1, len(g), 5):
                if i not in dels:
                    rows.add(g[i:i + 5])
    for r in added.rows():
        rows.add(r[:5])
    return _edit_groups(old, rows, parse)


def _edit_groups(old: Schema, rows: SchemaRows, parse) -> Schema:
    """``edit_schema`` by building the groups ``rows.only`` from ``rows`` (a group with
    no rows there is gone; ``build_schema``, taking over the objects of their rows that
    did not change); the other groups' objects are ``old``'s."""
    new = build_schema(rows, parse, old, old.tables, False)
    s = Schema(dict.__getitem__(old.tables, SCHEMA_TABLE))
    # (dict.items, not copy(), which would read each value through [] and so build it)
    s.tables = tables = TableMap(dict.items(old.tables))
    s.indexes = indexes = IndexMap(dict.items(old.indexes))
    indexes.tables = tables
    if old.lazy or new.lazy:
        _link_lazy(s, parse)
    s.views = views = dict(old.views)
    s.triggers = triggers = dict(old.triggers)
    s.groups = groups = dict(old.groups)
    for key in rows.only:  # the objects of the groups' old rows that are gone
        g = groups.get(key)
        if g is None:
            continue
        t = dict.get(tables, key)
        if type(t) is Table:
            for idx in t.indexes:  # (a WITHOUT ROWID table's key has no row)
                if idx.is_pk and idx.name.lower() not in new.indexes:
                    dict.pop(indexes, idx.name.lower(), None)
        for i in range(1, len(g), 5):
            typ, low = g[i], g[i + 1].lower()
            if typ == "table" and low not in new.tables:
                dict.pop(tables, low, None)
            elif typ == "view" and low not in new.views:
                views.pop(low, None)
            elif typ == "index" and low not in new.indexes:
                dict.pop(indexes, low, None)
            elif typ == "trigger" and low not in new.triggers:
                triggers.pop(low, None)
        if key not in new.groups:
            del groups[key]
    for key, t in dict.items(new.tables):
        if key != SCHEMA_TABLE:
            dict.__setitem__(tables, key, t)
    views.update(new.views)
    autos = False
    for key, idx in dict.items(new.indexes):
        if key not in indexes and type(idx) is Index and idx.sql is None:
            autos = True
        dict.__setitem__(indexes, key, idx)
    triggers.update(new.triggers)
    groups.update(new.groups)
    s.n_rows = old.n_rows - group_rows_count(old, rows.only) + len(rows.keys)
    if autos:
        _order_indexes(s)
    return s


def _edit_in_place(old: Schema, change: SchemaEdit, gone: dict, added: SchemaRows, parse):
    """``edit_schema`` without building any group again, when every group the change
    names is new and holds one CREATE TABLE or CREATE VIEW row, or is dropped whole, or
    keeps its table (built) or view and only gains or loses CREATE INDEX rows (a
    table's) and trigger rows: the new schema shares ``old``'s objects, the owner is
    copied with its lists of indexes and triggers edited, and only the added rows are
    parsed. None, changing nothing, for any other change."""
    plans = []
    for key in change.keys:
        g = old.groups.get(key)
        if g is None:  # a new table or view: its one row
            new = added.groups.get(key)
            if new is None or len(new) != 6 or new[1] not in ("table", "view"):
                return None
            plans.append((key, None, None, None, new))
            continue
        if type(g) is not tuple:  # (a table not built)
            return None
        dels = gone.get(key, ())
        new = added.groups.get(key)
        if new is None and len(dels) == (len(g) - 1) // 5:
            plans.append((key, g, None, None, None))
            continue
        t = dict.get(old.tables, key)
        owner = t if type(t) is Table else None if t is not None else old.views.get(key)
        if owner is None:
            return None
        rows = [g[i:i + 5] for i in dels]
        if new is not None:
            rows += [new[i:i + 5] for i in range(1, len(new), 5)]
        for r in rows:
            if not (r[0] == "trigger" or (r[0] == "index" and type(r[4]) is str
                                          and owner is t)):
                return None
        plans.append((key, g, owner, dels, new))
    s = Schema(dict.__getitem__(old.tables, SCHEMA_TABLE))
    # (dict.items, not copy(), which would read each value through [] and so build it)
    s.tables = TableMap(dict.items(old.tables))
    s.indexes = IndexMap(dict.items(old.indexes))
    s.indexes.tables = s.tables
    if old.lazy:
        _link_lazy(s, parse)
    s.views = dict(old.views)
    s.triggers = dict(old.triggers)
    s.groups = dict(old.groups)
    if len(plans) > 1:  # (new objects go into the maps in rowid order)
        first = {}
        for i, key in enumerate(added.keys):
            first.setdefault(key, i)
        plans.sort(key=lambda plan: first.get(plan[0], -1))
    n_gone = 0
    for key, g, owner, dels, new in plans:
        if g is None:
            _add_group(s, key, new, parse)
        elif owner is None:
            _drop_group(s, key, g)
            n_gone += (len(g) - 1) // 5
        else:
            _edit_group(s, old, key, g, owner, dels, new, parse)
            n_gone += len(dels)
    s.n_rows = old.n_rows - n_gone + len(added.keys)
    return s


def _add_group(s: Schema, key, g, parse) -> None:
    """Add to ``s`` the new group ``g`` of one CREATE TABLE or CREATE VIEW row (a table
    with no automatic index: one has a row of its own), as ``build_schema`` builds it."""
    typ, name, tbl_name, root, sql = g[1], g[2], g[3], g[4], g[5]
    _check_schema_row(typ, name, tbl_name, root, sql)
    if typ == "view":
        v = parse(sql, typ, name)
        s.views[name.lower()] = View(v.name, v.select, v.columns, sql)
    elif sql is not None:
        t = table_from_ast(parse(sql, typ, name), root, sql)
        dict.__setitem__(s.tables, key, t)
        for idx in t.indexes:  # the key of a WITHOUT ROWID table (first of the indexes)
            dict.__setitem__(s.indexes, idx.name.lower(), idx)
        if t.indexes:
            _order_indexes(s)
    s.groups[key] = tuple(g)


def _drop_group(s: Schema, key, g) -> None:
    """Take the objects of the group ``g`` (every row of it deleted) out of ``s``."""
    t = dict.get(s.tables, key)
    if type(t) is Table:
        for idx in t.indexes:  # (a WITHOUT ROWID table's key has no row)
            if idx.is_pk:
                dict.pop(s.indexes, idx.name.lower(), None)
    for i in range(1, len(g), 5):
        typ, low = g[i], g[i + 1].lower()
        if typ == "table":
            dict.pop(s.tables, low, None)
        elif typ == "view":
            s.views.pop(low, None)
        elif typ == "index":
            dict.pop(s.indexes, low, None)
        elif typ == "trigger":
            s.triggers.pop(low, None)
    del s.groups[key]


def _edit_group(s: Schema, old: Schema, key, g, owner, dels, new, parse) -> None:
    """The group ``g`` of ``s`` without the index and trigger rows at ``dels`` and with
    the rows of ``new`` (a ``SchemaRows`` group, or None), as ``build_schema`` would
    build it: a copy of ``owner`` (its table or view) whose lists keep the other objects
    in order, each new one appended; only the new rows are parsed."""
    dropped = []
    rows = [key]
    for i in range(1, len(g), 5):
        if i not in dels:
            rows += g[i:i + 5]
        elif g[i] == "index":
            dropped.append(dict.pop(s.indexes, g[i + 1].lower(), None))
        else:
            dropped.append(s.triggers.pop(g[i + 1].lower(), None))
    indexes = [i for i in owner.indexes if not _listed(i, dropped)] \
        if type(owner) is Table else None
    triggers = [tr for tr in owner.triggers if not _listed(tr, dropped)]
    if type(owner) is Table:
        o = _table_again(owner, indexes, triggers)
        dict.__setitem__(s.tables, key, o)
    else:
        o = View(owner.name, owner.select, owner.columns, owner.sql)
        o.triggers = triggers
        s.views[key] = o
    for i in range(1, len(new) if new is not None else 0, 5):
        typ, name, root, sql = new[i], new[i + 1], new[i + 3], new[i + 4]
        _check_schema_row(typ, name, new[i + 2], root, sql)
        if typ == "index":
            st = parse(sql, "index", name)
            if st.table.lower() not in old.tables:
                raise _no_table(name, st.table)
            idx = index_from_ast(st, o, root, sql)
            o.indexes.append(idx)
            dict.__setitem__(s.indexes, name.lower(), idx)
        else:
            tr = Trigger(parse(sql, "trigger", name), sql)
            s.triggers[name.lower()] = tr
            o.triggers.append(tr)
        rows += new[i:i + 5]
    s.groups[key] = tuple(rows)


def _listed(obj, objs) -> bool:
    """Whether ``obj`` is one of ``objs`` (by identity)."""
    for x in objs:
        if x is obj:
            return True
    return False


def _index_rank(idx, tables) -> int:
    """Where a build from every row puts an index: a WITHOUT ROWID table's key (0, made
    with its table), an automatic index (1), an index of CREATE INDEX (2)."""
    if type(idx) is not Index or idx.sql is not None:
        return 2
    t = dict.get(tables, idx.table.lower())
    return 0 if idx.is_pk and type(t) is Table and t.without_rowid else 1


def _order_indexes(s: Schema) -> None:
    """Sort ``s.indexes`` by ``_index_rank`` (stable: rowid order within a rank)."""
    items = [(_index_rank(idx, s.tables), i, key, idx)
             for i, (key, idx) in enumerate(dict.items(s.indexes))]
    items.sort()
    dict.clear(s.indexes)
    for _r, _i, key, idx in items:
        dict.__setitem__(s.indexes, key, idx)


def _str_hash(name: str) -> int:
    """SQLite's strHash: Knuth's multiplicative hash of the ASCII-folded UTF-8 bytes."""
    h = 0
    for c in name.encode("utf-8", "surrogatepass"):
        if 65 <= c <= 90:
            c += 32
        h = ((h + c) * 0x9E3779B1) & 0xFFFFFFFF
    return h


def _hash_iteration(names):
    """The order SQLite's Hash (hash.c) walks ``names`` inserted in turn: each new element
    goes before the first element of its bucket, or first in the list when the bucket is
    empty or there are no buckets yet; from 10 elements on the table grows to twice the
    count (at most 64 buckets: SQLITE_MALLOC_SOFT_LIMIT) and relinks the list."""
    order = []
    buckets = None  # [count, first element] per bucket

    def insert(e, entry):
        head = entry[1] if entry is not None and entry[0] else None
        if entry is not None:
            entry[0] += 1
            entry[1] = e
        if head is not None:
            order.insert(order.index(head), e)
        else:
            order.insert(0, e)
    for count, name in enumerate(names, 1):
        size = len(buckets) if buckets else 0
        if count >= 10 and count > 2 * size and min(count * 2, 64) != size:
            size = min(count * 2, 64)
            buckets = [[0, None] for _ in range(size)]
            old, order[:] = list(order), []
            for e in old:
                insert(e, buckets[_str_hash(e) % size])
        insert(name, buckets[_str_hash(name) % size] if buckets else None)
    return order


def table_hash_order(bt) -> list:
    """The names of the tables and views of the database in ``bt`` in the order SQLite
    walks its schema's table hash after loading it: "sqlite_master" first, then each
    sqlite_schema row in rowid order, inserted in turn (``_hash_iteration``)."""
    from sqlengine.storage import decode_record
    names = ["sqlite_master"]
    cur = bt.cursor(1)
    try:
        ok = cur.first()
        while ok:
            rec = decode_record(cur.payload())
            if len(rec) > 1 and rec[0] in ("table", "view") and isinstance(rec[1], str):
                names.append(rec[1])
            ok = cur.next()
    finally:
        cur.close()
    return _hash_iteration(names)


# ---- sqlite_stat1 ---------------------------------------------------------------------------


class TableStat:
    """What sqlite_stat1 says of one table: ``n_row``, its row count (the first number of
    the last row naming the table with idx NULL or a non-partial index of it; None when
    none did), and ``indexes``, the numbers of each index with a row (lower-case index
    name -> up to 1 + key columns integers). The planner turns them into its estimates
    (compiler/_loops.pyx TableFacts)."""

    __slots__ = ("n_row", "indexes")

    def __init__(self):
        self.n_row = None
        self.indexes = {}


def stat_integers(text: str, n: int) -> list:
    """The first ``n`` integers of a sqlite_stat1 ``stat`` text, read as SQLite's
    decodeIntArray reads them (digits up to the next character, one space skipped; a
    word such as ``unordered`` reads as 0s to the end)."""
    out = []
    i = 0
    size = len(text)
    while i < size and len(out) < n:
        v = 0
        while i < size and "0" <= text[i] <= "9":
            v = v * 10 + ord(text[i]) - 48
            i += 1
        out.append(v)
        if i < size and text[i] == " ":
            i += 1
    return out


def _stat_text(v):
    """A sqlite_stat1 field as sqlite3_exec hands it over: text (None stays None)."""
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return str(v)


def apply_stats(s: Schema, rows) -> None:
    """SQLite's sqlite3AnalysisLoad: the rows (tbl, idx, stat) of sqlite_stat1, in rowid
    order, give each table they name its TableStat (``Table.stat``); every other table
    has none. A row whose tbl or stat is NULL, or that names no table, is skipped; an idx
    equal to tbl names a WITHOUT ROWID table's PRIMARY KEY."""
    stats = {}
    for row in rows:
        if len(row) < 3:
            continue
        tbl, idx, text = (_stat_text(v) for v in row[:3])
        if tbl is None or text is None:
            continue
        table = s.tables.get(tbl.lower())
        if table is None:
            continue
        if idx is None:
            ix = None
        elif idx.lower() == tbl.lower():
            ix = pk_index(table)
        else:
            ix = s.indexes.get(idx.lower())
        if idx is not None and ix is None:
            continue
        owner = table if ix is None else s.tables.get(ix.table.lower())
        st = stats.get(id(table))
        if st is None:
            st = stats[id(table)] = (table, TableStat())
        ints = stat_integers(text, 1 if ix is None else len(ix.columns) + 1)
        if ix is not None:
            ost = stats.get(id(owner))
            if ost is None:
                ost = stats[id(owner)] = (owner, TableStat())
            ost[1].indexes[ix.name.lower()] = ints
            if ix.where is not None:
                continue
        if ints:
            st[1].n_row = ints[0]
    for t in dict.values(s.tables):  # (a table not built yet has none)
        if type(t) is Table and t.stat is not None:
            t.stat = None
    for table, st in stats.values():
        table.stat = st
    s.has_stats = bool(stats)
