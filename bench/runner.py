"""Runs one workload on one engine in a fresh process and reports time and peak memory.

``python -m bench.runner WORKLOAD MODULE SCALE`` prints one JSON line:
{"seconds": ..., "peak_rss_kb": ..., "base_rss_kb": ...}, where base is the
high-water mark after importing the engine and peak the one at the end (setup included). Running each measurement in its
own process keeps the engines from sharing caches and lets ru_maxrss measure one run.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import sys
import tempfile
import time

from bench.workloads import WORKLOADS


def measure(workload_name: str, module_name: str, scale: float) -> dict:
    module = importlib.import_module(module_name)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cls = WORKLOADS[workload_name]
    n = max(1, int(cls.base * scale))
    w = cls()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.db")
        con = module.connect(path)
        w.setup(con, n)
        if getattr(cls, "reopen", False):
            con.close()
        start = time.perf_counter()
        if getattr(cls, "reopen", False):
            con = module.connect(path)
        w.run(con, n)
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        con.close()
    return {"seconds": seconds, "peak_rss_kb": peak, "base_rss_kb": base}


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], sys.argv[2], float(sys.argv[3]))))
