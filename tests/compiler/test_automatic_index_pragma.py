"""PRAGMA automatic_index = OFF: the planner weighs no automatic index (SQLite's
SQLITE_AutoIndex flag, tested in whereLoopAddBtree), for a table, a view, a FROM subquery
or a CTE, in main, temp or an attached database; turning it back on brings them back, and
a statement prepared before the change (an EXPLAIN too) is planned again. Each query runs
on both engines: EXPLAIN QUERY PLAN says what sqlite3 says (its AUTOMATIC [PARTIAL]
COVERING INDEX words read as the engine's AUTOMATIC INDEX: README, Known gaps) and the
rows are the same."""

from __future__ import annotations

import re
import sqlite3

import pytest

import sqlengine

SCHEMA = """
create table t1(a, b);
create table t2(c, d);
create table t3(e integer primary key, f);
create index t3f on t3(f);
create view v2 as select c, d from t2 where d > 2;
attach ':memory:' as aux;
create table aux.t4(g, h);
create temp table t5(i, j);
"""

ROWS = {
    "t1": [((i * 7) % 11, i) for i in range(1, 30)],
    "t2": [((i * 5) % 13, i % 6) for i in range(1, 25)],
    "t3": [(i, (i * 3) % 7) for i in range(1, 20)],
    "aux.t4": [((i * 3) % 9, i) for i in range(1, 15)],
    "t5": [((i * 2) % 5, i) for i in range(1, 12)],
}

QUERIES = [
    "select * from t1, t2 where a = c",
    "select * from t1, t2 where a = c and d > 1",
    "select * from t1 left join t2 on a = c",
    "select * from t1, v2 where a = v2.c",
    "select * from t5, t1 where i = a",
    "select * from t1, t3 where f = a",
    "select * from t1 where b in (select d from t2 where c = t1.a)",
    "select a, (select count(*) from t2 where c = a) from t1",
    "select * from t1, t2, t5 where a = c and d = i",
]

AUTO = re.compile(r"AUTOMATIC (PARTIAL )?COVERING INDEX")


def _connect(module):
    con = module.connect(":memory:", isolation_level=None)
    con.executescript(SCHEMA)
    for table, rows in ROWS.items():
        marks = ",".join("?" * len(rows[0]))
        con.executemany(f"insert into {table} values({marks})", rows)
    return con


def _run(con, query):
    plan = [AUTO.sub("AUTOMATIC INDEX", r[3])
            for r in con.execute("explain query plan " + query).fetchall()]
    return plan, sorted(con.execute(query).fetchall(), key=repr)


@pytest.fixture(scope="module")
def pair():
    return _connect(sqlengine), _connect(sqlite3)


@pytest.mark.parametrize("setting", ["off", "on", "0", "no", "1"])
@pytest.mark.parametrize("query", QUERIES)
def test_plan_and_rows(pair, query, setting):
    mine, ref = pair
    for con in pair:
        con.execute(f"pragma automatic_index = {setting}")
    assert mine.execute("pragma automatic_index").fetchall() == \
        ref.execute("pragma automatic_index").fetchall()
    assert _run(mine, query) == _run(ref, query)


def test_off_makes_none(pair):
    """The flag is what decides: the plain join has an automatic index only when on."""
    mine, _ = pair
    query = "select * from t1, t2 where a = c"
    mine.execute("pragma automatic_index = off")
    assert not any("AUTOMATIC" in line for line in _run(mine, query)[0])
    mine.execute("pragma automatic_index = on")
    assert any("AUTOMATIC" in line for line in _run(mine, query)[0])


@pytest.mark.parametrize("query", [
    "select * from aux.t4, t1 where g = a",
    "select * from t1, aux.t4 where g = a",
    "with w as materialized (select c, d from t2) select * from t1, w where w.c = a",
    "select * from t1, (select c, count(*) n from t2 group by c) s where s.c = a"])
def test_automatic_or_not(pair, query):
    """Where the plans differ otherwise (an attached table's name, the order of a join
    with a materialized subquery: README, Known gaps), both engines make an automatic
    index or none alike, and the rows are the same."""
    for setting in ("off", "on"):
        runs = []
        for con in pair:
            con.execute(f"pragma automatic_index = {setting}")
            plan, rows = _run(con, query)
            runs.append((any("AUTOMATIC" in line for line in plan), rows))
        assert runs[0] == runs[1]
        assert runs[0][0] == (setting == "on")


@pytest.mark.parametrize("module", [sqlengine, sqlite3], ids=["sqlengine", "sqlite3"])
def test_prepared_statement_planned_again(module):
    """A cursor's statement (and an EXPLAIN) prepared before the change is planned again:
    the same plans from both engines, before and after each change."""
    con = _connect(module)
    query = "explain query plan select * from t1, t2 where a = c"
    plans = []
    for setting in ("on", "off", "on"):
        con.execute(f"pragma automatic_index = {setting}")
        plans.append([AUTO.sub("AUTOMATIC INDEX", r[3]) for r in con.execute(query)])
    assert plans == [["SCAN t1", "SEARCH t2 USING AUTOMATIC INDEX (c=?)"],
                     ["SCAN t1", "SCAN t2"],
                     ["SCAN t1", "SEARCH t2 USING AUTOMATIC INDEX (c=?)"]]
