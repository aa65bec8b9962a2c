"""SELECT DISTINCT as SQLite plans it: a DISTINCT whose ORDER BY is its result columns
(in order, ascending) runs as a GROUP BY of them, one sorter or index serving both
(group_order.py); otherwise the loops may bring equal rows together (an index whose
columns are the DISTINCT's, in their collation: each row is compared with the one
before, no table of the rows seen), or make every row distinct (the rowid, or a unique
index over NOT NULL columns among the terms: no test at all), and without an ORDER BY
the plan weighs that order (SQLite's WHERE_DISTINCTBY, WHERE_DISTINCT_ORDERED and
WHERE_DISTINCT_UNIQUE). Each query runs on both engines: rows equal in order, and
EXPLAIN QUERY PLAN says what sqlite3 says."""

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
create table d(a, b, c);
create index dd on d(a desc, b);
insert into d select * from t;
create table e(a, b, c);
create index ee on e(a, b desc);
insert into e select * from t;
create table v(a unique, b not null unique, c);
insert into v values (1, 10, 'x'), (null, 11, 'y'), (null, 12, 'x'), (2, 13, null);
create table w(a, b, c, primary key(a, b)) without rowid;
insert into w values (1, 1, 'x'), (1, 2, 'x'), (2, 1, 'y'), (3, 0, 'x');
create table j(x, y);
create index jx on j(x);
insert into j values (1, 'one'), (2, 'two'), (3, 'three'), (1, 'uno');
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
    # an index brings equal rows together: compared with the row before
    "select distinct a from t",
    "select distinct b, a from t",
    "select distinct a from t where b > 1",
    "select distinct b from t where a = 1",
    "select distinct a, b from t where a = 1",
    "select distinct a from t limit 2",
    "select distinct a from t limit 2 offset 1",
    "select distinct a from d",
    "select distinct a, b from d",
    "select distinct b from d where a = 3",
    "select distinct a from e",
    "select distinct a, b from e",
    "select distinct k from n",
    "select distinct k collate binary from n",
    "select distinct a from w",
    "select distinct a from v",
    "select distinct a, b from t order by b",
    "select distinct a, b from t order by a desc",
    "select distinct a from t order by a desc",
    "select distinct t.a from t, j where j.x = t.a",
    "select distinct a, b from t where a in (1, 3)",
    # ... or not: a column no index orders, a join, a constant
    "select distinct a, b, c from t",
    "select distinct c from t",
    "select distinct a, 1 from t",
    "select distinct 1 from t",
    "select distinct a + 0 from t",
    "select distinct t.a, j.y from t, j where j.x = t.a",
    "select distinct c, a from t where a > 1",
    # no two rows can be equal: no test
    "select distinct rowid, c from t",
    "select distinct b from v",
    "select distinct b, c from v",
    "select distinct c, b from v where b = 11",
    "select distinct c, a from v where a = 1",
    "select distinct a, b from w",
    "select distinct c, a, b from w",
    "select distinct b, c from v order by c",
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
