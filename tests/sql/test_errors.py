"""Malformed SQL: sqlengine must reject it with SQLite's own words.

Every case is first checked to be a parse error for the stdlib sqlite3 (the oracle), then
sqlengine's message must be identical.
"""

import pytest

from sqlengine.errors import OperationalError
from sqlengine.sql import parse_one

MALFORMED = [
    # end of input
    "SELECT", "SELECT 1 FROM", "SELECT * FROM t WHERE", "SELECT (1", "SELECT 1 +",
    "SELECT * FROM t ORDER BY", "SELECT 1 UNION", "CREATE TABLE t(", "WITH x AS",
    "CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT 1;", "EXPLAIN", "EXPLAIN QUERY PLAN",
    "SELECT CASE WHEN 1 THEN 2", "SELECT count(*", "INSERT INTO t VALUES(", "DROP TABLE IF",
    # near "X"
    "SELECT 1 +;", "SELECT 1 FROM t WHERE a IN ()x", "SELECT CASE END",
    "SELECT CAST(1)", "SELECT 1 UNION ALL ALL SELECT 2", "SELECT * FROM a JOIN b USING x",
    "SELECT * FROM a JOIN b USING ()", "SELECT 1 AS FROM", "SELECT ALL DISTINCT 1",
    "CREATE TABLE t()", "CREATE TABLE t(a,)", "CREATE TABLE t(a INTEGER PRIMARY)",
    "CREATE TABLE t(a DEFAULT)", "CREATE TABLE t(a DEFAULT - x)", "CREATE TABLE t(a CHECK)",
    "CREATE TABLE t(a, PRIMARY KEY)", "CREATE TABLE t(a, UNIQUE (a) ON CONFLICT)",
    "CREATE TABLE t(a AS)", "CREATE INDEX i ON t()", "CREATE UNIQUE TABLE t(a)",
    "CREATE VIEW v(a,) AS SELECT 1", "CREATE TRIGGER r AFTER INSERT ON t BEGIN END",
    "CREATE TRIGGER r INSTEAD INSERT ON t BEGIN SELECT 1; END",
    "CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT RAISE(FAIL); END",
    "DROP COLUMN x", "DROP INDEX a.b.c", "INSERT INTO t VALUES()", "INSERT INTO t(a,) VALUES(1)",
    "INSERT INTO t SELECT * FROM u ON CONFLICT DO NOTHING", "INSERT OR FOO INTO t VALUES(1)",
    "INSERT OR IGNORE t VALUES(1)", "REPLACE t VALUES(1)", "UPDATE t SET a", "DELETE t",
    "BEGIN FOO", "ROLLBACK TRANSACTION TO", "PRAGMA a.b.c", "PRAGMA x = - 'a'",
    "ATTACH 'x'", "ANALYZE a.b.c", "VACUUM INTO", "REINDEX a.", "EXPLAIN EXPLAIN SELECT 1",
    "ALTER TABLE t RENAME a b", "WITH x AS NOT (SELECT 1) SELECT 1", "VALUES(1) ORDER BY 1",
    "SELECT count(*) OVER (PARTITION)", "SELECT count(*) OVER (ROWS UNBOUNDED FOLLOWING)",
    "SELECT count(*) OVER (ROWS BETWEEN 1 PRECEDING AND UNBOUNDED PRECEDING)",
    "SELECT count(*) FILTER (a)", "SELECT a FROM t WINDOW w AS", "SELECT 1 NOT",
    "SELECT 1 IS DISTINCT", "SELECT EXISTS (1)", "SELECT (1,)", "SELECT (SELECT)",
    "SELECT 1 = = 2", "SELECT 1 < < 2", "SELECT a.b.c.d", "SELECT 1..2", "SELECT 1.2.3",
    "SELECT 1 2", "SELECT a b c", "SELECT * FROM t1, t t3 t4", "SELECT * FROM ()",
    "SELECT 1 WINDOW w AS () WHERE 1", "SELECT 1 FROM t GROUP BY 1 WHERE 1",
    "CREATE TABLE x(a key default 1 generated)",
    # unrecognized tokens
    "SELECT 'abc", 'SELECT "abc', "SELECT [abc", "SELECT `abc", "SELECT x'abc'", "SELECT x'ab",
    "SELECT x'zz'", "SELECT 1 ! 2", "SELECT 0x", "SELECT 1e", "SELECT 1.5e+", "SELECT 123abc",
    "SELECT 1_000", "SELECT @", "SELECT :", "SELECT $", "SELECT $a(b", "SELECT #", "SELECT \\",
    "SELECT 1 FROM t WHERE a = 'x''",
    # errors SQLite raises inside its reductions
    "SELECT 1 ORDER BY 1 UNION SELECT 2", "SELECT 1 LIMIT 1 EXCEPT SELECT 2",
    "SELECT 1 ORDER BY 1 LIMIT 1 UNION ALL SELECT 2", "SELECT * FROM a OUTER JOIN b ON 1",
    "SELECT * FROM a INNER OUTER JOIN b", "SELECT * FROM a NATURAL foo JOIN b",
    "SELECT * FROM t ON 1", "SELECT * FROM t USING (x)", "CREATE TABLE x(a) WITHOUT oid",
    "CREATE TABLE x(a) foo", "CREATE TABLE x(a) foo, strict", "CREATE TABLE x(a AS (1) foo)",
    "CREATE TRIGGER r AFTER INSERT ON t BEGIN UPDATE main.t SET a=1; END",
    "CREATE TRIGGER r AFTER INSERT ON t BEGIN DELETE FROM t INDEXED BY i; END",
    "CREATE TRIGGER r AFTER INSERT ON t BEGIN DELETE FROM t NOT INDEXED; END",
    "CREATE TRIGGER r AFTER INSERT ON t BEGIN INSERT INTO main.t VALUES(1); END",
    "SELECT * FROM t ON CONFLICT DO NOTHING",
    "CREATE TABLE x(a PRIMARY KEY) rowid, REPLACE strict",
    "SELECT 1 ORDER BY 1 UNION SELECT 2 UNION", "SELECT 1 LIMIT 1 UNION SELECT 2 ORDER BY 1 UNION SELECT 3",
    "SELECT 1 ORDER BY 1 INTERSECT SELECT 2 LIMIT 3 EXCEPT SELECT 3 LIMIT 1",
    "SELECT (SELECT 1 LIMIT 1 UNION ALL SELECT 2) +",
    # checks SQLite makes while parsing CREATE TABLE
    "CREATE TABLE x(a, b, A)", "CREATE TABLE x(a PRIMARY KEY, b PRIMARY KEY)",
    "CREATE TABLE x(a PRIMARY KEY, b, PRIMARY KEY(b))", "CREATE TABLE x(a INT PRIMARY KEY AUTOINCREMENT)",
    "CREATE TABLE x(a INTEGER PRIMARY KEY DESC AUTOINCREMENT)", "CREATE TABLE x(a, b, PRIMARY KEY(a, b) AUTOINCREMENT)",
    "CREATE TABLE x(a DEFAULT (b))", "CREATE TABLE x(a DEFAULT (?))", "CREATE TABLE x(a DEFAULT ((SELECT 1)))",
    "CREATE TABLE x(a AS (1) DEFAULT 2)", "CREATE TABLE x(a DEFAULT 2 AS (1))", "CREATE TABLE x(a AS (1) PRIMARY KEY)",
    "CREATE TABLE x(a PRIMARY KEY AS (1))", "CREATE TABLE x(a AS (1), PRIMARY KEY(a))",
    "CREATE TABLE x(a AS (1) foo, b",
    "CREATE TABLE x(a AS (1) foo DEFAULT )", "CREATE TABLE x(a, a, PRIMARY KEY(a), b",
    "CREATE TABLE x(a) 's'", "CREATE TABLE x(a) WITHOUT /* c */ [rowid2]", "CREATE TABLE x(a) WITHOUT \"x\"",
    "SELECT * FROM a INNER INNER 's' JOIN b", "SELECT * FROM a left /* x */ [foo] JOIN b",
    "ALTER TABLE t ADD COLUMN z DEFAULT (a)", "ALTER TABLE t ADD z INT PRIMARY KEY AUTOINCREMENT",
    "ALTER TABLE t ADD z AS (1) DEFAULT 1",
    "\u017fELECT 1", "SELECT * FROM t a cro\u017f\u017f JOIN u b", "CREATE TABLE x(a \u0131nteger PRIMARY KEY AUTOINCREMENT)",
    "CREATE TABLE x(a REFERENCES t(b, c))", "CREATE TABLE x(a REFERENCES \"t\" (b, c)) foo",
    "CREATE TABLE x(a, b, FOREIGN KEY(a, b) REFERENCES t(c))", "CREATE TABLE x(a, FOREIGN KEY(z) REFERENCES t(c))",
    "CREATE TABLE x(a, FOREIGN KEY(A, z) REFERENCES t) +", "CREATE TEMP TABLE main.x(a, a)",
    "CREATE TEMP TRIGGER temp.r AFTER INSERT ON t BEGIN SELECT 1; END",
    "CREATE TABLE x(a, UNIQUE(a NULLS FIRST))", "CREATE TABLE x(a, UNIQUE(a DESC NULLS LAST, a NULLS FIRST))",
    "CREATE TABLE x(a INTEGER, PRIMARY KEY(a NULLS FIRST))", "CREATE TABLE x(a, PRIMARY KEY(a NULLS LAST))",
    "CREATE TABLE x(a PRIMARY KEY, PRIMARY KEY(a NULLS FIRST))", "CREATE INDEX i ON nosuch(a NULLS FIRST)",
    "CREATE TABLE x(a, UNIQUE(a NULLS FIRST) ON CONFLICT ROLLBACK,",
    "CREATE INDEX i ON t(a NULLS LAST) WHERE f(DISTINCT a) OVER w",
    "CREATE TABLE x(a INTEGER, PRIMARY KEY(a NULLS FIRST) ON CONFLICT ROLLBACK, b AS (1) DEFAULT 1)",
    # name lists
    "WITH c(a DESC) AS (SELECT 1) SELECT * FROM c", "CREATE VIEW v([x] COLLATE nocase) AS SELECT 1",
    "CREATE TABLE x(a, FOREIGN KEY (a ASC) REFERENCES t)", "CREATE TABLE x(a REFERENCES t('b' DESC))",
    "WITH c(a, \"b\" ASC) AS (SELECT 1, 2) SELECT * FROM c",
    # function calls
    "SELECT max(" + ",".join(["1"] * 128) + ")", "SELECT max(" + ",".join(["1"] * 128) + ") +",
    "SELECT count(DISTINCT a) OVER () FROM t", "SELECT count(DISTINCT a) FILTER (WHERE 1) OVER w FROM t",
]


