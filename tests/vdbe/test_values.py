"""Differential tests of sqlengine.vdbe._values against the stdlib sqlite3 (SQLite 3.40.1):
every operation is compared value for value and storage class for storage class."""

from __future__ import annotations

import math
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqlengine.vdbe import _values as V

DB = sqlite3.connect(":memory:")
DB.text_factory = lambda b: b.decode("utf-8", "surrogateescape")
SETTINGS = settings(max_examples=int(__import__("os").environ.get("HYP_EXAMPLES", "300")), deadline=None, suppress_health_check=list(HealthCheck))

# -- strategies ------------------------------------------------------------------------------

edge_ints = st.sampled_from(
    [0, 1, -1, 2, 7, -7, 2**31, 2**51, -(2**51), 2**53 + 1, 2**62, 2**63 - 1, -(2**63),
     -(2**63) + 1, 9007199254740993, 1000000000000000000]
)
ints = st.one_of(edge_ints, st.integers(-(2**63), 2**63 - 1), st.integers(-1000, 1000))
floats = st.one_of(
    st.floats(allow_nan=False, width=64),
    st.sampled_from([0.0, -0.0, 0.5, -1.5, 1e20, 1e-5, 1.5e300, 9.223372036854775807e18,
                     -9.223372036854775808e18, 1e18, 2.0**51, 2.0**63, 1e308, math.inf,
                     -math.inf, 3.0, 123456789012345678.0]),
    st.integers(-(2**60), 2**60).map(float),
)
numeric_text = st.text(alphabet=" +-.eE0123456789x\t", max_size=12)
number_text = st.one_of(
    ints.map(str), floats.filter(math.isfinite).map(repr),
    st.tuples(st.sampled_from(["", " ", "  ", "\t"]), st.one_of(ints.map(str), floats.map(str)),
              st.sampled_from(["", " ", "x", "abc", "e", "e5", ".", ".5"]))
    .map(lambda t: "".join(t)),
)
texts = st.one_of(numeric_text, number_text, st.text(max_size=6),
                  st.sampled_from(["", "abc", "0x10", "1e3x", "12abc", "Inf", "nan", "-",
                                   "9223372036854775808", "-9223372036854775808",
                                   "99999999999999999999", "1e400", "-1e400", "1e-400"]))
blobs = st.one_of(st.binary(max_size=6), texts.map(lambda s: s.encode("utf-8")))
values = st.one_of(st.none(), ints, floats, texts, blobs)


def oracle(sql: str, *args):
    """One row of sqlite3's answer, or the error message."""
    try:
        return DB.execute(sql, args).fetchone()
    except sqlite3.Error as e:  # pragma: no cover - only on unexpected inputs
        return ("error", str(e))


