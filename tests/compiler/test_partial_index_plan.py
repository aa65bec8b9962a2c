"""EXPLAIN QUERY PLAN against sqlite3 for queries on tables with partial indexes: the
planner reads a partial index exactly when the query's WHERE implies the index's WHERE
(a term equal to a part of it, an OR of it, ``x IS NOT NULL`` implied by a comparison of
``x``; for the right table of a LEFT JOIN only its ON terms), as SQLite's
whereUsablePartialIndex decides, and then weighs it as SQLite does (half the table's rows,
always a full scan candidate). INDEXED BY a partial index the WHERE does not imply fails
'no query solution'. Each shape compares the plan (the helper of test_eqp_vs_sqlite and
the detail text) and the rows."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine
from tests.compiler.test_eqp_vs_sqlite import normalise

SCHEMA = """
CREATE TABLE t(a, b, c, d);
CREATE INDEX t_b ON t(b) WHERE c > 0;
CREATE INDEX t_a ON t(a) WHERE b IS NOT NULL;
CREATE INDEX t_da ON t(d, a) WHERE c = 5 AND b > 2;
CREATE INDEX t_cb ON t(c, b) WHERE d = 1 OR d = 3;
CREATE TABLE u(x INTEGER PRIMARY KEY, y, z);
CREATE INDEX u_y ON u(y) WHERE z IS NOT NULL;
CREATE INDEX u_zy ON u(z, y) WHERE y > 10 OR y < 0;
CREATE TABLE w(k INTEGER PRIMARY KEY, v TEXT COLLATE NOCASE, n);
CREATE INDEX w_v ON w(v) WHERE n > 1;
CREATE INDEX w_n ON w(n) WHERE v = 'b';
CREATE INDEX w_k ON w(n) WHERE k > 2;
CREATE INDEX w_t ON w(n) WHERE v IS NOT NULL;
CREATE INDEX w_f ON w(k, n) WHERE abs(n) = 2 AND v COLLATE BINARY = 'x';
CREATE TABLE s(p, q, r);
CREATE INDEX s_q ON s(q) WHERE p IS NOT NULL;
CREATE INDEX s_full ON s(r);
CREATE INDEX s_r ON s(r) WHERE q = 1;
CREATE TABLE o(a, b, c);
CREATE INDEX o_written ON o(c) WHERE c > 1 OR 1 >= b;
CREATE INDEX o_stored ON o(a) WHERE c > 1 OR b <= 1;
"""

ROWS = [
    "INSERT INTO t VALUES(1,1,1,1),(2,NULL,0,2),(3,3,-1,3),(4,4,5,0),(5,NULL,5,1),"
    "(6,6,2,2),(7,3,5,3),(8,8,NULL,0),(9,3,0,1),(10,'3',1,2),(11,3.0,5,3),(12,-3,7,0)",
    "INSERT INTO u VALUES(1,3,1),(2,4,NULL),(3,6,3),(4,NULL,4),(5,3,NULL),(6,-5,6),"
    "(7,12,7),(8,20,NULL)",
    "INSERT INTO w VALUES(1,'a',1),(2,'B',2),(3,'b',NULL),(4,'C',3),(5,NULL,4),(6,'x',-2)",
    "INSERT INTO s VALUES(1,1,1),(NULL,1,2),(2,2,3),(3,NULL,1)",
    "INSERT INTO o VALUES(1,1,1),(2,2,2),(3,0,3),(4,NULL,5)",
]

SHAPES = [
    # equality and ranges on the indexed column, the index's WHERE written as it is
    "SELECT * FROM t WHERE c > 0 AND b = 3",
    "SELECT * FROM t WHERE b = 3 AND c > 0",
    "SELECT * FROM t WHERE b = 3",
    "SELECT a FROM t WHERE c > 0 AND b > 2",
    "SELECT a FROM t WHERE c > 0 AND b > 2 AND b < 7",
    "SELECT a FROM t WHERE c > 0 AND b IN (3, 4)",
    # the same term written differently is no match
    "SELECT * FROM t WHERE 0 < c AND b = 3",
    "SELECT * FROM t WHERE c > 0.0 AND b = 3",
    "SELECT * FROM t WHERE c >= 0 AND b = 3",
    "SELECT * FROM t WHERE c > 1 AND b = 3",
    "SELECT * FROM t WHERE +c > 0 AND b = 3",
    "SELECT * FROM t WHERE (c > 0 OR d = 1) AND b = 3",
    # IS NOT NULL implied by a comparison
    "SELECT a FROM t WHERE b IS NOT NULL AND a = 5",
    "SELECT a FROM t WHERE b NOTNULL AND a = 5",
    "SELECT a FROM t WHERE b > 2 AND a = 7",
    "SELECT a FROM t WHERE 2 < b AND a = 7",
    "SELECT a FROM t WHERE b = 3 AND a < 9",
    "SELECT a FROM t WHERE b <> 3 AND a < 9",
    "SELECT a FROM t WHERE b IN (3, 4) AND a > 2",
    "SELECT a FROM t WHERE b NOT IN (3, 4) AND a > 2",
    "SELECT a FROM t WHERE b BETWEEN 1 AND 4 AND a = 4",
    "SELECT a FROM t WHERE b NOT BETWEEN 1 AND 4 AND a = 4",
    "SELECT a FROM t WHERE b + 1 > 2 AND a = 6",
    "SELECT a FROM t WHERE b * 2 = 6 AND a = 6",
    "SELECT a FROM t WHERE -b < 0 AND a >= 6",
    "SELECT a FROM t WHERE b IS NULL AND a = 5",
    "SELECT a FROM t WHERE b IS 3 AND a = 5",
    "SELECT a FROM t WHERE NOT b AND a = 2",
    "SELECT a FROM t WHERE b AND a = 4",
    "SELECT a FROM t WHERE b LIKE 'x%' AND a = 4",
    "SELECT a FROM t WHERE b LIKE '1%' AND a = 4",
    "SELECT a FROM t WHERE b LIKE '%x' AND a = 4",
    "SELECT a FROM t WHERE b GLOB 'x*' AND a = 4",
    "SELECT a FROM t WHERE b NOT LIKE 'x%' AND a = 4",
    "SELECT k FROM w WHERE v LIKE '1%' AND k = 4",
    "SELECT a FROM t WHERE coalesce(b, 1) = 3 AND a = 4",
    "SELECT a FROM t WHERE a = 2",
    "SELECT a FROM t WHERE (b = 3 OR b = 4) AND a = 2",
    "SELECT a FROM t WHERE (b = 3 OR 4 = b OR b = 6) AND a = 6",
    "SELECT a FROM t WHERE (b = 3 OR c = 4) AND a = 2",
    "SELECT a FROM t WHERE (b = 3 OR b = a) AND a = 3",
    "SELECT k FROM w WHERE (v = 'b' OR v = 1) AND n = 2",
    "SELECT a FROM t WHERE b IS TRUE AND a = 2",
    "SELECT a FROM t WHERE b IS NOT FALSE AND a = 2",
    # several parts, an OR in the index's WHERE
    "SELECT * FROM t WHERE c = 5 AND b > 2 AND d = 3",
    "SELECT * FROM t WHERE b > 2 AND c = 5 AND d > 0 ORDER BY d, a",
    "SELECT * FROM t WHERE c = 5 AND b > 3 AND d = 1",
    "SELECT * FROM t WHERE c = 5 AND d = 3",
    "SELECT * FROM t WHERE d = 1 AND c = 5",
    "SELECT * FROM t WHERE d = 3 AND c > 0",
    "SELECT * FROM t WHERE d = 2 AND c > 0",
    "SELECT * FROM t WHERE d IN (1, 3) AND c = 5",
    "SELECT * FROM u WHERE y > 10 AND z = 7",
    "SELECT * FROM u WHERE y < 0 AND z = 6",
    "SELECT * FROM u WHERE y >= 10 AND z = 7",
    "SELECT * FROM u WHERE z IS NOT NULL AND y = 3",
    "SELECT * FROM u WHERE z = 1 AND y = 3",
    "SELECT * FROM u WHERE z > 0 AND y = 3",
    # ORDER BY served by a partial index, covering scans
    "SELECT a, b FROM t WHERE c > 0 ORDER BY b",
    "SELECT b FROM t WHERE c > 0 ORDER BY b DESC",
    "SELECT a FROM t WHERE b IS NOT NULL ORDER BY a",
    "SELECT a FROM t WHERE b IS NOT NULL",
    "SELECT count(*) FROM t WHERE b IS NOT NULL",
    "SELECT count(*) FROM t WHERE c > 0",
    "SELECT DISTINCT b FROM t WHERE c > 0",
    "SELECT b, count(*) FROM t WHERE c > 0 GROUP BY b",
    "SELECT q FROM s WHERE p IS NOT NULL ORDER BY q",
    "SELECT r FROM s WHERE q = 1 ORDER BY r",
    "SELECT * FROM s WHERE q = 1 AND r = 2",
    # an OR term as SQLite's analysis keeps it: its comparisons turned round
    "SELECT * FROM o WHERE c = 2 AND (c > 1 OR 1 >= b)",
    "SELECT * FROM o WHERE c = 2 AND (c > 1 OR b <= 1)",
    "SELECT * FROM o WHERE a = 2 AND (c > 1 OR 1 >= b)",
    "SELECT * FROM o WHERE a = 2 AND (c > 1 OR b <= 1)",
    "SELECT * FROM o WHERE a = 2 AND (1 < c OR b <= 1)",
    # INDEXED BY
    "SELECT * FROM t INDEXED BY t_b WHERE c > 0",
    "SELECT * FROM t INDEXED BY t_b WHERE c > 0 AND b < 5",
    "SELECT * FROM t INDEXED BY t_b WHERE b = 3",
    "SELECT * FROM t INDEXED BY t_a WHERE a = 3",
    "SELECT * FROM t INDEXED BY t_a WHERE b = 3 AND a > 0",
    "SELECT * FROM t INDEXED BY t_da WHERE c = 5",
    "SELECT * FROM w INDEXED BY w_k WHERE k > 2",
    "SELECT * FROM w INDEXED BY w_k WHERE k > 1",
    # joins: WHERE and ON terms, the right table of a LEFT JOIN
    "SELECT t.a, u.x FROM t, u WHERE t.c > 0 AND t.b = u.y",
    "SELECT t.a, u.x FROM u, t WHERE t.b = u.y AND t.c > 0",
    "SELECT u.x, t.a FROM u JOIN t ON t.b = u.y AND t.c > 0",
    "SELECT * FROM u JOIN t ON t.b = u.x WHERE t.c > 0",
    "SELECT * FROM u JOIN t ON t.c > 0 WHERE t.b = u.x",
    "SELECT * FROM u LEFT JOIN t ON t.b = u.x WHERE t.c > 0",
    "SELECT u.x, t.a FROM u LEFT JOIN t ON t.b = u.y AND t.c > 0",
    "SELECT u.x, t.a FROM u LEFT JOIN t ON t.b = u.y WHERE coalesce(t.c, 1) > 0",
    "SELECT u.x, t.a FROM t LEFT JOIN u ON t.b = u.y AND t.c > 0 WHERE t.c > 0",
    "SELECT u.x, t.a FROM t LEFT JOIN u ON u.y = t.b WHERE u.z IS NOT NULL OR t.a = 1",
    "SELECT u.x, t.a FROM t LEFT JOIN u ON u.y = t.b AND u.z IS NOT NULL",
    "SELECT x FROM u WHERE EXISTS (SELECT 1 FROM t WHERE t.c > 0 AND t.b = u.y)",
    "SELECT x, (SELECT count(*) FROM t WHERE c > 0 AND b = u.y) FROM u",
    # collations, functions, the rowid
    "SELECT k FROM w WHERE n > 1 AND v = 'b'",
    "SELECT k FROM w WHERE n > 1 AND v > 'a' ORDER BY v",
    "SELECT k FROM w WHERE v = 'b' AND n = 2",
    "SELECT k FROM w WHERE v = 'B' AND n = 2",
    "SELECT k FROM w WHERE v = 'b' COLLATE BINARY AND n = 2",
    "SELECT k FROM w WHERE k > 2 AND n > 3",
    "SELECT k FROM w WHERE rowid > 2 AND n > 3",
    "SELECT k FROM w WHERE w.k > 2 AND n > 3",
    "SELECT k FROM w WHERE k > 3 AND n > 3",
    "SELECT k FROM w WHERE 2 < k AND n > 3",
    "SELECT k FROM w WHERE ABS(n) = 2 AND v COLLATE binary = 'x' AND k = 6",
    "SELECT k FROM w WHERE abs(n) = 2 AND v = 'x' AND k = 6",
]

WRITES = [
    "UPDATE t SET d = d + 10 WHERE c > 0 AND b = 3",
    "DELETE FROM t WHERE c > 0 AND b = 4",
    "DELETE FROM t WHERE b IS NOT NULL AND a = 6",
    "UPDATE t SET a = a + 100 WHERE b IS NOT NULL AND a > 8",
]


@pytest.fixture(scope="module")
def pair():
    ref = sqlite3.connect(":memory:")
    eng = sqlengine.connect(":memory:")
    for con in (ref, eng):
        con.executescript(SCHEMA)
        for sql in ROWS:
            con.execute(sql)
    yield ref, eng
    ref.close()
    eng.close()


def _run(con, sql):
    try:
        plan = [r[3] for r in con.execute("EXPLAIN QUERY PLAN " + sql)]
        rows = con.execute(sql).fetchall()
    except Exception as e:  # (the message must be sqlite3's)
        return type(e).__name__, str(e)
    return plan, rows


def test_shape_count():
    assert len(SHAPES) >= 40


@pytest.mark.parametrize("sql", SHAPES)
def test_plan_and_rows(pair, sql):
    ref, eng = pair
    want = _run(ref, sql)
    got = _run(eng, sql)
    if isinstance(want[0], list) and isinstance(got[0], list):
        assert normalise([(0, 0, 0, d) for d in got[0]]) == \
            normalise([(0, 0, 0, d) for d in want[0]])
    assert got == want


def test_no_query_solution(pair):
    ref, eng = pair
    for con in pair:
        with pytest.raises(Exception, match="no query solution"):
            con.execute("SELECT * FROM t INDEXED BY t_b WHERE b = 3")
    assert ref is not eng


@pytest.mark.parametrize("sql", WRITES)
def test_writes(sql):
    """UPDATE and DELETE through a partial index: the same plan, the same rows after,
    and the indexes still hold exactly the rows their WHERE accepts."""
    out = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.executescript(SCHEMA)
        for s in ROWS:
            con.execute(s)
        plan = [r[3] for r in con.execute("EXPLAIN QUERY PLAN " + sql)]
        con.execute(sql)
        rows = con.execute("SELECT * FROM t ORDER BY a").fetchall()
        through = [con.execute(q).fetchall() for q in (
            "SELECT a, b FROM t WHERE c > 0 AND b > -100 ORDER BY b, a",
            "SELECT a FROM t WHERE b IS NOT NULL ORDER BY a",
            "PRAGMA integrity_check")]
        out.append((plan, rows, through))
        con.close()
    assert out[1] == out[0]


# ---- tables with sqlite_stat1 statistics ------------------------------------------------

STAT_SCHEMA = """
CREATE TABLE t(a, b, c, d);
CREATE INDEX t_a ON t(a) WHERE b IS NOT NULL;
CREATE INDEX t_full ON t(c);
CREATE INDEX t_b ON t(b) WHERE c > 0;
CREATE INDEX t_d ON t(d, a) WHERE c = 5 AND b > 2;
"""

STAT_QUERIES = [
    "SELECT * FROM t WHERE c > 0 AND b = 3",
    "SELECT * FROM t WHERE b = 3",
    "SELECT * FROM t WHERE c = 5 AND b > 2 AND d = 1",
    "SELECT a FROM t WHERE b IS NOT NULL ORDER BY a",
    "SELECT * FROM t INDEXED BY t_b WHERE c > 0",
    "SELECT * FROM t INDEXED BY t_full WHERE b = 3",
]


@pytest.mark.parametrize("t_a", ["1 1", "3 2", "10 2", "100 2", "1000 2"])
@pytest.mark.parametrize("t_full", ["10 2", "100 2", "10000 2"])
def test_plans_with_stat1(t_a, t_full):
    """Statistics written by hand: a partial index's own row count weighs its full scan,
    and a search using a term is made cheaper than a full index scan using none that is
    cheaper (whereLoopAdjustCost counts full index scans too)."""
    plans = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.executescript(STAT_SCHEMA)
        con.execute("ANALYZE sqlite_schema")
        con.executemany("INSERT INTO sqlite_stat1 VALUES (?, ?, ?)", [
            ("t", "t_a", t_a), ("t", "t_full", t_full), ("t", "t_b", "5 3"),
            ("t", "t_d", "4 2 1")])
        con.execute("ANALYZE sqlite_schema")  # (read the statistics again)
        plans.append([_run(con, q)[0] for q in STAT_QUERIES])
        con.close()
    assert plans[1] == plans[0]


@pytest.mark.parametrize("n", [10, 200])
def test_plans_after_analyze(n):
    """ANALYZE over seeded rows: the same statistics, the same plans and rows."""
    import random
    out = []
    for mod in (sqlite3, sqlengine):
        rng = random.Random(5)
        con = mod.connect(":memory:")
        con.executescript(STAT_SCHEMA)
        for _ in range(n):
            con.execute("INSERT INTO t VALUES (?, ?, ?, ?)", (
                rng.randint(0, 50), rng.choice([None, rng.randint(0, 9)]),
                rng.randint(-3, 6), rng.randint(0, 3)))
        con.execute("ANALYZE")
        stat = sorted(map(repr, con.execute("SELECT * FROM sqlite_stat1")))
        out.append((stat, [_run(con, q) for q in STAT_QUERIES]))
        con.close()
    assert out[1] == out[0]


@pytest.mark.parametrize("sql", [
    "SELECT * FROM s INDEXED BY s_full",
    "SELECT * FROM s INDEXED BY s_full WHERE p = 1",
    "SELECT p FROM s INDEXED BY s_full WHERE q > 0 ORDER BY p",
    "SELECT * FROM s INDEXED BY s_q WHERE p IS NOT NULL AND r = 1",
])
def test_indexed_by_reads_only_that_index(pair, sql):
    """INDEXED BY: SQLite weighs no loop but the named index's, so a full scan of it is
    read even where the table's own scan would cost less."""
    ref, eng = pair
    assert _run(eng, sql) == _run(ref, sql)


