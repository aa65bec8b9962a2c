"""Writes on a connection while one of its SELECTs is still open (not stepped to its end).

SQLite commits an autocommit write at once, whatever reads (sqlite3VdbeHalt commits when no
statement writes; btreeEndTransaction then keeps a read transaction for the statements still
reading), so another connection sees the row at once and a crash keeps it; the open SELECT
goes on reading, and its SHARED lock keeps other connections from committing until it ends.
A COMMIT or ROLLBACK with a SELECT open ends the transaction the same way, and a ROLLBACK
stops the open statements only when the transaction changed a schema (main's, an attached
or the temp database's: SQLite's DBFLAG_SchemaChange is the connection's). Each test checks
the stdlib sqlite3 (the oracle) and sqlengine alike.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.engine


def _open(sqlite, tmp_path, unique=False, isolation_level=None):
    path = str(tmp_path / "w.db")
    a = sqlite.connect(path, isolation_level=isolation_level)
    a.execute("create table t(x %s)" % ("unique" if unique else ""))
    a.executemany("insert into t values(?)", [(i,) for i in range(5)])
    a.commit()
    b = sqlite.connect(path, isolation_level=None, timeout=0.05)
    return path, a, b


def _can_write(con):
    """Whether ``con`` can commit a write now (another connection's SHARED lock stops it)."""
    try:
        con.execute("insert into t values(-1)")
    except con.OperationalError as e:
        assert str(e) == "database is locked"
        return False
    con.execute("delete from t where x = -1")
    return True


def _rows(con):
    return con.execute("select x from t order by rowid").fetchall()


def _close(*cons):
    for c in cons:
        c.close()


@pytest.mark.parametrize("sql, seen, rest", [
    ("insert into t values(100)", [0, 1, 2, 3, 4, 100], [1, 2, 3, 4, 100]),
    ("update t set x = x + 10", [10, 11, 12, 13, 14], [1, 12, 13, 14]),
    ("delete from t where x < 3", [3, 4], [1, 3, 4]),
])
def test_autocommit_write_commits_at_once(sqlite, tmp_path, sql, seen, rest):
    path, a, b = _open(sqlite, tmp_path)
    cur = a.execute("select x from t")
    assert cur.fetchone() == (0,)
    a.execute(sql)
    assert _rows(b) == [(x,) for x in seen]
    assert not os.path.exists(path + "-journal")
    assert not _can_write(b)          # the open SELECT's SHARED lock
    # (the stdlib's cursor read its next row ahead, before the write)
    assert cur.fetchall() == [(x,) for x in rest]
    assert _can_write(b)
    _close(a, b)


def test_several_open_selects(sqlite, tmp_path):
    path, a, b = _open(sqlite, tmp_path)
    c1 = a.execute("select x from t")
    c1.fetchone()
    c2 = a.execute("select x from t order by x desc")
    c2.fetchone()
    a.execute("insert into t values(100)")
    a.execute("delete from t where x = 2")
    assert _rows(b) == [(0,), (1,), (3,), (4,), (100,)]
    assert c1.fetchall() == [(1,), (3,), (4,), (100,)]
    assert not _can_write(b)
    assert c2.fetchall() == [(3,), (2,), (1,), (0,)]   # (sorted before the DELETE)
    assert _can_write(b)
    _close(a, b)


def test_writes_while_a_select_stays_open(sqlite, tmp_path):
    path, a, b = _open(sqlite, tmp_path)
    cur = a.execute("select x from t")
    cur.fetchone()
    for i in range(40):
        a.execute("insert into t values(?)", (1000 + i,))
        if i % 10 == 0:
            a.execute("delete from t where x = ?", (i // 10,))
        assert b.execute("select count(*) from t").fetchone() == (5 + i - i // 10,)
    assert len(cur.fetchall()) == 42  # 1 read ahead, 4, the 40 inserted (2 and 3 deleted)
    assert b.execute("pragma integrity_check").fetchall() == [("ok",)]
    _close(a, b)


def test_large_write_spilling_with_open_select(sqlite, tmp_path):
    path, a, b = _open(sqlite, tmp_path)
    a.execute("pragma cache_size = 10")
    cur = a.execute("select x from t")
    cur.fetchone()
    a.execute("insert into t select randomblob(3000) from (with recursive r(i) as "
              "(values(1) union all select i + 1 from r where i < 300) select i from r)")
    assert b.execute("select count(*) from t").fetchone() == (305,)
    assert len(cur.fetchall()) == 304
    assert b.execute("pragma integrity_check").fetchall() == [("ok",)]
    _close(a, b)


def test_deferred_commit_with_open_select(sqlite, tmp_path):
    path, a, b = _open(sqlite, tmp_path, isolation_level="")
    cur = a.execute("select x from t")
    cur.fetchone()
    a.execute("insert into t values(100)")
    assert a.in_transaction
    assert b.execute("select count(*) from t").fetchone() == (5,)
    a.commit()
    assert not a.in_transaction
    assert b.execute("select count(*) from t").fetchone() == (6,)
    assert not _can_write(b)          # the open SELECT still reads
    assert cur.fetchall() == [(1,), (2,), (3,), (4,), (100,)]
    assert _can_write(b)
    _close(a, b)


def test_release_with_open_select(sqlite, tmp_path):
    path, a, b = _open(sqlite, tmp_path)
    cur = a.execute("select x from t")
    cur.fetchone()
    a.execute("savepoint s1")
    a.execute("insert into t values(100)")
    a.execute("savepoint s2")
    a.execute("insert into t values(200)")
    a.execute("rollback to s2")
    assert b.execute("select count(*) from t").fetchone() == (5,)
    a.execute("release s1")
    assert _rows(b)[-1] == (100,)
    assert not _can_write(b)
    assert cur.fetchall() == [(1,), (2,), (3,), (4,), (100,)]
    assert _can_write(b)
    _close(a, b)


@pytest.mark.parametrize("how", ["sql", "dbapi"])
def test_rollback_with_open_select_reads_on(sqlite, tmp_path, how):
    path, a, b = _open(sqlite, tmp_path, isolation_level=None if how == "sql" else "")
    cur = a.execute("select x from t")
    assert cur.fetchone() == (0,)
    if how == "sql":
        a.execute("begin")
    a.execute("insert into t values(100)")
    a.execute("update t set x = x + 50")
    assert cur.fetchone() == (1,)     # (read ahead before the UPDATE)
    if how == "sql":
        a.execute("rollback")
    else:
        a.rollback()
    assert b.execute("select count(*) from t").fetchone() == (5,)
    # the row read ahead under the UPDATE, then the rolled-back content
    assert cur.fetchall() == [(52,), (3,), (4,)]
    assert _can_write(b)
    assert _rows(a) == [(0,), (1,), (2,), (3,), (4,)]
    _close(a, b)


def test_rollback_of_schema_change_stops_open_select(sqlite, tmp_path):
    path, a, b = _open(sqlite, tmp_path)
    cur = a.execute("select x from t")
    cur.fetchone()
    a.execute("begin")
    a.execute("create table u(y)")
    a.execute("insert into t values(100)")
    a.execute("rollback")
    with pytest.raises(sqlite.OperationalError, match="^abort due to ROLLBACK$"):
        cur.fetchall()
    assert _can_write(b)
    assert b.execute("select count(*) from sqlite_master").fetchone() == (1,)
    assert _rows(a) == [(0,), (1,), (2,), (3,), (4,)]
    _close(a, b)


@pytest.mark.parametrize("ddl_first", [False, True])
def test_rollback_to_after_schema_change_stops_open_select(sqlite, ddl_first):
    a = sqlite.connect(":memory:", isolation_level=None)
    a.execute("create table t(x)")
    a.executemany("insert into t values(?)", [(i,) for i in range(5)])
    cur = a.execute("select x from t")
    cur.fetchone()
    a.execute("begin")
    if ddl_first:   # (before the savepoint: SQLite stops the statements all the same)
        a.execute("create table u(y)")
    a.execute("savepoint s")
    if not ddl_first:
        a.execute("create table u(y)")
    a.execute("insert into t values(9)")
    a.execute("rollback to s")
    with pytest.raises(sqlite.OperationalError, match="^abort due to ROLLBACK$"):
        cur.fetchall()
    a.execute("commit")
    assert a.execute("select count(*) from t").fetchone() == (5,)
    assert a.execute("select count(*) from sqlite_master").fetchone() == (1 + ddl_first,)
    a.close()


def _open_with_aux_and_temp(sqlite, tmp_path):
    """A connection (autocommit) to main with t, an attached aux with w and temp with tt."""
    a = sqlite.connect(str(tmp_path / "m.db"), isolation_level=None)
    a.execute("create table t(x)")
    a.executemany("insert into t values(?)", [(i,) for i in range(5)])
    a.execute("attach ? as aux", (str(tmp_path / "aux.db"),))
    a.execute("create table aux.w(z)")
    a.execute("insert into aux.w values(0), (1), (2), (3), (4)")
    a.execute("create temp table tt(q)")
    a.execute("insert into tt values(0), (1), (2), (3), (4)")
    return a


_ALL_NAMES = ("select name from sqlite_temp_master union all select name from aux.sqlite_master"
              " union all select name from main.sqlite_master")
_OTHER_DDL = [
    "create table aux.u(y)", "create index aux.wi on w(z)", "alter table aux.w add column k",
    "pragma aux.schema_version = 99", "create temp table u(y)", "create index tti on tt(q)",
    "create temp view v as select 1",
    "create temp trigger tr after insert on t begin select 1; end",
]
_ENDS = {
    "rollback": ["begin", "DDL", "rollback"],
    "rollback to": ["begin", "savepoint s", "DDL", "rollback to s"],
    "ddl before the savepoint": ["begin", "DDL", "savepoint s", "insert into t values(9)",
                                 "rollback to s"],
    "savepoint then rollback": ["savepoint s", "DDL", "rollback"],
}


_SOURCES = ["select x from t", "select z from aux.w", "select q from tt"]


@pytest.mark.parametrize("ddl", _OTHER_DDL)
@pytest.mark.parametrize("end", sorted(_ENDS))
def test_rollback_of_attached_or_temp_schema_change_stops_open_select(sqlite, tmp_path,
                                                                      ddl, end):
    # (SQLite's DBFLAG_SchemaChange is the connection's: DDL on any of its databases stops
    # the statements reading any of them)
    a = _open_with_aux_and_temp(sqlite, tmp_path)
    names = a.execute(_ALL_NAMES).fetchall()
    curs = [a.execute(source) for source in _SOURCES]
    for cur in curs:
        assert cur.fetchone() == (0,)
    for sql in _ENDS[end]:
        a.execute(ddl if sql == "DDL" else sql)
    for cur in curs:
        with pytest.raises(sqlite.OperationalError, match="^abort due to ROLLBACK$"):
            cur.fetchall()
    if end == "rollback to":
        assert a.execute(_ALL_NAMES).fetchall() == names     # (the DDL undone)
        assert a.execute("pragma aux.schema_version").fetchone()[0] != 99
        a.execute("commit")
    elif a.in_transaction:
        a.execute("commit")
    else:
        assert a.execute(_ALL_NAMES).fetchall() == names
    a.execute("insert into t values(10)")
    for source in _SOURCES:
        assert a.execute(source).fetchone() == (0,)
    a.close()


@pytest.mark.parametrize("sql", ["insert into aux.w values(9)", "update tt set q = q + 1",
                                 "pragma aux.user_version = 5"])
def test_rollback_of_attached_or_temp_content_reads_on(sqlite, tmp_path, sql):
    a = _open_with_aux_and_temp(sqlite, tmp_path)
    cur = a.execute("select z from aux.w")
    assert cur.fetchone() == (0,)
    a.execute("begin")
    a.execute(sql)
    a.execute("savepoint s")
    a.execute(sql)
    a.execute("rollback to s")
    a.execute("rollback")
    assert cur.fetchall() == [(1,), (2,), (3,), (4,)]
    a.close()


_NAMES_AUX_U = [("tt",), ("w",), ("u",), ("t",)]
_NAMES = [("tt",), ("w",), ("t",)]


@pytest.mark.parametrize("steps, stopped, names", [
    # the schema change ended with its transaction: a later one's ROLLBACK reads on
    (["begin", "create table aux.u(y)", "commit", "OPEN", "begin", "insert into t values(1)",
      "rollback"], False, _NAMES_AUX_U),
    (["create temp table u(y)", "OPEN", "begin", "insert into t values(1)", "rollback"], False,
     [("tt",), ("u",), ("w",), ("t",)]),
    (["begin", "savepoint s", "create table aux.u(y)", "rollback to s", "commit", "OPEN",
      "begin", "rollback"], False, _NAMES),
    (["savepoint a", "create table aux.u(y)", "savepoint b", "insert into aux.u values(5)",
      "rollback to b", "release a", "OPEN", "begin", "rollback"], False, _NAMES_AUX_U),
    # ... while after a ROLLBACK TO the transaction still counts as one that changed it
    (["begin", "savepoint s", "create table aux.u(y)", "rollback to s", "OPEN", "rollback"],
     True, _NAMES),
    (["begin", "savepoint a", "create table aux.u(y)", "savepoint b",
      "create temp table v(q)", "rollback to b", "OPEN", "rollback to a", "commit"], True,
     _NAMES),
    (["begin", "create temp trigger tr after insert on t begin select 1; end", "OPEN",
      "rollback"], True, _NAMES),
])
def test_rollback_after_attached_schema_change(sqlite, tmp_path, steps, stopped, names):
    a = _open_with_aux_and_temp(sqlite, tmp_path)
    cur = None
    for sql in steps:
        if sql == "OPEN":
            cur = a.execute("select x from t")
            assert cur.fetchone() == (0,)
        else:
            a.execute(sql)
    if stopped:
        with pytest.raises(sqlite.OperationalError, match="^abort due to ROLLBACK$"):
            cur.fetchall()
    else:
        assert cur.fetchall()[-1] == (4,)
    assert a.execute(_ALL_NAMES).fetchall() == names
    a.close()


@pytest.mark.parametrize("source", _SOURCES)
@pytest.mark.parametrize("drop", ["drop table aux.w", "drop table tt"])
def test_drop_in_attached_or_temp_with_open_select(sqlite, tmp_path, source, drop):
    a = _open_with_aux_and_temp(sqlite, tmp_path)
    cur = a.execute(source)
    assert cur.fetchone() == (0,)
    with pytest.raises(sqlite.OperationalError, match="^database table is locked$"):
        a.execute(drop)
    assert cur.fetchall() == [(1,), (2,), (3,), (4,)]
    a.execute(drop)
    assert len(a.execute(_ALL_NAMES).fetchall()) == 2
    a.close()


def test_temp_trigger_on_main_table_moves_temp_schema_cookie(sqlite):
    a = sqlite.connect(":memory:", isolation_level=None)
    a.execute("create table t(x)")
    a.execute("create temp table tt(q)")
    before = a.execute("pragma temp.schema_version").fetchone()[0]
    a.execute("create temp trigger tr after insert on t begin select 1; end")
    assert a.execute("pragma temp.schema_version").fetchone()[0] == before + 1
    assert a.execute("pragma main.schema_version").fetchone() == (1,)
    a.close()


def test_rollback_to_without_schema_change_reads_on(sqlite):
    a = sqlite.connect(":memory:", isolation_level=None)
    a.execute("create table t(x)")
    a.executemany("insert into t values(?)", [(i,) for i in range(5)])
    cur = a.execute("select x from t")
    cur.fetchone()
    a.execute("begin")
    a.execute("savepoint s")
    a.execute("insert into t values(9)")
    a.execute("rollback to s")
    assert cur.fetchall() == [(1,), (2,), (3,), (4,)]
    a.execute("commit")
    a.close()


def test_returning_open_across_rollback(sqlite, tmp_path):
    path, a, b = _open(sqlite, tmp_path)
    a.execute("begin")
    r = a.execute("insert into t values(10), (11), (12) returning x")
    assert r.fetchone() == (10,)
    a.execute("rollback")
    assert r.fetchall() == [(11,), (12,)]   # its rows were made before the first
    assert b.execute("select count(*) from t").fetchone() == (5,)
    assert _can_write(b)
    _close(a, b)


def test_open_returning_holds_the_commit_back(sqlite, tmp_path):
    path, a, b = _open(sqlite, tmp_path)
    r = a.execute("insert into t values(10), (11), (12) returning x")
    assert r.fetchone() == (10,)
    a.execute("insert into t values(20)")   # a statement still writes: no commit yet
    assert b.execute("select count(*) from t").fetchone() == (5,)
    assert r.fetchall() == [(11,), (12,)]
    assert b.execute("select count(*) from t").fetchone() == (9,)
    assert _can_write(b)
    _close(a, b)


@pytest.mark.parametrize("database", ["file", "memory"])
def test_or_rollback_keeps_an_earlier_autocommit_write(sqlite, tmp_path, database):
    if database == "file":
        path, a, b = _open(sqlite, tmp_path, unique=True)
        b.close()
    else:
        a = sqlite.connect(":memory:", isolation_level=None)
        a.execute("create table t(x unique)")
        a.executemany("insert into t values(?)", [(i,) for i in range(5)])
    cur = a.execute("select x from t")
    cur.fetchone()
    a.execute("insert into t values(100)")
    with pytest.raises(sqlite.IntegrityError, match="^UNIQUE constraint failed: t.x$"):
        a.execute("insert or rollback into t values(1)")
    assert a.execute("select count(*) from t").fetchone() == (6,)
    assert cur.fetchall() == [(1,), (2,), (3,), (4,), (100,)]
    a.close()


def test_memory_rollback_keeps_an_earlier_autocommit_write(sqlite):
    a = sqlite.connect(":memory:", isolation_level=None)
    a.execute("create table t(x)")
    a.executemany("insert into t values(?)", [(i,) for i in range(5)])
    cur = a.execute("select x from t")
    cur.fetchone()
    a.execute("insert into t values(100)")
    a.execute("begin")
    a.execute("insert into t values(200)")
    a.execute("rollback")
    assert a.execute("select count(*) from t").fetchone() == (6,)
    assert cur.fetchall() == [(1,), (2,), (3,), (4,), (100,)]
    a.close()


def test_failed_writes_with_open_select(sqlite, tmp_path):
    path, a, b = _open(sqlite, tmp_path, unique=True)
    cur = a.execute("select x from t")
    cur.fetchone()
    a.execute("insert into t values(100)")
    with pytest.raises(sqlite.IntegrityError):
        a.execute("insert into t values(200), (1)")          # ABORT: undone
    with pytest.raises(sqlite.IntegrityError):
        a.execute("insert or fail into t values(300), (2)")  # FAIL: 300 kept
    assert _rows(b) == [(0,), (1,), (2,), (3,), (4,), (100,), (300,)]
    assert not os.path.exists(path + "-journal")
    assert not _can_write(b)
    assert cur.fetchall() == [(1,), (2,), (3,), (4,), (100,), (300,)]
    assert _can_write(b)
    _close(a, b)


def test_pragma_with_open_select(sqlite, tmp_path):
    path, a, b = _open(sqlite, tmp_path)
    cur = a.execute("select x from t")
    cur.fetchone()
    a.execute("pragma user_version = 5")
    assert b.execute("pragma user_version").fetchone() == (5,)
    assert not _can_write(b)
    assert cur.fetchall() == [(1,), (2,), (3,), (4,)]
    assert _can_write(b)
    _close(a, b)


def test_ddl_with_open_select(sqlite, tmp_path):
    path, a, b = _open(sqlite, tmp_path)
    cur = a.execute("select x from t")
    cur.fetchone()
    a.execute("create table u(y)")
    names = "select name from sqlite_master order by name"
    assert b.execute(names).fetchall() == [("t",), ("u",)]
    with pytest.raises(sqlite.OperationalError, match="^database table is locked$"):
        a.execute("drop table u")
    a.execute("create index i on t(x)")
    assert b.execute(names).fetchall() == [("i",), ("t",), ("u",)]
    a.execute("begin")
    with pytest.raises(sqlite.OperationalError, match="^database table is locked$"):
        a.execute("drop index i")
    a.execute("commit")
    assert cur.fetchall() == [(1,), (2,), (3,), (4,)]
    a.execute("drop table u")
    assert b.execute(names).fetchall() == [("i",), ("t",)]
    assert b.execute("pragma integrity_check").fetchall() == [("ok",)]
    _close(a, b)


def test_drop_in_memory_database_with_open_select(sqlite):
    a = sqlite.connect(":memory:", isolation_level=None)
    a.execute("create table t(x)")
    a.execute("create table u(x)")
    a.executemany("insert into t values(?)", [(i,) for i in range(5)])
    cur = a.execute("select x from t")
    cur.fetchone()
    with pytest.raises(sqlite.OperationalError, match="^database table is locked$"):
        a.execute("drop table u")
    assert cur.fetchall() == [(1,), (2,), (3,), (4,)]
    a.execute("drop table u")
    assert a.execute("select count(*) from sqlite_master").fetchone() == (1,)
    a.close()


def test_attached_database_with_open_select(sqlite, tmp_path):
    path, a, b = _open(sqlite, tmp_path)
    aux = str(tmp_path / "aux.db")
    a.execute("attach ? as aux", (aux,))
    a.execute("create table aux.u(y)")
    a.execute("insert into aux.u values(1), (2), (3)")
    c = sqlite.connect(aux, isolation_level=None, timeout=0.05)
    cur = a.execute("select y from aux.u")
    cur.fetchone()
    a.execute("insert into t values(100)")
    a.execute("insert into aux.u values(4)")
    assert b.execute("select count(*) from t").fetchone() == (6,)
    assert c.execute("select y from u").fetchall() == [(1,), (2,), (3,), (4,)]
    assert not _can_write(b)          # (read transactions kept on both files)
    with pytest.raises(sqlite.OperationalError, match="^database is locked$"):
        c.execute("insert into u values(3)")
    assert cur.fetchall() == [(2,), (3,), (4,)]
    assert _can_write(b)
    c.execute("insert into u values(3)")
    _close(a, b, c)


def test_data_version_and_changes(sqlite, tmp_path):
    path, a, b = _open(sqlite, tmp_path)
    before = b.execute("pragma data_version").fetchone()[0]
    cur = a.execute("select x from t")
    cur.fetchone()
    a.execute("insert into t values(100)")
    assert b.execute("pragma data_version").fetchone()[0] == before + 1
    assert a.execute("select changes()").fetchone() == (1,)
    _close(a, b)


_CRASH = """
import os, sys
sys.path[:0] = {path!r}
backend, db = sys.argv[1], sys.argv[2]
module = __import__("sqlite3" if backend == "sqlite3" else "sqlengine")
con = module.connect(db, isolation_level=None)
cur = con.execute("select x from t")
cur.fetchone()
con.execute("insert into t values(100)")
con.execute("delete from t where x = 0")
os._exit(0)
"""


def test_crash_keeps_a_write_made_with_a_select_open(sqlite, tmp_path):
    if sqlite.name == "sqlengine-capi":
        pytest.skip("the ctypes stand-in is set up inside this process only")
    path, a, b = _open(sqlite, tmp_path)
    a.close()
    script = _CRASH.format(path=sys.path)
    subprocess.run([sys.executable, "-c", script, sqlite.name, path], check=True, timeout=120)
    assert _rows(b) == [(1,), (2,), (3,), (4,), (100,)]
    assert b.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert _can_write(b)
    b.close()
