"""Read transactions opened and closed per statement (autocommit): each one takes the
lock, checks for a hot journal and re-reads the header, so a change another connection
commits in between is seen; and a cached statement run again starts from a clean run
state (its Once flags). Compared with the stdlib sqlite3 doing the same."""

import os
import sqlite3

import sqlengine
from sqlengine.vfs.osfile import OsVfs


def test_autocommit_reads_see_other_connections_commits(tmp_path):
    path = str(tmp_path / "a.db")
    writer = sqlengine.connect(path)
    reader = sqlengine.connect(path)
    ref = sqlite3.connect(":memory:")
    for con in (writer, ref):
        con.execute("create table t(id integer primary key, v text)")
        con.commit()
    got, want = [], []
    for step in range(40):
        for con in (writer, ref):
            # rows big enough to grow the file by pages between two reads
            con.executemany("insert into t values (?, ?)",
                            [(step * 50 + k, "v" * 200) for k in range(50)])
            con.commit()
        for con, out in ((reader, got), (ref, want)):
            out.append(con.execute("select count(*), max(id) from t where id >= ?",
                                   (step,)).fetchall())
            out.append(con.execute("select v from t where id = ?", (step * 50,)).fetchall())
    assert got == want
    writer.close()
    reader.close()


def test_file_size_and_journal_probe(tmp_path):
    vfs = OsVfs()
    path = str(tmp_path / "f.bin")
    f = vfs.open(path, "journal")
    assert f.size() == 0
    f.write(5000, b"x" * 10)
    assert f.size() == os.path.getsize(path) == 5010
    f.truncate(100)
    assert f.size() == 100
    assert f.read(0, 4) == bytes(4)  # reads are positioned: size() moved no offset they use
    f.close()
    assert vfs.exists(path)
    assert not vfs.exists(path + "-journal")
    vfs.delete(path)
    assert not vfs.exists(path)


def test_cached_statement_with_once_runs_again(tmp_path):
    """An uncorrelated IN subquery is built once per run (Once): a second run of the
    cached statement builds it again from the rows as they are then."""
    cons = [sqlengine.connect(str(tmp_path / "o.db")), sqlite3.connect(":memory:")]
    out = []
    for con in cons:
        con.execute("create table a(x)")
        con.execute("create table b(y)")
        con.execute("create table log(n)")
        con.execute("create trigger tr after insert on a begin "
                    "insert into log select count(*) from b where y in (select x from a); end")
        rows = []
        for k in range(6):
            con.execute("insert into b values (?)", (k,))
            con.execute("insert into a values (?)", (k * 2,))
            rows.append(con.execute("select y from b where y in (select x from a) order by y",
                                    ()).fetchall())
        con.executemany("insert into a values (?)", [(1,), (3,), (5,)])
        rows.append(con.execute("select n from log order by rowid").fetchall())
        out.append(rows)
        con.close()
    assert out[0] == out[1]


def test_memory_database_statements_follow_schema_rolled_back():
    # an in-memory database reads its schema cookie from the cached page 1 at the start of
    # a statement (no lock, no header re-read): a schema change undone by ROLLBACK or
    # ROLLBACK TO must still be seen by the next statement, as in sqlite3
    script = [
        "create table a(x)",
        "begin", "create table b(y)", "insert into b values (1)", "rollback",
        "select name from sqlite_schema order by name",
        "savepoint s", "drop table a", "create table a(z, w)", "rollback to s", "release s",
        "insert into a values (2)",
        "select * from a",
        "select * from b",
    ]

    def run(con):
        out = []
        for sql in script:
            try:
                out.append(con.execute(sql).fetchall())
            except Exception as e:
                out.append(("error", str(e)))
        return out

    assert run(sqlengine.connect(":memory:", isolation_level=None)) == \
        run(sqlite3.connect(":memory:", isolation_level=None))


def test_begin_cookie_is_begin_then_get_meta(tmp_path):
    for path in (":memory:", str(tmp_path / "c.db")):
        con = sqlengine.connect(path, isolation_level=None)
        con.execute("create table t(x)")
        con.execute("create index i on t(x)")
        bt = con._db.bt
        assert bt.in_trans == 0
        cookie = bt.begin_cookie()
        assert bt.in_trans == 1 and cookie == bt.get_meta(1) == 2
        bt.commit()
        assert bt.in_trans == 0
        con.close()
