"""Files written by sqlite3 read equal through our cursors, and files we write open in
sqlite3, pass its PRAGMA integrity_check and read equal."""

import random
import sqlite3

import pytest

from sqlengine.storage import Btree, KeyInfo, encode_record

from storage_helpers import add_schema_row, read_index, read_table, schema


def _rows(n, seed, big=False):
    rnd = random.Random(seed)
    out = []
    for i in range(1, n + 1):
        kind = rnd.randrange(7)
        v = [None, rnd.randint(-2**63, 2**63 - 1), rnd.random() * 1e6 - 5e5,
             "t%d-" % i + "é" * rnd.randrange(30), bytes(rnd.randrange(256) for _ in range(rnd.randrange(40))),
             "long" * rnd.randrange(200, 3000), rnd.randint(-5, 5)][kind]
        if big and i % 97 == 0:
            v = b"B" * rnd.randrange(100_000, 400_000)
        out.append((i, v, rnd.randint(0, 50)))
    return out


@pytest.mark.parametrize("page_size", [512, 4096, 65536])
def test_read_sqlite_file(tmp_path, page_size):
    path = str(tmp_path / "a.db")
    con = sqlite3.connect(path)
    con.execute(f"pragma page_size={page_size}")
    con.execute("create table t(a integer primary key, b, c)")
    con.execute("create index tb on t(b)")
    con.execute("create index tc on t(c desc, b)")
    con.execute("create table u(x)")
    rows = _rows(1500, page_size, big=True)
    con.executemany("insert into t values(?,?,?)", rows)
    con.executemany("insert into u values(?)", [(r[1],) for r in rows[:300]])
    con.execute("delete from t where a % 3 = 0")
    con.commit()
    exp_b = con.execute("select b, a from t indexed by tb order by b, a").fetchall()
    exp_c = con.execute("select c, b, a from t indexed by tc order by c desc, b, a").fetchall()
    con.close()

    bt = Btree.open(path)
    bt.begin(False)
    assert bt.page_size == page_size
    sch = schema(bt)
    t = read_table(bt, sch["t"][2])
    assert t == {r[0]: (None,) + r[1:] for r in rows if r[0] % 3}
    u = read_table(bt, sch["u"][2])
    assert list(u.values()) == [(r[1],) for r in rows[:300]]
    assert read_index(bt, sch["tb"][2], KeyInfo(2)) == exp_b
    assert read_index(bt, sch["tc"][2], KeyInfo(3, None, [True])) == exp_c
    assert bt.cursor(sch["t"][2]).count() == len(t)
    assert bt.integrity_check() == ["ok"]
    bt.close()


@pytest.mark.parametrize("page_size", [512, 4096, 65536])
def test_write_file_sqlite_reads(tmp_path, page_size):
    path = str(tmp_path / "b.db")
    bt = Btree.open(path)
    assert bt.set_page_size(page_size)
    bt.begin(True)
    t = bt.create_table(True)
    ib = bt.create_table(False)
    ic = bt.create_table(False)
    add_schema_row(bt, 1, "table", "t", "t", t, "CREATE TABLE t(a INTEGER PRIMARY KEY, b, c)")
    add_schema_row(bt, 2, "index", "tb", "t", ib, "CREATE INDEX tb ON t(b)")
    add_schema_row(bt, 3, "index", "tc", "t", ic, "CREATE INDEX tc ON t(c DESC, b)")
    rows = _rows(1500, page_size, big=True)
    order = list(rows)
    random.Random(1).shuffle(order)
    ct = bt.cursor(t, True)
    cb = bt.cursor(ib, True, KeyInfo(2))
    cc = bt.cursor(ic, True, KeyInfo(3, None, [True]))
    for a, b, c in order:
        ct.insert(a, encode_record((None, b, c)))
        cb.insert(encode_record((b, a)))
        cc.insert(encode_record((c, b, a)))
    # delete a third, through the table and both indexes
    for a, b, c in rows:
        if a % 3 == 0:
            assert ct.seek(a) == 0
            ct.delete()
            assert cb.seek_ge((b, a)) and cb.compare_key((b, a)) == 0
            cb.delete()
            assert cc.seek_ge((c, b, a)) and cc.compare_key((c, b, a)) == 0
            cc.delete()
    bt.commit()
    assert bt.integrity_check() == ["ok"]
    bt.close()

    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert con.execute("pragma page_size").fetchone()[0] == page_size
    got = con.execute("select a, b, c from t order by a").fetchall()
    assert got == [r for r in rows if r[0] % 3]
    assert con.execute("select b, a from t indexed by tb where b is not null order by b").fetchall() \
        == sorted(((r[1], r[0]) for r in got if r[1] is not None),
                  key=lambda x: (isinstance(x[0], (bytes)), isinstance(x[0], str), x))
    con.close()


