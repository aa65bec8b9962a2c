"""The module, Connection and Cursor surface: the same names, defaults, results and errors
as the stdlib sqlite3 module (organised like CPython's Lib/test/test_sqlite3/test_dbapi.py)."""

from __future__ import annotations

import threading

import pytest


def raises(exc_type, message=None):
    return pytest.raises(exc_type, match=None if message is None else "^" + _escape(message) + "$")


def _escape(text):
    import re

    return re.escape(text)


# -- module ---------------------------------------------------------------------------


def test_module_constants(sqlite):
    assert sqlite.apilevel == "2.0"
    assert sqlite.paramstyle == "qmark"
    assert sqlite.sqlite_version_info[0] == 3
    assert sqlite.sqlite_version == ".".join(map(str, sqlite.sqlite_version_info))
    assert sqlite.PARSE_DECLTYPES == 1 and sqlite.PARSE_COLNAMES == 2
    assert sqlite.SQLITE_OK == 0 and sqlite.SQLITE_DENY == 1 and sqlite.SQLITE_IGNORE == 2
    assert sqlite.SQLITE_CREATE_TABLE == 2 and sqlite.SQLITE_READ == 20
    assert sqlite.SQLITE_LIMIT_VARIABLE_NUMBER == 9
    assert sqlite.SQLITE_CONSTRAINT_UNIQUE == 2067


def test_exception_hierarchy(sqlite):
    assert issubclass(sqlite.Warning, Exception)
    assert issubclass(sqlite.Error, Exception)
    assert issubclass(sqlite.InterfaceError, sqlite.Error)
    for name in ("DataError", "OperationalError", "IntegrityError", "InternalError",
                 "ProgrammingError", "NotSupportedError"):
        assert issubclass(getattr(sqlite, name), sqlite.DatabaseError)
    assert issubclass(sqlite.DatabaseError, sqlite.Error)


def test_connection_exposes_exceptions(con, sqlite):
    for name in ("Warning", "Error", "InterfaceError", "DatabaseError", "DataError",
                 "OperationalError", "IntegrityError", "InternalError", "ProgrammingError",
                 "NotSupportedError"):
        assert getattr(con, name) is getattr(sqlite, name)


def test_complete_statement(sqlite):
    assert sqlite.complete_statement("select 1;")
    assert not sqlite.complete_statement("select 1")
    assert not sqlite.complete_statement("select 'a;")
    assert sqlite.complete_statement("select 'a;';")
    assert not sqlite.complete_statement("create trigger t after insert on x begin select 1;")
    assert sqlite.complete_statement("create trigger t after insert on x begin select 1; end;")
    assert sqlite.complete_statement("select 1; -- done")
    assert not sqlite.complete_statement("/* unfinished ; ")
    with pytest.raises(TypeError):
        sqlite.complete_statement(5)


def test_binary_and_date_constructors(sqlite):
    assert bytes(sqlite.Binary(b"ab")) == b"ab"
    assert sqlite.Date(2020, 1, 2).isoformat() == "2020-01-02"
    assert sqlite.Time(1, 2, 3).isoformat() == "01:02:03"
    assert sqlite.Timestamp(2020, 1, 2, 3, 4, 5).year == 2020
    assert sqlite.DateFromTicks(0).year in (1969, 1970)
    assert sqlite.TimestampFromTicks(0).year in (1969, 1970)
    assert isinstance(sqlite.TimeFromTicks(0), sqlite.Time)


# -- connect ----------------------------------------------------------------------------


def test_select_one_plus_one(sqlite):
    assert sqlite.connect(":memory:").execute("select 1+1").fetchall() == [(2,)]


def test_connect_bad_database_type(sqlite):
    with raises(TypeError, "expected str, bytes or os.PathLike object, not int"):
        sqlite.connect(1)


def test_connect_path_like_and_bytes(sqlite, tmp_path):
    for database in (tmp_path / "a.db", str(tmp_path / "b.db").encode()):
        con = sqlite.connect(database)
        con.execute("create table t(a)")
        con.close()


def test_connect_unopenable(sqlite, tmp_path):
    with raises(sqlite.OperationalError, "unable to open database file"):
        sqlite.connect(str(tmp_path / "no" / "such" / "dir.db"))


