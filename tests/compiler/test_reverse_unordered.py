"""PRAGMA reverse_unordered_selects = ON: every loop of a query that asks for no order
(no ORDER BY, GROUP BY or DISTINCT that is not redundant) runs backwards, as SQLite's
sqlite3WhereBegin sets revMask to all bits: full scans, rowid and index ranges, index
equalities, IN lists, the loops of a join, of a view, of a correlated subquery and of
each compound arm. Each query runs on both engines: the rows in the same order and the
same EXPLAIN QUERY PLAN, with the flag on, off again, and before it was ever set."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine

SCHEMA = """
create table t(a integer primary key, b, c); create index tb on t(b);
insert into t values(1,'x',3),(2,'y',1),(3,'x',2),(5,'z',9),(4,'y',7);
create table u(d, e); insert into u values(1,'p'),(2,'q'),(1,'r'),(3,'s');
create table w(k primary key, v) without rowid;
insert into w values('m',1),('a',2),('q',3);
create view v as select * from t where c > 1;
"""

QUERIES = [
    "select * from t", "select a from t where a > 2", "select a from t where a between 2 and 4",
    "select * from t where b = 'x'", "select b from t", "select * from t where b > 'x'",
    "select * from t, u where a = d", "select * from u, t where a = d",
    "select b, count(*) from t group by b", "select distinct b from t",
    "select distinct a from t", "select * from t order by a", "select * from t order by b desc",
    "select * from t where a in (1,3,5)", "select * from v",
    "select * from t union all select * from t where a < 3",
    "select * from t union select * from t where a < 3",
    "select * from t where b in ('x','z')", "select * from u", "select d from u where d = 1",
    "select (select e from u where d = a) from t", "select * from t limit 2",
    "select * from t limit 2 offset 1", "select count(*) from t", "select max(a) from t",
    "select min(b) from t", "select * from t left join u on a = d", "select * from w",
    "select * from w where k > 'b'", "select a from t where exists (select 1 from u where d = a)",
    "select group_concat(e) from u",
    "select * from t where a = 3",
    "with w(x) as (values(1),(2),(3)) select * from w",  # (a co-routine: not reversed)
]


def _connect(module):
    con = module.connect(":memory:", isolation_level=None)
    con.executescript(SCHEMA)
    return con


def _run(con, query):
    return (con.execute(query).fetchall(),
            [r[3] for r in con.execute("explain query plan " + query)])


@pytest.fixture(scope="module")
def pair():
    return _connect(sqlengine), _connect(sqlite3)


@pytest.mark.parametrize("setting", ["never", "1", "off", "on"])
@pytest.mark.parametrize("query", QUERIES)
def test_rows_in_sqlite_order(pair, query, setting):
    if setting == "never":  # (a connection that never set it, even after another did)
        pair = _connect(sqlengine), _connect(sqlite3)
    for con in pair:
        if setting != "never":
            con.execute(f"pragma reverse_unordered_selects = {setting}").fetchall()
    mine, ref = pair
    assert mine.execute("pragma reverse_unordered_selects").fetchall() == \
        ref.execute("pragma reverse_unordered_selects").fetchall()
    assert _run(mine, query) == _run(ref, query)


def test_coroutine_inside_reversed(pair):
    """A FROM subquery run as a co-routine (sqlite3 flattens this one) yields its rows
    in the order its own reversed loops give: the same rows in the same order."""
    query = "select * from (select * from t limit 3)"
    for con in pair:
        con.execute("pragma reverse_unordered_selects = on")
    assert pair[0].execute(query).fetchall() == pair[1].execute(query).fetchall()


def test_prepared_statement_follows_the_flag():
    """A statement prepared before the change is planned again (both engines)."""
    answers = []
    for module in (sqlengine, sqlite3):
        con = _connect(module)
        cur = con.cursor()
        rows = []
        for setting in ("on", "off", "on"):
            con.execute(f"pragma reverse_unordered_selects = {setting}")
            rows.append(cur.execute("select a from t where a > 1").fetchall())
        answers.append(rows)
    assert answers[0] == answers[1]
    assert answers[0][0] == [(5,), (4,), (3,), (2,)]
