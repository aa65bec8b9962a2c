"""The progress handler counts VM instructions (sqlite3_progress_handler), not rows, and
interrupt() stops a statement that is running: checked on sqlite3 and on sqlengine."""

from __future__ import annotations

import threading

import pytest

COUNT_SQL = ("with recursive r(x) as (values(1) union all select x + 1 from r where x < 2000)"
             " select count(*) from r")


def test_progress_handler_runs_inside_a_one_row_statement(con):
    calls = []
    con.set_progress_handler(lambda: calls.append(1), 100)
    assert con.execute(COUNT_SQL).fetchall() == [(2000,)]
    # thousands of instructions before the single row: the handler ran many times
    assert len(calls) >= 20


def test_progress_handler_period_scales_the_calls(con):
    counts = []
    for n in (1, 10):
        calls = []
        con.set_progress_handler(lambda calls=calls: calls.append(1), n)
        con.execute(COUNT_SQL).fetchall()
        counts.append(len(calls))
    assert counts[1] > 0
    assert counts[0] >= 5 * counts[1]


def test_progress_handler_opcode_count(con):
    # CPython's test_opcode_count: a handler every 2 instructions runs at most as often as
    # one every instruction
    opcodes = 0

    def progress():
        nonlocal opcodes
        opcodes += 1
        return 0

    con.set_progress_handler(progress, 1)
    con.execute("create table foo(a, b)")
    first = opcodes
    opcodes = 0
    con.set_progress_handler(progress, 2)
    con.execute("create table bar(a, b)")
    assert first >= opcodes > 0


def test_progress_handler_interrupts_before_the_first_row(con, sqlite):
    calls = []

    def stop_after_ten():
        calls.append(1)
        return len(calls) >= 10

    con.set_progress_handler(stop_after_ten, 50)
    with pytest.raises(sqlite.OperationalError, match="^interrupted$"):
        con.execute(COUNT_SQL).fetchall()
    assert len(calls) == 10
    con.set_progress_handler(None, 0)
    assert con.execute("select 1").fetchall() == [(1,)]


def test_interrupt_stops_a_running_statement(con, sqlite):
    finished = threading.Event()

    def keep_interrupting():
        while not finished.wait(0.02):
            con.interrupt()

    worker = threading.Thread(target=keep_interrupting)
    worker.start()
    try:
        with pytest.raises(sqlite.OperationalError, match="^interrupted$"):
            # endless without the interrupt
            con.execute("with recursive r(x) as (values(1) union all select x + 1 from r)"
                        " select count(*) from r").fetchall()
    finally:
        finished.set()
        worker.join()
    assert con.execute("select 2").fetchall() == [(2,)]
