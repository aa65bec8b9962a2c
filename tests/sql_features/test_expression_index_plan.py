"""A comparison with an indexed expression is a lookup in that index: EXPLAIN QUERY PLAN
names the same index and keys as sqlite3 (the node ids, SQLite internals, are left out)."""

import sqlite3

import pytest

import sqlengine

SCHEMA = [
    "CREATE TABLE e(x TEXT, y INT, z)",
    "CREATE UNIQUE INDEX e_lx ON e(lower(x))",
    "CREATE INDEX e_len ON e(length(x) DESC, y)",
    "CREATE INDEX e_sum ON e(y + 1, z COLLATE NOCASE)",
]

QUERIES = [
    "SELECT * FROM e WHERE lower(x) = 'gamma'",
    "SELECT * FROM e WHERE 'beta' = lower(x)",
    "SELECT x FROM e WHERE length(x) = 5 AND y > 1",
    "SELECT x FROM e WHERE y + 1 = 3",
    "SELECT x FROM e WHERE upper(x) = 'BETA'",
    "SELECT x FROM e WHERE lower(x) = 'x' COLLATE NOCASE",
]


def _plan(module, q):
    c = module.connect(":memory:")
    for s in SCHEMA:
        c.execute(s)
    rows = c.execute("EXPLAIN QUERY PLAN " + q).fetchall()
    c.close()
    return [r[3] for r in rows]


@pytest.mark.parametrize("q", QUERIES)
def test_plan_detail_matches_sqlite3(q):
    assert _plan(sqlengine, q) == _plan(sqlite3, q)
