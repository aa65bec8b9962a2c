"""A DDL statement leaves no reference cycles behind: the schema it replaces (and the
objects only that schema held) is freed by reference counting, so the cyclic garbage
collector need not run for it. Only a schema that may still build a table on first use
(a file's plain tables, ``schema._Deferred``) links its maps to each other, and it still
builds them after DDL on other tables."""

import gc
import sqlite3

import pytest

import sqlengine
from sqlengine import schema as S

# {k} differs on every run: a new object each time
DDL = [
    ["CREATE TABLE u{k}(x INTEGER PRIMARY KEY, y TEXT UNIQUE)", "DROP TABLE u{k}"],
    ["CREATE VIEW v{k} AS SELECT a FROM t WHERE a > {k}", "DROP VIEW v{k}"],
    ["CREATE INDEX i{k} ON t(b)", "DROP INDEX i{k}"],
    ["CREATE TRIGGER r{k} AFTER INSERT ON t BEGIN SELECT {k}; END", "DROP TRIGGER r{k}"],
    ["ALTER TABLE t ADD COLUMN c{k}"],
]


@pytest.mark.parametrize("steps", DDL, ids=lambda s: s[0].split("(")[0])
def test_ddl_leaves_no_cycles(steps):
    con = sqlengine.connect(":memory:", isolation_level=None, cached_statements=0)
    con.execute("CREATE TABLE t(a INTEGER, b TEXT)")
    for sql in steps:
        con.execute(sql.format(k=0))
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for k in range(1, 4):
            for sql in steps:
                con.execute(sql.format(k=k))
        assert gc.collect() == 0
        assert not con._db.schema.lazy
    finally:
        if enabled:
            gc.enable()
        con.close()


def test_lazy_tables_still_built_after_ddl(tmp_path):
    path = str(tmp_path / "p.db")
    ref = sqlite3.connect(path)
    ref.executescript("CREATE TABLE a(x, y); CREATE INDEX a_x ON a(x); CREATE TABLE b(x);"
                      "INSERT INTO a VALUES (1, 2);")
    ref.close()
    con = sqlengine.connect(path, isolation_level=None)
    assert con._db.schema.lazy
    con.execute("CREATE TABLE c(z)")
    con.execute("CREATE VIEW w AS SELECT x FROM b")
    s = con._db.schema
    assert s.lazy and type(dict.__getitem__(s.tables, "a")) is S._Deferred
    assert type(dict.__getitem__(s.indexes, "a_x")) is S._Deferred
    assert con.execute("SELECT y FROM a WHERE x = 1").fetchall() == [(2,)]
    assert [i.name for i in s.tables["a"].indexes] == ["a_x"]
    con.execute("DROP VIEW w")
    assert con.execute("SELECT name FROM pragma_index_list('a')").fetchall() == [("a_x",)]
    con.close()
