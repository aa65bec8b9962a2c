"""Text whose bytes are not UTF-8 goes through the DB-API with its bytes kept: written by
sqlite3 and read, changed and written back by sqlengine (and the other way), handed over
as bytes by text_factory=bytes and to converters, as the stdlib hands them."""

import sqlite3

import pytest

import sqlengine

RAW = [b"A\xffB", b"\xe2\x82", b"\x80", b"\xc3\xa9\xff", b"\xed\xa0\x80", b"ok"]


def _fill(mod, path):
    con = mod.connect(path)
    con.execute("CREATE TABLE t(k INTEGER PRIMARY KEY, a TEXT)")
    con.executemany("INSERT INTO t(a) VALUES (CAST(? AS TEXT))", [(r,) for r in RAW])
    con.commit()
    con.close()


def _hexes(mod, path):
    con = mod.connect(path)
    try:
        return con.execute("SELECT hex(a), length(a) FROM t ORDER BY k").fetchall()
    finally:
        con.close()


@pytest.mark.parametrize("writer,editor", [(sqlite3, sqlengine), (sqlengine, sqlite3),
                                           (sqlengine, sqlengine)])
def test_bytes_survive_both_engines(tmp_path, writer, editor):
    path = str(tmp_path / "u.db")
    _fill(writer, path)
    assert _hexes(sqlengine, path) == _hexes(sqlite3, path)
    con = editor.connect(path)
    con.execute("UPDATE t SET a = a || CAST(x'fe' AS TEXT) WHERE k % 2 = 0")
    con.execute("INSERT INTO t(a) SELECT a FROM t WHERE k <= 2")
    con.commit()
    con.close()
    expect = [(r + (b"\xfe" if k % 2 == 0 else b"")).hex().upper()
              for k, r in enumerate(RAW, 1)]
    expect += expect[:2]
    assert [h for h, _n in _hexes(sqlite3, path)] == expect
    assert _hexes(sqlengine, path) == _hexes(sqlite3, path)


@pytest.mark.parametrize("mod", [sqlite3, sqlengine])
def test_text_factory_bytes_and_converters(tmp_path, mod):
    path = str(tmp_path / "u.db")
    _fill(sqlite3, path)
    con = mod.connect(path, detect_types=mod.PARSE_COLNAMES)
    con.text_factory = bytes
    assert [r for (r,) in con.execute("SELECT a FROM t ORDER BY k")] == RAW
    con.text_factory = str
    saved = dict(mod.converters)  # (the registry is the module's: restored after)
    mod.register_converter("RAW", lambda b: b)
    try:
        got = [r for (r,) in con.execute('SELECT a AS "a [RAW]" FROM t ORDER BY k')]
    finally:
        mod.converters.clear()
        mod.converters.update(saved)
        con.close()
    assert got == RAW


def test_engines_agree_on_functions_of_such_text():
    queries = [
        "SELECT hex(a), length(a), unicode(a), hex(upper(a)), hex(a || a) FROM t ORDER BY k",
        "SELECT hex(group_concat(a, '|')) FROM t",
        "SELECT hex(char(55296, 97)), length(char(55296, 97))",
        "SELECT hex(printf('%.1s', 'é')), hex(json_extract('\"\\ud800\"', '$'))",
    ]
    cons = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.execute("CREATE TABLE t(k INTEGER PRIMARY KEY, a TEXT)")
        con.executemany("INSERT INTO t(a) VALUES (CAST(? AS TEXT))", [(r,) for r in RAW])
        cons.append(con)
    for q in queries:
        assert cons[1].execute(q).fetchall() == cons[0].execute(q).fetchall(), q
