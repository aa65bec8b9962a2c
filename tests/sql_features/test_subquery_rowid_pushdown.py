"""The rowid of a FROM subquery in a WHERE or ON term, against sqlite3 (3.40): SQLite
copies such a term into the subquery with the rowid read as NULL (push-down), so
``s.rowid = 2`` empties a materialized subquery whose rows read rowids 1, 2, ... outside.
Shapes: DISTINCT, GROUP BY, aggregate, LIMIT/OFFSET, compounds, window functions with and
without PARTITION BY, joins (comma, CROSS, LEFT ON), CTEs and views; terms =, <, BETWEEN,
IN, IS [NOT] NULL, arithmetic, AND/OR, a join term. A CTE has no rowid in 3.40 (its table is
TF_NoVisibleRowid: 'no such column: s.rowid'), nor has a CTE's name unqualified; a
subquery reading a CTE has one, pushed into as any subquery's."""

import itertools
import sqlite3

import pytest

import sqlengine

SETUP = """
create table t(x); insert into t values (1),(1),(2),(3);
create table t2(y); insert into t2 values (10),(20);
create view v as select distinct x from t;
"""

SUBQUERIES = [
    "select distinct x from t", "select x from t group by x", "select x from t limit 3",
    "select x from t order by x limit 2 offset 1", "select x from t union select 5",
    "select x from t union all select 5", "select x from t except select 2",
    "select x, row_number() over () r from t",
    "select x, count(*) over (partition by x) c from t", "select x from t",
    "select x, x + 1 y, sum(x) over (partition by x + 1) c from t",
    "select x, count(*) over (partition by x) c, rank() over (partition by x order by x) r "
    "from t",
    "select max(x) x from t", "select x from t where x > 1",
]
TERMS = [
    "s.rowid = 2", "s.rowid < 3", "s.rowid is null", "s.rowid is not null", "s.rowid notnull",
    "s.rowid in (1, 2)", "s.rowid in (select 2)", "s.rowid between 2 and 3", "s.rowid >= 1",
    "s.rowid + 0 = 2", "s.rowid = 2 and s.x > 0", "s.oid = 1", "s.rowid = abs(-2)",
    "s.rowid = random() % 1 + 1", "s.rowid = 2 or s.x = 3",
]
SHAPES = [
    "select s.* from t2, ({sub}) s where {term}",
    "select s.*, s.rowid from ({sub}) s, t2 where {term}",
    "select s.*, s.rowid from ({sub}) s where {term}",
    "select s.* from t2 left join ({sub}) s on {term}",
    "select s.* from t2 cross join ({sub}) s where {term}",
    "select s.* from t2 join ({sub}) s on {term}",
    "with s as ({sub}) select s.* from t2, s where {term}",
    "with s as materialized ({sub}) select s.* from s where {term}",
]
OTHERS = [
    "with s as (select distinct x from t) select s.rowid, s.x from s where s.rowid = 2",
    "with s as not materialized (select distinct x from t) select s.x from s where s.rowid = 2",
    "with s as (select distinct x from t) select rowid, x from s where rowid = 2",
    "with s as (select distinct x from t) select * from s, t2 where rowid = 2",
    "with c as (select distinct x from t) select s.rowid, s.x from t2, (select x from c) s "
    "where s.rowid = 2",
    "with c as (select s.rowid r, s.x from (select distinct x from t) s, t2 where s.rowid = 2)"
    " select * from c",
    "select s.* from t2, (select distinct x from t) s where s.rowid = t2.rowid",
    "select * from t2, v where v.rowid = 2", "select * from t2 left join v on v.rowid = 1",
    "select * from v where rowid = 2", "select rowid, * from v",
    "select s.* from t2, (select distinct x from t) s where s.rowid = ?",
    # a window subquery: the term may read the columns that are PARTITION BY terms
    "select s.* from t2, (select x, x + 1 y, sum(x) over (partition by x + 1) c from t) s "
    "where s.rowid = 2 or s.y = 3",
    "select s.*, s.rowid from (select x, x + 1 y, sum(x) over (partition by x + 1) c "
    "from t) s where s.rowid is null or s.y > 2",
    "select s.* from t2, (select x, count(*) over (partition by x) c, "
    "count(*) over (partition by c) d from t) s where s.rowid = 2 or s.x = 3",
    "select s.* from t2, (select x, count(*) over w c from t window w as (partition by x)) s "
    "where s.rowid = 1 or s.x = 2",
]


def _connect(mod):
    con = mod.connect(":memory:")
    con.executescript(SETUP)
    return con


@pytest.fixture(scope="module")
def pair():
    return _connect(sqlite3), _connect(sqlengine)


def _rows(con, sql, params):
    try:
        return sorted(map(repr, con.execute(sql, params).fetchall()))
    except (sqlite3.Error, sqlengine.Error) as e:
        return ("error", str(e))


CASES = [s.format(sub=sub, term=term)
         for s, sub, term in itertools.product(SHAPES, SUBQUERIES, TERMS)] + OTHERS


@pytest.mark.parametrize("sql", CASES)
def test_subquery_rowid_term(pair, sql):
    params = (2,) if "?" in sql else ()
    ref, eng = pair
    assert _rows(eng, sql, params) == _rows(ref, sql, params)
