"""Differential tests of name resolution (``compiler/resolve.py``): column and rowid names
with several FROM items, qualified names that match two items, rowids of subqueries and
views, ``*`` expansion over FROM items that share a name, USING/NATURAL merges. Each
statement runs on sqlengine and on the stdlib sqlite3; rows (values and types) or the
error message must be the same."""


import pytest


SETUP = [
    "CREATE TABLE t1(x, y)",
    "INSERT INTO t1 VALUES (1, 2), (5, 6)",
    "CREATE TABLE t2(x, z)",
    "INSERT INTO t2 VALUES (1, 3), (4, 3)",
    "CREATE TABLE t3(rowid, a)",  # a real column named rowid
    "INSERT INTO t3 VALUES (7, 8)",
    "CREATE TABLE t4(p, q)",
    "INSERT INTO t4 VALUES (3, 4)",
    "CREATE TABLE w(k PRIMARY KEY, v) WITHOUT ROWID",
    "INSERT INTO w VALUES (1, 2)",
    "CREATE TABLE ip(id INTEGER PRIMARY KEY, v)",
    "INSERT INTO ip VALUES (5, 6)",
    "CREATE VIEW v1 AS SELECT x FROM t1",
    "CREATE VIEW v2 AS SELECT DISTINCT x FROM t1",
    "CREATE TABLE mc(Alpha, bEta INTEGER PRIMARY KEY)",
    "INSERT INTO mc VALUES (1, 2), (3, 4)",
]

