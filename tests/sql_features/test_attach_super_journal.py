"""A transaction over several attached database files commits atomically through a
super-journal (SQLite's "atomic commit" with multiple database files): a power cut at any
operation of the commit leaves every file before the transaction or every file after it,
whether sqlengine or the stdlib sqlite3 reopens the files (sqlite3 reads the super-journal
name our journals record, and plays them back only while the super-journal exists)."""

import os
import random
import sqlite3

import pytest

from sqlengine.database import Database
from sqlengine.storage import pager as P
from sqlengine.vfs import FaultVfs, MemoryVfs

ROWS = 60        # enough for several pages in each file


def _setup(vfs, main, aux):
    db = Database(main, vfs=vfs)
    db.execute(f"ATTACH '{aux}' AS aux")
    db.execute("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)")
    db.execute("CREATE TABLE aux.u(a INTEGER PRIMARY KEY, b TEXT)")
    db.execute("CREATE INDEX aux.ub ON u(b)")
    db.execute("INSERT INTO t VALUES(1, 'old')")
    db.execute("INSERT INTO aux.u VALUES(1, 'old')")
    return db


def _transaction(db):
    db.execute("BEGIN")
    for i in range(2, ROWS):
        db.execute("INSERT INTO t VALUES(?, ?)", (i, "new" * 40))
        db.execute("INSERT INTO aux.u VALUES(?, ?)", (i, "new" * 40))
    db.execute("UPDATE t SET b = 'new' WHERE a = 1")
    db.execute("UPDATE aux.u SET b = 'new' WHERE a = 1")
    db.execute("COMMIT")


def _state(db):
    t = db.execute("SELECT count(*), max(b) FROM t")[0]
    u = db.execute("SELECT count(*), max(b) FROM aux.u")[0]
    return t, u


OLD = ((1, "old"), (1, "old"))
NEW = ((ROWS - 1, "new" * 40), (ROWS - 1, "new" * 40))


def _crash_images(main, aux, seed):
    """(crash point, image) for every operation of the commit, with the unsynced writes
    dropped, all kept, or a random half kept."""
    n = 1
    rng = random.Random(seed)
    while True:
        fv = FaultVfs(record=True)
        db = _setup(fv, main, aux)
        fv.crash_at(n)
        try:
            _transaction(db)
        except Exception:       # noqa: BLE001 - the simulated power cut
            pass
        if not fv.crashed:
            return
        for keep in (None, lambda p, i, op: True, lambda p, i, op: rng.random() < 0.5):
            yield n, fv.crash_image(keep)
        n += 1


def _reopen(vfs, main, aux):
    db = Database(main, vfs=vfs)
    db.execute(f"ATTACH '{aux}' AS aux")
    try:
        state = _state(db)
        checks = [db.execute("PRAGMA integrity_check")[0][0],
                  db.execute("PRAGMA aux.integrity_check")[0][0]]
    finally:
        db.close()
    return state, checks


def test_commit_over_two_files_is_atomic_at_every_crash_point():
    seen = set()
    points = 0
    for n, image in _crash_images("m.db", "a.db", 1):
        state, checks = _reopen(image, "m.db", "a.db")
        assert checks == ["ok", "ok"], (n, checks)
        assert state in (OLD, NEW), (n, state)
        seen.add(state)
        points += 1
        # once the super-journal is gone the transaction is committed for good, and a reader
        # removes every journal left behind
        assert not any("-mj" in f for f in image.files) or state == OLD or \
            not any(f.endswith("-journal") for f in image.files)
    assert points > 20 and seen == {OLD, NEW}


def test_without_the_super_journal_a_crash_can_split_the_transaction(monkeypatch):
    """The test above can fail: committing the files one after the other (no super-journal)
    leaves main committed and aux not at some crash point."""
    monkeypatch.setattr(P.Pager, "needs_super_journal", lambda self: False)
    states = {_reopen(image, "m.db", "a.db")[0] for _, image in _crash_images("m.db", "a.db", 2)}
    assert states - {OLD, NEW}


def test_sqlite3_rolls_back_our_journals_through_the_super_journal(tmp_path):
    main, aux = str(tmp_path / "m.db"), str(tmp_path / "a.db")
    seen = set()
    images = list(_crash_images(main, aux, 3))
    last = images[-1][0]
    for n, image in images:
        if n % 3 and n < last - 4:
            continue          # a sample (and the last points, past the commit point)
        for f in os.listdir(tmp_path):
            os.remove(tmp_path / f)
        for path, data in image.files.items():
            with open(path, "wb") as f:
                f.write(data)
        con = sqlite3.connect(main)
        try:
            con.execute(f"ATTACH '{aux}' AS aux")
            state = (con.execute("SELECT count(*), max(b) FROM t").fetchone(),
                     con.execute("SELECT count(*), max(b) FROM aux.u").fetchone())
            assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert con.execute("PRAGMA aux.integrity_check").fetchall() == [("ok",)]
        finally:
            con.close()
        assert state in (OLD, NEW), (n, state)
        seen.add(state)
    assert seen == {OLD, NEW}


