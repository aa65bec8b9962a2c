"""LIKE (operator and like() function) through the engine, checked against the stdlib
sqlite3: random patterns and subjects over the special characters, ESCAPE, case folding
(ASCII only) and PRAGMA case_sensitive_like, NULLs, numbers, blobs, embedded NULs, and
the compiled pattern's reuse across rows and statements."""

from __future__ import annotations

import os
import sqlite3

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import sqlengine
from sqlengine.vdbe import _pattern
from sqlengine.vdbe import func_pattern as FP

N = int(os.environ.get("HYP_EXAMPLES", "200"))
SETTINGS = settings(max_examples=N * 3, deadline=None, suppress_health_check=list(HealthCheck))

CHARS = "aAbBzZ%_\\xé\u00c9\u0130\u212a[]^-*?\x00 1."
pattern = st.text(alphabet=CHARS, max_size=9)
subject = st.text(alphabet=CHARS, max_size=9)
any_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
escape = st.sampled_from(["\\", "x", "%", "_", "a", "A", "é", "\u212a", "["])
value = st.one_of(st.none(), st.integers(-1000, 1000), st.floats(-100, 100, allow_nan=False),
                  st.sampled_from([1.5, 100.0, -0.0, 1e20, 12]), st.binary(max_size=3),
                  st.text(alphabet="12.e%_-aA", max_size=5))


def _pair():
    ours = sqlengine.connect(":memory:")
    ref = sqlite3.connect(":memory:")
    ref.text_factory = lambda b: b.decode("utf-8", "surrogateescape")
    return ours, ref


OURS, REF = _pair()


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
@example("%abc%", "xxABCxx")
@example("a%", "A\x00b")
@example("_", "é")
@example("%é%", "É")
@example("%\u212a", "k")
def test_like_operator(p, s):
    same("SELECT ? LIKE ?, ? NOT LIKE ?, like(?, ?)", (s, p, s, p, p, s))


@SETTINGS
@given(pattern, subject, escape)
@example("a\\%", "a%", "\\")
@example("a%", "abc", "%")
@example("a__c", "a_c", "_")
@example("ab\\", "ab", "\\")
@example("%\\_", "x_", "\\")
def test_like_escape(p, s, e):
    same("SELECT ? LIKE ? ESCAPE ?, like(?, ?, ?)", (s, p, e, p, s, e))


@SETTINGS
@given(pattern, subject)
def test_case_sensitive_like(p, s):
    for on in (1, 0):
        OURS.execute(f"PRAGMA case_sensitive_like = {on}")
        REF.execute(f"PRAGMA case_sensitive_like = {on}")
        try:
            same("SELECT ? LIKE ?, like(?, ?)", (s, p, p, s))
        finally:
            OURS.execute("PRAGMA case_sensitive_like = 0")
            REF.execute("PRAGMA case_sensitive_like = 0")


@SETTINGS
@given(value, value)
@example(None, "a")
@example("a", None)
@example(b"a", "a")
@example("a", b"a")
@example(123, "12%")
@example(1.5, "1.5")
@example(100.0, "100.0")
@example(1e20, "1%")
def test_like_non_text_operands(a, b):
    same("SELECT ? LIKE ?, ? GLOB ?", (a, b, a, b))


@SETTINGS
@given(value, value, st.one_of(st.none(), st.integers(0, 99), st.binary(max_size=2),
                               st.sampled_from(["", "ab", "\x00", "a\x00", "\\"])))
def test_like_escape_values(a, b, e):
    same("SELECT ? LIKE ? ESCAPE ?", (a, b, e))


@SETTINGS
@given(any_text, any_text)
def test_like_any_unicode(p, s):
    same("SELECT ? LIKE ?, ? LIKE ?", (s, p, s, p + "%"))


def test_pattern_length_limit():
    same("SELECT 'a' LIKE ?", ("a" * 50000,))
    same("SELECT 'a' LIKE ?", ("a" * 50001,))
    same("SELECT 'a' LIKE ?", ("é" * 25001,))
    same("SELECT 'a' LIKE ?", ("é" * 25000,))


def test_many_wildcards_stay_fast_and_exact():
    # SQLite's pruning keeps this near-linear; a naive backtracker would not finish.
    s = "a" * 3000
    same("SELECT ? LIKE ?", (s, "%a" * 200 + "%b"))
    same("SELECT ? LIKE ?", (s, "%a" * 200 + "%"))
    same("SELECT ? GLOB ?", (s, "*a" * 200 + "*b"))


def test_over_rows_with_changing_patterns():
    rows = ["abc", "ABC", "xabcx", "ab", "a_c", "a%c", None, 12, 1.5, b"abc", "ÀBC"]
    pats = ["%b%", "a_c", "A%", "%c", "a\\%c", None, "1%", "%.5"]
    for con in (OURS, REF):
        con.execute("DROP TABLE IF EXISTS lt")
        con.execute("CREATE TABLE lt(s, p)")
        con.executemany("INSERT INTO lt VALUES (?, ?)", [(s, p) for s in rows for p in pats])
    same("SELECT rowid, s LIKE p, s GLOB p, s LIKE p ESCAPE '\\' FROM lt ORDER BY rowid")
    same("SELECT count(*) FROM lt WHERE s LIKE '%B%'")
    same("SELECT s FROM lt WHERE s LIKE 'a_c' ORDER BY rowid")


def test_pragma_change_between_executions():
    for con in (OURS, REF):
        con.execute("DROP TABLE IF EXISTS lc")
        con.execute("CREATE TABLE lc(s)")
        con.executemany("INSERT INTO lc VALUES (?)", [("abc",), ("ABC",)])
    q = "SELECT count(*) FROM lc WHERE s LIKE 'a%'"
    assert same(q) == ("ok", [(2,)])
    for con in (OURS, REF):
        con.execute("PRAGMA case_sensitive_like = 1")
    try:
        assert same(q) == ("ok", [(1,)])
    finally:
        for con in (OURS, REF):
            con.execute("PRAGMA case_sensitive_like = 0")
    assert same(q) == ("ok", [(2,)])


def test_user_function_overrides_builtin_like():
    con = sqlengine.connect(":memory:")
    con.create_function("like", 2, lambda p, s: 42)
    assert con.execute("SELECT 'a' LIKE 'b', like('x', 'y')").fetchall() == [(42, 42)]
    assert con.execute("SELECT 'a' LIKE 'a' ESCAPE 'x'").fetchall() == [(1,)]


@pytest.mark.parametrize("p, s, esc, cs, expected", [
    ("%abc%", "xxABCxx", None, False, True),
    ("%abc%", "xxABCxx", None, True, False),
    ("a_c", "abc", None, False, True),
    ("a\\_c", "abc", "\\", False, False),
    ("a\\_c", "a_c", "\\", False, True),
    ("a%", "a\x00", None, False, True),
    ("a\x00b", "a", None, False, True),
    ("é", "É", None, False, False),
])
def test_python_interface(p, s, esc, cs, expected):
    assert FP.like(p, s, esc, cs) is expected
    assert _pattern.like(p, s, esc, cs) is expected


def test_pattern_object():
    pat = FP.Pattern("%b_", False, None, True)
    assert pat.source == "%b_"
    assert pat.match("aBc") and not pat.match("abcd")
    g = FP.Pattern("[a-c]*", True)
    assert g.match("b123") and not g.match("d")
