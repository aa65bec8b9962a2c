"""The VACUUM statement (and VACUUM INTO) compared with the stdlib sqlite3: the file shrinks,
the freelist empties, a pending PRAGMA page_size takes effect, the content and the errors are
sqlite3's, and sqlite3 reads the rebuilt files."""

import os
import sqlite3

import pytest

import sqlengine

ENGINES = [sqlite3, sqlengine]


def _fill(m, path):
    c = m.connect(path, isolation_level=None)
    c.execute("BEGIN")
    c.execute("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)")
    c.execute("CREATE INDEX ib ON t(b)")
    c.execute("CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID")
    c.executemany("INSERT INTO t VALUES(?, ?)", [(i, "x" * (i % 300)) for i in range(3000)])
    c.executemany("INSERT INTO w VALUES(?, ?)", [(f"k{i:05}", i) for i in range(2000)])
    c.execute("DELETE FROM t WHERE a % 3 = 0")
    c.execute("DELETE FROM w WHERE v % 2 = 0")
    c.execute("COMMIT")
    return c


def _content(c):
    return (c.execute("SELECT a, b FROM t ORDER BY a").fetchall(),
            c.execute("SELECT k, v FROM w ORDER BY k").fetchall(),
            c.execute("SELECT count(*) FROM t WHERE b > 'xxx'").fetchall())


@pytest.mark.parametrize("m", ENGINES, ids=lambda m: m.__name__)
def test_vacuum_empties_freelist_and_shrinks(m, tmp_path):
    path = str(tmp_path / "v.db")
    c = _fill(m, path)
    before = _content(c)
    free = c.execute("PRAGMA freelist_count").fetchone()[0]
    pages = c.execute("PRAGMA page_count").fetchone()[0]
    assert free > 0
    c.execute("VACUUM")
    assert c.execute("PRAGMA freelist_count").fetchone()[0] == 0
    assert c.execute("PRAGMA page_count").fetchone()[0] <= pages - free
    assert os.path.getsize(path) == c.execute("PRAGMA page_count").fetchone()[0] * 4096
    assert _content(c) == before
    assert c.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    c.close()
    s = sqlite3.connect(path)
    assert _content(s) == before
    assert s.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


@pytest.mark.parametrize("m", ENGINES, ids=lambda m: m.__name__)
def test_page_size_takes_effect_at_vacuum(m, tmp_path):
    path = str(tmp_path / "p.db")
    c = _fill(m, path)
    before = _content(c)
    c.execute("PRAGMA page_size = 8192")
    assert c.execute("PRAGMA page_size").fetchone()[0] == 4096
    c.execute("VACUUM")
    assert c.execute("PRAGMA page_size").fetchone()[0] == 8192
    assert _content(c) == before
    c.close()
    s = sqlite3.connect(path)
    assert s.execute("PRAGMA page_size").fetchone()[0] == 8192
    assert s.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert _content(s) == before


@pytest.mark.parametrize("m", ENGINES, ids=lambda m: m.__name__)
def test_vacuum_into(m, tmp_path):
    path = str(tmp_path / "src.db")
    out = str(tmp_path / "out.db")
    c = _fill(m, path)
    before = _content(c)
    c.execute("VACUUM INTO ?", (out,))
    assert _content(c) == before
    s = sqlite3.connect(out)
    assert s.execute("PRAGMA freelist_count").fetchone()[0] == 0
    assert s.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert _content(s) == before
    s.close()
    with pytest.raises(m.OperationalError, match="output file already exists"):
        c.execute("VACUUM INTO ?", (out,))


def _error(m, setup, sql, params=()):
    c = m.connect(":memory:", isolation_level=None)
    for s in setup:
        c.execute(s)
    try:
        c.execute(sql, params)
    except m.Error as e:
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("sql,params", [
    ("VACUUM nosuch", ()),
    ("VACUUM INTO 5", ()),
    ("VACUUM INTO NULL", ()),
    ("VACUUM INTO x'00'", ()),
    ("VACUUM INTO ?", (None,)),
    ("VACUUM INTO '/nonexistent-dir/x/f.db'", ()),
    ("VACUUM", ()),
    ("VACUUM temp", ()),
    ("VACUUM main", ()),
])
def test_vacuum_errors_match(sql, params):
    setup = ["CREATE TABLE t(x)", "INSERT INTO t VALUES(1)"]
    assert _error(sqlengine, setup, sql, params) == _error(sqlite3, setup, sql, params)


@pytest.mark.parametrize("m", ENGINES, ids=lambda m: m.__name__)
def test_vacuum_refused_in_transaction_and_with_running_statement(m):
    c = m.connect(":memory:", isolation_level=None)
    c.execute("CREATE TABLE t(x)")
    c.executemany("INSERT INTO t VALUES(?)", [(i,) for i in range(10)])
    c.execute("BEGIN")
    with pytest.raises(m.OperationalError, match="cannot VACUUM from within a transaction"):
        c.execute("VACUUM")
    c.execute("COMMIT")
    cur = c.execute("SELECT x FROM t")
    cur.fetchone()
    with pytest.raises(m.OperationalError, match="cannot VACUUM - SQL statements in progress"):
        c.execute("VACUUM")
    cur.close()
    c.execute("VACUUM")
    assert c.execute("SELECT count(*) FROM t").fetchone() == (10,)
