"""Values in and out: storage classes, text_factory, adapters, converters, PARSE_DECLTYPES
and PARSE_COLNAMES, the default date/timestamp handling (like CPython's test_types.py)."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@pytest.fixture
def registry(sqlite):
    """Snapshot the module's adapter/converter registries and restore them afterwards."""
    adapters = dict(sqlite.adapters)
    converters = dict(sqlite.converters)
    yield sqlite
    sqlite.adapters.clear()
    sqlite.adapters.update(adapters)
    sqlite.converters.clear()
    sqlite.converters.update(converters)


@pytest.mark.parametrize("value", [None, 0, -5, 2**62, 1.5, -0.25, 1e300, "", "text",
                                   "ünïcödé ☃ 𝄞", b"", b"\x00\x01\xff", "a\0b"])
def test_roundtrip(con, value):
    con.execute("create table t(v)")
    con.execute("insert into t values(?)", (value,))
    assert con.execute("select v from t").fetchone() == (value,)


class _Float(float):
    pass


@pytest.mark.engine
def test_nan_binds_null(con):
    """A NaN parameter binds NULL (sqlite3_bind_double), by every binding path: ?, ?N and
    named parameters, a float subclass, executemany; infinities stay REAL."""
    nan = float("nan")
    con.execute("create table t(a real, b)")
    con.execute("insert into t values(?, ?)", (nan, _Float(nan)))
    con.execute("insert into t values(:x, :x)", {"x": nan})
    con.executemany("insert into t values(?, ?)", [(nan, 1), [2, nan]])
    assert con.execute("select a, typeof(a), b, typeof(b) from t").fetchall() == [
        (None, "null", None, "null"), (None, "null", None, "null"),
        (None, "null", 1, "integer"), (2.0, "real", None, "null")]
    assert con.execute("select ? is null, typeof(?1), typeof(?2), ?3, ?4", (
        nan, _Float(nan), float("inf"), float("-inf"))).fetchone() == (
        1, "null", "null", float("inf"), float("-inf"))


def test_large_values(con):
    con.execute("create table t(s, b)")
    s = "x" * 100_000
    b = bytes(range(256)) * 400
    con.execute("insert into t values(?, ?)", (s, b))
    assert con.execute("select s, b from t").fetchone() == (s, b)


def test_column_affinity(con):
    con.execute("create table t(i integer, r real, x text, b blob, n numeric)")
    con.execute("insert into t values('5', '5', 5, 5, '5.0')")
    assert con.execute("select i, r, x, b, n from t").fetchone() == (5, 5.0, "5", 5, 5)
    assert con.execute("select typeof(i), typeof(r), typeof(x), typeof(b), typeof(n) from t"
                       ).fetchone() == ("integer", "real", "text", "integer", "integer")


def test_text_factory_bytes(con):
    con.text_factory = bytes
    assert con.execute("select 'abc', 1, x'00'").fetchone() == (b"abc", 1, b"\x00")


def test_text_factory_callable(con):
    con.text_factory = lambda data: data.decode("utf-8").upper()
    assert con.execute("select 'abc'").fetchone() == ("ABC",)
    con.text_factory = str
    assert con.execute("select 'abc'").fetchone() == ("abc",)


def test_text_factory_does_not_touch_function_arguments(con):
    con.text_factory = bytes
    con.create_function("kind", 1, lambda v: type(v).__name__)
    assert con.execute("select kind('x')").fetchone() == (b"str",)


# -- adapters -----------------------------------------------------------------------------


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


def test_register_adapter(con, registry):
    registry.register_adapter(Point, lambda p: f"{p.x};{p.y}")
    assert con.execute("select ?", (Point(1, 2),)).fetchone() == ("1;2",)


def test_conform_protocol(con, sqlite):
    class Conforming:
        def __conform__(self, protocol):
            if protocol is sqlite.PrepareProtocol:
                return "conformed"

    assert con.execute("select ?", (Conforming(),)).fetchone() == ("conformed",)


def test_adapter_for_base_type(con, registry):
    registry.register_adapter(int, lambda v: v * 10)
    assert con.execute("select ?", (4,)).fetchone() == (40,)


def test_adapter_exception_propagates(con, registry):
    def bad(value):
        raise ZeroDivisionError("adapter")

    registry.register_adapter(Point, bad)
    with pytest.raises(ZeroDivisionError):
        con.execute("select ?", (Point(1, 2),))


def test_adapt_function(registry):
    registry.register_adapter(Point, lambda p: p.x)
    assert registry.adapt(Point(3, 4)) == 3
    assert registry.adapt(Point(3, 4), registry.PrepareProtocol) == 3
    assert registry.adapt(object(), registry.PrepareProtocol, "alt") == "alt"
    with pytest.raises(registry.ProgrammingError, match="^can't adapt$"):
        registry.adapt(object())


