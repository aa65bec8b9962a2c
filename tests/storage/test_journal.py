"""Atomic commit: the rollback journal in SQLite's format (hot journals rolled back across
engines, both ways), crash images at every operation of a commit, journal modes, spilling a
big transaction and rolling it back."""

import os
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from sqlengine import errors
from sqlengine.storage import Btree, KeyInfo, encode_record
from sqlengine.vfs import FaultVfs, MemoryVfs

from storage_helpers import add_schema_row, read_table, schema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _make_sqlite_db(path, n=2000):
    con = sqlite3.connect(path)
    con.execute("create table t(a integer primary key, b)")
    con.execute("create index tb on t(b)")
    con.executemany("insert into t values(?, ?)", [(i, "v%05d" % i * 3) for i in range(n)])
    con.commit()
    rows = con.execute("select a, b from t order by a").fetchall()
    con.close()
    return rows


def _run(code):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=120)


def test_sqlite_reads_our_hot_journal(tmp_path):
    """We die half way through writing a commit; sqlite3 rolls our journal back."""
    path = str(tmp_path / "h.db")
    rows = _make_sqlite_db(path)
    r = _run(f"""
        import os
        from sqlengine.storage import Btree, KeyInfo, encode_record
        from sqlengine.vfs import EXCLUSIVE
        bt = Btree.open({path!r})
        bt.begin(True)
        c = bt.cursor(2, True)
        ok = c.first()
        while ok:
            c.delete()
            ok = c.next()
        for i in range(5000, 9000):
            c.insert(i, encode_record((i, "new" * 50)))
        p = bt.pager
        p._sync_journal()
        p._lock(EXCLUSIVE)
        p._update_header()
        ps = p.page_size
        for k, pgno in enumerate(sorted(p.dirty)):
            if k % 2 == 0 and pgno <= p.db_size:
                p.file.write((pgno - 1) * ps, p.dirty[pgno].data)
        os._exit(0)
    """)
    assert r.returncode == 0, r.stderr
    assert os.path.exists(path + "-journal")
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert con.execute("select a, b from t order by a").fetchall() == rows
    con.close()
    assert not os.path.exists(path + "-journal")


def test_we_roll_back_sqlite_hot_journal(tmp_path):
    """sqlite3 dies after spilling part of a transaction into the file; we roll it back."""
    path = str(tmp_path / "g.db")
    rows = _make_sqlite_db(path)
    r = _run(f"""
        import os, sqlite3
        con = sqlite3.connect({path!r}, isolation_level=None)
        con.execute("pragma cache_size=10")
        con.execute("begin")
        con.execute("update t set b = 'changed' || b")
        con.execute("insert into t select a + 100000, b from t")
        os._exit(0)
    """)
    assert r.returncode == 0, r.stderr
    assert os.path.exists(path + "-journal")
    bt = Btree.open(path)
    bt.begin(False)
    got = read_table(bt, 2)
    assert [(k, v[1]) for k, v in sorted(got.items())] == rows
    assert bt.integrity_check() == ["ok"]
    bt.commit()
    bt.close()
    assert not os.path.exists(path + "-journal")
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    con.close()


def _populate(bt, n, tag):
    c = bt.cursor(2, True)
    for i in range(n):
        c.insert(i, encode_record((tag, "x" * (i % 300))))
    c.close()


def _state(vfs, path="db"):
    bt = Btree.open(path, vfs)
    bt.begin(False)
    try:
        assert bt.integrity_check() == ["ok"]
        rows = read_table(bt, 2)
    finally:
        bt.close()
    return {v[0] for v in rows.values()}, len(rows)