@pytest.mark.parametrize("sql", MALFORMED)
def test_message_matches_sqlite(sql, oracle, ours):
    expected = oracle(sql)
    assert expected is not None, "the oracle accepts this text: not a negative case"
    assert ours(sql) == expected


def test_error_class_and_code():
    with pytest.raises(OperationalError) as info:
        parse_one("SELECT * FROM")
    assert info.value.sqlite_errorcode == 1
    assert info.value.sqlite_errorname == "SQLITE_ERROR"


@pytest.mark.parametrize("sql", ["SELECT 1; SELECT (", "SELECT 1; garbage ' here"])
def test_only_the_first_statement_is_parsed(sql):
    p = parse_one(sql)
    assert p.text == "SELECT 1"
    assert p.end == 9


NESTINGS = {
    "parens": lambda n: "SELECT " + "(" * n + "1" + ")" * n,
    "minus": lambda n: "SELECT " + "- " * n + "1",
    "not": lambda n: "SELECT " + "NOT " * n + "1",
    "subquery": lambda n: "SELECT " + "(SELECT " * n + "1" + ")" * n,
    "case": lambda n: "SELECT " + "CASE WHEN 1 THEN " * n + "1" + " END" * n,
    "where": lambda n: "SELECT a FROM t WHERE " + "(" * n + "1" + ")" * n,
    "function": lambda n: "SELECT " + "abs(" * n + "1" + ")" * n,
    "from": lambda n: "SELECT * FROM " + "(SELECT * FROM " * n + "t" + ")" * n,
    "update": lambda n: "UPDATE t SET a = " + "(" * n + "1" + ")" * n,
    "window": lambda n: "SELECT count(*) OVER (ORDER BY " + "(" * n + "1" + ")" * n + ")",
    "explain": lambda n: "EXPLAIN QUERY PLAN SELECT " + "(" * n + "1" + ")" * n,
    "insert": lambda n: "INSERT INTO t SELECT " + "(" * n + "1" + ")" * n,
    "case_operand": lambda n: "SELECT CASE 1 WHEN " + "(" * n + "1" + ")" * n + " THEN 1 END",
    "join_on": lambda n: "SELECT * FROM t JOIN t AS u ON " + "(" * n + "1" + ")" * n,
}


