"""WITHOUT ROWID tables at the SQL level, differential against the stdlib sqlite3: each
script runs statement by statement on both engines, which must give the same rows, the
same errors (class and message: UNIQUE/NOT NULL on key columns, "no such column: rowid",
AUTOINCREMENT, PRIMARY KEY missing...) and the same introspection (PRAGMA index_list /
index_info / index_xinfo, table_info, sqlite_schema)."""

import sqlite3

import pytest

import sqlengine

KEYS_AND_CONSTRAINTS = [
    'CREATE TABLE t(a TEXT, b INT UNIQUE, c, d, PRIMARY KEY(c DESC, a COLLATE NOCASE)) WITHOUT ROWID',
    'CREATE INDEX ti ON t(b, a)',
    'CREATE INDEX td ON t(d)',
    "INSERT INTO t VALUES('x', 1, 1, 'p'), ('y', 2, 1, 'q'), ('X', 3, 2, 'r'), ('z', NULL, 3, NULL), ('w', NULL, 3, 's')",
    'SELECT * FROM t',
    "INSERT INTO t VALUES('Y', 9, 1, 'dup')",
    "INSERT INTO t VALUES('new', 2, 9, 'dupb')",
    "INSERT INTO t VALUES(NULL, 5, 5, 'nullpk')",
    "INSERT INTO t VALUES('n', 5, NULL, 'nullpk2')",
    "INSERT OR IGNORE INTO t VALUES('Y', 9, 1, 'dup')",
    'SELECT * FROM t',
    "INSERT OR REPLACE INTO t VALUES('Y', 9, 1, 'replaced')",
    'SELECT * FROM t',
    "REPLACE INTO t VALUES('q', 3, 7, 'replaced-b')",
    'SELECT * FROM t ORDER BY a',
    'SELECT count(*) FROM t',
    "UPDATE t SET d = d || '!' WHERE b > 1",
    'SELECT * FROM t',
    "UPDATE t SET c = 1 WHERE a = 'z'",
    'SELECT * FROM t',
    "UPDATE t SET a = 'X' WHERE a = 'q'",
    "UPDATE t SET a = 'Q' WHERE a = 'q'",
    'SELECT * FROM t',
    "UPDATE OR REPLACE t SET c = 1, a = 'y' WHERE a = 'Q'",
    'SELECT * FROM t',
    'UPDATE t SET b = 3 WHERE b = 9',
    "DELETE FROM t WHERE d LIKE '%!'",
    'SELECT * FROM t',
    "DELETE FROM t WHERE c = 3 AND a = 'w'",
    'SELECT * FROM t',
    'SELECT * FROM t WHERE b IS NULL',
    "SELECT a, b FROM t WHERE d = 'p'",
    'SELECT rowid FROM t',
    'SELECT _rowid_ FROM t',
    "INSERT INTO t(rowid, a, c) VALUES(1, 'r', 1)",
    "INSERT INTO t VALUES('u', 10, 10, 'u') ON CONFLICT DO NOTHING",
    "INSERT INTO t VALUES('U', 11, 10, 'u2') ON CONFLICT(c, a) DO UPDATE SET d = excluded.d || '+'",
    'SELECT * FROM t',
    "INSERT INTO t VALUES('U', 11, 10, 'u2') ON CONFLICT(a, c) DO UPDATE SET d = excluded.d || '+', b = 12",
    'SELECT * FROM t',
    "INSERT INTO t VALUES('zz', 12, 11, 'u3') ON CONFLICT(b) DO UPDATE SET d = 'via b'",
    'SELECT * FROM t',
    'PRAGMA index_list(t)',
    'PRAGMA index_info(sqlite_autoindex_t_2)',
    'PRAGMA index_xinfo(sqlite_autoindex_t_2)',
    'PRAGMA index_xinfo(sqlite_autoindex_t_1)',
    'PRAGMA index_xinfo(ti)',
    'PRAGMA index_info(ti)',
    'PRAGMA table_info(t)',
    'PRAGMA table_xinfo(t)',
    'SELECT * FROM sqlite_schema',
    'PRAGMA integrity_check',
    'DELETE FROM t',
    'SELECT count(*) FROM t',
    'CREATE TABLE v(a, b, PRIMARY KEY(a, a)) WITHOUT ROWID',
    'INSERT INTO v VALUES(1, 2), (2, 3)',
    'INSERT INTO v VALUES(1, 5)',
    'SELECT * FROM v',
    'PRAGMA index_xinfo(sqlite_autoindex_v_1)',
    'CREATE TABLE e(a, b) WITHOUT ROWID',
    'CREATE TABLE e2(a INTEGER PRIMARY KEY AUTOINCREMENT) WITHOUT ROWID',
    'CREATE TABLE g(a PRIMARY KEY, b AS (a * 2) VIRTUAL, c AS (a + 1) STORED, d) WITHOUT ROWID',
    "INSERT INTO g(a, d) VALUES(1, 'x'), (2, 'y')",
    'SELECT * FROM g',
    'UPDATE g SET a = 5 WHERE a = 1',
    'SELECT * FROM g',
    'CREATE INDEX gi ON g(b)',
    'SELECT a FROM g WHERE b = 4',
    'CREATE TABLE g2(a, b AS (a) PRIMARY KEY) WITHOUT ROWID',
]

