"""The compiler's shortcuts from ``SelectCore.features`` (no window search, no aggregate
search, no COLLATE search when the parser saw none) change nothing: a statement compiles
to the same program whether its cores carry the parser's features or FEATURES_UNKNOWN,
and runs to sqlite3's answer."""

import copy
import sqlite3

import pytest

from sqlengine.compiler.statement import compile_statement
from sqlengine.compiler.walk import iter_children
from sqlengine.database import Database
from sqlengine.sql import ast as A
from sqlengine.sql import parser

SETUP = [
    "CREATE TABLE t1(a INTEGER, b TEXT COLLATE NOCASE, c REAL)",
    "INSERT INTO t1 VALUES (1, 'x', 1.5), (2, 'X', 2.5), (3, 'y', NULL), (NULL, 'Y', 0)",
    "CREATE TABLE t2(x INTEGER PRIMARY KEY, y TEXT)",
    "INSERT INTO t2 VALUES (1, 'a'), (2, 'B'), (3, 'b')",
    "CREATE VIEW v1 AS SELECT a, b FROM t1 WHERE a > 1",
]

QUERIES = [
    "SELECT 1 + 2, 'a' || 'b', NULL",
    "SELECT a, b FROM t1 ORDER BY 1",
    "SELECT b FROM t1 UNION SELECT y FROM t2 ORDER BY 1",
    "SELECT +b, CAST(b AS TEXT), (b) FROM t1 UNION SELECT y, y, y FROM t2 ORDER BY 1, 2, 3",
    "SELECT b || '' FROM t1 UNION SELECT y FROM t2 ORDER BY 1",
    "SELECT b COLLATE BINARY FROM t1 UNION SELECT y FROM t2 ORDER BY 1",
    "SELECT y FROM t2 UNION SELECT b FROM t1 ORDER BY 1",
    "SELECT count(*), sum(a), max(b) FROM t1",
    "SELECT a FROM t1 GROUP BY a ORDER BY count(*), a",
    "SELECT count(*) FROM t1 ORDER BY max(c)",
    "SELECT a, abs(a) FROM t1 ORDER BY 1",
    "SELECT b, count(*) FROM t1 GROUP BY b ORDER BY 1",
    "SELECT row_number() OVER (ORDER BY a), a FROM t1 ORDER BY 2",
    "SELECT a, sum(a) OVER w FROM t1 WINDOW w AS (ORDER BY a) ORDER BY a",
    "SELECT a, rank() OVER (ORDER BY b) FROM t1 ORDER BY max(c) OVER (ORDER BY a COLLATE nocase), 1",
    "SELECT (SELECT count(*) FROM t2), a FROM t1 ORDER BY 2",
    "SELECT a FROM t1 WHERE b IN (SELECT y FROM t2) ORDER BY 1",
    "SELECT a FROM v1 ORDER BY 1",
    "SELECT DISTINCT b FROM t1 ORDER BY 1",
    "SELECT a FROM t1 WHERE b = 'x' COLLATE BINARY",
    "VALUES (1, 'a'), (2, 'b')",
    "WITH c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5) SELECT sum(n) FROM c",
]


def unknown_features(stmt):
    """A copy of ``stmt`` whose SELECT cores carry FEATURES_UNKNOWN."""
    stmt = copy.deepcopy(stmt)
    stack = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, A.SelectCore):
            node.features = A.FEATURES_UNKNOWN
        stack.extend(iter_children(node))
    return stmt


def listing(prog):
    return [row[:5] + (repr(row[5]),) + row[6:7] for row in prog.explain_rows()]


@pytest.fixture(scope="module")
def dbs():
    db = Database(":memory:")
    ref = sqlite3.connect(":memory:")
    for s in SETUP:
        db.execute(s)
        ref.execute(s)
    return db, ref


@pytest.mark.parametrize("sql", QUERIES)
def test_same_program_with_unknown_features(dbs, sql):
    db, _ = dbs
    parsed = parser.parse_one(sql)
    fast = compile_statement(db, parsed.stmt, parsed.text)
    slow = compile_statement(db, unknown_features(parsed.stmt), parsed.text)
    assert listing(fast) == listing(slow)


# Which aggregates make a query an aggregate one: those of the result columns (and GROUP
# BY), as SQLite 3.40 decides; HAVING alone does not, ORDER BY alone is a misuse.
AGGREGATE_RULES = [
    "SELECT 1 FROM t1 ORDER BY count(*)", "SELECT 1 ORDER BY count(*)",
    "SELECT a FROM t1 ORDER BY 1, COUNT(*)", "SELECT DISTINCT a FROM t1 ORDER BY count(*)",
    "SELECT a FROM t1 ORDER BY abs(count(*))", "SELECT a FROM t1 ORDER BY (SELECT count(*))",
    "SELECT count(*) FROM t1 ORDER BY max(a)", "SELECT a FROM t1 GROUP BY a ORDER BY count(*)",
    "SELECT a FROM t1 HAVING 1 ORDER BY count(*)", "SELECT 1 HAVING 1 ORDER BY count(*)",
    "SELECT a FROM t1 HAVING count(*) > 0", "SELECT count(*) FROM t1 HAVING sum(a) > 2",
    "SELECT a FROM t1 GROUP BY a HAVING c > 2", "SELECT max(a), b FROM t1 HAVING c > 1",
    "SELECT 1 FROM t1 HAVING sum(a) > 0", "SELECT a FROM t1 GROUP BY a HAVING 1 ORDER BY sum(c)",
]


def outcome(run, sql):
    try:
        return [tuple(r) for r in run(sql)]
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        return ("error", str(e))


@pytest.mark.parametrize("sql", AGGREGATE_RULES)
def test_aggregate_rules_like_sqlite3(dbs, sql):
    db, ref = dbs
    assert outcome(db.execute, sql) == outcome(lambda q: ref.execute(q).fetchall(), sql)


@pytest.mark.parametrize("sql", QUERIES)
def test_same_rows_as_sqlite3(dbs, sql):
    db, ref = dbs
    assert [tuple(r) for r in db.execute(sql)] == ref.execute(sql).fetchall()
