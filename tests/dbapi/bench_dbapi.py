"""The DB-API layer's own cost: ``python tests/dbapi/bench_dbapi.py [N]``.

Three operations (execute of a cached statement, executemany insert, fetch of many rows)
timed on the stdlib sqlite3, on sqlengine through the DB-API, and on sqlengine's
Database directly (prepare/bind/step, the floor under the DB-API). The difference between
the last two is what dbapi.py adds. Not collected by pytest (a measurement, not a test).
"""

from __future__ import annotations

import sqlite3
import sys
import time

sys.path.insert(0, __file__.rsplit("/tests/", 1)[0])
import sqlengine  # noqa: E402


def best(fn, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def dbapi_ops(module, n):
    con = module.connect(":memory:")
    con.execute("create table t(a integer, b text)")
    rows = [(i, f"row {i}") for i in range(n)]

    def cached_execute():
        for i in range(n):
            con.execute("select ?", (i,)).fetchone()

    def executemany():
        con.execute("delete from t")
        con.executemany("insert into t values(?, ?)", rows)
        con.commit()

    def fetch_many():
        con.execute("select a, b from t").fetchall()

    executemany()
    return {"cached execute": best(cached_execute), "executemany insert": best(executemany),
            "fetch many rows": best(fetch_many)}


def engine_ops(n):
    from sqlengine.database import Database

    db = Database(":memory:")
    stmt, _ = db.prepare("create table t(a integer, b text)")
    stmt.step()
    stmt.finalize()
    rows = [(i, f"row {i}") for i in range(n)]

    def run(sql, params_list, fetch):
        stmt, _ = db.prepare(sql)
        for params in params_list:
            stmt.reset()
            for i, value in enumerate(params, 1):
                stmt.bind(i, value)
            while True:
                row = stmt.step()
                if row is None or not fetch:
                    break
        stmt.finalize()

    def cached_execute():
        run("select ?", [(i,) for i in range(n)], False)

    def executemany():
        run("delete from t", [()], False)
        run("begin", [()], False)
        run("insert into t values(?, ?)", rows, False)
        run("commit", [()], False)

    def fetch_many():
        run("select a, b from t", [()], True)

    executemany()
    return {"cached execute": best(cached_execute), "executemany insert": best(executemany),
            "fetch many rows": best(fetch_many)}


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    ours = dbapi_ops(sqlengine, n)
    floor = engine_ops(n)
    ref = dbapi_ops(sqlite3, n)
    print(f"{n} operations/rows each; microseconds per operation or row")
    print(f"{'operation':<20}{'sqlite3':>10}{'sqlengine':>11}{'engine only':>13}"
          f"{'DB-API adds':>13}")
    for name in ours:
        print(f"{name:<20}{ref[name] / n * 1e6:>10.2f}{ours[name] / n * 1e6:>11.2f}"
              f"{floor[name] / n * 1e6:>13.2f}{(ours[name] - floor[name]) / n * 1e6:>13.2f}")


if __name__ == "__main__":
    main()
