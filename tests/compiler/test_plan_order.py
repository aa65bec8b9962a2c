"""ORDER BY answered by the loops (no sort): rowid and index order, forwards and backwards
(DESC), with equality prefixes, ranges and LIMIT/OFFSET, checked row for row against
sqlite3 (ties included: the plan decides their order), and the EXPLAIN QUERY PLAN lines
that say whether a temporary b-tree sorts the rows."""

from __future__ import annotations

import random
import sqlite3

import pytest

import sqlengine

DDL = [
    "CREATE TABLE t(a INTEGER PRIMARY KEY, b INT, c TEXT, d REAL)",
    "CREATE INDEX tb ON t(b)",
    "CREATE INDEX tcd ON t(c, d DESC)",
    "CREATE INDEX tdb ON t(d, b)",
]

WHERES = ["", " WHERE b=2", " WHERE b>2", " WHERE b<5", " WHERE b BETWEEN 2 AND 5",
          " WHERE a>10 AND a<=40", " WHERE a<30", " WHERE a>=20", " WHERE a>12.5 AND a<33.5",
          " WHERE c='y'", " WHERE c='y' AND d>1.5", " WHERE c='x' AND d<3", " WHERE c>'x'",
          " WHERE d>=2.5", " WHERE d<2.9", " WHERE d = 1.5 AND b > 1", " WHERE b<NULL",
          " WHERE a>NULL"]


@pytest.fixture(scope="module")
def cons():
    rng = random.Random(7)
    rows = [(i, rng.choice([None, 1, 2, 3, 5, 8]), rng.choice([None, "x", "y", "z"]),
             rng.choice([None, 1.5, 2.5, 3.0])) for i in range(1, 70)]
    out = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        for d in DDL:
            con.execute(d)
        con.executemany("INSERT INTO t VALUES(?,?,?,?)", rows)
        out.append(con)
    yield out
    for con in out:
        con.close()


def _queries():
    for col in ("a", "b", "c", "d"):
        for dirn in ("", " DESC"):
            other = "" if dirn else " DESC"
            for w in WHERES:
                for lim in ("", " LIMIT 3", " LIMIT 2 OFFSET 3"):
                    yield f"SELECT a, b, c, d FROM t{w} ORDER BY {col}{dirn}{lim}"
                    yield f"SELECT {col} FROM t{w} ORDER BY {col}{dirn}, a{dirn}{lim}"
                    yield f"SELECT a FROM t{w} ORDER BY {col}{dirn}, a{other}{lim}"
                    yield f"SELECT d FROM t{w} ORDER BY c{dirn}, d{dirn}{lim}"
                    yield f"SELECT d FROM t{w} ORDER BY c{dirn}, d{other}{lim}"


def test_rows_and_their_order_match_sqlite3(cons):
    ref, eng = cons
    bad = []
    for q in _queries():
        want = ref.execute(q).fetchall()
        got = eng.execute(q).fetchall()
        if want != got:
            bad.append(q)
    assert not bad, bad[:5]


def _temp_lines(con, q):
    return [r[3] for r in con.execute("EXPLAIN QUERY PLAN " + q).fetchall()
            if r[3].startswith("USE TEMP B-TREE")]


@pytest.mark.parametrize("q", [
    "SELECT * FROM t ORDER BY a DESC",
    "SELECT * FROM t ORDER BY b",
    "SELECT * FROM t WHERE b = 3 ORDER BY a DESC",
    "SELECT * FROM t WHERE c = 'x' ORDER BY d DESC",
    "SELECT * FROM t WHERE c = 'x' ORDER BY d",
    "SELECT * FROM t ORDER BY c, b",
    "SELECT * FROM t WHERE c = 'x' ORDER BY d, b",
    "SELECT * FROM t ORDER BY b + 1",
    "SELECT b + 1, count(*) FROM t GROUP BY b + 1 ORDER BY 2",
])
def test_temp_btree_lines_match_sqlite3(cons, q):
    ref, eng = cons
    assert _temp_lines(eng, q) == _temp_lines(ref, q)


