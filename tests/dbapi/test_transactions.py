"""Transaction control: the legacy isolation_level rules (implicit BEGIN before DML), the
context manager, and 3.12's autocommit attribute (like CPython's test_transactions.py)."""

from __future__ import annotations

import pytest

# The stdlib module has ``autocommit`` from 3.12 on; on older Pythons those tests run on
# sqlengine only (their expectations were checked against Python 3.12's sqlite3).
py312 = pytest.mark.py312


def traced(con):
    statements = []
    con.set_trace_callback(statements.append)
    return statements


@pytest.fixture
def file_con(sqlite, tmp_path):
    path = tmp_path / "tx.db"
    con = sqlite.connect(path, timeout=0.1)
    con.execute("create table t(a)")
    con.commit()
    yield con, path
    con.close()


# -- legacy transaction control (isolation_level) ------------------------------------------


def test_default_isolation_level(con):
    assert con.isolation_level == ""
    assert not con.in_transaction


def test_implicit_begin_before_dml_only(con):
    log = traced(con)
    con.execute("create table t(a)")
    assert not con.in_transaction
    con.execute("select * from t")
    assert not con.in_transaction
    con.execute("insert into t values(?)", (1,))
    assert con.in_transaction
    con.execute("update t set a = 2")
    con.commit()
    assert not con.in_transaction
    assert log == ["create table t(a)", "select * from t", "BEGIN ", "insert into t values(1)",
                   "update t set a = 2", "COMMIT"]


@pytest.mark.parametrize("sql", ["INSERT INTO t VALUES(1)", "  /* c */ -- x\n update t set a=1",
                                 "delete from t", "replace into t values(3)"])
def test_dml_keywords(con, sql):
    con.execute("create table t(a)")
    con.execute(sql)
    assert con.in_transaction


def test_with_insert_is_not_dml_for_the_stdlib(con):
    con.execute("create table t(a)")
    con.execute("with x(v) as (values(1)) insert into t select v from x")
    assert not con.in_transaction


@pytest.mark.parametrize("level,begin", [("DEFERRED", "BEGIN DEFERRED"),
                                         ("immediate", "BEGIN IMMEDIATE"),
                                         ("Exclusive", "BEGIN EXCLUSIVE")])
def test_isolation_levels(con, level, begin):
    con.execute("create table t(a)")
    con.isolation_level = level
    assert con.isolation_level == level.upper()
    log = traced(con)
    con.execute("insert into t values(1)")
    con.rollback()
    assert log == [begin, "insert into t values(1)", "ROLLBACK"]


def test_isolation_level_validation(con, sqlite):
    with pytest.raises(ValueError, match="isolation_level string must be '', 'DEFERRED', "
                       "'IMMEDIATE', or 'EXCLUSIVE'"):
        con.isolation_level = "foo"
    with pytest.raises(TypeError, match="isolation_level must be str or None"):
        con.isolation_level = 1
    with pytest.raises(ValueError):
        sqlite.connect(":memory:", isolation_level="bogus")


def test_isolation_level_none_is_autocommit(con):
    con.isolation_level = None
    con.execute("create table t(a)")
    con.execute("insert into t values(1)")
    assert not con.in_transaction


def test_setting_isolation_level_none_commits(file_con, sqlite):
    con, path = file_con
    con.execute("insert into t values(1)")
    assert con.in_transaction
    con.isolation_level = None
    assert not con.in_transaction
    other = sqlite.connect(path)
    assert other.execute("select count(*) from t").fetchone() == (1,)
    other.close()


def test_explicit_transaction_statements(con):
    con.isolation_level = None
    con.execute("create table t(a)")
    con.execute("begin")
    assert con.in_transaction
    con.execute("insert into t values(1)")
    con.execute("rollback")
    assert not con.in_transaction
    assert con.execute("select count(*) from t").fetchone() == (0,)


def test_commit_and_rollback_without_transaction(con):
    log = traced(con)
    con.commit()
    con.rollback()
    assert log == []


def test_rollback_discards(con):
    con.execute("create table t(a)")
    con.execute("insert into t values(1)")
    con.rollback()
    assert con.execute("select count(*) from t").fetchone() == (0,)


