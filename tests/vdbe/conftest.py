"""Fixtures shared by the VM tests."""

import sqlite3

import pytest

import sqlengine


@pytest.fixture(scope="module")
def pair(request):
    """(sqlengine connection, sqlite3 connection), both in memory and filled by the test
    module's ``fill(con)``."""
    ours, theirs = sqlengine.connect(":memory:"), sqlite3.connect(":memory:")
    request.module.fill(ours)
    request.module.fill(theirs)
    yield ours, theirs
    ours.close()
    theirs.close()
