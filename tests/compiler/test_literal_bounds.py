"""Integer literals at the edges of the 32- and 64-bit ranges, as values and as operands,
plain and negated: the compiled coder (``_codegen``) tells the ranges apart in C, so each
value must still be the one sqlite3 gives (its type and value, a REAL beyond 64 bits,
SQLite's error for a hex literal too big)."""

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

