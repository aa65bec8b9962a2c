"""BEGIN IMMEDIATE / EXCLUSIVE take the write lock (RESERVED) when they run, as in sqlite3:
'database is locked' at BEGIN while another connection or process writes, and other writers
locked out as soon as BEGIN returns. Cross-layer: compiler (BEGIN) and pager (locks)."""

import sqlite3
import subprocess
import sys
import textwrap

import pytest

import sqlengine


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "b.db")
    con = sqlite3.connect(path)
    con.execute("create table t(a)")
    con.commit()
    con.close()
    return path


def _outcome(mod, path, sqls):
    con = mod.connect(path, isolation_level=None, timeout=0)
    try:
        for s in sqls:
            con.execute(s)
        return "ok"
    except mod.OperationalError as e:
        return str(e)
    finally:
        con.close()


@pytest.mark.parametrize("mode", ["immediate", "exclusive"])
def test_begin_immediate_while_a_process_writes(db, mode):
    code = textwrap.dedent(f"""
        import sqlite3, sys
        con = sqlite3.connect({db!r}, isolation_level=None, timeout=0)
        con.execute("begin immediate")
        con.execute("insert into t values(1)")
        print("ready", flush=True)
        sys.stdin.readline()
        con.execute("commit")
    """)
    p = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "ready"
        want = _outcome(sqlite3, db, [f"begin {mode}"])
        got = _outcome(sqlengine, db, [f"begin {mode}"])
    finally:
        p.stdin.write("\n")
        p.stdin.flush()
        p.wait(timeout=60)
    assert want == "database is locked"
    assert got == want


def _sqlite3_process(path, sql):
    code = textwrap.dedent(f"""
        import sqlite3
        con = sqlite3.connect({path!r}, isolation_level=None, timeout=0)
        try:
            con.execute({sql!r}).fetchall()
            print("ok")
        except sqlite3.OperationalError as e:
            print(e)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=60)
    return r.stdout.strip()


@pytest.mark.parametrize("mode", ["immediate", "exclusive"])
def test_our_begin_immediate_locks_other_writers_out(db, mode):
    con = sqlengine.connect(db, isolation_level=None, timeout=0)
    con.execute(f"begin {mode}")
    try:
        # another process (fcntl locks never conflict within one process)
        assert _sqlite3_process(db, "begin immediate") == "database is locked"
        if mode == "immediate":
            assert _sqlite3_process(db, "select count(*) from t") == "ok"   # readers welcome
        assert _outcome(sqlengine, db, ["begin immediate"]) == "database is locked"
        assert _outcome(sqlengine, db, ["insert into t values(2)"]) == "database is locked"
    finally:
        con.execute("rollback")
        con.close()
    assert _outcome(sqlite3, db, ["begin immediate", "insert into t values(3)", "commit"]) == "ok"


def test_begin_immediate_within_a_transaction(db):
    for mod in (sqlite3, sqlengine):
        con = mod.connect(db, isolation_level=None)
        con.execute("begin")
        with pytest.raises(mod.OperationalError,
                           match="cannot start a transaction within a transaction"):
            con.execute("begin immediate")
        con.execute("rollback")
        con.close()
