"""Hooks: trace callback, progress handler, authorizer, interrupt, callback tracebacks
(like CPython's test_hooks.py)."""

from __future__ import annotations

import pytest

# -- trace callback ------------------------------------------------------------------------


def test_trace_statements(con):
    log = []
    con.set_trace_callback(log.append)
    con.execute("create table t(a, b)")
    con.execute("insert into t values(?, ?)", (1, "it's"))
    con.executemany("insert into t values(?, ?)", [(2.5, None), (b"\x01\xab", 10**18)])
    con.commit()
    con.execute("select :x, @y, ?3", {"x": 1e20, "y": -1, "3": "z"}).fetchall()
    assert log == [
        "create table t(a, b)",
        "BEGIN ",
        "insert into t values(1, 'it''s')",
        "insert into t values(2.5, NULL)",
        "insert into t values(x'01ab', 1000000000000000000)",
        "COMMIT",
        "select 1.0e+20, -1, 'z'",
    ]


def test_trace_parameters_in_strings_untouched(con):
    log = []
    con.set_trace_callback(log.append)
    con.execute("select '?', \":x\", ? -- ?", (5,))
    assert log == ["select '?', \":x\", 5 -- ?"]


def test_trace_executescript(con):
    log = []
    con.set_trace_callback(log.append)
    con.executescript("create table t(a);\n insert into t values(1); select 2")
    assert log == ["create table t(a);", "\n insert into t values(1);", " select 2"]


def test_trace_disabled_and_errors_ignored(con):
    log = []
    con.set_trace_callback(log.append)
    con.set_trace_callback(None)
    con.execute("select 1")
    assert log == []
    con.set_trace_callback(lambda statement: 1 / 0)
    assert con.execute("select 1").fetchall() == [(1,)]


def test_trace_failed_statement_not_traced(con, sqlite):
    log = []
    con.set_trace_callback(log.append)
    with pytest.raises(sqlite.OperationalError):
        con.execute("select * from nosuch")
    assert log == []


# -- progress handler ------------------------------------------------------------------------


def test_progress_handler_called(con):
    calls = []
    con.set_progress_handler(lambda: calls.append(1), 1)
    con.execute("with recursive r(x) as (values(1) union all select x + 1 from r where x < 50)"
                " select x from r").fetchall()
    assert len(calls) > 0


def test_progress_handler_aborts(con, sqlite):
    con.set_progress_handler(lambda: 1, 1)
    with pytest.raises(sqlite.OperationalError, match="^interrupted$"):
        con.execute("with recursive r(x) as (values(1) union all select x + 1 from r "
                    "where x < 50) select x from r").fetchall()


def test_progress_handler_exception_aborts(con, sqlite):
    con.set_progress_handler(lambda: 1 / 0, 1)
    with pytest.raises(sqlite.OperationalError, match="^interrupted$"):
        con.execute("with recursive r(x) as (values(1) union all select x + 1 from r "
                    "where x < 50) select x from r").fetchall()


def test_progress_handler_removed(con):
    con.set_progress_handler(lambda: 1, 1)
    con.set_progress_handler(None, 1)
    assert con.execute("select 1").fetchall() == [(1,)]


def test_progress_handler_zero_disables(con):
    con.set_progress_handler(lambda: 1, 0)
    assert con.execute("select 1").fetchall() == [(1,)]


# -- authorizer -------------------------------------------------------------------------------


@pytest.fixture
def authed(con):
    con.execute("create table t(a, b)")
    con.execute("insert into t values(1, 2)")
    con.commit()
    return con


def test_authorizer_sees_actions(authed, sqlite):
    seen = []

    def authorizer(action, arg1, arg2, dbname, source):
        seen.append((action, arg1, arg2, dbname, source))
        return sqlite.SQLITE_OK

    authed.set_authorizer(authorizer)
    authed.execute("select a from t").fetchall()
    assert seen == [(sqlite.SQLITE_SELECT, None, None, None, None),
                    (sqlite.SQLITE_READ, "t", "a", "main", None)]


def test_authorizer_deny(authed, sqlite):
    authed.set_authorizer(lambda action, table, column, db, src:
                          sqlite.SQLITE_DENY if column == "b" else sqlite.SQLITE_OK)
    assert authed.execute("select a from t").fetchall() == [(1,)]
    with pytest.raises(sqlite.DatabaseError, match="^access to t.b is prohibited$"):
        authed.execute("select b from t")


def test_authorizer_ignore(authed, sqlite):
    authed.set_authorizer(lambda action, table, column, db, src:
                          sqlite.SQLITE_IGNORE if column == "b" else sqlite.SQLITE_OK)
    assert authed.execute("select a, b from t").fetchall() == [(1, None)]


@pytest.mark.parametrize("callback", [lambda *args: 1 / 0, lambda *args: "x",
                                      lambda *args: 2**70])
def test_authorizer_bad_callbacks_deny(authed, sqlite, callback):
    authed.set_authorizer(callback)
    with pytest.raises(sqlite.DatabaseError, match="^not authorized$"):
        authed.execute("select a from t")


def test_authorizer_removed(authed, sqlite):
    authed.set_authorizer(lambda *args: sqlite.SQLITE_DENY)
    authed.set_authorizer(None)
    assert authed.execute("select a from t").fetchall() == [(1,)]


# -- interrupt --------------------------------------------------------------------------------


def test_interrupt_inside_query(con, sqlite):
    def stop(x):
        if x == 5:
            con.interrupt()
        return x

    con.create_function("stop", 1, stop)
    with pytest.raises(sqlite.OperationalError, match="^interrupted$"):
        con.execute("with recursive r(x) as (values(1) union all select x + 1 from r "
                    "where x < 1000) select stop(x) from r").fetchall()
    assert con.execute("select 1").fetchall() == [(1,)]


# -- callback tracebacks --------------------------------------------------------------------------


def test_callback_tracebacks(con, sqlite, monkeypatch):
    hooked = []
    monkeypatch.setattr("sys.unraisablehook", hooked.append)
    con.create_function("boom", 0, lambda: 1 / 0)
    sqlite.enable_callback_tracebacks(True)
    try:
        with pytest.raises(sqlite.OperationalError):
            con.execute("select boom()")
    finally:
        sqlite.enable_callback_tracebacks(False)
    assert [h.exc_type for h in hooked] == [ZeroDivisionError]
    hooked.clear()
    with pytest.raises(sqlite.OperationalError):
        con.execute("select boom()")
    assert hooked == []