def test_connect_detect_types_must_be_int(sqlite):
    with pytest.raises(TypeError):
        sqlite.connect(":memory:", detect_types="x")


def test_connect_argument_types(sqlite):
    with raises(TypeError, "must be real number, not str"):
        sqlite.connect(":memory:", timeout="x")
    with pytest.raises(TypeError):
        sqlite.connect(":memory:", check_same_thread=None)
    con = sqlite.connect(":memory:", timeout=1, cached_statements=-1, check_same_thread=0)
    assert con.execute("select 1").fetchone() == (1,)


def test_connect_factory(sqlite):
    class MyConnection(sqlite.Connection):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.mine = True

    con = sqlite.connect(":memory:", factory=MyConnection)
    assert isinstance(con, MyConnection) and con.mine
    assert con.execute("select 5").fetchone() == (5,)


def test_connection_subclass_without_init(sqlite):
    class Broken(sqlite.Connection):
        def __init__(self, *args, **kwargs):
            pass

    con = Broken(":memory:")
    with raises(sqlite.ProgrammingError, "Base Connection.__init__ not called."):
        con.cursor()


def test_uri_readonly(sqlite, tmp_path):
    path = tmp_path / "ro.db"
    con = sqlite.connect(path)
    con.execute("create table t(a)")
    con.close()
    con = sqlite.connect(f"file:{path}?mode=ro", uri=True)
    assert con.execute("select count(*) from t").fetchone() == (0,)
    with raises(sqlite.OperationalError, "attempt to write a readonly database"):
        con.execute("insert into t values(1)")
    with raises(sqlite.OperationalError, "attempt to write a readonly database"):
        con.executescript("select 1; insert into t values(1);")
    con.close()


def test_uri_mode_rw_missing_file(sqlite, tmp_path):
    with raises(sqlite.OperationalError, "unable to open database file"):
        sqlite.connect(f"file:{tmp_path / 'missing.db'}?mode=rw", uri=True)


def test_uri_memory(sqlite):
    con = sqlite.connect("file::memory:", uri=True)
    assert con.execute("select 3").fetchone() == (3,)


# -- closed objects and threads ---------------------------------------------------------


def test_closed_connection(sqlite):
    con = sqlite.connect(":memory:")
    cur = con.cursor()
    con.close()
    con.close()  # a second close is allowed
    for action in (lambda: con.execute("select 1"), con.cursor, con.commit, con.rollback,
                   lambda: con.total_changes, lambda: con.in_transaction,
                   lambda: con.isolation_level, lambda: cur.execute("select 1"),
                   lambda: setattr(con, "isolation_level", None),
                   cur.fetchall, lambda: con.create_function("f", 0, int),
                   lambda: con.set_trace_callback(None), con.interrupt):
        with raises(sqlite.ProgrammingError, "Cannot operate on a closed database."):
            action()


def test_closed_cursor(con, sqlite):
    cur = con.execute("select 1")
    cur.close()
    for action in (lambda: cur.execute("select 1"), cur.fetchone, cur.fetchall,
                   lambda: cur.executemany("select 1", []), lambda: cur.executescript("")):
        with raises(sqlite.ProgrammingError, "Cannot operate on a closed cursor."):
            action()
    assert cur.description == (("1", None, None, None, None, None, None),)


def test_cursor_subclass_without_init(con, sqlite):
    class Broken(sqlite.Cursor):
        def __init__(self, connection):
            pass

    cur = Broken(con)
    with raises(sqlite.ProgrammingError, "Base Cursor.__init__ not called."):
        cur.execute("select 1")


def test_cursor_needs_connection(sqlite):
    with pytest.raises(TypeError):
        sqlite.Cursor(5)


def _in_thread(func):
    result = []

    def run():
        try:
            func()
            result.append(None)
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            result.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return result[0]


def test_check_same_thread(sqlite):
    con = sqlite.connect(":memory:")
    cur = con.cursor()
    for action in (lambda: con.execute("select 1"), con.close, con.commit,
                   lambda: cur.execute("select 1"), cur.fetchone, cur.close):
        exc = _in_thread(action)
        assert type(exc) is sqlite.ProgrammingError
        assert str(exc).startswith(
            "SQLite objects created in a thread can only be used in that same thread. "
            "The object was created in thread id "
        )


