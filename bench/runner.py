"""Runs one workload on one engine in a fresh process and reports time and peak memory.

``python -m bench.runner WORKLOAD MODULE SCALE`` prints one JSON line:
{"seconds": ..., "cpu_seconds": ..., "peak_rss_kb": ..., "base_rss_kb": ...}. ``seconds`` is
the wall time of the workload's timed part, ``cpu_seconds`` the CPU time of that part.
Memory: the process's resident-set high-water mark is reset after the untimed setup (Linux
``/proc/self/clear_refs``), so ``peak_rss_kb - base_rss_kb`` is what the timed part added
on top of the resident size it started with; where the reset is not available the
high-water mark since the engine's import is used instead.

Before anything else each process runs the same small warm-up script (``WARM_UP``: a
table, an index, inserts, lookups, a scan, GROUP BY, ORDER BY ... LIMIT, joins with and
without an index, LIKE, GLOB, UPDATE, DELETE, VACUUM) on a 200-row database file of its own,
for both engines alike. So the engine's one-time start-up (the first use of its code: for
sqlengine about 2 MB of its compiled modules' pages, mapped on the first join) is not
counted as a workload's time or memory, as it would not be in a program that has run
queries before. The warm-up's tables and statements are not the workloads', and statement
caches are per connection, so nothing of the timed part is prepared in advance.
A workload with ``reopen = True`` (cold open) is set up by a separate process; this process
then times opening the file and the first query.
Running each measurement in its own process keeps the engines from sharing caches.
This module never prints anything but the JSON line.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

from bench.workloads import WORKLOADS


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status") as f:
            m = re.search(rf"^{field}:\s+(\d+) kB", f.read(), re.M)
        return int(m.group(1)) if m else None
    except OSError:
        return None


def _reset_peak() -> bool:
    """Reset the resident-set high-water mark (VmHWM); False when not supported."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return _status_kb("VmHWM") is not None
    except OSError:
        return False


WARM_UP = (
    "CREATE TABLE warm(id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BLOB)",
    "CREATE TABLE warm_k(k INTEGER, v TEXT)",
    ("INSERT INTO warm VALUES (?,?,?,?,?)",
     [(i, i % 37, i / 200, "s%dab%d" % (i, i % 5), bytes([i % 256]) * 8) for i in range(200)]),
    ("INSERT INTO warm_k VALUES (?,?)", [(i * 3 % 200, "v%d" % i) for i in range(100)]),
    "CREATE INDEX warm_i ON warm(i)",
    "SELECT * FROM warm WHERE id = 7",
    "SELECT * FROM warm WHERE i = 7",
    "SELECT id, s FROM warm WHERE i BETWEEN 10 AND 20",
    "SELECT count(*), sum(i), avg(r) FROM warm WHERE r > 0.5",
    "SELECT i % 7, count(*), sum(r) FROM warm GROUP BY i % 7",
    "SELECT id FROM warm ORDER BY r DESC LIMIT 3",
    "SELECT count(*), sum(warm.i) FROM warm JOIN warm_k ON warm_k.k = warm.id",
    "SELECT count(*), sum(warm.i) FROM warm_k JOIN warm ON warm_k.k = warm.r",
    "SELECT count(*) FROM warm WHERE s LIKE '%ab%'",
    "SELECT count(*) FROM warm WHERE s GLOB '*ab*'",
    "UPDATE warm SET i = i + 1 WHERE id BETWEEN 10 AND 30",
    "DELETE FROM warm WHERE id % 2 = 0",
    "VACUUM",
)


def warm_up(module, path: str) -> None:
    """Run ``WARM_UP`` (statements, and (INSERT, rows) pairs) on a fresh database file at ``path`` (see the module docstring)."""
    con = module.connect(path)
    for step in WARM_UP:
        if type(step) is tuple:  # (INSERT, its rows)
            con.executemany(*step)
            continue
        if step == "VACUUM":
            con.commit()  # VACUUM cannot run inside the module's implicit transaction
        con.execute(step).fetchall()
    con.close()


def _workload(name: str, module_name: str, scale: float):
    cls = WORKLOADS[name]
    w = cls()
    w.module_name = module_name  # for workloads that open their own connections (corpus)
    return cls, w, max(1, int(cls.base * scale))


def setup_only(name: str, module_name: str, scale: float, path: str) -> None:
    module = importlib.import_module(module_name)
    _cls, w, n = _workload(name, module_name, scale)
    con = module.connect(path)
    w.setup(con, n)
    con.close()


def measure(name: str, module_name: str, scale: float) -> dict:
    module = importlib.import_module(module_name)
    cls, w, n = _workload(name, module_name, scale)
    reopen = getattr(cls, "reopen", False)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.db")
        warm_up(module, os.path.join(tmp, "warm.db"))
        if reopen:
            subprocess.run([sys.executable, "-m", "bench.runner", "--setup", name, module_name,
                            str(scale), path], check=True)
        else:
            con = module.connect(path)
            w.setup(con, n)
        if _reset_peak():
            base = _status_kb("VmRSS")
        else:
            base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        cpu = time.process_time()
        if reopen:
            con = module.connect(path)
        w.run(con, n)
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu
        peak = _status_kb("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        con.close()
    return {"seconds": seconds, "cpu_seconds": cpu, "peak_rss_kb": peak, "base_rss_kb": base}


if __name__ == "__main__":
    if sys.argv[1] == "--setup":
        setup_only(sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5])
    else:
        print(json.dumps(measure(sys.argv[1], sys.argv[2], float(sys.argv[3]))))