def _first_overflow(message_of, make):
    for n in range(1, 120):
        if message_of(make(n)) == "parser stack overflow":
            return n
    return None


@pytest.mark.parametrize("name", sorted(NESTINGS))
def test_parser_stack_overflows_at_sqlites_depth(name, oracle, ours):
    make = NESTINGS[name]

    def sqlite_message(sql):
        import sqlite3
        conn = sqlite3.connect(":memory:")
        conn.execute("CREATE TABLE t(a)")
        try:
            conn.execute(sql)
        except sqlite3.Error as e:
            return str(e)
        return None

    want = _first_overflow(sqlite_message, make)
    assert want is not None
    assert _first_overflow(ours, make) == want


CREATE_TABLE_CHECKS = [
    "CREATE TABLE x(a INTEGER PRIMARY KEY AUTOINCREMENT)", "CREATE TABLE x(a integer primary key autoincrement)",
    "CREATE TABLE x(a INTEGER, PRIMARY KEY(a DESC) AUTOINCREMENT)", "CREATE TABLE x(a INTEGER, PRIMARY KEY('a') AUTOINCREMENT)",
    "CREATE TABLE x(a, PRIMARY KEY(a) AUTOINCREMENT)", "CREATE TABLE x(a DEFAULT (abs(-1)))",
    "CREATE TABLE x(a DEFAULT (CURRENT_TIMESTAMP))", "CREATE TABLE x(a INTEGER GENERATED ALWAYS AS (1))",
    "CREATE TABLE x(a DEFAULT (true))", 'CREATE TABLE x(a DEFAULT ("abc"))', "CREATE TABLE x(a DEFAULT (1 IN (1, 2)))",
    "CREATE TABLE x(a DEFAULT (count(*) OVER ()))", "CREATE TABLE x(a DEFAULT (CASE WHEN 1 THEN b END))",
    "CREATE TABLE x(a DEFAULT -1, b DEFAULT +2.5, c DEFAULT x'00', d DEFAULT NULL, e DEFAULT abc)",
    "CREATE TABLE x(a AS (1) VIRTUAL, b AS (2) STORED, c GENERATED ALWAYS AS (3))",
    "CREATE TABLE x(\"a\", [A])", "CREATE TABLE x(a, \"b\", PRIMARY KEY(\"B\"))", "CREATE TABLE x(ä, Ä)",
    "CREATE TABLE x AS SELECT 1 AS a, 2 AS a", "CREATE TABLE x(a DEFAULT (RAISE(IGNORE)))",
    "CREATE TABLE x(a DEFAULT (x'00' || :p))", "CREATE TABLE x(a DEFAULT (:p NOT IN ()))", "CREATE TABLE x(a DEFAULT (EXISTS (SELECT 1)))",
]


