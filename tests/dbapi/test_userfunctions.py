"""User-defined functions, aggregates, window functions and collations, with the stdlib's
argument/result conversions and error messages (like CPython's test_userfunctions.py)."""

from __future__ import annotations

import functools

import pytest


def message(text):
    return "^" + text.replace("(", r"\(").replace(")", r"\)").replace("'", "'") + "$"


# -- scalar functions ------------------------------------------------------------------------


def test_function_arguments_and_results(con):
    con.create_function("echo", -1, lambda *args: repr(args))
    assert con.execute("select echo(1, 2.5, 'x', x'00', null)").fetchone() == \
        ("(1, 2.5, 'x', b'\\x00', None)",)


@pytest.mark.parametrize("value", [None, 7, -2**63, 2.5, "text", b"\x01", bytearray(b"ba"),
                                   memoryview(b"mv"), True])
def test_function_result_types(con, value):
    con.create_function("f", 0, lambda: value)
    expected = bytes(value) if isinstance(value, (bytearray, memoryview)) else value
    assert con.execute("select f()").fetchone() == (expected,)


@pytest.mark.parametrize("value", [object(), [1], 1j, (1,)])
def test_function_unsupported_result(con, sqlite, value):
    con.create_function("f", 0, lambda: value)
    with pytest.raises(sqlite.OperationalError, match="^user-defined function raised exception$"):
        con.execute("select f()").fetchone()


def test_function_result_int_overflow(con, sqlite):
    con.create_function("f", 0, lambda: 2**63)
    with pytest.raises(sqlite.DataError, match="^string or blob too big$"):
        con.execute("select f()").fetchone()


def test_function_raises(con, sqlite):
    con.create_function("f", 0, lambda: 1 / 0)
    with pytest.raises(sqlite.OperationalError, match="^user-defined function raised exception$"):
        con.execute("select f()")


def test_function_nargs(con, sqlite):
    con.create_function("two", 2, lambda a, b: a + b)
    assert con.execute("select two(1, 2)").fetchone() == (3,)
    with pytest.raises(sqlite.OperationalError, match="^wrong number of arguments to function two"):
        con.execute("select two(1)")


def test_function_nargs_bounds(con, sqlite):
    for narg in (-2, 128):
        with pytest.raises(sqlite.OperationalError, match="^Error creating function$"):
            con.create_function("f", narg, lambda *a: 1)


def test_function_overloads_by_nargs(con):
    con.create_function("f", 1, lambda a: "one")
    con.create_function("f", 2, lambda a, b: "two")
    assert con.execute("select f(1), f(1, 2)").fetchone() == ("one", "two")


def test_function_replaced_and_none(con, sqlite):
    con.create_function("f", 0, lambda: 1)
    assert con.execute("select f()").fetchone() == (1,)
    con.create_function("f", 0, lambda: 2)
    assert con.execute("select f()").fetchone() == (2,)
    con.create_function("f", 0, None)  # the stdlib registers a function that always fails
    with pytest.raises(sqlite.OperationalError, match="^user-defined function raised exception$"):
        con.execute("select f()")


def test_builtins_overridden_after_use(con):
    """A function created after a built-in of the same name was used replaces it in the
    next statements: a scalar max/1 over the aggregate, aggregates over total() and the
    scalar abs() (sqlengine hands out one call object per name, forgotten on change)."""
    con.execute("create table t(g, v)")
    con.executemany("insert into t values(?, ?)", [("a", 1), ("a", 2), ("b", 10)])
    assert con.execute("select max(v), total(v) from t").fetchall() == [(10, 13.0)]
    assert con.execute("select abs(-v) from t order by 1").fetchall() == [(1,), (2,), (10,)]
    con.create_function("max", 1, lambda x: x * 100)
    assert con.execute("select max(v) from t order by 1").fetchall() == [(100,), (200,), (1000,)]

    class Count:
        def __init__(self):
            self.n = 0

        def step(self, x):
            self.n += 1

        def finalize(self):
            return self.n * 1000
    con.create_aggregate("total", 1, Count)
    con.create_aggregate("abs", 1, Count)
    assert con.execute("select total(v), abs(v) from t").fetchall() == [(3000, 3000)]