def test_uncommitted_changes_invisible_to_other_connection(file_con, sqlite):
    con, path = file_con
    con.execute("insert into t values(1)")
    other = sqlite.connect(path, timeout=0.1)
    assert other.execute("select count(*) from t").fetchone() == (0,)
    con.commit()
    assert other.execute("select count(*) from t").fetchone() == (1,)
    other.close()


def test_locked_database(file_con, sqlite):
    con, path = file_con
    con.execute("insert into t values(1)")
    other = sqlite.connect(path, timeout=0.05)
    with pytest.raises(sqlite.OperationalError, match="^database is locked$"):
        other.execute("insert into t values(2)")
    other.close()


def test_close_discards_uncommitted(file_con, sqlite):
    con, path = file_con
    con.execute("insert into t values(1)")
    con.close()
    other = sqlite.connect(path)
    assert other.execute("select count(*) from t").fetchone() == (0,)
    other.close()


def test_ddl_inside_transaction(con):
    con.execute("create table t(a)")
    con.execute("insert into t values(1)")
    con.execute("create table u(b)")
    assert con.in_transaction
    con.rollback()
    assert con.execute("select name from sqlite_master").fetchall() == [("t",)]


# -- context manager ------------------------------------------------------------------------


def test_context_manager_commits(con):
    con.execute("create table t(a)")
    with con as entered:
        assert entered is con
        con.execute("insert into t values(1)")
    assert not con.in_transaction
    assert con.execute("select count(*) from t").fetchone() == (1,)


def test_context_manager_rolls_back_on_error(con):
    con.execute("create table t(a)")
    with pytest.raises(ZeroDivisionError):
        with con:
            con.execute("insert into t values(1)")
            raise ZeroDivisionError
    assert con.execute("select count(*) from t").fetchone() == (0,)


def test_context_manager_does_not_close(con):
    with con:
        pass
    assert con.execute("select 1").fetchone() == (1,)


def test_context_manager_commit_failure_rolls_back(con, sqlite):
    con.executescript("""
        pragma foreign_keys = on;
        create table p(id integer primary key);
        create table c(p references p(id) deferrable initially deferred);
    """)
    with pytest.raises(sqlite.IntegrityError, match="^FOREIGN KEY constraint failed$"):
        with con:
            con.execute("insert into c values(5)")
    assert not con.in_transaction
    assert con.execute("select count(*) from c").fetchone() == (0,)


# -- autocommit (Python 3.12 semantics) --------------------------------------------------------


@py312
def test_autocommit_default_is_legacy(sqlite):
    con = sqlite.connect(":memory:")
    assert con.autocommit == sqlite.LEGACY_TRANSACTION_CONTROL == -1


@py312
def test_autocommit_false_always_in_transaction(sqlite):
    con = sqlite.connect(":memory:", autocommit=False)
    assert con.in_transaction
    con.execute("create table t(a)")
    con.commit()
    assert con.in_transaction
    con.execute("insert into t values(1)")
    con.rollback()
    assert con.in_transaction
    assert con.execute("select count(*) from t").fetchone() == (0,)


@py312
def test_autocommit_false_trace(sqlite):
    con = sqlite.connect(":memory:", autocommit=False)
    log = traced(con)
    con.commit()
    con.rollback()
    con.close()
    assert log == ["COMMIT", "BEGIN", "ROLLBACK", "BEGIN", "ROLLBACK"]


@py312
def test_autocommit_true_never_begins(sqlite):
    con = sqlite.connect(":memory:", autocommit=True)
    log = traced(con)
    con.execute("create table t(a)")
    con.execute("insert into t values(1)")
    assert not con.in_transaction
    con.execute("begin")
    con.commit()  # does nothing in autocommit mode
    assert con.in_transaction
    con.execute("rollback")
    assert log == ["create table t(a)", "insert into t values(1)", "begin", "rollback"]


@py312
def test_autocommit_ignores_isolation_level(sqlite):
    con = sqlite.connect(":memory:", autocommit=True, isolation_level="IMMEDIATE")
    con.execute("create table t(a)")
    con.execute("insert into t values(1)")
    assert not con.in_transaction


