"""GROUP BY and ORDER BY read in the order of a WITHOUT ROWID table's PRIMARY KEY, or of
an index on it (whose entries end with the key's columns), as SQLite reads them: no
sorter where the key gives the order (GROUP BY terms in any order and direction, ORDER BY
forwards or backwards), so the rows come in sqlite3's order and EXPLAIN QUERY PLAN says
what sqlite3 says. Each query runs on both engines; rows must be equal in order."""

from __future__ import annotations

import pytest

SCHEMA = """
create table w(a, b, c, primary key(a, b)) without rowid;
insert into w values (2, 1, 'x'), (1, 2, 'y'), (1, 1, 'z'), (3, 0, 'q'), (2, 2, null);
create table wd(a, b, c, primary key(a desc, b)) without rowid;
insert into wd select * from w;
create table wt(k text collate nocase primary key, v) without rowid;
insert into wt values ('b', 1), ('A', 2), ('c', 3), ('B2', 4);
create table wi(a, b, c, primary key(a, b)) without rowid;
create index wi_c on wi(c);
insert into wi values (1, 1, 'p'), (1, 2, 'o'), (2, 1, 'p'), (0, 5, 'o'), (3, 3, null);
"""

QUERIES = [
    "select a, count(*) from w group by a",
    "select a, b, count(*) from w group by a, b",
    "select b, a, count(*) from w group by b, a",
    "select a, max(b) from w group by a",
    "select c from w group by a, b",
    "select a from w order by a",
    "select a, b from w order by a, b",
    "select a, b from w order by a desc, b desc",
    "select a, b from w order by a, b desc",
    "select * from w order by a",
    "select * from w order by a, b limit 2",
    "select a, b from w where a = 1 order by b",
    "select a, b from w where a > 1 order by a",
    "select a, count(*) from wd group by a",
    "select a, b from wd order by a desc, b",
    "select a, b from wd order by a, b desc",
    "select a, b from wd order by a",
    "select k, count(*) from wt group by k",
    "select k from wt order by k",
    "select k from wt order by k collate binary",
    "select k, count(*) from wt group by k collate binary",
    "select c, a, b from wi order by c, a, b",
    "select c, count(*) from wi group by c",
    "select c, a from wi where c = 'p' order by a",
    "select c, b from wi group by c, a, b",
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
