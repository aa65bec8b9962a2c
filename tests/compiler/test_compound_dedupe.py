"""Which row of a group of equal values a compound keeps, and what its arms' DISTINCT does,
as in SQLite (compiler/select.py ``_code_compound``):

- a compound with a UNION, EXCEPT or INTERSECT whose ORDER BY names a collation is, in
  SQLite, a subquery read in that order (convertCompoundSelectToSubquery): its rows are
  deduplicated as without ORDER BY (a later equal row replaces an earlier one), not by the
  merge of sorted arms (which keeps the first), then sorted;
- without ORDER BY (or so converted), an arm whose rows go into the compound's set (every
  arm up to the last UNION, EXCEPT or INTERSECT) drops its DISTINCT (SQLite's
  IgnorableDistinct): the set deduplicates them under the compound's collation, where the
  arm's own DISTINCT would under its column's (``SELECT DISTINCT c`` of a NOCASE c).

Differential against sqlite3: rows, and EXPLAIN QUERY PLAN's lines."""

from __future__ import annotations

import pytest

SETUP = ["CREATE TABLE t(a, b)",
         "INSERT INTO t VALUES ('x', 1), ('X', 2), ('y', 3), ('Y', 0), ('x', 1)",
         "CREATE TABLE u(c COLLATE nocase, d)",
         "INSERT INTO u VALUES ('x', 5), ('X', 1), ('z', 4), ('Z', 9)"]

ORDERED = []
for first, second in [("SELECT a FROM t", "SELECT c FROM u"), ("SELECT c FROM u", "SELECT a FROM t"),
                      ("SELECT a COLLATE nocase FROM t", "SELECT c FROM u"),
                      ("SELECT DISTINCT c FROM u", "SELECT a FROM t")]:
    for op in ("UNION", "UNION ALL", "EXCEPT", "INTERSECT"):
        for order in ("1 COLLATE binary", "1 COLLATE nocase", "1 COLLATE rtrim DESC", "1",
                      "1 COLLATE binary LIMIT 2", "1 COLLATE binary LIMIT 1 OFFSET 1"):
            ORDERED.append(f"{first} {op} {second} ORDER BY {order}")
ORDERED += [
    "SELECT c FROM u UNION SELECT a FROM t UNION SELECT 'Y' ORDER BY 1 COLLATE binary",
    "SELECT c FROM u UNION ALL SELECT a FROM t UNION SELECT 'Y' ORDER BY 1 COLLATE binary",
    "SELECT c FROM u UNION SELECT a FROM t UNION ALL SELECT 'Y' ORDER BY 1 COLLATE binary",
    "SELECT a COLLATE nocase FROM t UNION SELECT c FROM u ORDER BY a COLLATE binary",
    "SELECT c FROM u UNION SELECT a FROM t ORDER BY c COLLATE binary",
    "SELECT c FROM u UNION SELECT a FROM t ORDER BY (1) COLLATE binary",
    "SELECT c FROM u UNION SELECT a FROM t ORDER BY 1 COLLATE binary, 1",
    "SELECT c, d FROM u UNION SELECT a, b FROM t ORDER BY 2, 1 COLLATE binary",
    "SELECT * FROM (SELECT c FROM u UNION SELECT a FROM t ORDER BY 1 COLLATE binary)",
    "SELECT max(a) FROM t UNION SELECT c FROM u ORDER BY 1 COLLATE binary",
]

ARMS = ["SELECT DISTINCT a FROM t", "SELECT a FROM t", "SELECT DISTINCT c FROM u",
        "SELECT c FROM u", "SELECT DISTINCT b FROM t"]
DISTINCT = []
for x in ARMS:
    for y in ARMS:
        if "DISTINCT" not in x + y or ("b" in x) != ("b" in y):
            continue
        for op in ("UNION", "UNION ALL", "EXCEPT", "INTERSECT"):
            DISTINCT += [f"{x} {op} {y}", f"{x} {op} {y} UNION ALL SELECT 'Y'",
                         f"{x} {op} {y} UNION SELECT 'Y'", f"{x} UNION ALL {y} {op} SELECT 'Y'",
                         f"{x} {op} {y} LIMIT 2", f"{x} {op} {y} ORDER BY 1",
                         f"SELECT * FROM ({x} {op} {y})"]
DISTINCT = [q for q in DISTINCT if "b" not in q or "'Y'" not in q]


@pytest.mark.parametrize("sql", ORDERED)
def test_compound_order_by_collation_dedupes_as_unordered(pair, sql):
    assert pair.ours(sql) == pair.theirs(sql)


@pytest.mark.parametrize("sql", DISTINCT)
def test_distinct_arm_of_a_set(pair, sql):
    assert pair.ours(sql) == pair.theirs(sql)


@pytest.mark.parametrize("sql", [q for q in DISTINCT if "FROM (" not in q
                                 and "ORDER BY" not in q])  # (SQLite's MERGE plan aside)
def test_distinct_arm_plan(pair, eqp, sql):
    assert eqp(pair.db, sql) == eqp(pair.ref, sql)
