"""An INSERT with a known rowid seeks the table once: the NotExists before the Insert
leaves the cursor where the row goes and the b-tree insert uses that place (SQLite's
OPFLAG_USESEEKRESULT) unless the cursor moved or the tree changed in between (a BEFORE
trigger writing the same table, REPLACE deleting the conflicting row). Contents and
integrity compared with the stdlib sqlite3."""

import random
import sqlite3

import pytest

import sqlengine

SETUPS = [
    "create table t(id integer primary key, v)",
    "create table t(id integer primary key, v); create index t_v on t(v)",
    # a BEFORE trigger moving rows of the same table under the INSERT's cursor
    "create table t(id integer primary key, v); "
    "create trigger tr before insert on t when new.id % 7 = 0 begin "
    "delete from t where id = new.id - 3; update t set v = 'trig' where id = new.id + 1; end",
]


def _run(con, setup, seed):
    rng = random.Random(seed)
    con.executescript(setup)
    ids = list(range(1, 1500))
    rng.shuffle(ids)
    for n, k in enumerate(ids):
        verb = rng.choice(["insert or replace", "insert or ignore", "insert"])
        try:
            con.execute(f"{verb} into t values (?, ?)", (k, "x" * rng.randint(0, 300)))
        except (sqlite3.IntegrityError, sqlengine.IntegrityError):
            pass
        if n % 200 == 0:
            con.commit()
    con.executemany("insert or replace into t values (?, ?)",
                    [(rng.randint(1, 2000), n) for n in range(500)])
    con.commit()
    return (con.execute("select id, v from t order by id").fetchall(),
            con.execute("pragma integrity_check").fetchall())


@pytest.mark.parametrize("setup", SETUPS)
@pytest.mark.parametrize("seed", [1, 2])
def test_inserts_match_sqlite3(tmp_path, setup, seed):
    ours = _run(sqlengine.connect(str(tmp_path / "a.db")), setup, seed)
    ref = _run(sqlite3.connect(str(tmp_path / "b.db")), setup, seed)
    assert ours == ref
    assert ours[1] == [("ok",)]
