"""Stored FROM subqueries, views and CTEs filled when their loop is first reached, as in
SQLite 3.40 (a subroutine called under OP_Once where sqlite3WhereBegin starts the loop;
each time for one reading an enclosing query's row), and a CTE read by two FROM items
stored once (the later reference calls the same subroutine and opens its own cursor on
the rows: OpenDup). Against sqlite3: the EXPLAIN QUERY PLAN lines (one MATERIALIZE line
for a CTE read twice; an automatic index over a stored subquery), the rows, and the
errors of a fill that never runs (an empty outer table) or runs once (random())."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine

SCHEMA = """
create table e(a);
create table t(b);
insert into t values (1), (2), (3), (4);
create table u(c, d);
insert into u values (2, 'x'), (3, 'y'), (4, 'z'), (4, 'w');
create view v as select distinct c, d from u;
"""

PLANS = [
    "with c as (select distinct c from u) "
    "select * from t left join c as x on 1 left join c as y on x.c = y.c",
    "with c as (select distinct c from u) select (select count(*) from c), (select max(c) from c)",
    "with c as materialized (select c from u) select * from t, c where c.c = t.b",
    "with c as (select c from u) select * from c as x left join c as y on y.c = x.c + 1",
    "select * from t, (select distinct c from u) as x where x.c = t.b",
    "select * from e, (select distinct c, json(d) as j from u) as x where x.c = e.a",
    "select * from t left join v on v.c = t.b",
    "select b, (select count(*) from u left join (select distinct t.b + c as k from u) on k = u.c) "
    "from t",
    "select * from e right join (select distinct c from u) as x on 1",
]

QUERIES = PLANS + [
    "select * from e, (select distinct c, json('{') as j from u) as x where x.c = e.a",
    "select * from e left join (select c, json('{') from u group by c) as x on x.c = e.a",
    "with c as (select random() as r) select x.r = y.r from c as x, c as y",
    "with c as (select random() as r) select (select r from c) = (select r from c)",
    "with c as (select c, random() as r from u) "
    "select count(*) from c as x join c as y on x.r = y.r",
    "with c as (select c, json('{') as j from u) select * from e left join c on 1",
    "with c as (select c, json('{') as j from u) "
    "select * from e left join c on 1 left join c as c2 on 1",
    "select b, (select count(*) from e left join (select distinct t.b, json('{') from u) on 1) "
    "from t",
]


def _run(module, sql, plan):
    con = module.connect(":memory:")
    con.executescript(SCHEMA)
    try:
        if plan:
            return [r[3] for r in con.execute("explain query plan " + sql)]
        rows = con.execute(sql).fetchall()
        return "rows", sorted((tuple((type(x).__name__, x) for x in r) for r in rows), key=repr)
    except (sqlite3.Error, sqlengine.Error) as e:
        return "error", str(e)
    finally:
        con.close()


@pytest.mark.parametrize("sql", PLANS)
def test_plan_lines_match_sqlite3(sql):
    assert _run(sqlengine, sql, True) == _run(sqlite3, sql, True)


@pytest.mark.parametrize("sql", QUERIES)
def test_rows_and_errors_match_sqlite3(sql):
    assert _run(sqlengine, sql, False) == _run(sqlite3, sql, False)
