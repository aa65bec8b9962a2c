"""Reloading the schema after DDL: ``schema.build_schema`` given the connection's previous
schema takes over the objects of every table or view whose sqlite_schema rows (its own,
its indexes' and its triggers') did not change, and builds the others again. A connection
must then see exactly what a full reload (and sqlite3) sees after CREATE, DROP, ALTER,
ROLLBACK and savepoints: the checks below run the same statements on both engines and
compare what the in-memory schema decides (PRAGMA listings, index use, constraint errors,
triggers, views)."""

from __future__ import annotations

import random
import sqlite3

import pytest

import sqlengine
from sqlengine import database as D
from sqlengine import schema as S
from sqlengine.sql import parse_one

# What the in-memory schema shows of table/view NAME (each query's rows or error).
PROBES = [
    "PRAGMA table_info({t})",
    "PRAGMA index_list({t})",
    "SELECT name, tbl_name FROM pragma_index_list('{t}') JOIN sqlite_schema USING (name)",
    "SELECT * FROM {t} ORDER BY 1, 2",
    "SELECT count(*) FROM {t} WHERE a = 1",
    "INSERT INTO {t}(a, b) VALUES (1, 'dup')",
    "SELECT * FROM log ORDER BY rowid",
]

SCRIPT_STEPS = [
    "CREATE TABLE t1(a INTEGER, b TEXT)",
    "CREATE TABLE t2(a INTEGER PRIMARY KEY, b TEXT UNIQUE)",
    "CREATE TABLE log(x)",
    "INSERT INTO t1 VALUES (1, 'x'), (2, 'y')",
    "INSERT INTO t2 VALUES (1, 'x'), (2, 'y')",
    "CREATE UNIQUE INDEX t1a ON t1(a)",
    "CREATE INDEX t2b ON t2(b DESC)",
    "CREATE VIEW v1 AS SELECT a, b FROM t1 WHERE a > 0",
    "CREATE TRIGGER tr1 AFTER INSERT ON t1 BEGIN INSERT INTO log VALUES (new.b); END",
    "CREATE TABLE t3(a, b, c, PRIMARY KEY (a, b)) WITHOUT ROWID",
    "CREATE INDEX t3c ON t3(c)",
    "INSERT INTO t3 VALUES (1, 'p', 3)",
    "DROP INDEX t1a",
    "ALTER TABLE t2 RENAME TO t2x",
    "ALTER TABLE t2x RENAME TO t2",
    "ALTER TABLE t1 ADD COLUMN c DEFAULT 7",
    "DROP VIEW v1",
    "CREATE VIEW v1 AS SELECT b AS a, a AS b FROM t1",
    "DROP TRIGGER tr1",
    "CREATE TRIGGER tr2 BEFORE INSERT ON t2 BEGIN INSERT INTO log VALUES (new.a); END",
    "DROP TABLE t3",
    "DROP TABLE t2",
    "CREATE TABLE t2(a, b)",
]


def _probe(con, name):
    out = []
    for q in PROBES:
        cur = con.cursor()
        try:
            cur.execute(q.format(t=name))
            out.append(("ok", cur.fetchall()))
        except Exception as e:  # the error class and text are part of what must match
            out.append((type(e).__name__, str(e)))
    return out


def _state(con):
    names = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY name")]
    return names, [_probe(con, n) for n in names + ["t1", "t2", "t3", "v0", "v1"]]


def _run(module, steps, between=None):
    con = module.connect(":memory:", isolation_level=None)
    states = []
    for sql in steps:
        try:
            con.execute(sql)
            states.append(("ok", sql))
        except Exception as e:
            states.append((type(e).__name__, str(e), sql))
        if between is None or between(sql):
            con.execute("BEGIN")
            states.append(_state(con))
            con.execute("ROLLBACK")
    con.close()
    return states


def test_each_ddl_step_matches_sqlite3():
    assert _run(sqlengine, SCRIPT_STEPS) == _run(sqlite3, SCRIPT_STEPS)


def test_ddl_rolled_back_matches_sqlite3():
    steps = ["CREATE TABLE t1(a, b)", "CREATE INDEX t1a ON t1(a)", "CREATE TABLE log(x)",
             "BEGIN", "CREATE UNIQUE INDEX t1b ON t1(b)", "DROP INDEX t1a",
             "CREATE TABLE t2(a UNIQUE, b)", "INSERT INTO t2 VALUES (1, 2)",
             "SAVEPOINT s1", "DROP TABLE t1", "CREATE VIEW t1 AS SELECT 1 AS a, 2 AS b",
             "ROLLBACK TO s1", "SELECT * FROM t1", "SAVEPOINT s2", "DROP TABLE t2",
             "RELEASE s2", "ROLLBACK",
             "BEGIN", "CREATE INDEX t1ab ON t1(a, b)", "COMMIT",
             "BEGIN", "DROP TABLE t1", "ROLLBACK"]
    probe_when = lambda sql: sql in ("ROLLBACK", "COMMIT")  # noqa: E731 (outside a txn)
    assert _run(sqlengine, steps, probe_when) == _run(sqlite3, steps, probe_when)


