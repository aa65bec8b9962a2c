"""Corner cases the stdlib module's regression suite cares about: statement cache and schema
changes, several cursors on one statement, recursive cursor use, odd but legal input
(like CPython's test_regression.py)."""

from __future__ import annotations

import gc

import pytest


def test_cached_statement_after_schema_change(con):
    con.execute("create table t(a, b)")
    assert [d[0] for d in con.execute("select * from t").description] == ["a", "b"]
    con.execute("drop table t")
    con.execute("create table t(c)")
    con.execute("insert into t values(1)")
    assert [d[0] for d in con.execute("select * from t").description] == ["c"]
    assert con.execute("select * from t").fetchall() == [(1,)]


def test_schema_change_by_executescript(con):
    con.executescript("create table t(a); insert into t values(1);")
    assert con.execute("select * from t").fetchall() == [(1,)]
    con.executescript("drop table t; create table t(x, y); insert into t values(2, 3);")
    assert con.execute("select * from t").fetchall() == [(2, 3)]


def test_two_cursors_same_sql(con):
    sql = "with r(x) as (values(1), (2)) select x from r"
    first = con.execute(sql)
    second = con.execute(sql)
    assert first.fetchone() == (1,)
    assert second.fetchone() == (1,)
    assert first.fetchone() == (2,)
    assert second.fetchall() == [(2,)]


def test_cursor_reexecuted_before_fetching_all(con):
    cur = con.execute("with r(x) as (values(1), (2)) select x from r")
    cur.execute("select 3")
    assert cur.fetchall() == [(3,)]


def test_more_statements_than_cache(sqlite):
    con = sqlite.connect(":memory:", cached_statements=2)
    for i in range(10):
        assert con.execute(f"select {i}").fetchone() == (i,)
    for i in range(10):
        assert con.execute(f"select {i}").fetchone() == (i,)


def test_zero_cached_statements(sqlite):
    con = sqlite.connect(":memory:", cached_statements=0)
    for _ in range(3):
        assert con.execute("select 1").fetchone() == (1,)


def test_recursive_cursor_use_in_converter(sqlite):
    con = sqlite.connect(":memory:", detect_types=sqlite.PARSE_COLNAMES)
    cur = con.cursor()
    saved = dict(sqlite.converters)

    def converter(data):
        cur.execute("select 2")
        return data

    sqlite.register_converter("RECURSE", converter)
    try:
        with pytest.raises(sqlite.ProgrammingError, match="^Recursive use of cursors not allowed.$"):
            cur.execute('select 1 as "x [recurse]"').fetchall()
    finally:
        sqlite.converters.clear()
        sqlite.converters.update(saved)


def test_recursive_cursor_use_in_function(con, sqlite):
    cur = con.cursor()

    def f(x):
        cur.execute("select 1")
        return x

    con.create_function("f", 1, f)
    with pytest.raises(sqlite.OperationalError, match="^user-defined function raised exception$"):
        cur.execute("select f(1)")
    assert cur.execute("select 4").fetchall() == [(4,)]


def test_duplicate_column_names(con):
    assert [d[0] for d in con.execute("select 1 as a, 2 as a").description] == ["a", "a"]


def test_executemany_empty_statement(con, sqlite):
    with pytest.raises(sqlite.ProgrammingError,
                       match=r"^executemany\(\) can only execute DML statements.$"):
        con.executemany("", [(1,)])


def test_executemany_with_dicts_and_rowcount(con):
    con.execute("create table t(a, b)")
    cur = con.executemany("insert into t values(:a, :b)", [{"a": 1, "b": 2}, {"a": 3, "b": 4}])
    assert cur.rowcount == 2
    assert con.execute("select * from t order by a").fetchall() == [(1, 2), (3, 4)]


def test_commit_with_pending_select(con):
    con.execute("create table t(a)")
    con.executemany("insert into t values(?)", [(1,), (2,), (3,)])
    con.commit()
    cur = con.execute("select a from t order by a")
    assert cur.fetchone() == (1,)
    con.execute("insert into t values(4)")
    con.commit()
    assert cur.fetchone() == (2,)


def test_text_with_nul_characters(con):
    assert con.execute("select ?", ("a\0b",)).fetchone() == ("a\0b",)


def test_pragma_and_vacuum_statements(con):
    assert con.execute("pragma user_version").fetchall() == [(0,)]
    con.execute("pragma user_version = 7")
    assert con.execute("pragma user_version").fetchall() == [(7,)]
    assert con.execute("vacuum").fetchall() == []


def test_connection_dropped_with_open_cursor(sqlite):
    con = sqlite.connect(":memory:")
    cur = con.execute("with r(x) as (values(1), (2)) select x from r")
    del con
    gc.collect()
    assert cur.fetchone() == (1,)


def test_close_connection_with_pending_cursor(sqlite):
    con = sqlite.connect(":memory:")
    cur = con.execute("with r(x) as (values(1), (2)) select x from r")
    con.close()
    with pytest.raises(sqlite.ProgrammingError, match="^Cannot operate on a closed database.$"):
        cur.fetchone()


def test_file_database_persists(sqlite, tmp_path):
    path = tmp_path / "persist.db"
    con = sqlite.connect(path)
    con.execute("create table t(a)")
    con.execute("insert into t values('kept')")
    con.commit()
    con.close()
    con = sqlite.connect(path)
    assert con.execute("select a from t").fetchall() == [("kept",)]
    con.close()


def test_many_rows_fetched_lazily(con):
    rows = con.execute("with recursive r(x) as (values(1) union all select x + 1 from r "
                       "where x < 20000) select x from r")
    total = 0
    for (x,) in rows:
        total += x
    assert total == 20000 * 20001 // 2
