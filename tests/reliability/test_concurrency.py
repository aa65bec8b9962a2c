"""Concurrency (tools/concurrency.py): threads and processes, sqlengine and the stdlib
sqlite3 mixed, moving money between accounts in one file. Readers never see a partial
transaction (balances always sum to the total, the transfer count always matches), a writer
that cannot get the lock gets 'database is locked' after its busy timeout, and at the end
both engines find the file intact with exactly the reported transfers."""

import os
import sqlite3
import subprocess
import sys
import textwrap

import pytest

import sqlengine
from tools.concurrency import ROOT, TOTAL, run_processes, run_threads, setup


def test_threads_of_one_process(tmp_path):
    st = run_threads(str(tmp_path / "t.db"), writers=2, readers=2, seconds=1.5,
                     engines=("sqlengine",))
    assert st["errors"] == []
    assert st["commits"] > 0 and st["reads"] > 0
    assert all(" 0 ops" not in w for w in st["by_worker"]), st["by_worker"]


def test_sqlite3_and_sqlengine_processes_share_a_file(tmp_path):
    st = run_processes(str(tmp_path / "p.db"), writers=2, readers=2, seconds=2.0,
                       engines=("sqlengine", "sqlite3"))
    assert st["errors"] == []
    assert st["commits"] > 0 and st["reads"] > 0
    # every worker got through (two waiting writers no longer deadlock until a timeout)
    assert all(" 0 ops" not in w for w in st["by_worker"]), st["by_worker"]


class Holder:
    """Another process (fcntl locks of one process never conflict with each other, so a lock
    holder in this process would prove nothing) that runs ``before``, says ready, and runs
    ``after`` when told."""

    def __init__(self, engine, path, before, after):
        code = textwrap.dedent(f"""
            import sys
            import {engine} as m
            con = m.connect({path!r}, isolation_level=None)
            for s in {before!r}:
                r = con.execute(s).fetchall()
            print("ready", flush=True)
            sys.stdin.readline()
            for s in {after!r}:
                con.execute(s)
            con.close()
            print("done", flush=True)
        """)
        env = dict(os.environ, PYTHONPATH=ROOT)
        self.p = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=env)
        assert self.p.stdout.readline().strip() == "ready", self.p.stderr.read()

    def finish(self):
        self.p.stdin.write("go\n")
        self.p.stdin.flush()
        assert self.p.stdout.readline().strip() == "done", self.p.stderr.read()
        self.p.wait()


@pytest.mark.parametrize("holder", ["sqlite3", "sqlengine"])
def test_writer_gets_database_is_locked(tmp_path, holder):
    path = str(tmp_path / "l.db")
    setup(path)
    h = Holder(holder, path, ["begin immediate", "update acct set bal = bal - 5 where id = 1"],
               ["rollback"])
    b = sqlengine.connect(path, isolation_level=None, timeout=0.2)
    try:
        with pytest.raises(sqlengine.OperationalError, match="^database is locked$"):
            b.execute("update acct set bal = bal + 5 where id = 2")
        # a reader still sees the last committed state, not the half-done transfer
        assert b.execute("select sum(bal) from acct").fetchone()[0] == TOTAL
        h.finish()
        b.execute("update acct set bal = bal + 0 where id = 2")      # free again
    finally:
        b.close()


@pytest.mark.parametrize("holder", ["sqlite3", "sqlengine"])
def test_reader_blocks_commit_until_timeout(tmp_path, holder):
    """A read transaction holds SHARED: a writer's commit needs EXCLUSIVE and gives up with
    'database is locked' after its timeout, leaving the file unchanged."""
    path = str(tmp_path / "r.db")
    setup(path)
    h = Holder(holder, path, ["begin", "select count(*) from acct"], ["commit"])
    w = sqlengine.connect(path, isolation_level=None, timeout=0.2)
    try:
        w.execute("begin immediate")
        w.execute("update acct set bal = bal - 7 where id = 3")
        w.execute("update acct set bal = bal + 7 where id = 4")
        with pytest.raises(sqlengine.OperationalError, match="^database is locked$"):
            w.execute("commit")
        h.finish()
        w.execute("commit")                       # the lock is free now: it goes through
    finally:
        w.close()
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert con.execute("select bal from acct where id in (3, 4) order by id").fetchall() == \
        [(993,), (1007,)]
    con.close()
