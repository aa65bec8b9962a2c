"""A damaged sqlite_schema row is reported as sqlite3 reports it: "malformed database schema
(name) - why", naming the row (differential against the stdlib sqlite3)."""

import shutil
import sqlite3

import pytest

import sqlengine

CASES = {
    "syntax": "UPDATE sqlite_schema SET sql='CREATE TABLE t1(a,, b)' WHERE name='t1'",
    "not_a_create": "UPDATE sqlite_schema SET sql='SELECT 1' WHERE name='t1'",
    "index_on_missing_table": "UPDATE sqlite_schema SET sql='CREATE INDEX i1 ON nope(a)' "
                              "WHERE name='i1'",
    "index_on_missing_column": "UPDATE sqlite_schema SET sql='CREATE INDEX i1 ON t1(zz)' "
                               "WHERE name='i1'",
    "duplicate_column": "UPDATE sqlite_schema SET sql='CREATE TABLE t1(a, a)' WHERE name='t1'",
    "bad_view": "INSERT INTO sqlite_schema VALUES('view', 'v', 'v', 0, "
                "'CREATE VIEW v AS SELECT * FROM')",
    "bad_trigger": "INSERT INTO sqlite_schema VALUES('trigger', 'tr', 't1', 0, "
                   "'CREATE TRIGGER tr AFTER INSERT ON t1 BEGIN SELEC 1; END')",
    "rootpage_text": "UPDATE sqlite_schema SET rootpage='x' WHERE name='t1'",
    "name_null": "UPDATE sqlite_schema SET name=NULL WHERE name='t1'",
    "other_name": "UPDATE sqlite_schema SET sql='CREATE TABLE t9(a, b)' WHERE name='t1'",
    "index_other_name": "UPDATE sqlite_schema SET sql='CREATE INDEX i9 ON t1(b)' "
                        "WHERE name='i1'",
    "unknown_function_in_index": "UPDATE sqlite_schema SET sql='CREATE INDEX i1 ON "
                                 "t1(nofunc(a))' WHERE name='i1'",
}


def _answer(mod, path):
    try:
        con = mod.connect(path)
        try:
            return con.execute("SELECT * FROM t1").fetchall()
        finally:
            con.close()
    except Exception as e:  # noqa: BLE001 - compared with sqlite3's
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_damaged_schema_row_message_matches_sqlite3(tmp_path, case):
    path = str(tmp_path / "d.db")
    con = sqlite3.connect(path)
    con.executescript("CREATE TABLE t1(a, b); CREATE INDEX i1 ON t1(a); "
                      "INSERT INTO t1 VALUES(1, 2);")
    con.execute("PRAGMA writable_schema=ON")
    con.execute(CASES[case])
    con.commit()
    con.close()
    shutil.copy(path, path + ".e")
    theirs = _answer(sqlite3, path)
    assert _answer(sqlengine, path + ".e") == theirs
    if case not in ("unknown_function_in_index",):
        assert "malformed database schema (" in theirs
