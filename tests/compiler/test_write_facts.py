"""The per-table facts every INSERT/UPDATE/DELETE compile asks (STRICT or not, which
triggers it has, columns named TRUE/FALSE), against sqlite3: the answers stay right when
tables of similar text come and go and when statements are compiled again."""

import sqlite3

import pytest

import sqlengine


def _run(mod, script):
    con = mod.connect(":memory:", isolation_level=None)
    out = []
    for sql in script:
        try:
            out.append(("ok", con.execute(sql).fetchall()))
        except mod.Error as e:
            out.append(("error", type(e).__name__, str(e)))
    con.close()
    return out


SCRIPTS = {
    "strict_memo": [
        # the CREATE texts spell "strict" without being STRICT, then are STRICT
        "CREATE TABLE strict_t(a INT, strict TEXT)",
        "INSERT INTO strict_t VALUES('x', 1)",
        "INSERT INTO strict_t VALUES('y', 2)",
        "SELECT a, typeof(a), strict FROM strict_t ORDER BY a",
        "CREATE TABLE s2(a INT) STRICT",
        "INSERT INTO s2 VALUES(1)",
        "INSERT INTO s2 VALUES('x')",
        "UPDATE s2 SET a = 'y'",
        "DROP TABLE s2",
        "CREATE TABLE s2(a INT)",
        "INSERT INTO s2 VALUES('x')",
        "UPDATE s2 SET a = 'y'",
        "SELECT a, typeof(a) FROM s2",
        "DROP TABLE s2",
        "CREATE TABLE s2(a INT) STRICT",
        "INSERT INTO s2 VALUES('x')",
        "SELECT count(*) FROM s2",
    ],
    "trigger_events": [
        "CREATE TABLE t(a)",
        "CREATE TABLE log(x)",
        "CREATE TRIGGER td AFTER DELETE ON t BEGIN INSERT INTO log VALUES('d' || old.a); END",
        "INSERT INTO t VALUES(1)",
        "INSERT INTO t VALUES(2)",
        "SELECT * FROM log",
        "CREATE TRIGGER ti AFTER INSERT ON t BEGIN INSERT INTO log VALUES('i' || new.a); END",
        "INSERT INTO t VALUES(3)",
        "DELETE FROM t WHERE a = 1",
        "DROP TRIGGER td",
        "DELETE FROM t WHERE a = 2",
        "SELECT * FROM log ORDER BY rowid",
        "SELECT * FROM t",
    ],
    "true_false_columns": [
        "CREATE TABLE w(a, \"true\", b)",
        "INSERT INTO w VALUES(1, 0, 2)",
        "INSERT INTO w VALUES(3, 1, 4)",
        "DELETE FROM w WHERE true",
        "SELECT * FROM w",
        "CREATE TABLE v(a, b)",
        "INSERT INTO v VALUES(1, 2)",
        "DELETE FROM v WHERE false",
        "SELECT * FROM v",
        "DELETE FROM v WHERE true",
        "SELECT * FROM v",
    ],
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_write_facts_like_sqlite(name):
    script = SCRIPTS[name]
    assert _run(sqlengine, script) == _run(sqlite3, script)