def test_function_names_case_insensitive(con):
    con.create_function("MyFunc", 0, lambda: 5)
    assert con.execute("select myfunc(), MYFUNC()").fetchone() == (5, 5)


def test_deterministic_function_in_index(con, sqlite):
    con.create_function("det", 1, lambda x: x * 2, deterministic=True)
    con.execute("create table t(a)")
    con.execute("create index i on t(det(a))")
    con.create_function("nondet", 1, lambda x: x * 2)
    with pytest.raises(sqlite.OperationalError,
                       match="^non-deterministic functions prohibited in index expressions$"):
        con.execute("create index j on t(nondet(a))")


def test_function_callable_objects(con):
    class Adder:
        def __call__(self, a):
            return a + 100

    con.create_function("adder", 1, Adder())
    con.create_function("part", 1, functools.partial(pow, 2))
    assert con.execute("select adder(1), part(3)").fetchone() == (101, 8)


def test_function_used_in_where_and_order(con):
    con.create_function("neg", 1, lambda x: -x)
    con.execute("create table t(a)")
    con.executemany("insert into t values(?)", [(1,), (2,), (3,)])
    assert con.execute("select a from t where neg(a) < -1 order by neg(a)").fetchall() == \
        [(3,), (2,)]


# -- aggregates --------------------------------------------------------------------------------


class Sum:
    def __init__(self):
        self.total = 0

    def step(self, value):
        self.total += value

    def finalize(self):
        return self.total


@pytest.fixture
def numbers(con):
    con.execute("create table t(g, v)")
    con.executemany("insert into t values(?, ?)", [("a", 1), ("a", 2), ("b", 10)])
    return con


def test_aggregate(numbers):
    numbers.create_aggregate("mysum", 1, Sum)
    assert numbers.execute("select mysum(v) from t").fetchone() == (13,)
    assert numbers.execute("select g, mysum(v) from t group by g order by g").fetchall() == \
        [("a", 3), ("b", 10)]


def test_aggregate_no_rows_returns_null_without_calls(numbers):
    calls = []

    class Tracking(Sum):
        def __init__(self):
            calls.append("init")
            super().__init__()

    numbers.create_aggregate("tracked", 1, Tracking)
    assert numbers.execute("select tracked(v) from t where 0").fetchone() == (None,)
    assert calls == []


@pytest.mark.parametrize("broken,text", [
    ("init", "user-defined aggregate's '__init__' method raised error"),
    ("step", "user-defined aggregate's 'step' method raised error"),
    ("finalize", "user-defined aggregate's 'finalize' method raised error"),
    ("nostep", "user-defined aggregate's 'step' method not defined"),
    ("badresult", "user-defined aggregate's 'finalize' method raised error"),
])
def test_aggregate_errors(numbers, sqlite, broken, text):
    class Broken:
        def __init__(self):
            if broken == "init":
                raise ValueError

        def step(self, value):
            if broken == "step":
                raise ValueError

        def finalize(self):
            if broken == "finalize":
                raise ValueError
            return object() if broken == "badresult" else 1

    if broken == "nostep":
        del Broken.step
    numbers.create_aggregate("broken", 1, Broken)
    with pytest.raises(sqlite.OperationalError, match=message(text)):
        numbers.execute("select broken(v) from t").fetchone()


def test_aggregate_star_arguments(numbers):
    class Count:
        def __init__(self):
            self.n = 0

        def step(self, *args):
            self.n += len(args)

        def finalize(self):
            return self.n

    numbers.create_aggregate("argcount", -1, Count)
    assert numbers.execute("select argcount(g, v, 1) from t").fetchone() == (9,)


