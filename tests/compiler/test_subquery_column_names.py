"""The column names of a FROM subquery, CTE, view and CREATE TABLE AS: SQLite's
sqlite3ColumnsFromExprList skips COLLATE (and, once names resolve, likely(), unlikely()
and likelihood(): sqlite3ExprSkipCollateAndLikely) before naming a column by the column it
reads, where a statement's own result column is named by its text (``a COLLATE nocase``);
a rowid column's declared type is INTEGER (compiler/_resolve.py ``result_column``).
Differential against sqlite3: names, rows with their types, PRAGMA table_info and
table_xinfo, the schema SQL of CREATE TABLE AS."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine

SETUP = ["CREATE TABLE t(a, b)", "INSERT INTO t VALUES ('x', 'Y')",
         "CREATE TABLE t3(A integer PRIMARY KEY, B text)", "INSERT INTO t3 VALUES (4, 'q')"]

RESULTS = ["a COLLATE nocase", "t.a COLLATE nocase", "(a) COLLATE binary",
           "main.t.b COLLATE rtrim", "a COLLATE nocase COLLATE rtrim", "likely(a)",
           "unlikely(t.b)", "likelihood(a, 0.5)", "likely(a COLLATE nocase)",
           "likely(a) COLLATE nocase", "+a COLLATE nocase", "rowid COLLATE nocase",
           "_rowid_", "oid AS o", '"a" COLLATE nocase', "'a' COLLATE nocase",
           '"zz" COLLATE nocase', "a COLLATE nocase AS q", "coalesce(a, 1) COLLATE nocase",
           "*, a COLLATE nocase", "a COLLATE nocase, a", "b, b COLLATE nocase, likely(b)"]
T3_RESULTS = ["rowid COLLATE nocase", "t3.rowid", "_rowid_ COLLATE nocase", "a", "+a",
              "likely(A)", "b COLLATE nocase, B"]

BODIES = [f"SELECT {r} FROM t" for r in RESULTS] + \
    [f"SELECT {r} FROM t3" for r in T3_RESULTS] + \
    ["SELECT a COLLATE nocase FROM t UNION SELECT b FROM t",
     "SELECT b FROM t UNION ALL SELECT a COLLATE nocase FROM t",
     "SELECT t.a COLLATE nocase FROM t JOIN t AS u USING (a)",
     "SELECT a COLLATE nocase FROM t JOIN t AS u USING (a)"]


def _outcome(con, sql):
    try:
        cur = con.execute(sql)
        rows = [tuple((type(v).__name__, v) for v in r) for r in cur.fetchall()]
        names = [d[0] for d in cur.description] if cur.description else None
        return names, rows
    except (sqlite3.Error, sqlengine.Error) as e:
        return "error", str(e)


@pytest.fixture(scope="module")
def cons():
    ref, eng = sqlite3.connect(":memory:"), sqlengine.connect(":memory:")
    for con in (ref, eng):
        for s in SETUP:
            con.execute(s)
    yield ref, eng
    ref.close()
    eng.close()


def _same(cons, *statements):
    ref, eng = cons
    for sql in statements:
        assert _outcome(eng, sql) == _outcome(ref, sql), sql


@pytest.mark.parametrize("body", BODIES)
def test_subquery_and_cte_names(cons, body):
    _same(cons, body, f"SELECT * FROM ({body})", f"SELECT * FROM ({body}) AS s",
          f"WITH c AS ({body}) SELECT * FROM c",
          f"WITH c AS MATERIALIZED ({body}) SELECT * FROM c")


@pytest.mark.parametrize("k,body", list(enumerate(BODIES)))
def test_view_and_create_as_names(cons, k, body):
    _same(cons, f"CREATE VIEW v{k} AS {body}", f"SELECT * FROM v{k}",
          f"PRAGMA table_info(v{k})", f"PRAGMA table_xinfo(v{k})",
          f"CREATE TABLE c{k} AS {body}", f"PRAGMA table_info(c{k})",
          f"SELECT sql FROM sqlite_schema WHERE name = 'c{k}'")


@pytest.mark.parametrize("first", ["a COLLATE nocase", "likely(b)", "rowid COLLATE rtrim"])
def test_recursive_cte_names(cons, first):
    _same(cons, f"WITH RECURSIVE c AS (SELECT {first} FROM t UNION ALL "
                "SELECT 1 FROM c WHERE 0) SELECT * FROM c")


def test_view_trigger_reads_deduplicated_names(cons):
    """An INSTEAD OF trigger's ``new`` columns are the view's names, made unique."""
    _same(cons, "CREATE VIEW w AS SELECT a COLLATE nocase, a, b FROM t",
          "CREATE TABLE log(x, y)",
          'CREATE TRIGGER tr INSTEAD OF INSERT ON w BEGIN '
          'INSERT INTO log VALUES (new."a:1", new.a); END',
          "INSERT INTO w VALUES (1, 2, 3)", "SELECT * FROM log")


def test_rowid_declared_type(cons):
    """A rowid result column's declared type is INTEGER (the INTEGER PRIMARY KEY's
    declared type where it has one), which PARSE_DECLTYPES converters read."""
    got = []
    for mod in (sqlite3, sqlengine):
        saved = dict(mod.converters)  # (the registry is the module's: restored after)
        con = mod.connect(":memory:", detect_types=mod.PARSE_DECLTYPES)
        try:
            mod.register_converter("INTEGER", lambda b: b"int:" + b)
            mod.register_converter("integer", lambda b: b"int:" + b)
            con.execute("CREATE TABLE t(a)")
            con.execute("CREATE TABLE u(k integer PRIMARY KEY)")
            con.execute("INSERT INTO t VALUES (5)")
            con.execute("INSERT INTO u VALUES (7)")
            got.append([con.execute(q).fetchall() for q in (
                "SELECT rowid, a FROM t", "SELECT _rowid_ FROM u",
                "SELECT * FROM (SELECT oid FROM t)", "SELECT rowid COLLATE nocase FROM t")])
        finally:
            con.close()
            mod.converters.clear()
            mod.converters.update(saved)
    assert got[0] == got[1]
