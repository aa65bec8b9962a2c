"""sqlite_schema rows whose fields have the wrong types are corruption: sqlengine reports
them as sqlite3 does (``malformed database schema (name)``), never AttributeError or
TypeError (repros schema_row_* of tools/repros.py)."""

import sqlite3

import pytest

import sqlengine

DAMAGE = [
    "update sqlite_master set tbl_name = NULL where name = 'i'",
    "update sqlite_master set sql = x'41' where name = 'i'",
    "update sqlite_master set rootpage = 'x' where name = 'i'",
    "update sqlite_master set name = NULL where name = 'i'",
    "update sqlite_master set rootpage = NULL where name = 't'",
]


def _outcome(module, path):
    try:
        return module.connect(path).execute("select * from t").fetchall()
    except Exception as e:  # the error is what is compared
        return type(e).__name__, str(e)


@pytest.mark.parametrize("damage", DAMAGE)
def test_damaged_schema_row_is_malformed_schema(tmp_path, damage):
    path = str(tmp_path / "s.db")
    c = sqlite3.connect(path)
    c.execute("create table t(a)")
    c.execute("create index i on t(a)")
    c.execute("pragma writable_schema=on")
    c.execute(damage)
    c.commit()
    c.close()
    expected = _outcome(sqlite3, path)
    assert expected[0] == "DatabaseError"
    assert _outcome(sqlengine, path) == expected
