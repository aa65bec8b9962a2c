"""EXPLAIN lists the program with SQLite's columns; EXPLAIN QUERY PLAN names the access
path the planner chose (the same words as sqlite3's for these simple cases)."""

import sqlite3

from sqlengine.database import Database


def _rows(db, sql):
    st, _ = db.prepare(sql)
    out = []
    while True:
        r = st.step()
        if r is None:
            break
        out.append(r)
    return st, out


def test_explain_columns_and_first_instruction():
    db = Database(":memory:")
    st, rows = _rows(db, "EXPLAIN SELECT 1")
    assert st.column_names == ["addr", "opcode", "p1", "p2", "p3", "p4", "p5", "comment"]
    assert rows[0][:2] == (0, "Init")
    assert any(r[1] == "ResultRow" for r in rows)
    assert rows[-1][1] == "Goto"


def _plan(con_rows):
    return [r[3] for r in con_rows]


def test_query_plan_matches_sqlite3_for_simple_lookups():
    setup = ["CREATE TABLE t(a INTEGER PRIMARY KEY, b, c)", "CREATE INDEX tb ON t(b)"]
    ref = sqlite3.connect(":memory:")
    db = Database(":memory:")
    for s in setup:
        ref.execute(s)
        db.execute(s)
    for q in ["SELECT c FROM t WHERE b = 5", "SELECT c FROM t WHERE a = 5",
              "SELECT c FROM t"]:
        expected = [d for d in _plan(ref.execute("EXPLAIN QUERY PLAN " + q).fetchall())]
        _st, got = _rows(db, "EXPLAIN QUERY PLAN " + q)
        got = _plan(got)
        # sqlite3 also prints the key terms: compare the access path words
        assert [g.split(" (")[0] for g in got] == [e.split(" (")[0] for e in expected], q
