"""Differential tests of the compiler and VM: the same statements through sqlengine and the
stdlib sqlite3 must give the same rows (values and types) or the same error message."""


import pytest


SETUP = [
    "CREATE TABLE t1(a INTEGER, b TEXT, c REAL, d)",
    "INSERT INTO t1 VALUES (1, 'one', 1.5, NULL), (2, 'Two', 2.0, 'x'), (3, 'three', NULL, 3)",
    "INSERT INTO t1 VALUES (NULL, 'null', -1, x'00'), (2, 'two', 2.5, 2.5), (5, '5', 5, '5')",
    "CREATE TABLE t2(x INTEGER PRIMARY KEY, y TEXT COLLATE NOCASE, z NUMERIC)",
    "INSERT INTO t2 VALUES (1, 'a', '10'), (2, 'B', '2.50'), (3, 'b', 'abc'), (10, NULL, 7)",
    "CREATE INDEX t2y ON t2(y)",
    "CREATE TABLE t3(p, q UNIQUE, r NOT NULL DEFAULT 'dflt')",
    "INSERT INTO t3(p, q) VALUES (1, 1), (2, 2), (2, 3)",
    "CREATE VIEW v1 AS SELECT a, b FROM t1 WHERE a > 1",
]

QUERIES = [
    "SELECT * FROM t1 ORDER BY a, b",
    "SELECT a, b FROM t1 WHERE a > 1 ORDER BY 2 DESC",
    "SELECT a + 1, a * 2.5, a / 2, a % 2, -a, b || a FROM t1 ORDER BY rowid",
    "SELECT count(*), count(a), sum(a), total(c), avg(a), min(b), max(b) FROM t1",
    "SELECT a, count(*), group_concat(b) FROM t1 GROUP BY a ORDER BY a",
    "SELECT a, count(*) FROM t1 GROUP BY a HAVING count(*) > 1",
    "SELECT DISTINCT a FROM t1 ORDER BY a",
    "SELECT a FROM t1 UNION SELECT x FROM t2",
    "SELECT a FROM t1 UNION ALL SELECT x FROM t2 ORDER BY 1 LIMIT 4 OFFSET 2",
    "SELECT a FROM t1 INTERSECT SELECT x FROM t2",
    "SELECT a FROM t1 EXCEPT SELECT x FROM t2",
    "SELECT * FROM t1, t2 WHERE a = x ORDER BY a, x",
    "SELECT a, x FROM t1 LEFT JOIN t2 ON a = x ORDER BY 1, 2",
    "SELECT a, x, y FROM t1 LEFT JOIN t2 ON a = x WHERE y IS NULL ORDER BY 1",
    "SELECT y FROM t2 WHERE y = 'b' ORDER BY x",
    "SELECT y FROM t2 ORDER BY y, x",
    "SELECT x FROM t2 WHERE z > 5 ORDER BY x",
    "SELECT x, z, typeof(z) FROM t2 ORDER BY x",
    "SELECT a FROM t1 WHERE a IN (1, 2, NULL) ORDER BY 1",
    "SELECT a, a NOT IN (1, NULL) FROM t1 ORDER BY rowid",
    "SELECT a FROM t1 WHERE a IN (SELECT x FROM t2) ORDER BY 1",
    "SELECT a, (SELECT y FROM t2 WHERE x = a) FROM t1 ORDER BY rowid",
    "SELECT a FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE x = a) ORDER BY 1",
    "SELECT a, CASE WHEN a > 2 THEN 'big' WHEN a > 1 THEN 'mid' ELSE 'small' END FROM t1 ORDER BY rowid",
    "SELECT a, CASE a WHEN 1 THEN 'one' WHEN 2 THEN 'two' END FROM t1 ORDER BY rowid",
    "SELECT a BETWEEN 2 AND 3, b LIKE 't%', b GLOB 't*' FROM t1 ORDER BY rowid",
    "SELECT CAST(c AS INTEGER), CAST(a AS TEXT), CAST('12abc' AS NUMERIC) FROM t1 ORDER BY rowid",
    "SELECT * FROM v1 ORDER BY a",
    "SELECT * FROM (SELECT a, b FROM t1 WHERE a < 3) AS s ORDER BY b",
    "SELECT b FROM t1 ORDER BY b COLLATE NOCASE, b",
    "SELECT a IS NULL, a IS NOT NULL, a IS 2, a ISNULL, a NOTNULL FROM t1 ORDER BY rowid",
    "SELECT coalesce(a, 99), ifnull(c, -1), nullif(a, 2), iif(a > 2, 'y', 'n') FROM t1 ORDER BY rowid",
    "SELECT abs(-3), length('abc'), upper('x'), substr('hello', 2, 3), round(2.567, 1)",
    "SELECT 9223372036854775807 + 1, -9223372036854775808, 5 / 0, 5 % 0, 7 / 2.0",
    "SELECT sum(a) FROM t1 WHERE a > 100",
    "SELECT count(DISTINCT a), sum(DISTINCT a) FROM t1",
    "SELECT t1.*, t2.x FROM t1 JOIN t2 ON t1.a = t2.x ORDER BY 1",
    "SELECT * FROM t3 ORDER BY p, q",
    "SELECT p, max(q) FROM t3 GROUP BY p ORDER BY p",
    "SELECT a AS k FROM t1 WHERE k > 1 ORDER BY k",
    "SELECT 1 WHERE 0",
    "SELECT 'a' < 'b', 1 < 'a', x'00' > 'z', NULL = NULL, NULL IS NULL",
    "SELECT a FROM t1 ORDER BY a DESC LIMIT 2",
    "SELECT a FROM t1 WHERE rowid > 2 AND rowid <= 5 ORDER BY 1",
    "VALUES (1, 'a'), (2, 'b')",
    "SELECT x FROM t2 WHERE x IN (SELECT a FROM t1 WHERE a > 1) ORDER BY x",
    "SELECT y, count(*) FROM t2 GROUP BY y ORDER BY 1",
    "SELECT min(c), b FROM t1",
    "SELECT max(a), b, d FROM t1",
    "SELECT p, max(q), r FROM t3 GROUP BY p ORDER BY p",
    "SELECT count(DISTINCT b COLLATE NOCASE), count(DISTINCT y) FROM t1, t2",
    "SELECT * FROM t2 NATURAL JOIN (SELECT x, 'b' AS y FROM t2) ORDER BY x",
    "SELECT * FROM t1 JOIN t2 ON a = x JOIN t3 ON p = a ORDER BY 1, 2, 3",
    "SELECT a FROM t1 WHERE a IN (SELECT x FROM t2 WHERE z > 5) OR b = 'one' ORDER BY 1",
]

