"""Differential tests of the aggregates (sqlengine.vdbe.aggregates) against sqlite3, as plain
aggregates and as sliding-window aggregates (step + inverse + value)."""

from __future__ import annotations

import math
import os
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqlengine.errors import Error
from sqlengine.vdbe import _values as V
from sqlengine.vdbe import collations
from sqlengine.vdbe import functions as F

DB = sqlite3.connect(":memory:")
DB.text_factory = lambda b: b.decode("utf-8", "surrogateescape")
DB.execute("create table t(i integer primary key, x, s)")
N = int(os.environ.get("HYP_EXAMPLES", "200"))
SETTINGS = settings(max_examples=N, deadline=None, suppress_health_check=list(HealthCheck))

ints = st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-100, 100),
                 st.sampled_from([2**63 - 1, -(2**63), 2**62]))
floats = st.one_of(st.floats(allow_nan=False, allow_infinity=False, width=64),
                   st.floats(-100, 100), st.sampled_from([math.inf, -math.inf, 0.5]))
texts = st.one_of(st.text(alphabet="aAbB 12.e", max_size=4), st.sampled_from(["5", "2.5", "x"]))
values = st.one_of(st.none(), ints, floats, texts, st.binary(max_size=3))
column = st.lists(values, max_size=12)
seps = st.lists(st.one_of(st.none(), st.sampled_from(["", "-", ", ", "|"]), st.integers(0, 9)),
                max_size=12)


class Ctx(F.FunctionContext):
    pass


def run(name, rows, coll=None):
    """Our aggregate over rows (each a tuple of arguments); ('ok', v) or ('error', msg)."""
    fdef = F.find_function(name, len(rows[0]) if rows else (0 if name == "count*" else 1))
    ctx = Ctx()
    ctx.collation = coll
    agg = fdef.func(ctx)
    try:
        for r in rows:
            agg.step(*r)
        return ("ok", agg.finalize())
    except Error as e:
        return ("error", str(e))


def load(xs, ss=None):
    DB.execute("delete from t")
    ss = ss or [None] * len(xs)
    DB.executemany("insert into t(i, x, s) values(?,?,?)",
                   [(k, x, ss[k] if k < len(ss) else None) for k, x in enumerate(xs)])


def oracle(sql):
    try:
        return ("ok", DB.execute(sql).fetchone())
    except sqlite3.Error as e:
        return ("error", str(e))


def same(a, b):
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def assert_same(o, t, what):
    if o[0] == "error" or t[0] == "error":
        assert o[0] == t[0] and o[1] == t[1], (what, o, t)
        return
    typ, val = t[1]
    assert V.typeof(o[1]) == typ, (what, o, t)
    assert same(o[1], val), (what, o, t)


@SETTINGS
@given(column)
def test_one_argument_aggregates(xs):
    load(xs)
    for name in ("count", "sum", "total", "avg", "min", "max", "group_concat"):
        t = oracle(f"select typeof(v), v from (select {name}(x) as v from t)")
        assert_same(run(name, [(x,) for x in xs]), t, (name, xs))


@SETTINGS
@given(column)
def test_count_star(xs):
    load(xs)
    fdef = F.find_function("count", 0)
    agg = fdef.func(Ctx())
    for _ in xs:
        agg.step()
    assert agg.finalize() == DB.execute("select count(*) from t").fetchone()[0]


@SETTINGS
@given(column, seps)
def test_group_concat_separators(xs, ss):
    load(xs, ss)
    ss = (ss + [None] * len(xs))[: len(xs)]
    t = oracle("select typeof(v), v from (select group_concat(x, s) as v from t)")
    assert_same(run("group_concat", list(zip(xs, ss))), t, (xs, ss))


@pytest.mark.parametrize("coll", ["NOCASE", "RTRIM", "BINARY"])
@SETTINGS
@given(st.lists(st.one_of(st.none(), st.text(alphabet="aAbB ", max_size=3), st.integers(0, 3)),
                max_size=8))
def test_min_max_with_collation(coll, xs):
    load(xs)
    for name in ("min", "max"):
        t = oracle(f"select typeof(v), v from (select {name}(x collate {coll}) as v from t)")
        assert_same(run(name, [(x,) for x in xs], collations.BUILTIN[coll]), t, (name, coll))


def test_sum_overflow_is_an_error():
    load([2**63 - 1, 1])
    assert run("sum", [(2**63 - 1,), (1,)]) == oracle("select sum(x) from t") \
        == ("error", "integer overflow")
    load([2**63 - 1, 1, 0.5])
    assert run("sum", [(2**63 - 1,), (1,), (0.5,)])[0] == "error"
    load([0.5, 2**63 - 1, 1])
    assert_same(run("sum", [(0.5,), (2**63 - 1,), (1,)]),
                oracle("select typeof(v), v from (select sum(x) v from t)"), "real first")


def test_min_max_step_reports_new_best():
    ctx = Ctx()
    agg = F.find_function("max", 1).func(ctx)
    assert agg.step(None) is True  # nothing yet: the row is loaded
    assert agg.step(3) is True
    assert agg.step(None) is False
    assert agg.step(2) is False
    assert agg.step(3) is False  # ties keep the first
    assert agg.step(4) is True
    assert agg.finalize() == 4


@SETTINGS
@given(column, st.integers(0, 3))
def test_sliding_window(xs, width):
    """sum/total/avg/count/group_concat/min/max over ROWS BETWEEN width PRECEDING AND CURRENT
    ROW, computed with step + inverse + value, equal sqlite3's window results."""
    load(xs)
    for name in ("count", "sum", "total", "avg", "group_concat", "min", "max"):
        rows = oracle_rows(
            f"select typeof(v), v from (select {name}(x) over (order by i rows between "
            f"{width} preceding and current row) as v from t order by i)")
        if rows[0] == "error":
            continue
        fdef = F.find_function(name, 1)
        agg = fdef.func(Ctx())
        if hasattr(agg, "track_window"):
            agg.track_window()
        for k, x in enumerate(xs):
            if k - width - 1 >= 0:  # SQLite removes the leaving row before adding the new one
                agg.inverse(xs[k - width - 1])
            agg.step(x)
            try:
                mine = ("ok", agg.value())
            except Error as e:
                mine = ("error", str(e))
            if mine[0] == "error":
                break  # sqlite3 raised too for this frame (checked by the oracle row count)
            assert_same(mine, ("ok", rows[1][k]), (name, xs, width, k))


def oracle_rows(sql):
    try:
        return ("ok", DB.execute(sql).fetchall())
    except sqlite3.Error as e:
        return ("error", str(e))
