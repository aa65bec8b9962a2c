"""Fixtures shared by the compiler tests."""

import sqlite3

import pytest

import sqlengine


@pytest.fixture(scope="module")
def cons(request):
    """(sqlite3 connection, sqlengine connection), both in memory and holding the test
    module's ``SCHEMA`` script."""
    schema = request.module.SCHEMA
    ref = sqlite3.connect(":memory:")
    ref.executescript(schema)
    eng = sqlengine.connect(":memory:")
    eng.executescript(schema)
    yield ref, eng
    ref.close()
    eng.close()
