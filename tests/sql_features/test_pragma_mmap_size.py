"""PRAGMA mmap_size on a database file, compared with sqlite3: the connection's limit,
0 by default, a negative setting restoring it, capped at SQLite's SQLITE_MAX_MMAP_SIZE;
temp has no file (no row)."""

import sqlite3

import sqlengine

STATEMENTS = ["PRAGMA mmap_size", "PRAGMA mmap_size = 4096", "PRAGMA mmap_size",
              "PRAGMA mmap_size = -5", "PRAGMA mmap_size", "PRAGMA mmap_size = 99999999999",
              "PRAGMA main.mmap_size", "PRAGMA temp.mmap_size", "PRAGMA mmap_size = 'x'",
              "PRAGMA mmap_size = 1.5"]


def _outcomes(module, path):
    conn = module.connect(str(path))
    try:
        out = []
        for sql in STATEMENTS:
            cur = conn.execute(sql)
            out.append((cur.fetchall(), [d[0] for d in cur.description or ()]))
        return out
    finally:
        conn.close()


def test_mmap_size_of_a_file(tmp_path):
    assert _outcomes(sqlengine, tmp_path / "a.db") == _outcomes(sqlite3, tmp_path / "b.db")