@pytest.mark.parametrize("seed", range(6))
def test_random_ddl_sequences_match_sqlite3(seed):
    rnd = random.Random(seed)
    steps = ["CREATE TABLE log(x)"]
    for _ in range(40):
        t = rnd.choice(["t1", "t2", "t3"])
        i = rnd.randrange(4)
        steps.append(rnd.choice([
            f"CREATE TABLE {t}(a INTEGER, b TEXT, c)",
            f"CREATE TABLE {t}(a PRIMARY KEY, b UNIQUE, c) WITHOUT ROWID",
            f"DROP TABLE {t}",
            f"CREATE {rnd.choice(['', 'UNIQUE '])}INDEX {t}i{i} ON {t}({rnd.choice('abc')})",
            f"DROP INDEX {t}i{i}",
            f"CREATE VIEW v{i} AS SELECT {i} AS a, 2 AS b",
            f"DROP VIEW v{i}",
            f"CREATE TRIGGER {t}g{i} AFTER INSERT ON {t} BEGIN INSERT INTO log VALUES (1); END",
            f"DROP TRIGGER {t}g{i}",
            f"INSERT INTO {t}(a, b) VALUES ({rnd.randrange(3)}, 'v')",
            f"ALTER TABLE {t} ADD COLUMN d{i}",
        ]))
    assert _run(sqlengine, steps) == _run(sqlite3, steps)


def test_another_connections_ddl_is_seen(tmp_path):
    path = str(tmp_path / "db")
    a = sqlengine.connect(path, isolation_level=None)
    b = sqlengine.connect(path, isolation_level=None)
    a.execute("CREATE TABLE t(a, b)")
    a.execute("INSERT INTO t VALUES (1, 2)")
    assert b.execute("SELECT * FROM t").fetchall() == [(1, 2)]
    a.execute("CREATE UNIQUE INDEX ta ON t(a)")
    with pytest.raises(sqlengine.IntegrityError, match="UNIQUE constraint failed: t.a"):
        b.execute("INSERT INTO t VALUES (1, 3)")
    a.execute("DROP INDEX ta")
    b.execute("INSERT INTO t VALUES (1, 3)")
    assert b.execute("PRAGMA index_list(t)").fetchall() == []
    a.close()
    b.close()


def _built_schema(db):
    return getattr(db.schema, "main", db.schema)


def test_unchanged_objects_are_taken_over_and_changed_ones_rebuilt():
    db = D.Database(":memory:")
    db.execute("CREATE TABLE a(x UNIQUE, y)")
    db.execute("CREATE INDEX ay ON a(y)")
    db.execute("CREATE TABLE b(x, y)")
    db.execute("CREATE VIEW v AS SELECT * FROM a")
    db.execute("CREATE TRIGGER bt AFTER INSERT ON b BEGIN SELECT 1; END")
    s1 = _built_schema(db)
    a, ay, b, v, bt = (s1.tables["a"], s1.indexes["ay"], s1.tables["b"], s1.views["v"],
                       s1.triggers["bt"])
    db.execute("CREATE INDEX bx ON b(x)")
    s2 = _built_schema(db)
    assert s2 is not s1 and s2.version > s1.version
    # a's group (table, its two indexes) and the view are the same objects ...
    assert s2.tables["a"] is a and s2.indexes["ay"] is ay and s2.views["v"] is v
    assert s2.indexes["sqlite_autoindex_a_1"] is s1.indexes["sqlite_autoindex_a_1"]
    # ... b's group changed: built again, with the new index and its trigger
    b2 = s2.tables["b"]
    assert b2 is not b and [i.name for i in b2.indexes] == ["bx"]
    assert [t.name for t in b2.triggers] == ["bt"] and not b.indexes
    # (its table row and trigger row did not change: the columns are b's, the trigger is bt)
    assert s2.triggers["bt"] is b2.triggers[0] is bt and b2.columns is b.columns
    # a full build from the same rows gives the same schema, in the same order
    rows, cookie = db._read_schema_rows()
    full = S.build_schema(rows, lambda sql, typ, name: parse_one(sql).stmt)
    for attr in ("tables", "indexes", "views", "triggers"):
        assert list(getattr(full, attr)) == list(getattr(s2, attr))
    assert [i.name for i in full.tables["a"].indexes] == [i.name for i in a.indexes]


