"""Files larger than 1 GiB: the page holding byte 0x40000000 (the lock-byte page) is never
used, by us or by sqlite3, and files crossing it interoperate. Slow: run with -m slow."""

import random
import sqlite3

import pytest

from sqlengine.storage import Btree, encode_record
from sqlengine.storage.format import lock_byte_page

from storage_helpers import add_schema_row, read_table

pytestmark = pytest.mark.slow


def test_we_write_past_the_lock_byte_page(tmp_path):
    path = str(tmp_path / "big.db")
    bt = Btree.open(path)
    bt.set_page_size(65536)
    bt.synchronous = 0
    bt.begin(True)
    t = bt.create_table(True)
    add_schema_row(bt, 1, "table", "t", "t", t, "CREATE TABLE t(x)")
    bt.commit()
    rnd = random.Random(7)
    chunk = 8 * 1024 * 1024
    n = (1 << 30) // chunk + 8
    for start in range(0, n, 16):
        bt.begin(True)
        c = bt.cursor(t, True)
        for i in range(start, min(n, start + 16)):
            c.insert(i + 1, encode_record((rnd.randbytes(64) * (chunk // 64),)))
        c.close()
        bt.commit()
    lbp = lock_byte_page(65536)
    assert bt.page_count() > lbp
    bt.begin(False)
    with open(path, "rb") as f:
        f.seek((lbp - 1) * 65536)
        assert f.read(65536) == bytes(65536)
    c = bt.cursor(t)
    assert c.count() == n
    bt.commit()
    assert bt.integrity_check() == ["ok"]
    bt.close()
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert con.execute("select count(*), sum(length(x)) from t").fetchone() == (n, n * chunk)
    con.close()


def test_sqlite_writes_past_the_lock_byte_page(tmp_path):
    path = str(tmp_path / "big2.db")
    con = sqlite3.connect(path)
    con.execute("pragma page_size=4096")
    con.execute("pragma journal_mode=off")
    con.execute("create table t(x)")
    n = (1 << 30) // (4 * 1024 * 1024) + 4
    for _i in range(n):
        con.execute("insert into t values(randomblob(4*1024*1024))")
    con.execute("insert into t values('after')")
    con.commit()
    con.close()
    bt = Btree.open(path)
    bt.begin(False)
    assert bt.page_count() > lock_byte_page(4096)
    rows = read_table(bt, 2)
    assert len(rows) == n + 1 and rows[n + 1] == ("after",)
    bt.commit()
    assert bt.integrity_check() == ["ok"]
    bt.begin(True)
    c = bt.cursor(2, True)
    c.insert(n + 2, encode_record(("ours",)))
    bt.commit()
    bt.close()
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert con.execute("select x from t where rowid = ?", (n + 2,)).fetchone() == ("ours",)
    con.close()
