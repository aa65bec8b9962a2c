"""PRAGMA locking_mode = EXCLUSIVE: the pager keeps the locks its transactions took
(SHARED after a read: others may read but not write; EXCLUSIVE after a write: others may
not even read, 'database is locked'), keeps a DELETE journal as a PERSIST one (its header
zeroed) while in that mode, and lets everything go at the end of the first transaction
after locking_mode = NORMAL (the kept journal deleted). Compared with sqlite3: two
connections of one library in one process (each library keeps its own lock table), and
another process running the stdlib sqlite3 against the engine's locks and the reverse."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest

import sqlengine

SCRIPT = [
    ("a", "create table t(x)"), ("a", "insert into t values(1)"),
    ("a", "pragma locking_mode=exclusive"), ("b", "select * from t"),
    ("a", "select * from t"), ("b", "select * from t"), ("b", "insert into t values(2)"),
    ("a", "insert into t values(3)"), ("b", "select * from t"), ("a", "pragma locking_mode"),
    ("a", "pragma locking_mode=normal"), ("b", "select * from t"),
    ("a", "select count(*) from t"), ("b", "select * from t"),
    ("b", "insert into t values(4)"), ("a", "pragma main.locking_mode=exclusive"),
    ("a", "begin"), ("a", "select * from t"), ("b", "select * from t"), ("a", "commit"),
    ("b", "select * from t"), ("b", "insert into t values(5)"),
    ("a", "pragma journal_mode=truncate"), ("a", "insert into t values(6)"),
    ("b", "select * from t"), ("a", "pragma locking_mode=normal"), ("a", "select max(x) from t"),
    ("b", "select * from t"), ("a", "pragma locking_mode=exclusive"),
    ("a", "begin immediate"), ("a", "commit"), ("b", "select * from t"),
    ("b", "insert into t values(7)"), ("close", "a"), ("b", "insert into t values(8)"),
    ("b", "select * from t"), ("b", "pragma integrity_check"),
]


def _run(module, path):
    journal = str(path) + "-journal"
    cons = {"a": module.connect(str(path), isolation_level=None, timeout=0.05),
            "b": module.connect(str(path), isolation_level=None, timeout=0.05)}
    out = []
    for who, sql in SCRIPT:
        if who == "close":
            cons.pop(sql).close()
            continue
        try:
            res = cons[who].execute(sql).fetchall()
        except (sqlite3.Error, sqlengine.Error) as e:
            res = (type(e).__name__, str(e))
        size = os.path.getsize(journal) if os.path.exists(journal) else None
        out.append((who, sql, res, size is not None and size > 0))
    for con in cons.values():
        con.close()
    return out


def test_two_connections_as_sqlite(tmp_path):
    assert _run(sqlengine, tmp_path / "e.db") == _run(sqlite3, tmp_path / "s.db")


_OTHER = """
import sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0.05)
for sql in sys.argv[2:]:
    try:
        print(con.execute(sql).fetchall())
    except sqlite3.Error as e:
        print(e)
"""


def _other(path, *sql):
    """The answers of another process running the stdlib sqlite3."""
    run = subprocess.run([sys.executable, "-c", _OTHER, str(path), *sql],
                         capture_output=True, text=True, timeout=60, check=True)
    return run.stdout.splitlines()


@pytest.mark.parametrize("module", [sqlengine, sqlite3], ids=["sqlengine", "sqlite3"])
def test_other_process(tmp_path, module):
    """The same answers in another process whichever library holds the locks."""
    path = tmp_path / "x.db"
    con = module.connect(str(path), isolation_level=None)
    con.execute("create table t(x)")
    con.execute("pragma locking_mode=exclusive").fetchall()
    answers = [_other(path, "select count(*) from t")]
    con.execute("select * from t").fetchall()  # (SHARED kept: others read, cannot write)
    answers.append(_other(path, "select count(*) from t", "insert into t values(1)"))
    con.execute("insert into t values(2)")  # (EXCLUSIVE kept: others cannot read)
    answers.append(_other(path, "select count(*) from t"))
    con.execute("pragma locking_mode=normal").fetchall()
    answers.append(_other(path, "select count(*) from t"))
    con.execute("select 1 from t").fetchall()  # (the end of this read lets them go)
    answers.append(_other(path, "select count(*) from t", "insert into t values(3)"))
    con.close()
    assert answers == [["[(0,)]"], ["[(0,)]", "database is locked"],
                       ["database is locked"], ["database is locked"],
                       ["[(1,)]", "[]"]]
