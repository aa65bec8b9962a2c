"""The stdlib sqlite3 module as the oracle for the parser's verdicts and messages."""

import sqlite3

import pytest

from sqlengine.errors import OperationalError
from sqlengine.sql.parser import parse_one

# Messages SQLite gives while parsing (as opposed to name resolution or execution).
PARSE_WORDS = (
    "syntax error", "incomplete input", "unrecognized token", "should come after",
    "unknown join type", "JOIN clause is required", "unknown table option",
    "qualified table names", "clause is not allowed", "error in generated column",
    "variable number must be", "AUTOINCREMENT is only allowed", "duplicate column name",
    "more than one primary key", "is not constant", "cannot use DEFAULT",
    "generated columns cannot", "too many columns on", "too many arguments on function",
    "DISTINCT is not supported for window functions", "syntax error after column name",
    "Expression tree is too large", "too many terms in compound SELECT", "foreign key on",
    "number of columns in foreign key", "in foreign key definition", "unsupported use of NULLS",
    "temporary table name must be unqualified", "temporary trigger may not have qualified name",
)

SCHEMA = "CREATE TABLE t(a, b, c); CREATE TABLE u(a, b, c); CREATE TABLE t1(a, b, c);"


def _probe(sql: str, with_tables: bool) -> str | None:
    conn = sqlite3.connect(":memory:")
    try:
        if with_tables:
            conn.executescript(SCHEMA)
        text = sql.lstrip()
        probe = sql if text[:7].upper() == "EXPLAIN" else "EXPLAIN " + sql
        try:
            conn.execute(probe)
        except sqlite3.Error as e:
            msg = str(e)
            return msg if any(w in msg for w in PARSE_WORDS) else None
        return None
    finally:
        conn.close()


def sqlite_parse_error(sql: str) -> str | None:
    """SQLite's parse-time error for ``sql`` (None when its parser accepts it). Asked
    with and without tables t, u, t1, because SQLite checks some names inside its
    reductions and stops there."""
    return _probe(sql, True) or _probe(sql, False)


def sqlengine_parse_error(sql: str) -> str | None:
    try:
        parse_one(sql)
    except OperationalError as e:
        return str(e)
    return None


@pytest.fixture
def oracle():
    return sqlite_parse_error


@pytest.fixture
def ours():
    return sqlengine_parse_error
