"""ORDER BY ... LIMIT (a top-N sorter): the sort keys are computed first and a row that
cannot be among the first N is dropped before its other result columns are computed
(OP_SorterCutoff, as SQLite's Last + IdxLE in pushOntoSorter). Results compared with the
stdlib sqlite3, including a result column that would fail on a dropped row."""

import random
import sqlite3

import pytest

import sqlengine

QUERIES = [
    "select * from t order by r desc limit 10",
    "select id, s from t order by r limit 7 offset 3",
    "select s, r from t order by s collate nocase, id desc limit 12",
    "select id, i % 7 as m from t order by m, r desc limit 9",
    "select id, i from t order by i is null, i limit 5",
    "select id, i from t order by i desc nulls first limit 6",
    "select id, i from t order by i nulls last limit 6",
    "select i, count(*) over () from t order by r limit 4",
    "select id, r * 2 from t order by r * 2 desc, id limit 11",
    "select id, upper(s) from t order by 2 limit 8",
    "select id from t order by r limit 0",
    "select id from t order by r limit -1 offset 390",
    "select id, s from t where i > 0 order by s desc limit 3 offset 2",
    "select t.id, u.v from t join u on u.k = t.id order by u.v, t.id limit 10",
]


def _fill(con, seed=7):
    rng = random.Random(seed)
    con.execute("create table t(id integer primary key, i, r, s)")
    con.execute("create table u(k, v)")
    rows = []
    for k in range(400):
        i = rng.choice([None, rng.randint(-50, 50)])
        rows.append((k, i, rng.choice([rng.random() * 100, float(rng.randint(0, 9))]),
                     rng.choice(["a", "B", "c", "Ab", "b", "A"]) + str(rng.randint(0, 30))))
    con.executemany("insert into t values (?,?,?,?)", rows)
    con.executemany("insert into u values (?,?)",
                    [(rng.randrange(400), rng.randint(0, 20)) for _ in range(300)])


@pytest.fixture(scope="module")
def engines():
    cons = [sqlengine.connect(":memory:"), sqlite3.connect(":memory:")]
    for con in cons:
        _fill(con)
    return cons


@pytest.mark.parametrize("sql", QUERIES)
def test_topn_matches_sqlite3(engines, sql):
    ours, ref = (c.execute(sql).fetchall() for c in engines)
    assert ours == ref


def test_result_column_of_a_dropped_row_is_not_computed():
    """abs() of the smallest integer fails ('integer overflow'); on a row the LIMIT
    sorter drops it is never computed, in SQLite and here."""
    out = []
    for con in (sqlengine.connect(":memory:"), sqlite3.connect(":memory:")):
        con.execute("create table t(i, r)")
        con.executemany("insert into t values (?,?)", [(k, k) for k in range(1000)])
        con.execute("insert into t values (-9223372036854775808, 5000)")
        got = []
        for sql in ("select abs(i), r from t order by r limit 3",
                    "select abs(i) from t order by r limit 2 offset 1",
                    "select abs(i), r from t order by r desc limit 3"):
            try:
                got.append(con.execute(sql).fetchall())
            except (sqlite3.Error, sqlengine.Error) as e:
                got.append(("error", str(e)))
        out.append(got)
    assert out[0] == out[1]
    assert out[0][0] == [(0, 0), (1, 1), (2, 2)]
