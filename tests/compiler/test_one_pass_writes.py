"""DELETE and UPDATE that change each row where their loop finds it (one pass over the write
cursor), compared with sqlite3 on a table of several b-tree levels with indexes and overflow
pages: the rows left, what the indexes hold, changes(), integrity_check; also rolled back,
and the cases that keep two passes (an index the UPDATE changes, a subquery, a trigger)."""

from __future__ import annotations

import random
import sqlite3

import pytest

import sqlengine

SCHEMA = [
    "create table t(id integer primary key, a integer, b text, c real)",
    "create index t_a on t(a)",
    "create index t_bc on t(b, c)",
    "create table log(x)",
]


def _rows():
    rng = random.Random(7)
    return [(i, rng.randrange(300), "v%d" % i * rng.randrange(1, 40), rng.random())
            for i in range(1, 3001)]


def state(module, statements, rollback=False):
    con = module.connect(":memory:", isolation_level=None)
    for sql in SCHEMA:
        con.execute(sql)
    con.executemany("insert into t values(?,?,?,?)", _rows())
    con.execute("update t set b = b || zeroblob(5000) where id % 97 = 0")
    out = []
    if rollback:
        con.execute("begin")
    for sql in statements:
        try:
            cur = con.execute(sql)
            out.append(("ok", cur.rowcount))
        except module.Error as e:
            out.append((type(e).__name__, str(e)))
    if rollback:
        con.execute("rollback")
    out.append(con.execute("select * from t order by id").fetchall())
    out.append(con.execute("select a, id from t indexed by t_a where a > -1 order by a, id")
               .fetchall())
    out.append(con.execute("select b, c, id from t indexed by t_bc where b > '' "
                           "order by b, c, id").fetchall())
    out.append(con.execute("select * from log order by 1").fetchall())
    out.append(con.execute("pragma integrity_check").fetchall())
    out.append(con.total_changes)
    con.close()
    return out


CASES = [
    ["delete from t where id % 3 = 0"],
    ["delete from t where id between 100 and 2500"],
    ["delete from t where id > 10"],
    ["delete from t where a between 10 and 200"],
    ["delete from t where a in (1, 5, 7, 5, 299)", "delete from t where id in (3, 4, 3, 9999)"],
    ["delete from t where b like '%7%'"],
    ["delete from t where b > 'v2'"],
    ["update t set b = b || 'xyz' where id % 2 = 0"],
    ["update t set b = substr(b, 1, 3)"],
    ["update t set c = c + 1 where a < 100"],
    ["update t set b = zeroblob(3000) where id % 50 = 0", "update t set b = 'short'"],
    ["update t set c = -c where b > 'v5' and id < 2000"],
    ["update t set a = a + 1 where a < 100"],                       # the loop's index changes
    ["update t set c = 0 where id in (select id from t where a = 3)"],   # a subquery
    # a subquery that sees the rows deleted so far (one pass would delete every row): in
    # the WHERE itself, in an IN list, in a CASE arm
    ["delete from t where not exists (select 1 from t t2 where t2.id = t.id - 1)"],
    ["delete from t where 0 in (1, (select count(*) from t t2 where t2.id = t.id - 1))"],
    ["delete from t where case when id > 0 then "
     "not exists (select 1 from t t2 where t2.id = t.id - 1) end"],
    # ... under each kind of node delete._has_subquery opens by its fields: a comparison
    # and AND, ISNULL, BETWEEN's bounds, an IN list's left side, a unary minus
    ["delete from t where id > 0 and (select count(*) from t t2 where t2.id = t.id - 1) = 0"],
    ["delete from t where (select 1 from t t2 where t2.id = t.id - 1) isnull"],
    ["delete from t where 0 between (select count(*) from t t2 where t2.id = t.id - 1) and 0"],
    ["delete from t where (select count(*) from t t2 where t2.id = t.id - 1) in (0, 5)"],
    ["delete from t where -(select count(*) from t t2 where t2.id = t.id - 1) = 0"],
    ["create trigger tr after delete on t begin insert into log values(old.id); end",
     "delete from t where a = 4", "update t set c = 1 where a = 5"],
    ["update t set c = abs(-9223372036854775807 - a) where id < 20"],
]


@pytest.mark.parametrize("rollback", [False, True], ids=["kept", "rolled-back"])
@pytest.mark.parametrize("statements", CASES, ids=[c[-1][:40] for c in CASES])
def test_same_as_sqlite(statements, rollback):
    assert state(sqlengine, statements, rollback) == state(sqlite3, statements, rollback)


def test_abort_half_way_undoes_the_statement():
    """A one-pass UPDATE that may fail (a function call, a NOT NULL check) still runs in a
    statement savepoint inside a transaction: its earlier rows are undone."""
    def run(module):
        con = module.connect(":memory:", isolation_level=None)
        con.execute("create table u(id integer primary key, v not null)")
        con.executemany("insert into u values(?, ?)", [(i, i) for i in range(1, 2001)])
        con.execute("begin")
        out = []
        for sql in ["update u set v = v + 1", "update u set v = nullif(v, 1500)",
                    "update u set v = abs(v - 1000 + -9223372036854775807 - 1)"]:
            try:
                con.execute(sql)
                out.append("ok")
            except module.Error as e:
                out.append(str(e))
            out.append(con.execute("select sum(v), count(*) from u").fetchall())
        con.execute("commit")
        return out

    assert run(sqlengine) == run(sqlite3)