def test_aggregate_none(numbers, sqlite):
    numbers.create_aggregate("mysum", 1, Sum)
    numbers.create_aggregate("mysum", 1, None)
    with pytest.raises(sqlite.OperationalError,
                       match="^user-defined aggregate's '__init__' method raised error$"):
        numbers.execute("select mysum(v) from t")


# -- window functions ---------------------------------------------------------------------------


class WindowSum:
    def __init__(self):
        self.total = 0

    def step(self, value):
        self.total += value

    def value(self):
        return self.total

    def inverse(self, value):
        self.total -= value

    def finalize(self):
        return self.total


def test_window_function(con):
    con.create_window_function("wsum", 1, WindowSum)
    rows = con.execute("""
        with r(x) as (values (1), (2), (3), (4))
        select x, wsum(x) over (order by x rows between 1 preceding and current row) from r
    """).fetchall()
    assert rows == [(1, 1), (2, 3), (3, 5), (4, 7)]


def test_window_function_as_aggregate(con):
    con.create_window_function("wsum", 1, WindowSum)
    assert con.execute("with r(x) as (values (1), (2)) select wsum(x) from r").fetchone() == (3,)


@pytest.mark.parametrize("broken,text", [
    ("value", "user-defined aggregate's 'value' method raised error"),
    ("inverse", "user-defined aggregate's 'inverse' method raised error"),
])
def test_window_function_errors(con, sqlite, broken, text):
    class Broken(WindowSum):
        pass

    def boom(self, *args):
        raise ValueError

    setattr(Broken, broken, boom)
    con.create_window_function("broken", 1, Broken)
    with pytest.raises(sqlite.OperationalError, match=message(text)):
        con.execute("""
            with r(x) as (values (1), (2), (3))
            select broken(x) over (order by x rows between 1 preceding and current row) from r
        """).fetchall()


WINDOW_QUERIES = {
    "sliding": "select x, w(x) over (order by x rows between 1 preceding and 1 following) "
               "from t",
    "exclude": "select x, w(x) over (order by x rows 1 preceding exclude current row) from t",
    "whole": "select x, w(x) over () from t",
    "aggregate": "select w(x) from t",
}

# (method, 'raise' or 'missing') -> the queries that fail (with the method's message);
# the others run: SQLite calls inverse() only when rows leave a frame, value() only for a
# frame without EXCLUDE (with it, each frame is a new instance ended by finalize()), and
# drops what the partition's last finalize() returns or raises.
WINDOW_FAILURES = {
    ("__init__", "raise"): {"sliding", "exclude", "whole", "aggregate"},
    ("step", "raise"): {"sliding", "exclude", "whole", "aggregate"},
    ("step", "missing"): {"sliding", "exclude", "whole", "aggregate"},
    ("inverse", "raise"): {"sliding"},
    ("inverse", "missing"): {"sliding"},
    ("value", "raise"): {"sliding", "whole"},
    ("value", "missing"): {"sliding", "whole"},
    ("finalize", "raise"): {"exclude", "aggregate"},
    ("finalize", "missing"): {"exclude", "aggregate"},
}


@pytest.mark.parametrize("query", sorted(WINDOW_QUERIES))
@pytest.mark.parametrize("method,how", sorted(WINDOW_FAILURES))
def test_window_method_errors(con, sqlite, method, how, query):
    namespace = dict(WindowSum.__dict__)
    if how == "missing":
        del namespace[method]
    else:
        def boom(self, *args):
            raise ValueError

        namespace[method] = boom
    con.create_window_function("w", 1, type("Broken", (), namespace))
    con.execute("create table t(x)")
    con.executemany("insert into t values (?)", [(1,), (2,), (3,)])
    sql = WINDOW_QUERIES[query]
    if query not in WINDOW_FAILURES[method, how]:
        assert len(con.execute(sql).fetchall()) == (1 if query == "aggregate" else 3)
        return
    verb = "not defined" if how == "missing" else "raised error"
    with pytest.raises(sqlite.OperationalError,
                       match=message(f"user-defined aggregate's '{method}' method {verb}")):
        con.execute(sql).fetchall()


