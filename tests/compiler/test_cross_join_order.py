"""CROSS JOIN fixes the order of a join's loops as in SQLite (optoverview.html, "Manual
Control Of Query Plans Using CROSS JOIN"): the table on the right of a CROSS JOIN, and
every table after it, is never read in a loop outside a table to the left of that join
(whereLoopAddAll gives them all those tables as prerequisites), where an inner join or a
comma lets the planner pick. Each query runs on both
engines, over tables whose sizes make the planner want another order: EXPLAIN QUERY PLAN
says what sqlite3 says and the rows come in sqlite3's order."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine

SCHEMA = """
create table big(a integer primary key, b, c);
create index bigb on big(b);
create table small(x, y);
create index smallx on small(x);
create table mid(m integer primary key, n);
create index midn on mid(n);
"""

ROWS = {
    "big": [(i, i % 7, i % 13) for i in range(1, 200)],
    "small": [(i, i * 3) for i in range(5)],
    "mid": [(i, i % 5) for i in range(1, 40)],
}

QUERIES = [
    "select * from big cross join small where big.b = small.x",
    "select * from small cross join big where big.b = small.x",
    "select * from big, small where big.b = small.x",
    "select * from big join small on big.b = small.x",
    "select * from big cross join small on big.b = small.x",
    "select * from big cross join small where small.y = big.a",
    "select * from big cross join small, mid where big.b = small.x and mid.m = small.y",
    "select * from big cross join mid cross join small where big.b = small.x"
    " and mid.n = big.c",
    "select * from big cross join small join mid on mid.n = small.x where big.b = small.x",
    "select * from big join small on big.b = small.x cross join mid where mid.m = small.y",
    "select * from mid cross join big, small where big.b = small.x and mid.n = big.c",
    "select * from big cross join small where big.b = small.x order by small.y",
    "select * from big cross join small where big.b = small.x order by big.a desc limit 5",
    "select count(*) from big cross join small where big.b = small.x group by small.x",
]


def _plan(con, sql):
    return [r[-1] for r in con.execute("explain query plan " + sql)]


@pytest.fixture(scope="module", params=["no stats", "analyzed"])
def cons(request, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("crossjoin") / "c.db")
    ref = sqlite3.connect(path)
    ref.executescript(SCHEMA)
    for name, rows in ROWS.items():
        ref.executemany(f"insert into {name} values ({', '.join('?' * len(rows[0]))})", rows)
    if request.param == "analyzed":
        ref.execute("analyze")
    ref.commit()
    ref.close()
    ref = sqlite3.connect(path)
    eng = sqlengine.connect(path)
    yield ref, eng
    ref.close()
    eng.close()


@pytest.mark.parametrize("sql", QUERIES)
def test_plan_as_sqlite(cons, sql):
    ref, eng = cons
    assert _plan(eng, sql) == _plan(ref, sql)


@pytest.mark.parametrize("sql", QUERIES)
def test_rows_in_sqlite_order(cons, sql):
    ref, eng = cons
    assert eng.execute(sql).fetchall() == ref.execute(sql).fetchall()
