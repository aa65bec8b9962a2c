"""The expression, row-value, window, CTE, DDL and trigger coders reach the modules that
import them (select.py, and through it these) by module-level imports, some bound at the
end of the module (a function-level import cost every subquery, EXISTS, IN, window query
or trigger coded); each must still import first, in a fresh interpreter, and the
statements that use those paths must run."""

import sqlite3
import subprocess
import sys

import pytest

MODULES = ["expr", "rowvalue", "window", "cte", "ddl", "trigger", "select", "aggscope",
           "statement"]

STATEMENTS = [
    "CREATE TABLE t(a INTEGER PRIMARY KEY, b, c)",
    "CREATE TABLE log(x)",
    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.b); END",
    "CREATE VIEW v AS SELECT a, b FROM t WHERE b > 1",
    "CREATE INDEX tb ON t(b)",
    "INSERT INTO t(b, c) VALUES (1, 'x'), (2, 'y'), (3, 'z')",
]
QUERIES = [
    "SELECT (SELECT max(b) FROM t), EXISTS (SELECT 1 FROM v), 2 IN (SELECT b FROM t)",
    "SELECT a FROM t WHERE (b, c) = (SELECT 2, 'y')",
    "SELECT a, sum(b) OVER (ORDER BY a ROWS 1 PRECEDING) FROM t ORDER BY a",
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) "
    "SELECT group_concat(n) FROM r",
    "SELECT count(*) FROM log",
    "SELECT b FROM v ORDER BY b",
    "SELECT b FROM t WHERE b IN log",
]


def _expected():
    con = sqlite3.connect(":memory:")
    for s in STATEMENTS:
        con.execute(s)
    return [con.execute(q).fetchall() for q in QUERIES]


@pytest.mark.parametrize("name", MODULES)
def test_imports_first(name):
    code = (f"import sqlengine.compiler.{name}\n"
            "import sqlengine\n"
            "c = sqlengine.connect(':memory:')\n"
            f"for s in {STATEMENTS!r}:\n"
            "    c.execute(s)\n"
            f"print(repr([c.execute(q).fetchall() for q in {QUERIES!r}]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == repr(_expected())
