"""Foreign keys of an attached file find their parent table in the child's own schema (not
main's table of the same name), and a missing parent fails statements on the child with
SQLite's "no such table: <schema>.<name>"; differential against the stdlib sqlite3."""

import os
import sqlite3

import sqlengine

SCRIPT = [
    "PRAGMA foreign_keys=ON",
    "ATTACH 'aux.db' AS aux",
    "CREATE TABLE p(id INTEGER PRIMARY KEY)",
    "CREATE TABLE aux.p(id INTEGER PRIMARY KEY)",
    "CREATE TABLE aux.c(x REFERENCES p(id))",
    "INSERT INTO p VALUES(1)",
    "INSERT INTO aux.p VALUES(2)",
    "INSERT INTO aux.c VALUES(2)",
    "INSERT INTO aux.c VALUES(1)",
    "SELECT * FROM aux.c",
    "DELETE FROM aux.p",
    "DELETE FROM p",
    "CREATE TABLE aux.c2(x REFERENCES p(id) ON DELETE CASCADE)",
    "INSERT INTO aux.p VALUES(3)",
    "INSERT INTO aux.c2 VALUES(3)",
    "DELETE FROM aux.p WHERE id = 3",
    "SELECT * FROM aux.c2",
    "CREATE TABLE aux.c3(x REFERENCES p(id) ON UPDATE CASCADE)",
    "INSERT INTO aux.p VALUES(4)",
    "INSERT INTO aux.c3 VALUES(4)",
    "UPDATE aux.p SET id = 5 WHERE id = 4",
    "UPDATE p SET id = 6",
    "SELECT * FROM aux.c3",
    "CREATE TABLE aux.only(x REFERENCES q(id))",
    "CREATE TABLE q(id INTEGER PRIMARY KEY)",
    "INSERT INTO q VALUES(7)",
    "INSERT INTO aux.only VALUES(7)",
    "DELETE FROM aux.only",
    "CREATE TABLE c(x REFERENCES nope(id))",
    "INSERT INTO c VALUES(1)",
    "INSERT INTO c VALUES(NULL)",
    "UPDATE c SET x = 2",
    "DELETE FROM c",
    "SELECT * FROM c",
]


def _run(mod, d):
    cwd = os.getcwd()
    os.chdir(d)
    try:
        con = mod.connect("main.db", isolation_level=None)
        out = []
        for s in SCRIPT:
            try:
                out.append(con.execute(s).fetchall())
            except Exception as e:  # noqa: BLE001 - compared with sqlite3's
                out.append(f"{type(e).__name__}: {e}")
        con.close()
        return out
    finally:
        os.chdir(cwd)


def test_attached_foreign_keys_match_sqlite3(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    ours = _run(sqlengine, tmp_path / "a")
    theirs = _run(sqlite3, tmp_path / "b")
    for stmt, o, t in zip(SCRIPT, ours, theirs):
        assert o == t, stmt
    assert "IntegrityError: FOREIGN KEY constraint failed" in theirs
    assert "OperationalError: no such table: aux.q" in theirs
    assert "OperationalError: no such table: main.nope" in theirs