def _utf8(v) -> bool:
    if not isinstance(v, bytes):
        return True
    try:
        v.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def same(a, b) -> bool:
    """Equal values of the same storage class (REAL compared bit-for-bit except -0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return a == b


def check(expr_sql: str, ours, *args):
    row = oracle(f"select typeof(x), x from (select {expr_sql} as x)", *args)
    assert row[0] == V.typeof(ours), (expr_sql, args, row, ours)
    assert same(ours, row[1]), (expr_sql, args, row, ours)


# -- conversions -------------------------------------------------------------------------------


@SETTINGS
@given(values)
def test_numeric_value_matches_plus_zero(v):
    check("? + 0", V.add(v, 0), v)
    check("? - 0", V.numeric_value(v) if v is None else V.sub(V.numeric_value(v), 0), v)


@SETTINGS
@given(values)
def test_cast_to_each_type(v):
    for t in ("INTEGER", "REAL", "NUMERIC", "TEXT", "BLOB", "INT", "VARCHAR(10)", "FLOAT",
              "DECIMAL(5,2)", "BOOLEAN", "DATE"):
        check(f"cast(? as {t})", V.cast(v, t), v)


@SETTINGS
@given(st.one_of(ints, floats))
def test_number_to_text(v):
    check("cast(? as text)", V.to_text(v), v)
    check("? || ''", V.concat(v, ""), v)


def test_known_text_renderings():
    assert V.to_text(1.0) == "1.0"
    assert V.to_text(1e20) == "1.0e+20"
    assert V.to_text(1e-5) == "1.0e-05"
    assert V.to_text(1.5e300) == "1.5e+300"
    assert V.to_text(math.inf) == "Inf"
    assert V.to_text(-math.inf) == "-Inf"
    assert V.to_text(-0.0) == "0.0"
    assert V.to_text(123456789012345678.0) == "1.23456789012346e+17"


def test_known_conversions():
    assert V.add("1e3x", 0) == 1000.0
    assert V.add("12abc", 0) == 12 and type(V.add("12abc", 0)) is int
    assert V.cast("12.9abc", "INTEGER") == 12
    assert V.cast(1e20, "INTEGER") == 2**63 - 1
    assert V.cast("1e3", "INTEGER") == 1
    assert V.cast("1e3", "NUMERIC") == 1000
    assert V.cast(None, "TEXT") is None


@SETTINGS
@given(values)
def test_truth_value(v):
    row = oracle("select case when ? then 1 else 0 end, not ?", v, v)
    t = V.truth(v)
    assert (1 if t else 0) == row[0]
    assert V.logical_not(v) == row[1]


@SETTINGS
@given(values)
def test_negate(v):
    check("-?", V.negate(v), v)


# -- affinity -------------------------------------------------------------------------------------

DECLTYPES = ["INTEGER", "INT", "BIGINT", "TEXT", "VARCHAR(5)", "CLOB", "BLOB", "", "REAL",
             "DOUBLE", "FLOAT", "NUMERIC", "DECIMAL", "BOOLEAN", "DATETIME", "CHARINT",
             "FLOATING POINT", "STRING", "Point"]


def test_affinity_of_decltype_rules():
    assert V.affinity_of_decltype(None) == V.AFF_BLOB
    assert V.affinity_of_decltype("") == V.AFF_BLOB
    assert V.affinity_of_decltype("CHARINT") == V.AFF_INTEGER
    assert V.affinity_of_decltype("FLOATING POINT") == V.AFF_INTEGER
    assert V.affinity_of_decltype("STRING") == V.AFF_NUMERIC
    assert V.affinity_of_decltype("varchar(10)") == V.AFF_TEXT
    assert V.affinity_of_decltype("double precision") == V.AFF_REAL
    assert V.affinity_of_decltype("BLOB") == V.AFF_BLOB


def test_affinity_of_decltype_memo_keeps_the_rules():
    """The memo of type texts answers as the rules do: asked again, in another case, and
    after more distinct type texts than it keeps (it starts again)."""
    expected = {"INTEGER": V.AFF_INTEGER, "integer": V.AFF_INTEGER, "VarChar(9)": V.AFF_TEXT,
                "real": V.AFF_REAL, "Floating Point": V.AFF_INTEGER, "Money": V.AFF_NUMERIC,
                "blob": V.AFF_BLOB, "": V.AFF_BLOB}
    for _ in range(2):
        for t, aff in expected.items():
            assert V.affinity_of_decltype(t) == aff
    for i in range(2000):
        assert V.affinity_of_decltype(f"T{i} REAL") == V.AFF_REAL
        assert V.affinity_of_decltype(f"T{i} CHAR") == V.AFF_TEXT
    for t, aff in expected.items():
        assert V.affinity_of_decltype(t) == aff


_cols = ", ".join(f'c{i} {t}' for i, t in enumerate(DECLTYPES))
DB.execute(f"create table aff({_cols})")
DB.execute("create table cmpt(a INTEGER, b TEXT, c REAL, d BLOB, e NUMERIC, f)")


@SETTINGS
@given(values)
def test_apply_affinity_when_stored(v):
    DB.execute("delete from aff")
    DB.execute(f"insert into aff values({', '.join('?' * len(DECLTYPES))})", [v] * len(DECLTYPES))
    for i, t in enumerate(DECLTYPES):
        row = DB.execute(f"select typeof(c{i}), c{i} from aff").fetchone()
        ours = V.apply_affinity(v, V.affinity_of_decltype(t))
        assert row[0] == V.typeof(ours), (t, v, row, ours)
        assert same(ours, row[1]), (t, v, row, ours)


# -- comparison -----------------------------------------------------------------------------------


@SETTINGS
@given(values, values)
def test_compare_without_affinity(a, b):
    row = oracle("select ? < ?, ? = ?, ? > ?, ? is ?", a, b, a, b, a, b, a, b)
    c = V.compare_with_affinity(a, b, None)
    if c is None:
        assert row[:3] == (None, None, None)
    else:
        assert row[:3] == (int(c < 0), int(c == 0), int(c > 0)), (a, b, row, c)
    assert row[3] == int(V.compare(a, b) == 0)


@SETTINGS
@given(values, values)
def test_compare_total_order_matches_order_by(a, b):
    rows = DB.execute("select x from (select ? as x union all select ?) order by x", (a, b))
    got = [r[0] for r in rows]
    ours = sorted([a, b], key=_key) if V.compare(a, b) != 0 else None
    if ours is not None:
        assert [V.typeof(x) for x in got] == [V.typeof(x) for x in ours]
        assert all(same(x, y) or (x == y) for x, y in zip(got, ours)), (got, ours)


def _key(v):
    import functools

    return functools.cmp_to_key(V.compare)(v)


@SETTINGS
@given(values, values)
def test_compare_with_column_affinity(a, b):
    DB.execute("delete from cmpt")
    DB.execute("insert into cmpt values(?,?,?,?,?,?)", [a] * 6)
    stored = DB.execute("select a,b,c,d,e,f from cmpt").fetchone()
    for col, aff, sv in zip("abcdef", ["D", "B", "E", "A", "C", "A"], stored):
        row = DB.execute(f"select {col} < ?, {col} = ?, {col} > ? from cmpt", (b, b, b)).fetchone()
        c = V.compare_with_affinity(sv, b, V.comparison_affinity(aff, None))
        if c is None:
            assert row == (None, None, None)
        else:
            assert row == (int(c < 0), int(c == 0), int(c > 0)), (col, sv, b, row, c)


@SETTINGS
@given(values, values)
def test_compare_column_vs_column(a, b):
    DB.execute("delete from cmpt")
    DB.execute("insert into cmpt values(?,?,?,?,?,?)", [a, a, a, a, a, b])
    DB.execute("update cmpt set f = ?", (b,))
    stored = DB.execute("select a,b,c,d,e from cmpt").fetchone()
    DB.execute("create temp table if not exists cmp2(a INTEGER, b TEXT, c REAL, d BLOB, e NUMERIC)")
    DB.execute("delete from cmp2")
    DB.execute("insert into cmp2 values(?,?,?,?,?)", [b] * 5)
    stored2 = DB.execute("select a,b,c,d,e from cmp2").fetchone()
    affs = ["D", "B", "E", "A", "C"]
    for i, c1 in enumerate("abcde"):
        for j, c2 in enumerate("abcde"):
            row = DB.execute(f"select x.{c1} < y.{c2}, x.{c1} = y.{c2} from cmpt x, cmp2 y").fetchone()
            c = V.compare_with_affinity(stored[i], stored2[j], V.comparison_affinity(affs[i], affs[j]))
            if c is None:
                assert row == (None, None)
            else:
                assert row == (int(c < 0), int(c == 0)), (c1, c2, stored[i], stored2[j], row, c)


def test_compare_int_float_exact():
    assert V.compare(2**63 - 1, 9.223372036854775807e18) == -1
    assert V.compare(2**53 + 1, float(2**53)) == 1
    assert V.compare(None, None) == 0
    assert V.compare(None, -math.inf) == -1
    assert V.compare(math.inf, "") == -1
    assert V.compare("zzz", b"") == -1
    assert V.compare(b"a", b"ab") == -1


def test_comparison_affinity_rules():
    assert V.comparison_affinity("B", None) == "B"
    assert V.comparison_affinity(None, "D") == "D"
    assert V.comparison_affinity("B", "A") == "A"
    assert V.comparison_affinity("B", "E") == "C"
    assert V.comparison_affinity(None, None) == "@"


# -- arithmetic -----------------------------------------------------------------------------------

OPS = [("+", V.add), ("-", V.sub), ("*", V.mul), ("/", V.div), ("%", V.rem),
       ("&", V.bit_and), ("|", V.bit_or), ("<<", V.shift_left), (">>", V.shift_right),
       ("||", V.concat)]


@SETTINGS
@given(values, values)
def test_binary_operators(a, b):
    for op, fn in OPS:
        if op == "||" and not (_utf8(a) and _utf8(b)) and not (type(a) is type(b) is bytes):
            continue  # text from invalid UTF-8 is undefined in SQLite; ours uses U+FFFD
        check(f"? {op} ?", fn(a, b), a, b)


@SETTINGS
@given(st.one_of(ints, floats), st.one_of(ints, floats, st.integers(-70, 70)))
def test_numeric_binary_operators(a, b):
    for op, fn in OPS:
        check(f"? {op} ?", fn(a, b), a, b)


@SETTINGS
@given(values)
def test_bit_not(a):
    check("~ ?", V.bit_not(a), a)


@pytest.mark.parametrize(
    "expr,ours",
    [
        ("9223372036854775807 + 1", V.add(2**63 - 1, 1)),
        ("(-9223372036854775808) / (-1)", V.div(-(2**63), -1)),
        ("(-9223372036854775808) % (-1)", V.rem(-(2**63), -1)),
        ("1 / 0", V.div(1, 0)),
        ("1 % 0.4", V.rem(1, 0.4)),
        ("5.5 % 2", V.rem(5.5, 2)),
        ("-7 / 2", V.div(-7, 2)),
        ("-7 % 3", V.rem(-7, 3)),
        ("1e308 * 10", V.mul(1e308, 10)),
        ("1 << 63", V.shift_left(1, 63)),
        ("-1 >> 100", V.shift_right(-1, 100)),
        ("8 >> -2", V.shift_left(8, 2)),
        ("'abc' % 0", V.rem("abc", 0)),
        # an INTEGER with a REAL: computed in doubles (the REAL path of + - * /)
        ("9007199254740993 + 0.0", V.add(9007199254740993, 0.0)),
        ("9223372036854775807 - 0.5", V.sub(2**63 - 1, 0.5)),
        ("(-9223372036854775808) * 1.5", V.mul(-(2**63), 1.5)),
        ("1 / 0.0", V.div(1, 0.0)),
        ("1.5 / 0", V.div(1.5, 0)),
        ("0.0 / 0.0", V.div(0.0, 0.0)),
        ("(1e308 * 10) - (1e308 * 10)", V.sub(math.inf, math.inf)),
        ("(1e308 * 10) * 0", V.mul(math.inf, 0)),
        ("(1e308 * 10) + (-1e308 * 10)", V.add(math.inf, -math.inf)),
        ("7 / 2.0", V.div(7, 2.0)),
    ],
)
def test_arithmetic_edges(expr, ours):
    check(expr, ours)
