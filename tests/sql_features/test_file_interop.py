"""A database file changed by the features' statements (AUTOINCREMENT, ALTER TABLE, partial
indexes, UPSERT, foreign keys) on sqlengine opens in sqlite3, passes its integrity check and
holds the same schema and rows as the same statements run by sqlite3."""

import sqlite3

import sqlengine

STATEMENTS = [
    "PRAGMA foreign_keys = ON",
    "CREATE TABLE p(id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT UNIQUE, n INT)",
    "CREATE TABLE c(id INTEGER PRIMARY KEY, pid INT REFERENCES p(id) ON DELETE CASCADE, v)",
    "CREATE UNIQUE INDEX c_v ON c(v) WHERE v IS NOT NULL",
    "INSERT INTO p(code, n) VALUES('a', 1), ('b', 2), ('c', 3)",
    "INSERT INTO p(code, n) VALUES('a', 10) ON CONFLICT(code) DO UPDATE SET n = n + excluded.n",
    "INSERT INTO c(pid, v) VALUES(1, 'x'), (1, NULL), (2, NULL), (3, 'y')",
    "DELETE FROM p WHERE code = 'c'",
    "ALTER TABLE p ADD COLUMN note TEXT DEFAULT 'none'",
    "ALTER TABLE c RENAME COLUMN v TO val",
    "ALTER TABLE p RENAME TO parent",
    "INSERT INTO parent(code) VALUES('d')",
    "ALTER TABLE parent DROP COLUMN n",
    "UPDATE c SET val = 'z' FROM parent WHERE parent.id = c.pid AND parent.code = 'b'",
    "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 50) "
    "INSERT INTO c(pid, val) SELECT (SELECT id FROM parent WHERE code = 'd'), 'r' || i FROM s",
    # generated columns: VIRTUAL ones are not in the records, STORED ones are
    "CREATE TABLE g(a INT, v AS (a * 2), s TEXT AS (a || '!') STORED, z, w AS (v + 1))",
    "CREATE INDEX g_w ON g(w)",
    "CREATE INDEX g_expr ON g(length(z) * 2 DESC, a % 7)",
    "CREATE UNIQUE INDEX g_lower ON g(lower(z) COLLATE NOCASE)",
    "INSERT INTO g(a, z) SELECT id, val FROM c",
    "UPDATE g SET a = a + 100 WHERE a % 3 = 0",
    "DELETE FROM g WHERE w = 7",
    "ALTER TABLE g ADD COLUMN x AS (z || w)",
    "ALTER TABLE g DROP COLUMN s",
    "INSERT INTO g(a, z) VALUES (1000, 'last')",
]


def _rows_of_g(conn):
    return conn.execute("SELECT * FROM g ORDER BY a, z").fetchall()


def _build(module, path):
    conn = module.connect(str(path), isolation_level=None)
    for s in STATEMENTS:
        conn.execute(s)
    conn.close()


def _dump(path):
    conn = sqlite3.connect(str(path))
    try:
        check = conn.execute("PRAGMA integrity_check").fetchall()
        schema = conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").fetchall()
        data = {}
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            data[name] = conn.execute(f'SELECT * FROM "{name}" ORDER BY 1, 2').fetchall()
        return check, schema, data
    finally:
        conn.close()


def test_file_written_by_sqlengine_matches_sqlite3(tmp_path):
    _build(sqlite3, tmp_path / "ref.db")
    _build(sqlengine, tmp_path / "eng.db")
    ref = _dump(tmp_path / "ref.db")
    got = _dump(tmp_path / "eng.db")
    assert got[0] == [("ok",)]
    assert got[1] == ref[1]
    assert got[2] == ref[2]


def test_generated_columns_of_a_sqlite3_file_read_by_sqlengine(tmp_path):
    path = tmp_path / "ref.db"
    _build(sqlite3, path)
    ref = sqlite3.connect(str(path))
    want = _rows_of_g(ref)
    ref.close()
    conn = sqlengine.connect(str(path))
    try:
        assert _rows_of_g(conn) == want
        assert conn.execute("SELECT a, z FROM g WHERE w = 23").fetchall() == \
            [r[:1] + r[2:3] for r in want if r[3] == 23]
    finally:
        conn.close()
