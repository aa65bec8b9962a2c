"""sqlengine: a SQLite-compatible SQL database engine with the stdlib sqlite3 module's API.

``import sqlengine as sqlite3`` is the contract: this module re-exports the DB-API 2.0
surface from ``dbapi.py`` and the exception classes from ``errors.py``.
"""

from sqlengine.errors import (  # noqa: F401
    DatabaseError,
    DataError,
    Error,
    IntegrityError,
    InterfaceError,
    InternalError,
    NotSupportedError,
    OperationalError,
    ProgrammingError,
    Warning,
)
