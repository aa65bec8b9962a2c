"""Real process crashes (tools/proccrash.py): a child process committing in a loop is killed
with SIGKILL at random moments; after each kill the file passes integrity_check (sqlengine's
and sqlite3's) and holds every transaction the child reported, the one in flight entirely or
not at all. The suite runs a few kills; ``python -m tools.proccrash --trials 200`` runs more."""

from tools.proccrash import rows_of, run_trials, verify


def test_sigkill_loses_no_reported_commit(tmp_path):
    st = run_trials(6, seed=3, max_delay=0.6, workdir=str(tmp_path))
    assert st["failures"] == []
    assert st["trials"] == 6
    assert st["commits"] >= 6


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