def test_super_journal_protocol_on_disk(tmp_path, monkeypatch):
    """The super-journal lists both journals and each journal names it while the commit is
    in progress; nothing is left behind afterwards."""
    main, aux = str(tmp_path / "m.db"), str(tmp_path / "a.db")
    db = _setup(None, main, aux)
    seen = {}
    calls = []
    real_one = P.Pager.commit_phase_one

    def spy(self, super_name=None):
        real_one(self, super_name)
        calls.append(super_name)
        if len(calls) == 2:         # both files written and synced: the commit point is next
            names = [f for f in os.listdir(tmp_path) if "-mj" in f]
            assert len(names) == 1
            sup = str(tmp_path / names[0])
            with open(sup, "rb") as f:
                seen["children"] = sorted(f.read().split(b"\0")[:-1])
            vfs = MemoryVfs()
            for j in (main + "-journal", aux + "-journal"):
                with open(j, "rb") as f:
                    vfs.files[j] = bytearray(f.read())
                seen[j] = P.read_super_name(vfs.open(j))
            seen["super"] = sup

    monkeypatch.setattr(P.Pager, "commit_phase_one", spy)
    _transaction(db)
    db.close()
    sup = seen["super"]
    assert os.path.basename(sup).startswith("m.db-mj") and sup[-3] == "9"
    assert seen["children"] == sorted([(main + "-journal").encode(), (aux + "-journal").encode()])
    assert seen[main + "-journal"] == sup and seen[aux + "-journal"] == sup
    assert sorted(os.listdir(tmp_path)) == ["a.db", "m.db"]


def test_one_file_written_commits_without_super_journal(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(P, "super_journal_commit", lambda *a: calls.append(a))
    main, aux = str(tmp_path / "m.db"), str(tmp_path / "a.db")
    db = _setup(None, main, aux)
    db.execute("BEGIN")
    db.execute("INSERT INTO aux.u VALUES(5, 'x')")
    db.execute("SELECT * FROM t")
    db.execute("COMMIT")
    db.close()
    assert calls == []


@pytest.mark.parametrize("mode", ["persist", "truncate"])
def test_journal_modes_keep_the_super_journal_record_at_the_end(tmp_path, mode):
    main, aux = str(tmp_path / "m.db"), str(tmp_path / "a.db")
    db = _setup(None, main, aux)
    db.execute(f"PRAGMA journal_mode={mode}")
    db.execute(f"PRAGMA aux.journal_mode={mode}")
    _transaction(db)
    db.execute("BEGIN")
    db.execute("DELETE FROM t WHERE a > 5")
    db.execute("DELETE FROM aux.u WHERE a > 5")
    db.execute("COMMIT")
    assert _state(db) == ((5, "new" * 40), (5, "new" * 40))
    db.close()
    assert not [f for f in os.listdir(tmp_path) if "-mj" in f]
    con = sqlite3.connect(main)
    con.execute(f"ATTACH '{aux}' AS aux")
    assert con.execute("SELECT count(*) FROM t").fetchone() == (5,)
    assert con.execute("SELECT count(*) FROM aux.u").fetchone() == (5,)
    con.close()


def test_an_io_error_at_any_operation_of_a_two_file_commit_leaves_both_files_valid():
    """An I/O error at each operation of the transaction and its commit: the statement fails
    (or the commit went through), the connection stays usable, both files pass
    integrity_check and hold the old or the new state together."""
    import sqlengine

    points = 0
    seen = set()
    n = 1
    while True:
        fv = FaultVfs()
        db = _setup(fv, "m.db", "a.db")
        fv.fail_at(n)
        try:
            _transaction(db)
        except sqlengine.Error as e:
            assert "disk I/O error" in str(e)
            try:
                db.execute("ROLLBACK")
            except sqlengine.Error:
                pass
        fv.clear()
        if fv.failures == 0:
            break
        state = _state(db)
        assert state in (OLD, NEW), (n, state)
        assert db.execute("PRAGMA integrity_check") == [("ok",)]
        assert db.execute("PRAGMA aux.integrity_check") == [("ok",)]
        db.execute("INSERT INTO aux.u VALUES(1000, 'usable')")
        db.close()
        again = Database("m.db", vfs=fv)
        again.execute("ATTACH 'a.db' AS aux")
        assert _state(again)[0] == state[0]
        again.close()
        seen.add(state)
        points += 1
        n += 1
    assert points > 20 and seen == {OLD, NEW}
