"""PRAGMA integrity_check on WITHOUT ROWID tables: each secondary index is compared with the
table (an entry holds the index columns, then the PRIMARY KEY columns it lacks), on files
made by sqlite3 and then damaged, against sqlite3's own messages. sqlengine returns the
index messages in the one row the page check gives (sqlite3 gives each its own row), so
the messages are compared line by line."""

import sqlite3

import pytest

import sqlengine

SCHEMA = """
CREATE TABLE t(a TEXT, b INT, c, d TEXT, PRIMARY KEY(b, a)) WITHOUT ROWID;
INSERT INTO t VALUES('x',1,10,'pppp1'),('y',1,20,'qqqq1'),('x',2,30,'rrrr1'),('z',3,10,'ssss1');
CREATE INDEX tc ON t(c);
CREATE INDEX td ON t(d, a);
CREATE TABLE u(k TEXT COLLATE NOCASE PRIMARY KEY, v, w) WITHOUT ROWID;
INSERT INTO u VALUES('A',1,'mmmm2'),('b',2,'nnnn2');
CREATE UNIQUE INDEX uw ON u(w DESC);
"""


def _messages(rows):
    return [line for (r,) in rows for line in str(r).split("\n")]


def _both(path):
    a = sqlite3.connect(path)
    try:
        want = _messages(a.execute("PRAGMA integrity_check").fetchall())
    finally:
        a.close()
    b = sqlengine.connect(path)
    try:
        got = _messages(b.execute("PRAGMA integrity_check").fetchall())
    finally:
        b.close()
    return want, got


def _make(path, extra=""):
    c = sqlite3.connect(path)
    c.executescript(SCHEMA + extra)
    c.commit()
    c.close()


def _rewrite_schema(path, sql):
    c = sqlite3.connect(path)
    c.execute("PRAGMA writable_schema=ON")
    c.executescript(sql)
    c.commit()
    c.close()


def _patch_page(path, index, old: bytes, new: bytes):
    """Replace ``old`` by ``new`` in the root page of ``index`` only."""
    c = sqlite3.connect(path)
    root = c.execute("SELECT rootpage FROM sqlite_schema WHERE name = ?", (index,)).fetchone()[0]
    size = c.execute("PRAGMA page_size").fetchone()[0]
    c.close()
    data = bytearray(open(path, "rb").read())
    page = data[(root - 1) * size: root * size]
    assert page.count(old) == 1
    data[(root - 1) * size: root * size] = page.replace(old, new)
    open(path, "wb").write(bytes(data))


def test_clean_file_ok(tmp_path):
    p = str(tmp_path / "a.db")
    _make(p)
    assert _both(p) == (["ok"], ["ok"])


@pytest.mark.parametrize("index,old,new", [
    ("td", b"qqqq1", b"qqqq9"),      # an indexed value
    ("tc", b"\x15", b"\x16"),        # (not used: see the test body)
    ("uw", b"nnnn2", b"nnnn3"),      # a UNIQUE DESC index on a NOCASE key
])
def test_damaged_entry(tmp_path, index, old, new):
    p = str(tmp_path / "a.db")
    _make(p)
    if index == "tc":  # the key part of an entry: the PRIMARY KEY text 'z' of row (3,'z')
        old, new = b"z", b"w"
    _patch_page(p, index, old, new)
    want, got = _both(p)
    assert want != ["ok"]
    assert got == want


def test_index_redefined(tmp_path):
    """Every entry of the index disagrees with what the table says it holds."""
    p = str(tmp_path / "a.db")
    _make(p)
    _rewrite_schema(p, "UPDATE sqlite_schema SET sql='CREATE INDEX tc ON t(d)' WHERE name='tc'")
    want, got = _both(p)
    assert len(want) == 4
    assert got == want


def test_wrong_entry_count(tmp_path):
    """Two tables' indexes swapped: rows missing and wrong counts."""
    p = str(tmp_path / "a.db")
    _make(p, "CREATE TABLE v(a TEXT, b INT, c, d TEXT, PRIMARY KEY(b, a)) WITHOUT ROWID;"
             "INSERT INTO v VALUES('x',1,10,'pppp1'),('z',3,11,'zz');"
             "CREATE INDEX vc ON v(c);")
    c = sqlite3.connect(p)
    vc = c.execute("SELECT rootpage FROM sqlite_schema WHERE name='vc'").fetchone()[0]
    tc = c.execute("SELECT rootpage FROM sqlite_schema WHERE name='tc'").fetchone()[0]
    c.close()
    _rewrite_schema(p, f"UPDATE sqlite_schema SET rootpage={vc} WHERE name='tc';"
                       f"UPDATE sqlite_schema SET rootpage={tc} WHERE name='vc';")
    want, got = _both(p)
    assert any(m.startswith("wrong # of entries") for m in want)
    assert got == want


def test_added_column_and_generated(tmp_path):
    """Columns added later (not stored in old rows) and a VIRTUAL generated column."""
    p = str(tmp_path / "a.db")
    _make(p, "ALTER TABLE t ADD COLUMN e DEFAULT 7;"
             "CREATE INDEX te ON t(e, d);"
             "CREATE TABLE g(k INT PRIMARY KEY, x, y AS (x * 2)) WITHOUT ROWID;"
             "INSERT INTO g(k, x) VALUES(1, 5), (2, 6);"
             "CREATE INDEX gy ON g(y);"
             "CREATE INDEX gx ON g(x);")
    assert _both(p) == (["ok"], ["ok"])
    _patch_page(p, "td", b"rrrr1", b"rrrr2")
    want, got = _both(p)
    assert want != ["ok"]
    assert got == want


def test_written_by_sqlengine_ok(tmp_path):
    p = str(tmp_path / "b.db")
    c = sqlengine.connect(p)
    c.executescript(SCHEMA + "UPDATE t SET c = c + 1 WHERE b = 1; DELETE FROM u WHERE k = 'a';")
    c.commit()
    c.close()
    assert _both(p) == (["ok"], ["ok"])


@pytest.mark.parametrize("n", [3, 9, 10, 23, 70])
def test_many_tables_in_sqlite_order(tmp_path, n):
    """Damage in many tables, rowid and WITHOUT ROWID, views among them: the messages come
    in the order sqlite3 visits its schema's tables (its hash table's order)."""
    p = str(tmp_path / "m.db")
    sql = []
    for i in range(n):
        wr = " WITHOUT ROWID" if i % 2 else ""
        sql.append(f"CREATE TABLE Tab_{i}(a INT PRIMARY KEY, b, c){wr};"
                   f"INSERT INTO Tab_{i} VALUES(1, 'b{i}', 1), (2, 'x', 2);"
                   f"CREATE INDEX ix_{i} ON Tab_{i}(b);")
        if i % 3 == 0:
            sql.append(f"CREATE VIEW v_{i} AS SELECT * FROM Tab_{i};")
    c = sqlite3.connect(p)
    c.executescript("".join(sql))
    c.commit()
    c.close()
    _rewrite_schema(p, "".join(
        f"UPDATE sqlite_schema SET sql='CREATE INDEX ix_{i} ON Tab_{i}(c)' "
        f"WHERE name='ix_{i}';" for i in range(n)))
    want, got = _both(p)
    assert len(want) == min(2 * n, 100)
    assert got == want