def test_state_readable_from_other_threads(sqlite):
    con = sqlite.connect(":memory:")
    cur = con.execute("select 1")
    for action in (lambda: con.total_changes, lambda: con.in_transaction,
                   lambda: con.isolation_level, lambda: cur.description):
        assert _in_thread(action) is None


def test_check_same_thread_false(sqlite):
    con = sqlite.connect(":memory:", check_same_thread=False)
    assert _in_thread(lambda: con.execute("select 1").fetchall()) is None


def test_interrupt_from_another_thread_is_allowed(sqlite):
    con = sqlite.connect(":memory:")
    assert _in_thread(con.interrupt) is None


# -- execute and its errors -------------------------------------------------------------


def test_execute_returns_cursor(con):
    cur = con.cursor()
    assert cur.execute("select 1") is cur


def test_execute_wrong_sql_type(cu):
    with raises(TypeError, "execute() argument 1 must be str, not int"):
        cu.execute(42)


def test_execute_null_character(cu, sqlite):
    with raises(sqlite.ProgrammingError, "the query contains a null character"):
        cu.execute("select 1\0")


@pytest.mark.parametrize("sql", ["select 1; select 2", "select 1;;", "select 1; /* */ ;",
                                 "select 1; garbage"])
def test_execute_one_statement_at_a_time(cu, sqlite, sql):
    with raises(sqlite.ProgrammingError, "You can only execute one statement at a time."):
        cu.execute(sql)


@pytest.mark.parametrize("sql", ["select 1;", "select 1; ", "select 1; -- c", "select 1 /* c */"])
def test_execute_trailing_blanks_and_comments(cu, sql):
    assert cu.execute(sql).fetchall() == [(1,)]


@pytest.mark.parametrize("sql", ["", "   ", "-- nothing", "/* nothing */"])
def test_execute_empty(cu, sql):
    cu.execute(sql)
    assert cu.description is None
    assert cu.fetchall() == []
    assert cu.rowcount == -1


def test_syntax_error(cu, sqlite):
    with raises(sqlite.OperationalError, 'near "selec": syntax error'):
        cu.execute("selec 1")


def test_no_such_table(cu, sqlite):
    with raises(sqlite.OperationalError, "no such table: nosuch"):
        cu.execute("select * from nosuch")


def test_integrity_error(con, sqlite):
    con.execute("create table t(a unique)")
    con.execute("insert into t values(1)")
    with raises(sqlite.IntegrityError, "UNIQUE constraint failed: t.a") as info:
        con.execute("insert into t values(1)")
    assert info.value.sqlite_errorcode == sqlite.SQLITE_CONSTRAINT_UNIQUE
    assert info.value.sqlite_errorname == "SQLITE_CONSTRAINT_UNIQUE"


def test_error_code_attributes(cu, sqlite):
    with pytest.raises(sqlite.OperationalError) as info:
        cu.execute("select * from nosuch")
    assert info.value.sqlite_errorcode == sqlite.SQLITE_ERROR
    assert info.value.sqlite_errorname == "SQLITE_ERROR"


def test_query_string_too_large(con, sqlite):
    con.setlimit(sqlite.SQLITE_LIMIT_SQL_LENGTH, 10)
    with raises(sqlite.DataError, "query string is too large"):
        con.execute("select 'aaaaaaaaaaaaaaaaa'")


# -- parameters -------------------------------------------------------------------------


def test_qmark_parameters(cu):
    assert cu.execute("select ?, ?", (1, "a")).fetchone() == (1, "a")
    assert cu.execute("select ?, ?", [None, 2.5]).fetchone() == (None, 2.5)


def test_numbered_parameters(cu):
    assert cu.execute("select ?2, ?1", (1, 2)).fetchone() == (2, 1)


def test_named_parameters(cu):
    assert cu.execute("select :a, @b, $c", {"a": 1, "b": 2, "c": 3}).fetchone() == (1, 2, 3)
    assert cu.execute("select :a, :a", {"a": 7, "unused": 0}).fetchone() == (7, 7)


