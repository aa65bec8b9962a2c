"""A finished run parks its b-tree cursors in their Btree, detached from their trees, and
later OpenRead/OpenWrite of any statement open them again (Vdbe._park_cursors,
_btree.park_cursor / open_cursor): statements repeated while other statements write the
same tables, run half way and reset, failing and run again, and run after the schema or
the whole database changed, give sqlite3's results; the parked cursors are bounded in
number and keep neither the connection nor a row alive."""

from __future__ import annotations

import random
import sqlite3

import pytest

import sqlengine


def _pair():
    ours, theirs = sqlengine.connect(":memory:"), sqlite3.connect(":memory:")
    for con in (ours, theirs):
        con.execute("CREATE TABLE t(a INTEGER PRIMARY KEY, b, c UNIQUE)")
        con.execute("CREATE INDEX tb ON t(b)")
        con.executemany("INSERT INTO t VALUES (?, ?, ?)",
                        [(i, i % 17, "c%d" % i) for i in range(1, 400)])
    return ours, theirs


def _both(ours, theirs, sql, params=()):
    got = []
    for con in (ours, theirs):
        try:
            got.append(("ok", con.execute(sql, params).fetchall()))
        except sqlite3.Error as e:
            got.append(("error", type(e).__name__, str(e)))
        except sqlengine.Error as e:
            got.append(("error", type(e).__name__, str(e)))
    assert got[0] == got[1], sql
    return got[0]


def test_repeated_statements_interleaved_with_writes():
    ours, theirs = _pair()
    rnd = random.Random(5)
    stmts = [
        ("SELECT a, b, c FROM t WHERE b = ? ORDER BY a", lambda: (rnd.randrange(17),)),
        ("SELECT count(*), sum(a) FROM t WHERE a > ?", lambda: (rnd.randrange(500),)),
        ("UPDATE t SET b = b + 1 WHERE a = ?", lambda: (rnd.randrange(500),)),
        ("INSERT OR REPLACE INTO t VALUES (?, ?, ?)",
         lambda: (rnd.randrange(600), rnd.randrange(17), "c%d" % rnd.randrange(600))),
        ("DELETE FROM t WHERE a = ?", lambda: (rnd.randrange(600),)),
        ("INSERT INTO t VALUES (?, ?, ?)",                 # often a UNIQUE failure
         lambda: (None, rnd.randrange(17), "c%d" % rnd.randrange(600))),
        ("SELECT x.a, y.a FROM t AS x JOIN t AS y ON y.b = x.b WHERE x.a = ? ORDER BY 2",
         lambda: (rnd.randrange(400),)),
    ]
    for _ in range(600):
        sql, args = rnd.choice(stmts)
        _both(ours, theirs, sql, args())
    _both(ours, theirs, "SELECT * FROM t ORDER BY a")


def test_run_half_way_then_others_write_then_run_again():
    ours, theirs = _pair()
    for k in range(1, 4):
        curs = [con.execute("SELECT a, b FROM t WHERE b < 9 ORDER BY a") for con in (ours, theirs)]
        assert curs[0].fetchmany(25) == curs[1].fetchmany(25)
        for con in (ours, theirs):
            con.execute("DELETE FROM t WHERE a % 5 = 0")
            con.execute("INSERT INTO t SELECT a + ?, b, c || ? FROM t WHERE a < 40",
                        (1000 * k, "n%d" % k))
        _both(ours, theirs, "SELECT a, b FROM t WHERE b < 9 ORDER BY a")
    _both(ours, theirs, "SELECT count(*), sum(a) FROM t")


def test_scan_continues_past_rows_other_statements_change():
    # a rowid-order scan left half way sees the rows deleted ahead of it go and the rows
    # appended after it come, in both engines; its cursor must be among the table's
    # cursors the writes save (a kept cursor is attached again when the scan opens it)
    ours, theirs = _pair()
    for k in range(1, 4):
        curs = [con.execute("SELECT a, b FROM t") for con in (ours, theirs)]
        assert curs[0].fetchmany(40 * k) == curs[1].fetchmany(40 * k)
        for con in (ours, theirs):
            con.execute("DELETE FROM t WHERE a % 7 = ?", (k,))
            con.execute("UPDATE t SET b = b + 100 WHERE a % 3 = ?", (k % 3,))
            con.execute("INSERT INTO t SELECT a + ?, b, c || ? FROM t WHERE a < 30",
                        (1000 * k, "n%d" % k))
        assert curs[0].fetchall() == curs[1].fetchall()


def test_statement_run_again_after_schema_change():
    ours, theirs = _pair()
    q = "SELECT a, c FROM t WHERE b = 3 ORDER BY a"
    _both(ours, theirs, q)
    for con in (ours, theirs):
        con.execute("DROP TABLE t")
        con.execute("CREATE TABLE t(a INTEGER PRIMARY KEY, b, c)")
        con.execute("CREATE TABLE u(x)")
        con.executemany("INSERT INTO t VALUES (?, ?, ?)",
                        [(i, i % 4, "d%d" % i) for i in range(50)])
    _both(ours, theirs, q)
    for con in (ours, theirs):
        con.commit()
        con.execute("VACUUM")
    _both(ours, theirs, q)


