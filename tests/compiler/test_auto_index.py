"""Automatic indexes built as SQLite's constructAutomaticIndex builds them, differential
against sqlite3: the index holds the key, then every other column the query reads from
its table, then the rowid (a covering index: the loop never reads the table), and only
the rows passing the terms that read that table alone (a PARTIAL index: WHERE terms, or
for the right table of a LEFT JOIN the terms of its own ON). EXPLAIN QUERY PLAN says
AUTOMATIC [PARTIAL] COVERING INDEX as sqlite3 does, the rows of one key come in the
index's order (its other columns, then the rowid), and a partial term is computed for
every row of the table when the index is filled (so its errors are sqlite3's).

Seeded random joins over tables with NULLs, mixed types, declared affinities and
collations, LEFT JOINs, FROM subqueries and partial terms run on both engines: the same
rows with the same types, in sqlite3's order where the two plans are the same."""

from __future__ import annotations

import random
import sqlite3

import pytest

import sqlengine

VALUES = ["NULL", "1", "2", "3", "'1'", "'2'", "' 3'", "1.0", "2.5", "'a'", "'A'", "'b'",
          "x'01'", "-1", "'abc'", "0"]

SETUP = [
    "create table t(a, b, c)",
    "create table u(x integer, y text, z real)",
    "create table v(p numeric, q text collate nocase, r blob, s)",
    "create table w(id integer primary key, k, m)",
]


def _fill(rng):
    rows = []
    for name, ncol in (("t", 3), ("u", 3), ("v", 4), ("w", 2)):
        for _ in range(rng.randint(6, 14)):
            vals = ", ".join(rng.choice(VALUES) for _ in range(ncol))
            if name == "w":
                rows.append(f"insert into w(k, m) values ({vals})")
            else:
                rows.append(f"insert into {name} values ({vals})")
    return rows


COLUMNS = {"t": ["a", "b", "c"], "u": ["x", "y", "z"], "v": ["p", "q", "r", "s"],
           "w": ["id", "k", "m"]}
FROMS = {
    "t": "t", "u": "u", "v": "v", "w": "w",
    # FROM subqueries sqlite3 materializes (GROUP BY): an automatic index over their rows
    "g": "(select a, b, count(*) as n from t group by a, b)",
}
COLUMNS["g"] = ["a", "b", "n"]


def _query(rng):
    """A join of two or three sources with an equality between them (the automatic
    index's key), terms reading one source alone, maybe a LEFT JOIN."""
    names = rng.sample(["t", "u", "v", "w", "g"], rng.choice([2, 2, 3]))
    aliases = [f"s{i}" for i in range(len(names))]

    def col(i):
        return f"{aliases[i]}.{rng.choice(COLUMNS[names[i]])}"

    def alone(i):  # a term reading source i alone (or nothing)
        c = col(i)
        # (no LIKE of an INTEGER PRIMARY KEY: under a LEFT JOIN's ON sqlite3 3.40.1 plans
        # it as a rowid range and loses the outer rows)
        like = f"{c} like 'a%'" if not c.endswith(".id") else f"{c} glob '1*'"
        return rng.choice([f"{c} > {rng.choice(VALUES)}", f"{c} is not null",
                           f"{c} in ({rng.choice(VALUES)}, {rng.choice(VALUES)})",
                           f"{c} = {col(i)}", f"coalesce({c}, 0) <> 2",
                           f"{c} between 1 and 3", "1", like,
                           f"{c} collate nocase = 'a'"])

    parts = [f"{FROMS[names[0]]} as {aliases[0]}"]
    where = []
    for i in range(1, len(names)):
        key = f"{col(i)} = {col(rng.randrange(i))}"
        if rng.random() < 0.4:
            on = [key]
            if rng.random() < 0.6:
                on.append(alone(i))
            parts.append(f"left join {FROMS[names[i]]} as {aliases[i]} on {' and '.join(on)}")
        else:
            parts.append(f"join {FROMS[names[i]]} as {aliases[i]} on {key}")
        if rng.random() < 0.5:
            where.append(alone(rng.randrange(len(names))))
    picked = sorted({col(rng.randrange(len(names))) for _ in range(rng.randint(1, 4))})
    sql = f"select {', '.join(picked)} from {' '.join(parts)}"
    if where:
        sql += " where " + " and ".join(where)
    return sql