def test_named_parameters_given_as_sequence(cu):
    assert cu.execute("select :a, :b", (1, 2)).fetchone() == (1, 2)


def test_wrong_parameter_count(cu, sqlite):
    with raises(sqlite.ProgrammingError, "Incorrect number of bindings supplied. The current "
                "statement uses 1, and there are 2 supplied."):
        cu.execute("select ?", (1, 2))
    with raises(sqlite.ProgrammingError, "Incorrect number of bindings supplied. The current "
                "statement uses 2, and there are 0 supplied."):
        cu.execute("select ?, ?")


def test_missing_named_parameter(cu, sqlite):
    with raises(sqlite.ProgrammingError, "You did not supply a value for binding parameter :a."):
        cu.execute("select :a", {"b": 1})


def test_missing_numbered_parameter_in_dictionary(cu, sqlite):
    with raises(sqlite.ProgrammingError, "You did not supply a value for binding parameter :1."):
        cu.execute("select ?1, :a", {"a": 1})


def test_unsupported_types_named_as_the_stdlib(cu, sqlite):
    import collections
    import fractions

    # (pandas registers adapters for datetime and Decimal on the stdlib module: types that
    # no client adapts keep this test independent of what else the suite imported.)
    with raises(sqlite.ProgrammingError,
                "Error binding parameter 1: type 'collections.deque' is not supported"):
        cu.execute("select ?", (collections.deque(),))
    with raises(sqlite.ProgrammingError,
                "Error binding parameter 1: type 'Fraction' is not supported"):
        cu.execute("select ?", (fractions.Fraction(1, 2),))

    class Mine:
        pass

    with raises(sqlite.ProgrammingError, "Error binding parameter 1: type 'Mine' is not supported"):
        cu.execute("select ?", (Mine(),))


def test_dictionary_for_unnamed_parameter(cu, sqlite):
    with raises(sqlite.ProgrammingError,
                "Binding 1 has no name, but you supplied a dictionary (which has only names)."):
        cu.execute("select ?", {"a": 1})


def test_dict_subclass_missing(cu):
    class Defaulting(dict):
        def __missing__(self, key):
            return key.upper()

    assert cu.execute("select :abc", Defaulting()).fetchone() == ("ABC",)


def test_parameters_unsupported_container(cu, sqlite):
    with raises(sqlite.ProgrammingError, "parameters are of unsupported type"):
        cu.execute("select ?", 1)
    with raises(sqlite.ProgrammingError, "parameters are of unsupported type"):
        cu.execute("select ?", {1}.__iter__())


def test_sequence_protocol_parameters(cu):
    class Seq:
        def __len__(self):
            return 2

        def __getitem__(self, i):
            return ("x", "y")[i]

    assert cu.execute("select ?, ?", Seq()).fetchone() == ("x", "y")


@pytest.mark.parametrize("value,type_name", [([1], "list"), (object(), "object"),
                                             (1j, "complex"), ((1,), "tuple")])
def test_unsupported_parameter_type(cu, sqlite, value, type_name):
    with raises(sqlite.ProgrammingError,
                f"Error binding parameter 1: type '{type_name}' is not supported"):
        cu.execute("select ?", (value,))
    with raises(sqlite.ProgrammingError,
                f"Error binding parameter 2: type '{type_name}' is not supported"):
        cu.execute("select :a, :b", {"a": 1, "b": value})


@pytest.mark.parametrize("value", [2**63, -(2**63) - 1, 10**30])
def test_int_out_of_range(cu, value):
    with raises(OverflowError, "Python int too large to convert to SQLite INTEGER"):
        cu.execute("select ?", (value,))


@pytest.mark.parametrize("value", [2**63 - 1, -(2**63), 0, -1])
def test_int_range_limits(cu, value):
    assert cu.execute("select ?", (value,)).fetchone() == (value,)


def test_blob_parameters(cu):
    for value in (b"ab", bytearray(b"ab"), memoryview(b"ab")):
        assert cu.execute("select ?", (value,)).fetchone() == (b"ab",)
    assert cu.execute("select ?", (b"",)).fetchone() == (b"",)


