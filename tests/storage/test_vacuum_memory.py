"""VACUUM of a file database builds the new image in a temporary file through a bounded page
cache: the result is the same database (sqlite3 reads it, integrity ok), the temporary file
is gone afterwards, and the memory VACUUM allocates does not grow with the database."""

from __future__ import annotations

import glob
import os
import sqlite3
import tempfile
import tracemalloc

from sqlengine.storage.btree import Btree


def _make(path, n):
    con = sqlite3.connect(path)
    con.execute("create table t(a integer primary key, b text, c blob)")
    con.execute("create index tb on t(b)")
    con.executemany("insert into t values(?,?,?)",
                    [(i, "name %d" % (i * 7919 % 100003), bytes(i % 50)) for i in range(n)])
    con.execute("delete from t where a % 3 = 0")
    con.commit()
    exp = con.execute("select * from t order by a").fetchall()
    con.close()
    return exp


def _scratch_files():
    return set(glob.glob(os.path.join(tempfile.gettempdir(), "sqlengine-vacuum-*")))


def test_vacuum_through_temp_file_keeps_content(tmp_path):
    path = str(tmp_path / "v.db")
    exp = _make(path, 20_000)
    before = _scratch_files()
    bt = Btree.open(path)
    bt.cache_size = 20            # pages: the copy must spill
    bt.vacuum()
    assert bt.integrity_check() == ["ok"]
    bt.close()
    assert _scratch_files() == before
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert con.execute("select * from t order by a").fetchall() == exp
    assert con.execute("select count(*) from t indexed by tb where b > ''").fetchone()[0] == \
        len(exp)
    assert con.execute("pragma freelist_count").fetchone()[0] == 0
    con.close()


def _vacuum_peak(path):
    bt = Btree.open(path)
    bt.cache_size = 50
    tracemalloc.start()
    try:
        bt.vacuum()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        bt.close()


def test_vacuum_memory_does_not_grow_with_the_database(tmp_path):
    small, big = str(tmp_path / "s.db"), str(tmp_path / "b.db")
    _make(small, 5_000)
    _make(big, 60_000)
    assert os.path.getsize(big) > 8 * os.path.getsize(small)
    peak_small, peak_big = _vacuum_peak(small), _vacuum_peak(big)
    # the cache is 50 pages of 4 KiB either way; the big file is over 2 MB
    assert peak_big < 2 * peak_small + 512 * 1024
    assert peak_big < os.path.getsize(big) / 2
