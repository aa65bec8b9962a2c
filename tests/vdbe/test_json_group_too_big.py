"""json_group_array and json_group_object refuse a result past SQLITE_LIMIT_LENGTH bytes
('string or blob too big', as SQLite's sqlite3_result_text does), as aggregates and as
window functions (func_json._group_result). Differential against sqlite3 with its length
limit lowered by setlimit and the engine's (func_json.MAX_LENGTH, a constant) patched to
the same value, so that no test needs a gigabyte."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine
from sqlengine.vdbe import func_json

LIMIT = 2000
ROWS = [("a" * 600,), ("é" * 300,), (None,), (3,), ("b" * 396,), ("a" * 1996,), ("é" * 998,),
        ("a" * 1997,), ("é" * 999,)]
QUERIES = [
    "SELECT length(json_group_array(a)) FROM t WHERE rowid < 6",
    "SELECT length(json_group_array(a)) FROM t WHERE rowid < 5",
    "SELECT length(json_group_object(a, a)) FROM t WHERE rowid < 3",
    "SELECT length(json_group_object(a, 1)) FROM t WHERE rowid < 3",
    "SELECT length(json_group_object(a, a) OVER (ORDER BY rowid ROWS 1 PRECEDING)) FROM t"
    " WHERE rowid < 6",
    "SELECT length(json_group_array(a) OVER (ORDER BY rowid ROWS 1 PRECEDING)) FROM t"
    " WHERE rowid < 6",
    "SELECT length(json_group_array(a) OVER (ORDER BY rowid ROWS CURRENT ROW)) FROM t",
    "SELECT length(json_group_array(a)) FROM t WHERE rowid = 6",
    "SELECT length(json_group_array(a)) FROM t WHERE rowid = 7",
    "SELECT length(json_group_array(a)) FROM t WHERE rowid = 8",
    "SELECT length(json_group_array(a)) FROM t WHERE rowid = 9",
    "SELECT length(json_group_object('', a)) FROM t WHERE rowid = 6",
]


def _outcome(con, sql):
    try:
        return con.execute(sql).fetchall()
    except (sqlite3.Error, sqlengine.Error) as e:
        return type(e).__name__, str(e)


@pytest.fixture(scope="module")
def cons():
    out = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.execute("CREATE TABLE t(a)")
        con.executemany("INSERT INTO t VALUES (?)", ROWS)
        con.setlimit(mod.SQLITE_LIMIT_LENGTH, LIMIT)
        out.append(con)
    yield out
    for con in out:
        con.close()


@pytest.mark.parametrize("sql", QUERIES)
def test_json_group_result_past_the_length_limit(cons, monkeypatch, sql):
    monkeypatch.setattr(func_json, "MAX_LENGTH", LIMIT)
    ref, eng = cons
    assert _outcome(eng, sql) == _outcome(ref, sql)
