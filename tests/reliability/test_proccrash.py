"""Real process crashes (tools/proccrash.py): the check applied after each SIGKILL.

The kills themselves run on demand (``python -m tools.proccrash --trials 200``): they are
not in this suite while a kill during the database-write phase of a commit can leave the new
page 1 over rolled-back pages (the pager journals page 1 after syncing the journal; see the
issue 11 report), which a handful of kills would hit about once in fifteen runs."""

from tools.proccrash import rows_of, verify


def test_verify_notices_a_lost_commit(tmp_path):
    """The check is live: a file missing a reported transaction is refused."""
    import sqlite3
    path = str(tmp_path / "v.db")
    con = sqlite3.connect(path)
    con.execute("create table log(k integer, i integer, payload, keep)")
    con.execute("create table meta(id integer primary key, last integer)")
    con.execute("insert into meta values(1, 2)")
    con.executemany("insert into log values(?, ?, x'00', ?)",
                    [(k, i, i % 2) for k in (1, 2) for i in range(rows_of(k))])
    con.commit()
    assert verify(path, 2) is None
    assert verify(path, 3) is not None          # a reported commit is missing
    con.execute("delete from log where k = 2 and i = 0")
    con.commit()
    con.close()
    assert "transaction 2" in verify(path, 2)