def test_freelist_after_deletes(tmp_path):
    path = str(tmp_path / "c.db")
    bt = Btree.open(path)
    bt.set_page_size(1024)
    bt.begin(True)
    t = bt.create_table(True)
    add_schema_row(bt, 1, "table", "t", "t", t, "CREATE TABLE t(x)")
    c = bt.cursor(t, True)
    for i in range(1, 3001):
        c.insert(i, encode_record(("x" * 100 if i % 10 else b"o" * 5000,)))
    bt.commit()
    pages_before = bt.page_count()
    bt.begin(True)
    c = bt.cursor(t, True)
    for i in range(1, 3001):
        if i % 4 != 1:
            assert c.seek(i) == 0
            c.delete()
    bt.commit()
    assert bt.freelist_count() > 100
    assert bt.page_count() == pages_before
    assert bt.integrity_check() == ["ok"]
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert con.execute("pragma freelist_count").fetchone()[0] == bt.freelist_count()
    assert con.execute("select count(*) from t").fetchone()[0] == 750
    con.close()
    # free pages are reused before the file grows
    bt.begin(True)
    c = bt.cursor(t, True)
    free = bt.freelist_count()
    for i in range(5000, 5100):
        c.insert(i, encode_record(("y" * 200,)))
    bt.commit()
    assert bt.freelist_count() < free
    assert bt.page_count() == pages_before
    assert bt.integrity_check() == ["ok"]


def test_drop_and_clear_free_pages(tmp_path):
    path = str(tmp_path / "d.db")
    bt = Btree.open(path)
    bt.begin(True)
    t = bt.create_table(True)
    u = bt.create_table(True)
    add_schema_row(bt, 1, "table", "t", "t", t, "CREATE TABLE t(x)")
    c = bt.cursor(t, True)
    cu = bt.cursor(u, True)
    for i in range(1, 2001):
        c.insert(i, encode_record(("x" * 300,)))
        cu.insert(i, encode_record((b"z" * 9000,) if i % 50 == 0 else (i,)))
    bt.commit()
    n = bt.page_count()
    bt.begin(True)
    assert bt.clear_table(t) == 2000
    bt.drop_table(u)
    bt.commit()
    assert bt.freelist_count() == n - 2
    assert read_table(bt, t) == {}
    assert bt.integrity_check() == ["ok"]
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert con.execute("select count(*) from t").fetchone()[0] == 0
    con.close()


def test_multi_megabyte_overflow(tmp_path):
    path = str(tmp_path / "e.db")
    bt = Btree.open(path)
    bt.begin(True)
    t = bt.create_table(True)
    add_schema_row(bt, 1, "table", "t", "t", t, "CREATE TABLE t(x)")
    blob = random.Random(3).randbytes(5 * 1024 * 1024)
    c = bt.cursor(t, True)
    c.insert(7, encode_record((blob,)))
    c.insert(8, encode_record(("s" * 3_000_000,)))
    bt.commit()
    assert read_table(bt, t)[7] == (blob,)
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert con.execute("select x from t where rowid=7").fetchone()[0] == blob
    assert con.execute("select length(x) from t where rowid=8").fetchone()[0] == 3_000_000
    con.execute("insert into t values(zeroblob(4000000))")
    con.commit()
    con.close()
    bt2 = Btree.open(path)
    bt2.begin(False)
    assert read_table(bt2, t)[9] == (bytes(4000000),)
    assert bt2.integrity_check() == ["ok"]


