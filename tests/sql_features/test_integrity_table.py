"""PRAGMA integrity_check(TABLE) / quick_check(TABLE) and pragma_integrity_check(...) on a
file whose index disagrees with its table: both engines give the same messages, checking
only the named table and its indexes, and the same errors for unknown names."""

import sqlite3

import pytest

import sqlengine

QUERIES = [
    "pragma integrity_check",
    "pragma integrity_check(t)",
    "pragma integrity_check('t')",
    "pragma integrity_check(u)",
    "pragma integrity_check(w)",
    "pragma integrity_check(v)",
    "pragma quick_check(t)",
    "pragma quick_check(u)",
    "pragma integrity_check(1)",
    "pragma integrity_check(0)",
    "pragma integrity_check(ti)",
    "pragma integrity_check(nosuch)",
    "pragma main.integrity_check(t)",
    "pragma main.integrity_check(u)",
    "pragma temp.integrity_check(t)",
    "pragma integrity_check(sqlite_master)",
    "select * from pragma_integrity_check",
    "select * from pragma_integrity_check('u')",
    "select * from pragma_integrity_check('t')",
    "select * from pragma_integrity_check(1)",
    "select * from pragma_quick_check('t')",
    "select count(*) from pragma_integrity_check('t') where integrity_check like 'row%'",
]


@pytest.fixture()
def damaged(tmp_path):
    path = str(tmp_path / "ic.db")
    c = sqlite3.connect(path, isolation_level=None)
    c.executescript("""
        create table t(a, b); create index ti on t(a); insert into t values(1, 2), (3, 4);
        create table u(x); create index ui on u(x); insert into u values(7), (8);
        create table w(z); create view v as select * from t;
        pragma writable_schema = on;
        update sqlite_master set sql = 'create index ti on t(b)' where name = 'ti';
    """)
    c.close()
    return path


def _outcome(conn, sql):
    try:
        cur = conn.execute(sql)
        return cur.fetchall(), [d[0] for d in cur.description or ()]
    except Exception as e:  # noqa: BLE001 - the class and message are compared
        return type(e).__name__, str(e)


@pytest.mark.parametrize("sql", QUERIES)
def test_integrity_check_of_one_table(damaged, sql):
    a = sqlite3.connect(damaged)
    b = sqlengine.connect(damaged)
    try:
        assert _outcome(b, sql) == _outcome(a, sql)
    finally:
        a.close()
        b.close()


def test_temp_table_check():
    stmts = ["create table t1(x primary key)", "create temp table tt(q unique)",
             "insert into tt values(1)", "pragma integrity_check(tt)",
             "pragma temp.integrity_check(tt)", "pragma main.integrity_check(tt)",
             "pragma temp.integrity_check(t1)", "pragma quick_check(tt)"]
    a = sqlite3.connect(":memory:")
    b = sqlengine.connect(":memory:")
    for s in stmts:
        assert _outcome(b, s) == _outcome(a, s), s
