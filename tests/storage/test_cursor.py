"""Cursor semantics the VM relies on: seek results on tables, prefix seeks on indexes with
DESC fields and collations, eof on empty trees, delete-then-next, cursors that survive
changes made through other cursors, meta values and savepoints."""

import pytest

from sqlengine import errors
from sqlengine.storage import Btree, KeyInfo, decode_record, encode_record


def nocase(a, b):
    a, b = a.lower(), b.lower()
    return (a > b) - (a < b)


@pytest.fixture
def bt():
    b = Btree.open(":memory:")
    b.begin(True)
    yield b
    b.close()


def _table(bt, keys):
    t = bt.create_table(True)
    c = bt.cursor(t, True)
    for k in keys:
        c.insert(k, encode_record((k * 10,)))
    return t, c


def test_table_seek_results(bt):
    t, c = _table(bt, [10, 20, 30])
    assert c.seek(20) == 0 and c.rowid == 20 and not c.eof
    r = c.seek(25)
    assert r != 0 and not c.eof
    assert (r < 0 and c.rowid == 20) or (r > 0 and c.rowid == 30)
    assert c.seek(5) > 0 and c.rowid == 10
    assert c.seek(99) < 0 and c.rowid == 30
    assert c.seek_ge(11) and c.rowid == 20
    assert c.seek_gt(20) and c.rowid == 30
    assert not c.seek_gt(30) and c.eof
    assert c.seek_le(29) and c.rowid == 20
    assert c.seek_lt(20) and c.rowid == 10
    assert not c.seek_lt(10) and c.eof
    assert c.seek_ge(-(2**63)) and c.rowid == 10
    assert c.seek_le(2**63 - 1) and c.rowid == 30


def test_empty_table(bt):
    t = bt.create_table(True)
    c = bt.cursor(t)
    assert not c.first() and c.eof
    assert not c.last()
    assert c.seek(1) != 0 and c.eof
    assert not c.seek_ge(1) and not c.seek_le(1)
    assert c.count() == 0
    with pytest.raises(errors.DatabaseError):
        c.payload()


def test_replace_existing_rowid(bt):
    t, c = _table(bt, [1, 2, 3])
    c.insert(2, encode_record(("new", "x" * 10000)))
    assert c.seek(2) == 0 and decode_record(c.payload()) == ("new", "x" * 10000)
    assert c.count() == 3
    c.insert(2, encode_record(("small",)))
    assert c.seek(2) == 0 and c.record() == ("small",)
    assert bt.integrity_check([1, t]) == ["ok"]


def test_insert_leaves_cursor_on_new_entry(bt):
    t, c = _table(bt, range(0, 1000, 2))
    c.insert(501, encode_record(("x",)))
    assert c.rowid == 501
    assert c.next() and c.rowid == 502


def test_delete_then_next_and_prev(bt):
    t, c = _table(bt, range(1, 2001))
    assert c.seek(1000) == 0
    c.delete()
    assert c.next() and c.rowid == 1001
    assert c.seek(1500) == 0
    c.delete()
    assert c.prev() and c.rowid == 1499
    # delete everything from the front with one cursor
    ok = c.first()
    n = 0
    while ok:
        c.delete()
        n += 1
        ok = c.next()
    assert n == 1998 and c.count() == 0
    assert not c.first()
    assert bt.integrity_check([1, t]) == ["ok"]


def test_other_cursors_survive_changes(bt):
    t, w = _table(bt, range(1, 3001))
    r = bt.cursor(t)
    assert r.seek(1500) == 0
    for k in range(3001, 6000):                   # splits everywhere
        w.insert(k, encode_record((k,)))
    for k in range(1, 1400):
        assert w.seek(k) == 0
        w.delete()
    assert r.rowid == 1500
    assert r.next() and r.rowid == 1501
    w.seek(1502)
    w.delete()                                    # delete the entry after r's
    assert r.next() and r.rowid == 1503
    assert w.seek(1503) == 0
    w.delete()                                    # delete r's own entry
    assert r.next() and r.rowid == 1504


