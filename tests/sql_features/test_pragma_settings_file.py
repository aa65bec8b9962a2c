"""The settings pragmas on database files (the differential scripts use in-memory ones):
a file's locking_mode is its own setting (an in-memory database's is always exclusive),
and a default_cache_size kept in the header is the cache size of a connection that opens
the file (and of an ATTACH of it), whichever engine wrote it; sqlite3 is the reference."""

import sqlite3

import pytest

import sqlengine

LOCKING = ["PRAGMA locking_mode", "PRAGMA main.locking_mode", "PRAGMA temp.locking_mode",
           "PRAGMA locking_mode=exclusive", "PRAGMA locking_mode", "PRAGMA main.locking_mode",
           "PRAGMA locking_mode=normal", "PRAGMA main.locking_mode=exclusive",
           "PRAGMA locking_mode", "PRAGMA main.locking_mode", "PRAGMA locking_mode=bogus",
           "PRAGMA locking_mode=NORMAL", "PRAGMA main.locking_mode"]


def _answers(module, path, statements):
    con = module.connect(str(path), isolation_level=None)
    try:
        return [con.execute(s).fetchall() for s in statements]
    finally:
        con.close()


def test_file_locking_mode(tmp_path):
    assert _answers(sqlengine, tmp_path / "e.db", LOCKING) == \
        _answers(sqlite3, tmp_path / "s.db", LOCKING)


@pytest.mark.parametrize("writer", [sqlite3, sqlengine], ids=["sqlite3", "sqlengine"])
@pytest.mark.parametrize("size", [123, -77, 0])
def test_default_cache_size_read_at_open(tmp_path, writer, size):
    path = tmp_path / "x.db"
    _answers(writer, path, ["CREATE TABLE t(a)", f"PRAGMA default_cache_size={size}"])
    reads = ["PRAGMA cache_size", "PRAGMA default_cache_size"]
    want = _answers(sqlite3, path, reads)
    assert _answers(sqlengine, path, reads) == want
    attached = [f"ATTACH '{path}' AS aux", "PRAGMA aux.cache_size",
                "PRAGMA aux.default_cache_size"]
    assert _answers(sqlengine, ":memory:", attached) == _answers(sqlite3, ":memory:", attached)
