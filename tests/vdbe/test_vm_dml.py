"""Differential tests of writing statements through the VM: constraints and conflict
actions, triggers, views with INSTEAD OF triggers, transactions and statement rollback,
changes() and last_insert_rowid(), all compared with the stdlib sqlite3 module."""

import sqlite3

import pytest

from sqlengine import errors
from sqlengine.database import Database

SCRIPTS = {
    "conflicts": [
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b UNIQUE, c NOT NULL DEFAULT 7)",
        "INSERT INTO t VALUES (1, 'x', 1), (2, 'y', 2)",
        "INSERT INTO t VALUES (3, 'x', 3)",
        "INSERT OR IGNORE INTO t VALUES (3, 'x', 3), (4, 'z', 4)",
        "INSERT OR REPLACE INTO t VALUES (5, 'y', 5)",
        "REPLACE INTO t VALUES (1, 'w', 9)",
        "INSERT INTO t(a, b) VALUES (6, 'v')",
        "INSERT INTO t VALUES (7, 'u', NULL)",
        "INSERT OR REPLACE INTO t VALUES (8, 't', NULL)",
        "INSERT INTO t VALUES (1, 'dup', 0)",
        "UPDATE t SET b = 'z' WHERE a = 1",
        "UPDATE OR REPLACE t SET b = 'z' WHERE a = 1",
        "UPDATE t SET a = a + 100 WHERE a > 4",
        "DELETE FROM t WHERE c > 5",
        "SELECT * FROM t ORDER BY a",
        "SELECT changes(), total_changes()",
    ],
    "rowid_and_affinity": [
        "CREATE TABLE r(x INTEGER PRIMARY KEY, y REAL, z TEXT, w NUMERIC, v)",
        "INSERT INTO r VALUES (NULL, 1, 2, '3', '4')",
        "INSERT INTO r(y, z, w, v) VALUES ('1.5', 2.5, '3.0', 4.0)",
        "INSERT INTO r VALUES ('10', 1e3, x'41', 'abc', 1)",
        "INSERT INTO r VALUES ('abc', 1, 1, 1, 1)",
        "INSERT INTO r VALUES (2.5, 1, 1, 1, 1)",
        "SELECT x, y, typeof(y), z, typeof(z), w, typeof(w), v, typeof(v) FROM r ORDER BY x",
        "SELECT last_insert_rowid()",
        "INSERT INTO r SELECT x + 100, y, z, w, v FROM r",
        "SELECT count(*), max(x) FROM r",
    ],
    "triggers": [
        "CREATE TABLE a(x, y)",
        "CREATE TABLE log(msg, n)",
        "CREATE TRIGGER ai AFTER INSERT ON a BEGIN INSERT INTO log VALUES ('ins ' || new.x, new.y); END",
        "CREATE TRIGGER bu BEFORE UPDATE OF y ON a WHEN new.y > 10 BEGIN INSERT INTO log VALUES ('upd ' || old.y || '->' || new.y, 0); END",
        "CREATE TRIGGER ad AFTER DELETE ON a BEGIN DELETE FROM log WHERE n = old.y; END",
        "INSERT INTO a VALUES (1, 5), (2, 20)",
        "UPDATE a SET y = y + 1",
        "UPDATE a SET x = 9",
        "DELETE FROM a WHERE x = 9 AND y = 6",
        "SELECT * FROM log ORDER BY rowid",
        "CREATE TRIGGER nope BEFORE INSERT ON a WHEN new.x < 0 BEGIN SELECT RAISE(ABORT, 'negative'); END",
        "INSERT INTO a VALUES (-1, 0)",
        "CREATE TRIGGER ign BEFORE INSERT ON a WHEN new.x = 0 BEGIN SELECT RAISE(IGNORE); END",
        "INSERT INTO a VALUES (0, 0)",
        "SELECT * FROM a ORDER BY rowid",
        "DROP TRIGGER ai",
        "INSERT INTO a VALUES (3, 3)",
        "SELECT count(*) FROM log",
    ],
    "views": [
        "CREATE TABLE base(k INTEGER PRIMARY KEY, v)",
        "CREATE VIEW vv AS SELECT k, v FROM base WHERE v > 0",
        "CREATE TRIGGER vi INSTEAD OF INSERT ON vv BEGIN INSERT INTO base VALUES (new.k, new.v * 10); END",
        "CREATE TRIGGER vd INSTEAD OF DELETE ON vv BEGIN DELETE FROM base WHERE k = old.k; END",
        "CREATE TRIGGER vu INSTEAD OF UPDATE ON vv BEGIN UPDATE base SET v = new.v WHERE k = old.k; END",
        "INSERT INTO vv VALUES (1, 1), (2, -1), (3, 3)",
        "SELECT * FROM vv ORDER BY k",
        "UPDATE vv SET v = v + 1 WHERE k = 3",
        "DELETE FROM vv WHERE k = 1",
        "SELECT * FROM base ORDER BY k",
        "DROP VIEW vv",
        "SELECT name FROM sqlite_master ORDER BY name",
    ],
    "transactions": [
        "CREATE TABLE q(a UNIQUE)",
        "BEGIN",
        "INSERT INTO q VALUES (1), (2)",
        "INSERT INTO q VALUES (3), (1)",
        "SELECT * FROM q ORDER BY a",
        "INSERT OR FAIL INTO q VALUES (4), (2), (5)",
        "SELECT * FROM q ORDER BY a",
        "SAVEPOINT s1",
        "INSERT INTO q VALUES (10)",
        "ROLLBACK TO s1",
        "RELEASE s1",
        "COMMIT",
        "SELECT * FROM q ORDER BY a",
        "BEGIN",
        "INSERT INTO q VALUES (20)",
        "INSERT OR ROLLBACK INTO q VALUES (1)",
        "SELECT * FROM q ORDER BY a",
        "COMMIT",
        "ROLLBACK",
    ],
    "ddl": [
        "CREATE TABLE d1(a PRIMARY KEY, b, UNIQUE(b, a))",
        "CREATE INDEX d1b ON d1(b DESC)",
        "CREATE UNIQUE INDEX d1u ON d1(a, b)",
        "CREATE TABLE IF NOT EXISTS d1(z)",
        "CREATE TABLE d1(z)",
        "CREATE INDEX d1b ON d1(a)",
        "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name",
        "INSERT INTO d1 VALUES (1, 1), (2, 1)",
        "INSERT INTO d1 VALUES (1, 3)",
        "CREATE UNIQUE INDEX d1bb ON d1(b)",
        "DROP INDEX sqlite_autoindex_d1_1",
        "DROP INDEX d1b",
        "DROP TABLE d1",
        "DROP TABLE d1",
        "DROP TABLE IF EXISTS d1",
        "CREATE TABLE d2 AS SELECT 1 AS one, 'x' AS two, 2.5 AS three",
        "SELECT sql FROM sqlite_master WHERE name = 'd2'",
        "SELECT * FROM d2",
    ],
}


def _run(fn, sql):
    try:
        return ("ok", [tuple((type(v).__name__, v) for v in r) for r in fn(sql)])
    except (sqlite3.Error, errors.Error) as e:
        return ("error", type(e).__name__, str(e))


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_matches_sqlite3(name):
    ref = sqlite3.connect(":memory:", isolation_level=None)
    db = Database(":memory:")
    for sql in SCRIPTS[name]:
        expected = _run(lambda q: ref.execute(q).fetchall(), sql)
        got = _run(db.execute, sql)
        assert got == expected, sql