def test_index_prefix_seeks(bt):
    ix = bt.create_table(False)
    ki = KeyInfo(3, [None, None], [False, True])     # (a ASC, b DESC, rowid)
    c = bt.cursor(ix, True, ki)
    rows = [(a, b, i) for i, (a, b) in enumerate((a, b) for a in (1, 2, 3) for b in ("x", "y", "z"))]
    for r in rows:
        c.insert(encode_record(r))
    got = []
    ok = c.first()
    while ok:
        got.append(decode_record(c.key()))
        ok = c.next()
    assert [g[:2] for g in got] == [(a, b) for a in (1, 2, 3) for b in ("z", "y", "x")]
    assert c.seek_ge((2,)) and decode_record(c.key())[:2] == (2, "z")
    assert c.compare_key((2,)) == 0 and c.compare_key((1,)) == 1 and c.compare_key((3,)) == -1
    assert c.seek_gt((2,)) and decode_record(c.key())[:2] == (3, "z")
    assert c.seek_le((2,)) and decode_record(c.key())[:2] == (2, "x")
    assert c.seek_lt((2,)) and decode_record(c.key())[:2] == (1, "x")
    assert c.seek_ge((2, "y")) and decode_record(c.key())[:2] == (2, "y")
    assert c.seek_gt((2, "y")) and decode_record(c.key())[:2] == (2, "x")
    assert not c.seek_gt((3,)) and c.eof
    assert not c.seek_lt((1,))
    assert c.seek_ge((1.5,)) and decode_record(c.key())[0] == 2
    assert c.seek_ge((None,)) and decode_record(c.key())[0] == 1
    assert not c.seek_ge(("text",))
    assert c.last() and c.rowid == 6
    assert c.count() == 9


def test_index_collation(bt):
    ix = bt.create_table(False)
    ki = KeyInfo(2, [nocase])
    c = bt.cursor(ix, True, ki)
    for i, s in enumerate(["b", "A", "a", "C", "B", "c"]):
        c.insert(encode_record((s, i)))
    got = []
    ok = c.first()
    while ok:
        got.append(decode_record(c.key()))
        ok = c.next()
    assert [g[0].lower() for g in got] == ["a", "a", "b", "b", "c", "c"]
    assert c.seek_ge(("B",)) and decode_record(c.key())[0].lower() == "b"
    assert c.compare_key(("b",)) == 0
    assert c.seek_gt(("b",)) and decode_record(c.key())[0].lower() == "c"


def test_index_delete_interior_entries(bt):
    """Deleting every entry (many sit in interior cells) keeps the tree valid."""
    ix = bt.create_table(False)
    c = bt.cursor(ix, True, KeyInfo(2))
    for i in range(3000):
        c.insert(encode_record(("k%05d" % (i * 7919 % 3000) + "p" * 50, i)))
    ok = c.first()
    n = 0
    while ok:
        c.delete()
        n += 1
        ok = c.next()
        if n % 500 == 0:
            assert bt.integrity_check([1, ix]) == ["ok"]
    assert n == 3000 and c.count() == 0


def test_meta_and_savepoints(bt):
    bt.set_meta(6, 77)
    bt.set_meta(1, 5)
    assert bt.get_meta(6) == 77
    t, c = _table(bt, [1])
    bt.commit()
    bt.begin(True)
    bt.savepoint_open(0)
    c = bt.cursor(t, True)
    c.insert(2, encode_record((2,)))
    bt.set_meta(6, 78)
    bt.savepoint_open(1)
    c.insert(3, encode_record((3,)))
    bt.savepoint_rollback(1)
    assert c.seek(3) != 0 and c.seek(2) == 0
    bt.savepoint_rollback(0)
    assert c.seek(2) != 0
    assert bt.get_meta(6) == 77
    c.insert(4, encode_record((4,)))
    bt.savepoint_release(0)
    bt.commit()
    bt.begin(False)
    assert bt.cursor(t).count() == 2
    assert bt.get_meta(6) == 77 and bt.get_meta(1) == 5


def test_page_size_only_before_first_write():
    b = Btree.open(":memory:")
    assert b.set_page_size(8192)
    assert not b.set_page_size(1000)
    b.begin(True)
    b.create_table(True)
    b.commit()
    assert not b.set_page_size(1024)
    assert b.page_size == 8192
