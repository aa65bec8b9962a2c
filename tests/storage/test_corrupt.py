"""Damaged files: truncated, overwritten or random bytes give DatabaseError ("file is not a
database" / "database disk image is malformed") or integrity messages — never another
exception, a crash or a hang."""

import random
import sqlite3

import pytest

from sqlengine import errors
from sqlengine.storage import Btree, KeyInfo, decode_record
from sqlengine.storage.integrity import schema_roots


def _sample_db(path, page_size=1024):
    con = sqlite3.connect(path)
    con.execute(f"pragma page_size={page_size}")
    con.execute("create table t(a integer primary key, b, c)")
    con.execute("create index tb on t(b, c)")
    rnd = random.Random(5)
    con.executemany("insert into t values(?,?,?)",
                    [(i, rnd.choice(["s" * rnd.randrange(3000), i, 1.5 * i, None, b"b" * 40]),
                      rnd.randrange(100)) for i in range(400)])
    con.execute("delete from t where a % 5 = 0")
    con.commit()
    con.close()
    with open(path, "rb") as f:
        return f.read()


def _read_everything(path):
    """Open, walk every tree forwards and backwards, seek, count, check integrity."""
    bt = Btree.open(path)
    try:
        bt.begin(False)
        roots = schema_roots(bt)
        for r in roots:
            ki = None if r in (1, 2) else KeyInfo(3)
            c = bt.cursor(r, False, ki)
            ok = c.first()
            n = 0
            while ok and n < 100000:
                decode_record(c.payload())
                ok = c.next()
                n += 1
            ok = c.last()
            while ok and n < 200000:
                ok = c.prev()
                n += 1
            c.count()
            if ki is None:
                c.seek(57)
            else:
                c.seek_ge((7,))
        bt.integrity_check()
        bt.commit()
    finally:
        bt.close()


def _expect_clean_failure(path):
    try:
        _read_everything(path)
    except errors.DatabaseError as e:
        assert str(e) in ("file is not a database", "database disk image is malformed") or \
            isinstance(e, errors.OperationalError), repr(e)


def test_not_a_database(tmp_path):
    p = tmp_path / "x.db"
    p.write_bytes(b"hello world, this is not SQLite" * 40)
    with pytest.raises(errors.DatabaseError, match="file is not a database"):
        _read_everything(str(p))


def test_bad_page_size(tmp_path):
    data = bytearray(_sample_db(str(tmp_path / "s.db")))
    data[16:18] = (1000).to_bytes(2, "big")
    p = tmp_path / "x.db"
    p.write_bytes(bytes(data))
    with pytest.raises(errors.DatabaseError, match="file is not a database"):
        _read_everything(str(p))


@pytest.mark.parametrize("cut", [100, 1024, 1500, 5000, -1024, -10])
def test_truncated(tmp_path, cut):
    data = _sample_db(str(tmp_path / "s.db"))
    p = tmp_path / "x.db"
    p.write_bytes(data[:cut])
    _expect_clean_failure(str(p))


