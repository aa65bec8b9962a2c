"""A table-valued function's HIDDEN columns bound by WHERE / ON terms whose values are
parameters (tablefunc.bind_hidden), compared with sqlite3: the same prepared statement run
with several bindings, positional and named, beside a join (before the table its argument
reads too) and in an ``IN (SELECT ...)``."""

import sqlite3

import pytest

import sqlengine

SETUP = """
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT);
CREATE TABLE u(x REFERENCES t(a), y);
CREATE INDEX ub ON u(y, x);
CREATE TABLE d(id INTEGER PRIMARY KEY, doc);
INSERT INTO d VALUES (1, '[1,2]'), (2, '{"a":[3]}');
"""

CASES = [
    ("SELECT name, arg FROM pragma_table_info WHERE arg = ?", [("t",), ("u",), ("nosuch",), (None,)]),
    ("SELECT name FROM pragma_table_info WHERE arg = ? AND schema = ?",
     [("t", "main"), ("u", "temp"), ("u", None)]),
    ("SELECT * FROM pragma_index_list WHERE arg = :tab", [{"tab": "u"}, {"tab": "t"}]),
    ("SELECT * FROM pragma_index_info WHERE arg = ?1", [("ub",), ("x",)]),
    ("SELECT * FROM pragma_foreign_key_list WHERE arg = ?", [("u",), ("t",)]),
    ("SELECT key, value, json, root FROM json_each WHERE json = ? AND root = ?",
     [('{"a":[1,2]}', "$.a"), ("[3,4]", "$"), ("[5]", None)]),
    ("SELECT key, value FROM json_tree WHERE json = ? ORDER BY id", [('{"x":[1]}',), ("7",)]),
    ("SELECT d.id, j.value FROM d, json_each j WHERE j.json = d.doc AND j.root = ? "
     "ORDER BY 1, 2", [("$",), ("$.a",)]),
    ("SELECT s.name, p.name FROM sqlite_schema s LEFT JOIN pragma_table_info p "
     "ON p.arg = s.name AND p.schema = ? ORDER BY 1, 2", [("main",), ("temp",)]),
    # (the function before the table its argument reads: the join puts it after)
    ("SELECT s.name, p.name FROM pragma_table_info p, sqlite_schema s "
     "WHERE p.arg = s.name AND s.name <> ? ORDER BY 1, 2", [("t",), ("u",)]),
    ("SELECT j.key, j.value FROM json_each j JOIN d ON j.json = d.doc AND j.root = ? "
     "ORDER BY 1, 2", [("$",), ("$.a",)]),
    ("SELECT p.name FROM pragma_index_list p WHERE p.arg IN (SELECT name FROM "
     "sqlite_schema WHERE name <> ?) ORDER BY 1", [("t",), ("u",)]),
]


def _run(conn, sql, params):
    try:
        return conn.execute(sql, params).fetchall()
    except Exception as e:  # noqa: BLE001 - compared between engines
        return (type(e).__name__, str(e))


@pytest.mark.parametrize("sql,bindings", CASES)
def test_hidden_columns_from_parameters(sql, bindings):
    a = sqlite3.connect(":memory:")
    b = sqlengine.connect(":memory:")
    a.executescript(SETUP)
    b.executescript(SETUP)
    for params in bindings:
        assert _run(b, sql, params) == _run(a, sql, params), (sql, params)
