"""A bounded SQL fuzzing run in the regular suite (tools/sqlfuzz.py; the 100,000-statement
run is ``python -m tools.sqlfuzz``): random schemas and statements compared with the stdlib
sqlite3 result for result, and the TLP and NoREC oracles, driven by hypothesis seeds. Every
construct is generated: window functions and frames, WITH RECURSIVE, VALUES in FROM, UPSERT
and RETURNING, UPDATE ... FROM, json, date/time, printf and CAST of edge texts."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tools.sqlfuzz import Gen, Node, Pair, check_norec, check_select, check_tlp, run, shrink


@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 31))
def test_random_statements_match_sqlite(seed):
    st_ = run(100, seed=seed, per_schema=50, do_shrink=False)
    assert st_["statements"] == 100
    assert st_["failures"] == []


FEATURES = ["OVER (", "ROWS BETWEEN", "PARTITION BY", "WITH RECURSIVE", "FROM (VALUES",
            "ON CONFLICT", "DO UPDATE SET", "RETURNING", "FROM (SELECT rowid AS k",
            "json_extract(", "->>", "strftime(", "'start of month'", "printf('%", "CAST('"]


def test_generator_makes_every_feature():
    """The statements of a short run hold each construct of issue #12 the fuzzer covers."""
    gen = Gen(random.Random(3))
    gen.schema()
    text = " ".join([gen.feature_select()[0].sql() for _ in range(300)]
                    + [gen.select()[0].sql() for _ in range(300)]
                    + [gen.dml().sql() for _ in range(300)])
    assert [f for f in FEATURES if f not in text] == []


def test_oracles_catch_a_planted_difference():
    """The checks are live: a predicate whose value differs between the engines is caught
    by the differential check, and TLP/NoREC hold for a sound predicate."""
    pair = Pair(["CREATE TABLE t0(c0)", "INSERT INTO t0 VALUES(1)", "INSERT INTO t0 VALUES(NULL)",
                 "INSERT INTO t0 VALUES('a')"])
    try:
        assert check_select(pair, Node("SELECT c0 FROM t0 WHERE {}", [Node("(c0 > 0)")],
                                       expr=False), False) is None
        pair.ours.create_function("f", 1, lambda x: 1)
        pair.ref.create_function("f", 1, lambda x: 2)
        planted = Node("SELECT c0 FROM t0 WHERE {}", [Node("f(c0) = 1")], expr=False)
        assert check_select(pair, planted, False).startswith("differs")
        assert check_tlp(pair, None, Node("(t0.c0 > 0)"), "t0") is None
        assert check_norec(pair, Node("(t0.c0 > 0)"), "t0") is None
    finally:
        pair.close()


def test_shrink_keeps_the_failure_and_makes_it_smaller():
    gen = Gen(random.Random(5))
    gen.tables = {"t0": [("c0", "")]}
    node = Node("SELECT {} FROM t0", [Node("(({} + {}) * {})", [Node("t0.c0"), Node("7"),
                                                                  Node("(3 || 'x')")])],
                expr=False)

    def fails(setup, nd):     # "fails" while the statement still concatenates
        return "||" in nd.sql()

    before = node.sql()
    setup, small = shrink(["CREATE TABLE t0(c0)", "INSERT INTO t0 VALUES(1)"], node, fails)
    assert "||" in small.sql()
    assert len(small.sql()) < len(before)
    assert setup == ["CREATE TABLE t0(c0)"]
