"""Differential tests of the math functions (func_math) against sqlite3."""

from __future__ import annotations

import math
import os
import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqlengine.vdbe import _values as V
from sqlengine.vdbe import func_math
from sqlengine.vdbe import functions as F

DB = sqlite3.connect(":memory:")
DB.text_factory = lambda b: b.decode("utf-8", "surrogateescape")
N = int(os.environ.get("HYP_EXAMPLES", "200"))
SETTINGS = settings(max_examples=N, deadline=None, suppress_health_check=list(HealthCheck))

nums = st.one_of(
    st.integers(-(2**63), 2**63 - 1), st.integers(-5, 5),
    st.floats(allow_nan=False, width=64), st.floats(-3, 3),
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, math.inf, -math.inf, 1e308, 710.0]),
)
values = st.one_of(st.none(), nums, nums.map(str), st.sampled_from(["abc", "", " 2 ", "8abc"]),
                   st.binary(max_size=2))

ONE = sorted(func_math.FUNCS1) + ["ceil", "ceiling", "floor", "trunc", "log", "log10", "ln",
                                   "log2"]
TWO = ["pow", "power", "atan2", "mod", "log"]


def check(name, *args):
    ph = ", ".join("?" * len(args))
    typ, val = DB.execute(f"select typeof(x), x from (select {name}({ph}) as x)", args).fetchone()
    mine = F.find_function(name, len(args)).func(F.FunctionContext(), *args)
    assert V.typeof(mine) == typ, (name, args, mine, typ, val)
    if isinstance(val, float) and isinstance(mine, float):
        # libm and Python's math may differ in the last bit for transcendental functions
        assert mine == val or math.isclose(mine, val, rel_tol=4e-16, abs_tol=0), (name, args)
        assert math.copysign(1, mine) == math.copysign(1, val) or mine == 0
    else:
        assert mine == val, (name, args, mine, val)


@SETTINGS
@given(values)
def test_one_argument(x):
    for name in ONE:
        check(name, x)


@SETTINGS
@given(values, values)
def test_two_arguments(x, y):
    for name in TWO:
        check(name, x, y)


def test_pi():
    check("pi")
