"""temp's schema table by each of its names (sqlite_temp_schema, sqlite_temp_master,
sqlite_schema, sqlite_master), qualified by temp or not, once the temp database is made:
its rows and which qualifiers name its columns, differential against sqlite3."""

import sqlite3

import pytest

import sqlengine

QUERIES = [
    "SELECT name FROM temp.sqlite_temp_schema",
    "SELECT name FROM TEMP.sqlite_temp_master",
    "SELECT name FROM temp.sqlite_schema",
    "SELECT name FROM temp.sqlite_master",
    "SELECT name FROM sqlite_temp_schema",
    "SELECT name FROM main.sqlite_temp_master",
    "SELECT sqlite_temp_master.name FROM temp.sqlite_temp_schema",
    "SELECT sqlite_temp_master.name FROM temp.sqlite_schema",
    "SELECT temp.sqlite_temp_master.name FROM temp.sqlite_schema",
    "SELECT sqlite_schema.name FROM temp.sqlite_schema",
    "SELECT sqlite_temp_schema.name FROM temp.sqlite_temp_schema",
    "SELECT x.name FROM temp.sqlite_temp_schema AS x",
    "SELECT count(*) FROM temp.sqlite_temp_schema t JOIN sqlite_schema m ON t.type = m.type",
]


def _answer(mod, sql):
    con = mod.connect(":memory:")
    con.execute("CREATE TABLE m(a)")
    con.execute("CREATE TEMP TABLE tt(a)")
    try:
        return con.execute(sql).fetchall()
    except mod.OperationalError as e:
        return ("error", str(e))
    finally:
        con.close()


@pytest.mark.parametrize("sql", QUERIES)
def test_temp_schema_table_names(sql):
    assert _answer(sqlengine, sql) == _answer(sqlite3, sql)
