"""The GROUP BY sorter's record (``_codegen.code_aggregate``): a column read outside the
aggregates that is also a GROUP BY term is read back from that term's field of the
record, not stored a second time (SQLite's iSorterColumn), so that the record holds the
fields sqlite3's holds. The results, and the row a bare column comes from (the first of
the group, or the one a min()/max() made its best, a NOCASE key's spelling), stay
sqlite3's."""

import sqlite3

import pytest

import sqlengine

SETUP = [
    "CREATE TABLE t(a INTEGER, b TEXT COLLATE NOCASE, c REAL, d TEXT)",
    "INSERT INTO t VALUES (1, 'x', 1.5, 'p'), (2, 'X', NULL, 'q'), (1, 'y', 2.5, 'r')",
    "INSERT INTO t VALUES (NULL, 'Y', 0.5, 's'), (3, NULL, 9.0, NULL), (2, 'x', -1.0, 't')",
    "INSERT INTO t VALUES (1, 'X', 7.0, 'u'), (NULL, NULL, NULL, 'v')",
    "CREATE TABLE u(k INTEGER, v INTEGER)",
    "INSERT INTO u VALUES (1, 10), (2, 20), (1, 30), (3, NULL)",
    # more bare columns than code_aggregate keeps fields for on the stack
    "CREATE TABLE w(" + ", ".join(f"c{i}" for i in range(20)) + ")",
    "INSERT INTO w VALUES (" + ", ".join(str(i % 3) for i in range(20)) + ")",
    "INSERT INTO w VALUES (" + ", ".join(str(i % 4) for i in range(20)) + ")",
    "INSERT INTO w VALUES (" + ", ".join(str(i % 5) for i in range(20)) + ")",
]

QUERIES = [
    "SELECT a FROM t GROUP BY a",
    "SELECT a, count(*) FROM t GROUP BY a",
    "SELECT - a * 2, a + 1 FROM t GROUP BY a",
    "SELECT b, count(*) FROM t GROUP BY b",
    "SELECT b, max(c), d FROM t GROUP BY b",
    "SELECT b, min(c), d, a FROM t GROUP BY b",
    "SELECT a, b, sum(c) FROM t GROUP BY a, b",
    "SELECT b, a, d FROM t GROUP BY a, b",
    "SELECT a, d FROM t GROUP BY a",
    "SELECT a, max(c) FILTER (WHERE c > 1), d FROM t GROUP BY a",
    "SELECT b, count(*) FILTER (WHERE a = 1), b || 'z' FROM t GROUP BY b",
    "SELECT a, b FROM t GROUP BY b, a HAVING count(*) > 0",
    "SELECT a, total(c) FROM t GROUP BY a HAVING a > 1 OR a IS NULL",
    "SELECT a, count(DISTINCT b), b FROM t GROUP BY a",
    "SELECT a, b FROM t GROUP BY a, b COLLATE BINARY",
    "SELECT b COLLATE BINARY, count(*) FROM t GROUP BY b",
    "SELECT t.a, u.v FROM t, u WHERE t.a = u.k GROUP BY t.a",
    "SELECT u.k, max(u.v), t.d FROM u, t WHERE t.a = u.k GROUP BY u.k",
    "SELECT k, (SELECT count(*) FROM t WHERE t.a = u.k) FROM u GROUP BY k",
    "SELECT DISTINCT a, b FROM t ORDER BY a, b",
    "SELECT * FROM w GROUP BY c4",
    "SELECT *, max(c7) FROM w GROUP BY c19, c3",
]


@pytest.fixture(scope="module")
def cons():
    ref = sqlite3.connect(":memory:")
    ours = sqlengine.connect(":memory:")
    for sql in SETUP:
        ref.execute(sql)
        ours.execute(sql)
    yield ref, ours
    ref.close()
    ours.close()


@pytest.mark.parametrize("sql", QUERIES)
def test_same_rows_as_sqlite(cons, sql):
    ref, ours = cons
    expected = sorted(ref.execute(sql).fetchall(), key=repr)
    assert sorted(ours.execute(sql).fetchall(), key=repr) == expected


def _sorter_width(con, sql):
    """P2 of the program's first SorterOpen (the GROUP BY sorter's record width)."""
    for row in con.execute("EXPLAIN " + sql):
        if row[1] == "SorterOpen":
            return row[3]
    return None


@pytest.mark.parametrize("sql", [
    "SELECT a FROM t GROUP BY a",
    "SELECT - a * 2, a + 1 FROM t GROUP BY a",
    "SELECT b, count(*) FROM t GROUP BY b",
    "SELECT b, max(c), d FROM t GROUP BY b",
    "SELECT b, a, d FROM t GROUP BY a, b",
    "SELECT a, b, sum(c) FROM t GROUP BY a, b",
    "SELECT * FROM w GROUP BY c4",
])
def test_sorter_record_is_sqlites(cons, sql):
    ref, ours = cons
    width = _sorter_width(ref, sql)
    assert width is not None
    assert _sorter_width(ours, sql) == width