@py312
def test_autocommit_attribute_changes(sqlite):
    con = sqlite.connect(":memory:")
    log = traced(con)
    con.autocommit = False
    assert con.in_transaction
    con.autocommit = True
    assert not con.in_transaction
    con.autocommit = sqlite.LEGACY_TRANSACTION_CONTROL
    assert not con.in_transaction
    assert log == ["BEGIN", "COMMIT"]


@py312
def test_autocommit_validation(sqlite):
    message = "autocommit must be True, False, or sqlite3.LEGACY_TRANSACTION_CONTROL"
    with pytest.raises(ValueError, match=message):
        sqlite.connect(":memory:", autocommit=5)
    con = sqlite.connect(":memory:")
    with pytest.raises(ValueError, match=message):
        con.autocommit = "yes"


@py312
def test_autocommit_false_context_manager(sqlite):
    con = sqlite.connect(":memory:", autocommit=False)
    con.execute("create table t(a)")
    with con:
        con.execute("insert into t values(1)")
    assert con.in_transaction
    con.rollback()
    assert con.execute("select count(*) from t").fetchone() == (1,)


@py312
def test_autocommit_false_executescript_keeps_transaction(sqlite):
    con = sqlite.connect(":memory:", autocommit=False)
    con.executescript("create table t(a); insert into t values(1);")
    assert con.in_transaction
    con.rollback()
    assert con.execute("select count(*) from sqlite_master").fetchone() == (0,)


# -- several processes on one file -------------------------------------------------------------

_WRITER = """
import sys
sys.path[:0] = [{root!r}, {capi!r}]
backend, path, tag, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
if backend == "sqlite3":
    import sqlite3 as module
else:
    import sqlengine as module
    if backend == "sqlengine-capi":
        import capi_engine, sqlengine.dbapi as dbapi
        dbapi._open_database = lambda p, t: capi_engine.Database(p, t)
con = module.connect(path, timeout=30)
for i in range(count):
    with con:
        con.execute("insert into t values(?, ?)", (tag, i))
con.close()
"""


def test_writers_in_several_processes(sqlite, tmp_path):
    import os
    import subprocess
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    script = _WRITER.format(root=os.path.dirname(os.path.dirname(here)), capi=here)
    path = tmp_path / "shared.db"
    con = sqlite.connect(path)
    con.execute("create table t(tag, i)")
    con.commit()
    writers = [subprocess.Popen([sys.executable, "-c", script, sqlite.name, str(path), tag,
                                 "25"]) for tag in ("a", "b", "c")]
    assert [w.wait(timeout=300) for w in writers] == [0, 0, 0]
    rows = con.execute("select tag, count(*), sum(i) from t group by tag order by tag")
    assert rows.fetchall() == [("a", 25, 300), ("b", 25, 300), ("c", 25, 300)]


@py312
def test_getconfig_setconfig(sqlite):
    con = sqlite.connect(":memory:")
    assert con.getconfig(sqlite.SQLITE_DBCONFIG_ENABLE_FKEY) is False
    assert con.getconfig(sqlite.SQLITE_DBCONFIG_ENABLE_TRIGGER) is True
    assert con.getconfig(sqlite.SQLITE_DBCONFIG_DQS_DML) is True
    assert con.setconfig(sqlite.SQLITE_DBCONFIG_ENABLE_FKEY) is None
    assert con.execute("pragma foreign_keys").fetchone() == (1,)
    con.setconfig(sqlite.SQLITE_DBCONFIG_ENABLE_FKEY, False)
    assert con.execute("pragma foreign_keys").fetchone() == (0,)
    con.execute("pragma foreign_keys = 1")
    assert con.getconfig(sqlite.SQLITE_DBCONFIG_ENABLE_FKEY) is True
    con.setconfig(sqlite.SQLITE_DBCONFIG_DEFENSIVE, True)
    assert con.getconfig(sqlite.SQLITE_DBCONFIG_DEFENSIVE) is True
    with pytest.raises(ValueError, match="^unknown config 'op': 5$"):
        con.getconfig(5)
    with pytest.raises(TypeError):
        con.getconfig("x")
