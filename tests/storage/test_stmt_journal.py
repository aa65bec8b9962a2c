"""The statement journal (savepoint page images) beyond STMT_SPILL_PAGES spills to a
temporary file: a statement that fails after changing many pages is still undone exactly,
nested savepoints roll back through spilled images, and memory stays flat."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine
from sqlengine.storage import pager as P


def _run(mod, path):
    con = mod.connect(path, isolation_level=None)
    con.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, u INTEGER UNIQUE, s TEXT)")
    con.execute("BEGIN")
    con.executemany("INSERT INTO t VALUES (?, ?, ?)",
                    [(i, i, "row %d " % i * 20) for i in range(3000)])
    out = []
    # the UPDATE fails at its last row (5001 is row 1's new u), after changing every page
    for sql in ["UPDATE t SET s = s || 'x', u = CASE WHEN id = 2999 THEN 5001 ELSE u + 5000 END",
                "DELETE FROM t WHERE id % 3 = 0"]:
        try:
            con.execute(sql)
            out.append("ok")
        except Exception as e:  # the same exception class from both engines
            out.append(type(e).__name__)
    con.execute("SAVEPOINT a")
    con.execute("UPDATE t SET s = 'changed' WHERE id < 2000")
    con.execute("SAVEPOINT b")
    con.execute("DELETE FROM t WHERE id >= 1000")
    con.execute("ROLLBACK TO b")
    out.append(con.execute("SELECT count(*), min(s), max(s) FROM t").fetchall())
    con.execute("ROLLBACK TO a")
    out.append(con.execute("SELECT count(*), sum(u), max(s), min(s) FROM t").fetchall())
    con.execute("COMMIT")
    out.append(con.execute("PRAGMA integrity_check").fetchall())
    out.append(con.execute("SELECT * FROM t ORDER BY id").fetchall())
    con.close()
    return out


@pytest.mark.parametrize("spill_pages", [1, 16])
def test_statement_rollback_through_spilled_images(tmp_path, monkeypatch, spill_pages):
    monkeypatch.setattr(P, "STMT_SPILL_PAGES", spill_pages)
    expected = _run(sqlite3, str(tmp_path / "a.db"))
    got = _run(sqlengine, str(tmp_path / "b.db"))
    assert got[:2] == ["IntegrityError", "ok"] == expected[:2]
    assert got[2:] == expected[2:]