FEATURES = [
    'PRAGMA foreign_keys = ON',
    'CREATE TABLE p(k TEXT PRIMARY KEY, v) WITHOUT ROWID',
    'CREATE TABLE c(id INTEGER PRIMARY KEY, pk TEXT REFERENCES p(k) ON DELETE CASCADE ON UPDATE CASCADE, w)',
    'CREATE TABLE c2(a, b, pk TEXT REFERENCES p(k) ON DELETE SET NULL, PRIMARY KEY(a, b)) WITHOUT ROWID',
    "INSERT INTO p VALUES('a', 1), ('b', 2), ('c', 3)",
    "INSERT INTO c(pk, w) VALUES('a', 'x'), ('b', 'y'), ('a', 'z')",
    "INSERT INTO c2 VALUES(1, 1, 'a'), (1, 2, 'b'), (2, 1, 'c')",
    "INSERT INTO c(pk, w) VALUES('nope', 'bad')",
    "INSERT INTO c2 VALUES(9, 9, 'nope')",
    "DELETE FROM p WHERE k = 'a'",
    'SELECT * FROM c',
    'SELECT * FROM c2',
    "UPDATE p SET k = 'B' WHERE k = 'b'",
    'SELECT * FROM c',
    'SELECT * FROM p',
    'CREATE TABLE self(id PRIMARY KEY, parent REFERENCES self(id) ON DELETE CASCADE) WITHOUT ROWID',
    'INSERT INTO self VALUES(1, NULL), (2, 1), (3, 2), (4, 1), (5, NULL)',
    'DELETE FROM self WHERE id = 1',
    'SELECT * FROM self',
    'PRAGMA foreign_key_check',
    'CREATE TABLE log(m)',
    'CREATE TABLE w(a PRIMARY KEY, b) WITHOUT ROWID',
    "CREATE TRIGGER tw_i AFTER INSERT ON w BEGIN INSERT INTO log VALUES('ins ' || new.a || ' ' || new.b); END",
    "CREATE TRIGGER tw_u BEFORE UPDATE ON w BEGIN INSERT INTO log VALUES('upd ' || old.a || '->' || new.a); END",
    "CREATE TRIGGER tw_d AFTER DELETE ON w BEGIN INSERT INTO log VALUES('del ' || old.a); END",
    "INSERT INTO w VALUES(1, 'one'), (2, 'two')",
    'UPDATE w SET a = a + 10',
    'DELETE FROM w WHERE a = 11',
    "REPLACE INTO w VALUES(12, 'twelve')",
    'SELECT * FROM log',
    'SELECT * FROM w',
    'SELECT new.rowid FROM w',
    'CREATE TRIGGER bad AFTER INSERT ON w BEGIN SELECT new.rowid; END',
    "INSERT INTO w VALUES(50, 'x')",
    "INSERT INTO w VALUES(51, 'x') RETURNING *",
    "UPDATE w SET b = 'y' WHERE a = 51 RETURNING a, b",
    'DELETE FROM w WHERE a = 51 RETURNING *',
    'DROP TRIGGER bad',
    "INSERT INTO w VALUES(51, 'x') RETURNING *",
    "UPDATE w SET b = 'y' WHERE a = 51 RETURNING a, b",
    'DELETE FROM w WHERE a = 51 RETURNING *',
    'CREATE TABLE self2(a, b, pa, pb, PRIMARY KEY(a, b), FOREIGN KEY(pa, pb) REFERENCES self2(a, b) ON DELETE CASCADE) WITHOUT ROWID',
    'INSERT INTO self2 VALUES(1,1,NULL,NULL),(1,2,1,1),(2,2,1,2),(3,3,NULL,NULL)',
    'DELETE FROM self2 WHERE a=1 AND b=1',
    'SELECT * FROM self2',
    "ALTER TABLE w ADD COLUMN c DEFAULT 'dflt'",
    'SELECT * FROM w',
    "INSERT INTO w VALUES(60, 'sixty', 'c60')",
    "SELECT * FROM w WHERE c = 'dflt'",
    'ALTER TABLE w RENAME COLUMN b TO bb',
    'SELECT a, bb, c FROM w',
    'ALTER TABLE w RENAME TO w2',
    'SELECT * FROM w2',
    'ALTER TABLE w2 DROP COLUMN c',
    'SELECT * FROM w2',
    'ALTER TABLE w2 DROP COLUMN a',
    'PRAGMA integrity_check',
    'CREATE TABLE j1(a PRIMARY KEY, b) WITHOUT ROWID',
    'CREATE TABLE j2(x, y, PRIMARY KEY(y, x)) WITHOUT ROWID',
    "INSERT INTO j1 VALUES(1, 'a'), (2, 'b'), (3, 'c')",
    'INSERT INTO j2 VALUES(1, 10), (2, 20), (2, 21), (4, 40)',
    'SELECT * FROM j1 JOIN j2 ON j1.a = j2.x',
    'SELECT * FROM j1 LEFT JOIN j2 ON j1.a = j2.x ORDER BY 1, 3',
    'SELECT * FROM j2 WHERE y = 20 AND x = 2',
    'SELECT * FROM j2 WHERE y > 15 ORDER BY y DESC',
    'SELECT max(y), min(x) FROM j2',
    'SELECT a FROM j1 WHERE a IN (SELECT x FROM j2)',
    'SELECT count(*) FROM j1, j2',
    'SELECT * FROM j2 ORDER BY x',
    'CREATE INDEX j2x ON j2(x)',
    'SELECT * FROM j2 WHERE x = 2',
    'SELECT y FROM j2 WHERE x = 2',
    'SELECT * FROM j1 JOIN j2 ON j1.a = j2.x',
    'UPDATE j2 SET x = 3 WHERE x = 2',
    'SELECT * FROM j2 WHERE x = 3',
    'DELETE FROM j2 WHERE x = 3',
    'SELECT * FROM j2',
    'VACUUM',
    'SELECT * FROM j2',
    'PRAGMA integrity_check',
    'CREATE TABLE nn(a TEXT COLLATE NOCASE PRIMARY KEY, b) WITHOUT ROWID',
    "INSERT INTO nn VALUES('Abc', 1)",
    "INSERT INTO nn VALUES('aBC', 2)",
    "SELECT * FROM nn WHERE a = 'ABC'",
    "INSERT INTO nn VALUES('abd', 3) ON CONFLICT(a) DO UPDATE SET b = 99",
    "INSERT INTO nn VALUES('ABD', 3) ON CONFLICT(a) DO UPDATE SET b = 99",
    'SELECT * FROM nn',
    'CREATE TABLE num(a REAL PRIMARY KEY, b) WITHOUT ROWID',
    "INSERT INTO num VALUES(1, 'int'), (2.5, 'real'), ('3', 'text3')",
    "INSERT INTO num VALUES(1.0, 'dup')",
    'SELECT a, typeof(a), b FROM num',
    'SELECT * FROM num WHERE a = 1',
    'DELETE FROM num WHERE a = 2.5',
    'SELECT * FROM num',
    'CREATE TABLE mix(a PRIMARY KEY, b) WITHOUT ROWID',
    "INSERT INTO mix VALUES(1, 'i'), ('1', 't'), (x'01', 'b'), (1.5, 'r')",
    "UPDATE mix SET b = b || '!'",
    'SELECT a, typeof(a), b FROM mix',
    "DELETE FROM mix WHERE b LIKE '%!'",
    'SELECT count(*) FROM mix',
]

