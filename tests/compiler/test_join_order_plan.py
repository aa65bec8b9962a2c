"""Joins planned for their ORDER BY or GROUP BY, as SQLite's wherePathSolver plans them:
the loops of a join (inner joins in any order, a LEFT JOIN's right table after its left
tables) are chosen with the order they deliver weighed at every step, so an index that
gives the ORDER BY or GROUP BY replaces the sort where sqlite3 reads it so. Each query
runs on both engines, without statistics and over sqlite_stat1 rows: EXPLAIN QUERY PLAN
says what sqlite3 says (SCAN/SEARCH, the index, whether a temporary b-tree sorts), and
the rows come in sqlite3's order."""

from __future__ import annotations

import random
import sqlite3

import pytest

import sqlengine

SCHEMA = """
create table t1(a integer primary key, b, c, d);
create index t1b on t1(b);
create index t1cd on t1(c, d);
create table t2(x integer primary key, y, z);
create index t2y on t2(y);
create index t2z on t2(z);
create table t3(p, q, r);
create index t3p on t3(p);
create table t4(u, v);
"""

ROWS = {
    "t1": [(i, (i * 7) % 11, (i * 3) % 5, i * 13 % 17) for i in range(1, 30)],
    "t2": [(i, (i * 5) % 31, (i * 11) % 13) for i in range(1, 25)],
    "t3": [((i * 3) % 23, i, i % 4) for i in range(1, 20)],
    "t4": [((i * 7) % 13, i) for i in range(1, 15)],
}

STATS = [
    ("t1", "t1b", "10000 20"), ("t1", "t1cd", "10000 500 2"),
    ("t2", "t2y", "300 3"), ("t2", "t2z", "300 30"),
    ("t3", "t3p", "5000 5"), ("t4", None, "50"),
]

QUERIES = [
    # two tables, inner joins
    "select * from t1, t2 where t2.y = t1.a order by t1.b",
    "select * from t1, t2 where t2.y = t1.a order by t1.b desc",
    "select * from t2, t1 where t2.y = t1.a order by t1.b",
    "select * from t1 join t2 on t2.x = t1.b order by t1.c, t1.d",
    "select * from t1 join t2 on t2.x = t1.b order by t1.c desc, t1.d desc",
    "select * from t1 join t2 on t2.x = t1.b order by t2.z",
    "select * from t1, t2 where t1.b = t2.z order by t2.y",
    "select * from t1, t2 where t1.b = t2.z order by t2.y limit 4",
    "select * from t1, t4 where t4.u = t1.b order by t1.b limit 5",
    "select * from t1, t4 where t4.u = t1.b order by t4.u",
    "select * from t1, t2 where t2.y = t1.a order by t1.a, t2.x",
    "select * from t1, t2 where t2.x = t1.b order by t1.a desc",
    "select * from t4, t2 where t2.y = t4.u order by t2.y",
    "select * from t3, t1 where t1.b = t3.q order by t3.p",
    "select * from t3, t1 where t1.a = t3.q order by t3.p desc limit 3",
    "select t1.b, count(*) from t1, t2 where t2.y = t1.a group by t1.b",
    "select t2.y, count(*) from t1, t2 where t2.y = t1.a group by t2.y",
    "select t1.b, count(*) from t1 join t3 on t3.p = t1.a group by t1.b",
    "select t3.p, sum(t1.d) from t3 join t1 on t1.a = t3.q group by t3.p",
    "select t1.c, t1.d, count(*) from t1, t2 where t2.x = t1.a group by t1.c, t1.d",
    # three tables
    "select * from t1, t2, t3 where t2.y = t1.a and t3.p = t2.x order by t1.b",
    "select * from t3, t2, t1 where t2.y = t1.a and t3.p = t2.x order by t1.c",
    "select * from t1, t2, t3 where t2.y = t1.a and t3.p = t2.x order by t3.p",
    "select * from t1, t2, t4 where t2.x = t1.b and t4.u = t2.z order by t1.b desc",
    "select t1.b, count(*) from t1, t2, t3 where t2.y = t1.a and t3.p = t2.x group by t1.b",
    # LEFT JOINs
    "select * from t1 left join t2 on t2.y = t1.a order by t1.b",
    "select * from t1 left join t2 on t2.y = t1.a order by t1.b desc limit 3",
    "select * from t1 left join t2 on t2.y = t1.a order by t1.a",
    "select * from t1 left join t2 on t2.y = t1.a order by t2.y",
    "select * from t1 left join t2 on t2.x = t1.b order by t1.a, t2.x",
    "select * from t1 left join t2 on t2.y = t1.a order by t1.c, t1.d",
    "select * from t1 left join t2 on t2.y = t1.a where t1.b > 3 order by t1.b",
    "select t1.b, count(t2.x) from t1 left join t2 on t2.y = t1.a group by t1.b",
    "select t1.c, count(*) from t1 left join t4 on t4.u = t1.b group by t1.c",
    "select * from t4 left join t1 on t1.b = t4.u order by t4.u",
    "select * from t4 left join t1 on t1.b = t4.u order by t1.b",
    "select * from t1 left join t2 on t2.y = t1.a left join t3 on t3.p = t2.x order by t1.c",
    "select * from t1 join t2 on t2.y = t1.a left join t3 on t3.p = t1.b order by t2.z",
    "select * from t2 join t1 on t2.y = t1.a left join t3 on t3.p = t1.b order by t1.b",
    "select * from t1 left join t2 on t2.y = t1.a join t4 on t4.u = t1.c order by t1.b",
]