class EnginePair:
    """A sqlite3 and a sqlengine connection (DB-API) holding the same tables and the same
    two functions; ``theirs(sql)`` / ``ours(sql)``: ("rows", rows of (type name, value))
    or ("error", message). (conftest.py's EnginePair is not importable here: the test
    folders' conftest modules share one name.)"""

    def __init__(self, setup):
        self.ref = sqlite3.connect(":memory:")
        self.db = sqlengine.connect(":memory:")
        for con in (self.ref, self.db):
            for s in setup:
                con.execute(s)
            con.create_function("nondet", 1, lambda v: v)
            con.create_function("det", 1, lambda v: v, deterministic=True)

    @staticmethod
    def _outcome(con, sql):
        try:
            return "rows", [tuple((type(v).__name__, v) for v in r)
                            for r in con.execute(sql).fetchall()]
        except (sqlite3.Error, sqlengine.Error) as e:
            return "error", str(e)

    def theirs(self, sql):
        return self._outcome(self.ref, sql)

    def ours(self, sql):
        return self._outcome(self.db, sql)

    def close(self):
        self.ref.close()
        self.db.close()


def _plan(con, sql):
    return [r[3] for r in con.execute("explain query plan " + sql)]


@pytest.mark.parametrize("seed", range(12))
def test_random_joins_as_sqlite(seed):
    rng = random.Random(seed)
    pair = EnginePair(SETUP + _fill(rng))
    autos = same_plans = 0
    try:
        for _ in range(60):
            sql = _query(rng)
            theirs = pair.theirs(sql)
            ours = pair.ours(sql)
            plan = _plan(pair.ref, sql)
            if any("AUTOMATIC" in line for line in plan):
                autos += 1
            if plan == _plan(pair.db, sql):
                same_plans += 1
                assert ours == theirs, sql
            else:  # (another plan: the same rows, maybe in another order)
                assert ours[0] == theirs[0], sql
                assert sorted(ours[1], key=repr) == sorted(theirs[1], key=repr), sql
    finally:
        pair.close()
    assert autos >= 10 and same_plans >= 30  # (the queries do reach automatic indexes)


PLAN_SETUP = [
    "create table t(a, b, c)",
    "create table u(x, y, z)",
    "create table wide(" + ", ".join(f"c{i}" for i in range(70)) + ")",
]

PLAN_QUERIES = [
    # covering, not partial
    "select * from u, t where t.a = u.y",
    "select t.c from u, t where t.a = u.y",
    "select u.x from u, t where t.a = u.y",
    "select t.rowid, t.a from u, t where t.a = u.y",
    "select * from u left join t on t.a = u.y",
    "select * from u left join t on t.a = u.y and u.z > 3",
    "select * from u left join t on t.a = u.y where t.b is null",
    "select * from u left join t on t.a = u.y where 1",
    # partial: ON terms of the right table of a LEFT JOIN, constant terms
    "select * from u left join t on t.a = u.y and t.b > 5",
    "select * from u left join t on t.a = u.y and 1",
    "select * from u left join t on t.a = u.y and (t.b > 5 or t.c < 2)",
    "select * from u left join t on t.a = u.y and t.b = t.c",
    "select * from u left join t on t.a = u.y and abs(t.b) > 0",
    "select * from u left join t on t.a = u.y and t.b > ?",
    "select * from u, t where t.a = u.y and 1",
    "select * from u, (select a, b from t group by a) s where s.a = u.y and s.b > 3",
    # not partial: a subquery, a function that is not deterministic, another table
    "select * from u left join t on t.a = u.y and t.b > (select 1)",
    "select * from u left join t on t.a = u.y and random() > 0",
    "select * from u left join t on t.a = u.y and nondet(t.b)",
    "select * from u left join t on t.a = u.y and det(t.b)",
    "select * from u, t where t.a = u.y and random() > 0",
    # a correlated subquery: the outer column is no constant of the table
    "select (select count(*) from u left join t on t.a = u.y and t.b = o.x) from u as o",
    # columns past the 63rd
    "select wide.c65, wide.c2 from u, wide where wide.c1 = u.y",
    "select wide.c3 from u, wide where wide.c1 = u.y",
]


