"""Integer literals at the edges of the 32- and 64-bit ranges, as values and as operands,
plain and negated: the compiled coder (``_codegen``) tells the ranges apart in C, so each
value must still be the one sqlite3 gives (its type and value, a REAL beyond 64 bits,
SQLite's error for a hex literal too big) and each literal loaded by the opcode sqlite3's
EXPLAIN shows (codeInteger: an Integer for a literal written 0 to 2**31 - 1, negated or
not, an Int64 for any other, ``-2147483648`` and ``0xffffffffffffffff`` included; a Blob
with its length in P1)."""

from __future__ import annotations

import pytest

SETUP = ["CREATE TABLE t(a INTEGER)", "INSERT INTO t VALUES (1)"]

VALUES = [
    "0", "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967296",
    "9223372036854775807", "9223372036854775808", "9223372036854775809",
    "-9223372036854775807", "-9223372036854775808", "-9223372036854775809",
    "18446744073709551616", "0x7fffffff", "0x80000000", "0x7fffffffffffffff",
    "0x8000000000000000", "0xffffffffffffffff", "0x10000000000000000", "1.5", "-0.0",
    "1e300",
]
FORMS = [
    "SELECT {v}, typeof({v})",
    "SELECT -{v}, typeof(-{v})",
    "SELECT - - {v}, + - {v}",
    "SELECT {v} + a, a - {v}, {v} * 1 FROM t",
    "SELECT a FROM t WHERE a < {v}",
    "SELECT CASE a WHEN {v} THEN 1 ELSE 2 END, CASE WHEN a THEN {v} END FROM t",
    "SELECT coalesce(NULL, -{v}), iif(a, 0, -{v}) FROM t",
]
# (each statement spells its literal one way: of two different hex literals too big,
# SQLite reports the last one it codes and sqlengine the first)
CASES = [f.format(v=v) for f in FORMS for v in VALUES]


@pytest.mark.parametrize("sql", CASES)
def test_literal_as_sqlite(pair, sql):
    assert pair.ours(sql) == pair.theirs(sql)



_LOADS = ("Integer", "Int64", "Real", "Blob")


def _loads(rows):
    """The distinct literal loads of an EXPLAIN listing: (opcode, P1 of an Integer or a
    Blob, P4 of an Int64), sorted (the two engines may load them in another order, in
    another register, or, where SQLite loads an equal constant once, once more)."""
    return sorted({(r[1], r[2] if r[1] in ("Integer", "Blob") else None,
                    str(r[5]) if r[1] == "Int64" else None) for r in rows if r[1] in _LOADS})


@pytest.mark.parametrize("sql", [c for c in CASES if "0x10000000000000000" not in c
                                 and "0x8000000000000000" not in c and "--" not in c]
                         + ["SELECT x'00ff', x''", "SELECT a FROM t WHERE a = -0x1"])
def test_literal_opcode_as_sqlite(pair, sql):
    ours = [tuple(r) for r in pair.db.execute("EXPLAIN " + sql)]
    theirs = pair.ref.execute("EXPLAIN " + sql).fetchall()
    assert _loads(ours) == _loads(theirs)
