"""OP_Function on a compiled scalar function (a ScalarBase: like() and glob()) reads its
arguments from the registers (call_mem) instead of a list made per row: every argument
kind, the ESCAPE form, the cases the fast path leaves to the Python function, and the
function object called directly, against sqlite3."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine
from sqlengine.vdbe._pattern import PatternCall

VALUES = ["abc", "xabcx", "ABC", "a_c", "a%c", "", None, 12, 1.5, b"abc", "h\u00e9llo",
          "%", "_", "a\\%c"]


def fill(con):
    con.execute("CREATE TABLE v(s, p)")
    con.executemany("INSERT INTO v VALUES (?, ?)",
                    [(s, p) for s in VALUES for p in VALUES + ["%b%", "a?c", "*b*", "[a]*"]])


@pytest.mark.parametrize("expr", [
    "s LIKE p", "p LIKE s", "s GLOB p", "like(p, s)", "glob(p, s)",
    "s LIKE p ESCAPE '\\'", "s NOT LIKE p", "like(p, s) + glob(p, s) * 2",
    "coalesce(s LIKE p, -1) || ':' || coalesce(s GLOB p, -1)",
    "s LIKE '%' || p || '%'", "upper(s) LIKE p",
])
def test_like_glob_over_every_pair(pair, expr):
    ours, theirs = pair
    sql = f"SELECT rowid, {expr} FROM v ORDER BY rowid"
    assert ours.execute(sql).fetchall() == theirs.execute(sql).fetchall()
    sql = f"SELECT count(*), sum(rowid) FROM v WHERE {expr}"
    assert ours.execute(sql).fetchall() == theirs.execute(sql).fetchall()


@pytest.mark.parametrize("sql", [
    "SELECT 'abc' LIKE 'a%' ESCAPE 'xy'",      # an escape of two characters: the error
    "SELECT 'abc' LIKE 'a%' ESCAPE ''",
    "SELECT like('a%', 'abc', NULL)",
    "SELECT like('a%')",
])
def test_cases_left_to_the_python_function(pair, sql):
    ours, theirs = pair
    try:
        want = ("ok", theirs.execute(sql).fetchall())
    except sqlite3.Error as e:
        want = ("error", str(e))
    try:
        got = ("ok", ours.execute(sql).fetchall())
    except sqlengine.Error as e:
        got = ("error", str(e))
    assert got == want


def test_called_directly_with_any_sequence(pair):
    ours, _ = pair
    f = [r[5] for r in ours.execute("EXPLAIN SELECT s LIKE p FROM v") if r[1] == "Function"]
    assert f == ["like(2)"]
    prog = ours._db.prepare("SELECT s LIKE p FROM v")[0].prog
    call = next(x for x in prog.p4 if isinstance(x, PatternCall))
    assert call(None, ("a%", "abc")) == call(None, ["a%", "abc"]) == 1
    assert call(None, ("b%", "abc")) == 0
    assert call(None, ("a%", None)) is None
