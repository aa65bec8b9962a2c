"""sqlengine has every public name the stdlib sqlite3 module has: module attributes,
Connection, Cursor, Row and Blob members, with the same SQLITE_* values; and the objects a
program gets from the engine (a connection, its cursor, a row, a blob) have every public
member the stdlib's have."""

from __future__ import annotations

import sqlite3

_NOT_API = {"collections", "datetime", "time", "dbapi2", "dump"}  # the stdlib's submodules


def _public(obj):
    return {name for name in dir(obj) if not name.startswith("_")}


def test_module_names(sqlite):
    missing = _public(sqlite3) - _public(sqlite.module) - _NOT_API
    assert missing == set()
    assert hasattr(sqlite.module, "dbapi2")


def test_constant_values(sqlite):
    for name in _public(sqlite3):
        if name.startswith("SQLITE_"):
            assert getattr(sqlite.module, name) == getattr(sqlite3, name), name


def test_class_members(sqlite):
    for name in ("Connection", "Cursor", "Row", "Blob", "PrepareProtocol"):
        theirs = _public(getattr(sqlite3, name))
        ours = _public(getattr(sqlite.module, name))
        assert theirs - ours == set(), name


def _objects(module):
    """A connection, a cursor, a row and an open blob, as a program gets them."""
    con = module.connect(":memory:")
    con.execute("create table t(b blob)")
    con.execute("insert into t values (zeroblob(4))")
    cur = con.cursor()
    cur.row_factory = module.Row
    row = cur.execute("select b from t").fetchone()
    blob = con.blobopen("t", "b", 1)
    return con, {"Connection": con, "Cursor": cur, "Row": row, "Blob": blob}


def test_instance_members(sqlite):
    their_con, theirs = _objects(sqlite3)
    our_con, ours = _objects(sqlite.module)
    try:
        for name, obj in theirs.items():
            assert _public(obj) - _public(ours[name]) == set(), name
            assert type(ours[name]) is getattr(sqlite.module, name)
    finally:
        theirs["Blob"].close()
        ours["Blob"].close()
        their_con.close()
        our_con.close()


def test_exception_classes_are_the_errors_module(sqlite):
    from sqlengine import errors

    for name in ("Warning", "Error", "InterfaceError", "DatabaseError", "DataError",
                 "OperationalError", "IntegrityError", "InternalError", "ProgrammingError",
                 "NotSupportedError"):
        ours = getattr(sqlite.module, name)
        theirs = getattr(sqlite3, name)
        assert ours.__base__.__name__ == theirs.__base__.__name__, name
        if sqlite.module is not sqlite3:
            assert ours is getattr(errors, name)
