"""Which error a failing SELECT reports when several clauses have one: SQLite resolves a
core's result columns, HAVING, WHERE, ORDER BY (a result alias taken as it is, a column
number past 65535 refused at once, one past the result count once every term resolved),
then GROUP BY, then refuses a GROUP BY term that calls an aggregate of the query, also
through a subquery (``GROUP BY (SELECT sum(a))``, ``a`` the query's column:
compiler/resolve_order.py ``first_error``)."""

from __future__ import annotations

import pytest

SETUP = ["CREATE TABLE t(a, b)", "INSERT INTO t VALUES (1, 2), (3, 4)", "CREATE TABLE u(c)"]

GROUP = ["sum(a)", "(SELECT sum(a))", "(SELECT sum(a) FROM u)",
         "(SELECT max(c) FROM u WHERE c = sum(a))", "nosuch", "1", "3",
         "a + (SELECT count(*))", "(SELECT 1 FROM u GROUP BY sum(a))"]
ORDER = ["nosuch", "5", "sum(a)", "(SELECT sum(a))", "nosuchf(1)", "a", "t.nosuch"]
WHERE = ["nosuch2", "sum(a)", "1"]
HAVING = ["nosuch3", "sum(a)", "1", "(SELECT sum(a))"]
CASES = []
for g in GROUP:
    CASES += [f"SELECT a FROM t GROUP BY {g} ORDER BY {o}" for o in ORDER]
    CASES += [f"SELECT a FROM t WHERE {w} GROUP BY {g}" for w in WHERE]
    for h in HAVING:
        CASES += [f"SELECT a FROM t GROUP BY {g} HAVING {h}",
                  f"SELECT a FROM t GROUP BY {g} HAVING {h} ORDER BY nosuch"]
    CASES += [f"SELECT nosuch0 FROM t GROUP BY {g}", f"SELECT {g} FROM t GROUP BY nosuch"]
for o in ORDER:
    for h in HAVING:
        CASES += [f"SELECT a FROM t GROUP BY a HAVING {h} ORDER BY {o}",
                  f"SELECT a FROM t HAVING {h} ORDER BY {o}"]
    CASES += [f"SELECT sum(a) FROM t WHERE sum(b) ORDER BY {o}",
              f"SELECT (SELECT sum(a)) FROM t GROUP BY nosuch ORDER BY {o}",
              f"SELECT a FROM t UNION SELECT b FROM t GROUP BY sum(b) ORDER BY {o}"]
for o in ["5, nosuch", "nosuch, 5", "0, nosuch", "70000, nosuch", "x, nosuch",
          "x COLLATE nocase, sum(a)", "X", "1, 2", "2", "-1", "a, 3"]:
    for g in ["sum(a)", "(SELECT sum(a))", "nosuch2", "a"]:
        CASES += [f"SELECT a AS x FROM t GROUP BY {g} ORDER BY {o}",
                  f"SELECT a AS x, b FROM t WHERE nosuch3 GROUP BY {g} ORDER BY {o}"]
    CASES += [f"SELECT a AS x FROM t ORDER BY {o}",
              f"SELECT (SELECT a AS x FROM t GROUP BY (SELECT sum(a)) ORDER BY {o}) FROM t AS o2",
              f"SELECT * FROM t WHERE a IN (SELECT a AS x FROM t GROUP BY (SELECT sum(a))"
              f" ORDER BY {o})"]


@pytest.mark.parametrize("sql", CASES)
def test_clause_errors_in_sqlite_order(pair, sql):
    assert pair.ours(sql) == pair.theirs(sql)


LIMITS = ["SELECT a FROM t ORDER BY x2 LIMIT x1", "SELECT a FROM t ORDER BY x2 LIMIT 1 OFFSET x1",
          "SELECT nosuch FROM t LIMIT x1", "SELECT a FROM t GROUP BY sum(a) LIMIT a",
          "SELECT a FROM t LIMIT nosuchf(1) OFFSET x", "SELECT a FROM t WHERE x3 LIMIT 1 OFFSET x",
          "SELECT a FROM t ORDER BY x2 LIMIT 1", "SELECT a FROM t LIMIT a",
          "UPDATE t SET b = 1 WHERE 1 ORDER BY x2 LIMIT x1",
          "DELETE FROM t WHERE x9 ORDER BY x2 LIMIT x1"]


@pytest.mark.parametrize("sql", LIMITS)
def test_limit_resolved_first(pair, sql):
    """LIMIT and OFFSET are resolved before the rest, with no names to see."""
    assert pair.ours(sql) == pair.theirs(sql)


def _with_window(sql):
    """``sql`` with a window call added to its result list (compiler/window.py's path)."""
    if sql.startswith("SELECT a AS x"):
        return sql.replace("SELECT a AS x", "SELECT a AS x, row_number() OVER ()", 1)
    if sql.startswith("SELECT a FROM"):
        return sql.replace("SELECT a FROM", "SELECT a, sum(b) OVER (ORDER BY b) FROM", 1)
    return sql.replace("SELECT ", "SELECT rank() OVER (), ", 1)


WINDOW_CASES = [_with_window(c) for c in CASES + LIMITS if c.startswith("SELECT ")] + [
    "SELECT a, sum(sum(b)) OVER () FROM t HAVING 1",
    "SELECT a, row_number() OVER (ORDER BY sum(a)) FROM t HAVING 1",
    "SELECT a, row_number() OVER (ORDER BY sum(a)) FROM t",
    "SELECT sum(a), row_number() OVER () FROM t HAVING 1",
    "SELECT a, row_number() OVER () FROM t ORDER BY sum(a) OVER ()",
    "SELECT a, row_number() OVER () FROM t ORDER BY 1 + sum(a)",
    "SELECT a, row_number() OVER () FROM t ORDER BY sum(sum(a)) OVER ()",
    "SELECT a, upper(a) OVER () FROM t ORDER BY nosuch",
    "SELECT a, nosuchf(a) OVER () FROM t ORDER BY 7",
    "SELECT a, row_number() OVER () FROM t ORDER BY upper(b) OVER (), 9",
    "SELECT a, row_number() FILTER (WHERE 1) OVER () FROM t ORDER BY nosuch",
    "SELECT a, sum(b) OVER (PARTITION BY nosuch) FROM t ORDER BY 7"]


@pytest.mark.parametrize("sql", WINDOW_CASES)
def test_window_query_errors_in_sqlite_order(pair, sql):
    """The same with a window call: compile_window_select's errors go through
    first_error too, window calls allowed in the result list and ORDER BY."""
    assert pair.ours(sql) == pair.theirs(sql)
