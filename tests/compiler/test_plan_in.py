"""``x IN (constant, ...)`` answered by index or rowid lookups, one per distinct value (the
list's affinity and the index column's collation applied, NULLs never looked up, values
walked in the index column's order), checked row for row against sqlite3, with
EXPLAIN QUERY PLAN naming the same index."""

from __future__ import annotations

import random
import sqlite3

import pytest

import sqlengine

DDL = [
    "CREATE TABLE t(a INTEGER PRIMARY KEY, b INT, c TEXT, d REAL, e)",
    "CREATE INDEX tb ON t(b)",
    "CREATE INDEX tcd ON t(c, d DESC)",
    "CREATE INDEX tdb ON t(d, b)",
    "CREATE INDEX te ON t(e)",
    "CREATE TABLE u(x INT, y TEXT COLLATE NOCASE)",
    "CREATE INDEX uy ON u(y)",
    "CREATE INDEX uxy ON u(x, y)",
]

LISTS = ["(1,2,3)", "(2)", "(2,2,2.0,'2')", "('1','x',1)", "(NULL, 3)", "(NULL)",
         "(1.5, 2, '2.5', 3.0)", "(-1, 5, 8, 100)", "('a', 'B')", "(1, '1', 2.0, 'a', x'31')"]


@pytest.fixture(scope="module")
def cons():
    rng = random.Random(3)
    rows = [(i, rng.choice([None, 1, 2, 3, 5, 8]), rng.choice([None, "x", "y", "z", "1", "2"]),
             rng.choice([None, 1.5, 2.5, 3.0, 2]), rng.choice([None, 1, "1", 2.0, "a", b"1"]))
            for i in range(1, 80)]
    urows = [(rng.choice([None, 1, 2, 3]), rng.choice(["a", "A", "b", "B", None, "1"]))
             for _ in range(40)]
    out = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        for d in DDL:
            con.execute(d)
        con.executemany("INSERT INTO t VALUES(?,?,?,?,?)", rows)
        con.executemany("INSERT INTO u VALUES(?,?)", urows)
        out.append(con)
    yield out
    for con in out:
        con.close()


def _queries():
    for col in "abcde":
        for lst in LISTS:
            for extra in ("", " AND b > 1", " AND d IN (1.5, 3.0)", " AND c IN ('x','z')",
                          " AND a < 40", " AND c = 'x'"):
                for ob in ("", " ORDER BY 1", " ORDER BY a DESC", " ORDER BY b, a LIMIT 4"):
                    yield f"SELECT a, b, c, d, e FROM t WHERE {col} IN {lst}{extra}{ob}"
    for lst in LISTS:
        yield f"SELECT * FROM u WHERE y IN {lst} ORDER BY rowid"
        yield f"SELECT * FROM u WHERE x IN {lst} AND y IN ('a','b') ORDER BY rowid"
        yield f"SELECT * FROM u WHERE x IN (1,2) AND y IN {lst} ORDER BY rowid"
        yield f"SELECT t.a, u.y FROM t, u WHERE t.b = u.x AND u.y IN {lst} ORDER BY 1, 2"
        yield f"SELECT t.a, u.y FROM t LEFT JOIN u ON u.x = t.b AND u.y IN {lst} ORDER BY 1, 2"
        yield f"SELECT count(*) FROM t WHERE b IN {lst} AND c IN {lst}"
        yield f"SELECT a FROM t WHERE b NOT IN {lst} ORDER BY 1"


def test_rows_match_sqlite3_in_order(cons):
    """Without ORDER BY the rows come in lookup order, which must be sqlite3's too."""
    ref, eng = cons
    bad = [q for q in _queries() if ref.execute(q).fetchall() != eng.execute(q).fetchall()]
    assert not bad, bad[:5]


def _plan(con, q):
    return [r[3] for r in con.execute("EXPLAIN QUERY PLAN " + q).fetchall()]


@pytest.mark.parametrize("q", [
    "SELECT * FROM t WHERE b IN (1, 2, 3)",
    "SELECT * FROM t WHERE a IN (1, 2)",
    "SELECT * FROM t WHERE c = 'x' AND d IN (1, 2)",
    "SELECT * FROM t WHERE c IN ('x', 'y') AND d IN (1, 2)",
    "SELECT * FROM t WHERE d NOT IN (1, 2)",
    "SELECT * FROM u WHERE y IN ('a', 'b')",
])
def test_plan_matches_sqlite3(cons, q):
    ref, eng = cons
    assert _plan(eng, q) == _plan(ref, q)


def test_each_value_is_one_lookup(cons):
    """The plan seeks the index once per value instead of scanning the table."""
    _ref, eng = cons
    ops = [r[1] for r in eng.execute("EXPLAIN SELECT * FROM t WHERE b IN (1, 2, 3)")]
    assert "OpenEphemeral" in ops and "SeekGE" in ops and "Rewind" in ops


def test_or_of_equalities_on_one_column_is_an_in_lookup(cons):
    """x = c1 OR x = c2 ... is looked up like x IN (c1, c2, ...) (SQLite's OR-to-IN), in
    the order sqlite3 gives, forwards and backwards."""
    ref, eng = cons
    bad = []
    for w in ("b = 1 OR b = 3", "b = 1 OR 3 = b OR b = '5'", "a = 5 OR a = 7 OR a = 5",
              "c = 'x' OR c = 'z'", "(b = 1 OR b = 2) AND d = 3.0", "b = 1 OR b = NULL"):
        for ob in ("", " ORDER BY a", " ORDER BY a DESC", " ORDER BY b DESC, a"):
            q = f"SELECT a, b, c, d FROM t WHERE {w}{ob}"
            if ref.execute(q).fetchall() != eng.execute(q).fetchall() or \
                    _plan(ref, q) != _plan(eng, q):
                bad.append(q)
    assert not bad, bad[:5]