ERRORS = [
    "CREATE TABLE t(a, b, c, PRIMARY KEY(a, b), UNIQUE(c)) WITHOUT ROWID",
    "INSERT INTO t VALUES(1, 1, 'x'), (1, 2, 'y'), (2, 1, 'z')",
    "INSERT INTO t VALUES(1, 1, 'w')",
    "INSERT INTO t VALUES(9, 9, 'x')",
    "INSERT INTO t VALUES(1, 1, 'x')",
    "INSERT INTO t VALUES(NULL, 1, 'q')",
    "INSERT INTO t VALUES(3, NULL, 'q')",
    "INSERT INTO t(a, c) VALUES(3, 'q')",
    "UPDATE t SET b = 2 WHERE a = 1 AND b = 1",
    "UPDATE t SET b = NULL WHERE a = 2",
    "UPDATE t SET c = 'y' WHERE a = 2",
    "UPDATE OR IGNORE t SET b = 2 WHERE a = 1",
    "SELECT * FROM t",
    "INSERT OR FAIL INTO t VALUES(5, 5, 'f'), (1, 1, 'g'), (6, 6, 'h')",
    "SELECT * FROM t",
    "CREATE TABLE k(a TEXT COLLATE NOCASE, b, PRIMARY KEY(a, b DESC)) WITHOUT ROWID",
    "INSERT INTO k VALUES('A', 1), ('a', 2), ('B', 1)",
    "INSERT INTO k VALUES('b', 1)",
    "INSERT INTO k VALUES('b', 1.0)",
    "INSERT INTO k VALUES('b', '1')",
    "SELECT * FROM k",
    "SELECT * FROM k WHERE a = 'A'",
    "SELECT rowid FROM k",
    "SELECT oid, * FROM k",
    "SELECT k.rowid FROM k",
    "CREATE INDEX kx ON k(rowid)",
    "CREATE TABLE bad(a INTEGER PRIMARY KEY AUTOINCREMENT) WITHOUT ROWID",
    "CREATE TABLE bad2(a, b) WITHOUT ROWID",
    "CREATE TABLE bad3(a UNIQUE, b) WITHOUT ROWID",
    "CREATE TABLE ok(a INTEGER PRIMARY KEY DESC, b UNIQUE) WITHOUT ROWID",
    "PRAGMA index_list(ok)",
    "INSERT INTO ok VALUES(1, 1), (2, 2)",
    "INSERT INTO ok VALUES(3, 2)",
    "INSERT INTO ok VALUES(2, 3)",
    "INSERT INTO ok VALUES('2', 3)",
    "SELECT a, typeof(a) FROM ok",
]