@pytest.mark.parametrize("sql", CREATE_TABLE_CHECKS)
def test_create_table_checks_like_sqlite(sql, oracle, ours):
    assert ours(sql) == oracle(sql)


def test_generated_always_is_not_part_of_the_type():
    import sqlite3
    sql = "CREATE TABLE x(a INTEGER GENERATED ALWAYS AS (1), b generated always AS (2), c TEXT)"
    conn = sqlite3.connect(":memory:")
    conn.execute(sql)
    want = [r[2] or None for r in conn.execute("PRAGMA table_xinfo(x)")]
    got = [c.type_name for c in parse_one(sql).stmt.columns]
    assert got == want


def _chain(n, op="+", item="1"):
    return f" {op} ".join([item] * n)


SIZE_LIMITS = [
    "SELECT " + _chain(1000), "SELECT " + _chain(1001), "SELECT " + _chain(1001) + " FROM t",
    "SELECT a FROM t WHERE " + _chain(1001, "OR", "a=1"), "SELECT a FROM t WHERE " + _chain(500, "OR", "a=1"),
    "SELECT 1 + (SELECT " + _chain(999) + ")",
    "SELECT * FROM (SELECT " + _chain(1000) + ")", "SELECT abs(" + _chain(1000) + ")",
    "SELECT count(*) OVER (ORDER BY " + _chain(1000) + ")",
    "SELECT CASE WHEN " + _chain(999) + " THEN 1 END", "SELECT CASE WHEN " + _chain(1000) + " THEN 1 END",
    "SELECT CASE 1 WHEN 2 THEN 3 ELSE " + _chain(1000) + " END",
    "SELECT a FROM t WHERE a = 1 OR (" + _chain(999) + ")", "SELECT a FROM t WHERE (" + _chain(1000) + ") = a",
    " UNION ".join(["SELECT 1"] * 500), " UNION ".join(["SELECT 1"] * 501),
    " UNION ".join(["SELECT 1"] * 501) + " +", "VALUES " + ",".join(["(1)"] * 600),
    "VALUES " + ",".join(["(1)"] * 600) + " UNION SELECT 1", "SELECT 1 UNION VALUES " + ",".join(["(1)"] * 600),
    " UNION ".join(["VALUES(1)"] * 501), "VALUES " + ",".join(["(1)"] * 499) + " UNION SELECT 1 UNION SELECT 2",
]


