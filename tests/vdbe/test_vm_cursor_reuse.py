"""OpenRead/OpenWrite on a cursor slot that already holds a cursor on the same b-tree (an
open the plan places inside a loop: an inner table's covering index, an OR term's index)
clears and keeps that cursor, as SQLite's OP_OpenRead does, instead of making a b-tree
cursor per outer row. The results must be sqlite3's, and the b-tree cursors made per run
must not grow with the outer loop; a later run, of the same statement or another, makes
none (it opens again the cursors the earlier runs parked in their Btree)."""

from __future__ import annotations

import random

import pytest

from sqlengine.storage import _btree, btree

SETUP = [
    "CREATE TABLE t1(a1 INTEGER, b1 INTEGER, c1 INTEGER, x1 TEXT)",
    "CREATE TABLE t2(a2 INTEGER, b2 INTEGER, c2 INTEGER, x2 TEXT)",
    "CREATE TABLE t3(a3 INTEGER, b3 INTEGER, c3 INTEGER, x3 TEXT)",
    "CREATE INDEX t1i0 ON t1(a1, b1, c1, x1)",
    "CREATE INDEX t2b ON t2(b2)",
    "CREATE INDEX t3a ON t3(a3)",
    "CREATE INDEX t3c ON t3(c3)",
]

QUERIES = [
    # t1's covering index is opened inside t2's loop
    "SELECT a2, x1 FROM t2, t1 WHERE a1 = b2 ORDER BY 1, 2",
    "SELECT x2, x1, x3 FROM t3, t2, t1 WHERE a1 = b2 AND c3 = c2"
    " AND (a3 = 3 OR a3 = 7 OR c3 = 5) ORDER BY 1, 2, 3",
    "SELECT count(*) FROM t2, t3 WHERE (a3 = b2 OR c3 = a2) AND b2 IN (1, 2, 3, 4)",
    "SELECT x2 FROM t2 WHERE EXISTS (SELECT 1 FROM t1 WHERE a1 = t2.b2 AND c1 > t2.c2)"
    " ORDER BY 1",
]


def fill(con):
    rnd = random.Random(7)
    for sql in SETUP:
        con.execute(sql)
    for t in ("t1", "t2", "t3"):
        con.executemany(f"INSERT INTO {t} VALUES (?, ?, ?, ?)",
                        [(rnd.randrange(10), rnd.randrange(10), rnd.randrange(10),
                          f"x{rnd.randrange(50)}") for _ in range(60)])


@pytest.mark.parametrize("sql", QUERIES)
def test_reopened_cursors_give_sqlite3_results(pair, sql):
    ours, theirs = pair
    assert ours.execute(sql).fetchall() == theirs.execute(sql).fetchall()


def test_a_cursor_opened_in_a_loop_is_made_once_per_run(pair, monkeypatch, request):
    ours, _ = pair
    sql = QUERIES[0]
    plan = [r[1] for r in ours.execute("EXPLAIN " + sql)]
    first_loop = plan.index("Rewind")
    assert "OpenRead" in plan[first_loop:]  # (the plan still opens inside the loop)
    made = []
    real = btree.Btree.cursor

    def counting(self, *args, **kwargs):
        made.append(args[0])
        return real(self, *args, **kwargs)
    monkeypatch.setattr(btree.Btree, "cursor", counting)
    # the VM opens a plain Btree's cursors through _btree.open_cursor, which makes them
    # itself; with no class registered it calls the Btree's cursor method, which counts
    _btree.register_btree_type(None)
    request.addfinalizer(lambda: _btree.register_btree_type(btree.Btree))
    sql += " -- a statement not prepared before"
    rows = ours.execute(sql).fetchall()
    assert len(rows) > 10
    assert len(made) == len(set(made)) == plan.count("OpenRead")


def test_later_runs_open_the_parked_cursors(pair):
    ours, _ = pair
    sql = QUERIES[1]
    parked = ours._db.bt._parked
    rows = ours.execute(sql).fetchall()
    assert len(rows) > 10
    kept = list(parked)         # (held, so that no new cursor can take a freed one's id)
    assert kept and all(c.bt is None and c.key_info is None for c in kept)
    # the same statement again, another statement text and a write open those cursors
    # again: the Btree's parked cursors are the same objects afterwards, none made
    for again in (sql, sql + " -- another text", QUERIES[0],
                  "UPDATE t1 SET c1 = c1 + 1 WHERE a1 = 3"):
        ours.execute(again).fetchall()
        assert len(parked) <= len(kept)
        assert {id(c) for c in parked} <= {id(c) for c in kept}
    assert ours.execute(sql).fetchall() == [
        (x2, x1, x3) for x2, x1, x3 in rows]  # (c1 changed: not selected)