def test_random_damage(tmp_path):
    data = _sample_db(str(tmp_path / "s.db"))
    rnd = random.Random(11)
    p = tmp_path / "x.db"
    for trial in range(150):
        d = bytearray(data)
        kind = trial % 3
        if kind == 0:       # a few random bytes anywhere
            for _ in range(rnd.randrange(1, 8)):
                d[rnd.randrange(len(d))] = rnd.randrange(256)
        elif kind == 1:     # a page header smashed (past the file header)
            pg = rnd.randrange(len(d) // 1024)
            off = pg * 1024 + (100 if pg == 0 else 0)
            for k in range(12):
                d[off + k] = rnd.randrange(256)
        else:               # a child pointer or cell pointer redirected
            pg = rnd.randrange(1, len(d) // 1024)
            off = pg * 1024 + rnd.randrange(8, 40)
            d[off] = rnd.randrange(256)
            d[off + 1] = rnd.randrange(256)
        p.write_bytes(bytes(d))
        _expect_clean_failure(str(p))


def test_cycle_in_tree_is_reported(tmp_path):
    """An interior page pointing back at the root must not loop forever."""
    path = str(tmp_path / "s.db")
    data = bytearray(_sample_db(path))
    bt = Btree.open(path)
    bt.begin(False)
    root = 2
    page = bt.pager.get(root)
    assert page.data[0] == 5          # interior table page
    bt.commit()
    bt.close()
    off = (root - 1) * 1024
    data[off + 8:off + 12] = root.to_bytes(4, "big")   # right child = itself
    p = tmp_path / "x.db"
    p.write_bytes(bytes(data))
    with pytest.raises(errors.DatabaseError):
        bt = Btree.open(str(p))
        bt.begin(False)
        c = bt.cursor(2)
        c.last()
    bt = Btree.open(str(p))
    bt.begin(False)
    msgs = bt.integrity_check()
    assert msgs != ["ok"]
    with pytest.raises(errors.DatabaseError):
        bt.cursor(2).count()


def test_writes_on_damaged_files(tmp_path):
    """Deletes and inserts (with splits and merges) on damaged files fail cleanly too."""
    from sqlengine.storage import encode_record
    data = _sample_db(str(tmp_path / "s.db"))
    rnd = random.Random(21)
    failures = 0
    for trial in range(60):
        d = bytearray(data)
        pg = rnd.randrange(1, len(d) // 1024)
        off = pg * 1024 + rnd.randrange(0, 40)
        for k in range(rnd.randrange(1, 4)):
            d[off + k] = rnd.randrange(256)
        p = tmp_path / f"w{trial}.db"
        p.write_bytes(bytes(d))
        bt = Btree.open(str(p))
        bt.busy_timeout = 0
        try:
            bt.begin(True)
            c = bt.cursor(2, True)
            ci = bt.cursor(3, True, KeyInfo(3))
            for i in range(0, 600, 3):
                if c.seek(i) == 0:
                    c.delete()
                c.insert(i + 1000, encode_record((None, "q" * (i % 700), i)))
                ci.insert(encode_record(("q" * (i % 700), i, i + 1000)))
            bt.commit()
        except errors.DatabaseError as e:
            assert str(e) == "database disk image is malformed"
            failures += 1
        finally:
            bt.close()
    assert failures > 0


def _ic_both(path, data):
    with open(path, "wb") as f:
        f.write(bytes(data))
    con = sqlite3.connect(path)
    (theirs,) = con.execute("pragma integrity_check").fetchone()
    con.close()
    bt = Btree.open(path)
    ours = bt.integrity_check()
    bt.close()
    return theirs, ours


def test_integrity_messages_match_sqlite(tmp_path):
    src = str(tmp_path / "ic.db")
    con = sqlite3.connect(src)
    con.execute("pragma page_size=1024")
    con.execute("create table t(a integer primary key, b)")
    con.executemany("insert into t values(?,?)", [(i, "x" * 100) for i in range(200)])
    con.execute("delete from t where a > 150")
    con.commit()
    con.close()
    with open(src, "rb") as f:
        data = bytearray(f.read())
    path = str(tmp_path / "x.db")
    # wrong freelist count
    d = bytearray(data)
    d[36:40] = (int.from_bytes(d[36:40], "big") + 3).to_bytes(4, "big")
    theirs, ours = _ic_both(path, d)
    assert theirs == "*** in database main ***\n" + "\n".join(ours)
    # pages beyond every tree
    d = bytearray(data)
    d[28:32] = (int.from_bytes(d[28:32], "big") + 2).to_bytes(4, "big")
    d += bytes(2048)
    theirs, ours = _ic_both(path, d)
    assert theirs == "*** in database main ***\n" + "\n".join(ours)
    # two child pointers to the same page
    d = bytearray(data)
    root = 1024
    assert d[root] == 5
    c0 = int.from_bytes(d[root + 12:root + 14], "big")
    d[root + c0:root + c0 + 4] = d[root + 8:root + 12]
    theirs, ours = _ic_both(path, d)
    assert theirs == "*** in database main ***\n" + "\n".join(ours)


def _with_header_size(tmp_path, data, n, valid=True):
    d = bytearray(data)
    d[28:32] = n.to_bytes(4, "big")
    if not valid:                        # version-valid-for no longer equals the counter
        d[92:96] = ((int.from_bytes(d[24:28], "big") + 1) & 0xFFFFFFFF).to_bytes(4, "big")
    p = tmp_path / f"h{n}{valid}.db"
    p.write_bytes(bytes(d))
    return str(p)


def _sqlite_answer(path):
    con = sqlite3.connect(path)
    try:
        return con.execute("select count(*) from t").fetchall()
    except sqlite3.DatabaseError as e:
        return str(e)
    finally:
        con.close()


def test_header_size_beyond_the_file_is_malformed(tmp_path):
    """SQLite's rule: the in-header size is used when nonzero and the change counter equals
    version-valid-for; a valid one larger than the file is corruption."""
    data = _sample_db(str(tmp_path / "s.db"))
    npages = len(data) // 1024
    for n in (npages + 1, npages + 200, 0xFFFFFFFF):
        p = _with_header_size(tmp_path, data, n)
        assert _sqlite_answer(p) == "database disk image is malformed"
        bt = Btree.open(p)
        with pytest.raises(errors.DatabaseError, match="database disk image is malformed"):
            bt.begin(False)
        bt.close()


@pytest.mark.parametrize("case", ["zero", "stale", "exact"])
def test_header_size_ignored_when_zero_or_stale(tmp_path, case):
    data = _sample_db(str(tmp_path / "s.db"))
    npages = len(data) // 1024
    n, valid = {"zero": (0, True), "stale": (npages + 50, False), "exact": (npages, True)}[case]
    p = _with_header_size(tmp_path, data, n, valid)
    assert _sqlite_answer(p) == [(320,)]
    bt = Btree.open(p)
    bt.begin(False)
    assert bt.pager.db_size == npages
    assert bt.integrity_check() == ["ok"]
    assert bt.cursor(2).count() == 320
    bt.close()


def test_impossible_payload_size_is_corrupt_before_allocating(tmp_path):
    """A payload size larger than the whole file could hold in overflow pages is corrupt at
    once (SQLite's sqlite3BtreeMaxRecordSize), without first allocating that many bytes."""
    import tracemalloc

    path = str(tmp_path / "big.db")
    con = sqlite3.connect(path)
    con.execute("pragma page_size=1024")
    con.execute("create table t(a integer primary key, b)")
    con.execute("insert into t values(1, ?)", ("x" * 3000,))
    con.commit()
    con.close()
    data = bytearray(open(path, "rb").read())
    leaf = 1024  # page 2: the table's root leaf
    assert data[leaf] == 13
    cell = int.from_bytes(data[leaf + 8:leaf + 10], "big")
    # the payload-size varint is 2 bytes (3000 < 16384): patch it to the largest 2-byte
    # value, which needs ~15 overflow pages in a 3-page file (the old code allocated the
    # 16 KB first and found the damage only while following the chain).
    data[leaf + cell:leaf + cell + 2] = bytes([0xFF, 0x7F])  # 16383
    data[28:32] = (2).to_bytes(4, "big")  # header page count: 2 pages, no room for a chain
    open(path, "wb").write(bytes(data))
    bt = Btree.open(path)
    try:
        cur = bt.cursor(2, False, None)
        assert cur.first()
        with pytest.raises(errors.DatabaseError, match="malformed"):
            cur.payload()  # a first call, so that lazily built state is not counted below
        # only the call is traced: pytest.raises' match may compile its pattern (re's cache
        # depends on which tests ran before), which is not the engine's allocation
        tracemalloc.start()
        try:
            cur.payload()
        except errors.DatabaseError as exc:
            raised = exc
        else:
            raised = None
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert raised is not None and "malformed" in str(raised)
        assert peak < 8192
    finally:
        bt.close()