@pytest.mark.parametrize("keep", ["none", "all", "even"])
def test_crash_at_every_operation(keep):
    """For each operation of a commit, a power cut there leaves either the old or the new
    database, never a mix, whichever unsynced writes survive."""
    base = FaultVfs(record=True)
    bt = Btree.open("db", base)
    bt.set_page_size(1024)
    bt.begin(True)
    t = bt.create_table(True)
    add_schema_row(bt, 1, "table", "t", "t", t, "CREATE TABLE t(a, b)")
    _populate(bt, 300, "old")
    bt.commit()
    bt.close()
    snapshot = {p: bytes(d) for p, d in base.base.files.items()}
    durable = dict(base.durable)

    n = 1
    outcomes = set()
    while True:
        vfs = FaultVfs(record=True)
        vfs.base.files = {p: bytearray(d) for p, d in snapshot.items()}
        vfs.durable = dict(durable)
        bt = Btree.open("db", vfs)
        bt.begin(True)
        c = bt.cursor(2, True)
        for i in range(0, 300, 2):
            assert c.seek(i) == 0
            c.delete()
        for i in range(300, 700):
            c.insert(i, encode_record(("new", "y" * (i % 500))))
        c.close()
        vfs.crash_at(n)
        try:
            bt.commit()
            finished = True
        except errors.OperationalError as e:
            assert "disk I/O error" in str(e)
            finished = False
        chooser = {"none": None, "all": lambda p, i, op: True,
                   "even": lambda p, i, op: i % 2 == 0}[keep]
        image = vfs.crash_image(chooser)
        tags, count = _state(image)
        if tags == {"old"}:
            assert count == 300
            outcomes.add("old")
        else:
            assert tags == {"new", "old"} and count == 150 + 400, (n, tags, count)
            outcomes.add("new")
        if finished:
            break
        n += 1
        assert n < 500
    assert "new" in outcomes and (n > 1)


@pytest.mark.parametrize("mode", ["delete", "truncate", "persist", "memory", "off"])
def test_journal_modes(tmp_path, mode):
    path = str(tmp_path / "m.db")
    bt = Btree.open(path)
    assert bt.set_journal_mode(mode) == mode
    bt.begin(True)
    t = bt.create_table(True)
    add_schema_row(bt, 1, "table", "t", "t", t, "CREATE TABLE t(a)")
    bt.commit()
    bt.begin(True)
    _populate(bt, 200, "one")
    bt.commit()
    j = path + "-journal"
    if mode == "delete" or mode in ("memory", "off"):
        assert not os.path.exists(j)
    elif mode == "truncate":
        assert os.path.getsize(j) == 0
    else:
        with open(j, "rb") as f:
            assert f.read(28) == bytes(28)
    bt.begin(True)
    _populate(bt, 400, "two")
    bt.rollback()
    bt.begin(False)
    rows = read_table(bt, 2)
    bt.commit()
    assert len(rows) == 200 and {v[0] for v in rows.values()} == {"one"}
    bt.close()
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert con.execute("select count(*) from t").fetchone()[0] == 200
    con.close()


def test_spill_then_rollback(tmp_path):
    """A transaction bigger than the cache writes to the file early; rollback undoes it."""
    path = str(tmp_path / "s.db")
    rows = _make_sqlite_db(path, 3000)
    bt = Btree.open(path)
    bt.cache_size = 20
    bt.begin(True)
    c = bt.cursor(2, True)
    for i in range(3000, 20000):
        c.insert(i, encode_record((None, "spill" * 20)))
    c.close()
    assert bt.pager.spilled
    bt.rollback()
    bt.begin(False)
    got = read_table(bt, 2)
    assert [(k, v[1]) for k, v in sorted(got.items())] == rows
    assert bt.integrity_check() == ["ok"]
    bt.commit()
    bt.close()
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    con.close()


def test_spill_then_commit(tmp_path):
    path = str(tmp_path / "s2.db")
    _make_sqlite_db(path, 10)
    bt = Btree.open(path)
    bt.cache_size = 20
    bt.begin(True)
    c = bt.cursor(2, True)
    ci = bt.cursor(schema(bt)["tb"][2], True, KeyInfo(2))
    for i in range(100, 20000):
        c.insert(i, encode_record((None, "spill" * 20)))
        ci.insert(encode_record(("spill" * 20, i)))
    c.close()
    bt.commit()
    bt.close()
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert con.execute("select count(*) from t").fetchone()[0] == 10 + 19900
    con.close()