def test_vacuum(tmp_path):
    path = str(tmp_path / "v.db")
    con = sqlite3.connect(path)
    con.execute("create table t(a integer primary key, b)")
    con.execute("create index tb on t(b collate nocase)")
    con.execute("create table u(x)")
    con.executemany("insert into t values(?,?)", [(i, "Name%d" % (i * 7919 % 1000)) for i in range(5000)])
    con.executemany("insert into u values(?)", [("x" * 3000,) for i in range(200)])
    con.execute("pragma user_version = 42")
    con.execute("delete from t where a % 2 = 0")
    con.execute("delete from u where rowid > 20")
    con.commit()
    exp_t = con.execute("select * from t order by a").fetchall()
    exp_i = con.execute("select b from t indexed by tb order by b collate nocase").fetchall()
    con.close()
    bt = Btree.open(path)
    bt.begin(False)
    before = bt.page_count()
    assert bt.freelist_count() > 0
    bt.commit()
    bt.vacuum()
    assert bt.freelist_count() == 0
    assert bt.page_count() < before
    assert bt.integrity_check() == ["ok"]
    bt.begin(False)
    assert bt.get_meta(6) == 42
    bt.commit()
    bt.close()
    con = sqlite3.connect(path)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert con.execute("select * from t order by a").fetchall() == exp_t
    assert con.execute("select b from t indexed by tb order by b collate nocase").fetchall() == exp_i
    assert con.execute("select count(*) from u").fetchone()[0] == 20
    assert con.execute("pragma user_version").fetchone()[0] == 42
    con.close()


@pytest.mark.parametrize("new_size", [512, 8192, 65536])
def test_vacuum_changes_page_size(tmp_path, new_size):
    path = str(tmp_path / "vp.db")
    con = sqlite3.connect(path)
    con.execute("create table t(a integer primary key, b)")
    con.execute("create index tb on t(b)")
    con.executemany("insert into t values(?,?)", [(i, "v" * (i % 900)) for i in range(3000)])
    con.commit()
    exp = con.execute("select * from t order by a").fetchall()
    con.close()
    bt = Btree.open(path)
    bt.vacuum(new_size)
    assert bt.page_size == new_size
    assert bt.integrity_check() == ["ok"]
    assert {k: v[1] for k, v in read_table(bt, schema(bt)["t"][2]).items()} == dict(exp)
    bt.close()
    con = sqlite3.connect(path)
    assert con.execute("pragma page_size").fetchone()[0] == new_size
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    assert con.execute("select * from t order by a").fetchall() == exp
    assert con.execute("select count(*) from t indexed by tb where b > ''").fetchone()[0] == \
        sum(1 for i in range(3000) if i % 900)
    con.close()


@pytest.mark.parametrize("mode", ["full", "incremental"])
def test_auto_vacuum_files_read_but_not_written(tmp_path, mode):
    from sqlengine import errors
    path = str(tmp_path / "av.db")
    con = sqlite3.connect(path)
    con.execute(f"pragma auto_vacuum={mode}")
    con.execute("pragma page_size=512")
    con.execute("create table t(a integer primary key, b)")
    con.executemany("insert into t values(?,?)", [(i, "z" * 300) for i in range(400)])
    con.commit()
    con.close()
    bt = Btree.open(path)
    bt.begin(False)
    assert bt.get_meta(4) > 0
    assert len(read_table(bt, schema(bt)["t"][2])) == 400
    bt.commit()
    assert bt.integrity_check() == ["ok"]
    with pytest.raises(errors.NotSupportedError):
        bt.begin(True)
    assert bt.in_trans == 0
    bt.close()


def test_page_cache_stays_bounded(tmp_path):
    path = str(tmp_path / "cache.db")
    con = sqlite3.connect(path)
    con.execute("create table t(a integer primary key, b)")
    con.executemany("insert into t values(?,?)", [(i, "c" * 1000) for i in range(20000)])
    con.commit()
    con.close()
    bt = Btree.open(path)
    bt.cache_size = -400          # 400 KiB = 100 pages of 4096
    bt.begin(False)
    assert bt.page_count() > 4000
    assert len(read_table(bt, 2)) == 20000
    cur = bt.cursor(2)
    for k in range(0, 20000, 7):
        assert cur.seek(k) == 0
    assert len(bt.pager.cache) <= 100 + 100 // 8 + 16 + 20
    bt.commit()
    bt.close()


def test_utf16_files_are_refused(tmp_path):
    from sqlengine import errors
    path = str(tmp_path / "u16.db")
    con = sqlite3.connect(path)
    con.execute("pragma encoding='UTF-16le'")
    con.execute("create table t(x)")
    con.execute("insert into t values('héllo')")
    con.commit()
    con.close()
    bt = Btree.open(path)
    with pytest.raises(errors.NotSupportedError):
        bt.begin(False)
    assert bt.in_trans == 0
    bt.close()
