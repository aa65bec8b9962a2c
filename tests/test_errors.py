"""The exception hierarchy matches the stdlib sqlite3 module's."""

import sqlite3

from sqlengine import errors


def test_hierarchy_matches_stdlib():
    for name in ("InterfaceError", "DatabaseError", "DataError", "OperationalError",
                 "IntegrityError", "InternalError", "ProgrammingError", "NotSupportedError"):
        ours = getattr(errors, name)
        theirs = getattr(sqlite3, name)
        assert [c.__name__ for c in ours.__mro__[:-2]] == [c.__name__ for c in theirs.__mro__[:-2]]


def test_error_code_names():
    e = errors.error_for_code(errors.SQLITE_CONSTRAINT_UNIQUE, "UNIQUE constraint failed: t.a")
    assert isinstance(e, errors.IntegrityError)
    assert e.sqlite_errorname == "SQLITE_CONSTRAINT_UNIQUE"
    assert e.sqlite_errorcode == 2067