def test_bool_and_int_subclass_parameters(cu):
    import enum

    class Colour(enum.IntEnum):
        RED = 3

    assert cu.execute("select ?, ?, ?", (True, False, Colour.RED)).fetchone() == (1, 0, 3)


def test_str_subclass_and_unicode(cu):
    class S(str):
        pass

    assert cu.execute("select ?, ?", (S("x"), "héllo ☃")).fetchone() == ("x", "héllo ☃")


def test_lone_surrogate(cu):
    with pytest.raises(UnicodeEncodeError):
        cu.execute("select ?", ("\ud800",))


# -- results ----------------------------------------------------------------------------


def test_description(cu):
    cu.execute("select 1 as a, 'x' as \"B c\"")
    assert cu.description == (("a", None, None, None, None, None, None),
                              ("B c", None, None, None, None, None, None))


def test_description_of_empty_result_and_dml(con):
    con.execute("create table t(a, b)")
    cur = con.execute("select a, b from t")
    assert [d[0] for d in cur.description] == ["a", "b"]
    assert con.execute("insert into t values(1, 2)").description is None


def test_fetch_methods(con):
    con.execute("create table t(a)")
    con.executemany("insert into t values(?)", [(i,) for i in range(10)])
    cur = con.execute("select a from t order by a")
    assert cur.fetchone() == (0,)
    assert cur.fetchmany() == [(1,)]
    cur.arraysize = 3
    assert cur.fetchmany() == [(2,), (3,), (4,)]
    assert cur.fetchmany(2) == [(5,), (6,)]
    assert cur.fetchmany(size=1) == [(7,)]
    assert cur.fetchall() == [(8,), (9,)]
    assert cur.fetchone() is None
    assert cur.fetchall() == []
    assert cur.fetchmany(5) == []


def test_fetchmany_zero_or_negative_fetches_all(con):
    sql = "select 1 union all select 2 union all select 3"
    assert con.execute(sql).fetchmany(0) == [(1,), (2,), (3,)]
    assert con.execute(sql).fetchmany(-1) == [(1,), (2,), (3,)]
    cur = con.execute(sql)
    cur.arraysize = 0
    assert cur.fetchmany() == [(1,), (2,), (3,)]


def test_iteration(con):
    con.execute("create table t(a)")
    con.executemany("insert into t values(?)", [(3,), (1,), (2,)])
    cur = con.execute("select a from t order by a")
    assert iter(cur) is cur
    assert [row for row in cur] == [(1,), (2,), (3,)]
    with pytest.raises(StopIteration):
        next(cur)


def test_arraysize_type(cu):
    assert cu.arraysize == 1
    with pytest.raises(TypeError):
        cu.arraysize = "x"


def test_read_only_cursor_attributes(cu):
    for name in ("rowcount", "lastrowid", "description", "connection"):
        with pytest.raises(AttributeError):
            setattr(cu, name, 1)


def test_cursor_connection(con):
    assert con.cursor().connection is con


def test_setinputsizes_setoutputsize(cu):
    assert cu.setinputsizes([1, 2]) is None
    assert cu.setoutputsize(5) is None
    assert cu.setoutputsize(5, 0) is None


def test_rows_produced_lazily(con):
    seen = []

    def record(x):
        seen.append(x)
        return x

    con.create_function("record", 1, record)
    con.execute("create table t(a)")
    con.executemany("insert into t values(?)", [(i,) for i in range(100)])
    cur = con.execute("select record(a) from t")
    assert len(seen) == 1
    cur.fetchone()
    assert len(seen) == 2
    cur.fetchmany(10)
    assert len(seen) == 12


def test_error_while_fetching(con, sqlite):
    con.create_function("boom", 1, lambda x: 1 / 0 if x == 3 else x)
    cur = con.execute("with r(x) as (values(1), (2), (3), (4)) select boom(x) from r")
    assert cur.fetchone() == (1,)
    with raises(sqlite.OperationalError, "user-defined function raised exception"):
        cur.fetchone()
    assert cur.fetchone() is None


# -- rowcount and lastrowid ---------------------------------------------------------------


