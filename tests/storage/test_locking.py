"""SQLite's lock protocol: connections of one process exclude each other through the shared
per-inode lock table, and a sqlengine process and a sqlite3 process exclude each other through
fcntl locks on the same bytes."""

import os
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from sqlengine import errors
from sqlengine.storage import Btree, encode_record

from storage_helpers import add_schema_row, read_table


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "l.db")
    con = sqlite3.connect(path)
    con.execute("create table t(a integer primary key, b)")
    con.execute("insert into t values(1, 'one')")
    con.commit()
    con.close()
    return path


def _open(path, timeout=0.05):
    bt = Btree.open(path)
    bt.busy_timeout = timeout
    return bt


def test_two_writers_in_one_process(db):
    a, b = _open(db), _open(db)
    a.begin(True)
    with pytest.raises(errors.OperationalError, match="database is locked") as ei:
        b.begin(True)
    assert ei.value.sqlite_errorcode == errors.SQLITE_BUSY
    b.begin(False)                       # readers are still welcome
    assert read_table(b, 2) == {1: (None, "one")}
    c = a.cursor(2, True)
    c.insert(2, encode_record((None, "two")))
    with pytest.raises(errors.OperationalError, match="database is locked"):
        a.commit()                       # b's SHARED lock blocks EXCLUSIVE
    b.commit()
    a.commit()                           # the retry succeeds
    b.begin(False)
    assert read_table(b, 2) == {1: (None, "one"), 2: (None, "two")}
    b.commit()
    b.begin(True)
    b.commit()
    a.close()
    b.close()


def test_reader_sees_commit_of_other_connection(db):
    a, b = _open(db), _open(db)
    b.begin(False)
    assert len(read_table(b, 2)) == 1
    b.commit()
    a.begin(True)
    a.cursor(2, True).insert(5, encode_record((None, "five")))
    a.commit()
    b.begin(False)
    assert 5 in read_table(b, 2)
    b.commit()


def _child(path, body, timeout=0):
    code = textwrap.dedent(f"""
        import sqlite3, sys
        con = sqlite3.connect({path!r}, isolation_level=None, timeout={timeout})
        """) + textwrap.dedent(body) + textwrap.dedent("""
        print("ready", flush=True)
        sys.stdin.readline()
        con.execute("commit")
        print("done", flush=True)
        """)
    p = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready", p.stderr.read()
    return p


def _finish(p):
    p.stdin.write("go\n")
    p.stdin.flush()
    out = p.stdout.readline().strip()
    p.wait(timeout=60)
    return out


def test_sqlite3_writer_blocks_us(db):
    p = _child(db, 'con.execute("begin immediate")\ncon.execute("insert into t values(9, \'x\')")\n')
    try:
        bt = _open(db)
        with pytest.raises(errors.OperationalError, match="database is locked"):
            bt.begin(True)
        bt.begin(False)
        assert read_table(bt, 2) == {1: (None, "one")}
        bt.commit()
    finally:
        assert _finish(p) == "done"
    bt.begin(True)
    assert 9 in read_table(bt, 2)
    bt.commit()
    bt.close()


def test_sqlite3_reader_blocks_our_commit(db):
    p = _child(db, 'con.execute("begin")\ncon.execute("select * from t").fetchall()\n')
    bt = _open(db)
    try:
        bt.begin(True)
        bt.cursor(2, True).insert(3, encode_record((None, "three")))
        with pytest.raises(errors.OperationalError, match="database is locked"):
            bt.commit()
    finally:
        assert _finish(p) == "done"
    bt.commit()
    bt.close()
    con = sqlite3.connect(db)
    assert con.execute("select b from t where a = 3").fetchone() == ("three",)
    con.close()


def test_we_block_sqlite3_writer(db):
    bt = _open(db)
    bt.begin(True)
    con = None
    code = textwrap.dedent(f"""
        import sqlite3
        con = sqlite3.connect({db!r}, isolation_level=None, timeout=0)
        try:
            con.execute("begin immediate")
            print("got")
        except sqlite3.OperationalError as e:
            print(e)
        print(con.execute("select count(*) from t").fetchone()[0])
        """)
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=60)
    assert r.stdout.split("\n")[:2] == ["database is locked", "1"], r.stderr
    bt.rollback()
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=60)
    assert r.stdout.split("\n")[0] == "got"
    bt.close()
    del con


def test_new_file_in_two_connections(tmp_path):
    path = str(tmp_path / "n.db")
    a, b = _open(path), _open(path)
    a.begin(True)
    t = a.create_table(True)
    add_schema_row(a, 1, "table", "t", "t", t, "CREATE TABLE t(x)")
    a.commit()
    b.begin(False)
    assert read_table(b, 1)[1][1] == "t"
    b.commit()


def test_fresh_writer_waits_for_the_lock(db):
    """A writer that held no read transaction retries until the holder lets go."""
    import threading
    a, b = _open(db), _open(db, timeout=30)
    a.begin(True)
    t = threading.Timer(0.2, a.rollback)
    t.start()
    b.begin(True)            # succeeds once a rolls back
    t.join()
    assert b.in_trans == 2
    b.rollback()
    a.close()
    b.close()


def test_reader_upgrading_gets_busy(db):
    a, b = _open(db, timeout=30), _open(db)
    b.begin(True)
    a.begin(False)
    with pytest.raises(errors.OperationalError, match="database is locked"):
        a.begin(True)        # no wait: SQLite's rule against reader/reader deadlock
    assert a.in_trans == 1   # the read transaction is still open
    a.commit()
    b.rollback()


def _watch_reserved_refusals(bt):
    """An Event set once ``bt`` has been refused RESERVED (it is then waiting)."""
    import threading

    from sqlengine.vfs import RESERVED
    refused = threading.Event()
    f = bt.pager.file
    lock = f.lock

    def watched(level):
        ok = lock(level)
        if level == RESERVED and not ok:
            refused.set()
        return ok
    f.lock = watched
    return refused


def test_waiting_writer_lets_the_holder_commit(db):
    """A fresh writer waiting for RESERVED drops SHARED between tries (SQLite's
    btreeBeginTrans), so the writer it waits for can take EXCLUSIVE and commit, instead of
    both waiting out their busy timeouts."""
    import threading
    a, b = _open(db, timeout=2), _open(db, timeout=30)
    a.begin(True)
    a.cursor(2, True).insert(2, encode_record((None, "two")))
    refused = _watch_reserved_refusals(b)
    got = []
    t = threading.Thread(target=lambda: (b.begin(True), got.append(read_table(b, 2))))
    t.start()
    try:
        refused.wait()
        a.commit()                   # needs EXCLUSIVE while b waits
    finally:
        if a.in_trans:
            a.rollback()
        t.join()
    assert got == [{1: (None, "one"), 2: (None, "two")}]
    b.rollback()
    a.close()
    b.close()


def test_waiting_writer_lets_sqlite3_commit(db):
    """The same against a sqlite3 process holding RESERVED: its COMMIT goes through."""
    import threading
    p = _child(db, 'con.execute("begin immediate")\ncon.execute("insert into t values(9, \'x\')")\n',
               timeout=2)
    bt = _open(db, timeout=30)
    refused = _watch_reserved_refusals(bt)
    t = threading.Thread(target=bt.begin, args=(True,))
    t.start()
    try:
        refused.wait()
    finally:
        out = _finish(p)
        t.join()
    assert out == "done"
    assert 9 in read_table(bt, 2)
    bt.rollback()
    bt.close()
