"""GLOB (operator and glob() function) through the engine, checked against the stdlib
sqlite3: random patterns over ``* ? [ ] ^ -`` and sets with ranges, case sensitivity,
non-ASCII text, NULs, and non-text operands."""

from __future__ import annotations

import os
import sqlite3

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import sqlengine
from sqlengine.vdbe import func_pattern as FP

N = int(os.environ.get("HYP_EXAMPLES", "200"))
SETTINGS = settings(max_examples=N * 3, deadline=None, suppress_health_check=list(HealthCheck))

CHARS = "aAbz*?[]^-\\é\u212a\x00 1"
pattern = st.text(alphabet=CHARS, max_size=10)
subject = st.text(alphabet=CHARS, max_size=8)

OURS = sqlengine.connect(":memory:")
REF = sqlite3.connect(":memory:")
REF.text_factory = lambda b: b.decode("utf-8", "surrogateescape")


def answer(con, sql, params=()):
    try:
        return ("ok", con.execute(sql, params).fetchall())
    except (sqlite3.Error, sqlengine.Error) as e:
        return ("error", str(e))


def same(sql, params=()):
    a = answer(OURS, sql, params)
    b = answer(REF, sql, params)
    assert a == b, (sql, params, a, b)
    return a


@SETTINGS
@given(pattern, subject)
@example("[]x]", "x")
@example("[^a]", "a")
@example("[a-]", "-")
@example("[z-a]", "m")
@example("*[b", "ab")
@example("*[ab]?", "zzb1")
@example("[^]]", "]")
@example("?*?", "é")
@example("a[", "a")
@example("[a-\u212a]", "é")
def test_glob_operator(p, s):
    same("SELECT ? GLOB ?, ? NOT GLOB ?, glob(?, ?)", (s, p, s, p, p, s))


@SETTINGS
@given(st.lists(st.sampled_from(["[a-c]", "[^b]", "*", "?", "a", "b", "[]]", "[-]", "[", "]"]),
                max_size=6).map("".join), subject)
def test_glob_sets(p, s):
    same("SELECT ? GLOB ?", (s, p))


def test_glob_is_case_sensitive_even_with_pragma():
    for on in (0, 1):
        for con in (OURS, REF):
            con.execute(f"PRAGMA case_sensitive_like = {on}")
        same("SELECT 'ABC' GLOB 'abc', 'abc' GLOB 'a*', 'ABC' GLOB '[a-z]*'")
    for con in (OURS, REF):
        con.execute("PRAGMA case_sensitive_like = 0")


def test_glob_over_rows():
    rows = ["abcd", "xabzd", "ABCD", "ab?d", None, 1234, 12.5, b"ab", "a[b]c"]
    for con in (OURS, REF):
        con.execute("DROP TABLE IF EXISTS gt")
        con.execute("CREATE TABLE gt(s)")
        con.executemany("INSERT INTO gt VALUES (?)", [(r,) for r in rows])
    for p in ["*ab?d*", "[a-c]*", "*[^0-9]*", "12*", "*.5", "a[[]b]c", "*"]:
        same("SELECT rowid, s GLOB ? FROM gt ORDER BY rowid", (p,))


def test_python_interface():
    assert FP.glob("*ab?d*", "zzabxdzz")
    assert not FP.glob("*ab?d*", "zzABxdzz")
    assert FP.glob("[]x]", "]")
    assert not FP.glob("[abc", "a")
    assert FP.glob("a*", "a\x00zzz")