def test_rowcount(con):
    cur = con.cursor()
    assert cur.rowcount == -1
    cur.execute("create table t(a)")
    assert cur.rowcount == -1
    cur.execute("insert into t values(1)")
    assert cur.rowcount == 1
    cur.executemany("insert into t values(?)", [(2,), (3,), (4,)])
    assert cur.rowcount == 3
    cur.execute("update t set a = a + 1 where a > 1")
    assert cur.rowcount == 3
    cur.execute("select * from t")
    assert cur.rowcount == -1
    cur.execute("delete from t")
    assert cur.rowcount == 4
    cur.executemany("insert into t values(?)", [])
    assert cur.rowcount == 0


def test_rowcount_with_returning(con):
    con.execute("create table t(a)")
    cur = con.execute("insert into t values(1), (2) returning a")
    assert cur.rowcount == 0
    assert cur.fetchall() == [(1,), (2,)]
    assert cur.rowcount == 2


def test_lastrowid(con):
    cur = con.cursor()
    assert cur.lastrowid is None
    cur.execute("create table t(id integer primary key, a)")
    cur.execute("insert into t(a) values(1)")
    assert cur.lastrowid == 1
    cur.execute("insert into t values(10, 1)")
    assert cur.lastrowid == 10
    cur.executemany("insert into t(a) values(?)", [(1,), (2,)])
    assert cur.lastrowid == 10  # executemany leaves it alone
    cur.execute("select 1")
    assert cur.lastrowid == 12  # any execute reads sqlite3_last_insert_rowid
    cur.execute("replace into t values(5, 5)")
    assert cur.lastrowid == 5


# -- executemany --------------------------------------------------------------------------


def test_executemany_generator_and_iterator(con):
    con.execute("create table t(a)")

    def gen():
        for i in range(3):
            yield (i,)

    con.executemany("insert into t values(?)", gen())
    con.executemany("insert into t values(?)", iter([(10,), (11,)]))
    con.executemany("insert into t values(:x)", ({"x": i} for i in (20, 21)))
    assert [r[0] for r in con.execute("select a from t order by a")] == [0, 1, 2, 10, 11, 20, 21]


def test_executemany_select_rejected(cu, sqlite):
    with raises(sqlite.ProgrammingError, "executemany() can only execute DML statements."):
        cu.executemany("select ?", [(1,)])


def test_executemany_bad_parameter_set(con, sqlite):
    con.execute("create table t(a)")
    with raises(sqlite.ProgrammingError, "Incorrect number of bindings supplied. The current "
                "statement uses 1, and there are 2 supplied."):
        con.executemany("insert into t values(?)", [(1,), (2, 3)])
    assert con.execute("select a from t").fetchall() == [(1,)]


def test_executemany_not_iterable(con):
    con.execute("create table t(a)")
    with pytest.raises(TypeError):
        con.executemany("insert into t values(?)", 42)


def test_executemany_iterator_raising(con):
    con.execute("create table t(a)")

    def gen():
        yield (1,)
        raise ValueError("stop")

    with pytest.raises(ValueError):
        con.executemany("insert into t values(?)", gen())


# -- executescript ------------------------------------------------------------------------


def test_executescript(con):
    cur = con.cursor()
    assert cur.executescript("""
        create table t(a);
        insert into t values(1);  -- a comment
        insert into t values('two');
        select * from t;
    """) is cur
    assert con.execute("select a from t order by rowid").fetchall() == [(1,), ("two",)]


def test_executescript_errors(cu, sqlite):
    with raises(TypeError, "executescript() argument must be str, not int"):
        cu.executescript(1)
    with raises(ValueError, "embedded null character"):
        cu.executescript("select 1;\0")
    with raises(sqlite.OperationalError, 'near "nonsense": syntax error'):
        cu.executescript("select 1; nonsense;")


def test_executescript_stops_at_error(con, sqlite):
    with pytest.raises(sqlite.OperationalError):
        con.executescript("create table t(a); insert into t values(1); insert into nosuch "
                          "values(2); insert into t values(3);")
    assert con.execute("select a from t").fetchall() == [(1,)]


def test_executescript_commits_pending_transaction(con):
    con.execute("create table t(a)")
    con.execute("insert into t values(1)")
    assert con.in_transaction
    con.executescript("select 1")
    assert not con.in_transaction