# (SQLite also adds up the heights of nested subqueries while it resolves names: that is
# the compiler's check, not the parser's, so no case here nests a deep subquery.)
@pytest.mark.parametrize("sql", SIZE_LIMITS, ids=range(len(SIZE_LIMITS)))
def test_size_limits_like_sqlite(sql, oracle, ours):
    assert ours(sql) == oracle(sql)


def _heights_sample():
    import itertools
    from sqlengine.sql.corpus_check import iter_sql
    corpus = "/work/shared/sqllogictest/test/"
    shapes = ["SELECT {}", "SELECT abs({}) FROM t WHERE a = 1 OR ({})", "SELECT 1 + (SELECT {})",
              "SELECT CASE WHEN {} THEN 1 END", "SELECT count(*) OVER (ORDER BY {})",
              "SELECT a FROM t WHERE a IN ({}, 2) ORDER BY {}", "SELECT * FROM (SELECT {})"]
    deep = [shape.replace("{}", _chain(n)) for shape in shapes for n in (3, 300, 900)]
    sample = []
    for name in ("index/between/10/slt_good_1.test.gz", "select5.test.gz",
                 "random/expr/slt_good_0.test.gz"):
        queries = (sql for kind, sql in iter_sql(corpus + name) if kind == "query")
        sample += itertools.islice(queries, 0, 3000, 25)
    return deep + sample


@pytest.mark.parametrize("sql", _heights_sample())
def test_expr_too_deep_agrees_with_the_full_measure(sql):
    from sqlengine.sql import limits, parser
    try:
        stmt = parser.python_parse_one(sql).stmt
    except Exception:
        return
    tallest = limits.max_expr_height(stmt)
    for limit in {0, 1, max(tallest - 1, 0), tallest, tallest + 1}:
        assert limits.expr_too_deep(stmt, limit) == (tallest > limit)
