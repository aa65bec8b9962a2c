"""complete_statement agrees with sqlite3_complete (the stdlib's complete_statement)."""

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sqlengine.sql import complete_statement

CASES = [
    "", ";", "SELECT 1", "SELECT 1;", "SELECT 1; ", "SELECT 1;--x", "SELECT 1; -- x\n",
    "SELECT ';'", "SELECT ';';", "SELECT \"a;\";", "SELECT [a;b];", "SELECT `x;`;",
    "SELECT 'abc", "/* ; */", "/* ; */;", "/* ;", "-- ;", "SELECT 1 /* x */;",
    "CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT 1;",
    "CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT 1; END",
    "CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT 1; END;",
    "CREATE TEMP TRIGGER r AFTER INSERT ON t BEGIN SELECT 1; END;",
    "EXPLAIN CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT 1; END;",
    "EXPLAIN CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT 1;",
    "CREATE TABLE trigger(a);", "SELECT end;", "CREATE TRIGGER",
    "CREATE TRIGGER r BEFORE DELETE ON t BEGIN SELECT CASE WHEN 1 THEN 2 END; END;",
]


@pytest.mark.parametrize("sql", CASES)
def test_matches_sqlite(sql):
    assert complete_statement(sql) == sqlite3.complete_statement(sql)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([
    ";", " ", "\n", "'", '"', "[", "]", "`", "/*", "*/", "--", "-", "/", "x", "create",
    "trigger", "temp", "end", "explain", "begin", "select", "1",
]), max_size=14))
def test_matches_sqlite_on_random_text(parts):
    sql = "".join(p if p.isalnum() is False else p + " " for p in parts)
    assert complete_statement(sql) == sqlite3.complete_statement(sql)
