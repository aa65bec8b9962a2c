"""The built-in collations against sqlite3's ORDER BY ... COLLATE, and the registry."""

from __future__ import annotations

import functools
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqlengine.errors import OperationalError
from sqlengine.vdbe import _values as V
from sqlengine.vdbe import collations as C

DB = sqlite3.connect(":memory:")
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
words = st.text(alphabet="aAzZ _éÉ\t1", max_size=4)


@pytest.mark.parametrize("name", ["BINARY", "NOCASE", "RTRIM"])
@SETTINGS
@given(st.lists(words, max_size=6))
def test_order_matches_sqlite(name, ws):
    rows = DB.execute(
        "select x from (select value as x from json_each(?)) order by x collate " + name,
        (__import__("json").dumps(ws),)).fetchall()
    coll = C.BUILTIN[name]
    ours = sorted(ws, key=functools.cmp_to_key(lambda a, b: V.compare(a, b, coll)))
    # equal keys may come out in any order: compare the sequence of equivalence classes
    assert [V.compare(a, b, coll) for a, b in zip(ours, [r[0] for r in rows])] == [0] * len(ws)


@pytest.mark.parametrize("name", ["NOCASE", "RTRIM"])
@SETTINGS
@given(words, words)
def test_equality_matches_sqlite(name, a, b):
    eq = DB.execute(f"select ? = ? collate {name}, ? < ? collate {name}", (a, b, a, b)).fetchone()
    c = V.compare(a, b, C.BUILTIN[name])
    assert eq == (int(c == 0), int(c < 0))


def test_registry():
    reg = C.CollationRegistry()
    assert reg.get("binary") is None and reg.get(None) is None
    assert reg.get("nocase")("A", "a") == 0
    with pytest.raises(OperationalError, match="no such collation sequence: foo"):
        reg.get("foo")
    reg.register("Reverse", lambda a, b: (a < b) - (a > b))
    assert reg.get("REVERSE")("a", "b") == 1
    reg.register("bad", lambda a, b: "x")
    assert reg.get("bad")("a", "b") == 0
    reg.register("reverse", None)
    assert not reg.exists("reverse")
    assert C.nocase("É", "é") != 0  # only ASCII folds
    assert C.rtrim("a  ", "a") == 0 and C.rtrim(" a", "a") != 0
