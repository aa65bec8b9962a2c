"""Fixtures shared by the compiler tests."""

import sqlite3

import pytest

import sqlengine
from sqlengine import errors
from sqlengine.database import Database


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


def plan_details(con, q):
    """The detail column of ``EXPLAIN QUERY PLAN q`` on a DB-API connection."""
    return [r[3] for r in con.execute("EXPLAIN QUERY PLAN " + q)]


@pytest.fixture
def eqp():
    """``plan_details``, for tests that compare plans: ``eqp(con, q)``."""
    return plan_details


def outcome(execute, sql):
    """What running ``sql`` gives: ("rows", rows of (type name, value) pairs) or
    ("error", message), so that two engines' answers compare with ==."""
    try:
        return "rows", [tuple((type(v).__name__, v) for v in r) for r in execute(sql)]
    except (sqlite3.Error, errors.Error) as e:
        return "error", str(e)


class EnginePair:
    """A stdlib sqlite3 connection (autocommit) and a sqlengine Database holding the same
    tables; ``theirs(sql)`` and ``ours(sql)`` give each one's ``outcome``."""

    def __init__(self, setup):
        self.ref = sqlite3.connect(":memory:", isolation_level=None)
        self.db = Database(":memory:")
        for s in setup:
            self.ref.execute(s)
            self.db.execute(s)

    def theirs(self, sql):
        return outcome(lambda q: self.ref.execute(q).fetchall(), sql)

    def ours(self, sql):
        return outcome(self.db.execute, sql)

    def close(self):
        self.ref.close()
        self.db.close()


@pytest.fixture(scope="module")
def pair(request):
    """An ``EnginePair`` over the test module's ``SETUP`` statements."""
    p = EnginePair(request.module.SETUP)
    yield p
    p.close()
