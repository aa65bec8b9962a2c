"""The bench's warm-up script (bench/runner.py WARM_UP) runs on both engines alike.

The warm-up is run before every measurement so neither engine's one-time start-up is
counted; it is only fair if it does the same work on both, so the two databases it leaves
must hold the same rows.
"""

from __future__ import annotations

import sqlite3

import sqlengine
from bench.runner import warm_up


def _contents(module, path):
    con = module.connect(path)
    try:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                for t in ("warm", "warm_k")}
    finally:
        con.close()


def test_warm_up_leaves_the_same_database_on_both_engines(tmp_path):
    ours, theirs = tmp_path / "ours.db", tmp_path / "theirs.db"
    warm_up(sqlengine, str(ours))
    warm_up(sqlite3, str(theirs))
    got, want = _contents(sqlengine, str(ours)), _contents(sqlite3, str(theirs))
    assert len(want["warm"]) == 100 and len(want["warm_k"]) == 100
    assert got == want
