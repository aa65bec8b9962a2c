"""SELECT DISTINCT as SQLite plans it: a DISTINCT whose ORDER BY is its result columns
(in order, ascending) runs as a GROUP BY of them, one sorter or index serving both
(group_order.py). Each query runs on both engines: rows equal in order, and EXPLAIN
QUERY PLAN says what sqlite3 says."""

from __future__ import annotations

import pytest

SCHEMA = """
create table t(a, b, c);
create index ta on t(a, b);
insert into t values (3, 1, 'x'), (1, 2, 'y'), (null, 1, 'z'), (2, null, 'q'), (1, 1, 'w'),
  (3, 3, null), (null, null, 'v'), (5, 2, 'u'), (1, 2, 't'), (3, 1, 's');
create table u(a, b, c);
insert into u select * from t;
insert into u values ('B', 1, 1), ('a', 2, 2), ('b', 3, 3), ('A', 4, 4), ('a', 2, 5);
create table n(k text collate nocase, v);
create index nk on n(k);
insert into n values ('b', 1), ('A', 2), ('c', 3), ('B', 4), ('a', 5);
"""

QUERIES = [
    # the ORDER BY is the result columns: a GROUP BY of them
    "select distinct a from u order by a",
    "select distinct a from u order by 1",
    "select distinct a, b from u order by a, b",
    "select distinct a, b from u order by a, b limit 3",
    "select distinct a, b from u order by a, b limit 2 offset 2",
    "select distinct a + 1 from u order by 1",
    "select distinct 1 from u order by 1",
    "select distinct a collate nocase from u order by 1",
    "select distinct a from t order by a",
    "select distinct a, b from t order by a, b",
    "select distinct b, a from t order by b, a",
    "select distinct b from t where a = 1 order by b",
    "select distinct k from n order by k",
    "select distinct a from u where b > 1 order by a",
    # ... or not: a direction, an order, another term, NULLS LAST
    "select distinct a from u order by a desc",
    "select distinct a, b from u order by b, a",
    "select distinct a, b from u order by a",
    "select distinct a from u order by a nulls last",
    "select distinct a from u order by a collate nocase",
    "select distinct a, b from u order by a, b desc",
]


@pytest.mark.parametrize("sql", QUERIES)
def test_rows_in_sqlite_order(cons, sql):
    ref, ours = cons
    assert ours.execute(sql).fetchall() == ref.execute(sql).fetchall()


@pytest.mark.parametrize("sql", QUERIES)
def test_plan_as_sqlite(cons, sql):
    ref, ours = cons
    q = "explain query plan " + sql
    assert [r[-1] for r in ours.execute(q)] == [r[-1] for r in ref.execute(q)]
