"""DROP deletes the sqlite_schema rows SQLite deletes: DROP INDEX and DROP TRIGGER the row
of that type named exactly as the object (``name=%Q AND type=...``, however the statement
spells the name), DROP TABLE and DROP VIEW every row of the table or view, including the
triggers whose CREATE TRIGGER named it in another case (sqlite3 keeps that spelling in
tbl_name). Differential: files made by sqlite3 with mixed-case names, dropped in both
engines; the rows left, the schema loaded again, and integrity_check."""

import sqlite3

import pytest

import sqlengine

SETUP = [
    "CREATE TABLE Tab1(x INTEGER, y TEXT)",
    "CREATE INDEX Idx1 ON TAB1(x)",
    "CREATE INDEX idx2 ON tab1(y)",
    "CREATE TRIGGER Trg1 AFTER INSERT ON tab1 BEGIN SELECT 1; END",
    "CREATE TRIGGER trg2 AFTER DELETE ON TAB1 BEGIN SELECT 1; END",
    "CREATE TABLE other(a)",
    "CREATE TRIGGER trg3 AFTER INSERT ON OTHER BEGIN SELECT 1; END",
    "CREATE VIEW View1 AS SELECT x FROM tab1",
    "INSERT INTO tab1 VALUES(1, 'a'), (2, 'b')",
]

DROPS = [
    ["DROP INDEX idx1", "DROP TRIGGER TRG1"],
    ["DROP INDEX IDX2", "DROP TRIGGER trg2", "DROP VIEW view1"],
    ["DROP TABLE tab1"],
    ["DROP VIEW VIEW1", "DROP TABLE TAB1", "DROP TABLE Other"],
    ["DROP TRIGGER trg3", "DROP INDEX Idx1", "DROP TABLE tab1"],
]


def _rows(con):
    return con.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema "
                       "ORDER BY rowid").fetchall()


@pytest.mark.parametrize("drops", DROPS)
def test_drop_deletes_the_rows_sqlite3_deletes(tmp_path, drops):
    paths = [tmp_path / "ours.db", tmp_path / "ref.db"]
    for path in paths:
        con = sqlite3.connect(path)
        for sql in SETUP:
            con.execute(sql)
        con.commit()
        con.close()
    ours = sqlengine.connect(paths[0], isolation_level=None)
    ref = sqlite3.connect(paths[1], isolation_level=None)
    for sql in drops:
        ours.execute(sql)
        ref.execute(sql)
        assert _rows(ours) == _rows(ref), sql
        assert sorted(ours._db.schema.triggers) == sorted(
            r[1].lower() for r in _rows(ref) if r[0] == "trigger")
    ours.close()
    again = sqlengine.connect(paths[0])
    assert _rows(again) == _rows(ref)
    assert again.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
