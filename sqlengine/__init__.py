"""sqlengine: a SQLite-compatible SQL database engine with the stdlib sqlite3 module's API.

``import sqlengine as sqlite3`` is the contract: this module re-exports the DB-API 2.0
surface from ``dbapi.py`` (and its helpers ``dbapi_types``, ``dbapi_extras``) and the
exception classes from ``errors.py``. Importing it never loads the engine itself; the
first ``connect()`` does.
"""

# first: from here on an edited module whose compiled copy is older runs from its source
from sqlengine import _source_guard  # noqa: F401  (installs its finder)
from sqlengine import dbapi_types as _dbapi_types
from sqlengine.dbapi import (  # noqa: F401
    LEGACY_TRANSACTION_CONTROL,
    PARSE_COLNAMES,
    PARSE_DECLTYPES,
    Binary,
    Connection,
    Cursor,
    Date,
    DateFromTicks,
    PrepareProtocol,
    Row,
    Time,
    TimeFromTicks,
    Timestamp,
    TimestampFromTicks,
    adapt,
    adapters,
    apilevel,
    complete_statement,
    connect,
    converters,
    enable_callback_tracebacks,
    enable_shared_cache,
    paramstyle,
    register_adapter,
    register_converter,
    sqlite_version,
    sqlite_version_info,
    threadsafety,
    version,
    version_info,
)
from sqlengine.dbapi_extras import Blob  # noqa: F401
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

# Every SQLITE_* constant the stdlib module has: result codes (errors.py), authorizer
# actions, limits and db-config verbs (dbapi_types.py).
from sqlengine import errors as _errors  # noqa: E402

for _module in (_errors, _dbapi_types):
    for _name in dir(_module):
        if _name.startswith("SQLITE_") and isinstance(getattr(_module, _name), int):
            globals()[_name] = getattr(_module, _name)
del _module, _name
from sqlengine import dbapi as dbapi2  # noqa: E402,F401  (the stdlib has sqlite3.dbapi2)
