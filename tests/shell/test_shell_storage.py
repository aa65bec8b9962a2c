""".pages and .btree show the file as it is: their figures equal SQLite's dbstat virtual
table (pgno, owner, path, page type, cells, payload, unused bytes) on the same file (read
and written through the stdlib sqlite3 module, whose library has dbstat)."""

from __future__ import annotations

import sqlite3

BUILD = """
create table t(a, b);
with recursive r(x) as (values(1) union all select x + 1 from r where x < 300)
insert into t select x, randomblob(x * 20) from r;
create index ti on t(a);
create table s(x text);
insert into s values('short');
delete from t where a % 7 = 0;
"""


def dbstat(path, where=""):
    query = ("select pageno, name, path, pagetype, ncell, payload, unused from dbstat "
             f"{where}")
    con = sqlite3.connect(path)
    try:
        return "".join("|".join(str(v) for v in row) + "\n" for row in con.execute(query))
    finally:
        con.close()


def build(path):
    con = sqlite3.connect(path)
    con.executescript(BUILD)
    con.close()


def test_pages_of_a_sqlite3_file_match_dbstat(shell, tmp_path):
    path = tmp_path / "made_by_sqlite3.db"
    build(path)
    out, err, code = shell.ours("", (str(path), ".pages"))
    assert (err, code) == ("", 0)
    assert out == dbstat(path, "order by pageno")


def test_btree_of_a_sqlite3_file_follows_dbstat(shell, tmp_path):
    path = tmp_path / "made_by_sqlite3.db"
    build(path)
    out, err, code = shell.ours("", (str(path), ".btree T"))
    assert (err, code) == ("", 0)
    lines = out.splitlines()
    expected = [row.split("|") for row in dbstat(path, "where name = 't'").splitlines()]
    assert lines[0] == f"t: b-tree rooted at page {expected[0][0]}, {len(expected)} pages"
    shown = [line.split() for line in lines[1:]]
    assert [(s[0], s[1], s[2]) for s in shown] == [(e[0], e[3], e[2]) for e in expected]
    assert [s[3:] for s in shown] == [[f"cells={e[4]}", f"payload={e[5]}", f"unused={e[6]}"]
                                      for e in expected]
    assert all(line.startswith("    ") for line in lines[2:])


def test_pages_of_our_own_file_match_dbstat(shell, tmp_path):
    script = ("create table t(a, b);\n"
              + "".join(f"insert into t values({i}, '{'x' * (i * 50)}');\n" for i in range(60))
              + ".pages\n")
    out, err, code = shell.ours(script, ("ours.db",))
    assert (err, code) == ("", 0)
    assert out == dbstat(shell.ours_dir / "ours.db", "order by pageno")


def test_btree_unknown_table(shell):
    out, err, code = shell.ours(".btree nosuch\n")
    assert err == "Error: no such table or index: nosuch\n" and code == 1
