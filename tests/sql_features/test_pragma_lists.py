"""PRAGMA function_list, module_list and pragma_list: what the engine lists, checked
against what it runs and, where both engines have a function or pragma, against sqlite3
(the whole lists differ honestly; scripts/pragma_function_list.sql compares samples)."""

import sqlite3

import pytest

import sqlengine
from sqlengine.vdbe.functions import MIN_ARGS


class Agg:
    def step(self, x):
        pass

    def finalize(self):
        return 1

    def value(self):
        return 1

    def inverse(self, x):
        pass


def _functions(module):
    conn = module.connect(":memory:")
    conn.create_function("f1", 1, lambda x: x)
    conn.create_function("f2", 2, lambda x, y: x, deterministic=True)
    conn.create_function("abs", 1, lambda x: x)  # a built-in overridden: listed twice
    conn.create_aggregate("ag", 1, Agg)
    conn.create_window_function("wf", -1, Agg)
    rows = conn.execute("SELECT * FROM pragma_function_list").fetchall()
    conn.close()
    return {(r[0], r[1], r[4]): r for r in rows}


def test_shared_functions_match_sqlite3():
    ours, theirs = _functions(sqlengine), _functions(sqlite3)
    shared = set(ours) & set(theirs)
    assert len(shared) > 120
    assert {k: ours[k] for k in shared} == {k: theirs[k] for k in shared}
    for key in [("f1", 0, 1), ("f2", 0, 2), ("abs", 0, 1), ("abs", 1, 1), ("ag", 0, 1),
                ("wf", 0, -1), ("row_number", 1, 0), ("lag", 1, 3)]:
        assert key in shared


def test_listed_functions_run():
    conn = sqlengine.connect(":memory:")
    rows = conn.execute("SELECT name, type, narg FROM pragma_function_list "
                        "WHERE builtin AND name GLOB '[a-z]*'").fetchall()
    assert len(rows) == len(set(rows))
    conn.execute("CREATE TABLE t(a)")
    for name, kind, narg in rows:
        args = ", ".join(["1"] * (narg if narg >= 0 else MIN_ARGS.get(name, 0)))
        over = " OVER ()" if kind == "w" else ""
        try:
            conn.execute(f"SELECT {name}({args}){over} FROM t").fetchall()
        except sqlengine.OperationalError as e:
            assert "no such function" not in str(e) and "wrong number" not in str(e), name


def _after_removal(module):
    conn = module.connect(":memory:")
    conn.create_function("gone", 1, lambda x: x)
    conn.create_function("gone", 1, None)  # (the stdlib: a function whose calls fail)
    conn.create_window_function("gw", 1, Agg)
    conn.create_window_function("gw", 1, None)  # (removed)
    return conn.execute("SELECT name, builtin, type, narg, flags FROM pragma_function_list "
                        "WHERE name IN ('gone', 'gw')").fetchall()


def test_function_removal_as_sqlite3():
    assert _after_removal(sqlengine) == _after_removal(sqlite3) == [("gone", 0, "s", 1, 0)]


def test_module_list_names_what_runs():
    conn = sqlengine.connect(":memory:")
    names = [r[0] for r in conn.execute("PRAGMA module_list")]
    assert names == ["json_tree", "json_each"]
    for name in names:
        assert conn.execute(f"SELECT count(*) FROM {name}('[1,2]')").fetchone()[0] >= 2


def test_module_list_newest_first():
    """A pragma_NAME module goes to the head of the list when first named, as in SQLite's
    module hash table without buckets (sqlite3 itself has ten more modules, so its hash
    orders them: only our own order is checked here)."""
    conn = sqlengine.connect(":memory:")
    statement = "SELECT name FROM pragma_module_list"
    conn.execute("SELECT * FROM pragma_table_info('x')")
    conn.execute("SELECT * FROM pragma_database_list, pragma_index_list('x')")
    conn.execute("SELECT * FROM pragma_table_info('y')")
    names = [r[0] for r in conn.execute(statement)]
    assert names == ["pragma_module_list", "pragma_index_list", "pragma_database_list",
                     "pragma_table_info", "json_tree", "json_each"]
    conn.execute("SELECT * FROM pragma_collation_list")
    assert [r[0] for r in conn.execute(statement)] == ["pragma_collation_list"] + names
    assert [r[0] for r in conn.execute("PRAGMA module_list")] == \
        [r[0] for r in conn.execute(statement)]


def test_pragma_list_is_sqlite3s_subset_in_order():
    conn = sqlengine.connect(":memory:")
    ours = [r[0] for r in conn.execute("PRAGMA pragma_list")]
    theirs = [r[0] for r in sqlite3.connect(":memory:").execute("PRAGMA pragma_list")]
    assert ours == sorted(ours) and set(ours) <= set(theirs) and len(ours) > 50
    for name in ours:
        conn.execute(f"PRAGMA {name}")  # each runs


@pytest.mark.parametrize("sql", ["PRAGMA function_list", "PRAGMA module_list",
                                 "PRAGMA pragma_list"])
def test_pragma_description(sql):
    ours = sqlengine.connect(":memory:").execute(sql).description
    theirs = sqlite3.connect(":memory:").execute(sql).description
    assert [d[0] for d in ours] == [d[0] for d in theirs]
