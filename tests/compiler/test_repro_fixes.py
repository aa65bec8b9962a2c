"""Regression tests for the SQL-level bugs the reliability runs found (tools/repros.py):
comparison and compound collations, scalar-subquery affinity, sign(), the result-column
limit, oversized hex literals and ?NNN with many digits. Differential: each case runs on the
stdlib sqlite3 and on sqlengine; rows (values and types) or error messages must match."""

import sqlite3

import pytest

import sqlengine

COLL_SETUP = [
    "CREATE TABLE t(a TEXT, b TEXT COLLATE NOCASE, c TEXT COLLATE RTRIM, i INTEGER PRIMARY KEY)",
    "INSERT INTO t VALUES('abc', 'ABC', 'abc  ', 1)",
    "INSERT INTO t VALUES('ABC', 'abc', 'abc', 2)",
    "INSERT INTO t VALUES('Abc', 'aBC', 'ABC ', 3)",
    "CREATE TABLE t0(c0 INT, c1 TEXT, c2 REAL)",
    "INSERT INTO t0 VALUES(0, '1', 2.0)",
]


def _run(mod, setup, sql, params=()):
    c = mod.connect(":memory:")
    try:
        for s in setup:
            c.execute(s)
        return [(type(v).__name__, v) for row in c.execute(sql, params).fetchall() for v in row]
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        return f"{type(e).__name__}: {e}"
    finally:
        c.close()


def _same(setup, sql, params=()):
    want = _run(sqlite3, setup, sql, params)
    got = _run(sqlengine, setup, sql, params)
    assert got == want, f"{sql}: sqlite3 {want!r} / sqlengine {got!r}"


COLLATION_QUERIES = [
    # the left operand's column collation (BINARY included) wins over the right's
    "SELECT i, a = b, b = a, a < b, a = c, c = a, a IS b FROM t ORDER BY i",
    "SELECT i, a BETWEEN 'ABC' AND b, (a) = b, +a = b, CAST(a AS TEXT) = b FROM t ORDER BY i",
    "SELECT i, CAST(b AS TEXT) = 'abc', 'abc' = b, b = 'abc', a || '' = b FROM t ORDER BY i",
    # an explicit COLLATE anywhere in an operand wins, left first
    "SELECT i, (a COLLATE NOCASE) || 'x' = 'ABCX', 'x' || (a COLLATE NOCASE) = 'XABC' "
    "FROM t ORDER BY i",
    "SELECT i, upper(a COLLATE NOCASE) = 'abc', a COLLATE NOCASE = b COLLATE BINARY "
    "FROM t ORDER BY i",
    "SELECT i, CASE WHEN 1 THEN a COLLATE NOCASE END = 'ABC' FROM t ORDER BY i",
    # functions that compare: the first argument with a collation
    "SELECT max(a, b), min(b, a), max(b, 'z'), max('Z', b) FROM t ORDER BY i",
    # x IN (list) uses x's collation; a single constant is x = +constant
    "SELECT i FROM t WHERE 'abc' IN (b, a) ORDER BY i",
    "SELECT i FROM t WHERE b IN ('abc') ORDER BY i",
    "SELECT i FROM t WHERE a IN (b) ORDER BY i",
    "SELECT i FROM t WHERE a IN (SELECT b FROM t) ORDER BY i",
    "SELECT i FROM t WHERE b IN (SELECT a FROM t) ORDER BY i",
    # subquery and view columns always carry a collation (BINARY by default)
    "SELECT count(*) FROM (SELECT 'ABC' AS y, b FROM t) WHERE y = b",
    "SELECT count(*) FROM (SELECT 'ABC' AS y, b FROM t) WHERE b = y",
    "SELECT DISTINCT b || '' FROM t ORDER BY 1",
    "SELECT count(*) FROM t GROUP BY b || ''",
    # compound SELECT: the first arm whose column has a collation
    "SELECT 1 FROM t UNION SELECT b FROM t",
    "SELECT 'abc' UNION SELECT b FROM t",
    "SELECT a FROM t UNION SELECT b FROM t ORDER BY 1",
    "SELECT b FROM t UNION SELECT a FROM t",
    "SELECT b FROM t INTERSECT SELECT a FROM t",
    "SELECT 'ABC' EXCEPT SELECT b FROM t",
    "SELECT 'ABC' AS z UNION ALL SELECT b FROM t ORDER BY 1",
    "SELECT count(*) FROM (SELECT 1 UNION SELECT b FROM t)",
]


@pytest.mark.parametrize("sql", COLLATION_QUERIES)
def test_collations(sql):
    _same(COLL_SETUP, sql)


@pytest.mark.parametrize("sql", [
    "SELECT (SELECT c0 FROM t0) == '0', '0' == (SELECT c0 FROM t0)",
    "SELECT (SELECT c1 FROM t0) == 1, 1 == (SELECT c1 FROM t0)",
    "SELECT (SELECT c2 FROM t0) = '2', (SELECT c0 FROM t0) < '1'",
    "SELECT (SELECT c0 + 0 FROM t0) == '0'",
    "SELECT count(*) FROM t0 WHERE (SELECT c0 FROM t0) = '0'",
])
def test_scalar_subquery_affinity(sql):
    _same(COLL_SETUP, sql)


