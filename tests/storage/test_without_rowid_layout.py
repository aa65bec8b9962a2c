"""WITHOUT ROWID tables in SQLite's own layout, checked against the stdlib sqlite3 on
files: the table's rootpage is an index b-tree holding the PRIMARY KEY columns first then
the other columns (no rowid), its key has no sqlite_schema row, and a secondary index holds
its columns then the key columns it lacks. A file made by sqlite3 reads the same in
sqlengine; a file made or changed by sqlengine reads the same in sqlite3 and passes its
``PRAGMA integrity_check``."""

import sqlite3

import pytest

import sqlengine

SCHEMA = [
    # composite key with a DESC column and a NOCASE column, extra UNIQUE, big records
    "CREATE TABLE t(a TEXT, b INT UNIQUE, c, d, PRIMARY KEY(c DESC, a COLLATE NOCASE))"
    " WITHOUT ROWID",
    "CREATE INDEX t_ba ON t(b, a)",
    "CREATE INDEX t_d ON t(substr(d, 1, 3), c)",
    # a text key
    "CREATE TABLE u(k TEXT PRIMARY KEY, v, w BLOB) WITHOUT ROWID",
    "CREATE INDEX u_v ON u(v DESC)",
    # an INTEGER PRIMARY KEY is no rowid alias here; a key column repeated
    "CREATE TABLE n(id INTEGER PRIMARY KEY, x, y, UNIQUE(y, x)) WITHOUT ROWID",
    "CREATE TABLE r(a, b, PRIMARY KEY(a, a, b)) WITHOUT ROWID",
    # a plain rowid table beside them
    "CREATE TABLE plain(x PRIMARY KEY, y)",
]


def _fill(conn, n=400):
    for i in range(n):
        conn.execute("INSERT INTO t VALUES(?,?,?,?)",
                     (f"Key{i:04d}", i if i % 3 else None, i % 7, "x" * (i * 13 % 3000)))
        conn.execute("INSERT INTO u VALUES(?,?,?)",
                     (f"u{i * 7919 % 1000:03d}-{i}", i % 11, bytes([i % 256]) * (i % 700)))
        conn.execute("INSERT INTO n VALUES(?,?,?)", (i * 37 % 1001 - 500, f"x{i}", i % 13))
        conn.execute("INSERT INTO r VALUES(?,?)", (i, str(i)))
        conn.execute("INSERT INTO plain VALUES(?,?)", (i, i * 2))


QUERIES = [
    "SELECT * FROM t",
    "SELECT * FROM t ORDER BY b, a",
    "SELECT count(*), sum(length(d)) FROM t",
    "SELECT a, b, c FROM t WHERE b = 7",
    "SELECT a, c FROM t WHERE b BETWEEN 10 AND 40",
    "SELECT a, b FROM t WHERE c = 3 AND a = 'key0010'",
    "SELECT a FROM t WHERE c = 3 AND a = 'Key0010'",
    "SELECT a, b FROM t WHERE c > 4 ORDER BY c DESC, a",
    "SELECT c, count(*) FROM t GROUP BY c ORDER BY c",
    "SELECT a FROM t WHERE substr(d, 1, 3) = 'xxx' AND c = 2",
    "SELECT * FROM u",
    "SELECT k, v, length(w) FROM u WHERE k > 'u5' AND k < 'u6'",
    "SELECT k FROM u WHERE v = 5 ORDER BY k",
    "SELECT * FROM n",
    "SELECT id FROM n WHERE y = 4 AND x = 'x30'",
    "SELECT * FROM n WHERE id BETWEEN -20 AND 20",
    "SELECT * FROM r WHERE a = 99",
    "SELECT count(*) FROM r",
    "SELECT t.a, u.k FROM t JOIN u ON u.v = t.c WHERE t.b < 20 ORDER BY 1, 2",
    "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name",
    "PRAGMA index_list(t)",
    "PRAGMA index_xinfo(t_ba)",
]


