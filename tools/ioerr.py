"""I/O-error loops: fail the Nth file operation of a workload (once, or persistently from N on)
for every N, and check what SQLite guarantees.

For each N the workload's statements run on an engine ``Database`` over a ``FaultVfs``
(in memory, or over real OS files with ``--os``). The checks:

* a statement either succeeds or raises ``OperationalError`` whose message is
  ``disk I/O error`` or ``database or disk is full`` (nothing else, no other class);
* after the fault is cleared the same connection still works: it answers a query, runs
  ``PRAGMA integrity_check`` with ``ok``, and holds exactly the statements that succeeded
  (an explicit transaction hit by an error is rolled back as a whole);
* after close, every file handle the database opened is closed, and the file reopens clean
  in sqlengine and in the stdlib sqlite3 (integrity_check ``ok``, same content).

The expected content comes from the stdlib sqlite3 running the succeeded statements.

Never edits the engine. CLI: ``python -m tools.ioerr --persistent both`` (see ``--help``).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sqlengine import errors  # noqa: E402
from sqlengine.database import Database  # noqa: E402
from sqlengine.vfs import FaultVfs, MemoryVfs, OsVfs  # noqa: E402
from tools.common import engine_dump, run, sqlite_check_bytes, sqlite_dump  # noqa: E402

OK_MESSAGES = ("disk I/O error", "database or disk is full")

SETUP = [
    "create table t(a integer primary key, b text, c)",
    "create index t_b on t(b)",
    "insert into t values(1, 'one', randomblob(10))",
    "insert into t select a + 1, b || a, zeroblob(a * 40) from t",
    "insert into t select a + 2, b || a, zeroblob(a * 90) from t",
    "insert into t select a + 4, b || a, zeroblob(600) from t",
]

WORKLOAD = [
    ("auto", "insert into t values(100, 'hundred', zeroblob(3000))"),
    ("auto", "update t set c = zeroblob(50) where a < 4"),
    ("auto", "delete from t where a = 5"),
    ("auto", "create table u(x integer primary key, y unique)"),
    ("tx", "begin"),
    ("tx", "insert into u values(1, 'a')"),
    ("tx", "insert into u select x + 1, y || x from u"),
    ("tx", "update t set b = upper(b)"),
    ("tx", "commit"),
    ("auto", "create index t_c on t(c)"),
    ("auto", "select count(*), sum(length(c)) from t"),
    ("auto", "drop table u"),
    ("auto", "insert into t select a + 1000, b, c from t"),
    ("auto", "delete from t where a > 1003"),
]


class _CountingVfs:
    """Wraps a VFS and counts handles opened and not yet closed."""

    def __init__(self, inner):
        self.inner = inner
        self.open_handles = 0

    def open(self, path, kind="main"):
        f = self.inner.open(path, kind)
        self.open_handles += 1
        orig_close = f.close
        closed = [False]

        def close():
            if not closed[0]:
                closed[0] = True
                self.open_handles -= 1
            orig_close()

        f.close = close
        return f

    def delete(self, path):
        self.inner.delete(path)

    def exists(self, path):
        return self.inner.exists(path)


def _fd_count():
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return -1


def one_trial(n: int, persistent: bool, use_os: bool, workdir: str | None = None,
              ops=None, cache_size=None) -> str | None:
    """Run the workload with a fault at operation n. None if every check holds."""
    if use_os:
        path = os.path.join(workdir, f"io{n}{'p' if persistent else 'o'}.db")
        for p in (path, path + "-journal"):
            if os.path.exists(p):
                os.remove(p)
        base = OsVfs()
    else:
        path = "db"
        base = MemoryVfs()
    fds_before = _fd_count()
    setup_db = Database(path, vfs=base)
    for sql in SETUP:
        run(setup_db, sql)
    setup_db.close()
    ref = sqlite3.connect(":memory:", isolation_level=None)
    for sql in SETUP:
        ref.execute(sql.replace("randomblob(10)", "x'00'"))
    ref.execute("update t set c = null where a = 1")

    fault = FaultVfs(base=base)
    counting = _CountingVfs(fault)
    db = Database(path, vfs=counting)
    if cache_size:
        db.bt.cache_size = cache_size
    run(db, "update t set c = null where a = 1")   # randomblob: make the content comparable
    fault.fail_at(n, persistent=persistent, ops=ops)
    tx_failed = False
    for kind, sql in WORKLOAD:
        if kind == "tx" and tx_failed:
            continue
        ctl = sql in ("begin", "commit")
        ref_err = None
        if not ctl:
            ref.execute("savepoint s")
            try:
                ref.execute(sql)
            except sqlite3.Error as e:
                ref_err = str(e)
        try:
            run(db, sql)
            err = None
        except errors.OperationalError as e:
            err = str(e)
            if err not in OK_MESSAGES and err != ref_err:
                return f"n={n}: {sql!r} raised OperationalError({err!r})"
        except Exception as e:  # noqa: BLE001 - any other class is the finding
            if str(e) != ref_err:
                return f"n={n}: {sql!r} raised {type(e).__name__}: {e}"
            err = str(e)
        if err is None and ref_err is not None:
            return f"n={n}: {sql!r} succeeded; sqlite3 says {ref_err!r}"
        if not ctl:
            if err is not None:
                ref.execute("rollback to s")
            ref.execute("release s")
        elif err is None:
            ref.execute(sql)
        if err in OK_MESSAGES:
            fault.clear()
            if kind == "tx":
                tx_failed = True
                if not db.autocommit:
                    try:
                        run(db, "rollback")
                    except Exception as e:  # noqa: BLE001
                        return f"n={n}: rollback after I/O error raised {type(e).__name__}: {e}"
                if not ref.in_transaction:
                    pass
                else:
                    ref.execute("rollback")
    fault.clear()
    try:
        ic = [r[0] for r in run(db, "pragma integrity_check")]
        got = engine_dump(db)
    except Exception as e:  # noqa: BLE001
        return f"n={n}: connection unusable after the fault: {type(e).__name__}: {e}"
    if ic != ["ok"]:
        return f"n={n}: integrity_check on the same connection: {ic[:3]}"
    want = sqlite_dump(ref)
    if got != want:
        return f"n={n}: content differs from the statements that succeeded"
    db.close()
    if counting.open_handles:
        return f"n={n}: {counting.open_handles} file handle(s) left open after close"
    db2 = Database(path, vfs=base)
    ic2 = [r[0] for r in run(db2, "pragma integrity_check")]
    got2 = engine_dump(db2)
    db2.close()
    if ic2 != ["ok"] or got2 != want:
        return f"n={n}: reopened file: integrity {ic2[:2]}, content equal {got2 == want}"
    if use_os:
        with open(path, "rb") as f:
            image = f.read()
        if use_os and fds_before >= 0 and _fd_count() != fds_before:
            return f"n={n}: OS file descriptors {fds_before} before, {_fd_count()} after"
    else:
        image = bytes(base.files[path])
    ic3, dump3 = sqlite_check_bytes(image)
    if ic3 != ["ok"] or dump3 != want:
        return f"n={n}: sqlite3 on the file: integrity {ic3[:2]}, content equal {dump3 == want}"
    return None


def count_ops(ops=None, cache_size=None) -> int:
    """How many VFS operations (of the kinds in ``ops``) the workload makes (the range of N)."""
    base = MemoryVfs()
    db = Database("db", vfs=base)
    for sql in SETUP:
        run(db, sql)
    db.close()
    fault = FaultVfs(base=base)
    db = Database("db", vfs=fault)
    if cache_size:
        db.bt.cache_size = cache_size
    run(db, "update t set c = null where a = 1")
    fault.fail_at(10 ** 9, ops=ops)
    for _kind, sql in WORKLOAD:
        run(db, sql)
    n = fault.count
    db.close()
    return n


def run_loop(persistent_modes=(False, True), use_os=False, step=1, limit=None,
             ops=None, cache_size=None) -> dict:
    total = count_ops(ops, cache_size)
    ns = list(range(1, total + 2, step))
    if limit:
        ns = ns[:limit]
    stats = {"ops": total, "trials": 0, "failures": []}
    with tempfile.TemporaryDirectory() as d:
        for persistent in persistent_modes:
            for n in ns:
                err = one_trial(n, persistent, use_os, d, ops, cache_size)
                stats["trials"] += 1
                if err:
                    stats["failures"].append(("persistent" if persistent else "once") + " " + err)
    return stats


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--persistent", choices=["once", "persistent", "both"], default="both")
    ap.add_argument("--os", action="store_true", help="real files (OsVfs) under the fault VFS")
    ap.add_argument("--step", type=int, default=1, help="try every STEP-th N")
    ap.add_argument("--ops", default=None,
                    help="comma-separated kinds to fail: read,write,sync,truncate,delete")
    ap.add_argument("--cache-size", type=int, default=None,
                    help="page cache of the faulted connection (small: more reads, spills)")
    a = ap.parse_args(argv)
    ops = a.ops.split(",") if a.ops else None
    modes = {"once": (False,), "persistent": (True,), "both": (False, True)}[a.persistent]
    t0 = time.process_time()
    st = run_loop(modes, a.os, a.step, ops=ops, cache_size=a.cache_size)
    print(f"I/O-error trials: {st['trials']} (workload of {st['ops']} VFS operations)  "
          f"failures: {len(st['failures'])}  cpu: {time.process_time() - t0:.1f}s")
    classes: dict = {}
    for f in st["failures"]:
        key = f.split(": ", 1)[1] if ": " in f else f
        classes.setdefault(key, []).append(f)
    for key, fs in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(fs):5d} x {key[:160]}  (first: {fs[0][:60]})")
    return 1 if st["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