def test_default_date_adapters(con):
    date = datetime.date(2024, 2, 29)
    stamp = datetime.datetime(2024, 2, 29, 13, 14, 15, 123456)
    assert con.execute("select ?, ?", (date, stamp)).fetchone() == \
        ("2024-02-29", "2024-02-29 13:14:15.123456")


# -- converters ---------------------------------------------------------------------------


@pytest.fixture
def detect_con(sqlite, registry):
    registry.register_converter("POINT", lambda data: ("point", data))
    con = sqlite.connect(":memory:", detect_types=sqlite.PARSE_DECLTYPES | sqlite.PARSE_COLNAMES)
    con.execute("create table t(a point(10), b Point, c integer, d)")
    con.execute("insert into t values(1.5, 2, 'x', x'00')")
    con.execute("insert into t values(null, x'ab', 3, 4)")
    yield con
    con.close()


def test_converters_by_declared_type(detect_con):
    rows = detect_con.execute("select a, b, c, d from t").fetchall()
    assert rows == [(("point", b"1.5"), ("point", b"2"), "x", b"\x00"),
                    (None, ("point", b"\xab"), 3, 4)]


def test_converters_by_column_name(detect_con):
    cur = detect_con.execute('select c as "c [point]", d as "d [POINT]", a as "a [integer]", '
                             'a as "q[point]", c as "x  [point] tail" from t')
    assert [d[0] for d in cur.description] == ["c", "d", "a", "q", "x "]
    assert cur.fetchone() == (("point", b"x"), ("point", b"\x00"), ("point", b"1.5"),
                              ("point", b"1.5"), ("point", b"x"))


def test_converters_need_detect_types(sqlite, registry):
    registry.register_converter("POINT", lambda data: ("point", data))
    con = sqlite.connect(":memory:")
    con.execute("create table t(a point)")
    con.execute("insert into t values(1)")
    assert con.execute('select a, a as "x [point]" from t').fetchone() == (1, 1)
    assert con.execute('select a as "x [point]" from t').description[0][0] == "x [point]"


def test_colnames_only(sqlite, registry):
    registry.register_converter("POINT", lambda data: ("point", data))
    con = sqlite.connect(":memory:", detect_types=sqlite.PARSE_COLNAMES)
    con.execute("create table t(a point)")
    con.execute("insert into t values(1)")
    assert con.execute('select a, a as "b [point]" from t').fetchone() == (1, ("point", b"1"))


def test_converter_names_case_insensitive(sqlite, registry):
    registry.register_converter("mixedCase", lambda data: data.decode() + "!")
    con = sqlite.connect(":memory:", detect_types=sqlite.PARSE_DECLTYPES)
    con.execute("create table t(a MIXEDCASE)")
    con.execute("insert into t values('v')")
    assert con.execute("select a from t").fetchone() == ("v!",)


def test_real_values_reach_converters_as_sqlite_text(sqlite, registry):
    registry.register_converter("RAWBLOB", bytes)
    con = sqlite.connect(":memory:", detect_types=sqlite.PARSE_DECLTYPES)
    con.execute("create table t(a rawblob)")
    values = [1.0, 0.1, 1e20, -2.5e-7, 1.0 / 3, 123456789.0, 1e15, 1e16]
    con.executemany("insert into t values(?)", [(v,) for v in values])
    assert [r[0] for r in con.execute("select a from t")] == [
        b"1.0", b"0.1", b"1.0e+20", b"-2.5e-07", b"0.333333333333333", b"123456789.0",
        b"1.0e+15", b"1.0e+16"]


def test_default_date_converters(sqlite):
    con = sqlite.connect(":memory:", detect_types=sqlite.PARSE_DECLTYPES)
    con.execute("create table t(d date, ts timestamp)")
    date = datetime.date(2024, 2, 29)
    stamp = datetime.datetime(2024, 2, 29, 13, 14, 15, 123456)
    con.execute("insert into t values(?, ?)", (date, stamp))
    con.execute("insert into t values(?, ?)", (date, datetime.datetime(2024, 1, 1, 0, 0)))
    assert con.execute("select d, ts from t").fetchall() == [
        (date, stamp), (date, datetime.datetime(2024, 1, 1))]


def test_register_converter_name_type(registry):
    with pytest.raises(TypeError):
        registry.register_converter(5, bytes)


_VALUES = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",))),
    st.binary(),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(_VALUES, _VALUES), max_size=8))
def test_random_values_roundtrip(con, rows):
    con.execute("create table if not exists r(a, b)")
    con.execute("delete from r")
    con.executemany("insert into r values(?, ?)", rows)
    assert con.execute("select a, b from r order by rowid").fetchall() == rows
    for a, b in rows:
        assert con.execute("select ?, ?", (a, b)).fetchone() == (a, b)
