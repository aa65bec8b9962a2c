"""Column reads through a cursor's cached record header (BtCursor.column_or parses a
record's header once per entry): columns in any order, past the cached fields (more than
64), past the record's end (ALTER TABLE ADD COLUMN defaults), records that overflow their
page, and rows changed under the cursor by triggers and by other cursors on the same table,
against sqlite3."""

from __future__ import annotations

import random
import sqlite3

import sqlengine

NCOL = 70


def _both(script_rows):
    ours, theirs = sqlengine.connect(":memory:"), sqlite3.connect(":memory:")
    for con in (ours, theirs):
        script_rows(con)
    return ours, theirs


def _same(ours, theirs, sql):
    assert ours.execute(sql).fetchall() == theirs.execute(sql).fetchall(), sql


def _wide(con):
    cols = ", ".join(f"c{i}" for i in range(NCOL))
    con.execute(f"CREATE TABLE w({cols})")
    rng = random.Random(7)
    kinds = [lambda: rng.randint(-2**40, 2**40), lambda: rng.random(), lambda: None,
             lambda: "t" * rng.randint(0, 30), lambda: bytes(rng.randint(0, 9)),
             lambda: rng.randint(0, 1)]
    rows = [tuple(rng.choice(kinds)() for _ in range(NCOL)) for _ in range(60)]
    con.executemany(f"INSERT INTO w VALUES ({', '.join('?' * NCOL)})", rows)
    con.execute("ALTER TABLE w ADD COLUMN extra DEFAULT 'dflt'")
    con.execute("INSERT INTO w(c0, extra) VALUES (1, 'given')")


def test_wide_records_any_column_order():
    ours, theirs = _both(_wide)
    rng = random.Random(3)
    names = [f"c{i}" for i in range(NCOL)] + ["extra"]
    for _ in range(25):
        picked = [rng.choice(names) for _ in range(rng.randint(1, 12))]
        _same(ours, theirs, f"SELECT {', '.join(picked)} FROM w ORDER BY rowid")
    _same(ours, theirs, "SELECT c69, c3, c64, c63, extra, c0 FROM w ORDER BY rowid")
    _same(ours, theirs, "SELECT count(*) FROM w WHERE c65 IS NULL AND c2 IS NOT NULL")


def _overflow(con):
    con.execute("CREATE TABLE o(a INTEGER PRIMARY KEY, b, c, d)")
    con.executemany("INSERT INTO o VALUES (?, ?, ?, ?)",
                    [(i, "x" * (i * 997 % 9000), i * 1.5, "y" * (i % 7)) for i in range(40)])


def test_records_overflowing_their_page():
    ours, theirs = _both(_overflow)
    _same(ours, theirs, "SELECT d, length(b), c, a FROM o ORDER BY a")
    _same(ours, theirs, "SELECT c FROM o WHERE length(b) > 4000 AND d <> ''")


def _trig(con):
    con.execute("CREATE TABLE t(a INTEGER PRIMARY KEY, b, c, d)")
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?)",
                    [(i, i * 10, "c%d" % i, i * 0.5) for i in range(1, 200)])
    # the trigger rewrites the row the UPDATE is on: the columns it does not assign are
    # read again from the changed row
    con.execute("CREATE TRIGGER tb BEFORE UPDATE ON t BEGIN "
                "UPDATE t SET c = c || '!', d = d + 1000 WHERE a = old.a; END")


def test_row_changed_by_a_before_trigger():
    ours, theirs = _both(_trig)
    for con in (ours, theirs):
        con.execute("UPDATE t SET b = b + 1 WHERE a % 3 = 0")
    _same(ours, theirs, "SELECT a, b, c, d FROM t ORDER BY a")


def _self(con):
    con.execute("CREATE TABLE s(a INTEGER PRIMARY KEY, b, c)")
    con.executemany("INSERT INTO s VALUES (?, ?, ?)",
                    [(i, (i * 37) % 101, "v%d" % i) for i in range(1, 300)])


def test_rows_read_while_other_cursors_change_the_table():
    ours, theirs = _both(_self)
    for con in (ours, theirs):
        # the subquery reads the table through a second cursor while the UPDATE writes it
        con.execute("UPDATE s SET b = (SELECT count(*) FROM s AS u WHERE u.b < s.b), "
                    "c = c || ':' || b WHERE a % 2 = 1")
        con.execute("INSERT INTO s SELECT a + 1000, b * 2, c || 'x' FROM s WHERE a < 150")
        con.execute("DELETE FROM s WHERE a IN (SELECT a FROM s WHERE b % 5 = 0 AND a > 100)")
    _same(ours, theirs, "SELECT a, b, c FROM s ORDER BY a")
    _same(ours, theirs, "SELECT x.a, y.c FROM s AS x JOIN s AS y ON y.a = x.b "
                        "ORDER BY x.a")


def test_columns_read_many_times_per_row():
    """A field read again on the same entry comes from the cursor's decoded fields: an
    outer row's columns under an inner loop, a column used several times, while other
    cursors on the table change it (the kept fields must go with the entry)."""
    ours, theirs = _both(_self)
    _same(ours, theirs, "SELECT a, b, b + b, c || c, (SELECT count(*) FROM s AS u "
                        "WHERE u.b < s.b AND u.c <> s.c AND u.b + s.b > s.a) FROM s "
                        "WHERE b > 10 AND b < 90 AND b <> a ORDER BY a")
    for con in (ours, theirs):
        con.execute("UPDATE s SET b = b + (SELECT count(*) FROM s AS u WHERE u.b < s.b "
                    "AND u.b > s.b - 20), c = c || b || b WHERE b % 3 = 1 AND b > 5")
        con.execute("INSERT INTO s SELECT a + 500, b + b, c || c FROM s WHERE b % 4 = b % 8")
    _same(ours, theirs, "SELECT a, b, c FROM s ORDER BY a")
    _same(ours, theirs, "SELECT x.a, x.b, x.b * 2, y.b, y.b - x.b FROM s AS x JOIN s AS y "
                        "ON y.b = x.b + 1 AND y.a <> x.a ORDER BY x.a, y.a")


def test_row_rewritten_by_a_trigger_between_reads():
    ours, theirs = _both(_trig)
    for con in (ours, theirs):
        con.execute("CREATE TABLE log(a, b, c, d)")
        con.execute("CREATE TRIGGER ta AFTER UPDATE ON t BEGIN "
                    "INSERT INTO log SELECT a, b, c, d FROM t WHERE a = new.a; END")
        con.execute("UPDATE t SET b = b + b + 1, d = d + b WHERE a % 4 = 1")
    _same(ours, theirs, "SELECT a, b, c, d FROM t ORDER BY a")
    _same(ours, theirs, "SELECT * FROM log ORDER BY a")