@pytest.fixture(scope="module")
def plan_pair():
    p = EnginePair(PLAN_SETUP)
    rng = random.Random(7)
    for _ in range(30):
        u = (rng.choice([1, 2, None]), rng.choice([1, 2, 3, None, "1"]), rng.random() * 6)
        t = (rng.choice([1, 2, 3, None]), rng.choice([9, 1, -4, None, "x"]),
             rng.choice([0, 1, 3, "q"]))
        w = [rng.choice([1, 2, 3, None]) for _ in range(70)]
        for con in (p.ref, p.db):
            con.execute("insert into u values (?, ?, ?)", u)
            con.execute("insert into t values (?, ?, ?)", t)
            con.execute(f"insert into wide values ({', '.join('?' * 70)})", w)
    yield p
    p.close()


@pytest.mark.parametrize("sql", PLAN_QUERIES)
def test_plan_and_rows_as_sqlite(plan_pair, sql):
    args = (4,) if "?" in sql else ()
    want = [r[3] for r in plan_pair.ref.execute("explain query plan " + sql, args)]
    got = [r[3] for r in plan_pair.db.execute("explain query plan " + sql, args)]
    assert got == want
    assert any("AUTOMATIC" in line for line in want)
    if "random()" not in sql:
        rows = plan_pair.ref.execute(sql, args).fetchall()
        assert plan_pair.db.execute(sql, args).fetchall() == rows


ORDER_SETUP = [
    "create table t(a, b real, c)",
    "create table u(x, y)",
    "insert into u values (1, 1), (2, 2), (3, 'k')",
    "insert into t values (1, 'z', 3), (1, 2, 1), (1, 5, 2), (1, null, 0), (2, 3, 'q'),"
    " (2, 1, 'a'), (2, 1.5, x'00'), ('k', 7, 7), (1, 2, 0)",
    # rows written before a column was added hold no field for it: its default is read
    "alter table t add column d default 'dflt'",
    "insert into t values (1, 4, 4, 'set')",
    "create table g(a, b, v as (b * 2), s as (a || '-') stored)",
    "insert into g values (1, 3), (1, 1), (2, 2), (2, null)",
]

ORDER_QUERIES = [
    # the rows of one key come in the order of the columns read (by column number)
    "select t.b, t.rowid from u, t where t.a = u.y",
    "select t.c, t.rowid from u, t where t.a = u.y",
    "select t.c, t.b from u, t where t.a = u.y",
    "select t.d, t.c from u, t where t.a = u.y",
    "select typeof(t.b), t.b from u, t where t.a = u.y",
    "select * from u, t where t.a = u.y",
    "select * from u left join t on t.a = u.y and t.c <> 0",
    "select u.x, t.* from u left join t on t.a = u.y and t.b > 1 where u.x < 3",
    "select g.v, g.s from u, g where g.a = u.y",
    "select g.* from u left join g on g.a = u.y and g.v > 2",
    "select count(*), sum(t.b) from u, t where t.a = u.y",
    "select u.x, max(t.c) from u, t where t.a = u.y group by u.x",
]


@pytest.fixture(scope="module")
def order_pair():
    p = EnginePair(ORDER_SETUP)
    yield p
    p.close()


@pytest.mark.parametrize("sql", ORDER_QUERIES)
def test_order_of_a_key_as_sqlite(order_pair, sql):
    want = _plan(order_pair.ref, sql)
    assert any("AUTOMATIC" in line for line in want)
    assert _plan(order_pair.db, sql) == want
    assert order_pair.ours(sql) == order_pair.theirs(sql)


def test_partial_term_computed_for_every_row_as_sqlite():
    """A partial term is computed for each row of the table when the index is filled,
    also for rows no key finds: its error is sqlite3's."""
    pair = EnginePair([
        "create table t(a, b)", "create table u(x, y)",
        "insert into u values (1, 1)",
        "insert into t values (1, 2), (5, -9223372036854775808)",
    ])
    try:
        for sql in ("select * from u left join t on t.a = u.y and abs(t.b) > 0",
                    "select * from u left join t on t.a = u.y and abs(t.a) > 0"):
            assert _plan(pair.db, sql) == _plan(pair.ref, sql)
            assert pair.ours(sql) == pair.theirs(sql)
        assert pair.theirs("select * from u left join t on t.a = u.y and abs(t.b) > 0")[0] \
            == "error"
    finally:
        pair.close()
