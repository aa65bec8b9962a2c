"""ON DELETE CASCADE keys that form a cycle over several tables (t1 -> t2 -> t1, three
tables, branches) terminate and delete what sqlite3 deletes; differential against the
stdlib sqlite3. (Chains deeper than SQLite's 1000 trigger levels, where sqlite3 fails with
'too many levels of trigger recursion', are deleted whole here: not compared.)"""

import sqlite3

import pytest

import sqlengine

TWO = [
    "CREATE TABLE t1(a INTEGER PRIMARY KEY, b REFERENCES t2(c) ON DELETE CASCADE)",
    "CREATE TABLE t2(c INTEGER PRIMARY KEY, d REFERENCES t1(a) ON DELETE CASCADE)",
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60) "
    "INSERT INTO t1 SELECT i, NULL FROM n",
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60) "
    "INSERT INTO t2 SELECT i, i + 1 FROM n WHERE i < 60",
    "UPDATE t1 SET b = a WHERE a < 60 AND a % 17 != 0",
]
THREE = [
    "CREATE TABLE r1(a INTEGER PRIMARY KEY, b REFERENCES r2(a) ON DELETE CASCADE, x)",
    "CREATE TABLE r2(a INTEGER PRIMARY KEY, b REFERENCES r3(a) ON DELETE CASCADE)",
    "CREATE TABLE r3(a INTEGER PRIMARY KEY, b REFERENCES r1(a) ON DELETE CASCADE, "
    "c REFERENCES r2(a) ON DELETE SET NULL)",
    "CREATE TABLE leaf(z REFERENCES r2(a) ON DELETE CASCADE)",
    "INSERT INTO r1 VALUES(1, NULL, 'a'), (2, NULL, 'b'), (3, NULL, 'c'), (4, NULL, 'd')",
    "INSERT INTO r2 VALUES(1, NULL), (2, NULL), (3, NULL), (4, NULL)",
    "INSERT INTO r3 VALUES(1, 2, 1), (2, 3, 4), (3, 1, NULL), (4, 4, 2)",
    "UPDATE r1 SET b = a",
    "UPDATE r2 SET b = a WHERE a != 4",
    "INSERT INTO leaf VALUES(1), (2), (3), (4), (NULL)",
]
DUMP = {"two": ["SELECT * FROM t1 ORDER BY a", "SELECT * FROM t2 ORDER BY c"],
        "three": ["SELECT * FROM r1 ORDER BY a", "SELECT * FROM r2 ORDER BY a",
                  "SELECT * FROM r3 ORDER BY a", "SELECT * FROM leaf ORDER BY z"]}


def _run(mod, setup, stmts, dump):
    con = mod.connect(":memory:", isolation_level=None)
    con.execute("PRAGMA foreign_keys=ON")
    for s in setup:
        con.execute(s)
    out = []
    for s in stmts + dump:
        try:
            out.append(con.execute(s).fetchall())
        except Exception as e:  # noqa: BLE001 - compared with sqlite3's
            out.append(f"{type(e).__name__}: {e}")
    con.close()
    return out


@pytest.mark.parametrize("setup,stmts,dump", [
    (TWO, ["DELETE FROM t1 WHERE a = 60"], "two"),
    (TWO, ["DELETE FROM t1 WHERE a = 30"], "two"),
    (TWO, ["DELETE FROM t2 WHERE c = 51"], "two"),
    (TWO, ["DELETE FROM t1 WHERE a IN (10, 40)", "DELETE FROM t2 WHERE c = 5"], "two"),
    (TWO, ["BEGIN", "DELETE FROM t1 WHERE a = 45", "ROLLBACK"], "two"),
    (THREE, ["DELETE FROM r1 WHERE a = 1"], "three"),
    (THREE, ["DELETE FROM r2 WHERE a = 4"], "three"),
    (THREE, ["DELETE FROM r3 WHERE a = 2"], "three"),
    (THREE, ["DELETE FROM r1"], "three"),
])
def test_cascade_cycle_matches_sqlite3(setup, stmts, dump):
    ours = _run(sqlengine, setup, stmts, DUMP[dump])
    theirs = _run(sqlite3, setup, stmts, DUMP[dump])
    assert ours == theirs
