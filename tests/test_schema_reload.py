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