def test_a_changed_group_rebuilds_only_its_changed_rows():
    # CREATE INDEX changes its table's group: the table's row and its other indexes' rows
    # did not change, so their objects are made again without parsing; a changed table
    # row (ALTER TABLE) rebuilds the table and every index of it
    db = D.Database(":memory:")
    db.execute("CREATE TABLE t(a, b, c UNIQUE)")
    db.execute("CREATE INDEX tb ON t(b)")
    db.execute("CREATE INDEX tc ON t(c, a)")
    db.execute("INSERT INTO t VALUES (1, 2, 3), (4, 5, 6)")
    s1 = _built_schema(db)
    t1, tb, tc = s1.tables["t"], s1.indexes["tb"], s1.indexes["tc"]

    db.execute("CREATE INDEX ta ON t(a)")
    s2 = _built_schema(db)
    t2 = s2.tables["t"]
    assert t2 is not t1 and t2.columns is t1.columns
    assert [i.name for i in t2.indexes] == ["sqlite_autoindex_t_1", "tb", "tc", "ta"]
    assert s2.indexes["tb"] is tb and s2.indexes["tc"] is tc
    assert "ta" not in [i.name for i in t1.indexes]  # (the old table's list is its own)
    db.execute("DROP INDEX tb")
    db.execute("ALTER TABLE t DROP COLUMN b")
    s3 = _built_schema(db)
    t3 = s3.tables["t"]
    assert t3.columns is not t1.columns and [c.name for c in t3.columns] == ["a", "c"]
    assert s3.indexes["tc"] is not tc and s3.indexes["tc"].columns == [1, 0]
    assert list(db.execute("SELECT a FROM t INDEXED BY tc WHERE c = 6")) == [(4,)]


# ---- CREATE and DROP change only their own group (schema.edit_schema) -------------------

def _signature(s):
    """Everything the compiler may read of a schema, its maps' orders included."""
    s.tables.build_all()

    def index(i):
        return (i.name, i.table, list(i.columns), list(i.collations), list(i.desc), i.unique,
                i.root, i.sql, i.auto, i.conflict, i.is_pk, repr(i.where), repr(i.exprs))

    out = [list(dict.keys(s.tables)), list(dict.keys(s.indexes)), list(s.views),
           list(s.triggers), sorted(s.groups), s.n_rows]
    for key, t in dict.items(s.tables):
        out.append((key, t.name, t.root, t.sql, t.ipk, t.without_rowid, t.autoinc,
                    [(c.name, c.type_name, c.affinity, c.notnull, c.pk, c.collation)
                     for c in t.columns],
                    [index(i) for i in t.indexes], [tr.name for tr in t.triggers],
                    t.storage, t.n_stored, repr(t.unique_specs)))
    out += [(k, index(i)) for k, i in dict.items(s.indexes)]
    out += [(k, v.name, v.sql, [tr.name for tr in v.triggers]) for k, v in s.views.items()]
    out += [(k, tr.name, tr.table, tr.sql) for k, tr in s.triggers.items()]
    return out


def _full_build(db):
    rows, _cookie = db._read_schema_rows()
    return S.build_schema(rows, lambda sql, typ, name: parse_one(sql).stmt)


class _Edits:
    """Counts the schema updates of a Database: edits, and full reads of sqlite_schema."""

    def __init__(self, monkeypatch):
        self.edits = self.reads = 0
        edit, read = D.Database._edit_schema, D.Database._read_schema_rows

        def counted_edit(db, change):
            done = edit(db, change)
            self.edits += done
            return done

        def counted_read(db):
            self.reads += 1
            return read(db)
        monkeypatch.setattr(D.Database, "_edit_schema", counted_edit)
        monkeypatch.setattr(D.Database, "_read_schema_rows", counted_read)


