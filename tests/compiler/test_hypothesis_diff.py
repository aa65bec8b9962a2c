"""A differential property test: random expressions and small queries over random tables,
run by sqlengine and by the stdlib sqlite3, must give the same values with the same types
(or both fail). Sub-expressions are fully parenthesised: this test aims at the compiler
and the VM, the parser has its own tests."""

import math
import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqlengine import errors
from sqlengine.database import Database

COLS = ["a", "b", "c"]

literals = st.one_of(
    st.integers(min_value=-1000, max_value=1000).map(str),
    st.sampled_from(["9223372036854775807", "-9223372036854775808", "0", "1"]),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False).map(lambda f: repr(round(f, 3))),
    st.sampled_from(["NULL", "'abc'", "'12'", "' 3.5'", "''", "x'4142'", "'A'", "'a'"]),
)

atoms = st.one_of(literals, st.sampled_from(COLS))


def _combine(children):
    binop = st.sampled_from(["+", "-", "*", "/", "%", "||", "<", "<=", ">", ">=", "=", "!=",
                             "IS", "IS NOT", "AND", "OR", "&", "|", "<<", ">>"])
    unop = st.sampled_from(["-", "+", "NOT ", "~"])
    fn1 = st.sampled_from(["abs", "length", "typeof", "lower", "upper", "coalesce", "quote",
                           "hex", "round"])
    return st.one_of(
        st.tuples(children, binop, children).map(lambda t: f"({t[0]}) {t[1]} ({t[2]})"),
        st.tuples(unop, children).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(fn1, children).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(children, children, children).map(
            lambda t: f"CASE WHEN ({t[0]}) THEN ({t[1]}) ELSE ({t[2]}) END"),
        st.tuples(children, children, children).map(lambda t: f"({t[0]}) BETWEEN ({t[1]}) AND ({t[2]})"),
        st.tuples(children, st.lists(children, min_size=1, max_size=3)).map(
            lambda t: f"({t[0]}) IN ({', '.join('(' + x + ')' for x in t[1])})"),
        st.tuples(children, st.sampled_from(["INTEGER", "REAL", "TEXT", "NUMERIC", "BLOB"])).map(
            lambda t: f"CAST(({t[0]}) AS {t[1]})"),
    )


exprs = st.recursive(atoms, _combine, max_leaves=8)
values = st.one_of(st.none(), st.integers(-50, 50), st.floats(-100, 100, allow_nan=False),
                   st.sampled_from(["x", "10", "2.5", "", "Abc"]))
rows = st.lists(st.tuples(values, values, values), min_size=0, max_size=6)


def _norm(rows):
    out = []
    for r in rows:
        t = []
        for v in r:
            if isinstance(v, float) and not math.isnan(v):
                v = round(v, 9)
            t.append((type(v).__name__, v))
        out.append(tuple(t))
    return out


def _run(fn, sql):
    try:
        return ("ok", _norm(fn(sql)))
    except (sqlite3.Error, errors.Error):
        return ("error",)
    except OverflowError:
        return ("error",)


def _pair(data, decl):
    ref = sqlite3.connect(":memory:", isolation_level=None)
    db = Database(":memory:")
    ddl = f"CREATE TABLE t(a {decl[0]}, b {decl[1]}, c {decl[2]})"
    ref.execute(ddl)
    db.execute(ddl)
    for r in data:
        ref.execute("INSERT INTO t VALUES (?, ?, ?)", r)
        db.execute("INSERT INTO t VALUES (?, ?, ?)", r)
    return ref, db


decls = st.tuples(*[st.sampled_from(["INTEGER", "TEXT", "REAL", "", "NUMERIC"])] * 3)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(rows, decls, exprs, exprs)
def test_expressions_match_sqlite3(data, decl, e1, e2):
    ref, db = _pair(data, decl)
    sql = f"SELECT ({e1}), ({e2}) FROM t ORDER BY rowid"
    assert _run(db.execute, sql) == _run(lambda q: ref.execute(q).fetchall(), sql), sql


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(rows, decls, exprs, st.sampled_from(COLS), st.sampled_from(
    ["count(*)", "count(x)", "sum(x)", "total(x)", "avg(x)", "min(x)", "max(x)",
     "group_concat(x)", "count(DISTINCT x)"]))
def test_queries_match_sqlite3(data, decl, where, gcol, agg):
    ref, db = _pair(data, decl)
    agg = agg.replace("x", "b")
    queries = [
        f"SELECT a, b FROM t WHERE ({where}) ORDER BY a, b, c",
        f"SELECT {gcol}, {agg} FROM t GROUP BY {gcol} ORDER BY 1",
        f"SELECT DISTINCT {gcol} FROM t ORDER BY 1",
        f"SELECT {agg} FROM t WHERE ({where})",
        "SELECT x.a, y.b FROM t AS x LEFT JOIN t AS y ON x.a = y.c ORDER BY 1, 2",
        f"SELECT a FROM t WHERE a IN (SELECT b FROM t WHERE ({where})) ORDER BY 1",
        "SELECT a FROM t UNION SELECT b FROM t ORDER BY 1",
    ]
    for sql in queries:
        assert _run(db.execute, sql) == _run(lambda q: ref.execute(q).fetchall(), sql), sql
