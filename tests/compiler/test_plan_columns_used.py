"""The columns a query reads (``plan_cols.columns_used``, SQLite's colUsed) decide whether an
index covers a FROM item. Queries that name their columns in each place the walk looks (the
result list, ``*`` and ``t.*``, WHERE terms the masker saw or not, IN lists, BETWEEN,
GROUP BY, HAVING, ON, a subquery, qualified and unqualified names, a rowid alias) are
planned as sqlite3 plans them: same EXPLAIN QUERY PLAN (COVERING INDEX or not), same rows."""

from __future__ import annotations

import pytest

SCHEMA = """
CREATE TABLE t(pk INTEGER PRIMARY KEY, a INT, b INT, c TEXT, d REAL);
CREATE INDEX t_ab ON t(a, b);
CREATE INDEX t_d ON t(d);
CREATE TABLE u(x INT, y INT, z TEXT);
CREATE INDEX u_xy ON u(x, y);
"""
ROWS = [
    *(f"INSERT INTO t VALUES({i}, {i % 7}, {i % 5}, 'c{i % 3}', {i / 4})" for i in range(1, 80)),
    *(f"INSERT INTO u VALUES({i % 9}, {i % 4}, 'z{i % 6}')" for i in range(60)),
]
QUERIES = [
    "SELECT a, b FROM t WHERE a > 3",
    "SELECT a, c FROM t WHERE a > 3",
    "SELECT pk, a FROM t WHERE a = 2",
    "SELECT rowid, b FROM t WHERE a = 2",
    "SELECT * FROM t WHERE a = 2",
    "SELECT t.* FROM t WHERE a = 2",
    "SELECT b FROM t WHERE a IN (1, 3, 5)",
    "SELECT b FROM t WHERE a IN (1, 3, 5) AND b IN (2, c)",
    "SELECT b FROM t WHERE a = 1 AND b BETWEEN 1 AND 3",
    "SELECT b FROM t WHERE a = 1 AND d BETWEEN 1 AND 3",
    "SELECT b FROM t WHERE a = 1 AND (b = 2 OR c = 'c1')",
    "SELECT a, count(*) FROM t WHERE a > 1 GROUP BY a",
    "SELECT a, count(*) FROM t WHERE a > 1 GROUP BY a HAVING max(b) > 2",
    "SELECT a, count(*) FROM t WHERE a > 1 GROUP BY a HAVING max(c) > 'c0'",
    "SELECT t.b, u.y FROM t JOIN u ON u.x = t.a WHERE t.a = 3",
    "SELECT t.b, u.z FROM t CROSS JOIN u ON u.x = t.a WHERE t.a = 3",
    "SELECT t.b FROM t CROSS JOIN u ON u.x = t.a AND u.z = t.c WHERE t.a = 3",
    "SELECT b FROM t WHERE a = 2 AND c IN (SELECT z FROM u WHERE x = 1)",
    "SELECT b FROM t WHERE a = 2 AND d IN (SELECT y FROM u WHERE x = 1 AND z > 'z2')",
    "SELECT x FROM u WHERE x > 5 AND EXISTS (SELECT 1 FROM t WHERE t.a = u.y)",
    "SELECT d FROM t WHERE d > 10.5",
    "SELECT d, A FROM t WHERE d > 10.5",
    "SELECT T.B FROM t AS T WHERE T.A = 4",
]


@pytest.fixture(scope="module")
def filled(cons):  # (cons: conftest's pair of connections holding SCHEMA)
    ref, ours = cons
    for sql in ROWS:
        ref.execute(sql)
        ours.execute(sql)
    return ref, ours


@pytest.mark.parametrize("sql", QUERIES)
def test_plan_and_rows_as_sqlite(filled, sql):
    ref, ours = filled
    q = "EXPLAIN QUERY PLAN " + sql
    assert [r[-1] for r in ours.execute(q)] == [r[-1] for r in ref.execute(q)]
    assert sorted(ours.execute(sql).fetchall()) == sorted(ref.execute(sql).fetchall())