DDL_KINDS = [
    "CREATE TABLE {t}(a INTEGER PRIMARY KEY AUTOINCREMENT, b TEXT UNIQUE, c)",
    "CREATE TABLE {t}(a, b, c, PRIMARY KEY (b, a), UNIQUE (c)) WITHOUT ROWID",
    "CREATE TABLE {t}(a TEXT PRIMARY KEY, b UNIQUE, c UNIQUE)",
    "CREATE TABLE {t}(a, b, c)",
    "CREATE TABLE {t} AS SELECT 1 AS a, 'x' AS b, 2.5 AS c",
    "DROP TABLE {t}",
    "CREATE INDEX {t}i{i} ON {t}(c, a DESC)",
    "CREATE UNIQUE INDEX {t}u{i} ON {t}(b) WHERE b > 0",
    "CREATE INDEX {t}e{i} ON {t}(a + 1)",
    "DROP INDEX {t}i{i}",
    "DROP INDEX {t}u{i}",
    "CREATE VIEW {t}v{i} AS SELECT * FROM {t}",
    "DROP VIEW {t}v{i}",
    "CREATE TRIGGER {t}g{i} AFTER INSERT ON {t} BEGIN SELECT 1; END",
    "CREATE TRIGGER {t}w{i} INSTEAD OF INSERT ON {t}v{i} BEGIN SELECT 1; END",
    "DROP TRIGGER {t}g{i}",
    "DROP TRIGGER {t}w{i}",
]


@pytest.mark.parametrize("seed", range(4))
def test_each_create_and_drop_edits_the_schema_as_a_full_build(seed, monkeypatch):
    # after every CREATE or DROP the schema is the one a build from every row gives (the
    # maps in the same order, each table's indexes and triggers in the same order), and
    # it was made without reading all of sqlite_schema
    rnd = random.Random(seed)
    edits = _Edits(monkeypatch)
    db = D.Database(":memory:")
    n_ddl = 0
    for _ in range(200):
        sql = rnd.choice(DDL_KINDS).format(t=rnd.choice(["t1", "T2", "t3"]), i=rnd.randrange(2))
        before = (edits.edits, edits.reads)
        try:
            db.execute(sql)
        except sqlengine.OperationalError:
            assert (edits.edits, edits.reads) == before
            continue
        n_ddl += 1
        assert (edits.edits, edits.reads) == (before[0] + 1, before[1]), sql
        assert _signature(_built_schema(db)) == _signature(_full_build(db)), sql
    assert n_ddl > 40


def test_ddl_edits_the_schema_in_place(monkeypatch):
    # CREATE/DROP INDEX and TRIGGER, CREATE of a table without automatic index or of a
    # view, and DROP TABLE / VIEW parse only the new row: the group is not built again
    # (no _edit_groups), the table or view is a copy sharing its columns, the objects of
    # the other rows are the same objects, and the result is a full build's
    db = D.Database(":memory:")
    for sql in ["CREATE TABLE t(a UNIQUE, b)", "CREATE INDEX tb ON t(b)",
                "CREATE TRIGGER g1 AFTER INSERT ON t BEGIN SELECT 1; END",
                "CREATE VIEW v AS SELECT * FROM t",
                "CREATE TRIGGER w1 INSTEAD OF INSERT ON v BEGIN SELECT 1; END"]:
        db.execute(sql)
    s1 = _built_schema(db)
    t1, v1, g1, tb = s1.tables["t"], s1.views["v"], s1.triggers["g1"], s1.indexes["tb"]

    def no_group_build(*args):
        raise AssertionError("group built again")
    monkeypatch.setattr(S, "_edit_groups", no_group_build)
    for sql in ["CREATE INDEX ta ON t(a)", "CREATE TRIGGER g2 AFTER DELETE ON t BEGIN "
                "SELECT 1; END", "DROP TRIGGER g1", "DROP INDEX tb",
                "CREATE TRIGGER w2 INSTEAD OF DELETE ON v BEGIN SELECT 1; END",
                "DROP TRIGGER w1", "DROP VIEW v", "CREATE VIEW v2 AS SELECT 1",
                "CREATE TABLE u(x INTEGER PRIMARY KEY AUTOINCREMENT, y)",
                "CREATE TABLE w(a, b, PRIMARY KEY (b, a)) WITHOUT ROWID", "DROP TABLE u"]:
        db.execute(sql)
        assert _signature(_built_schema(db)) == _signature(_full_build(db)), sql
    s2 = _built_schema(db)
    t2 = s2.tables["t"]
    assert t2 is not t1 and t2.columns is t1.columns
    assert [i.name for i in t2.indexes] == ["sqlite_autoindex_t_1", "ta"]
    assert t2.indexes[0] is t1.indexes[0] and [tr.name for tr in t2.triggers] == ["g2"]
    assert "g1" not in s2.triggers and "tb" not in s2.indexes and "v" not in s2.views
    assert [tr.name for tr in t1.triggers] == ["g1"] and tb in t1.indexes  # (old's own)
    assert [tr.name for tr in v1.triggers] == ["w1"] and g1.name == "g1"


