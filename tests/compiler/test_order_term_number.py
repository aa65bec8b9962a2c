"""ORDER BY and GROUP BY terms that are column numbers, as SQLite's sqlite3ExprIsInteger
reads them (compiler/expr.py ``term_number``): an integer literal written 0 to 2**31 - 1,
also in parentheses, under a unary + or - (``-1`` is out of range) or with a COLLATE; a
literal of 2147483648 or more (0x80000000, 0xffffffffffffffff: -1 as a value) is a
constant expression, which orders nothing, and a hex literal too big fails as such. The
rows are stored out of order so that a sort shows. A GROUP BY term that names a result
column by number or alias under a COLLATE groups with that collation; when the column
calls an aggregate, SQLite's resolver does not flag such a term (nor ``alias + 1``) and
its coder fails with "misuse of aggregate: f()" (the last call coded), where a bare
number or alias is "aggregate functions are not allowed in the GROUP BY clause"."""

from __future__ import annotations

import pytest

SETUP = ["CREATE TABLE t(a, b)",
         "INSERT INTO t VALUES (3, 'x'), (1, 'z'), (2, 'y'), (1, 'w'), (4, 'X'), (5, 'Z')"]

TERMS = ["1", "2", "+1", "+2", "-1", "- 2", "(2)", "+(2)", "0", "3", "2147483647",
         "2147483648", "0x1", "0x2", "0x7fffffff", "0x80000000", "0xffffffffffffffff",
         "-0x1", "0x1ffffffffffffffff", "2 COLLATE nocase", "+2 DESC", "true", "1.0",
         "'2'", "-2147483648"]
FORMS = [
    "SELECT a, b FROM t ORDER BY {v}",
    "SELECT a, b FROM t ORDER BY {v} DESC, 1",
    "SELECT a, b, count(*) FROM t GROUP BY {v} ORDER BY 1, 2",
    "SELECT a, b FROM t UNION ALL SELECT b, a FROM t ORDER BY {v}",
    "WITH RECURSIVE c(x, y) AS (SELECT 5, 'q' UNION ALL SELECT x - 1, y FROM c WHERE x > 0"
    " ORDER BY {v}) SELECT x FROM c",
]
CASES = [f.format(v=v) for f in FORMS for v in TERMS]


@pytest.mark.parametrize("sql", CASES)
def test_order_term_number_as_sqlite(pair, sql):
    assert pair.ours(sql) == pair.theirs(sql)


GROUP_COLUMNS = ["b", "b AS c", "count(*)", "count(*) AS c", "sum(a) + max(b)",
                 "coalesce(sum(a), max(b))", "max(a, count(*))", "count(*) FILTER (WHERE a > 1)",
                 "CASE WHEN a THEN sum(a) ELSE count(*) END", "sum(a) BETWEEN count(*) AND 3"]
GROUP_TERMS = ["2", "2 COLLATE nocase", "+2 COLLATE nocase", "(2) COLLATE nocase",
               "(2 COLLATE nocase)", "2 COLLATE nocase COLLATE binary", "1, 2 COLLATE nocase",
               "2 COLLATE nocase, count(*)", "c", "c COLLATE nocase", "c + 1", "(c)"]
GROUP_CASES = [f"SELECT a, {col}, count(*) FROM t GROUP BY {term} ORDER BY 1, 2"
               for col in GROUP_COLUMNS for term in GROUP_TERMS] + [
    "SELECT a, count(*) FROM t GROUP BY 2 COLLATE nocase UNION SELECT 1, 2",
    "SELECT 1, 2 UNION SELECT a, count(*) FROM t GROUP BY 2 COLLATE nocase",
    "SELECT a, count(*) FROM t WHERE 0 GROUP BY 2 COLLATE nocase",
    "SELECT a, count(*) FROM t GROUP BY 2 COLLATE nocase HAVING nosuch",
    "SELECT a, count(*) FROM t WHERE nosuch GROUP BY 2 COLLATE nocase",
    "SELECT (SELECT a, count(*) FROM t GROUP BY 2 COLLATE nocase)",
    "SELECT b, count(*) FROM t GROUP BY 1 COLLATE nocase ORDER BY 1 COLLATE nocase",
]


@pytest.mark.parametrize("sql", GROUP_CASES)
def test_group_term_number_collate_as_sqlite(pair, sql):
    assert pair.ours(sql) == pair.theirs(sql)