ERRORS = [
    "SELECT * FROM nosuch",
    "SELECT nosuch FROM t1",
    "SELECT t1.nosuch FROM t1",
    "SELECT a FROM t1, t1 AS u",
    "SELECT count(*) FROM t1 WHERE count(*) > 1",
    "SELECT a FROM t1 ORDER BY 5",
    "SELECT a FROM t1 UNION SELECT x, y FROM t2",
    "CREATE TABLE t1(z)",
    "INSERT INTO t3(q) VALUES (1)",
    "INSERT INTO t3 VALUES (1, 9, NULL)",
    "INSERT INTO t2 VALUES (1, 'dup', 0)",
    "INSERT INTO t1 VALUES (1, 2)",
    "SELECT nosuchfn(1)",
    "SELECT abs(1, 2)",
    "SELECT a FROM t1 HAVING a > 1",
    "DROP TABLE nosuch",
    "CREATE INDEX t2y ON t2(z)",
]


@pytest.mark.parametrize("sql", QUERIES)
def test_query_matches_sqlite3(pair, sql):
    expected, got = pair.theirs(sql), pair.ours(sql)
    assert expected[0] == "rows", expected
    if "ORDER BY" not in sql.upper():
        expected = (expected[0], sorted(expected[1], key=repr))
        got = (got[0], sorted(got[1], key=repr)) if got[0] == "rows" else got
    assert got == expected


@pytest.mark.parametrize("sql", ERRORS)
def test_error_matches_sqlite3(pair, sql):
    expected, got = pair.theirs(sql), pair.ours(sql)
    assert expected[0] == "error"
    assert got == expected
