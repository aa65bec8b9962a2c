"""The per-statement transaction of an in-memory database (the corpus's case): begun by
_btree.begin_cookie without the Btree/Pager calls, its pages made dirty inline by the cursors
(mark_dirty), committed by _pageread.commit_memory. What a commit leaves must be what the
pager's general path leaves: the memory file holds exactly db_size pages, the committed
pages' bytes, and page 1's change counter and size; a rollback, a failing statement and a
small cache (pages evicted and read back from the memory file) see the committed state.
Results are compared with the stdlib sqlite3 doing the same."""

import sqlite3

import pytest

import sqlengine
from sqlengine.storage import _btree


def _file_matches_cache(bt):
    p = bt.pager
    ps = p.page_size
    data = p.file.data
    assert len(data) == p.db_size * ps
    for pgno, page in p.cache.items():
        if pgno <= p.db_size:
            assert data[(pgno - 1) * ps:pgno * ps] == page.data, pgno
    return data


def test_commit_copies_pages_and_header():
    con = sqlengine.connect(":memory:", isolation_level=None)
    bt = con._db.bt
    con.execute("create table t(a integer primary key, b text)")
    con.execute("create index i on t(b)")
    counter = int.from_bytes(bt.pager.get(1).data[24:28], "big")
    for k in range(300):
        con.execute("insert into t values (?, ?)", (k, "x" * (k % 50) + str(k)))
        assert bt.pager.in_trans == 0 and not bt.pager.dirty
        d = _file_matches_cache(bt)
        counter += 1
        assert int.from_bytes(d[24:28], "big") == counter
        assert int.from_bytes(d[92:96], "big") == counter
        assert int.from_bytes(d[28:32], "big") == bt.pager.db_size
    con.execute("delete from t where a % 3 = 0")
    _file_matches_cache(bt)
    assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
    # a read-only statement commits nothing: the counter stays
    con.execute("select count(*) from t").fetchall()
    assert int.from_bytes(bt.pager.file.data[24:28], "big") == counter + 1


def test_begin_cookie_write_state():
    con = sqlengine.connect(":memory:", isolation_level=None)
    con.execute("create table t(a)")
    bt = con._db.bt
    p = bt.pager
    con.execute("insert into t values (1)")   # page 1 checked writable
    size = p.db_size
    cookie = _btree.begin_cookie(bt, True)
    assert cookie == bt.get_meta(1) == con._db.schema.cookie
    assert p.in_trans == 2 and p.orig_db_size == size and not p.spilled
    assert p.jfile is None and p.jrecords == 0
    bt.commit()
    assert p.in_trans == 0
    # a read transaction, then a closed b-tree (the general path raises)
    assert _btree.begin_cookie(bt, False) == cookie and p.in_trans == 1
    bt.commit()
    con.close()
    with pytest.raises(sqlengine.ProgrammingError):
        _btree.begin_cookie(bt, True)


@pytest.mark.parametrize("cache_size", [10, -2000])
def test_statements_rollback_and_eviction_match_sqlite3(cache_size):
    script = [
        "create table t(a integer primary key, b text unique, c)",
        "create index tc on t(c)",
    ]
    script += ["insert into t values (%d, 'b%d', %s)" % (k, k, "x'" + "ab" * (k % 200) + "'")
               for k in range(400)]
    script += [
        "insert into t values (1000, 'b1001', 1), (1001, 'b5', 2)",   # fails part way
        "select count(*), sum(a) from t",
        "begin",
        "update t set c = zeroblob(900) where a % 2 = 0",
        "delete from t where a % 5 = 0",
        "insert into t select a + 5000, b || 'z', c from t where a < 50",
        "select count(*), sum(a), sum(length(c)) from t",
        "rollback",
        "select count(*), sum(a), sum(length(c)) from t",
        "begin",
        "delete from t where a < 100",
        "savepoint s",
        "update t set b = 'b150' where a = 151",                        # fails
        "update t set c = 7 where a between 100 and 120",
        "rollback to s",
        "release s",
        "commit",
        "select count(*), sum(a), sum(length(c)), min(a) from t",
        "update t set c = length(c) where a > 300",
        "select sum(c) from t where a > 300",
        "pragma integrity_check",
    ]

    def run(con):
        con.execute("pragma cache_size = %d" % cache_size)
        out = []
        for sql in script:
            try:
                out.append(con.execute(sql).fetchall())
            except Exception as e:
                out.append(("error", type(e).__name__))
        return out

    con = sqlengine.connect(":memory:", isolation_level=None)
    assert run(con) == run(sqlite3.connect(":memory:", isolation_level=None))
    _file_matches_cache(con._db.bt)


def test_cursor_registry_drops_roots_with_no_cursor():
    # _btree.save_all, at every statement's end, drops the roots no cursor is attached to:
    # the registry it walks does not grow with every table ever opened
    con = sqlengine.connect(":memory:", isolation_level=None)
    ref = sqlite3.connect(":memory:", isolation_level=None)
    got, want = [], []
    for k in range(60):
        for c, out in ((con, got), (ref, want)):
            c.execute("create table t%d(a integer primary key, b)" % k)
            c.execute("create index i%d on t%d(b)" % (k, k))
            c.execute("insert into t%d values (1, 'x'), (2, 'y')" % k)
            out.append(c.execute("select a from t%d where b = 'y'" % k).fetchall())
            if k % 3 == 0:
                c.execute("drop table t%d" % k)
    assert got == want
    assert len(con._db.bt._cursors) <= 2
    # a cursor left open on a statement still running keeps its root registered and saved
    cur = con.execute("select a from t1")
    assert cur.fetchone() == (1,)
    con.execute("insert into t2 values (3, 'z')")
    assert cur.fetchall() == [(2,)]
