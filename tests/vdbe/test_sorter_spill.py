"""The sorter beyond its memory budget: sorted runs spilled to a temporary file and merged
back. The merged order must be the in-memory sort's exactly (stable, collations, DESC,
NULLS FIRST/LAST), the values must come back with their exact types, the rows held in
memory must stay bounded by the budget, and SQL results must not change (against sqlite3).
"""

from __future__ import annotations

import random
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sqlengine
from sqlengine.vdbe import sorter as S
from sqlengine.vdbe._sorter import decode_rows, encode_rows

NOCASE = S.Coll("NOCASE", lambda a, b: (a.lower() > b.lower()) - (a.lower() < b.lower()),
                str.lower)
values = st.one_of(
    st.none(), st.integers(-5, 5), st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([0.5, -1.0, 2.0, 1e300, -0.0]), st.floats(-10, 10),
    st.text(alphabet="aAbB \udc80\u00e9", max_size=3), st.binary(max_size=3))


@pytest.fixture
def small_budget(monkeypatch):
    monkeypatch.setattr(S, "SORTER_BUDGET", 4000)
    monkeypatch.setattr(S, "_FIRST_CHECK", 8)
    monkeypatch.setattr(S, "_MIN_RUN", 4)
    monkeypatch.setattr(S, "MERGE_FANIN", 3)


def run_sorter(rows, spec):
    """Feed ``rows`` to a Sorter as the VM does and read them back; returns (rows, sorter)."""
    s = S.Sorter(spec)
    for r in rows:
        s.rows.append(r)
        if s.trim_at and len(s.rows) >= s.trim_at:
            s.trim([None])
    s.sort()
    out = list(s.rows)
    while s.merger is not None and s.refill():
        out.extend(s.rows)
    return out, s


@given(st.lists(st.tuples(values, values), max_size=40))
@settings(max_examples=200, deadline=None)
def test_run_encoding_round_trips_exactly(rows):
    back = decode_rows(encode_rows(rows))
    assert back == rows
    assert [type(v) for r in back for v in r] == [type(v) for r in rows for v in r]


def test_run_encoding_refuses_inexact_values():
    class Sub(str):
        pass
    assert encode_rows([(1, Sub("x"))]) is None
    assert encode_rows([(True,)]) is None
    assert encode_rows([(2**64,)]) is None


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(1, 2).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(*[values] * n), min_size=50, max_size=400),
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.sampled_from([None, NOCASE]), min_size=n, max_size=n))))
def test_spilled_sort_equals_memory_sort(case):
    n, rows, desc, nulls_first, colls = case
    rows = [r + (k,) for k, r in enumerate(rows)]   # makes stability visible
    spec = S.SortSpec(n, colls, desc, nulls_first)
    expected = list(rows)
    S.sort_rows(expected, spec)
    old = (S.SORTER_BUDGET, S._FIRST_CHECK, S._MIN_RUN, S.MERGE_FANIN)
    S.SORTER_BUDGET, S._FIRST_CHECK, S._MIN_RUN, S.MERGE_FANIN = 3000, 16, 8, 3
    try:
        got, s = run_sorter(rows, spec)
    finally:
        S.SORTER_BUDGET, S._FIRST_CHECK, S._MIN_RUN, S.MERGE_FANIN = old
    assert got == expected
    assert [type(v) for r in got for v in r] == [type(v) for r in expected for v in r]


def test_memory_part_bounded_by_budget(small_budget):
    rng = random.Random(7)
    rows = [(rng.randint(-10**9, 10**9), rng.random(), "row %d" % i) for i in range(20_000)]
    got, s = run_sorter(rows, S.SortSpec(1))
    assert got == sorted(rows, key=lambda r: r[0])  # distinct-enough keys; ties keep order
    assert 0 < s.peak_rows * S._row_bytes(rows[:64]) <= S.SORTER_BUDGET
    assert len(s.runs or ()) == 0 and s.peak_rows < 1000
    assert s.file is None  # the temporary file is closed once read to the end


