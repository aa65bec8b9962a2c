"""PRAGMA secure_delete acts on the file as in sqlite3 3.40.1 (built with
SQLITE_SECURE_DELETE: on by default): ON overwrites a deleted cell's bytes (SQLite's
freeSpace) and every page put on the freelist (freePage2) with zeros; FAST zeroes the
cells but not the freelist's leaf pages; OFF zeroes neither. After each deletion the file
is read back: whether the deleted text is still in it is what sqlite3's file says, for
each mode, on the main database and on an attached one (which takes main's setting)."""

from __future__ import annotations

import sqlite3

import pytest

import sqlengine

SECRET = b"SECRET-TEXT-"
LONG = b"y" * 100  # (a run of the overflow pages' content)


def _fill(con, overflow):
    """The table, its index and rows: one transaction (the deletion is another)."""
    con.execute("begin")
    con.execute("create table IF_SCHEMA.t(a integer primary key, b)")
    con.execute("create index IF_SCHEMA.tb on t(b)")
    for i in range(40):
        con.execute("insert into IF_SCHEMA.t(b) values(?)", (f"keep{i:03d}-" + "x" * 50,))
    con.execute("insert into IF_SCHEMA.t(b) values(?)",
                ("SECRET-TEXT-" + ("y" * 9000 if overflow else "z"),))
    for i in range(40):
        con.execute("insert into IF_SCHEMA.t(b) values(?)", (f"more{i:03d}-" + "x" * 50,))
    con.execute("commit")


CASES = {
    "one": "delete from IF_SCHEMA.t where b like 'SECRET%'",
    "overflow": "delete from IF_SCHEMA.t where b like 'SECRET%'",
    "all": "delete from IF_SCHEMA.t",
    "drop": "drop table IF_SCHEMA.t",
    "update": "update IF_SCHEMA.t set b = 'public' where b like 'SECRET%'",
    "update_overflow": "update IF_SCHEMA.t set b = 'public' where b like 'SECRET%'",
}


def _traces(module, tmp_path, mode, case, attached):
    path = tmp_path / f"{module.__name__}.db"
    con = module.connect(str(path if not attached else ":memory:"), isolation_level=None)
    schema = "main"
    if attached:
        path = tmp_path / f"{module.__name__}-aux.db"
    con.execute(f"pragma secure_delete = {mode}").fetchall()
    if attached:
        con.execute(f"attach '{path}' as aux")
        schema = "aux"
    _fill(_Schema(con, schema), "overflow" in case)
    _Schema(con, schema).execute(CASES[case])
    answers = [con.execute(f"pragma {schema}.secure_delete").fetchall(),
               con.execute(f"pragma {schema}.integrity_check").fetchall()]
    con.close()
    data = path.read_bytes()
    return SECRET in data, LONG in data, answers


class _Schema:
    """A connection whose statements name the database ``schema``."""

    def __init__(self, con, schema):
        self.con, self.schema = con, schema

    def execute(self, sql, params=()):
        return self.con.execute(sql.replace("IF_SCHEMA", self.schema), params)


@pytest.mark.parametrize("attached", [False, True], ids=["main", "attached"])
@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("mode", ["on", "fast", "off", "2"])
def test_traces_as_sqlite(tmp_path, mode, case, attached):
    (tmp_path / "e").mkdir()
    (tmp_path / "s").mkdir()
    mine = _traces(sqlengine, tmp_path / "e", mode, case, attached)
    ref = _traces(sqlite3, tmp_path / "s", mode, case, attached)
    assert mine == ref


@pytest.mark.parametrize("case", ["one", "overflow", "all", "drop", "update"])
def test_on_leaves_no_trace(tmp_path, case):
    """The default (ON): nothing of the deleted text is left in the file."""
    path = tmp_path / "x.db"
    con = sqlengine.connect(str(path), isolation_level=None)
    _fill(_Schema(con, "main"), case == "overflow")
    _Schema(con, "main").execute(CASES[case])
    con.close()
    data = path.read_bytes()
    assert SECRET not in data and LONG not in data
