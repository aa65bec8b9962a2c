"""Real process crashes: a child process commits transactions in a loop on a database file
and is killed with SIGKILL at a random moment; after each kill the file must reopen, pass
``PRAGMA integrity_check`` (sqlengine's, then the stdlib sqlite3's) and hold every
transaction the child reported committed — and the one in flight entirely or not at all.

The child (``python -m tools.proccrash --child PATH``) runs transaction k as: insert
``rows(k)`` rows tagged k (some with overflowing blobs), update a few rows of earlier
transactions, delete the rows of transaction k-5 tagged for deletion, set ``meta.last = k``,
COMMIT, then print ``k`` on stdout (flushed). Reopening after a kill rolls a hot journal back.

Never edits the engine. CLI: ``python -m tools.proccrash --trials 200`` (see ``--help``).
"""

from __future__ import annotations

import argparse
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rows_of(k: int) -> int:
    return 3 + (k * 7) % 11


def child_main(path: str, start: int) -> None:
    sys.path.insert(0, ROOT)
    import sqlengine

    con = sqlengine.connect(path, isolation_level=None, timeout=30)
    con.execute("create table if not exists log(k integer, i integer, payload, keep)")
    con.execute("create index if not exists log_k on log(k, i)")
    con.execute("create table if not exists meta(id integer primary key, last integer)")
    con.execute("insert or ignore into meta values(1, 0)")
    k = con.execute("select last from meta").fetchone()[0] + 1
    rng = random.Random(k * 31 + start)
    while True:
        con.execute("begin")
        for i in range(rows_of(k)):
            size = rng.choice([10, 100, 700, 3000])
            con.execute("insert into log values(?, ?, ?, ?)",
                        (k, i, bytes([k % 256]) * size, i % 2))
        con.execute("update log set payload = payload || x'00' where k = ? and i = 0",
                    (max(1, k - 3),))
        con.execute("delete from log where k = ? and keep = 0", (k - 5,))
        con.execute("update meta set last = ? where id = 1", (k,))
        con.execute("commit")
        sys.stdout.write(f"{k}\n")
        sys.stdout.flush()
        k += 1


def verify(path: str, reported: int) -> str | None:
    """None if the file holds transactions 1..K with K >= reported (K <= reported + 1)."""
    sys.path.insert(0, ROOT)
    import sqlengine

    try:
        con = sqlengine.connect(path, isolation_level=None)
        ic = [r[0] for r in con.execute("pragma integrity_check")]
        if ic != ["ok"]:
            return f"sqlengine integrity_check: {ic[:3]}"
        try:
            last = con.execute("select last from meta").fetchone()
        except sqlengine.OperationalError:
            last = None          # killed before the first commit
        last = last[0] if last else 0
        counts = dict(con.execute("select k, count(*) from log group by k").fetchall())
        con.close()
    except sqlengine.Error as e:
        return f"sqlengine cannot read the file: {e}"
    if not reported <= last <= reported + 1:
        return f"meta.last = {last}, child reported {reported} committed"
    for k in range(1, last + 1):
        want = rows_of(k)
        if k <= last - 5:
            want = want // 2     # keep = i % 2: the odd-numbered half stays
        if counts.get(k, 0) != want:
            return f"transaction {k}: {counts.get(k, 0)} rows, want {want}"
    if any(k > last for k in counts):
        return f"rows of an uncommitted transaction: {sorted(k for k in counts if k > last)}"
    c = sqlite3.connect(path)
    try:
        ic = [r[0] for r in c.execute("pragma integrity_check")]
        n = c.execute("select count(*) from log").fetchone()[0] if counts else 0
    except sqlite3.Error as e:
        return f"sqlite3: {e}"
    finally:
        c.close()
    if ic != ["ok"]:
        return f"sqlite3 integrity_check: {ic[:3]}"
    if n != sum(counts.values()):
        return f"sqlite3 counts {n} rows, sqlengine {sum(counts.values())}"
    return None


def run_trials(trials: int, seed: int = 1, max_delay: float = 1.5, workdir: str | None = None,
               progress=None, keep_failed: str | None = None) -> dict:
    rng = random.Random(seed)
    stats = {"trials": 0, "commits": 0, "failures": [], "killed_before_first_commit": 0}
    own = workdir is None
    d = tempfile.mkdtemp() if own else workdir
    path = os.path.join(d, "crash.db")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    reported = 0
    try:
        for t in range(trials):
            p = subprocess.Popen([sys.executable, "-m", "tools.proccrash", "--child", path,
                                  str(t)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            # wait for the first commit (startup costs vary), then kill at a random moment
            deadline = time.monotonic() + 120
            got_first = False
            while time.monotonic() < deadline:
                r, _, _ = select.select([p.stdout], [], [], 0.5)
                if r:
                    line = p.stdout.readline()
                    if not line:
                        break
                    reported = max(reported, int(line))
                    stats["commits"] += 1
                    got_first = True
                    break
            if not got_first and p.poll() is not None:
                stats["failures"].append({"trial": t, "error": "child died: "
                                          + p.stderr.read()[-500:]})
                break
            end = time.monotonic() + rng.uniform(0.0, max_delay)
            while time.monotonic() < end:
                r, _, _ = select.select([p.stdout], [], [], max(0.0, end - time.monotonic()))
                if r:
                    line = p.stdout.readline()
                    if not line:
                        break
                    reported = max(reported, int(line))
                    stats["commits"] += 1
            os.kill(p.pid, signal.SIGKILL)
            p.wait()
            for line in p.stdout.read().split():   # lines written before the kill
                reported = max(reported, int(line))
                stats["commits"] += 1
            p.stdout.close()
            p.stderr.close()
            err = verify(path, reported)
            stats["trials"] += 1
            if err:
                stats["failures"].append({"trial": t, "error": err, "reported": reported})
                if progress:
                    progress(stats, stats["failures"][-1])
                if keep_failed:
                    import shutil
                    for f in os.listdir(d):
                        if f.startswith("crash.db"):
                            shutil.copy(os.path.join(d, f),
                                        os.path.join(keep_failed, f"t{t}-{f}"))
                # the file is no longer a sound base: go on with a new one
                for f in os.listdir(d):
                    if f.startswith("crash.db"):
                        os.remove(os.path.join(d, f))
                reported = 0
            if progress and stats["trials"] % 20 == 0:
                progress(stats, None)
    finally:
        if own:
            for f in os.listdir(d):
                os.remove(os.path.join(d, f))
            os.rmdir(d)
    stats["last_committed"] = reported
    return stats


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return child_main(argv[1], int(argv[2]))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-delay", type=float, default=1.5,
                    help="kill within this many seconds after the child's first commit")
    ap.add_argument("--keep-failed", default=None,
                    help="directory to copy the files of failed trials to")
    a = ap.parse_args(argv)
    t0 = time.time()

    def progress(s, failure):
        if failure:
            print("  FAIL", failure, flush=True)
        else:
            print(f"  {s['trials']} kills, {s['commits']} commits", flush=True)

    st = run_trials(a.trials, a.seed, a.max_delay, progress=progress,
                    keep_failed=a.keep_failed)
    print(f"SIGKILL trials: {st['trials']}  commits reported: {st['commits']}  "
          f"last committed transaction: {st['last_committed']}  "
          f"failures: {len(st['failures'])}  wall: {time.time() - t0:.0f}s")
    for f in st["failures"]:
        print("  FAIL", f)
    return 1 if st["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
