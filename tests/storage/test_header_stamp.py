"""The page-1 header fields every commit writes (``_pageread.stamp_header``, used by a file
pager's ``_update_header`` and by ``commit_memory``): change counter, database size,
version-valid-for and version number, as sqlite3 writes them."""

import sqlite3

import pytest

import sqlengine
from sqlengine.storage._pageread import stamp_header
from sqlengine.storage.format import SQLITE_VERSION_NUMBER


class _Pager:
    change_counter = None
    _last_header = object()


def _run(mod, path, stmts):
    con = mod.connect(path, isolation_level=None)
    for s in stmts:
        con.execute(s).fetchall()  # (each statement run to its end)
    con.close()
    with open(path, "rb") as f:
        return f.read(100)


@pytest.mark.parametrize("journal_mode", ["delete", "memory"])
def test_file_header_fields_match_sqlite3(tmp_path, journal_mode):
    stmts = ["CREATE TABLE t(a INTEGER PRIMARY KEY, b)"]
    if journal_mode != "delete":
        stmts.insert(0, "PRAGMA journal_mode=" + journal_mode)
    stmts += ["INSERT INTO t VALUES(%d, randomblob(900))" % i for i in range(1, 40)]
    stmts += ["BEGIN", "DELETE FROM t WHERE a > 20", "UPDATE t SET b = 1", "COMMIT",
              "SELECT count(*) FROM t", "BEGIN", "INSERT INTO t VALUES(100, 2)", "ROLLBACK",
              "DELETE FROM t"]
    ours = _run(sqlengine, str(tmp_path / "ours.db"), stmts)
    theirs = _run(sqlite3, str(tmp_path / "theirs.db"), stmts)
    for lo, hi in ((24, 28), (28, 32), (92, 96), (96, 100)):
        assert ours[lo:hi] == theirs[lo:hi], (lo, hi)


def test_stamp_header_bytes():
    data = bytearray(512)
    data[24:28] = (0xFFFFFFFE).to_bytes(4, "big")
    pager = _Pager()
    stamp_header(pager, data, 7)
    assert data[24:28] == (0xFFFFFFFF).to_bytes(4, "big")
    assert data[28:32] == (7).to_bytes(4, "big")
    assert data[92:96] == data[24:28]
    assert int.from_bytes(data[96:100], "big") == SQLITE_VERSION_NUMBER
    assert pager.change_counter == bytes(data[24:28])
    assert pager._last_header is None
    stamp_header(pager, data, 3)  # the counter wraps at 32 bits
    assert data[24:28] == bytes(4) and data[92:96] == bytes(4)
    assert pager.change_counter == bytes(4)
    assert data[:24] == bytes(24) and data[32:92] == bytes(60) and data[100:] == bytes(412)


def test_stamp_header_refuses_a_short_page():
    with pytest.raises(ValueError):
        stamp_header(_Pager(), bytearray(99), 1)
