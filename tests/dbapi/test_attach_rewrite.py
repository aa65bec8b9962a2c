"""With a temp or attached database, a statement's AST is copied for the merged schema's
names (compiler/attach.py: ``rewrite``) only when one of its nodes names a database or
temp's schema table; the parser's cached AST is never changed, and a statement naming
neither compiles from that AST itself."""

import sqlite3

import pytest

import sqlengine
from sqlengine.sql import parse_one

SETUP = ["CREATE TABLE t(a INTEGER, b TEXT)", "INSERT INTO t VALUES (1, 'x'), (2, 'y')",
         "CREATE TEMP TABLE tt(a)", "INSERT INTO tt VALUES (2)",
         "CREATE TEMP VIEW tv AS SELECT a FROM t WHERE a > 1"]

UNCHANGED = ["SELECT a FROM t WHERE a > 0 ORDER BY a",
             "SELECT * FROM tv",
             "SELECT a FROM t WHERE a IN (SELECT a FROM tt)",
             "UPDATE t SET b = 'z' WHERE a = 2",
             "INSERT INTO t VALUES (3, 'w')"]

RENAMED = ["SELECT a FROM main.t ORDER BY a",
           "SELECT a FROM temp.tt",
           "SELECT count(*) FROM sqlite_temp_master",
           "SELECT a FROM t WHERE a IN temp.tt",
           "INSERT INTO main.t VALUES (4, 'v')",
           "SELECT name FROM temp.sqlite_schema ORDER BY name"]


@pytest.fixture
def cons():
    ours = sqlengine.connect(":memory:", isolation_level=None, cached_statements=0)
    ref = sqlite3.connect(":memory:", isolation_level=None)
    for sql in SETUP:
        ours.execute(sql)
        ref.execute(sql)
    yield ours, ref
    ours.close()
    ref.close()


@pytest.mark.parametrize("sql", UNCHANGED)
def test_statement_naming_no_database_is_not_copied(cons, sql):
    ours, ref = cons
    stmt, _ = ours._db.prepare(sql)
    assert stmt.ast is parse_one(sql).stmt
    stmt.finalize()
    assert ours.execute(sql).fetchall() == ref.execute(sql).fetchall()


@pytest.mark.parametrize("sql", RENAMED)
def test_statement_naming_a_database_is_copied_and_the_parse_kept(cons, sql):
    ours, ref = cons
    before = repr(parse_one(sql).stmt)
    stmt, _ = ours._db.prepare(sql)
    assert stmt.ast is not parse_one(sql).stmt
    stmt.finalize()
    assert ours.execute(sql).fetchall() == ref.execute(sql).fetchall()
    assert repr(parse_one(sql).stmt) == before
