"""The planner's shortcut for one FROM item that only a full scan can read (a table with no
index, `_paths._scan_only`): it must step aside wherever another loop exists. Each query's
EXPLAIN QUERY PLAN and rows are compared with sqlite3's: a rowid term or an OR of rowid
equalities still searches by the rowid, a correlated subquery's equality still gets an
automatic index, and the plain cases still scan."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine

DDL = [
    "CREATE TABLE t(a INTEGER PRIMARY KEY, b INT, c TEXT)",
    "CREATE TABLE u(x INT, y TEXT)",
    "CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID",
]
ROWS = [
    *(f"INSERT INTO t VALUES({i}, {i % 7}, 'c{i % 5}')" for i in range(1, 60)),
    *(f"INSERT INTO u VALUES({i % 9}, 'y{i % 4}')" for i in range(40)),
    *(f"INSERT INTO w VALUES('k{i}', {i})" for i in range(20)),
]
QUERIES = [
    "SELECT * FROM u WHERE x > 3",
    "SELECT * FROM u WHERE x = 3 AND y <> 'y1'",
    "SELECT b FROM t WHERE b = 2 ORDER BY c",
    "SELECT * FROM t WHERE a = 5",
    "SELECT * FROM t WHERE a > 50 AND b < 3",
    "SELECT * FROM t WHERE a = 3 OR a = 9 OR a = 11",
    "SELECT * FROM t WHERE b = 3 OR b = 4",
    "SELECT * FROM t WHERE rowid IN (4, 8)",
    "SELECT * FROM w WHERE k = 'k3'",
    "SELECT * FROM w WHERE v > 15",
    "SELECT x, (SELECT count(*) FROM t WHERE t.b = u.x) FROM u",
    "SELECT x, (SELECT max(c) FROM t WHERE t.b > u.x) FROM u",
    "SELECT * FROM u WHERE x IN (SELECT b FROM t WHERE c = 'c2')",
    "SELECT * FROM u WHERE EXISTS (SELECT 1 FROM t WHERE t.a = u.x + 10)",
]


@pytest.fixture(scope="module")
def cons():
    out = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        for s in DDL + ROWS:
            con.execute(s)
        out.append(con)
    yield out
    for c in out:
        c.close()


def _plan(con, q):
    return [r[3] for r in con.execute("EXPLAIN QUERY PLAN " + q).fetchall()]


@pytest.mark.parametrize("q", QUERIES)
def test_same_plan_and_rows(cons, q):
    ref, eng = cons
    assert _plan(eng, q) == _plan(ref, q)
    assert sorted(eng.execute(q).fetchall(), key=repr) == \
        sorted(ref.execute(q).fetchall(), key=repr)
