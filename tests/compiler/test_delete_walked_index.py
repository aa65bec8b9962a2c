"""A one-pass DELETE whose loop walks one of the table's indexes deletes the row's entry of
that index through the loop's own cursor (no seek), then goes on from the entry after it,
and reads from the row only the columns the other indexes' keys take. Differential against
sqlite3: the rows left, every index's entries (read through INDEXED BY) and
integrity_check, over loops ascending and descending, IN lists, multi-column, partial,
expression and UNIQUE indexes, and deletes that empty pages (balancing under the walk)."""

import random
import sqlite3

import pytest

import sqlengine

SCHEMA = [
    "CREATE TABLE t(pk INTEGER PRIMARY KEY, a INTEGER, b REAL, c TEXT, d INTEGER, e BLOB)",
    "CREATE INDEX ta ON t(a)",
    "CREATE INDEX tbd ON t(b, d DESC)",
    "CREATE INDEX tc ON t(c) WHERE d > 10",
    "CREATE INDEX tx ON t(a + d)",
    "CREATE UNIQUE INDEX tu ON t(d, pk)",
]

DELETES = [
    "DELETE FROM t WHERE a > ?",
    "DELETE FROM t WHERE a < ?",
    "DELETE FROM t WHERE a BETWEEN ? AND ? + 20",
    "DELETE FROM t WHERE a = ?",
    "DELETE FROM t WHERE a IN (?, ? + 1, ? + 2, ?)",
    "DELETE FROM t WHERE b > ? AND d < 30",
    "DELETE FROM t WHERE b = ? AND d > 5",
    "DELETE FROM t WHERE c > 'k' AND d > 10 AND pk % 3 = ?",
    "DELETE FROM t WHERE a + d > ?",
    "DELETE FROM t WHERE d = ? AND pk > 10",
    "DELETE FROM t WHERE a > ? AND c LIKE '%3%'",
]


def _row(rnd, i):
    return (i, rnd.randint(0, 60), rnd.choice([rnd.randint(0, 30), rnd.random() * 30, None]),
            rnd.choice(["", "k" * rnd.randint(1, 200), "z%d" % rnd.randint(0, 99), None]),
            rnd.randint(0, 40), rnd.randbytes(rnd.randint(0, 50)))


def _dump(con):
    out = {"t": con.execute("SELECT * FROM t ORDER BY pk").fetchall()}
    for name, cols in [("ta", "a, pk"), ("tbd", "b, d, pk"), ("tu", "d, pk")]:
        out[name] = con.execute(f"SELECT {cols} FROM t INDEXED BY {name} "
                                f"ORDER BY {cols}").fetchall()
    out["tc"] = con.execute("SELECT c, pk FROM t INDEXED BY tc WHERE d > 10 "
                            "ORDER BY c, pk").fetchall()
    return out


@pytest.mark.parametrize("seed", range(4))
def test_deletes_through_the_walked_index_match_sqlite3(seed):
    rnd = random.Random(seed)
    ours = sqlengine.connect(":memory:", isolation_level=None)
    ref = sqlite3.connect(":memory:", isolation_level=None)
    for con in (ours, ref):
        con.execute("PRAGMA page_size=512")
        for sql in SCHEMA:
            con.execute(sql)
    n = 0
    for _ in range(12):
        rows = [_row(rnd, n + i) for i in range(rnd.randint(50, 250))]
        n += len(rows)
        for con in (ours, ref):
            con.executemany("INSERT INTO t VALUES(?,?,?,?,?,?)", rows)
        for _ in range(4):
            sql = rnd.choice(DELETES)
            args = tuple(rnd.randint(0, 60) for _ in range(sql.count("?")))
            cur = ours.execute(sql, args)
            assert cur.rowcount == ref.execute(sql, args).rowcount, sql
            assert _dump(ours) == _dump(ref), sql
    assert ours.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_the_walked_index_is_deleted_from_through_the_loop_cursor():
    con = sqlengine.connect(":memory:")
    schema = [sql for sql in SCHEMA if " tx " not in sql]   # (no index on an expression)
    for sql in schema:
        con.execute(sql)
    prog = con.execute("EXPLAIN DELETE FROM t WHERE a > 5").fetchall()
    loop = [r for r in prog if r[1] == "SeekGT"][0][2]
    opens = [r for r in prog if r[2] == loop and r[1].startswith("Open")]
    assert [r[1] for r in opens] == ["OpenWrite"]
    assert [r[1] for r in prog if r[2] == loop][-2:] == ["Delete", "Next"]
    assert sum(r[1] == "IdxDelete" for r in prog) == len(schema) - 2   # not on ta
    # only the columns of the other indexes' keys are read (b, c, d; not a, not the BLOB)
    assert sorted(r[3] for r in prog if r[1] == "Column") == [2, 3, 4]
