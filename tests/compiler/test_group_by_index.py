"""GROUP BY read in group order from an index (SQLite's WHERE_GROUPBY): no sorter, and the
groups, their aggregates, bare columns and order are sqlite3's; where no index gives the
order the sorter stays. Each query runs on both engines; rows must be equal in order."""

from __future__ import annotations


import pytest


SCHEMA = """
create table t(id integer primary key, a, b text collate nocase, c);
create index ta on t(a);
create index tb on t(b);
create index tac on t(a, c);
create table u(x, y);
create index ux on u(x desc);
insert into t(a, b, c) values (1, 'X', 5), (2, 'y', 1), (1, 'x', 3), (null, 'Y', 2),
  (3, null, 9), (2, 'z', 7), (1, 'X', 1), (null, null, null), (3, 'w', 4);
insert into u values (1, 'a'), (3, 'b'), (1, 'c'), (2, 'd'), (null, 'e');
"""

QUERIES = [
    "select a, count(*) from t group by a",
    "select a, count(*), sum(c), min(c), max(c) from t group by a",
    "select a, b from t group by a",
    "select a, max(c), b from t group by a",
    "select a, c, count(*) from t group by a, c",
    "select b, count(*) from t group by b",
    "select b, group_concat(c) from t group by b",
    "select a, count(*) from t where a > 1 group by a",
    "select a, count(*) from t where c > 2 group by a",
    "select a, count(*) from t group by a having count(*) > 1",
    "select a, count(*) filter (where c > 2) from t group by a",
    "select a, count(distinct b) from t group by a",
    "select a, count(*) from t group by a order by 2 desc, 1",
    "select a, count(*) from t group by a limit 2",
    "select a, count(*) from t group by a limit 1 offset 1",
    "select id, a from t group by id",
    "select x, count(*) from u group by x",
    "select x, group_concat(y) from u group by x",
    "select a + 0, count(*) from t group by a + 0",
    "select a, (select count(*) from u where x = t.a) from t group by a",
    "select t.a, count(*) from t join u on u.x = t.a group by t.a",
    "select a, count(*) from t where a in (1, 3) group by a",
    "select (select a from t as t2 where t2.a = u.x group by a) from u",
    "select a from t group by a",
    "select distinct a from t group by a",
    "select count(*) from t group by a",
    "select a, count(*) from t where 0 group by a",
]


@pytest.mark.parametrize("q", QUERIES)
def test_same_groups_in_the_same_order(cons, q):
    ref, eng = cons
    assert eng.execute(q).fetchall() == ref.execute(q).fetchall()


@pytest.mark.parametrize("q", [
    "select a, count(*) from t group by a",
    "select a, c, count(*) from t group by a, c",
    "select x, count(*) from u group by x",
    "select a, count(*) from t where a > 1 group by a",
])
def test_index_order_needs_no_sorter(cons, q, eqp):
    ref, eng = cons
    assert eqp(eng, q) == eqp(ref, q)
    assert "USE TEMP B-TREE FOR GROUP BY" not in eqp(eng, q)


def test_unindexed_group_still_sorts(cons, eqp):
    _ref, eng = cons
    assert "USE TEMP B-TREE FOR GROUP BY" in eqp(eng, "select c, count(*) from t group by c")
