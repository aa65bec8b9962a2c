"""Database.interrupt() stops a running statement with SQLite's 'interrupted' error, and the
connection stays usable."""

import pytest

from sqlengine import errors
from sqlengine.database import Database


def test_interrupt_from_inside_a_running_statement():
    db = Database(":memory:")
    db.execute("CREATE TABLE t(x)")
    db.execute("INSERT INTO t VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10)")
    seen = []

    def probe(v):
        seen.append(v)
        if len(seen) == 50:
            db.interrupt()
        return v

    db.create_function("probe", 1, probe)
    with pytest.raises(errors.OperationalError, match="interrupted"):
        # the term reads every table, so the planner tests it in the innermost loop (as sqlite3)
        db.execute("SELECT count(*) FROM t a, t b, t c, t d WHERE probe(a.x + b.x + c.x + d.x) > 0")
    assert 50 <= len(seen) < 10000
    assert db.execute("SELECT count(*) FROM t") == [(10,)]