def test_rows_with_subtype_stay_in_memory(small_budget):
    class Sub(str):
        pass
    rows = [(i % 13, "x") for i in range(500)] + [(5, Sub("j"))] + [(i % 7, "y")
                                                                   for i in range(500)]
    got, _ = run_sorter(rows, S.SortSpec(1))
    expected = list(rows)
    S.sort_rows(expected, S.SortSpec(1))
    assert got == expected
    assert any(type(r[1]) is Sub for r in got)


def test_unusable_limit_falls_back_to_spilling_sorter(small_budget):
    spec = S.SortSpec(1)
    spec.limit_regs = (0, 0)
    rows = [((i * 7919) % 1000, i) for i in range(3000)]
    s = S.Sorter(spec)
    mem = ["not a number"]
    for r in rows:
        s.rows.append(r)
        if s.trim_at and len(s.rows) >= s.trim_at:
            s.trim(mem)
    s.sort()
    out = list(s.rows)
    while s.merger is not None and s.refill():
        out.extend(s.rows)
    assert out == sorted(rows, key=lambda r: r[0])
    assert s.peak_rows < 3000


QUERIES = [
    "SELECT a % 97, count(*), sum(b), min(c), max(c) FROM t GROUP BY a % 97",
    "SELECT * FROM t ORDER BY c COLLATE NOCASE DESC, a",
    "SELECT a, c FROM t ORDER BY b DESC NULLS LAST, a LIMIT 50 OFFSET 3",
    "SELECT a, b FROM t ORDER BY a NULLS LAST, b",
    "SELECT DISTINCT c COLLATE NOCASE FROM t ORDER BY 1",
    "SELECT c, group_concat(a) FROM (SELECT * FROM t ORDER BY a) GROUP BY c ORDER BY 2",
    "SELECT count(*) FROM (SELECT a FROM t ORDER BY b)",
]


@pytest.mark.parametrize("sql", QUERIES)
def test_spilling_queries_match_sqlite(small_budget, sql):
    rng = random.Random(11)
    data = [(rng.choice([None, rng.randint(-500, 500), rng.randint(0, 20)]),
             rng.choice([None, rng.random(), rng.randint(0, 3)]),
             rng.choice(["a", "A", "b", "B ", "é", None, b"z"]) )
            for _ in range(3000)]
    out = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.execute("CREATE TABLE t(a, b, c)")
        con.executemany("INSERT INTO t VALUES (?, ?, ?)", data)
        out.append(con.execute(sql).fetchall())
        con.close()
    assert out[1] == out[0]


# -- automatic index (EphHash) beyond its budget: a b-tree in a temporary file ---------------

def _hash_groups(h, keys):
    out = []
    for k in keys:
        h.lookup(k)
        out.append(list(h.cur))
    return out


# text a database can hold (no lone surrogates: they are not UTF-8)
db_values = st.one_of(
    st.none(), st.integers(-5, 5), st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([0.5, -1.0, 2.0, 1e300, -0.0]), st.floats(-10, 10),
    st.text(alphabet="aAbB \u00e9", max_size=3), st.binary(max_size=3))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(db_values, st.integers(0, 9)), min_size=70, max_size=300),
       st.lists(db_values, max_size=30), st.sampled_from([None, NOCASE]))
def test_spilled_hash_answers_like_memory_hash(rows, probes, coll):
    spec = S.SortSpec(1, [coll])
    rows = [r + (k,) for k, r in enumerate(rows)]
    keys = [(r[0],) for r in rows[::7]] + [(p,) for p in probes]
    old = S.EPH_BUDGET
    S.EPH_BUDGET = 0
    try:
        mem = S.EphHash(spec)
        for r in rows:
            mem.insert(r)
        S.EPH_BUDGET = 1000
        sp = S.EphHash(spec)
        for r in rows:
            sp.insert(r)
    finally:
        S.EPH_BUDGET = old
    assert mem.spilled is None and sp.spilled is not None
    assert len(sp) == len(mem) == len(rows)
    expected = _hash_groups(mem, keys)
    got = _hash_groups(sp, keys)
    assert got == expected
    assert [type(v) for g in got for r in g for v in r] == \
        [type(v) for g in expected for r in g for v in r]
    sp.insert((keys[0][0], "late", -1))     # an insert after the first lookup
    mem.insert((keys[0][0], "late", -1))
    assert _hash_groups(sp, keys[:1]) == _hash_groups(mem, keys[:1])


