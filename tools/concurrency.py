"""Concurrency: threads and processes (sqlengine and the stdlib sqlite3 mixed) reading and
writing one database file.

The workload is a bank: ``acct(id, bal)`` starts with ``NACCT`` accounts summing to
``TOTAL``; a writer moves money between two accounts and appends to ``xfer`` inside one
transaction (BEGIN IMMEDIATE ... COMMIT), retrying when the database is locked. A reader
checks, inside one read transaction, that the balances sum to ``TOTAL`` and that
``count(*) FROM xfer`` equals ``meta.n`` (a writer bumps both): a partial transaction
would break one of them. At the end every engine's integrity_check passes and the number of
transfers equals the commits the writers reported.

``worker(engine, role, path, seconds, seed)`` is the unit a thread or a process runs;
``run_threads`` and ``run_processes`` drive them. Never edits the engine.

CLI: ``python -m tools.concurrency --seconds 20 --writers 3 --readers 3`` (processes, both
engines) or ``--threads`` (sqlengine's connections in one process: sqlite3 and sqlengine in
one process do not see each other's fcntl locks, as two copies of SQLite linked into one
program do not: sqlite.org/howtocorrupt.html, section 2.2).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

NACCT = 20
TOTAL = NACCT * 1000


def _module(engine):
    if engine == "sqlite3":
        return sqlite3
    import sqlengine
    return sqlengine


def setup(path: str) -> None:
    con = sqlite3.connect(path)
    con.execute("create table acct(id integer primary key, bal integer, pad)")
    con.execute("create table xfer(id integer primary key, a, b, amount, pad)")
    con.execute("create index xfer_a on xfer(a)")
    con.execute("create table meta(id integer primary key, n integer)")
    con.executemany("insert into acct values(?, 1000, zeroblob(200))",
                    [(i,) for i in range(NACCT)])
    con.execute("insert into meta values(1, 0)")
    con.commit()
    con.close()


def worker(engine: str, role: str, path: str, seconds: float, seed: int,
           max_ops: int | None = None, timeout: float = 5.0) -> dict:
    """Run as a writer or a reader until ``seconds`` pass (or ``max_ops`` operations)."""
    m = _module(engine)
    rng = random.Random(seed)
    out = {"engine": engine, "role": role, "ops": 0, "busy": 0, "errors": []}
    con = m.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end and (max_ops is None or out["ops"] < max_ops):
            try:
                if role == "writer":
                    a, b = rng.sample(range(NACCT), 2)
                    amt = rng.randint(1, 50)
                    con.execute("begin immediate")
                    try:
                        con.execute("update acct set bal = bal - ? where id = ?", (amt, a))
                        con.execute("insert into xfer(a, b, amount, pad) values(?, ?, ?, ?)",
                                    (a, b, amt, bytes(rng.choice([0, 100, 1500]))))
                        con.execute("update acct set bal = bal + ? where id = ?", (amt, b))
                        con.execute("update meta set n = n + 1 where id = 1")
                        con.execute("commit")
                    except BaseException:
                        if con.in_transaction:
                            con.execute("rollback")
                        raise
                else:
                    con.execute("begin")
                    try:
                        total = con.execute("select sum(bal) from acct").fetchone()[0]
                        n = con.execute("select n from meta").fetchone()[0]
                        cnt = con.execute("select count(*) from xfer").fetchone()[0]
                    finally:
                        con.execute("commit")
                    if total != TOTAL or n != cnt:
                        out["errors"].append(f"partial transaction seen: sum {total}, "
                                             f"meta.n {n}, xfer rows {cnt}")
                out["ops"] += 1
            except m.OperationalError as e:
                if str(e) == "database is locked":
                    out["busy"] += 1
                    time.sleep(rng.uniform(0, 0.01))
                else:
                    out["errors"].append(f"{type(e).__name__}: {e}")
            except Exception as e:  # noqa: BLE001 - anything else is a finding
                out["errors"].append(f"{type(e).__name__}: {e}")
            if len(out["errors"]) > 5:
                break
    finally:
        con.close()
    return out


def final_check(path: str, commits: int) -> list[str]:
    errs = []
    for engine in ("sqlengine", "sqlite3"):
        m = _module(engine)
        con = m.connect(path, isolation_level=None)
        try:
            ic = [r[0] for r in con.execute("pragma integrity_check")]
            total = con.execute("select sum(bal) from acct").fetchone()[0]
            n = con.execute("select n from meta").fetchone()[0]
            cnt = con.execute("select count(*) from xfer").fetchone()[0]
        finally:
            con.close()
        if ic != ["ok"]:
            errs.append(f"{engine} integrity_check: {ic[:3]}")
        if total != TOTAL or n != cnt or cnt != commits:
            errs.append(f"{engine}: sum {total}, meta.n {n}, xfer rows {cnt}, "
                        f"writers reported {commits}")
    return errs


def run_threads(path: str, writers=3, readers=3, seconds=3.0, engines=("sqlengine",),
                max_ops=None, timeout=5.0) -> dict:
    setup(path)
    results = []
    lock = threading.Lock()

    def go(engine, role, seed):
        r = worker(engine, role, path, seconds, seed, max_ops, timeout)
        with lock:
            results.append(r)

    ts = []
    for i in range(writers + readers):
        role = "writer" if i < writers else "reader"
        ts.append(threading.Thread(target=go, args=(engines[i % len(engines)], role, i)))
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return _summary(path, results)


def run_processes(path: str, writers=2, readers=2, seconds=3.0,
                  engines=("sqlengine", "sqlite3"), max_ops=None, timeout=5.0) -> dict:
    setup(path)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    procs = []
    for i in range(writers + readers):
        role = "writer" if i < writers else "reader"
        engine = engines[i % len(engines)]
        args = [sys.executable, "-m", "tools.concurrency", "--worker", engine, role, path,
                str(seconds), str(i), str(max_ops or 0), str(timeout)]
        procs.append(subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
    results = []
    for p in procs:
        out, err = p.communicate()
        if p.returncode != 0:
            results.append({"engine": "?", "role": "?", "ops": 0, "busy": 0,
                            "errors": [f"worker exit {p.returncode}: {err[-500:]}"]})
        else:
            results.append(json.loads(out.strip().splitlines()[-1]))
    return _summary(path, results)


def _summary(path, results):
    commits = sum(r["ops"] for r in results if r["role"] == "writer")
    errors = [f"{r['engine']} {r['role']}: {e}" for r in results for e in r["errors"]]
    errors += final_check(path, commits)
    return {"commits": commits,
            "reads": sum(r["ops"] for r in results if r["role"] == "reader"),
            "busy": sum(r["busy"] for r in results), "errors": errors,
            "by_worker": [f"{r['engine']} {r['role']}: {r['ops']} ops, {r['busy']} busy"
                          for r in results]}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        engine, role, path, seconds, seed, max_ops, timeout = argv[1:8]
        r = worker(engine, role, path, float(seconds), int(seed), int(max_ops) or None,
                   float(timeout))
        print(json.dumps(r))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--writers", type=int, default=3)
    ap.add_argument("--readers", type=int, default=3)
    ap.add_argument("--threads", action="store_true", help="threads of one process")
    ap.add_argument("--engines", default=None,
                    help="comma-separated (default: sqlengine,sqlite3 for processes, "
                         "sqlengine for --threads)")
    ap.add_argument("--timeout", type=float, default=5.0, help="busy timeout of each worker")
    a = ap.parse_args(argv)
    import tempfile
    engines = tuple((a.engines or ("sqlengine" if a.threads else "sqlengine,sqlite3"))
                    .split(","))
    if a.threads and len(set(engines)) > 1:
        # fcntl locks belong to the process: two SQLite implementations in one process do
        # not see each other's locks, and a close() by either drops the other's
        # (sqlite.org/howtocorrupt.html, section 2.2); only separate processes are safe
        print("warning: threads of one process mixing engines is the unsafe configuration "
              "of sqlite.org/howtocorrupt.html 2.2 (each keeps its own lock table)")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bank.db")
        run = run_threads if a.threads else run_processes
        st = run(path, a.writers, a.readers, a.seconds, engines, timeout=a.timeout)
    print(f"{'threads' if a.threads else 'processes'} ({','.join(engines)}): "
          f"commits {st['commits']}  consistent reads {st['reads']}  "
          f"'database is locked' retries {st['busy']}  errors: {len(st['errors'])}")
    print("  per worker:", "; ".join(st["by_worker"]))
    for e in st["errors"][:20]:
        print("  ERROR", e)
    return 1 if st["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
