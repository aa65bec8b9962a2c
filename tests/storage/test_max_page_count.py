"""PRAGMA max_page_count = N: a write that needs a page past N fails with sqlite3's
'database or disk is full' (SQLITE_FULL), and what is left is what sqlite3 leaves: in
autocommit the statement's changes are gone; in a transaction a statement with a
statement journal (several rows, an UPDATE, DDL) is undone alone and the transaction
stays open, a single-row INSERT ends the whole transaction (SQLite's vdbeHalt for a
special error without a statement journal). The value's rules: never below the pages
the file has, 0 or below answers the current maximum. Each sequence runs on both engines
against a file and against ':memory:'; the answers (rows, error class, message and
code, whether a transaction is open) must be the same."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine

SEQUENCES = [
    ["pragma max_page_count", "pragma max_page_count=1", "pragma max_page_count=3",
     "insert into t values(randomblob(3000))", "pragma page_count",
     "insert into t values(randomblob(3000))", "select count(*) from t",
     "pragma page_count", "pragma integrity_check"],
    ["pragma max_page_count=0", "pragma max_page_count=-5", "pragma max_page_count=0x10",
     "pragma max_page_count='7'", "pragma max_page_count=abc", "pragma max_page_count"],
    ["pragma max_page_count=3", "begin", "insert into t values(1)",
     "insert into t values(randomblob(9000))", "select count(*) from t", "commit",
     "select count(*) from t"],
    ["pragma max_page_count=3", "begin", "insert into t values(1)",
     "insert into t select randomblob(9000) from t", "select count(*) from t", "commit",
     "select count(*) from t"],
    ["pragma max_page_count=3", "begin", "insert into t values(2)",
     "update t set a = randomblob(9000) where a = 2", "select count(*) from t",
     "rollback", "select count(*) from t"],
    ["pragma max_page_count=3", "begin", "insert into t values(3)", "create table u(x)",
     "create table v(x)", "select count(*) from t", "select name from sqlite_schema",
     "commit", "select name from sqlite_schema", "pragma integrity_check"],
    ["pragma max_page_count=3", "begin", "insert into t values(4)", "savepoint s",
     "insert into t values(randomblob(9000))", "select count(*) from t", "rollback"],
    ["pragma max_page_count=3", "insert into t values(5),(randomblob(9000))",
     "select count(*) from t"],
    ["pragma max_page_count=3", "begin", "insert into t values(6)",
     "insert into t values(7),(randomblob(9000))", "select count(*) from t", "commit",
     "select a from t"],
    ["pragma max_page_count=3", "begin", "insert into t values(8)", "delete from t",
     "insert into t values(randomblob(9000))", "select count(*) from t", "rollback"],
    ["pragma max_page_count=5", "create index ti on t(a)",
     "insert into t select randomblob(600) from (select 1 union select 2 union select 3"
     " union select 4 union select 5 union select 6 union select 7 union select 8)",
     "select count(*) from t", "pragma page_count", "pragma max_page_count=20",
     "insert into t select randomblob(600) from (select 1 union select 2)",
     "select count(*) from t", "pragma integrity_check"],
    ["create table big(x)", "insert into big values(randomblob(20000))",
     "pragma page_count", "pragma max_page_count=2", "pragma max_page_count",
     "delete from big", "insert into t values(randomblob(8000))", "pragma page_count",
     "pragma freelist_count", "select count(*) from t"],
]


def _answers(module, path, statements):
    con = module.connect(path, isolation_level=None)
    out = []
    try:
        con.execute("create table t(a)")
        for sql in statements:
            try:
                rows = con.execute(sql).fetchall()
                if sql.startswith("select") and "randomblob" not in sql:
                    rows = [tuple(len(v) if isinstance(v, bytes) else v for v in r)
                            for r in rows]
                out.append((sql, rows, con.in_transaction))
            except sqlite3.Error as e:
                out.append((sql, type(e).__name__, str(e), e.sqlite_errorcode,
                            con.in_transaction))
            except sqlengine.Error as e:
                out.append((sql, type(e).__name__, str(e), e.sqlite_errorcode,
                            con.in_transaction))
    finally:
        con.close()
    return out


@pytest.mark.parametrize("where", ["file", "memory"])
@pytest.mark.parametrize("seq", range(len(SEQUENCES)))
def test_as_sqlite(tmp_path, seq, where):
    statements = SEQUENCES[seq]
    paths = [":memory:"] * 2 if where == "memory" else \
        [str(tmp_path / "e.db"), str(tmp_path / "s.db")]
    assert _answers(sqlengine, paths[0], statements) == \
        _answers(sqlite3, paths[1], statements)


def test_full_is_refused_by_the_allocation(tmp_path):
    """The error comes from the page past the maximum: the file keeps its size."""
    path = tmp_path / "x.db"
    con = sqlengine.connect(str(path), isolation_level=None)
    con.execute("create table t(a)")
    size = path.stat().st_size
    con.execute("pragma max_page_count=2")
    with pytest.raises(sqlengine.OperationalError, match="database or disk is full"):
        con.execute("insert into t values(randomblob(5000))")
    assert path.stat().st_size == size
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
