"""An ORDER BY that is its query's GROUP BY (same terms, same order, any directions) is
given by the GROUP BY: its sorter sorts the groups in the ORDER BY's directions, or the
loops deliver them so (an index read forwards or backwards), and no second sorter runs,
as in SQLite (group_order.py). Each query runs on both engines: rows equal in order, and
EXPLAIN QUERY PLAN says what sqlite3 says (also where the ORDER BY still needs its sort:
other terms, another order, NULLS LAST, another collation)."""

from __future__ import annotations

import pytest

SCHEMA = """
create table t(a, b, c);
create index ta on t(a, b);
insert into t values (3, 1, 'x'), (1, 2, 'y'), (null, 1, 'z'), (2, null, 'q'), (1, 1, 'w'),
  (3, 3, null), (null, null, 'v'), (5, 2, 'u'), (4, 4, 't'), (2, 2, 's');
create table u(a, b);
insert into u select a, b from t;
insert into u values ('B', 1), ('a', 2), ('b', 3), ('A', 4);
create table d(a, b, c);
create index dd on d(a desc, b);
insert into d select * from t;
create table n(k text collate nocase, v);
create index nk on n(k);
insert into n values ('b', 1), ('A', 2), ('c', 3), ('B', 4), ('a', 5);
create table j(x, y);
create index jx on j(x);
insert into j values (1, 'one'), (2, 'two'), (3, 'three'), (null, 'none');
"""

QUERIES = [
    # the GROUP BY's sorter gives the ORDER BY
    "select a, count(*) from u group by a order by a",
    "select a, count(*) from u group by a order by a desc",
    "select a, count(*) from u group by a order by 1",
    "select a, count(*) from u group by 1 order by a desc",
    "select a as x, count(*) from u group by x order by x desc",
    "select a, b, count(*) from u group by a, b order by a desc, b",
    "select a, b, count(*) from u group by a, b order by a, b desc",
    "select a, count(*) from u group by a order by a desc nulls last",
    "select a, count(*) from u group by a order by a asc nulls first",
    "select a collate nocase, count(*) from u group by 1 order by 1",
    "select a collate nocase, count(*) from u group by 1 order by 1 desc",
    "select a, count(*) from u group by a collate nocase order by a collate nocase",
    "select a + 1, count(*) from u group by a + 1 order by a + 1 desc",
    "select a, count(*) from u group by a order by a limit 2",
    "select a, count(*) from u group by a order by a desc limit 2 offset 1",
    "select a, count(*) from u group by a having count(*) > 1 order by a desc",
    # ... or does not: another order, fewer terms, NULLs placed otherwise, a collation
    "select a, b, count(*) from u group by a, b order by b, a",
    "select a, b, count(*) from u group by a, b order by a",
    "select a, count(*) from u group by a order by a nulls last",
    "select a, count(*) from u group by a order by a desc nulls first",
    "select a, count(*) from u group by 1 order by a collate nocase",
    "select a, count(*) from u group by a order by count(*)",
    "select a, count(*) from u group by a order by a, count(*)",
    # an index gives the groups, read forwards or backwards for the ORDER BY
    "select a, count(*) from t group by a order by a",
    "select a, count(*) from t group by a order by a desc",
    "select a, count(*) from t where a > 1 group by a order by a desc",
    "select a, count(*) from t where a between 2 and 4 group by a order by a",
    "select a, b, count(*) from t group by a, b order by a, b",
    "select a, b, count(*) from t group by a, b order by a desc, b desc",
    "select a, b, count(*) from t group by a, b order by a desc, b",
    "select a, b, count(*) from t group by b, a order by b, a",
    "select b, count(*) from t where a = 1 group by b order by b desc",
    "select b, count(*) from t where a = 3 group by b order by b",
    "select a, max(c) from t group by a order by a desc",
    "select a, count(*) from t group by a order by a desc limit 3",
    "select a, b, count(*) from d group by a, b order by a desc, b",
    "select a, b, count(*) from d group by a, b order by a, b desc",
    "select a, b, count(*) from d group by a, b order by a, b",
    "select a, count(*) from d group by a order by a",
    "select k, count(*) from n group by k order by k",
    "select k, count(*) from n group by k order by k desc",
    "select k, count(*) from n group by k collate binary order by k collate binary",
    "select k, count(*) from n group by k order by k collate binary",
    "select a, count(*) from t group by a collate nocase order by a collate nocase",
    # joins
    "select a, count(y) from t join j on x = a group by a order by a desc",
    "select x, count(*) from t join j on x = a group by x order by x",
    "select a, count(*) from t, j where x = b group by a order by a desc",
    "select x, count(*) from t, j where x = a group by x order by x desc",
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
