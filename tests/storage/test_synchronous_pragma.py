"""PRAGMA synchronous reaches the pager: OFF commits without syncing the files, NORMAL and
FULL sync them (FULL also syncs the journal before its header is made valid: more syncs)."""

from __future__ import annotations

import os

import sqlengine


def _syncs(tmp_path, monkeypatch, level):
    calls = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real(fd))[1])
    con = sqlengine.connect(str(tmp_path / f"s{level}.db"), isolation_level=None)
    con.execute(f"PRAGMA synchronous = {level}")
    con.execute("CREATE TABLE t(a)")
    calls.clear()
    con.execute("INSERT INTO t VALUES (1)")
    n = len(calls)
    assert con.execute("SELECT * FROM t").fetchall() == [(1,)]
    con.close()
    return n


def test_synchronous_levels_sync_as_set(tmp_path, monkeypatch):
    off = _syncs(tmp_path, monkeypatch, "OFF")
    normal = _syncs(tmp_path, monkeypatch, "NORMAL")
    full = _syncs(tmp_path, monkeypatch, "FULL")
    assert off == 0
    assert 0 < normal < full
