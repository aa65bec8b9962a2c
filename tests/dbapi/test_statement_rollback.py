"""What a failing statement leaves behind inside a transaction, compared with sqlite3: the
statement's own changes undone (ABORT), kept (FAIL) or the whole transaction gone
(ROLLBACK, an interrupted writer), for executemany rows, multi-row INSERTs, INSERT ...
SELECT, triggers and REPLACE. A one-row INSERT runs without a statement savepoint (its
checks all come before its first write), so these cases also hold that it still leaves
nothing half done."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine

SCHEMA = [
    "create table t(id integer primary key, a unique, b not null, c check(c >= 0), d)",
    "create index t_d on t(d)",
    "create table log(x unique)",
    "insert into t values(1, 'one', 1, 1, 'p')",
]


def outcome(module, script, isolation_level=None):
    """What each step of ``script`` gives (rowcount and rows, or the error), whether a
    transaction is open after it, and at the end every table's rows, total_changes and
    integrity_check."""
    con = module.connect(":memory:", isolation_level=isolation_level)
    for sql in SCHEMA:
        con.execute(sql)
    con.commit()
    log = []
    for step in script:
        sql, params = (step, ()) if isinstance(step, str) else step
        try:
            if isinstance(params, list):
                cur = con.executemany(sql, params)
            else:
                cur = con.execute(sql, params)
            log.append(("ok", cur.rowcount, cur.fetchall()))
        except module.Error as e:
            log.append((type(e).__name__, str(e)))
        log.append(con.in_transaction)
    for table in ("t", "log"):
        log.append(con.execute(f"select * from {table} order by 1").fetchall())
    log.append(con.total_changes)
    log.append(con.execute("pragma integrity_check").fetchall())
    con.close()
    return log


def same_as_sqlite(script, isolation_level=None):
    want = outcome(sqlite3, script, isolation_level)
    got = outcome(sqlengine, script, isolation_level)
    assert got == want
    return got


ROWS = [(2, "two", 2, 2, "q"), (3, "three", 3, 3, "r")]


@pytest.mark.parametrize("bad", [
    (4, "one", 4, 4, "s"),        # UNIQUE on a (its index entry would be written first)
    (4, "four", None, 4, "s"),    # NOT NULL
    (4, "four", 4, -1, "s"),      # CHECK
    (1, "four", 4, 4, "s"),       # the INTEGER PRIMARY KEY
], ids=["unique", "notnull", "check", "pk"])
@pytest.mark.parametrize("where", [0, 1, 2], ids=["first", "middle", "last"])
def test_executemany_row_failing_in_the_implicit_transaction(bad, where):
    rows = list(ROWS)
    rows.insert(where, bad)
    log = same_as_sqlite([("insert into t values(?,?,?,?,?)", rows)], isolation_level="")
    assert log[0][0] == "IntegrityError"


@pytest.mark.parametrize("action", ["", "or abort", "or fail", "or ignore", "or rollback",
                                    "or replace"])
def test_one_row_insert_with_each_conflict_action(action):
    same_as_sqlite([
        "begin",
        "insert into t values(2, 'two', 2, 2, 'q')",
        f"insert {action} into t values(3, 'one', 3, 3, 'r')",
        f"insert {action} into t values(2, 'new', 3, 3, 'r')",
        "insert into t values(5, 'five', 5, 5, 's')",
        "commit",
    ])


@pytest.mark.parametrize("action", ["", "or abort", "or fail", "or ignore", "or rollback",
                                    "or replace"])
def test_multi_row_insert_failing_half_way(action):
    same_as_sqlite([
        "begin",
        "insert into t values(2, 'two', 2, 2, 'q')",
        f"insert {action} into t values(3, 'three', 3, 3, 'r'), (4, 'four', 4, 4, 's'),"
        " (5, 'one', 5, 5, 't'), (6, 'six', 6, 6, 'u')",
        "commit",
    ])


@pytest.mark.parametrize("action", ["", "or fail", "or ignore", "or rollback"])
def test_insert_select_failing_half_way(action):
    same_as_sqlite([
        "begin",
        "insert into log values(10)",
        f"insert {action} into t select 10 + x, 'n' || x, x, 2 - x, null from "
        "(select 1 as x union all select 2 union all select 3 union all select 4)",
        "commit",
    ])


def test_trigger_failing_undoes_the_row_that_fired_it():
    same_as_sqlite([
        "create trigger tr after insert on t begin insert into log values(new.d); end",
        "begin",
        "insert into t values(2, 'two', 2, 2, 'q')",
        "insert into t values(3, 'three', 3, 3, 'q')",   # the trigger's row is not unique
        ("insert into t values(?,?,?,?,?)", [(4, "four", 4, 4, "r"), (5, "five", 5, 5, "r")]),
        "commit",
    ])


def test_replace_then_a_later_constraint_failing():
    """The INTEGER PRIMARY KEY's REPLACE deletes the old row before the UNIQUE check of
    another column fails: the deletion must be undone with the statement."""
    same_as_sqlite([
        "create table r(a integer primary key on conflict replace, b unique)",
        "insert into r values(10, 'p')",
        "insert into r values(20, 'x')",
        "begin",
        "insert into r values(10, 'x')",
        "insert into log select group_concat(a || b) from r",
        "commit",
    ])


def test_executemany_rows_are_separate_statements_in_an_explicit_transaction():
    same_as_sqlite([
        "begin",
        ("insert into t values(?,?,?,?,?)", [(2, "two", 2, 2, "q"), (3, "two", 3, 3, "r"),
                                             (4, "four", 4, 4, "s")]),
        "insert into t values(5, 'five', 5, 5, 's')",
        "commit",
    ])


@pytest.mark.parametrize("sql", [
    "insert into t values(2, 'two', 2, 2, 'q')",
    "update t set d = 'z'",
    "select * from t",
], ids=["one-row-insert", "update", "select"])
def test_interrupt_inside_a_transaction(sql):
    """sqlite3 rolls back the whole transaction when a writing statement is interrupted
    (a reading one leaves it open)."""
    def run(module):
        con = module.connect(":memory:", isolation_level=None)
        for s in SCHEMA:
            con.execute(s)
        con.execute("begin")
        con.execute("insert into log values(1)")
        con.set_progress_handler(lambda: 1, 1)
        try:
            con.execute(sql).fetchall()
            err = None
        except module.Error as e:
            err = str(e)
        con.set_progress_handler(None, 1)
        return err, con.in_transaction, con.execute("select * from log").fetchall()

    assert run(sqlengine) == run(sqlite3)
