"""Runs one workload on one engine in a fresh process and reports time and peak memory.

``python -m bench.runner WORKLOAD MODULE SCALE`` prints one JSON line:
{"seconds": ..., "cpu_seconds": ..., "peak_rss_kb": ..., "base_rss_kb": ...}. ``seconds`` is
the wall time of the workload's timed part, ``cpu_seconds`` the CPU time of that part.
Memory: the process's resident-set high-water mark is reset after the untimed setup (Linux
``/proc/self/clear_refs``), so ``peak_rss_kb - base_rss_kb`` is what the timed part added
on top of the resident size it started with; where the reset is not available the
high-water mark since the engine's import is used instead.

A workload with ``reopen = True`` (cold open) is set up by a separate process; this process
imports the engine, runs one throwaway statement on an in-memory database (so the engine's
own one-time start-up is not counted) and then times opening the file and the first query.
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
        if reopen:
            subprocess.run([sys.executable, "-m", "bench.runner", "--setup", name, module_name,
                            str(scale), path], check=True)
            warm = module.connect(":memory:")
            warm.execute("SELECT 1").fetchall()
            warm.close()
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
