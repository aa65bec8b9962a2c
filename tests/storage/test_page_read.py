"""The pager's compiled page-miss path (storage/_pageread.pyx): pages read with pread from a
plain OS file or through any other file's read(), zeroes beyond the database, a failing read
as SQLite's disk I/O error, and the eviction scan that keeps pages a cursor holds."""

import os
import sqlite3

import pytest

import sqlengine
from sqlengine import errors
from sqlengine.storage import Btree
from sqlengine.storage import format as fmt
from sqlengine.storage.pager import Pager
from sqlengine.vfs import FaultVfs, MemoryVfs, OsVfs

PS = 512


class Pg:
    """The least a pager needs of a page."""

    def __init__(self, pgno, data):
        self.pgno = pgno
        self.data = data
        self.parsed = True
        self.leaf = pgno != 3          # page 3 stands for an interior page

    def invalidate(self):
        pass


def _pager(vfs, npages=60):
    p = Pager("db", vfs, Pg)
    p.set_page_size(PS)
    p.set_cache_size(20)
    p.begin_write()
    p.db_size = npages
    for pgno in range(1, npages + 1):
        page = p.get(pgno)
        p.write(page)
        if pgno == 1:
            page.data[:100] = fmt.new_database_header(PS)
        else:
            page.data[:] = bytes([pgno % 251]) * PS
    p.commit()
    return p


@pytest.mark.parametrize("make_vfs", [MemoryVfs, lambda: FaultVfs(MemoryVfs())])
def test_pages_through_any_file_read(make_vfs):
    p = _pager(make_vfs())
    p.begin_read()
    for pgno in range(2, 61):
        assert bytes(p.get(pgno).data) == bytes([pgno % 251]) * PS
    # beyond the database: a zeroed page, not a read
    assert bytes(p.get(61).data) == bytes(PS)
    with pytest.raises(errors.DatabaseError, match="malformed"):
        p.get(0)
    p.end_read()


def test_pages_read_from_os_file(tmp_path):
    vfs = OsVfs()
    path = str(tmp_path / "p.db")
    p = Pager(path, vfs, Pg)
    p.set_page_size(PS)
    p.begin_write()
    p.db_size = 30
    for pgno in range(1, 31):
        page = p.get(pgno)
        p.write(page)
        if pgno == 1:
            page.data[:100] = fmt.new_database_header(PS)
        else:
            page.data[:] = bytes([pgno]) * PS
    p.commit()
    p.close()
    p = Pager(path, vfs, Pg)
    p.begin_read()
    assert p.db_size == 30
    for pgno in range(30, 1, -1):
        page = p.get(pgno)
        assert type(page.data) is bytearray and len(page.data) == PS
        assert bytes(page.data) == bytes([pgno]) * PS
    p.end_read()
    p.close()


def test_eviction_keeps_held_and_interior_pages():
    p = _pager(MemoryVfs())
    p.begin_read()
    p.cache.clear()
    held = p.get(2)
    interior = p.get(3)
    del interior
    for pgno in range(4, 61):
        p.get(pgno)
    cap = p.cache_capacity()
    assert len(p.cache) <= cap + max(cap // 8, 16)
    assert p.cache.get(2) is held        # a page someone holds is never evicted
    assert 3 in p.cache                  # interior pages go only when leaves are not enough
    assert 4 not in p.cache              # the oldest unheld leaves went first
    p.end_read()


def test_scan_larger_than_cache_matches_sqlite(tmp_path):
    path = str(tmp_path / "big.db")
    ref = sqlite3.connect(path)
    ref.execute("create table t(a integer primary key, b, c)")
    ref.executemany("insert into t values (?, ?, ?)",
                    [(i, i * 3 % 1001, "x%05d" % i * 4) for i in range(6000)])
    ref.commit()
    q = "select count(*), sum(b), max(c), min(c) from t where b > 250"
    want = ref.execute(q).fetchall()
    ref.close()
    con = sqlengine.connect(path)
    con.execute("pragma cache_size=20")
    for _ in range(2):
        assert con.execute(q).fetchall() == want
    assert len(con._db.bt.pager.cache) <= 20 + 16 + 20
    con.close()


def test_failing_pread_is_disk_io_error(tmp_path):
    path = str(tmp_path / "io.db")
    ref = sqlite3.connect(path)
    ref.execute("create table t(a integer primary key, b)")
    ref.executemany("insert into t values (?, ?)", [(i, "y" * 200) for i in range(2000)])
    ref.commit()
    ref.close()
    bt = Btree.open(path)
    bt.begin(False)
    pager = bt.pager
    pager.cache.clear()
    # the database's descriptor now reads a directory: every pread fails (EISDIR)
    saved = os.dup(pager.file.fd)
    d = os.open(str(tmp_path), os.O_RDONLY)
    os.dup2(d, pager.file.fd)
    os.close(d)
    try:
        with pytest.raises(errors.OperationalError, match="disk I/O error") as e:
            pager.get(5)
        assert e.value.sqlite_errorcode == errors.SQLITE_IOERR_READ
        assert 5 not in pager.cache
    finally:
        os.dup2(saved, pager.file.fd)
        os.close(saved)
    assert len(pager.get(5).data) == pager.page_size
    bt.commit()
    bt.close()
