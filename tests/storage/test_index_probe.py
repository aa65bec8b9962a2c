"""Index searches against sqlite3: the b-tree's search compares each cell on its path with the
probe record, whose header it parses once (an unpacked probe of at most 32 fields; a wider
key is compared as bytes). Random inserts, deletes and lookups on indexes of mixed-type keys
(integers of every width, reals equal to integers, text under NOCASE, blobs, NULL, DESC
fields) and on a 40-column index: the rows read through each index, and the file sqlengine
wrote (checked by sqlite3's integrity_check), must be sqlite3's."""

import random
import sqlite3

import pytest

import sqlengine

WIDE = 40
SCHEMA = [
    "CREATE TABLE t(a INTEGER PRIMARY KEY, b, c, d)",
    "CREATE INDEX tb ON t(b)",
    "CREATE INDEX tcd ON t(c COLLATE NOCASE DESC, d)",
    "CREATE UNIQUE INDEX tdb ON t(d DESC, b, a)",
    "CREATE TABLE w(%s)" % ", ".join("x%d" % i for i in range(WIDE)),
    "CREATE INDEX wx ON w(%s)" % ", ".join("x%d" % i for i in range(WIDE)),
]


def _value(rnd):
    r = rnd.random()
    if r < 0.45:
        return rnd.choice([0, 1, -1, 127, -129, 40000, -(2**23), 2**31, 2**40, -(2**47),
                           2**62, rnd.randint(-300, 300)])
    if r < 0.6:
        return rnd.choice([0.0, 1.0, -2.5, 2.0**40, 1e-3, rnd.randint(-300, 300) + 0.0])
    if r < 0.85:
        return rnd.choice(["a", "A", "ab", "AB", "b", "", "\u00e9", "Zz"]) * rnd.randint(1, 3)
    if r < 0.93:
        return rnd.choice([b"", b"\x00", b"a", b"ab"])
    return None


def _statements(seed):
    rnd = random.Random(seed)
    out = []
    for _ in range(400):
        op = rnd.random()
        if op < 0.55:
            out.append(("INSERT OR REPLACE INTO t VALUES(?,?,?,?)",
                        (rnd.randint(1, 300), _value(rnd), _value(rnd), _value(rnd))))
        elif op < 0.7:
            out.append(("DELETE FROM t WHERE b = ?", (_value(rnd),)))
        elif op < 0.8:
            out.append(("DELETE FROM t WHERE c = ? COLLATE NOCASE", (_value(rnd),)))
        else:
            row = [rnd.choice([rnd.randint(0, 3), "k", None]) for _ in range(WIDE)]
            out.append(("INSERT INTO w VALUES(%s)" % ", ".join("?" * WIDE), tuple(row)))
            if rnd.random() < 0.3:
                out.append(("DELETE FROM w WHERE x0 = ? AND x1 = ?", tuple(row[:2])))
    return out


QUERIES = [
    "SELECT b, a FROM t INDEXED BY tb ORDER BY b, a",
    "SELECT c, d, a FROM t INDEXED BY tcd ORDER BY c COLLATE NOCASE DESC, d, a",
    "SELECT d, b, a FROM t INDEXED BY tdb ORDER BY d DESC, b, a",
    "SELECT a FROM t INDEXED BY tb WHERE b = 1 ORDER BY a",
    "SELECT a FROM t INDEXED BY tb WHERE b > 2.5 AND b < 'b' ORDER BY a",
    "SELECT a FROM t INDEXED BY tcd WHERE c = 'ab' ORDER BY a",
    "SELECT * FROM w INDEXED BY wx ORDER BY %s" % ", ".join("x%d" % i for i in range(WIDE)),
    "SELECT count(*) FROM w INDEXED BY wx WHERE x0 = 1 AND x1 = 'k'",
]


@pytest.mark.parametrize("seed", range(4))
def test_index_searches_match_sqlite3(tmp_path, seed):
    path = tmp_path / "ours.db"
    con = sqlengine.connect(str(path), isolation_level=None)
    ref = sqlite3.connect(":memory:", isolation_level=None)
    con.execute("PRAGMA synchronous=OFF")
    for c in (con, ref):
        c.execute("PRAGMA page_size=1024")
        for sql in SCHEMA:
            c.execute(sql)
        c.execute("BEGIN")
    for sql, params in _statements(seed):
        err = None
        try:
            ref.execute(sql, params)
        except sqlite3.IntegrityError as e:
            err = str(e)
        if err is None:
            con.execute(sql, params)
        else:
            with pytest.raises(sqlengine.IntegrityError, match=err):
                con.execute(sql, params)
    for c in (con, ref):
        c.execute("COMMIT")
    for q in QUERIES:
        assert con.execute(q).fetchall() == ref.execute(q).fetchall(), q
    con.close()
    back = sqlite3.connect(str(path))
    assert back.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    for q in QUERIES:
        assert back.execute(q).fetchall() == ref.execute(q).fetchall(), q
    back.close()
