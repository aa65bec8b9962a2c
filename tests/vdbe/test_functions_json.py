"""Differential tests of the JSON functions (func_json) against sqlite3 (3.40's json1)."""

from __future__ import annotations

import json
import math
import os
import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqlengine.errors import Error
from sqlengine.vdbe import _values as V
from sqlengine.vdbe import aggregates  # noqa: F401  (registry side effects)
from sqlengine.vdbe import functions as F

DB = sqlite3.connect(":memory:")
DB.text_factory = lambda b: b.decode("utf-8", "surrogateescape")
N = int(os.environ.get("HYP_EXAMPLES", "200"))
SETTINGS = settings(max_examples=N * 2, deadline=None, suppress_health_check=list(HealthCheck))
CTX = F.FunctionContext()

keys = st.sampled_from(["a", "b", "c", "a b", "x.y", 'q"', "é", ""])
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.integers(-5, 5),
                    st.floats(allow_nan=False, allow_infinity=False),
                    st.text(alphabet='ab"\\\n\x01é😀/', max_size=4))
docs = st.recursive(scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(keys, kids, max_size=4)), max_leaves=12)


def dump(doc, ascii_, indent):
    return json.dumps(doc, ensure_ascii=ascii_, indent=indent)


texts = st.one_of(
    st.builds(dump, docs, st.booleans(), st.sampled_from([None, 0, 1])),
    st.builds(lambda d, cut: dump(d, True, None)[:cut], docs, st.integers(0, 30)),
    st.sampled_from(["", " ", "1.", "01", "-0", "-", "1e5", "1E+5", "1e", ".5", "[1,]", "{,}",
                     '{"a":1,"a":2}', "[1] x", "nul", "nullx", "null_", '"\\u00"', '"\\x"',
                     '"a\tb"', "[" * 3 + "]" * 3, "[" * 2001 + "]" * 2001,
                     "[" * 2000 + "]" * 2000, '{"a":{"b":[1,{"c":2}]}}', "9223372036854775808",
                     "-9223372036854775809", "1e400", '"\\ud83d\\ude00\\ud800x\\u0000y"',
                     '[1]\x00junk', " \t\n\r[1] "]),
)
segs = st.one_of(keys.map(lambda k: "." + k), keys.map(lambda k: '."' + k + '"'),
                 st.integers(0, 4).map(lambda i: "[%d]" % i),
                 st.sampled_from(["[#]", "[#-1]", "[#-2]", "[#-9]", "[", "[x]", ".", "[#+1]", "x",
                                  '."unterminated', "[01]"]))
paths = st.one_of(st.lists(segs, max_size=3).map(lambda s: "$" + "".join(s)),
                  st.sampled_from(["", "x", "a", "1", "[0]", "-1", "$$"]), st.integers(-2, 3),
                  st.none())
sqlvals = st.one_of(st.none(), st.integers(-3, 3), st.floats(allow_nan=False), st.text(max_size=3),
                    st.sampled_from(["[1,2]", '{"z":1}', "x", 1e20, math.inf]), st.binary(max_size=2))


def ours(name, *args):
    try:
        return ("ok", F.find_function(name, len(args)).func(CTX, *args))
    except Error as e:
        return ("error", str(e))


def theirs(sql, *args):
    try:
        return ("ok", DB.execute(f"select typeof(x), x from (select {sql} as x)", args).fetchone())
    except sqlite3.Error as e:
        return ("error", str(e))


def same(o, t, what):
    if o[0] == "error" or t[0] == "error":
        assert o == t, (what, o, t)
        return
    typ, val = t[1]
    assert V.typeof(o[1]) == typ, (what, o, t)
    if isinstance(val, float) and math.isnan(val):
        assert math.isnan(o[1])
    else:
        assert o[1] == val, (what, o, t)


def check(name, *args, sql=None):
    ph = ", ".join("?" * len(args))
    same(ours(name, *args), theirs(sql or f"{name}({ph})", *args), (name, args))


@SETTINGS
@given(texts)
def test_parse_render_type_valid(x):
    check("json", x)
    check("json_valid", x)
    check("json_type", x)
    check("json_array_length", x)


