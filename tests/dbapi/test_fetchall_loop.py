"""fetchall() steps the rest of a result in one engine call (Statement.step_rows): the rows,
the errors raised part way and the cursor's state afterwards are those of a step-by-step
fetch, checked on sqlite3, the ctypes stand-in and sqlengine."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.engine


@pytest.fixture
def ten(con):
    con.execute("CREATE TABLE t(a INTEGER, b TEXT)")
    con.executemany("INSERT INTO t VALUES(?, ?)", [(i, f"r{i}") for i in range(10)])
    return con


def test_fetchall_after_fetchone_returns_the_rest(ten):
    cur = ten.execute("SELECT a, b FROM t ORDER BY a")
    assert cur.fetchone() == (0, "r0")
    assert cur.fetchmany(2) == [(1, "r1"), (2, "r2")]
    assert cur.fetchall() == [(i, f"r{i}") for i in range(3, 10)]
    assert cur.fetchall() == []
    assert cur.fetchone() is None


def test_fetchall_of_one_and_of_no_row(ten):
    assert ten.execute("SELECT count(*) FROM t").fetchall() == [(10,)]
    assert ten.execute("SELECT a FROM t WHERE a > 100").fetchall() == []


def test_error_part_way_through_fetchall(sqlite, ten):
    def fail_at_five(x):
        if x == 5:
            raise ValueError("five")
        return x

    ten.create_function("f", 1, fail_at_five)
    cur = ten.execute("SELECT f(a) FROM t")
    with pytest.raises(sqlite.OperationalError, match="user-defined function raised exception"):
        cur.fetchall()
    assert cur.fetchall() == []
    # the statement ended: the connection writes and reads on
    ten.execute("INSERT INTO t VALUES(10, 'r10')")
    assert cur.execute("SELECT count(*) FROM t").fetchall() == [(11,)]


def test_integer_overflow_part_way_through_fetchall(sqlite, ten):
    ten.execute("INSERT INTO t VALUES(-9223372036854775808, 'min')")
    cur = ten.execute("SELECT abs(a) FROM t")
    assert cur.fetchone() == (0,)
    with pytest.raises(sqlite.OperationalError, match="integer overflow"):
        cur.fetchall()
    assert ten.execute("SELECT count(*) FROM t").fetchall() == [(11,)]


def test_interrupt_from_a_function_stops_fetchall(sqlite, ten):
    def interrupt_at_two(x):
        if x == 2:
            ten.interrupt()
        return x

    ten.create_function("g", 1, interrupt_at_two)
    cur = ten.execute("SELECT g(a) FROM t")
    with pytest.raises(sqlite.OperationalError, match="interrupted"):
        cur.fetchall()
    assert ten.execute("SELECT count(*) FROM t").fetchall() == [(10,)]


def test_fetchall_on_a_connection_shared_between_threads(sqlite):
    con = sqlite.connect(":memory:", check_same_thread=False)
    try:
        con.execute("CREATE TABLE t(a)")
        con.executemany("INSERT INTO t VALUES(?)", [(i,) for i in range(5)])
        cur = con.execute("SELECT a FROM t ORDER BY a")
        assert cur.fetchone() == (0,)
        assert cur.fetchall() == [(1,), (2,), (3,), (4,)]
    finally:
        con.close()
