"""PRAGMA journal_size_limit in PERSIST journal mode: at each commit the journal, kept on
disk with a zeroed header, is cut to the limit when it is larger (SQLite's
zeroJournalHdr), a limit of 0 empties it instead of zeroing its header, and -1 (the
default) keeps it whole. The journal's size on disk after each commit, and the answers of
the pragma, are compared with sqlite3's on the same statements."""

from __future__ import annotations

import os
import sqlite3

import pytest

import sqlengine

LIMITS = ["0", "1", "600", "5000", "-1", "-7", "0x800"]  # (below every journal here)


def _sizes(module, path, limit, journal_mode="persist"):
    con = module.connect(str(path), isolation_level=None)
    journal = str(path) + "-journal"
    out = [con.execute(f"pragma journal_mode={journal_mode}").fetchall(),
           con.execute(f"pragma journal_size_limit={limit}").fetchall(),
           con.execute("pragma journal_size_limit").fetchall()]
    con.execute("create table t(a, b)")
    con.execute("begin")
    con.executemany("insert into t values(?, ?)", [(i, "x" * 300) for i in range(200)])
    con.execute("commit")
    sizes = [os.path.getsize(journal) if os.path.exists(journal) else None]
    con.execute("update t set b = 'y' || b")  # (every page journaled: the largest journal)
    sizes.append(os.path.getsize(journal) if os.path.exists(journal) else None)
    con.execute("delete from t where a % 2")
    sizes.append(os.path.getsize(journal) if os.path.exists(journal) else None)
    out.append(con.execute("pragma integrity_check").fetchall())
    con.close()
    return out, sizes


@pytest.mark.parametrize("limit", LIMITS)
def test_persist_journal_cut_as_sqlite(tmp_path, limit):
    mine = _sizes(sqlengine, tmp_path / "e.db", limit)
    ref = _sizes(sqlite3, tmp_path / "s.db", limit)
    n = int(limit, 0)
    if n < 0:  # (no limit: the journal keeps what the transaction wrote, engine's own size)
        assert mine[0] == ref[0]
        assert all(s is not None and s > 28 for s in mine[1])
    else:
        assert mine == ref
        assert all(s <= n for s in mine[1])


@pytest.mark.parametrize("mode", ["delete", "truncate"])
def test_other_modes_unchanged(tmp_path, mode):
    """DELETE removes the journal, TRUNCATE empties it, whatever the limit."""
    assert _sizes(sqlengine, tmp_path / "e.db", "600", mode) == \
        _sizes(sqlite3, tmp_path / "s.db", "600", mode)
