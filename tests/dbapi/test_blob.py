"""Incremental blob I/O (Connection.blobopen) against the stdlib, beyond the basics of
test_dbapi: writes that fire no trigger and count no change, the values and tables that
cannot be opened, text values, the write transaction a blob holds until it is closed, and
a handle whose row changed under it."""

from __future__ import annotations

import sqlite3 as oracle

SETUP = """
create table t(id integer primary key, b blob, s text, n);
insert into t values(1, x'0102030405', 'héllo', 7);
create view v as select * from t;
create table w(a primary key, b) without rowid;
insert into w values(1, x'00');
create table log(x);
create trigger tr after update on t begin insert into log values(old.id); end;
"""


def _script(module, path):
    con = module.connect(path, isolation_level=None)
    con.executescript(SETUP)
    out = []

    def attempt(fn):
        try:
            out.append(("ok", fn()))
        except (module.Error, ValueError, IndexError) as e:
            out.append(("error", type(e).__name__, str(e)))

    before = con.total_changes
    with con.blobopen("t", "b", 1) as blob:
        blob.write(b"ab")
        blob[4] = 9
    out.append(con.total_changes - before)
    out.append(con.execute("select b, (select count(*) from log) from t").fetchall())
    for args in [("v", "b", 1), ("w", "b", 1), ("t", "id", 1), ("t", "b", -5),
                 ("t", "n", 1), ("log", "x", 1)]:
        attempt(lambda args=args: len(con.blobopen(*args)))
    with con.blobopen("t", "s", 1) as blob:
        out.append((len(blob), blob.read()))
        blob.seek(0)
        blob.write(b"J")
    out.append(con.execute("select s, typeof(s) from t").fetchall())
    con.execute("create index ib on t(b)")
    attempt(lambda: con.blobopen("t", "b", 1))
    attempt(lambda: con.blobopen("t", "b", 1, readonly=True).read())
    con.execute("drop index ib")
    # a write holds the file's write transaction until the blob is closed
    other = module.connect(path)
    blob = con.blobopen("t", "b", 1)
    blob.write(b"zz")
    out.append(other.execute("select b from t").fetchall())
    blob.close()
    out.append(other.execute("select b from t").fetchall())
    other.close()
    con.execute("begin")
    with con.blobopen("t", "b", 1) as blob:
        blob.write(b"qq")
    con.execute("rollback")
    out.append(con.execute("select b from t").fetchall())
    blob = con.blobopen("t", "b", 1)
    con.execute("update t set b = x'0909090909'")
    attempt(blob.read)
    con.close()
    return out


def test_blob_matches_sqlite3(sqlite, tmp_path):
    assert _script(sqlite, str(tmp_path / "got.db")) == \
        _script(oracle, str(tmp_path / "expected.db"))
