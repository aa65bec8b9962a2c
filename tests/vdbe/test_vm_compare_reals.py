"""The comparison opcodes' shortcut for two reals (compared as doubles under every
comparison affinity but TEXT, which turns both into text first): every operator over
columns of each affinity holding reals, integers and text, against sqlite3."""

from __future__ import annotations

import itertools

import pytest


VALUES = [0.0, -0.0, 0.5, -0.5, 1.0, 1.5, 10.0, 9.5, 1e15, 1e16, 1.0e308, -1.0e308,
          float("inf"), float("-inf"), 2.0 ** 63, -(2.0 ** 63), 1e-300, 100, "9.5", "10.0",
          None]
COLUMNS = ["i", "t", "r", "n", "b"]  # INTEGER, TEXT, REAL, NUMERIC, no affinity
OPERANDS = COLUMNS + ["9.5", "'9.5'", "CAST(t AS REAL)", "+r", "r * 1.0", "1e308 * 10"]
OPS = ["=", "<>", "<", "<=", ">", ">="]


def fill(con):
    con.execute("CREATE TABLE v(i INTEGER, t TEXT, r REAL, n NUMERIC, b)")
    con.executemany("INSERT INTO v VALUES (?, ?, ?, ?, ?)", [(x,) * 5 for x in VALUES])


@pytest.mark.parametrize("op", OPS)
def test_real_comparisons_match_sqlite3(pair, op):
    ours, theirs = pair
    exprs = [f"{a} {op} {b}" for a, b in itertools.product(OPERANDS, COLUMNS)]
    sql = f"SELECT {', '.join(exprs)} FROM v ORDER BY rowid"
    assert ours.execute(sql).fetchall() == theirs.execute(sql).fetchall()
    for e in exprs:
        q = f"SELECT rowid FROM v AS x WHERE {e} ORDER BY rowid"
        assert ours.execute(q).fetchall() == theirs.execute(q).fetchall(), e


def test_reals_under_text_affinity_compare_as_text(pair):
    ours, theirs = pair
    # a REAL against a TEXT column: TEXT affinity renders both, '10.0' < '9.5'
    sql = ("SELECT t < 9.5, t > 9.5, t = 10.0, 10.0 > t, t >= r FROM v "
           "WHERE typeof(r) = 'real' ORDER BY rowid")
    assert ours.execute(sql).fetchall() == theirs.execute(sql).fetchall()
