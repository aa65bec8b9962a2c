"""Damaged files seen through SQL: a corrupt record met by a query is DatabaseError
"database disk image is malformed", as in sqlite3, never another exception."""

import sqlite3

import pytest

import sqlengine
from sqlengine.storage import Btree, KeyInfo, encode_record


def _db_with_index_entry(path, bad_key):
    con = sqlite3.connect(path)
    con.execute("create table t2(x integer primary key, y)")
    con.execute("create index t2y on t2(y)")
    con.executemany("insert into t2 values(?, ?)", [(i, i) for i in range(1, 50)])
    con.commit()
    root = con.execute("select rootpage from sqlite_master where name = 't2y'").fetchone()[0]
    con.close()
    if isinstance(bad_key, bytes):
        # overwrite the record of the entry (20, 20) in place, same payload size
        with open(path, "r+b") as f:
            data = f.read()
            good = encode_record((20, 20))
            assert data.count(good) == 1 and len(bad_key) == len(good)
            f.seek(data.index(good))
            f.write(bad_key)
        return
    bt = Btree.open(path)
    bt.begin(True)
    c = bt.cursor(root, True, KeyInfo(2))
    c.insert(encode_record(bad_key))
    c.close()
    bt.commit()
    bt.close()


@pytest.mark.parametrize("bad_key, sql", [
    (b"\x01\x00\x00\x00\x00", "select x from t2 where y between 10 and 30"),  # no field
    ((20, "abc"), "select x from t2 where y between 10 and 30"),   # rowid field not integer
    ((20, 1.5), "select x from t2 where y between 10 and 30"),
    ((20, 7), "select x from t2 where y between 10 and 30 and x > 1000"),  # control: fine
])
def test_index_record_without_integer_rowid(tmp_path, bad_key, sql):
    p = str(tmp_path / "b.db")
    _db_with_index_entry(p, bad_key)
    want = sqlite3.connect(p)
    try:
        expect = want.execute(sql).fetchall()
    except sqlite3.DatabaseError as e:
        expect = str(e)
    finally:
        want.close()
    con = sqlengine.connect(p)
    try:
        got = con.execute(sql).fetchall()
    except sqlengine.DatabaseError as e:
        got = str(e)
    finally:
        con.close()
    assert got == expect