@pytest.mark.parametrize("sql", [
    "DELETE FROM t INDEXED BY t_b WHERE b = 3",
    "UPDATE t INDEXED BY t_b SET a = 1 WHERE b = 3",
    "DELETE FROM t INDEXED BY t_b WHERE c > 0 AND b = 3",
    "UPDATE t INDEXED BY t_b SET d = d + 1 WHERE c > 0",
    "DELETE FROM t INDEXED BY t_a WHERE b > 2",
    "UPDATE t INDEXED BY t_a SET b = NULL WHERE b IS NOT NULL AND a < 8",
    "DELETE FROM t NOT INDEXED WHERE c > 0 AND b = 3",
    "UPDATE t NOT INDEXED SET a = a + 1 WHERE b IS NOT NULL AND a = 3",
    "DELETE FROM s INDEXED BY s_full WHERE p = 1",
    "UPDATE s INDEXED BY s_full SET q = 5 WHERE q = 1",
    "DELETE FROM s INDEXED BY s_r WHERE r = 1",
])
def test_writes_indexed_by(sql):
    """UPDATE and DELETE obey INDEXED BY and NOT INDEXED as SELECT does: the plan, 'no
    query solution' for a partial index the WHERE does not imply, the rows after."""
    out = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.executescript(SCHEMA)
        for s in ROWS:
            con.execute(s)
        res = _run(con, sql)
        rows = [con.execute(f"SELECT * FROM {x} ORDER BY rowid").fetchall() for x in "ts"]
        out.append((res, rows, con.execute("PRAGMA integrity_check").fetchall()))
        con.close()
    assert out[1] == out[0]
