"""The compiled sorter (sqlengine.vdbe._sorter) against a plain reference: SQLite's value
order (NULL < numbers < TEXT < BLOB), DESC and NULLS FIRST/LAST per field, collations, and
stability; and ORDER BY results against sqlite3."""

from __future__ import annotations

import sqlite3
from functools import cmp_to_key

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sqlengine
from sqlengine.vdbe import sorter as S
from sqlengine.vdbe._values import compare

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))

values = st.one_of(
    st.none(), st.integers(-5, 5), st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([0.5, -1.0, 2.0, 1e300, -0.0]), st.floats(-10, 10),
    st.text(alphabet="aAbB ", max_size=3), st.binary(max_size=2))
NOCASE = S.Coll("NOCASE", lambda a, b: (a.lower() > b.lower()) - (a.lower() < b.lower()),
                str.lower)


def reference(rows, spec):
    def cmp(a, b):
        for i in range(spec.n_key):
            x, y = a[i], b[i]
            if x is None or y is None:
                if x is None and y is None:
                    continue
                c = -1 if x is None else 1
                return c if spec.nulls_first[i] else -c
            coll = spec.colls[i]
            c = compare(x, y, coll.func if coll is not None else None)
            if c:
                return -c if spec.desc[i] else c
        return 0
    return sorted(rows, key=cmp_to_key(cmp))


@SETTINGS
@given(st.integers(1, 3).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(*[values] * n), max_size=60),
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.sampled_from([None, NOCASE]), min_size=n, max_size=n))))
def test_sort_rows_matches_reference(case):
    n, rows, desc, nulls_first, colls = case
    # a sequence number as the last field makes stability visible
    rows = [r + (k,) for k, r in enumerate(rows)]
    spec = S.SortSpec(n, colls, desc, nulls_first)
    got = list(rows)
    S.sort_rows(got, spec)
    assert got == reference(rows, spec)
    assert [type(v) for r in got for v in r] == [type(v) for r in reference(rows, spec)
                                                 for v in r]


def test_failing_collation_leaves_rows_untouched():
    def bad(a, b):
        raise ValueError("boom")
    rows = [("b",), ("a",), ("c",)]
    spec = S.SortSpec(1, [S.Coll("BAD", bad)])
    try:
        S.sort_rows(rows, spec)
    except ValueError:
        pass
    else:
        raise AssertionError("the collation error was lost")
    assert rows == [("b",), ("a",), ("c",)]


def test_row_key_equalities():
    norms = [None, str.lower]
    assert S.row_key((1, "A"), 2, norms) == S.row_key((1.0, "a"), 2, norms)
    assert S.row_key(("1",), 1, [None]) != S.row_key((1,), 1, [None])
    assert S.row_key((b"x",), 1, [None]) == S.row_key((bytearray(b"x"),), 1, [None])
    assert S.row_key((b"x",), 1, [None]) != S.row_key(("x",), 1, [None])


@SETTINGS
@given(st.lists(st.tuples(values, values), max_size=40))
def test_order_by_like_sqlite(rows):
    out = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.execute("CREATE TABLE t(a, b)")
        con.executemany("INSERT INTO t VALUES (?, ?)", rows)
        out.append([
            con.execute("SELECT a, b FROM t ORDER BY a DESC, b NULLS LAST, rowid").fetchall(),
            con.execute("SELECT a FROM t ORDER BY a COLLATE NOCASE, rowid LIMIT 7").fetchall(),
            con.execute("SELECT a, count(*) FROM t GROUP BY a ORDER BY 2, 1").fetchall(),
        ])
        con.close()
    assert out[0] == out[1]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.integers(0, 6), st.one_of(st.none(), st.integers(0, 3))),
                min_size=300, max_size=1500),
       st.integers(-1, 40), st.integers(-2, 30))
def test_order_by_limit_keeps_sqlites_rows(rows, limit, offset):
    """ORDER BY ... LIMIT runs a bounded (top-N) sorter: with many ties, the rows returned
    and their order are still sqlite3's."""
    out = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.execute("CREATE TABLE t(a, b, c)")
        con.executemany("INSERT INTO t VALUES (?, ?, ?)",
                        [(a, b, k) for k, (a, b) in enumerate(rows)])
        out.append([
            con.execute("SELECT a, b, c FROM t ORDER BY a DESC LIMIT ? OFFSET ?",
                        (limit, offset)).fetchall(),
            con.execute("SELECT c FROM t ORDER BY b, a LIMIT ?", (limit,)).fetchall(),
            con.execute("SELECT DISTINCT a, b FROM t ORDER BY b DESC LIMIT ?",
                        (limit,)).fetchall(),
            con.execute("SELECT a, count(*) FROM t GROUP BY a ORDER BY 2 LIMIT ?, ?",
                        (offset, limit)).fetchall(),
            con.execute("SELECT a, (SELECT c FROM t u WHERE u.a = t.a ORDER BY b LIMIT 1) "
                        "FROM t GROUP BY a").fetchall(),
        ])
        con.close()
    assert out[0] == out[1]


def test_sort_spec_defaults_and_explain_text():
    # (the EXPLAIN text is made when a listing asks for it, from the DESC flags)
    spec = S.SortSpec(3, None, [False, True, False])
    assert spec.explain == "k(3,,-,)"
    assert spec.nulls_first == [True, False, True]
    assert spec.colls == [None, None, None]
    plain = S.SortSpec(2)
    assert (plain.explain, plain.desc, plain.nulls_first) == ("k(2,,)", [False, False],
                                                              [True, True])
    given_nulls = S.SortSpec(2, None, [True, False], [True, True])
    assert given_nulls.nulls_first == [True, True]
    con = sqlengine.connect(":memory:")
    con.execute("create table t(a, b)")
    p4s = [r[5] for r in con.execute("explain select * from t order by a desc, b")]
    assert "k(2,-,)" in p4s


def test_topn_bound_beyond_any_list_keeps_every_row():
    # LIMIT near 2**63 plus an OFFSET: the bound is wider than a C size, so after the first
    # cut the sorter never cuts again and every row comes back in order
    spec = S.SortSpec(1)
    spec.limit_regs = (0, 1)
    rows = [((i * 7919) % 1000, i) for i in range(2000)]
    s = S.Sorter(spec)
    mem = [2**63 - 1, 2**63 - 1]
    for r in rows:
        s.rows.append(r)
        if s.trim_at and len(s.rows) >= s.trim_at:
            s.trim(mem)
    assert s.trim_at > len(rows) and s.cutoff is None
    s.sort()
    assert s.rows == sorted(rows, key=lambda r: r[0])
    con = sqlengine.connect(":memory:")
    con.execute("create table t(a, b)")
    con.executemany("insert into t values (?, ?)", rows)
    assert con.execute("select a, b from t order by a limit 9223372036854775807 offset 3"
                       ).fetchall() == sorted(rows, key=lambda r: r[0])[3:]


def test_store_settings_read_when_made(monkeypatch):
    # the compiled stores read sorter.py's settings when made, not when imported
    monkeypatch.setattr(S, "SORTER_BUDGET", 0)
    assert S.Sorter(S.SortSpec(1)).trim_at == 0
    monkeypatch.setattr(S, "SORTER_BUDGET", 5000)
    monkeypatch.setattr(S, "_FIRST_CHECK", 9)
    assert S.Sorter(S.SortSpec(1)).trim_at == 9
    assert S.EphTable().check_at == 9
    assert S.EphHash(S.SortSpec(1)).check_at == 9
    monkeypatch.setattr(S, "EPH_BUDGET", 0)
    assert S.EphTable().check_at == -1
