"""Parameters are numbered in textual order, as SQLite's parser numbers them, whatever
order the compiler codes the expressions in (a WHERE seek key is coded before the result
columns; an expression the planner uses twice must keep one number)."""

import sqlite3

import pytest

import sqlengine

CASES = [
    ("select * from t where id < ?", (2,)),
    ("select * from t where id = ?", (1,)),
    ("select ?, i from t where id = ?", (5, 2)),
    ("select * from t where id between ? and ?", (1, 2)),
    ("select * from t where i = ? and id > ?", (20, 0)),
    ("select ?2, ?1, ?", (1, 2, 3)),
    ("select :a, :b, :a", {"a": 1, "b": 2}),
]


def _run(module, sql, args):
    con = module.connect(":memory:")
    con.execute("create table t(id integer primary key, i)")
    con.execute("create index t_i on t(i)")
    con.execute("insert into t values (1, 10), (2, 20)")
    try:
        return con.execute(sql, args).fetchall()
    except Exception as e:  # the error itself is compared
        return (type(e).__name__, str(e))


@pytest.mark.parametrize("sql,args", CASES)
def test_param_numbers_match_sqlite(sql, args):
    assert _run(sqlengine, sql, args) == _run(sqlite3, sql, args)