# -- Row --------------------------------------------------------------------------------


def test_row_factory_row(con, sqlite):
    con.row_factory = sqlite.Row
    row = con.execute("select 1 as a, 2 as B").fetchone()
    assert isinstance(row, sqlite.Row)
    assert row["a"] == 1 and row["A"] == 1 and row["b"] == 2 and row[1] == 2 and row[-1] == 2
    assert row[0:1] == (1,)
    assert row.keys() == ["a", "B"]
    assert tuple(row) == (1, 2) and len(row) == 2
    with raises(IndexError, "No item with that key"):
        row["x"]
    with raises(IndexError, "tuple index out of range"):
        row[5]
    with raises(IndexError, "Index must be int or string"):
        row[1.5]


def test_row_equality_and_hash(con, sqlite):
    con.row_factory = sqlite.Row
    one = con.execute("select 1 as a").fetchone()
    two = con.execute("select 1 as a").fetchone()
    other = con.execute("select 1 as b").fetchone()
    assert one == two and hash(one) == hash(two)
    assert one != other
    assert one != (1,)


def test_row_constructor_checks(con, sqlite):
    with pytest.raises(TypeError):
        sqlite.Row(1, (1,))
    with pytest.raises(TypeError):
        sqlite.Row(con.cursor(), [1])


def test_custom_row_factory(con):
    con.row_factory = lambda cursor, row: {d[0]: v for d, v in zip(cursor.description, row)}
    assert con.execute("select 1 as a, 2 as b").fetchone() == {"a": 1, "b": 2}
    cur = con.cursor()
    cur.row_factory = lambda cursor, row: row[0]
    assert cur.execute("select 9").fetchall() == [9]


def test_cursor_row_factory_set_at_creation(con):
    cur = con.cursor()
    con.row_factory = lambda cursor, row: "changed"
    assert cur.execute("select 1").fetchone() == (1,)
    assert con.cursor().execute("select 1").fetchone() == "changed"


def test_cursor_factory(con, sqlite):
    class MyCursor(sqlite.Cursor):
        pass

    assert isinstance(con.cursor(MyCursor), MyCursor)
    assert isinstance(con.cursor(factory=MyCursor), MyCursor)
    with pytest.raises(TypeError):
        con.cursor(lambda c: 5)


# -- limits -----------------------------------------------------------------------------


def test_limits(con, sqlite):
    defaults = [con.getlimit(i) for i in range(12)]
    assert defaults == [1000000000, 1000000000, 2000, 1000, 500, 250000000, 127, 10, 50000,
                        250000, 1000, 0]
    assert con.setlimit(sqlite.SQLITE_LIMIT_ATTACHED, 3) == 10
    assert con.getlimit(sqlite.SQLITE_LIMIT_ATTACHED) == 3
    assert con.setlimit(sqlite.SQLITE_LIMIT_ATTACHED, -1) == 3
    assert con.getlimit(sqlite.SQLITE_LIMIT_ATTACHED) == 3
    assert con.setlimit(sqlite.SQLITE_LIMIT_ATTACHED, 10**6) == 3
    assert con.getlimit(sqlite.SQLITE_LIMIT_ATTACHED) == 10
    with raises(sqlite.ProgrammingError, "'category' is out of bounds"):
        con.getlimit(12)
    with raises(sqlite.ProgrammingError, "'category' is out of bounds"):
        con.setlimit(-1, 1)


def test_limit_length_on_bind(con, sqlite):
    con.setlimit(sqlite.SQLITE_LIMIT_LENGTH, 5)
    with raises(sqlite.DataError, "string or blob too big"):
        con.execute("select ?", ("x" * 10,))


# -- blobs, backup, serialize ------------------------------------------------------------


@pytest.fixture
def blob_con(con):
    con.execute("create table t(id integer primary key, b blob, n)")
    con.execute("insert into t values(1, x'0102030405', 5)")
    con.commit()
    return con