def test_spilled_hash_keeps_subtyped_values_in_memory(monkeypatch):
    class Sub(str):
        pass
    monkeypatch.setattr(S, "EPH_BUDGET", 2000)
    h = S.EphHash(S.SortSpec(1))
    rows = [(i % 50, Sub("j%d" % i) if i > 100 and i % 97 == 0 else "v%d" % i) for i in range(600)]
    for r in rows:
        h.insert(r)
    assert h.spilled is not None
    for k in (0, 7, 44, 49):
        assert h.lookup((k,))
        assert h.cur == [r for r in rows if r[0] == k]
        assert [type(r[1]) for r in h.cur] == [type(r[1]) for r in rows if r[0] == k]


def test_spilled_table_file_removed_when_dropped(monkeypatch):
    import gc
    import glob
    import os
    import tempfile

    monkeypatch.setattr(S, "EPH_BUDGET", 2000)
    pattern = os.path.join(tempfile.gettempdir(), "sqlengine-temp-*")
    before = set(glob.glob(pattern))
    t = S.EphTable()
    for i in range(1, 500):
        t.insert(i, (i, "x%d" % i))
    assert t.full
    sp = S.SpilledTable(t)
    assert sp.cursor.seek_ge(77) and sp.cursor.rowid == 77
    assert set(glob.glob(pattern)) - before
    del sp
    gc.collect()
    assert set(glob.glob(pattern)) == before


@pytest.mark.parametrize("sql", [
    "SELECT w.v, t.id, t.s FROM w JOIN t ON w.k = t.i ORDER BY 1, 2",
    "SELECT count(*), sum(t.id) FROM w JOIN t ON w.k = t.i",
    "SELECT w.v, t.s FROM w LEFT JOIN t ON t.i = w.k ORDER BY 1, 2",
])
def test_automatic_index_beyond_budget_matches_sqlite(monkeypatch, sql):
    monkeypatch.setattr(S, "EPH_BUDGET", 5000)
    rng = random.Random(4)
    t = [(i, rng.choice([None, rng.randint(0, 300), rng.randint(0, 300) * 1.0,
                         "k%d" % rng.randint(0, 9)]), "x%d" % i) for i in range(3000)]
    w = [(rng.choice([rng.randint(0, 300), "k%d" % rng.randint(0, 9), 5.0, None]), i)
         for i in range(300)]
    out = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, i, s)")
        con.execute("CREATE TABLE w(k, v)")
        con.executemany("INSERT INTO t VALUES (?, ?, ?)", t)
        con.executemany("INSERT INTO w VALUES (?, ?)", w)
        out.append(con.execute(sql).fetchall())
        con.close()
    assert out[1] == out[0]


@given(st.lists(st.tuples(values, values, st.sampled_from([True, 2**70, -(2**40), "é€x"])),
                max_size=80))
@settings(max_examples=100, deadline=None)
def test_row_estimate_is_getsizeof_of_a_sample(rows):
    # the compiled estimate works common sizes out itself: the same figures as
    # sys.getsizeof over the same sample (every step-th row, at most about 32 of them)
    import sys
    rows = [r for r in rows] + [[1, "list row"]]
    n = len(rows)
    step = max(1, n // 32)
    sample = rows[::step]
    want = sum(sys.getsizeof(r) + sum(sys.getsizeof(v) for v in r if v is not None)
               for r in sample) // len(sample) + 8 + 2 * 40
    assert S._row_bytes(rows) == want
