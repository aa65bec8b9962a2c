"""Two INTEGERs compared by the comparison opcodes (their C shortcut for integers that fit in
64 bits, the Python comparison otherwise): every operator, both operand orders, columns of
INTEGER, NUMERIC and no affinity, literals, in SELECT lists, WHERE and jumps of a loop, with
values at the ends of the 64-bit range, around 2**31 and 2**62, and equal pairs, against
sqlite3."""

from __future__ import annotations

import itertools

import pytest

INTS = [0, 1, -1, 2, -2, 2**31 - 1, 2**31, -(2**31), 2**62, 2**62 + 1, -(2**62),
        2**63 - 1, 2**63 - 2, -(2**63), -(2**63) + 1]
OPS = ["=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT"]


def fill(con):
    # a INTEGER, n NUMERIC, x without affinity; b/y the second operand of each pair
    con.execute("CREATE TABLE v(a INTEGER, n NUMERIC, x, b INTEGER, y)")
    con.executemany("INSERT INTO v VALUES (?, ?, ?, ?, ?)",
                    [(i, i, i, j, j) for i, j in itertools.product(INTS, INTS)])


@pytest.mark.parametrize("op", OPS)
def test_int_against_int_every_operator(pair, op):
    ours, theirs = pair
    exprs = [f"{a} {op} {b}" for a, b in [("a", "b"), ("b", "a"), ("n", "y"), ("y", "n"),
                                          ("x", "y"), ("a", "9223372036854775807"),
                                          ("-9223372036854775808", "x"), ("a", "-1")]]
    sql = f"SELECT {', '.join(exprs)} FROM v ORDER BY rowid"
    assert ours.execute(sql).fetchall() == theirs.execute(sql).fetchall()
    for e in exprs:
        q = f"SELECT rowid FROM v WHERE {e} ORDER BY rowid"
        assert ours.execute(q).fetchall() == theirs.execute(q).fetchall(), e


def test_int_order_and_ranges(pair):
    ours, theirs = pair
    for sql in ["SELECT a, b FROM v ORDER BY a, b DESC",
                "SELECT count(*) FROM v WHERE a BETWEEN b AND 9223372036854775807",
                "SELECT max(a), min(b) FROM v WHERE a < b",
                "SELECT a FROM v WHERE a IN (SELECT b FROM v WHERE b > 0) ORDER BY 1"]:
        assert ours.execute(sql).fetchall() == theirs.execute(sql).fetchall(), sql
