"""An UPDATE that changes indexed columns runs in one pass, rewriting each row where its
loop finds it, unless the loop walks an index whose entries it changes (SQLite's
ONEPASS_MULTI, turned off in update.c when the loop's index cursor is one it writes):
then the loop stores the rowids first and a second loop updates the rows. Differential
against sqlite3: the rows, every index's entries (read through INDEXED BY), the change
counts and integrity_check after random UPDATEs over table scans, rowid ranges and index
loops, UNIQUE conflicts (ABORT, IGNORE) and rows that grow and shrink (pages balanced
under the scan); and the programs: the rowid set's OpenEphemeral is a Noop in one pass."""

import random
import sqlite3

import pytest

import sqlengine

SCHEMA = [
    "CREATE TABLE t(pk INTEGER PRIMARY KEY, a INTEGER, b REAL, c TEXT, d INTEGER)",
    "CREATE INDEX ta ON t(a)",
    "CREATE INDEX tbd ON t(b, d DESC)",
    "CREATE INDEX tc ON t(c) WHERE d > 10",
    "CREATE INDEX tx ON t(a + d)",
    "CREATE UNIQUE INDEX tu ON t(d, pk)",
]

UPDATES = [
    "UPDATE t SET a = a + ?",
    "UPDATE t SET a = ? WHERE a > 30",
    "UPDATE t SET a = a - ? WHERE a BETWEEN 10 AND 40",
    "UPDATE t SET b = b + ?, d = d + 1 WHERE b > 5",
    "UPDATE t SET c = c || 'k' WHERE pk % ? = 0",
    "UPDATE t SET c = substr(c, ?) WHERE d > 20",
    "UPDATE t SET a = ? WHERE c > 'k' AND d > 10",
    "UPDATE t SET d = ? WHERE pk BETWEEN 20 AND 60",
    "UPDATE t SET d = d + ? WHERE a = 7",
    "UPDATE t SET a = a + ? WHERE a + d > 50",
    "UPDATE t SET b = ? WHERE pk > 100",
    "UPDATE OR IGNORE t SET d = ? WHERE pk < 50",
    "UPDATE t SET c = printf('%.*c', ?, 'x') WHERE a < 20",
]


def _row(rnd, i):
    return (i, rnd.randint(0, 60), rnd.choice([rnd.randint(0, 30), rnd.random() * 30, None]),
            rnd.choice(["", "k" * rnd.randint(1, 200), "z%d" % rnd.randint(0, 99), None]),
            rnd.randint(0, 40))


def _dump(con):
    out = {"t": con.execute("SELECT * FROM t ORDER BY pk").fetchall()}
    for name, cols in [("ta", "a, pk"), ("tbd", "b, d, pk"), ("tu", "d, pk")]:
        out[name] = con.execute(f"SELECT {cols} FROM t INDEXED BY {name} "
                                f"ORDER BY {cols}").fetchall()
    out["tc"] = con.execute("SELECT c, pk FROM t INDEXED BY tc WHERE d > 10 "
                            "ORDER BY c, pk").fetchall()
    out["tx"] = con.execute("SELECT a + d, pk FROM t INDEXED BY tx WHERE a + d > -1 "
                            "ORDER BY a + d, pk").fetchall()
    return out


def _run(con, sql, args):
    try:
        return con.execute(sql, args).rowcount
    except (sqlite3.Error, sqlengine.Error) as e:
        return type(e).__name__, str(e)


@pytest.mark.parametrize("seed", range(4))
def test_updates_of_indexed_columns_match_sqlite3(seed):
    rnd = random.Random(seed)
    ours = sqlengine.connect(":memory:", isolation_level=None)
    ref = sqlite3.connect(":memory:", isolation_level=None)
    for con in (ours, ref):
        con.execute("PRAGMA page_size=512")
        for sql in SCHEMA:
            con.execute(sql)
    n = 0
    for _ in range(8):
        rows = [_row(rnd, n + i) for i in range(rnd.randint(40, 160))]
        n += len(rows)
        for con in (ours, ref):
            con.executemany("INSERT INTO t VALUES(?,?,?,?,?)", rows)
        for _ in range(6):
            sql = rnd.choice(UPDATES)
            args = tuple(rnd.randint(0, 60) for _ in range(sql.count("?")))
            assert _run(ours, sql, args) == _run(ref, sql, args), sql
            assert _dump(ours) == _dump(ref), sql
        for con in (ours, ref):
            con.execute("DELETE FROM t WHERE pk % 3 = 0")
    assert ours.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def _opcodes(con, sql):
    return [r[1] for r in con.execute("EXPLAIN " + sql).fetchall()]


@pytest.mark.parametrize("sql, one_pass", [
    ("UPDATE t SET a = 1", True),                      # a table scan
    ("UPDATE t SET a = 1 WHERE pk > 5", True),         # a rowid range
    ("UPDATE t SET a = 1 WHERE d = 3", True),          # the loop walks tu, not changed
    ("UPDATE t SET a = 1 WHERE a > 5", False),         # the loop walks ta, changed
    ("UPDATE t SET d = 1 WHERE d = 3", False),         # tu (and tbd) changed, tu walked
    ("UPDATE t SET c = 'x' WHERE a > 5", True),        # ta walked, only tc changed
])
def test_the_rowid_set_is_a_noop_in_one_pass(sql, one_pass):
    for mod in (sqlengine, sqlite3):
        con = mod.connect(":memory:")
        for s in SCHEMA:
            con.execute(s)
        ops = _opcodes(con, sql)
        assert ("OpenEphemeral" not in ops) == one_pass, (mod, ops)
        assert "Noop" in ops or not one_pass, (mod, ops)