# queries whose plans still differ from sqlite3's (without statistics, and over the
# sqlite_stat1 rows unless said otherwise), and why
KNOWN = {
    "select * from t1, t2 where t2.y = t1.a order by t1.a, t2.x":
        "both sort; sqlite3 reads t2 through t2y, whose scan it prices lower for the "
        "terms the index alone can test (whereLoopAddBtree's nLookup), which the engine "
        "does not weigh",
    "select * from t1 left join t2 on t2.y = t1.a order by t2.y":
        "the same: both sort, sqlite3 reads t2 through t2y",
    ("no stats", "select * from t1, t4 where t4.u = t1.b order by t1.b limit 5"):
        "the two plans cost the same (275) in the engine, which keeps the one that sorts; "
        "sqlite3 reads t1 through t1b",
}


def _plan(con, sql):
    """EXPLAIN QUERY PLAN's lines."""
    return [r[-1] for r in con.execute("explain query plan " + sql)]


@pytest.fixture(scope="module", params=["no stats", "stat1"])
def cons(request, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("joinorder") / "j.db")
    ref = sqlite3.connect(path)
    ref.executescript(SCHEMA)
    for name, rows in ROWS.items():
        ref.executemany(f"insert into {name} values ({', '.join('?' * len(rows[0]))})", rows)
    if request.param == "stat1":
        ref.execute("analyze sqlite_schema")  # (makes sqlite_stat1)
        ref.executemany("insert into sqlite_stat1 values (?, ?, ?)", STATS)
    ref.commit()
    ref.close()
    ref = sqlite3.connect(path)
    eng = sqlengine.connect(path)
    yield ref, eng
    ref.close()
    eng.close()


@pytest.mark.parametrize("sql", QUERIES)
def test_plan_as_sqlite(request, cons, sql):
    ref, eng = cons
    if sql in KNOWN or (request.node.callspec.params["cons"], sql) in KNOWN:
        assert _plan(eng, sql) != _plan(ref, sql)  # (tells when a known gap closes)
    else:
        assert _plan(eng, sql) == _plan(ref, sql)


@pytest.mark.parametrize("sql", QUERIES)
def test_rows_in_sqlite_order(cons, sql):
    ref, eng = cons
    assert eng.execute(sql).fetchall() == ref.execute(sql).fetchall()


def _random_joins(seed, n):
    """``n`` joins of two to four of the tables, each joined by an inner join, a comma or
    a LEFT JOIN with an ON term to a table before it, perhaps WHERE terms on any of them
    (IS NULL on a LEFT JOIN's table among them), and an ORDER BY of one or two columns
    followed by every column (so the order of the rows is the query's, not the plan's)."""
    rng = random.Random(seed)
    cols = {"t1": "abcd", "t2": "xyz", "t3": "pqr", "t4": "uv"}
    for _ in range(n):
        tabs = rng.sample(list(cols), rng.randint(2, 4))
        frm = tabs[0]
        for i, t in enumerate(tabs[1:], 1):
            prev = rng.choice(tabs[:i])
            kind = rng.choice(["join", "left join", "left join", ","])
            on = f"{t}.{rng.choice(cols[t])} = {prev}.{rng.choice(cols[prev])}"
            if rng.random() < 0.3:
                on += f" and {t}.{rng.choice(cols[t])} > 1"
            frm += f", {t}" if kind == "," else f" {kind} {t} on {on}"
        where = []
        for _ in range(rng.randint(0, 2)):
            t, u = rng.choice(tabs), rng.choice(tabs)
            c = rng.choice(cols[t])
            where.append(rng.choice([f"{t}.{c} is null", f"{t}.{c} > 2",
                                     f"{t}.{c} = {u}.{rng.choice(cols[u])}"]))
        every = [f"{t}.{c}" for t in tabs for c in cols[t]]
        ob = [c + rng.choice(["", " desc"]) for c in rng.sample(every, rng.randint(1, 2))]
        ob += [c + rng.choice(["", " desc"]) for c in every]
        sql = f"select {', '.join(every)} from {frm}"
        if where:
            sql += " where " + " and ".join(where)
        sql += " order by " + ", ".join(ob)
        if rng.random() < 0.3:
            sql += f" limit {rng.randint(1, 8)}"
        yield sql


@pytest.mark.parametrize("seed", range(4))
def test_random_joins_give_sqlite_rows(cons, seed):
    """Inner joins and LEFT JOINs in whatever order the planner reads them (a LEFT JOIN's
    table after its left tables, the others anywhere), rows as sqlite3's."""
    ref, eng = cons
    for sql in _random_joins(seed, 100):
        assert eng.execute(sql).fetchall() == ref.execute(sql).fetchall(), sql
