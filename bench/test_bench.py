"""The workloads of ``bench/workloads.py`` under pytest-benchmark: ``pytest bench/``.

Each workload is one benchmark group holding both engines, so pytest-benchmark's table
shows them together and ``--benchmark-compare`` tracks them across commits. Scale with
``BENCH_SCALE`` (default 0.1 for a quick run).
"""

from __future__ import annotations

import importlib
import os

import pytest

from bench.workloads import WORKLOADS

SCALE = float(os.environ.get("BENCH_SCALE", "0.1"))
ENGINES = ["sqlengine", "sqlite3"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", list(WORKLOADS))
def test_workload(benchmark, tmp_path, name, engine):
    module = importlib.import_module(engine)
    cls = WORKLOADS[name]
    n = max(1, int(cls.base * SCALE))
    benchmark.group = name
    counter = iter(range(10**6))

    def setup():
        path = tmp_path / f"b{next(counter)}.db"
        con = module.connect(str(path))
        w = cls()
        w.module_name = engine
        w.setup(con, n)
        if getattr(cls, "reopen", False):
            con.close()
            con = module.connect(str(path))
        return (w, con, n), {}

    def run(w, con, n):
        w.run(con, n)
        con.close()

    benchmark.pedantic(run, setup=setup, rounds=3, iterations=1)