def _answers(conn):
    out = []
    for q in QUERIES:
        out.append((q, conn.execute(q).fetchall()))
    return out


def _sqlite3_file(path):
    conn = sqlite3.connect(path)
    for s in SCHEMA:
        conn.execute(s)
    _fill(conn)
    conn.commit()
    conn.close()


def _sqlengine_file(path):
    conn = sqlengine.connect(path)
    for s in SCHEMA:
        conn.execute(s)
    _fill(conn)
    conn.commit()
    conn.close()


def _page_type(path, root):
    with open(path, "rb") as f:
        data = f.read()
    size = int.from_bytes(data[16:18], "big") or 65536
    off = (root - 1) * size + (100 if root == 1 else 0)
    return data[off]


def test_sqlite3_file_reads_the_same_in_sqlengine(tmp_path):
    path = str(tmp_path / "made_by_sqlite3.db")
    _sqlite3_file(path)
    ref = sqlite3.connect(path)
    eng = sqlengine.connect(path)
    for (q, want), (_q, got) in zip(_answers(ref), _answers(eng)):
        assert got == want, q
    assert eng.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    ref.close()
    eng.close()


def test_sqlengine_file_is_sqlite3s_layout(tmp_path):
    path = str(tmp_path / "made_by_sqlengine.db")
    _sqlengine_file(path)
    ref = sqlite3.connect(path)
    assert ref.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    # the same schema rows as sqlite3 writes (no row for a WITHOUT ROWID key)
    other = str(tmp_path / "ref.db")
    _sqlite3_file(other)
    ref2 = sqlite3.connect(other)
    rows = "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema ORDER BY rowid"
    assert ref.execute(rows).fetchall() == ref2.execute(rows).fetchall()
    # the table's rootpage is an index b-tree (a leaf 10 or interior 2)
    for (root,) in ref.execute("SELECT rootpage FROM sqlite_schema WHERE name IN "
                               "('t', 'u', 'n', 'r')"):
        assert _page_type(path, root) in (2, 10)
    (root,) = ref.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'plain'").fetchone()
    assert _page_type(path, root) in (5, 13)
    for (q, want), (_q, got) in zip(_answers(ref2), _answers(ref)):
        assert got == want, q
    ref.close()
    ref2.close()


CHANGES = [
    "INSERT INTO t VALUES('new1', 100001, 3, 'n1'), ('NEW2', NULL, 9, 'n2')",
    "INSERT OR REPLACE INTO t VALUES('KEY0003', 5000, 3, 'replaced by key')",
    "REPLACE INTO t VALUES('other', 7, 42, 'replaced by b')",
    "INSERT OR IGNORE INTO t VALUES('key0004', 1, 4, 'ignored')",
    "UPDATE t SET d = upper(substr(d, 1, 50)) || 'u' WHERE c = 2",
    "UPDATE t SET c = c + 100 WHERE b BETWEEN 50 AND 80",
    "UPDATE t SET a = a || '!' WHERE c = 5 AND b > 200",
    "UPDATE OR REPLACE t SET b = 2 WHERE b = 4",
    "DELETE FROM t WHERE b % 5 = 0",
    "DELETE FROM t WHERE c = 6 AND a > 'Key02'",
    "INSERT INTO t VALUES('up', 77777, 1, 'x') ON CONFLICT DO NOTHING",
    "INSERT INTO t VALUES('KEY0008', 88888, 1, 'y') ON CONFLICT(c, a) DO UPDATE SET "
    "d = 'upserted ' || excluded.d",
    "UPDATE u SET w = zeroblob(3000) WHERE v = 3",
    "UPDATE u SET k = 'moved-' || k WHERE v = 4",
    "DELETE FROM u WHERE k LIKE 'u1%'",
    "INSERT INTO u SELECT k || '+', v + 100, w FROM u WHERE v = 2",
    "UPDATE n SET id = id + 5000 WHERE id < 0",
    "DELETE FROM r WHERE a % 2 = 1",
    "CREATE INDEX u_w ON u(length(w))",
    "ALTER TABLE u ADD COLUMN extra DEFAULT 'e'",
    "UPDATE u SET extra = v WHERE v > 5",
]


