"""Crash regressions found by the reliability work (issue 11): a power cut at every operation
of a commit, with the unsynced writes the disk may or may not have kept, must leave the old or
the new database, never a mix and never an unreadable file."""

import pytest

from sqlengine import errors
from sqlengine.storage import Btree, encode_record
from sqlengine.vfs import FaultVfs

from storage_helpers import add_schema_row, read_table


def _rows_after_crash(image):
    """integrity_check and the rows of table 2 (None when the database is empty)."""
    bt = Btree.open("db", image)
    try:
        bt.begin(False)
        if bt.pager.db_size == 0:
            return None
        assert bt.integrity_check() == ["ok"]
        return {k: v[0] for k, v in read_table(bt, 2).items()}
    finally:
        bt.close()


def _crash_everywhere(prepare, work, chooser, ops):
    """For n = 1, 2, ...: prepare a database, run ``work`` and commit with a power cut at the
    nth operation (of the kinds in ``ops``); yield the image the disk could hold."""
    n = 1
    while True:
        vfs = FaultVfs(record=True)
        bt = Btree.open("db", vfs)
        bt.set_page_size(1024)
        prepare(bt)
        vfs.crash_at(n, ops=ops)
        try:
            bt.begin(True)
            work(bt)
            bt.commit()
            finished = True
        except errors.OperationalError as e:
            assert "disk I/O error" in str(e)
            finished = False
        yield n, vfs.crash_image(chooser)
        if finished:
            return
        n += 1
        assert n < 200


def _one_table(bt):
    bt.begin(True)
    t = bt.create_table(True)
    add_schema_row(bt, 1, "table", "t", "t", t, "CREATE TABLE t(a, b)")
    c = bt.cursor(t, True)
    c.insert(1, encode_record(("x",)))
    c.close()
    bt.commit()


def _append_big_row(bt):
    # only new pages and the table's root change: page 1 changes for the header alone
    c = bt.cursor(2, True)
    c.insert(2, encode_record((b"\0" * 5000,)))
    c.close()


@pytest.mark.parametrize("keep", ["all", "none", "first_lost"])
def test_page1_is_journaled_before_the_journal_sync(keep):
    chooser = {"all": lambda p, i, op: True, "none": None,
               "first_lost": lambda p, i, op: i != 0}[keep]
    seen = set()
    for n, image in _crash_everywhere(_one_table, _append_big_row, chooser,
                                      ["write", "sync", "truncate", "delete"]):
        rows = _rows_after_crash(image)
        assert rows in ({1: "x"}, {1: "x", 2: b"\0" * 5000}), (n, rows)
        seen.add(len(rows))
    assert seen == {1, 2}


def _nothing(bt):
    pass


def _first_commit(bt):
    t = bt.create_table(True)
    add_schema_row(bt, 1, "table", "t", "t", t, "CREATE TABLE t(a, b)")
    c = bt.cursor(t, True)
    for i in range(20):
        c.insert(i, encode_record(("v" * 200,)))
    c.close()


@pytest.mark.parametrize("keep", ["all", "none", "first_lost"])
def test_first_commit_of_a_new_file_is_journaled(keep):
    """A torn first commit rolls back to the empty database (the hot journal is played back
    before page 1 is parsed)."""
    chooser = {"all": lambda p, i, op: True, "none": None,
               "first_lost": lambda p, i, op: i != 0}[keep]
    seen = set()
    for n, image in _crash_everywhere(_nothing, _first_commit, chooser, ["write", "sync"]):
        rows = _rows_after_crash(image)
        assert rows is None or rows == {i: "v" * 200 for i in range(20)}, (n, rows)
        seen.add(rows is None)
    assert seen == {True, False}
