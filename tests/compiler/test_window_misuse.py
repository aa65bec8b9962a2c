"""Window calls where SQLite allows none, and the GROUP BY of a query with window calls,
against sqlite3. A window query's GROUP BY column numbers name its own result columns
(a star's columns included), not the inner query's (compiler/window.py); a number naming
a column with a window call is "misuse of window function f()" once every term resolved
(or "aggregate functions are not allowed" if the column calls an aggregate as well, with
no COLLATE on the number), its ORDER BY's numbers being checked first. A window call in
WHERE, HAVING, GROUP BY, LIMIT or a DML statement is SQLite's resolver error: "misuse of
window function f()" (the last one met), "f() may not be used as a window function" for
a scalar function, "no such function" for an unknown one."""

from __future__ import annotations

import pytest

SETUP = ["CREATE TABLE t(a, b)",
         "INSERT INTO t VALUES (3, 'x'), (1, 'X'), (2, 'y'), (1, 'w'), (4, 'z')"]

COLUMNS = ["a, max(b) OVER ()", "a, count(*) OVER ()", "a, row_number() OVER (ORDER BY b)",
           "a, b, row_number() OVER ()", "*, row_number() OVER ()",
           "a, *, sum(a) OVER ()", "t.*, a, t.*, sum(a) OVER ()",
           "a, max(b) OVER () + min(b) OVER ()", "a, max(b) OVER () + count(*)",
           "a, count(*) + max(b) OVER ()", "b, count(*), sum(count(*)) OVER ()"]
TERMS = ["1", "2", "3", "4", "5", "0", "-1", "2 COLLATE nocase", "+2", "(2) COLLATE nocase",
         "1 COLLATE nocase", "2, nosuch", "nosuch, 2", "7 ORDER BY 7", "2 ORDER BY 9",
         "1 ORDER BY 2", "2 HAVING nosuch"]
CASES = [f"SELECT {c} FROM t GROUP BY {g}" for c in COLUMNS for g in TERMS] + [
    "SELECT a FROM t WHERE max(b) OVER ()",
    "SELECT a FROM t WHERE max(b) OVER () + min(b) OVER ()",
    "SELECT a FROM t WHERE count(*) OVER w WINDOW w AS ()",
    "SELECT a FROM t WHERE abs(1) OVER ()",
    "SELECT a FROM t WHERE nosuchfn(1) OVER ()",
    "SELECT a FROM t WHERE max(b) OVER () AND nosuch",
    "SELECT a FROM t WHERE max(b) OVER () ORDER BY nosuch",
    "SELECT a FROM t GROUP BY a HAVING sum(a) OVER () > 1",
    "SELECT a FROM t GROUP BY a HAVING max(b) OVER () + sum(a)",
    "SELECT a FROM t GROUP BY max(b) OVER ()",
    "SELECT a FROM t GROUP BY a, row_number() OVER ()",
    "SELECT a FROM t LIMIT row_number() OVER ()",
    "UPDATE t SET a = max(b) OVER ()",
    "UPDATE t SET a = 1 WHERE max(b) OVER ()",
    "DELETE FROM t WHERE max(b) OVER ()",
    "INSERT INTO t VALUES (max(1) OVER (), 2)",
]


@pytest.mark.parametrize("sql", CASES)
def test_window_misuse_as_sqlite(pair, sql):
    assert pair.ours(sql) == pair.theirs(sql)