def test_window_frames_without_rows_give_null(con):
    con.create_window_function("w", 1, WindowSum)
    rows = con.execute("""
        with r(x) as (values (1), (2), (3))
        select x, w(x) over (order by x rows 1 preceding exclude current row) from r
    """).fetchall()
    assert rows == [(1, None), (2, 1), (3, 2)]


def test_window_value_too_big(con, sqlite):
    class Big(WindowSum):
        def value(self):
            return 1 << 65

    con.create_window_function("w", 1, Big)
    with pytest.raises(sqlite.DataError, match="^string or blob too big$"):
        con.execute("select w(x) over (order by x rows 1 preceding) from (select 1 as x)")


def test_aggregate_is_not_a_window_function(con, sqlite):
    con.create_aggregate("myAgg", 1, WindowSum)
    for sql in ("select MYAGG(1) over ()", "select myagg(1) filter (where 1) over ()"):
        name = sql.split()[1].split("(")[0]
        with pytest.raises(sqlite.OperationalError,
                           match=message(f"{name}() may not be used as a window function")):
            con.execute(sql)
    assert con.execute("select myagg(1)").fetchone() == (1,)


def test_window_function_redefined(con, sqlite):
    class Doubled(WindowSum):
        def step(self, value):
            self.total += 2 * value

        def inverse(self, value):
            self.total -= 2 * value

    con.create_window_function("w", 1, WindowSum)
    con.create_window_function("w", 1, Doubled)
    rows = con.execute("""
        with r(x) as (values (1), (2), (3))
        select w(x) over (order by x rows 1 preceding) from r
    """).fetchall()
    assert rows == [(2,), (6,), (10,)]
    con.create_window_function("w", 1, None)
    with pytest.raises(sqlite.OperationalError, match="^no such function: w$"):
        con.execute("select w(1) over ()")


def test_window_function_bad_nargs(con, sqlite):
    with pytest.raises(sqlite.ProgrammingError, match="^bad parameter or other API misuse$"):
        con.create_window_function("w", -2, WindowSum)


# -- collations -----------------------------------------------------------------------------------


def reverse_collation(a, b):
    return (a < b) - (a > b)


@pytest.fixture
def words(con):
    con.execute("create table t(w)")
    con.executemany("insert into t values(?)", [("b",), ("a",), ("c",)])
    return con


def test_collation(words):
    words.create_collation("reverse", reverse_collation)
    assert words.execute("select w from t order by w collate reverse").fetchall() == \
        [("c",), ("b",), ("a",)]


def test_collation_name_is_case_insensitive(words):
    words.create_collation("Reverse", reverse_collation)
    assert words.execute("select w from t order by w collate REVERSE").fetchall()[0] == ("c",)


def test_collation_removed(words, sqlite):
    words.create_collation("reverse", reverse_collation)
    words.create_collation("reverse", None)
    with pytest.raises(sqlite.OperationalError, match="^no such collation sequence: reverse$"):
        words.execute("select w from t order by w collate reverse")


def test_collation_must_be_callable(con):
    with pytest.raises(TypeError, match="^parameter must be callable$"):
        con.create_collation("x", 1)


def test_collation_large_results(words):
    words.create_collation("big", lambda a, b: (2**70) * ((a > b) - (a < b)))
    assert words.execute("select w from t order by w collate big").fetchall() == \
        [("a",), ("b",), ("c",)]


def test_collation_exception_propagates(words):
    def broken(a, b):
        raise ZeroDivisionError

    words.create_collation("broken", broken)
    with pytest.raises(ZeroDivisionError):
        words.execute("select w from t order by w collate broken").fetchall()