def test_sqlengine_changes_to_a_sqlite3_file(tmp_path):
    path = str(tmp_path / "changed.db")
    _sqlite3_file(path)
    other = str(tmp_path / "ref.db")
    _sqlite3_file(other)
    eng = sqlengine.connect(path)
    ref = sqlite3.connect(other)
    for s in CHANGES:
        eng.execute(s)
        ref.execute(s)
    eng.commit()
    ref.commit()
    assert eng.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    eng.close()
    got = sqlite3.connect(path)
    assert got.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    for (q, want), (_q, have) in zip(_answers(ref), _answers(got)):
        assert have == want, q
    for q in ("SELECT * FROM u ORDER BY k", "SELECT * FROM u WHERE length(w) > 100"):
        assert got.execute(q).fetchall() == ref.execute(q).fetchall(), q
    got.close()
    ref.close()


def test_vacuum_keeps_the_layout(tmp_path):
    path = str(tmp_path / "vac.db")
    _sqlengine_file(path)
    eng = sqlengine.connect(path)
    eng.execute("DELETE FROM t WHERE c < 4")
    eng.commit()
    eng.execute("VACUUM")
    want = eng.execute("SELECT * FROM t").fetchall()
    eng.close()
    ref = sqlite3.connect(path)
    assert ref.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert ref.execute("SELECT * FROM t").fetchall() == want
    ref.close()


@pytest.mark.parametrize("maker", [_sqlite3_file, _sqlengine_file])
def test_dump_round_trip(tmp_path, maker):
    path = str(tmp_path / "dump.db")
    maker(path)
    eng = sqlengine.connect(path)
    ref = sqlite3.connect(path)
    assert list(eng.iterdump()) == list(ref.iterdump())
    eng.close()
    ref.close()


GENERATED = [
    "CREATE TABLE g(x, k TEXT, v AS (x * 2) VIRTUAL, s AS (k || '!') STORED, y,"
    " PRIMARY KEY(k DESC, x)) WITHOUT ROWID",
    "CREATE INDEX gv ON g(v)",
    "CREATE INDEX gs ON g(s, y)",
    "INSERT INTO g(x, k, y) VALUES(1, 'a', 'p'), (2, 'b', 'q'), (3, 'a', NULL)",
    "UPDATE g SET y = 'upd' WHERE v = 4",
    "UPDATE g SET k = 'c' WHERE x = 3",
    "DELETE FROM g WHERE s = 'a!'",
    "INSERT INTO g(x, k, y) VALUES(9, 'z', 'zz')",
]


def test_generated_columns_in_the_record(tmp_path):
    """A VIRTUAL column has no field in a WITHOUT ROWID record, a STORED one has: the
    same statements on both engines give files each reads as the other wrote them."""
    made_ref = str(tmp_path / "ref.db")
    made_eng = str(tmp_path / "eng.db")
    ref = sqlite3.connect(made_ref)
    eng = sqlengine.connect(made_eng)
    for s in GENERATED:
        ref.execute(s)
        eng.execute(s)
    ref.commit()
    eng.commit()
    eng.close()
    want = ref.execute("SELECT * FROM g").fetchall()
    check = sqlite3.connect(made_eng)
    assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert check.execute("SELECT * FROM g").fetchall() == want
    check.close()
    ref.close()
    eng = sqlengine.connect(made_ref)
    assert eng.execute("SELECT * FROM g").fetchall() == want
    assert eng.execute("SELECT x FROM g WHERE v = 18").fetchall() == [(9,)]
    assert eng.execute("SELECT k FROM g WHERE s = 'c!'").fetchall() == [("c",)]
    eng.close()