@SETTINGS
@given(texts, paths)
def test_lookup_functions(x, p):
    check("json_extract", x, p)
    check("json_type", x, p)
    check("json_array_length", x, p)
    check("->", x, p, sql="? -> ?")
    check("->>", x, p, sql="? ->> ?")


@SETTINGS
@given(texts, st.lists(paths, min_size=2, max_size=3))
def test_extract_many(x, ps):
    check("json_extract", x, *ps)
    check("json_remove", x, *ps)


@SETTINGS
@given(texts, st.lists(st.tuples(paths, sqlvals, st.booleans()), min_size=1, max_size=3))
def test_edit_functions(x, edits):
    args = []
    sql_args = []
    for p, v, as_json in edits:
        args.append(p)
        sql_args.append("?")
        if as_json and isinstance(v, str) and F.find_function("json_valid", 1).func(CTX, v):
            args.append(F.find_function("json", 1).func(CTX, v))
            sql_args.append("json(?)")
        else:
            args.append(v)
            sql_args.append("?")
    for name in ("json_set", "json_insert", "json_replace"):
        o = ours(name, x, *args)
        t = theirs(f"{name}(?, {', '.join(sql_args)})", x, *[str(a) if type(a) is not str and
                                                              isinstance(a, str) else a
                                                              for a in args])
        same(o, t, (name, x, args))


@SETTINGS
@given(texts, texts)
def test_patch(a, b):
    check("json_patch", a, b)


@SETTINGS
@given(st.lists(sqlvals, max_size=4))
def test_constructors(vals):
    check("json_array", *vals)
    for v in vals:
        check("json_quote", v)
    check("json_object", *vals)
    keyed = [x for k, v in zip(["k1", "k2", "k\"3", "k1"], vals) for x in (k, v)]
    check("json_object", *keyed)


def test_json_subtype_embeds_json():
    j = F.find_function("json", 1).func(CTX, "[1, 2]")
    assert F.find_function("json_array", -1).func(CTX, j, "[1]") == \
        DB.execute("select json_array(json('[1, 2]'), '[1]')").fetchone()[0]
    assert V.typeof(j) == "text" and V.compare(j, "[1,2]") == 0
    assert F.find_function("json_object", -1).func(CTX, "a", j) == '{"a":[1,2]}'


@SETTINGS
@given(st.lists(sqlvals.filter(lambda v: not isinstance(v, bytes)), max_size=5))
def test_group_aggregates(vals):
    DB.execute("create temp table if not exists g(i integer primary key, v)")
    DB.execute("delete from g")
    DB.executemany("insert into g(v) values(?)", [(v,) for v in vals])
    agg = F.find_function("json_group_array", 1).func(CTX)
    for v in vals:
        agg.step(v)
    assert agg.finalize() == DB.execute("select json_group_array(v) from g").fetchone()[0]
    agg = F.find_function("json_group_object", 2).func(CTX)
    for k, v in enumerate(vals):
        agg.step("k%d" % k, v)
    assert agg.finalize() == DB.execute(
        "select json_group_object('k' || (i - 1), v) from g").fetchone()[0]


def test_error_messages():
    check("json_object", "a")
    check("json_object", 1, 2)
    check("json_set", "{}", "$.a")
    check("json_insert", "{}", "$.a")
    check("json_replace", "{}", "$.a")
    check("json_array", b"\x01")
    check("json", "[1,")
    check("json_extract", "[1]", "$[")


def _rows(fn, *args):
    ph = ", ".join("?" * len(args))
    try:
        return ("ok", [tuple(r) for r in DB.execute(
            f"select *, json, root from {fn}({ph})", args).fetchall()])
    except sqlite3.Error as e:
        return ("error", str(e))


@SETTINGS
@given(texts, st.one_of(st.just(None), paths))
def test_json_each_and_tree(x, p):
    from sqlengine.vdbe import func_json as J

    for fn in ("json_each", "json_tree"):
        args = (x,) if p is None else (x, p)
        try:
            mine = ("ok", getattr(J, fn)(*args))
        except Error as e:
            mine = ("error", str(e))
        assert mine == _rows(fn, *args), (fn, args)