def test_sign():
    _same([], "SELECT sign(-3), sign(0), sign(2.5), sign('x'), sign(' 4 '), sign('-1e5'), "
              "sign(x'01'), sign(NULL), sign(-0.0), sign('3abc'), sign(9223372036854775807)")
    _same([], "SELECT sign()")
    _same([], "SELECT sign(1, 2)")


@pytest.mark.parametrize("setup,sql", [
    ([], "SELECT " + ",".join(["1"] * 2000)),
    ([], "SELECT " + ",".join(["1"] * 2001)),
    ([], "VALUES(" + ",".join(["1"] * 2001) + ")"),
    ([], "SELECT * FROM (SELECT " + ",".join(["1"] * 2001) + ")"),
    ([], "SELECT (SELECT " + ",".join(["1"] * 2001) + ")"),
    ([], "SELECT 1 UNION SELECT " + ",".join(["1"] * 2001)),
    (["CREATE TABLE w(" + ",".join(f"c{i}" for i in range(1999)) + ")"],
     "SELECT *, 1 FROM w"),
    (["CREATE TABLE w(" + ",".join(f"c{i}" for i in range(1999)) + ")"],
     "SELECT *, 1, 2 FROM w"),
    ([], "CREATE TABLE w(" + ",".join(f"c{i}" for i in range(2001)) + ")"),
])
def test_column_limit(setup, sql):
    _same(setup, sql)


@pytest.mark.parametrize("sql", [
    "SELECT 0x" + "f" * 17,
    "SELECT 0X" + "F" * 18,
    "SELECT -0x" + "f" * 17,
    "SELECT -(0x" + "f" * 17 + ")",
    "SELECT - - 0x" + "f" * 17,
    "SELECT 0x1" + "0" * 16,
    "SELECT -0x8000000000000000",
    "SELECT 0x8000000000000000, 0xffffffffffffffff, 0x" + "0" * 30 + "1",
    "SELECT - -9223372036854775808, -(-9223372036854775808)",
    "SELECT 1 WHERE 0x" + "f" * 17,
    "SELECT 1 WHERE NOT 0x" + "f" * 17,
    "SELECT 1 LIMIT 0x" + "f" * 17,
])
def test_hex_literal_too_big(sql):
    _same([], sql)


@pytest.mark.parametrize("sql,params", [
    ("SELECT ?" + "0" * 5000 + "1", (5,)),
    ("SELECT ?" + "9" * 30, (5,)),
    ("SELECT ?0", ()),
    ("SELECT ?250001", ()),
    ("SELECT ?0002, ?1", (7, 8)),
])
def test_variable_number(sql, params):
    _same([], sql, params)


FILTER_SETUP = ["CREATE TABLE t0(a, b, c)",
                "INSERT INTO t0 VALUES(1,'x',5),(0,'x',6),(NULL,'y',7),(2,'y',8),('z','x',1)"]


@pytest.mark.parametrize("sql", [
    "SELECT b, count(1) FILTER (WHERE a) FROM t0 GROUP BY b",
    "SELECT b, count(1) FILTER (WHERE a), sum(c) FILTER (WHERE a > 0), count(*), "
    "max(c) FILTER (WHERE c < 8), c FROM t0 GROUP BY b ORDER BY b",
    "SELECT b, count(DISTINCT c) FILTER (WHERE a IS NOT NULL), "
    "group_concat(c) FILTER (WHERE c > 5) FROM t0 GROUP BY b ORDER BY 1",
    "SELECT count(*) FILTER (WHERE a) FROM t0 GROUP BY b "
    "HAVING count(*) FILTER (WHERE c > 6) > 0",
    "SELECT max(c) FILTER (WHERE c < 8), c FROM t0",
    "SELECT min(c) FILTER (WHERE c > 1), c, b FROM t0",
])
def test_aggregate_filter(sql):
    _same(FILTER_SETUP, sql)


_T = ["CREATE TABLE t(a, b)"]


@pytest.mark.parametrize("setup,sql", [
    (_T, "SELECT 1 FROM t ORDER BY " + ",".join(["5"] * 2001)),
    (_T, "SELECT 1 FROM t ORDER BY " + ",".join(["a"] * 2000)),
    (_T, "SELECT 1 FROM t GROUP BY " + ",".join(["5"] * 2001)),
    (_T, "SELECT 1 UNION SELECT 2 ORDER BY " + ",".join(["1"] * 2001)),
    (_T, "SELECT * FROM (SELECT 1 FROM t ORDER BY " + ",".join(["a"] * 2001) + ")"),
    (_T, "CREATE INDEX i ON t(" + ",".join(["a"] * 2001) + ")"),
    (_T, "CREATE INDEX i ON nosuch(" + ",".join(["a"] * 2001) + ")"),
    (_T, "UPDATE t SET " + ",".join(["a=1"] * 2001)),
    (_T, "UPDATE nosuch SET " + ",".join(["a=1"] * 2001)),
    (_T, "UPDATE t SET (a,b)=(1,2)," + ",".join(["a=1"] * 1999)),
    (_T, "UPDATE t SET " + ",".join(["a=1"] * 2000)),
])
def test_term_limits(setup, sql):
    _same(setup, sql)