def test_ddl_in_transactions_and_savepoints_edits_then_rolls_back(monkeypatch):
    edits = _Edits(monkeypatch)
    db = D.Database(":memory:")
    db.execute("CREATE TABLE t(a, b)")
    db.execute("CREATE INDEX ta ON t(a)")
    committed = _signature(_built_schema(db))
    db.execute("BEGIN")
    db.execute("CREATE TABLE u(x UNIQUE)")
    db.execute("SAVEPOINT s")
    db.execute("DROP INDEX ta")
    db.execute("CREATE INDEX tb ON t(b)")
    assert [i.name for i in _built_schema(db).tables["t"].indexes] == ["tb"]
    db.execute("ROLLBACK TO s")  # (a rollback reads the schema again)
    assert [i.name for i in _built_schema(db).tables["t"].indexes] == ["ta"]
    assert "u" in _built_schema(db).tables
    assert _signature(_built_schema(db)) == _signature(_full_build(db))
    db.execute("DROP TABLE u")
    db.execute("RELEASE s")
    db.execute("ROLLBACK")
    assert _signature(_built_schema(db)) == committed
    assert db.execute("SELECT name FROM sqlite_schema ORDER BY name") == [("t",), ("ta",)]
    assert edits.edits == 6


def test_a_failed_create_leaves_the_schema_as_it_was():
    db = D.Database(":memory:")
    db.execute("CREATE TABLE t(a)")
    db.execute("INSERT INTO t VALUES (1), (1)")
    before = _signature(_built_schema(db))
    with pytest.raises(sqlengine.IntegrityError):
        db.execute("CREATE UNIQUE INDEX ta ON t(a)")
    assert _signature(_built_schema(db)) == before
    db.execute("BEGIN")
    db.execute("CREATE TABLE u(x)")
    with pytest.raises(sqlengine.IntegrityError):
        db.execute("CREATE UNIQUE INDEX ta ON t(a)")
    assert "u" in _built_schema(db).tables and "ta" not in _built_schema(db).indexes
    db.execute("COMMIT")
    assert _signature(_built_schema(db)) == _signature(_full_build(db))


def test_rows_the_statement_did_not_make_are_read_in_full(monkeypatch):
    # sqlite_schema holding a row no CREATE or DROP accounted for (written directly): the
    # next DDL statement's row count does not match, so the whole schema is read again
    edits = _Edits(monkeypatch)
    db = D.Database(":memory:")
    db.execute("CREATE TABLE t(a)")
    db.execute("PRAGMA writable_schema = ON")
    db.execute("INSERT INTO sqlite_schema VALUES ('view', 'w', 'w', 0, "
               "'CREATE VIEW w AS SELECT 7 AS x')")
    db.execute("PRAGMA writable_schema = OFF")
    reads = edits.reads
    db.execute("CREATE TABLE u(b)")
    assert edits.reads == reads + 1
    assert "w" in _built_schema(db).views and "u" in _built_schema(db).tables
    assert _signature(_built_schema(db)) == _signature(_full_build(db))


def test_another_connections_committed_ddl_is_seen(tmp_path):
    path = str(tmp_path / "db")
    a = sqlengine.connect(path, isolation_level=None)
    b = sqlengine.connect(path, isolation_level=None)
    a.execute("CREATE TABLE t(a, b)")
    assert b.execute("SELECT * FROM t").fetchall() == []
    a.execute("BEGIN")
    a.execute("CREATE TABLE u(x)")
    a.execute("CREATE UNIQUE INDEX ta ON t(a)")
    a.execute("DROP TABLE u")
    a.execute("CREATE VIEW v AS SELECT a FROM t")
    a.execute("COMMIT")
    b.execute("INSERT INTO t VALUES (1, 2)")
    with pytest.raises(sqlengine.IntegrityError, match="UNIQUE constraint failed: t.a"):
        b.execute("INSERT INTO t VALUES (1, 3)")
    assert b.execute("SELECT * FROM v").fetchall() == [(1,)]
    with pytest.raises(sqlengine.OperationalError, match="no such table: u"):
        b.execute("SELECT * FROM u")
    a.execute("BEGIN")
    a.execute("DROP INDEX ta")
    a.execute("ROLLBACK")
    with pytest.raises(sqlengine.IntegrityError):
        b.execute("INSERT INTO t VALUES (1, 4)")
    b.execute("DROP VIEW v")
    with pytest.raises(sqlengine.OperationalError, match="no such table: v"):
        a.execute("SELECT * FROM v")
    a.close()
    b.close()
