"""Every DB-API test runs against the stdlib ``sqlite3`` (the oracle) and ``sqlengine``.

The ``sqlite`` fixture is the module under test, used exactly as a program uses sqlite3:

- ``sqlite3``: the stdlib module, the expected behaviour;
- ``sqlengine-capi``: sqlengine's DB-API layer over a ctypes stand-in for ``Database``
  built on libsqlite3 (``capi_engine.py``): checks the layer's own logic whatever the state
  of the engine underneath;
- ``sqlengine``: sqlengine over its own engine. Tests whose SQL the engine runs (listed
  in ``engine_ready.txt``, or carrying the ``engine`` marker) get this third run as well.
  ``SQLENGINE_DBAPI_ALL=1 python -m pytest tests/dbapi -k "sqlengine]" -n 1
  --max-worker-restart=1000 -rA`` runs every test on the engine, to find the tests it
  has grown to pass (a crashing engine only loses its worker).
"""

from __future__ import annotations

import os
import sqlite3

import pytest

import sqlengine
import sqlengine.dbapi

try:
    import capi_engine
except OSError:  # no libsqlite3 on this machine
    capi_engine = None


class _Backend:
    """The module under test plus its name (for the few documented differences)."""

    def __init__(self, name, module):
        self.name = name
        self.module = module

    def __getattr__(self, attr):
        return getattr(self.module, attr)

    def __repr__(self):
        return self.name


def pytest_configure(config):
    config.addinivalue_line("markers", "engine: the test also runs on sqlengine's own engine")
    config.addinivalue_line("markers", "py312: needs Python 3.12's sqlite3 to run on the oracle")


def _engine_ready():
    path = os.path.join(os.path.dirname(__file__), "engine_ready.txt")
    with open(path, encoding="utf-8") as handle:
        return {line.strip() for line in handle if line.strip() and not line.startswith("#")}


ENGINE_READY = _engine_ready()


def pytest_generate_tests(metafunc):
    if "sqlite" not in metafunc.fixturenames:
        return
    names = ["sqlite3"]
    if metafunc.definition.get_closest_marker("py312") is not None and \
            not hasattr(sqlite3.Connection, "autocommit"):
        names = []  # this Python's sqlite3 predates the feature; checked on 3.12 instead
    if capi_engine is not None:
        names.append("sqlengine-capi")
    if metafunc.definition.get_closest_marker("engine") is not None \
            or metafunc.definition.originalname in ENGINE_READY \
            or os.environ.get("SQLENGINE_DBAPI_ALL"):
        names.append("sqlengine")
    metafunc.parametrize("sqlite", names, indirect=True)


@pytest.fixture
def sqlite(request, monkeypatch):
    if request.param == "sqlite3":
        return _Backend("sqlite3", sqlite3)
    if request.param == "sqlengine-capi":
        monkeypatch.setattr(sqlengine.dbapi, "_open_database",
                            lambda path, timeout: capi_engine.Database(path, timeout))
    return _Backend(request.param, sqlengine)


@pytest.fixture
def con(sqlite):
    connection = sqlite.connect(":memory:")
    yield connection
    connection.close()


@pytest.fixture
def cu(con):
    return con.cursor()
