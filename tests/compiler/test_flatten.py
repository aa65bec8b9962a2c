"""The flattener (compiler/flatten.py): a view or subquery that picks columns and rows of
one table is read in the outer query's loop. Results, column names and errors must be
sqlite3's, whether the shape is flattened or left to materialization, and the plan shows
which happened."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine

# the plan line of a subquery or view run as its own query (not flattened): stored, or run
# as a co-routine where SQLite would (the first FROM item)
KEPT = ("MATERIALIZE", "CO-ROUTINE")

SCHEMA = """
create table t(a integer, b text collate nocase, c);
create index tb on t(b);
insert into t values(1, 'X', 3), (2, 'y', 4), (3, 'x', 5), (4, null, 6), (5, 'Y', 1);
create view v1 as select a, b from t where a > 1;
create view v2 as select b from v1;
create view v3 as select * from v2;
create view vc(p, q) as select a, b from t;
create view va as select a as z, b from t;
create view vx as select a, b from t where t.a > 1;
create view ve as select a + 1 as a1, b || 'z' as bz, c from t where a > 1;
"""

QUERIES = [
    "select * from v1",
    "select * from v3",
    "select * from v3 where b = 'X' order by 1",
    "select b, count(*) from v2 group by b order by b",
    "select * from v1 order by b, a",
    "select c from v1",
    "select v1.a from v1",
    "select v1.a from v1 as w",
    "select w.a, w.b from v1 as w where w.b > 'a' order by w.a",
    "select a as b from v1 order by b",
    "select b as a from v1 order by v1.a",
    "select rowid, a from v1 order by a",
    "select * from vc where p > 2",
    "select z from va order by z desc",
    "select * from vx order by a",
    "select * from (select a, b from t where c > 2) s where s.a < 4 order by a",
    "select s.* from (select a, b from t) s order by 1",
    "select * from (select a, b from t) order by a",
    "select a, (select count(*) from t) from v1 order by a",
    "select max(a), b from v1",
    "select distinct b from v2 order by 1",
    "select a from v1 where b in ('x', 'Y') order by a",
    "select a from v1 where b = 'Y' order by a",
    "select a from v1 union select b from v2 order by 1",
    "select * from v1 where a > (select min(a) from v1) order by a",
    "select a1, bz from ve order by 1",
    "select bz, count(*) from ve group by bz order by 1",
    "select ve.bz, a1 + 1 from ve where ve.bz > 'x' order by ve.a1 desc",
    "select bz from ve where bz = 'XZ'",
    "select * from ve where a in (select a from t) order by 1",
]


def _run(con, q, error):
    try:
        cur = con.execute(q)
        return cur.fetchall(), [d[0] for d in cur.description]
    except error as e:
        return "error", str(e)


@pytest.mark.parametrize("q", QUERIES)
def test_flattened_or_not_same_answer(cons, q):
    ref, eng = cons
    assert _run(eng, q, sqlengine.Error) == _run(ref, q, sqlite3.Error)


@pytest.mark.parametrize("q", [
    "select * from v3",
    "select b from v1 where b = 'x'",
    "select w.a from v1 as w",
    "select a from (select a, b from t where c > 2) s where s.a < 4",
    "select * from vx",  # (a qualified name in the view)
    # expression and renamed columns, copied (compiler/flatsubst.py)
    "select z from va",
    "select a1, bz from ve where a1 > 3",
    "select bz, count(*) from ve group by c",
    "select * from (select a * 2 as d, b from t) s where s.d > 4 order by d",
    "select * from (select a * 2 as d, b from t) where b = 'x' order by 1",
])
def test_flattened_plans_read_the_table(cons, q, eqp):
    ref, eng = cons
    assert eqp(eng, q) == eqp(ref, q)
    assert not any(line.startswith(KEPT) for line in eqp(eng, q))


@pytest.mark.parametrize("q", [
    "select rowid, a from v1",     # the view's rowid
    "select * from vc",            # a column list
    "select a1 from ve where a1 in (select a from t)",  # a subquery in the outer query
    "select a from v1 where a in (select a from t)",  # a subquery in the outer query
])
def test_shapes_left_to_materialization(cons, q, eqp):
    _ref, eng = cons
    assert eqp(eng, q)[0].startswith(KEPT)


def test_copy_in_compound_arm_keeps_binary(cons, eqp):
    # the copy of ``b || 'z'`` (b NOCASE) has the implicit COLLATE BINARY of sqlite3's
    # copy, so the compound compares it in BINARY as it did the view's column
    ref, eng = cons
    q = "select bz from ve union select 'XZ' order by 1"
    assert not any(line.startswith(KEPT) for line in eqp(eng, q) + eqp(ref, q))
    assert eng.execute(q).fetchall() == ref.execute(q).fetchall()


STAR_SCHEMA = """
create table b(k, v, u);
create index bkv on b(k, v);
insert into b values('2', 1, 0), (1.0, 3, 1), (2, 1.0, 2);
create view bv as select * from b;
create table g(x, y integer generated always as (x + 1));
insert into g(x) values(1), (2);
"""


@pytest.mark.parametrize("q", [
    # the group's bare value is its first row's: SQLite reads b through the covering
    # index bkv once the subquery is flattened (1.0 sorts first there), not in rowid order
    "select v, count(*) from (select * from b where v is not 3) group by v",
    "select s.v, count(*) from (select * from b where v is not 3) as s group by s.v",
    "select v, count(*) from bv where v is not 3 group by v",
    "select v from (select * from b) where k > 0",
    "select * from (select * from b where u > 0) order by u",
    "select * from (select * from g)",
    "select y from (select * from g) where x > 1",
])
def test_star_subquery_flattened(q, eqp):
    out = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.executescript(STAR_SCHEMA)
        cur = con.execute(q)
        out.append((cur.fetchall(), [d[0] for d in cur.description],
                    eqp(con, q)))
    assert out[1] == out[0]


JOIN_SCHEMA = """
create table t(a, b);
create index ta on t(a, b);
create table u(c, d);
create view v as select a, b from t where b > 1;
create view vq as select t.a, t.b from t where t.b > 1;
create view ve as select a, a + 1 as a1, b || 'z' as bz, b * 2 as b2 from t where b > 1;
create view vn as select a, coalesce(b, 0) as cb from t;
create table w(e, f);
create index uc on u(c);
create view tu as select t.a, b, u.d from t join u on t.a = u.c where u.d > 1;
insert into w values(1, 'a'), (2, 'b'), (10, 'c'), (20, 'd');
insert into t values(1, 2), (2, 3), (3, 1), (1, 5), (2, 'x'), (1.0, 7), ('1', 8);
insert into u values(1, 10), (2, 20), (5, 50), ('1', 1), (1.0, 2);
"""


def _join_answer(mod, q, eqp):
    con = mod.connect(":memory:")
    con.executescript(JOIN_SCHEMA)
    cur = con.execute(q)
    rows = [tuple((type(x).__name__, x) for x in r) for r in cur.fetchall()]
    return rows, [d[0] for d in cur.description], eqp(con, q)


@pytest.mark.parametrize("q", [
    # one item of a join (compiler/flatjoin.py): its table searched through its index
    "select * from (select a from t) x join u on x.a = u.c",
    "select * from v join u on v.a = u.c",
    "select * from u, v where v.a = u.c",
    "select x.*, u.d from (select b, a from t where b > 2) x, u where x.a = u.c",
    "select count(*) from v, u, t where v.a = u.c and t.a = v.a",
    "select * from (select a from t), u where a = c",  # (no alias)
    "select * from t join (select a, b from t where b > 1) x using (a)",  # (USING)
    "select x.*, t.* from t join (select a from t where b > 1) x using (a)",
    "select * from vq join u on vq.a = u.c",  # (names qualified in the view)
    "select * from (select tt.a from t as tt where tt.b > 2) x join u on x.a = u.c",
    # expression columns and renamed ones (compiler/flatsubst.py): copied where named
    "select * from (select a as z from t) x join u on x.z = u.c",
    "select * from (select a + 1 as c, b from t) x join u on x.c = u.c",
    "select * from ve join u on ve.a = u.c",
    "select * from u join ve on ve.a1 = u.c",
    "select ve.bz, ve.a1 * 2 from u, ve where ve.a = u.c and ve.b2 > 2 order by ve.a1",
    # a copy named as a later column's alias: ORDER BY that name still means the alias
    "select x.k, u.d as k from (select b as k, a from t) x, u where x.a = u.c order by k",
    "select ve.bz, u.d as bz from ve, u where ve.a = u.c order by bz desc",
    "select * from (select a + 1 as c from t) x, (select a - 1 as c from t) y"
    " where x.c = y.c",
    # a compound's arm: the copy keeps the column's BINARY (an implicit COLLATE)
    "select * from (select a + 1 as c from t) x join u on x.c = u.c union select 1, 2, 3",
])
def test_join_item_flattened(q, eqp):
    ref = _join_answer(sqlite3, q, eqp)
    assert _join_answer(sqlengine, q, eqp) == ref
    assert not any(line.startswith(KEPT) for line in ref[2])


@pytest.mark.parametrize("q", [
    "select b from (select a from t) x join t on x.a = t.a",  # a column it hides
    "select x.rowid from (select a from t) x join u on x.a = u.c",  # its rowid
    "select distinct u.d from u left join (select a from t) x on x.a = u.c",  # (SQLite's
    # restriction: not on the right of a LEFT JOIN under DISTINCT)
    "select * from (select a from t) x join (select c as a from u) y using (a)",  # USING
    "select * from (select distinct a from t) x join u on x.a = u.c",  # DISTINCT
    "select * from (select a + 1 as c from t) x join u using (c)",  # USING
    "select x.c from (select a + 1 as c from t) x join u on x.c = u.c"
    " where exists (select 1 from w where w.e = x.c)",  # a subquery in the outer query
])
def test_join_item_left_to_materialization(q, eqp):
    eng = sqlengine.connect(":memory:")
    eng.executescript(JOIN_SCHEMA)
    assert any(line.startswith(KEPT) for line in eqp(eng, q))


@pytest.mark.parametrize("q", [
    # on the right of a LEFT JOIN: the table's loop is the join's, its WHERE an ON term
    "select * from u left join (select a from t) x on x.a = u.c",
    "select * from u left join v on v.a = u.c",
    "select u.c, v.b, typeof(v.a) from u left join v on v.a = u.c where v.b is null",
    "select * from u left join ve on ve.a = u.c",  # (copies NULL on the NULL row)
    "select u.c, ve.a1, ve.bz is null from u left join ve on ve.a = u.c where ve.b2 > 0",
])
def test_join_item_right_of_left_join(q, eqp):
    ref = _join_answer(sqlite3, q, eqp)
    eng = _join_answer(sqlengine, q, eqp)
    assert sorted(eng[0], key=repr) == sorted(ref[0], key=repr) and eng[1] == ref[1]
    # (the same loops as sqlite3's; its SEARCH says COVERING INDEX where the planner
    # here reads the table too, as for a plain table on the right of a LEFT JOIN)
    assert [line.split(" USING")[0] for line in eng[2]] == [
        line.split(" USING")[0] for line in ref[2]]


@pytest.mark.parametrize("q, written", [
    # over an inner join: merged as its tables, the loops those of the join written out
    ("select * from tu join w on tu.a = w.e",
     "select t.a, b, u.d, w.* from t join u on t.a = u.c join w on t.a = w.e where u.d > 1"),
    ("select x.* from (select t.a, u.d from t join u on t.a = u.c) x join w on x.d = w.e",
     "select t.a, u.d from t join u on t.a = u.c join w on u.d = w.e"),
    ("select tu.a, count(*) from tu join w on tu.a = w.e group by tu.a",
     "select t.a, count(*) from t join u on t.a = u.c join w on t.a = w.e where u.d > 1"
     " group by t.a"),
    # its name in ORDER BY: the term reads the table of that column
    ("select * from tu join w on tu.a = w.e order by tu.d, tu.b",
     "select t.a, b, u.d, w.* from t join u on t.a = u.c join w on t.a = w.e where u.d > 1"
     " order by u.d, t.b"),
])
def test_join_item_over_a_join(q, written, eqp):
    ref = _join_answer(sqlite3, q, eqp)
    eng = _join_answer(sqlengine, q, eqp)
    assert sorted(eng[0], key=repr) == sorted(ref[0], key=repr) and eng[1] == ref[1]
    assert eng[2] == _join_answer(sqlengine, written, eqp)[2]
    assert not any(line.startswith(KEPT) for line in eng[2])


@pytest.mark.parametrize("q, written", [
    # copies of expression columns: the loops those of the query written with them
    ("select x.s, count(*) from (select b - a as s, a from t) x join u on x.a = u.c"
     " group by x.s order by 1",
     "select t.b - t.a, count(*) from t join u on t.a = u.c group by t.b - t.a order by 1"),
    ("select ve.bz, w.f from ve, w where ve.a1 = w.e",
     "select t.b || 'z', w.f from t, w where t.a + 1 = w.e and t.b > 1"),
])
def test_join_item_copies(q, written, eqp):
    ref = _join_answer(sqlite3, q, eqp)
    eng = _join_answer(sqlengine, q, eqp)
    assert sorted(eng[0], key=repr) == sorted(ref[0], key=repr) and eng[1] == ref[1]
    assert eng[2] == _join_answer(sqlengine, written, eqp)[2]
    assert not any(line.startswith(KEPT) for line in eng[2])


@pytest.mark.parametrize("q", [
    "select * from w left join tu on tu.a = w.e",  # a join on the right of a LEFT JOIN
    # its name in an ORDER BY term holding a subquery
    "select * from tu join w on tu.a = w.e order by (select tu.d)",
    "select * from tu join w on tu.a = w.e where exists (select 1 from u where u.c = tu.a)",
    "select * from tu join t on tu.a = t.a",  # its table's name taken
])
def test_join_item_over_a_join_left_to_materialization(q, eqp):
    eng = sqlengine.connect(":memory:")
    eng.executescript(JOIN_SCHEMA)
    assert any(line.startswith(KEPT) for line in eqp(eng, q))


@pytest.mark.parametrize("q", [
    # coalesce() is not NULL on the NULL row: its copy is guarded as SQLite's IF_NULL_ROW
    "select * from u left join vn on vn.a = u.c",
    "select u.c, vn.cb, vn.cb is null from u left join vn on vn.a = u.c where u.d > 1"
    " order by 1, 2",
    "select u.c, x.k from u left join (select 7 as k, a from t) x on x.a = u.c",
    "select u.c, count(x.k) from u left join (select coalesce(b, 'n') as k, a from t) x"
    " on x.a = u.c group by u.c",
    "select u.c, x.k from u left join (select abs(a) as k from t) x on x.k = u.c",
    "select u.c, x.k from u left join (select lower(b) || 'z' as k, a from t) x on x.a = u.c",
    "select u.c, x.k from u left join (select substr(b, 1, 1) as k, a from t) x on x.a = u.c",
])
def test_copies_on_right_of_left_join(q, eqp):
    # merged as sqlite3 merges them, with its rows
    ref = _join_answer(sqlite3, q, eqp)
    got = _join_answer(sqlengine, q, eqp)
    assert got[:2] == ref[:2]
    assert not any(line.startswith(KEPT) for line in ref[2] + got[2])


def test_application_function_on_right_of_left_join(eqp):
    # an application's abs() may not be NULL on NULL: its copy is guarded (SQLite's
    # IF_NULL_ROW gives NULL on the NULL row)
    q = "select u.c, x.k from u left join (select abs(a) as k, a from t) x on x.a = u.c"
    rows = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.executescript(JOIN_SCHEMA)
        con.create_function("abs", 1, lambda v: 0 if v is None else v)
        rows.append(sorted(map(repr, con.execute(q).fetchall())))
        assert not any(line.startswith("MATERIALIZE") for line in eqp(con, q))
    assert rows[1] == rows[0]
