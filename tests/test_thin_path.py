"""The thin path through every layer: SQL text -> parser -> compiler -> VM -> B-tree -> a file
in SQLite's format, checked against the stdlib sqlite3 module in both directions."""

import sqlite3

import pytest

from sqlengine.database import Database


def _rows(db, sql):
    return db.execute(sql)


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "thin.db")


def test_sqlengine_writes_sqlite3_reads(path):
    db = Database(path)
    db.execute("CREATE TABLE t1(a INTEGER, b TEXT, c REAL, d)")
    db.execute("INSERT INTO t1 VALUES (3, 'three', 3.5, x'0102'), (1, 'one', 1, NULL)")
    db.execute("INSERT INTO t1 VALUES (2, 'two', -2.25, 'x')")
    for i in range(10, 400):
        db.execute(f"INSERT INTO t1 VALUES ({i}, 'row {i}', {i / 7}, {i * 1000})")
    mine = _rows(db, "SELECT a, b, c, d FROM t1 WHERE a < 5 OR a > 390 ORDER BY a DESC")
    db.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    theirs = con.execute("SELECT a, b, c, d FROM t1 WHERE a < 5 OR a > 390 ORDER BY a DESC").fetchall()
    assert mine == theirs
    assert theirs[-1] == (1, "one", 1.0, None)
    assert con.execute("SELECT count(*) FROM t1").fetchone() == (393,)
    assert con.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema").fetchall() == [
        ("table", "t1", "t1", "CREATE TABLE t1(a INTEGER, b TEXT, c REAL, d)")]
    con.close()


def test_sqlite3_writes_sqlengine_reads(path):
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t2(x INTEGER PRIMARY KEY, y TEXT, z)")
    con.executemany("INSERT INTO t2 VALUES (?, ?, ?)",
                    [(i, f"v{i % 13}", i * 0.5 if i % 3 else None) for i in range(1, 300)])
    con.commit()
    expected = con.execute("SELECT x, y, z FROM t2 WHERE y = 'v3' ORDER BY z DESC, x").fetchall()
    con.close()
    db = Database(path)
    assert db.execute("SELECT x, y, z FROM t2 WHERE y = 'v3' ORDER BY z DESC, x") == expected
    db.close()


def test_both_directions_with_indexes(path):
    db = Database(path)
    db.execute("CREATE TABLE t3(a INTEGER PRIMARY KEY, b TEXT UNIQUE, c)")
    db.execute("CREATE INDEX t3c ON t3(c)")
    for i in range(200):
        db.execute(f"INSERT INTO t3(b, c) VALUES ('k{i}', {i % 17})")
    db.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert con.execute("SELECT count(*) FROM t3 WHERE c = 5").fetchone()[0] == 12
    con.execute("INSERT INTO t3(b, c) VALUES ('new', 5)")
    con.commit()
    con.close()
    db = Database(path)
    assert db.execute("SELECT b FROM t3 WHERE c = 5 ORDER BY a DESC LIMIT 2") == [("new",), ("k192",)]
    db.close()


def test_schema_change_by_another_connection_is_seen(path):
    a = Database(path)
    b = Database(path)
    a.execute("CREATE TABLE t(x)")
    a.execute("INSERT INTO t VALUES (1)")
    assert b.execute("SELECT * FROM t") == [(1,)]
    b.execute("DROP TABLE t")
    with pytest.raises(Exception, match="no such table: t"):
        a.execute("SELECT * FROM t")
    a.close()
    b.close()
