"""CHECK constraints, generated columns, index expressions and partial-index WHERE
clauses are resolved when they are created, with SQLite's errors (compiler/selfref.py):
each expression below in each place (CREATE TABLE column and table CHECK, DEFAULT,
generated column, partial index WHERE, index expression, ALTER TABLE ADD COLUMN CHECK,
generated column and DEFAULT), and after an earlier error (a second CHECK, a generated
column after a failed CHECK, an index term after a failed WHERE), where SQLite's resolver
goes on and reports the last error it made. Each statement runs on a new connection of
each engine holding ``o(a, x)``; a statement with a parameter is given its value."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine

EXPRS = [
    "nosuchf(a)", "sum(a)", "max(a) OVER ()", "(SELECT 1)", "a IN (SELECT 1)",
    "EXISTS (SELECT 1)", "?", ":p", "o.x", "x", "nosuch", "t.a", "main.t.a", "temp.t.a",
    "a=1", "count(*)", "row_number() OVER ()", "row_number()", "abs(a,b)", "random()",
    "CAST(a AS int)", "raise(ignore)", "b", "rowid", "t.rowid", "oid",
    "sum(a) FILTER (WHERE 1)", "abs(a) FILTER (WHERE 1)", "abs(a) OVER ()", "a IN (1,2)",
    "nosuchf(sum(a))", "sum(nosuchf(a))", "sum(?)", "nosuchf(?)", "nosuch + nosuchf(1)",
    "(SELECT nosuch)", "sum((SELECT 1))", '"zz"', '"a"', "true", "false",
    "nosuchf(1) + ?", "nosuchf(1) + (a + ?)", "nosuchf(1 + sum(a))", "nosuchf(a, sum(a))",
    "sum(a) + nosuch", "nosuch + sum(a)", "a LIKE nosuchf(1)", "nosuchf(1) LIKE sum(a)",
    "a REGEXP 'x'", "a GLOB 'x'", "a IN t", "a IN o", "t.a + ?", "t.a + nosuchf(1)",
    "sum(a,b) OVER ()", "min(a,1) OVER ()", "nosuchf(a) OVER ()", "group_concat(a) OVER ()",
    "lag(a)", "abs()", "likelihood(a, 0.5)", "coalesce(a)", "iif(a,1)", "date('now')",
    "date(a)", "changes()", "CASE a WHEN nosuchf(1) THEN ? END",
    "a BETWEEN nosuchf(1) AND sum(2)", "-nosuchf(1)", "nosuchf(1) IS TRUE", "a NOT NULL",
    "upper(a) COLLATE nocase",
]
PLACES = [
    "CREATE TABLE t(a CHECK ({e}), b)",
    "CREATE TABLE t(a, b, CHECK ({e}))",
    "CREATE TABLE t(a DEFAULT ({e}), b)",
    "CREATE TABLE t(a, b AS ({e}))",
    "CREATE INDEX i ON o(x) WHERE {e}",
    "CREATE INDEX i ON o(({e}))",
    "ALTER TABLE o ADD COLUMN c CHECK ({e})",
    "ALTER TABLE o ADD COLUMN c AS ({e})",
    "ALTER TABLE o ADD COLUMN c DEFAULT ({e})",
    "CREATE TABLE t(a, b, CHECK (a), CHECK ({e}))",
    "CREATE TABLE t(a CHECK (nosuchf(1)), b AS ({e}))",
    "CREATE TABLE t(a CHECK (sum(1)), b AS ({e}))",
    "CREATE INDEX i ON o(a, ({e})) WHERE nosuchf(2)",
    "CREATE INDEX i ON o(({e})) WHERE sum(2)",
]
OTHERS = [
    "CREATE INDEX i ON o(nosuch) WHERE nosuchf(2)",
    "CREATE INDEX i ON o(a, nosuch) WHERE nosuchf(2)",
    "CREATE TABLE t(a CHECK (nosuch), b AS (a), c AS (b))",
    "CREATE TABLE t(a AS (nosuchf(1)), b AS (sum(1)))",
    "CREATE TABLE t(a AS (nosuchf(1)))",
    "CREATE TABLE t(a INTEGER PRIMARY KEY, b) WITHOUT ROWID",
    "CREATE TABLE t(a PRIMARY KEY, b CHECK (rowid > 0)) WITHOUT ROWID",
    "CREATE TABLE t(rowid, b CHECK (rowid > 0))",
    "CREATE TABLE t(a, b CHECK (a > b), CHECK (b < 10), c DEFAULT 3 CHECK (c))",
]


def _outcome(mod, sql):
    con = mod.connect(":memory:")
    try:
        con.execute("CREATE TABLE o(a, x)")
        params = {"p": 1} if ":p" in sql else (1,) * sql.count("?")
        try:
            con.execute(sql, params)
            return "ok", [tuple(r) for r in con.execute(
                "SELECT type, name, sql FROM sqlite_schema ORDER BY name")]
        except (sqlite3.Error, sqlengine.Error) as e:
            return "error", str(e)
    finally:
        con.close()


@pytest.mark.parametrize("sql", [p.format(e=e) for e in EXPRS for p in PLACES] + OTHERS)
def test_schema_expression_errors_as_sqlite(sql):
    assert _outcome(sqlengine, sql) == _outcome(sqlite3, sql)
