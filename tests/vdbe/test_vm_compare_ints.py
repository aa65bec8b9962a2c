"""The comparison opcodes' shortcut for two integers (compared as they are under every
comparison affinity but TEXT, which turns both into text first): every operator over
columns of each affinity, literals, CAST results and boundary integers, as a value and as
a WHERE filter, against sqlite3."""

from __future__ import annotations

import itertools

import pytest


VALUES = [0, 1, -1, 9, 10, 100, 2 ** 62, -(2 ** 63), 2 ** 63 - 1, 1.0, 9.5, "9", "10", "abc",
          None, b"\x01"]
COLUMNS = ["i", "t", "r", "n", "b"]  # INTEGER, TEXT, REAL, NUMERIC, no affinity
OPERANDS = COLUMNS + ["10", "'10'", "CAST(t AS INTEGER)", "+i", "i + 0", "-9223372036854775808"]
OPS = ["=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT"]


def fill(con):
    con.execute("CREATE TABLE v(i INTEGER, t TEXT, r REAL, n NUMERIC, b)")
    con.executemany("INSERT INTO v VALUES (?, ?, ?, ?, ?)", [(x,) * 5 for x in VALUES])


@pytest.mark.parametrize("op", OPS)
def test_comparisons_match_sqlite3(pair, op):
    ours, theirs = pair
    exprs = [f"{a} {op} {b}" for a, b in itertools.product(OPERANDS, COLUMNS)]
    sql = f"SELECT {', '.join(exprs)} FROM v ORDER BY rowid"
    assert ours.execute(sql).fetchall() == theirs.execute(sql).fetchall()
    for e in exprs:
        q = f"SELECT rowid FROM v AS x WHERE {e} ORDER BY rowid"
        assert ours.execute(q).fetchall() == theirs.execute(q).fetchall(), e


def test_integers_under_text_affinity_compare_as_text(pair):
    ours, theirs = pair
    # an INTEGER value against a TEXT column: TEXT affinity makes '10' < '9'
    sql = ("SELECT t < 9, t > 9, t = 10, 10 > t FROM v WHERE i IN (9, 10, 100) "
           "ORDER BY rowid")
    assert ours.execute(sql).fetchall() == theirs.execute(sql).fetchall()
