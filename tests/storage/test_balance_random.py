"""Randomized writes that make the b-tree balance in every way (pages overflowing by one
cell, pages left underfull by deletes, interior pages splitting and merging, roots growing
and shrinking, cells with overflow pages, index interior cells deleted), on small pages so
that a few hundred rows reach several levels. The same statements run on sqlite3; the file
sqlengine wrote must pass sqlite3's integrity_check and read back, through sqlite3, exactly
the rows sqlite3's own database holds."""

import random
import sqlite3

import pytest

import sqlengine

SCHEMA = [
    "CREATE TABLE t(a INTEGER PRIMARY KEY, b, c TEXT, d)",
    "CREATE INDEX tb ON t(b)",
    "CREATE INDEX tcb ON t(c, b)",
    "CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID",
]


def _statements(seed):
    """The random script of one seed: (sql, params) pairs."""
    rnd = random.Random(seed)
    big = rnd.choice([8, 120, 700, 2500])

    def val():
        r = rnd.random()
        if r < 0.3:
            return rnd.randint(-1000, 1000)
        if r < 0.45:
            return rnd.random()
        if r < 0.9:
            return "x" * rnd.randint(0, big) + str(rnd.randint(0, 99))
        return None

    out = []
    for _ in range(rnd.randint(300, 700)):
        op = rnd.random()
        if op < 0.55:
            out.append(("INSERT OR REPLACE INTO t VALUES(?,?,?,?)",
                        (rnd.randint(1, 1500), val(), val(), val())))
            out.append(("INSERT OR REPLACE INTO w VALUES(?,?)",
                        (str(rnd.randint(1, 900)) * rnd.randint(1, 12), val())))
        elif op < 0.75:
            lo = rnd.randint(1, 1500)
            out.append(("DELETE FROM t WHERE a BETWEEN ? AND ?", (lo, lo + rnd.randint(0, 80))))
            if rnd.random() < 0.2:
                out.append(("DELETE FROM w WHERE k < ?", (str(rnd.randint(1, 900)),)))
        elif op < 0.9:
            lo = rnd.randint(1, 1500)
            out.append(("UPDATE t SET c = ?, b = ? WHERE a BETWEEN ? AND ?",
                        (val(), val(), lo, lo + rnd.randint(0, 30))))
        else:
            for _ in range(rnd.randint(10, 60)):
                out.append(("INSERT INTO t(b, c, d) VALUES(?, ?, ?)", (val(), val(), val())))
    return out


def _dump(con):
    return {
        "t": con.execute("SELECT * FROM t ORDER BY a").fetchall(),
        "w": con.execute("SELECT * FROM w ORDER BY k").fetchall(),
        "tb": con.execute("SELECT b, a FROM t INDEXED BY tb ORDER BY b, a").fetchall(),
        "tcb": con.execute("SELECT c, b, a FROM t INDEXED BY tcb ORDER BY c, b, a").fetchall(),
    }


@pytest.mark.parametrize("seed", range(8))
def test_random_writes_read_back_by_sqlite3(tmp_path, seed):
    page_size = [512, 1024, 4096][seed % 3]
    ours = tmp_path / "ours.db"
    con = sqlengine.connect(str(ours), isolation_level=None)
    ref = sqlite3.connect(":memory:", isolation_level=None)
    con.execute("PRAGMA synchronous=OFF")
    for c in (con, ref):
        c.execute(f"PRAGMA page_size={page_size}")
        for sql in SCHEMA:
            c.execute(sql)
    for n, (sql, params) in enumerate(_statements(seed)):
        if n % 40 == 0:
            # transactions of 40 statements (fewer file syncs), every 7th rolled back
            if n:
                con.execute("ROLLBACK" if n % 280 == 0 else "COMMIT")
                ref.execute("ROLLBACK" if n % 280 == 0 else "COMMIT")
            con.execute("BEGIN")
            ref.execute("BEGIN")
        con.execute(sql, params)
        ref.execute(sql, params)
    con.execute("COMMIT")
    ref.execute("COMMIT")
    assert [r[0] for r in con.execute("PRAGMA integrity_check")] == ["ok"]
    con.close()
    back = sqlite3.connect(str(ours))
    assert back.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert back.execute("PRAGMA page_size").fetchone()[0] == page_size
    assert _dump(back) == _dump(ref)
    back.close()
