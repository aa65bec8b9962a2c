"""An aggregate query's accumulators (``select._compile_aggregate``) take their functions
from the connection's FunctionTable by C calls, and from alter_check's stand-in (a view
or trigger checked against an ALTER TABLE's new schema) by its methods: both give
sqlite3's results and errors, built-in and user-defined aggregates alike, and calls that
sqlite3 finds the same share one accumulator (``_merge_aggs``, ``walk.expr_key``)."""

import sqlite3

import pytest

import sqlengine


class Product:
    def __init__(self):
        self.v = 1

    def step(self, x):
        if x is not None:
            self.v *= x

    def finalize(self):
        return self.v


SETUP = [
    "CREATE TABLE t(a INTEGER, b INTEGER, c TEXT)",
    "INSERT INTO t VALUES (1, 2, 'x'), (1, 3, 'Y'), (2, NULL, 'y'), (3, 4, NULL)",
]


@pytest.fixture()
def cons():
    pair = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.create_aggregate("product", 1, Product)
        for sql in SETUP:
            con.execute(sql)
        pair.append(con)
    yield pair
    for con in pair:
        con.close()


def _run(con, sql):
    try:
        return sorted(con.execute(sql).fetchall(), key=repr)
    except Exception as e:  # (the message is compared)
        return (type(e).__name__, str(e))


@pytest.mark.parametrize("sql", [
    "SELECT a, product(b), count(*), count(*) + count(*) FROM t GROUP BY a",
    "SELECT product(b) + product(b), sum(b) - sum(b + 0), max(c), max(c COLLATE nocase) FROM t",
    "SELECT count(*), count(*) FILTER (WHERE a > 1), count(ALL b), COUNT(b) FROM t",
    "SELECT total(a), avg(b), min(c), group_concat(c), group_concat(c, '-') FROM t",
    "SELECT product(a, b) FROM t",
    "SELECT count(DISTINCT a, b) FROM t",
    "SELECT sum() FROM t",
    "SELECT a FROM t GROUP BY a HAVING product(b) > 2",
])
def test_same_as_sqlite(cons, sql):
    ref, ours = cons
    assert _run(ours, sql) == _run(ref, sql)


def test_view_with_aggregates_across_alter(cons):
    for con in cons:
        con.execute("CREATE VIEW v AS SELECT a, count(*) AS n, max(b) AS m, product(b) AS p,"
                    " count(*) + 1 AS n1 FROM t GROUP BY a")
        con.execute("ALTER TABLE t RENAME COLUMN b TO bb")
        con.execute("ALTER TABLE t RENAME TO t2")
    ref, ours = cons
    for sql in ("SELECT * FROM v", "SELECT sql FROM sqlite_schema WHERE name = 'v'"):
        assert _run(ours, sql) == _run(ref, sql)