COMPOUND_SETUP = [
    "CREATE TABLE t(a TEXT, b TEXT COLLATE NOCASE, i INTEGER PRIMARY KEY)",
    "INSERT INTO t VALUES('abc', 'ABC', 1)", "INSERT INTO t VALUES('ABC', 'abc', 2)",
    "INSERT INTO t VALUES('Abc', 'aBC', 3)", "INSERT INTO t VALUES('x', 'X', 4)",
]


@pytest.mark.parametrize("sql", [
    # with ORDER BY SQLite merges sorted arms: which of equal rows survives follows it
    "SELECT 'ABC' AS z UNION SELECT b FROM t ORDER BY 1",
    "SELECT b FROM t UNION SELECT 'ABC' ORDER BY 1",
    "SELECT b FROM t UNION ALL SELECT 'Abc' UNION SELECT 'x' ORDER BY 1",
    "SELECT b FROM t UNION ALL SELECT 'aBc' EXCEPT SELECT 'x' ORDER BY 1",
    "SELECT b FROM t UNION ALL SELECT 'aBc' INTERSECT SELECT 'abc' ORDER BY 1",
    "SELECT b FROM t INTERSECT SELECT a FROM t ORDER BY 1",
    "SELECT b, i FROM t UNION SELECT 'abc', 1 ORDER BY 2, 1",
    "SELECT b FROM t UNION SELECT b FROM t ORDER BY 1 LIMIT 1",
    "SELECT b FROM t UNION SELECT 'ABC' ORDER BY 1 COLLATE BINARY",
    # without ORDER BY the last of equal rows stays, as SQLite's ephemeral index does
    "SELECT 1 FROM t UNION SELECT b FROM t",
])
def test_compound_duplicates(sql):
    _same(COMPOUND_SETUP, sql)


_V = ["CREATE TABLE t(a)"]


@pytest.mark.parametrize("setup,sql", [
    # CREATE VIEW does not resolve its SELECT; errors show when the view is used
    (_V, "CREATE VIEW v AS SELECT nosuch FROM t"),
    (_V, "CREATE VIEW v AS SELECT a FROM nosuch"),
    (_V, "CREATE VIEW v AS SELECT nosuchfunc(1)"),
    (_V, "CREATE VIEW v AS SELECT 1 ORDER BY 5"),
    (_V, "CREATE VIEW v AS SELECT (SELECT 1, 2)"),
    (_V, "CREATE VIEW v AS SELECT 0x" + "f" * 17),
    (_V, "CREATE VIEW v AS SELECT " + ",".join(["1"] * 2001)),
    (_V + ["CREATE VIEW v AS SELECT " + ",".join(["1"] * 2001)], "SELECT 1 FROM v"),
    (_V + ["CREATE VIEW v AS SELECT nosuchfunc(1)"], "SELECT * FROM v"),
    (_V + ["CREATE VIEW v AS SELECT * FROM v"], "SELECT * FROM v"),
    (_V + ["CREATE VIEW v(x, y) AS SELECT 1"], "SELECT * FROM v"),
    # but refuses parameters
    (_V, "CREATE VIEW v AS SELECT ?"),
    (_V, "CREATE VIEW v AS SELECT :x FROM t"),
    (_V + ["CREATE VIEW v AS SELECT '?', \"?\" FROM t"], "SELECT * FROM v"),
])
def test_create_view(setup, sql):
    _same(setup, sql)


IN_NULL_SETUP = ["CREATE TABLE t0(c1 INTEGER)", "INSERT INTO t0 VALUES(-9223372036854775808)"]


@pytest.mark.parametrize("sql", [
    "SELECT NULL NOT IN (abs(c1)) FROM t0",
    "SELECT NULL IN (1, abs(c1)) FROM t0",
    "SELECT NULL IN (abs(-9223372036854775808))",
    "SELECT 1 IN (1, abs(c1)) FROM t0",
    "SELECT 2 IN (1, abs(c1)) FROM t0",
    "SELECT NULL IN (1, 2) FROM t0",
    "SELECT NULL NOT IN (1, NULL) FROM t0",
    "SELECT c1 IN (c1, abs(c1)) FROM t0",
])
def test_in_list_with_null_left_evaluates_items(sql):
    """A NULL left operand of IN (list) still evaluates the list, so its errors surface."""
    _same(IN_NULL_SETUP, sql)
