"""PRAGMA data_version: unchanged by a connection's own commits and rollbacks, one more
each time a read finds the file changed by another connection (from an empty file, an
existing one, autocommit and explicit transactions), differential against sqlite3."""

import sqlite3

import sqlengine


def _versions(mod, path, fresh):
    if not fresh:
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE t(x)")
        con.execute("INSERT INTO t VALUES(1)")
        con.commit()
        con.close()
    a = mod.connect(path, isolation_level=None)
    b = mod.connect(path, isolation_level=None)

    def dv(c):
        return c.execute("PRAGMA data_version").fetchone()[0]
    out = [dv(a), dv(b)]
    if fresh:
        a.execute("CREATE TABLE t(x)")
        out += [dv(a), dv(b)]
    a.execute("INSERT INTO t VALUES(2)")
    out += [dv(a), dv(b), dv(b)]
    b.execute("INSERT INTO t VALUES(3)")
    out += [dv(a), dv(b)]
    a.execute("BEGIN")
    a.execute("INSERT INTO t VALUES(4)")
    out.append(dv(a))
    a.execute("ROLLBACK")
    out += [dv(a), dv(b)]
    b.execute("BEGIN")
    b.execute("INSERT INTO t VALUES(5)")
    out.append(dv(a))
    b.execute("COMMIT")
    out += [dv(a), dv(b)]
    out += b.execute("SELECT * FROM pragma_data_version").fetchall()
    out += a.execute("SELECT * FROM pragma_data_version").fetchall()
    a.close()
    b.close()
    return out


def test_data_version_from_an_empty_file(tmp_path):
    ours = _versions(sqlengine, str(tmp_path / "ours.db"), True)
    assert ours == _versions(sqlite3, str(tmp_path / "theirs.db"), True)
    assert max(v for v in ours if isinstance(v, int)) > 1


def test_data_version_of_an_existing_file(tmp_path):
    ours = _versions(sqlengine, str(tmp_path / "ours.db"), False)
    assert ours == _versions(sqlite3, str(tmp_path / "theirs.db"), False)


def test_data_version_in_memory():
    for mod in (sqlengine, sqlite3):
        con = mod.connect(":memory:", isolation_level=None)
        con.execute("CREATE TABLE t(a)")
        con.execute("INSERT INTO t VALUES(1)")
        assert con.execute("PRAGMA data_version").fetchall() == [(1,)]
