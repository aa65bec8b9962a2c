"""An INTEGER compared with a REAL (the comparison opcodes' exact int/real shortcut and
_values.compare's): every operator, both operand orders, under numeric, BLOB and no
affinity, and the total order of ORDER BY, min/max and DISTINCT over mixed columns, with
integers and reals on both sides of 2**53 and at the ends of the 64-bit range, against
sqlite3."""

from __future__ import annotations

import itertools

import pytest

INTS = [0, 1, -1, 7, 2**53, 2**53 + 1, -(2**53) - 1, 2**62, 2**62 + 1, 2**63 - 1, -(2**63),
        -(2**63) + 1, 9007199254740993]
REALS = [0.0, -0.0, 0.5, -0.5, 7.0, 6.999999999999999, 2.0**53, 2.0**53 + 2, -(2.0**53) - 2,
         2.0**62, 2.0**63, -(2.0**63), 9.2e18, -9.2e18, 1e300, float("inf"), float("-inf")]
OPS = ["=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT"]


def fill(con):
    # i INTEGER, r REAL, n NUMERIC, b without affinity; x/y no affinity holding one of each
    con.execute("CREATE TABLE v(i INTEGER, r REAL, n NUMERIC, b, x, y)")
    con.executemany("INSERT INTO v VALUES (?, ?, ?, ?, ?, ?)",
                    [(i, r, i, r, i, r) for i, r in itertools.product(INTS, REALS)])


@pytest.mark.parametrize("op", OPS)
def test_int_against_real_every_operator(pair, op):
    ours, theirs = pair
    exprs = [f"{a} {op} {b}" for a, b in [("i", "r"), ("r", "i"), ("n", "b"), ("b", "n"),
                                          ("x", "y"), ("y", "x"), ("i", "2.5"), ("7.0", "i"),
                                          ("x", "9007199254740992.0")]]
    sql = f"SELECT {', '.join(exprs)} FROM v ORDER BY rowid"
    assert ours.execute(sql).fetchall() == theirs.execute(sql).fetchall()
    for e in exprs:
        q = f"SELECT rowid FROM v WHERE {e} ORDER BY rowid"
        assert ours.execute(q).fetchall() == theirs.execute(q).fetchall(), e


def test_mixed_column_total_order(pair):
    ours, theirs = pair
    for sql in ["SELECT x FROM v UNION ALL SELECT y FROM v ORDER BY 1",
                "SELECT DISTINCT z FROM (SELECT x AS z FROM v UNION ALL SELECT y FROM v) "
                "ORDER BY z DESC",
                "SELECT min(x, y), max(x, y) FROM v ORDER BY rowid",
                "SELECT i, r FROM v ORDER BY max(i, r), rowid"]:
        assert ours.execute(sql).fetchall() == theirs.execute(sql).fetchall(), sql
