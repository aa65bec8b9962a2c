"""Threads sharing one connection (check_same_thread=False), which the module allows as the
stdlib does (threadsafety 3): concurrent writers and readers on one connection lose no
row, see no half-done change and leave a sound database."""

from __future__ import annotations

import sqlite3 as oracle
import sys
import threading


def test_threadsafety_as_stdlib(sqlite):
    assert sqlite.threadsafety == oracle.threadsafety


def test_threads_share_one_connection(sqlite, tmp_path):
    con = sqlite.connect(tmp_path / "shared.db", check_same_thread=False,
                         isolation_level=None)
    con.execute("create table t(id integer primary key, who, n, pad)")
    con.execute("create index t_who on t(who, n)")
    failures = []
    counts = []  # rows seen by each read

    def writer(who):
        try:
            for n in range(150):
                con.execute("insert into t(who, n, pad) values(?, ?, ?)", (who, n, "x" * 300))
        except Exception as e:  # noqa: BLE001 - reported below
            failures.append(repr(e))

    def reader():
        try:
            for _ in range(60):
                seen = 0
                for who in range(4):
                    # one aggregate row: computed within one step, so within one lock hold
                    count, top = con.execute("select count(*), max(n) from t where who = ?",
                                             (who,)).fetchone()
                    if count and count != top + 1:  # a writer's rows arrive in order
                        failures.append(("torn", who, count, top))
                    seen += count
                counts.append(seen)
        except Exception as e:  # noqa: BLE001 - reported below
            failures.append(repr(e))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
        threads += [threading.Thread(target=reader) for _ in range(2)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(old)
    assert failures == []
    assert len(counts) == 120
    assert con.execute("select count(*), count(distinct who) from t").fetchone() == (600, 4)
    assert con.execute("pragma integrity_check").fetchone() == ("ok",)
    con.close()
