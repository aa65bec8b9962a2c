"""PRAGMA integrity_check / quick_check result rows compared with sqlite3: one row per
message, the optional limit N honoured, and quick_check leaving out the index-versus-table
comparison (a file whose index disagrees with its table passes quick_check in SQLite)."""

import sqlite3

import pytest

import sqlengine


@pytest.fixture
def damaged(tmp_path):
    """A file whose index ia (rebuilt on a, then redefined as on b) misses rows 3, 7 and 9."""
    path = str(tmp_path / "d.db")
    c = sqlite3.connect(path)
    c.execute("CREATE TABLE t(a, b)")
    c.executemany("INSERT INTO t VALUES(?, ?)",
                  [(i, i + 100 if i in (3, 7, 9) else i) for i in range(1, 40)])
    c.execute("CREATE INDEX ia ON t(a)")
    c.commit()
    c.execute("PRAGMA writable_schema = ON")
    c.execute("UPDATE sqlite_master SET sql = 'CREATE INDEX ia ON t(b)' WHERE name = 'ia'")
    c.commit()
    c.close()
    return path


def _rows(m, path, sql):
    c = m.connect(path)
    try:
        return c.execute(sql).fetchall()
    finally:
        c.close()


@pytest.mark.parametrize("sql", ["PRAGMA integrity_check", "PRAGMA integrity_check(2)",
                                 "PRAGMA integrity_check(1)", "PRAGMA quick_check",
                                 "PRAGMA main.integrity_check"])
def test_integrity_rows_match_sqlite3(damaged, sql):
    want = _rows(sqlite3, damaged, sql)
    assert _rows(sqlengine, damaged, sql) == want


def test_clean_file_is_ok(tmp_path):
    path = str(tmp_path / "ok.db")
    c = sqlite3.connect(path)
    c.execute("CREATE TABLE t(a)")
    c.execute("CREATE INDEX ia ON t(a)")
    c.executemany("INSERT INTO t VALUES(?)", [(i,) for i in range(100)])
    c.commit()
    c.close()
    for sql in ("PRAGMA integrity_check", "PRAGMA quick_check", "PRAGMA integrity_check(5)"):
        assert _rows(sqlengine, path, sql) == [("ok",)] == _rows(sqlite3, path, sql)
