"""PRAGMA integrity_check compares index entries with their table rows, as SQLite's does:
a file whose index lost or changed an entry is not "ok" ("row N missing from index X",
"wrong # of entries in index X"), and valid files of every index kind stay "ok"
(differential against the stdlib sqlite3)."""

import sqlite3

import sqlengine

SCHEMA = """
CREATE TABLE t1(a INTEGER PRIMARY KEY, b TEXT, c REAL, d);
CREATE INDEX t1b ON t1(b);
CREATE INDEX t1cd ON t1(c DESC, d COLLATE NOCASE);
CREATE INDEX t1a ON t1(a, b);
CREATE UNIQUE INDEX t1d ON t1(d);
CREATE TABLE t2(x UNIQUE, y NUMERIC, z);
CREATE INDEX t2yz ON t2(y, z);
CREATE INDEX t2part ON t2(z) WHERE z > 5;
CREATE INDEX t2expr ON t2(x + 1);
CREATE TABLE t3(p, q AS (p * 2), r AS (p || 'x') STORED);
CREATE INDEX t3q ON t3(q);
CREATE INDEX t3r ON t3(r);
"""


def _fill(con):
    con.executescript(SCHEMA)
    for i in range(1, 120):
        con.execute("INSERT INTO t1(b, c, d) VALUES(?, ?, ?)",
                    (f"v{i % 13}", i * 1.0 if i % 3 else i + 0.5,
                     [None, i, f"T{i}", bytes([i])][i % 4] if i % 4 else -i))
        con.execute("INSERT INTO t2 VALUES(?, ?, ?)", (i, str(i % 7), i % 11))
        con.execute("INSERT INTO t3(p) VALUES(?)", (i,))
    con.execute("ALTER TABLE t1 ADD COLUMN e DEFAULT 7")
    con.execute("CREATE INDEX t1e ON t1(e)")
    con.execute("DELETE FROM t1 WHERE a % 10 = 0")
    con.commit()


def _check(mod, path):
    con = mod.connect(path)
    try:
        return con.execute("PRAGMA integrity_check").fetchall()
    finally:
        con.close()


def test_valid_files_are_ok(tmp_path):
    path = str(tmp_path / "v.db")
    con = sqlite3.connect(path)
    _fill(con)
    con.close()
    assert _check(sqlite3, path) == [("ok",)]
    assert _check(sqlengine, path) == [("ok",)]
    # and a file written by sqlengine
    path2 = str(tmp_path / "w.db")
    con = sqlengine.connect(path2)
    _fill(con)
    con.close()
    assert _check(sqlengine, path2) == [("ok",)]
    assert _check(sqlite3, path2) == [("ok",)]


def _set_index_sql(path, sql):
    con = sqlite3.connect(path)
    con.execute("PRAGMA writable_schema=ON")
    con.execute("UPDATE sqlite_schema SET sql=? WHERE name='t1b'", (sql,))
    con.commit()
    con.close()


def _damaged(tmp_path, *statements):
    """A file whose table rows changed behind index t1b's back: for the statements, the
    index is declared partial with a WHERE no row meets (so sqlite3 leaves it alone), then
    its CREATE text is put back."""
    path = str(tmp_path / "d.db")
    con = sqlite3.connect(path)
    _fill(con)
    con.close()
    _set_index_sql(path, "CREATE INDEX t1b ON t1(b) WHERE 0")
    con = sqlite3.connect(path)
    for s in statements:
        con.execute(s)
    con.commit()
    con.close()
    _set_index_sql(path, "CREATE INDEX t1b ON t1(b)")
    return path


def test_a_missing_index_entry_is_reported_as_sqlite3_does(tmp_path):
    path = _damaged(tmp_path, "INSERT INTO t1(a, b) VALUES(500, 'new')")
    theirs = _check(sqlite3, path)
    assert any("missing from index t1b" in r[0] for r in theirs)
    ours = _check(sqlengine, path)
    assert ours != [("ok",)]
    text = "\n".join(r[0] for r in ours)
    for r in theirs:
        assert r[0] in text


def test_a_changed_index_entry_is_reported(tmp_path):
    path = _damaged(tmp_path, "UPDATE t1 SET b = 'zzz' WHERE a = 33")
    theirs = _check(sqlite3, path)
    ours = _check(sqlengine, path)
    assert theirs != [("ok",)] and ours != [("ok",)]
    assert "missing from index t1b" in ours[0][0]


def test_an_extra_index_entry_is_reported(tmp_path):
    path = _damaged(tmp_path, "DELETE FROM t1 WHERE a = 17")
    theirs = _check(sqlite3, path)
    ours = _check(sqlengine, path)
    assert ("wrong # of entries in index t1b",) in theirs
    assert "wrong # of entries in index t1b" in ours[0][0]