def test_order_by_limit_stops_the_scan(cons):
    """With the order delivered by the index, LIMIT ends the loop (no sorter opened)."""
    _ref, eng = cons
    ops = [r[1] for r in eng.execute("EXPLAIN SELECT * FROM t ORDER BY b DESC LIMIT 2")]
    assert "SorterOpen" not in ops and "Prev" in ops and "DecrJumpZero" in ops


def test_ranges_on_a_desc_index_column_match_sqlite3():
    """A range on a DESC index column (scanned from its upper bound down, NULLs last),
    alone and after an equality, forwards and backwards."""
    rng = random.Random(11)
    rows = [(i, rng.choice([None, 1, 2, 3]), rng.choice([None, -2, 0, 1.5, 3, 4, 7, "a"]))
            for i in range(1, 90)]
    cons = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.execute("CREATE TABLE s(a INTEGER PRIMARY KEY, k INT, v INT)")
        con.execute("CREATE INDEX sv ON s(v DESC)")
        con.execute("CREATE INDEX skv ON s(k, v DESC)")
        con.executemany("INSERT INTO s VALUES(?,?,?)", rows)
        cons.append(con)
    bad = []
    for rng_term in ("v > 1", "v >= 1.5", "v < 3", "v <= 3", "v > 0 AND v < 4",
                     "v >= 0 AND v <= 4", "v BETWEEN -2 AND 3", "v > 'a'", "v < NULL"):
        for pre in ("", "k = 2 AND "):
            for tail in ("", " ORDER BY v", " ORDER BY v DESC", " ORDER BY v DESC LIMIT 3"):
                q = f"SELECT a, k, v FROM s WHERE {pre}{rng_term}{tail}"
                want, got = (c.execute(q).fetchall() for c in cons)
                plans = [[r[3] for r in c.execute("EXPLAIN QUERY PLAN " + q)] for c in cons]
                if want != got or plans[0] != plans[1]:
                    bad.append(q)
    for con in cons:
        con.close()
    assert not bad, bad[:5]


def test_min_max_and_count_read_one_end_of_an_index():
    """min()/max() of a whole table from one end of an index (the first entry past the
    NULLs, or the last; mirrored for a DESC column), count(*) from the smallest index;
    the values (REAL affinity included) and the plan lines as sqlite3's."""
    rng = random.Random(5)
    ddl = ["CREATE TABLE t(a INTEGER PRIMARY KEY, b INT, c TEXT, d REAL, e)",
           "CREATE INDEX tb ON t(b)", "CREATE INDEX tcd ON t(c, d)", "CREATE INDEX td ON t(d DESC)"]
    qs = ["SELECT max(a) FROM t", "SELECT min(a) FROM t", "SELECT min(b) FROM t",
          "SELECT max(b) + 1 FROM t", "SELECT min(c) FROM t", "SELECT max(c) FROM t",
          "SELECT min(d) FROM t", "SELECT max(d) FROM t", "SELECT count(*) FROM t",
          "SELECT typeof(min(d)), typeof(max(d)) FROM t", "SELECT min(b), max(b) FROM t"]
    cons = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        for d in ddl:
            con.execute(d)
        cons.append(con)
    bad = []
    for _ in range(3):
        for q in qs:
            want, got = (c.execute(q).fetchall() for c in cons)
            plans = [[r[3] for r in c.execute("EXPLAIN QUERY PLAN " + q)] for c in cons]
            if want != got or plans[0] != plans[1]:
                bad.append((q, want, got, plans))
        rows = [(None if rng.random() < 0.3 else rng.randint(-5, 5),
                 rng.choice([None, "a", "B", 3, 2.5]), rng.choice([None, 1.0, 2.5, -3.0, 7]),
                 rng.choice([None, "x", 1])) for _ in range(6)]
        for con in cons:
            con.executemany("INSERT INTO t(b, c, d, e) VALUES(?,?,?,?)", rows)
    for con in cons:
        con.close()
    assert not bad, bad[:3]