def _run(conn, sql):
    try:
        return ("ok", conn.execute(sql).fetchall())
    except Exception as exc:  # the class and message are the answer
        return ("error", type(exc).__name__, str(exc))


@pytest.mark.parametrize("script", [KEYS_AND_CONSTRAINTS, FEATURES, ERRORS],
                         ids=["keys_and_constraints", "features", "errors"])
def test_same_answers_as_sqlite3(script):
    ref = sqlite3.connect(":memory:", isolation_level=None)
    eng = sqlengine.connect(":memory:", isolation_level=None)
    for sql in script:
        assert _run(eng, sql) == _run(ref, sql), sql
    assert eng.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_blob_open_refuses_a_without_rowid_table():
    conn = sqlengine.connect(":memory:")
    conn.execute("CREATE TABLE w(k PRIMARY KEY, b BLOB) WITHOUT ROWID")
    conn.execute("INSERT INTO w VALUES(1, zeroblob(10))")
    with pytest.raises(sqlengine.OperationalError, match="cannot open table without rowid: w"):
        conn.blobopen("w", "b", 1)


def test_changes_and_last_insert_rowid():
    for mod in (sqlite3, sqlengine):
        conn = mod.connect(":memory:", isolation_level=None)
        conn.execute("CREATE TABLE r(x)")
        conn.execute("INSERT INTO r VALUES(1), (2)")
        conn.execute("CREATE TABLE w(k PRIMARY KEY, v) WITHOUT ROWID")
        cur = conn.execute("INSERT INTO w VALUES(1, 1), (2, 2), (3, 3)")
        got = [cur.rowcount, cur.lastrowid, conn.total_changes]
        cur = conn.execute("UPDATE w SET v = v + 1 WHERE k > 1")
        got += [cur.rowcount, conn.total_changes]
        cur = conn.execute("DELETE FROM w WHERE k < 3")
        got += [cur.rowcount, conn.total_changes]
        cur = conn.execute("REPLACE INTO w VALUES(3, 'r')")
        got += [cur.rowcount, conn.total_changes]
        if mod is sqlite3:
            want = got
        else:
            assert got == want
