"""Differential tests of the column name SQLite gives a double-quoted identifier that falls
back to a string literal (no column of that name): at the top level, in a view, in CREATE
TABLE AS and RETURNING it is the text as written, quotes and all (SQLite names those
columns after resolving names); the columns of a FROM subquery or CTE are named before
resolution, so there it keeps its bare name. cursor.description and the rows must match
stdlib sqlite3."""

import sqlite3

import pytest

import sqlengine

SETUP = """
create table t(a);
insert into t values (1);
create view vq as select "nosuch", "a" from t;
"""

QUERIES = [
    'select "nosuch" from t',
    'select "x"',
    'select "x" + 1',
    'select ("nosuch") from t',
    'select "no""q" from t',
    'select "a", "nosuch" from t',
    'select "nosuch" as n from t',
    'select "t" from t',
    'select "rowid" from t',
    'select "nosuch" from t order by 1',
    'select "nosuch" from t group by 1',
    'select "nosuch" from t join t as u',
    'select "nosuch" from t union select 1',
    'select * from (select "nosuch" from t)',
    'select * from (select ("nosuch") from t)',
    'select * from (select "nosuch" from t union select 2)',
    'select * from (select distinct "nosuch" from t)',
    'select * from (select "nosuch" from t), t',
    'with c as (select "nosuch" from t) select * from c',
    'with c as materialized (select "nosuch" from t) select * from c',
    'select * from vq',
    'select * from (select * from vq)',
    "pragma table_info(vq)",
    'insert into t select 2 returning "zz", "a"',
]


def _run(mod, q):
    con = mod.connect(":memory:")
    con.executescript(SETUP)
    try:
        cur = con.execute(q)
        return [d[0] for d in cur.description], cur.fetchall()
    except Exception as e:  # noqa: BLE001 - the message is what is compared
        return type(e).__name__, str(e)
    finally:
        con.close()


@pytest.mark.parametrize("q", QUERIES)
def test_names_of_double_quoted_strings(q):
    assert _run(sqlengine, q) == _run(sqlite3, q)


def test_create_table_as_names():
    def cols(mod):
        con = mod.connect(":memory:")
        con.executescript(SETUP + 'create table ct as select "nosuch", (a) from t;')
        return con.execute("select name from pragma_table_info('ct')").fetchall()
    assert cols(sqlengine) == cols(sqlite3)
