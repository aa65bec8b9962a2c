"""sqlengine has every public name the stdlib sqlite3 module has: module attributes,
Connection, Cursor, Row and Blob members, with the same SQLITE_* values."""

from __future__ import annotations

import sqlite3

import sqlengine

_NOT_API = {"collections", "datetime", "time", "dbapi2", "dump"}  # the stdlib's submodules


def _public(obj):
    return {name for name in dir(obj) if not name.startswith("_")}


def test_module_names():
    missing = _public(sqlite3) - _public(sqlengine) - _NOT_API
    assert missing == set()
    assert hasattr(sqlengine, "dbapi2")


def test_constant_values():
    for name in _public(sqlite3):
        if name.startswith("SQLITE_"):
            assert getattr(sqlengine, name) == getattr(sqlite3, name), name


def test_class_members():
    for name in ("Connection", "Cursor", "Row", "Blob", "PrepareProtocol"):
        theirs = _public(getattr(sqlite3, name))
        ours = _public(getattr(sqlengine, name))
        assert theirs - ours == set(), name


def test_exception_classes_are_the_errors_module():
    from sqlengine import errors

    for name in ("Warning", "Error", "InterfaceError", "DatabaseError", "DataError",
                 "OperationalError", "IntegrityError", "InternalError", "ProgrammingError",
                 "NotSupportedError"):
        assert getattr(sqlengine, name) is getattr(errors, name)
