"""Window functions compare PARTITION BY and ORDER BY values under the collation of their
expression (a column's declared one, or an explicit COLLATE), as SQLite does; checked
against the stdlib sqlite3."""

import sqlite3

import pytest

from sqlengine.database import Database

SETUP = [
    "CREATE TABLE t1(a INTEGER, b TEXT COLLATE NOCASE, c REAL, d TEXT)",
    "INSERT INTO t1 VALUES (1, 'x', 1.5, 'p'), (2, 'X', 2.5, 'P'), (3, 'y', NULL, 'q'),"
    " (NULL, 'Y', 0, 'Q'), (5, 'x ', 3, 'p ')",
]

QUERIES = [
    "SELECT a, rank() OVER (ORDER BY b) FROM t1 ORDER BY 1",
    "SELECT a, dense_rank() OVER (ORDER BY d COLLATE nocase) FROM t1 ORDER BY 1",
    "SELECT a, rank() OVER (ORDER BY d) FROM t1 ORDER BY 1",
    "SELECT a, rank() OVER (ORDER BY d COLLATE rtrim) FROM t1 ORDER BY 1",
    "SELECT a, count(*) OVER (PARTITION BY b) FROM t1 ORDER BY 1",
    "SELECT a, count(*) OVER (PARTITION BY d) FROM t1 ORDER BY 1",
    "SELECT a, count(*) OVER (PARTITION BY d COLLATE nocase ORDER BY a) FROM t1 ORDER BY 1",
    "SELECT a, row_number() OVER (PARTITION BY upper(d) ORDER BY a) FROM t1 ORDER BY 1",
    "SELECT a, sum(a) OVER (ORDER BY b RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"
    " FROM t1 ORDER BY 1",
    "SELECT a, rank() OVER (ORDER BY b) FROM t1"
    " ORDER BY max(c) OVER (ORDER BY a COLLATE nocase), 1",
    "SELECT a, rank() OVER w FROM t1 WINDOW w AS (ORDER BY b DESC) ORDER BY 1",
]


@pytest.fixture(scope="module")
def dbs():
    db = Database(":memory:")
    ref = sqlite3.connect(":memory:")
    for s in SETUP:
        db.execute(s)
        ref.execute(s)
    return db, ref


@pytest.mark.parametrize("sql", QUERIES)
def test_window_collations_like_sqlite3(dbs, sql):
    db, ref = dbs
    assert [tuple(r) for r in db.execute(sql)] == ref.execute(sql).fetchall()