def test_statement_run_again_after_deserialize():
    ours, theirs = _pair()
    if not hasattr(theirs, "serialize"):
        pytest.skip("sqlite3 without serialize")
    q = "SELECT a, b FROM t WHERE a BETWEEN 10 AND 20 ORDER BY a"
    _both(ours, theirs, q)
    other = sqlite3.connect(":memory:")
    other.execute("CREATE TABLE t(a INTEGER PRIMARY KEY, b, c UNIQUE)")
    other.executemany("INSERT INTO t VALUES (?, ?, ?)", [(i, -i, str(i)) for i in range(30)])
    other.commit()
    image = other.serialize()
    for con in (ours, theirs):
        con.commit()
        con.deserialize(image)
    _both(ours, theirs, q)


def test_a_kept_cursor_holds_no_row_between_runs():
    import tracemalloc
    con = sqlengine.connect(":memory:")
    con.execute("CREATE TABLE big(a, b)")
    con.execute("INSERT INTO big VALUES (1, ?)", (b"z" * 2_000_000,))   # overflow pages
    q = "SELECT a, length(b) FROM big WHERE rowid = 1"   # no Next after the read
    assert con.execute(q).fetchall() == [(1, 2_000_000)]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        # the run decodes the overflowing record whole (the cursor's row); once it is
        # over, the cursor kept for the next run must not keep that row alive
        assert con.execute(q).fetchall() == [(1, 2_000_000)]
        assert tracemalloc.get_traced_memory()[0] - before < 500_000
    finally:
        tracemalloc.stop()


def test_parked_cursors_are_bounded_and_hold_no_btree():
    import gc
    con = sqlengine.connect(":memory:")
    con.execute("CREATE TABLE t(a INTEGER PRIMARY KEY, b)")
    con.execute("CREATE INDEX tb ON t(b)")
    con.executemany("INSERT INTO t VALUES (?, ?)", [(i, i % 7) for i in range(100)])
    # a join opening 40 cursors at once parks at most the Btree's bound of them
    many = " JOIN ".join("t AS t%d" % i for i in range(40))
    on = " AND ".join("t%d.a = t0.a" % i for i in range(1, 40))
    assert con.execute(f"SELECT count(*) FROM {many} WHERE {on}").fetchall() == [(100,)]
    bt = con._db.bt
    assert 0 < len(bt._parked) <= 16
    # no reference cycle through the list: a parked cursor holds neither its Btree nor
    # the KeyInfo of the program that used it last
    for c in bt._parked:
        assert c.bt is None and c.key_info is None
        assert not any(r is bt or r is bt._parked for r in gc.get_referents(c))


def test_parked_cursors_reopen_on_tables_and_indexes_of_other_statements():
    ours, theirs = _pair()
    for con in (ours, theirs):
        con.execute("CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID")
        con.executemany("INSERT INTO w VALUES (?, ?)", [("k%d" % i, i) for i in range(50)])
    rnd = random.Random(11)
    stmts = [
        "SELECT count(*) FROM t WHERE b = %d",
        "SELECT c FROM t WHERE c > 'c%d' ORDER BY c LIMIT 3",
        "SELECT v, k FROM w WHERE k >= 'k%d' ORDER BY k LIMIT 4",
        "SELECT t.a, w.v FROM t JOIN w ON w.k = 'k' || t.a WHERE t.b = %d ORDER BY 1",
        "UPDATE w SET v = v + 1 WHERE k = 'k%d'",
        "INSERT OR IGNORE INTO t(b, c) VALUES (%d, 'new')",
        "DELETE FROM w WHERE v = %d",
    ]
    for _ in range(300):
        _both(ours, theirs, rnd.choice(stmts) % rnd.randrange(60))
    _both(ours, theirs, "SELECT * FROM t ORDER BY a")
    _both(ours, theirs, "SELECT * FROM w ORDER BY k")


def test_connections_taking_turns_reopen_their_own_cursors():
    # open_cursor remembers the last Btree's parked list: statements of two connections
    # (same schema, other rows) taking turns, and one connection closed and dropped, must
    # each read their own database
    pairs = [_pair(), _pair()]
    for k, (ours, theirs) in enumerate(pairs):
        for con in (ours, theirs):
            con.execute("UPDATE t SET b = b + ?", (100 * k,))
    for i in range(60):
        ours, theirs = pairs[i % 2]
        _both(ours, theirs, "SELECT a, b FROM t WHERE a BETWEEN ? AND ? ORDER BY a",
              (i, i + 5))
        _both(ours, theirs, "SELECT count(*), sum(b) FROM t WHERE b > ?", (i,))
    pairs[0][0].close()
    del pairs[0]
    _both(*pairs[0], "SELECT sum(a), sum(b) FROM t")