QUERIES = [
    # rowid with several FROM items: only when exactly one item could answer it
    "SELECT rowid FROM t1, t2",
    "SELECT oid FROM t1 a, t1 b",
    "SELECT _rowid_ FROM t1 JOIN t2 USING(x)",
    "SELECT rowid FROM t1 NATURAL JOIN t2",
    "SELECT rowid FROM t1 LEFT JOIN t2 ON 1",
    "SELECT count(rowid) FROM t1, t2",
    "SELECT a.rowid FROM t1 a, t1 b ORDER BY 1",
    "SELECT t1.rowid FROM t1, t1",
    "SELECT rowid FROM t1, t3",
    "SELECT rowid FROM t3, t1",
    "SELECT t3.rowid FROM t3, t1",
    "SELECT rowid FROM t3 AS a, t3 AS b",
    "SELECT rowid FROM t1, w ORDER BY 1",
    "SELECT rowid FROM w, t1 ORDER BY 1",
    "SELECT rowid FROM w",
    "SELECT rowid FROM ip, t1",
    "SELECT ip.rowid FROM ip, t1",
    "SELECT rowid FROM t1 AS a JOIN t1 AS b USING(x)",
    "SELECT rowid FROM t1, (SELECT 1)",
    "SELECT _rowid_ FROM t1, (SELECT 1)",
    "SELECT rowid FROM v1, t1",
    # the count of sources that could answer a rowid runs on into enclosing queries
    "SELECT rowid FROM t1 WHERE x IN (SELECT rowid FROM t2, t1)",
    "SELECT (SELECT rowid FROM t2, t1)",
    "SELECT (SELECT rowid FROM t2 WHERE t2.x = t1.x) FROM t1 ORDER BY 1",
    "SELECT x FROM t1 WHERE EXISTS (SELECT rowid FROM t2) ORDER BY 1",
    # rowid of a subquery or view: NULL when SQLite flattens it or runs it as a
    # co-routine, else the number of the row SQLite's materialized copy gives it
    "SELECT rowid FROM (SELECT 1)",
    "SELECT rowid FROM (SELECT 1) AS s",
    "SELECT s.rowid, typeof(s.rowid) FROM (SELECT 1) AS s",
    "SELECT rowid FROM v1",
    "SELECT v1.rowid FROM v1",
    "SELECT rowid, * FROM (SELECT * FROM t1) ORDER BY x",
    "SELECT rowid FROM (SELECT 1 UNION ALL SELECT 2)",
    "SELECT max(rowid) FROM (SELECT 1 UNION SELECT 2)",
    "SELECT rowid FROM (SELECT DISTINCT x FROM t2)",
    "SELECT b.rowid FROM t1 AS a, (SELECT 1) AS b ORDER BY 1",
    "SELECT b.rowid FROM t1 a, (SELECT x FROM t2) b",
    "SELECT b.rowid FROM t1 a, (SELECT count(*) FROM t2) b ORDER BY 1",
    "SELECT b.rowid FROM t1 a, (SELECT 7 UNION ALL SELECT 8) b ORDER BY 1",
    "SELECT b.rowid FROM t1 a, v1 b",
    "SELECT b.rowid FROM t1 a, v2 b ORDER BY 1",
    "SELECT a.rowid FROM (SELECT 7 UNION ALL SELECT 8) a LEFT JOIN t1 b ON 1",
    "SELECT a.rowid FROM (SELECT 7 UNION ALL SELECT 8) a CROSS JOIN t1 b",
    "SELECT a.rowid FROM (SELECT 7 UNION ALL SELECT 8) a, t1 b ORDER BY 1",
    "WITH c AS (SELECT 5) SELECT rowid FROM c",
    # a qualified name that two FROM items answer
    "SELECT t1.x FROM t1, t1",
    "SELECT a.x FROM t1 AS a, t2 AS a",
    "SELECT a.y FROM t1 AS a, t2 AS a",
    "SELECT t1.y FROM t1 JOIN t1 USING(x)",
    "SELECT t1.x FROM t1 JOIN t1 USING(x)",
    "SELECT main.t1.x FROM t1, t1",
    "SELECT main.t1.x FROM t1, t2",
    "SELECT x FROM t1, t1",
    "SELECT x FROM t1 AS a, t2 AS a",
    "SELECT x FROM (SELECT x FROM t1), t2",
    "SELECT t1.x FROM t1 a",
    # * and t.* over FROM items that share a name
    "SELECT * FROM t1 a, t1 a",
    "SELECT * FROM t1 a, t2 a",
    "SELECT * FROM t1 a, t4 a",
    "SELECT a.* FROM t1 a, t4 a",
    "SELECT a.* FROM t1 a, t1 a",
    "SELECT t1.* FROM t1, t1",
    "SELECT * FROM t1, t1",
    "SELECT * FROM t1 a, t2 a, t4",
    "SELECT * FROM t1 a JOIN t1 a USING(x)",
    "SELECT * FROM t1 JOIN t1 USING(x, y) ORDER BY 1",
    "SELECT * FROM (SELECT 1 AS x) a, (SELECT 2 AS x) a",
    "SELECT * FROM t1, (SELECT 2 AS x) t1 ORDER BY 1",
    # USING / NATURAL merges
    "SELECT x FROM t1 JOIN t2 USING(x)",
    "SELECT t2.x FROM t1 JOIN t2 USING(x)",
    "SELECT x FROM t1 AS a JOIN t1 AS b USING(x) ORDER BY 1",
    "SELECT a.x, b.x FROM t1 a JOIN t1 b USING(x) ORDER BY 1",
    "SELECT x FROM t1 a, t1 b USING(x) ORDER BY 1",
    "SELECT x FROM t1 JOIN t2 USING(x) JOIN t1 AS c USING(x)",
    "SELECT z FROM t1 NATURAL JOIN t2 NATURAL JOIN t1 AS c",
    "SELECT x FROM t1 a JOIN t2 b ON a.x = b.x",
    # aliases and ORDER BY / GROUP BY names
    "SELECT y AS rowid FROM t1 ORDER BY rowid",
    "SELECT rowid FROM t1 ORDER BY rowid",
    "SELECT x FROM t1, t2 ORDER BY rowid",
    "SELECT y FROM t1 GROUP BY rowid ORDER BY 1",
    "SELECT rowid FROM t1 GROUP BY x ORDER BY 1",
    # an ORDER BY name matches an AS name before a FROM column of that name
    "SELECT x AS z FROM t2 ORDER BY z DESC",
    "SELECT z, x AS z FROM t2 ORDER BY z DESC",
    "SELECT x AS Z, z FROM t2 ORDER BY z DESC",
    "SELECT -x AS x FROM t1 ORDER BY x",
    "SELECT x AS z FROM (SELECT x, z FROM t2) ORDER BY z DESC",
    "SELECT x AS z, x + 1 AS z FROM t2 ORDER BY z DESC",
    "SELECT count(*) AS z FROM t2 GROUP BY z",
    # one FROM item (the lookup's shortcut): names as written in any case, repeated in
    # WHERE and ORDER BY, a name it lacks (the rowid, an enclosing query's column, none)
    "SELECT ALPHA, alpha, Alpha, BETA FROM mc WHERE alpha > 0 AND ALPHA < 9 ORDER BY Beta",
    "SELECT rowid, ROWID, Oid FROM mc WHERE _rowid_ = beta ORDER BY 1",
    "SELECT x FROM t1 WHERE y IN (SELECT ALPHA + x FROM mc WHERE alpha <> Y) ORDER BY 1",
    "SELECT (SELECT max(Y) FROM mc) FROM t1 ORDER BY 1",
    "SELECT gamma FROM mc",
    "SELECT alpha FROM mc WHERE gamma = 1",
    "SELECT k, K, v FROM w WHERE K = 1",
    "SELECT rowid FROM w",
    "SELECT x FROM t1 WHERE x IN (SELECT x FROM v1 WHERE X > 1)",
    "SELECT x FROM (SELECT 1 AS X) WHERE x = 1",
]


@pytest.mark.parametrize("sql", QUERIES)
def test_same_as_sqlite(pair, sql):
    assert pair.ours(sql) == pair.theirs(sql)