def test_memory_database_is_private_and_transactional():
    a = Btree.open(":memory:")
    b = Btree.open("")
    a.begin(True)
    t = a.create_table(True)
    c = a.cursor(t, True)
    c.insert(1, encode_record(("a",)))
    a.commit()
    a.begin(True)
    c = a.cursor(t, True)
    c.insert(2, encode_record(("b",)))
    a.rollback()
    assert read_table(a, t) == {1: ("a",)}
    b.begin(False)
    assert b.page_count() == 0
    b.commit()


def test_io_error_surfaces_as_operational_error():
    vfs = FaultVfs(MemoryVfs())
    bt = Btree.open("db", vfs)
    bt.begin(True)
    t = bt.create_table(True)
    c = bt.cursor(t, True)
    c.insert(1, encode_record(("a",)))
    vfs.fail_at(1, persistent=True, ops={"write"})
    with pytest.raises(errors.OperationalError, match="disk I/O error"):
        bt.commit()
    vfs.clear()
    bt.rollback()
    bt.begin(True)
    t2 = bt.create_table(True)
    bt.commit()
    assert t2 == t
    assert bt.integrity_check([1, t2]) == ["ok"]


@pytest.mark.parametrize("nth", [2, 3, 5])
def test_io_error_while_writing_the_file_rolls_back(tmp_path, nth):
    """A write error after some pages reached the database file: rollback plays the journal
    back, so the file is the old database again."""
    from sqlengine.vfs import OsVfs
    vfs = FaultVfs(OsVfs())
    path = str(tmp_path / "f.db")
    rows = _make_sqlite_db(path, 3000)
    bt = Btree.open(path, vfs)
    bt.begin(True)
    c = bt.cursor(2, True)
    ok = c.first()
    while ok:
        c.delete()
        ok = c.next()
    c.close()
    vfs.fail_at(nth, persistent=True, ops={"write"})
    with pytest.raises(errors.OperationalError, match="disk I/O error"):
        bt.commit()
    vfs.clear()
    bt.rollback()
    bt.begin(False)
    got = read_table(bt, 2)
    assert [(k, v[1]) for k, v in sorted(got.items())] == rows
    assert bt.integrity_check() == ["ok"]
    bt.commit()
    bt.close()
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    con.close()


def test_crash_during_vacuum_with_new_page_size():
    """VACUUM to another page size, cut at every operation: the image is the old or the new
    database, with the same rows either way."""
    base = FaultVfs(record=True)
    bt = Btree.open("db", base)
    bt.set_page_size(1024)
    bt.begin(True)
    t = bt.create_table(True)
    add_schema_row(bt, 1, "table", "t", "t", t, "CREATE TABLE t(a, b)")
    _populate(bt, 120, "old")
    c = bt.cursor(t, True)
    for i in range(0, 120, 3):
        assert c.seek(i) == 0
        c.delete()
    bt.commit()
    bt.close()
    snapshot = {p: bytes(d) for p, d in base.base.files.items()}
    durable = dict(base.durable)
    sizes = set()
    n = 1
    while True:
        vfs = FaultVfs(record=True)
        vfs.base.files = {p: bytearray(d) for p, d in snapshot.items()}
        vfs.durable = dict(durable)
        bt = Btree.open("db", vfs)
        vfs.crash_at(n)
        try:
            bt.vacuum(4096)
            finished = True
        except errors.OperationalError:
            finished = False
        image = vfs.crash_image(lambda p, i, op: i % 3 == 0)
        b2 = Btree.open("db", image)
        b2.begin(False)
        assert b2.integrity_check() == ["ok"]
        assert len(read_table(b2, schema(b2)["t"][2])) == 80
        sizes.add(b2.page_size)
        b2.close()
        if finished:
            break
        n += 1
        assert n < 2000
    assert sizes == {1024, 4096}
