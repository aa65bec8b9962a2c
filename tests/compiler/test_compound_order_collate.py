"""A compound's ORDER BY term matches a result column written with COLLATE: SQLite's
resolveCompoundOrderBy compares the term, resolved in each SELECT of the compound (the
last first), with its result expressions by sqlite3ExprCompare, which takes an expression
under COLLATE for the expression itself; the order is then the matched column's
(compiler/select.py ``_arm_order_match``). Differential against sqlite3."""

from __future__ import annotations

import pytest

SETUP = ["CREATE TABLE t(a, b)", "INSERT INTO t VALUES ('x', 1), ('X', 2), ('y', 3), ('Y', 0)",
         "CREATE TABLE u(c, d)", "INSERT INTO u VALUES ('z', 5), ('x', 1)"]

FIRST = ["a COLLATE nocase", "t.a COLLATE nocase", "(a) COLLATE nocase",
         "a COLLATE nocase COLLATE binary", "a COLLATE rtrim", "a COLLATE nocase AS z",
         "a", "upper(a) COLLATE nocase"]
CASES = []
for f in FIRST:
    for op in ("UNION", "UNION ALL", "INTERSECT", "EXCEPT"):
        CASES.append(f"SELECT {f} FROM t {op} SELECT c FROM u ORDER BY a")
    CASES += [f"SELECT {f}, b FROM t UNION SELECT c, d FROM u ORDER BY a DESC, 2",
              f"SELECT {f} FROM t UNION ALL SELECT c FROM u ORDER BY a COLLATE binary",
              f"SELECT {f} FROM t UNION SELECT c FROM u ORDER BY upper(a)",
              f"SELECT c FROM u UNION SELECT {f} FROM t ORDER BY a",
              f"SELECT c FROM u UNION SELECT {f} FROM t ORDER BY c",
              f"SELECT b, {f} FROM t UNION ALL SELECT d, c FROM u ORDER BY a LIMIT 3"]


@pytest.mark.parametrize("sql", CASES)
def test_compound_order_by_collated_column(pair, sql):
    assert pair.ours(sql) == pair.theirs(sql)
