"""The ORDER BY check keeps each index's order keys across statements (`_paths._loop_keys`,
remembered per index object): an index dropped and made again under the same name with
another direction or collation must be judged anew. Each query's EXPLAIN QUERY PLAN (does
it still sort?) and rows are compared with sqlite3's after every change of the index."""

from __future__ import annotations

import sqlite3

import sqlengine

ROWS = [f"INSERT INTO t VALUES({i}, 'K{i % 5}', 'k{i % 3}', {i % 4})" for i in range(1, 40)]
INDEXES = [
    "CREATE INDEX ix ON t(b, c)",
    "CREATE INDEX ix ON t(b DESC, c)",
    "CREATE INDEX ix ON t(b COLLATE NOCASE, c)",
    "CREATE INDEX ix ON t(c, b)",
    "CREATE UNIQUE INDEX ix ON t(b, c, a)",
]
QUERIES = [
    "SELECT b, c FROM t ORDER BY b, c",
    "SELECT b, c FROM t ORDER BY b DESC, c DESC",
    "SELECT b, c FROM t ORDER BY b COLLATE NOCASE, c",
    "SELECT a, c FROM t WHERE b = 'K2' ORDER BY c",
    "SELECT a, c FROM t WHERE b IN ('K1', 'K3') ORDER BY b, c",
    "SELECT b, c FROM t WHERE d = 1 ORDER BY b DESC",
]


def _plan(con, q):
    return [r[3] for r in con.execute("EXPLAIN QUERY PLAN " + q).fetchall()]


def test_recreated_index_is_judged_anew():
    cons = [mod.connect(":memory:") for mod in (sqlite3, sqlengine)]
    try:
        for con in cons:
            con.execute("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c TEXT, d INT)")
            for s in ROWS:
                con.execute(s)
        for ddl in INDEXES:
            for con in cons:
                con.execute("DROP INDEX IF EXISTS ix")
                con.execute(ddl)
            for q in QUERIES:
                ref, got = cons
                assert _plan(got, q) == _plan(ref, q), (ddl, q)
                assert got.execute(q).fetchall() == ref.execute(q).fetchall(), (ddl, q)
    finally:
        for con in cons:
            con.close()
