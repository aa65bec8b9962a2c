"""Storage-layer benchmark: bulk insert, point lookup, full scan and index insert/seek through
sqlengine's cursors, with sqlite3 doing the same work through SQL as a yardstick.

    python bench/storage_bench.py [N]      (default N = 100000)

Prints one line per workload: seconds and microseconds per row. Not a test; no assertions
beyond a sanity check of the counts.
"""

from __future__ import annotations

import os
import random
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sqlengine.storage import Btree, KeyInfo, decode_record, encode_record  # noqa: E402


def timed(label, n, fn):
    t = time.perf_counter()
    out = fn()
    dt = time.perf_counter() - t
    print(f"{label:<38} {dt:8.3f} s  {dt / n * 1e6:8.2f} us/row")
    return out


def main(n: int) -> None:
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "bench.db")
    rows = [(i, f"name-{i}", i * 0.5, random.Random(i).randrange(1 << 30)) for i in range(1, n + 1)]
    keys = list(range(1, n + 1))
    random.Random(1).shuffle(keys)
    probes = keys[: min(n, 50000)]

    print(f"N = {n}")
    bt = Btree.open(path)
    bt.begin(True)
    t = bt.create_table(True)
    ix = bt.create_table(False)
    bt.commit()

    def bulk():
        bt.begin(True)
        c = bt.cursor(t, True)
        for r in rows:
            c.insert(r[0], encode_record(r[1:]))
        bt.commit()
    timed("sqlengine: bulk insert (rowid order)", n, bulk)

    def lookups():
        bt.begin(False)
        c = bt.cursor(t)
        hit = 0
        for k in probes:
            if c.seek(k) == 0:
                c.payload()
                hit += 1
        bt.commit()
        return hit
    assert timed("sqlengine: point lookup + payload", len(probes), lookups) == len(probes)

    def scan():
        bt.begin(False)
        c = bt.cursor(t)
        ok = c.first()
        m = 0
        while ok:
            decode_record(c.payload())
            m += 1
            ok = c.next()
        bt.commit()
        return m
    assert timed("sqlengine: full scan + decode", n, scan) == n

    def count():
        bt.begin(False)
        m = bt.cursor(t).count()
        bt.commit()
        return m
    assert timed("sqlengine: count()", n, count) == n

    ki = KeyInfo(2)

    def index_insert():
        bt.begin(True)
        c = bt.cursor(ix, True, ki)
        for k in keys:
            c.insert(encode_record((rows[k - 1][3], k)))
        bt.commit()
    timed("sqlengine: index insert (random order)", n, index_insert)

    def index_seek():
        bt.begin(False)
        c = bt.cursor(ix, False, ki)
        hit = 0
        for k in probes:
            if c.seek_ge((rows[k - 1][3],)):
                hit += 1
        bt.commit()
        return hit
    assert timed("sqlengine: index seek_ge", len(probes), index_seek) == len(probes)
    bt.close()

    spath = os.path.join(tmp, "ref.db")
    con = sqlite3.connect(spath)
    con.execute("create table t(a integer primary key, b, c, d)")

    def s_bulk():
        con.executemany("insert into t values(?,?,?,?)", rows)
        con.commit()
    timed("sqlite3:   bulk insert (executemany)", n, s_bulk)

    def s_lookup():
        cur = con.cursor()
        for k in probes:
            cur.execute("select * from t where a = ?", (k,)).fetchone()
    timed("sqlite3:   point lookup (SELECT)", len(probes), s_lookup)
    timed("sqlite3:   full scan (SELECT *)", n, lambda: con.execute("select * from t").fetchall())
    timed("sqlite3:   create index", n, lambda: con.execute("create index td on t(d)"))
    con.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100000)
