"""PRAGMA recursive_triggers as the VM runs it: a trigger fired from inside itself runs in
a frame of the VM's own (OP_Program), so a chain of a thousand levels needs neither
Python's recursion nor the C stack; the depth limit is the connection's
SQLITE_LIMIT_TRIGGER_DEPTH; a statement failed inside a frame runs again from the start.
Each outcome is compared with sqlite3's (scripts/recursive_triggers.sql holds the rest)."""

import sqlite3
import sys
import threading

import pytest

import sqlengine

SCHEMA = (
    "pragma recursive_triggers = on",
    "create table c(n integer)",
    "create trigger c_ins after insert on c when new.n > 0 begin "
    "insert into c values(new.n - 1); end",
)


def _both():
    out = []
    for mod in (sqlite3, sqlengine):
        conn = mod.connect(":memory:", isolation_level=None)
        for sql in SCHEMA:
            conn.execute(sql)
        out.append(conn)
    return out


def _outcome(conn, sql, params=()):
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.Error as e:  # (sqlengine's classes are the DB-API's of its own)
        return (type(e).__name__, str(e))
    except sqlengine.Error as e:
        return (type(e).__name__, str(e))


def test_depth_1000_runs_without_python_recursion():
    """A chain of 1000 trigger frames under a Python recursion limit far below 1000;
    one more level is SQLite's error, and the statement is undone."""
    lite, eng = _both()
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(150)
    try:
        got = [_outcome(eng, "insert into c values(999)"),
               _outcome(eng, "select count(*), sum(n) from c"),
               _outcome(eng, "insert into c values(1000)"),
               _outcome(eng, "select count(*) from c")]
    finally:
        sys.setrecursionlimit(old)
    want = [_outcome(lite, "insert into c values(999)"),
            _outcome(lite, "select count(*), sum(n) from c"),
            _outcome(lite, "insert into c values(1000)"),
            _outcome(lite, "select count(*) from c")]
    assert got == want
    assert want[2] == ("OperationalError", "too many levels of trigger recursion")


def test_depth_1000_on_a_small_thread_stack():
    """The frames are the VM's, not C calls: a thread with a 256 KiB stack runs it."""
    eng = _both()[1]
    eng.close()
    result = []

    def run():
        conn = sqlengine.connect(":memory:", isolation_level=None)
        for sql in SCHEMA:
            conn.execute(sql)
        conn.execute("insert into c values(999)")
        result.append(conn.execute("select count(*) from c").fetchone()[0])
        conn.close()

    old = threading.stack_size(256 * 1024)
    try:
        t = threading.Thread(target=run)
        t.start()
        t.join()
    finally:
        threading.stack_size(old)
    assert result == [1000]


@pytest.mark.parametrize("limit", [0, 1, 5, 10, 2000])
def test_trigger_depth_limit(limit):
    """setlimit(SQLITE_LIMIT_TRIGGER_DEPTH) moves the limit (never above 1000)."""
    outs = []
    for conn in _both():
        conn.setlimit(10, limit)
        outs.append([conn.getlimit(10)] + [_outcome(conn, "insert into c values(?)", (n,))
                                            for n in (0, 3, 4, 5, 9, 10, 999, 1000)]
                    + [_outcome(conn, "select count(*) from c")])
    assert outs[1] == outs[0]


def test_statement_failed_in_a_frame_runs_again():
    """A statement stopped by an error deep in a frame starts from its own program on its
    next run; other statements of the connection are unaffected."""
    lite, eng = _both()
    sqls = [("insert into c values(?)", (1200,)), ("insert into c values(?)", (3,)),
            ("insert into c values(?)", (5000,)), ("insert into c values(?)", (2,)),
            ("select n from c order by rowid", ()),
            ("select count(*) from c where n > ?", (0,))]
    assert [_outcome(eng, s, p) for s, p in sqls] == [_outcome(lite, s, p) for s, p in sqls]


def test_setting_read_when_the_statement_is_prepared():
    """One cursor runs the same INSERT before and after each change of the setting: the
    statement cache's program is prepared again, as sqlite3 re-prepares it."""
    outs = []
    for conn in _both():
        cur = conn.cursor()
        got = []
        for flag in ("off", "on", "off", "on"):
            conn.execute(f"pragma recursive_triggers = {flag}")
            cur.execute("insert into c values(4)")
            got.append(conn.execute("select count(*) from c").fetchone()[0])
        outs.append(got)
    assert outs[1] == outs[0] == [2, 7, 9, 14]


def test_explain_lists_the_sub_program_call():
    """EXPLAIN shows the Program instruction of the recursive call (no crash on its P4)."""
    eng = _both()[1]
    ops = [r[1] for r in eng.execute("explain insert into c values(3)")]
    assert "Program" in ops
    eng.execute("pragma recursive_triggers = off")
    ops = [r[1] for r in eng.execute("explain insert into c values(3)")]
    assert "Program" not in ops