def test_blob_read(blob_con):
    with blob_con.blobopen("t", "b", 1) as blob:
        assert len(blob) == 5
        assert blob.read(2) == b"\x01\x02"
        assert blob.tell() == 2
        assert blob[0] == 1 and blob[-1] == 5 and blob[1:3] == b"\x02\x03"
        assert blob.read() == b"\x03\x04\x05"
        assert blob.read() == b""
        blob.seek(-1, 2)
        assert blob.read(10) == b"\x05"
        blob.seek(1)
        blob.seek(1, 1)
        assert blob.tell() == 2


def test_blob_write(blob_con):
    with blob_con.blobopen("t", "b", 1) as blob:
        blob.write(b"ab")
        blob[4] = 255
        blob[2:4] = b"xy"
    assert blob_con.execute("select b from t").fetchone() == (b"abxy\xff",)


def test_blob_errors(blob_con, sqlite):
    with raises(sqlite.OperationalError, "no such rowid: 9"):
        blob_con.blobopen("t", "b", 9)
    with raises(sqlite.OperationalError, "cannot open value of type integer"):
        blob_con.blobopen("t", "n", 1)
    with raises(sqlite.OperationalError, 'no such column: "zz"'):
        blob_con.blobopen("t", "zz", 1)
    with raises(sqlite.OperationalError, "no such table: main.zz"):
        blob_con.blobopen("zz", "b", 1)
    blob = blob_con.blobopen("t", "b", 1)
    with raises(ValueError, "data longer than blob length"):
        blob.write(b"123456")
    with raises(ValueError, "offset out of blob range"):
        blob.seek(6)
    with raises(ValueError, "'origin' should be os.SEEK_SET, os.SEEK_CUR, or os.SEEK_END"):
        blob.seek(0, 7)
    with raises(IndexError, "Blob index out of range"):
        blob[5]
    with raises(ValueError, "byte must be in range(0, 256)"):
        blob[0] = 256
    blob.close()
    with raises(sqlite.ProgrammingError, "Cannot operate on a closed blob."):
        blob.read()


def test_blob_readonly(blob_con, sqlite):
    with blob_con.blobopen("t", "b", 1, readonly=True) as blob:
        with raises(sqlite.OperationalError, "attempt to write a readonly database"):
            blob.write(b"a")


def _sample(con):
    con.executescript("""
        create table t(id integer primary key, name text, score real, data blob);
        insert into t values(1, 'ann', 1.5, x'00ff');
        insert into t values(5, 'bob', null, null);
        create index t_name on t(name);
        create view v as select name from t;
    """)


def test_backup(sqlite):
    source = sqlite.connect(":memory:")
    _sample(source)
    target = sqlite.connect(":memory:")
    target.execute("create table old(x)")
    target.commit()
    calls = []
    source.backup(target, progress=lambda status, remaining, total: calls.append(remaining))
    assert calls and calls[-1] == 0
    assert target.execute("select * from t order by id").fetchall() == \
        [(1, "ann", 1.5, b"\x00\xff"), (5, "bob", None, None)]
    names = target.execute("select type, name from sqlite_master order by name").fetchall()
    assert names == [("table", "t"), ("index", "t_name"), ("view", "v")]


def test_backup_errors(sqlite):
    source = sqlite.connect(":memory:")
    with raises(ValueError, "target cannot be the same connection instance"):
        source.backup(source)
    with pytest.raises(TypeError):
        source.backup(object())
    with raises(TypeError, "progress argument must be a callable"):
        source.backup(sqlite.connect(":memory:"), progress=5)


def test_serialize_deserialize(sqlite):
    source = sqlite.connect(":memory:")
    _sample(source)
    data = source.serialize()
    assert data[:16] == b"SQLite format 3\0"
    target = sqlite.connect(":memory:")
    target.deserialize(data)
    assert target.execute("select name from t order by id").fetchall() == [("ann",), ("bob",)]


def test_serialized_bytes_open_in_other_module(sqlite, tmp_path):
    import sqlite3

    source = sqlite.connect(":memory:")
    _sample(source)
    path = tmp_path / "copy.db"
    path.write_bytes(source.serialize())
    other = sqlite3.connect(path)
    assert other.execute("pragma integrity_check").fetchone() == ("ok",)
    assert other.execute("select id from t order by id").fetchall() == [(1,), (5,)]
