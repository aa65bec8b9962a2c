"""A DB-API module for the runner's tests: the stdlib sqlite3 with planted bugs.

- any statement mentioning BETWEEN raises OperationalError("no such function: between");
- a query containing CASE loses its last row (a wrong result);
- a query containing "crash_me" raises ZeroDivisionError (an engine crash);
- a query containing "die_now" kills the process (a worker that dies);
- a query containing "spin_forever" never returns;
- once a statement containing "poison" has run on a connection, a query containing
  "victim" returns no rows (state leaking from one query to the next).
Test helper only.
"""

import os
import sqlite3
import time

Error = sqlite3.Error
OperationalError = sqlite3.OperationalError
ProgrammingError = sqlite3.ProgrammingError


class Cursor:
    def __init__(self, cur, con):
        self._cur = cur
        self._con = con
        self._drop_last = False
        self._empty = False

    @property
    def description(self):
        return self._cur.description

    def execute(self, sql, params=()):
        up = sql.upper()
        if "BETWEEN" in up:
            raise OperationalError("no such function: between")
        if "CRASH_ME" in up:
            raise ZeroDivisionError("division by zero in the planner")
        if "DIE_NOW" in up:
            os._exit(3)
        if "SPIN_FOREVER" in up:
            while True:
                time.sleep(0.05)
        self._drop_last = "CASE" in up and not up.lstrip().startswith("EXPLAIN")
        self._empty = "VICTIM" in up and self._con.poisoned
        if "POISON" in up:
            self._con.poisoned = True
        self._cur.execute(sql, params)
        return self

    def fetchall(self):
        rows = self._cur.fetchall()
        if self._empty:
            return []
        return rows[:-1] if self._drop_last and rows else rows

    def fetchone(self):
        return self._cur.fetchone()

    def __iter__(self):
        return iter(self.fetchall())


class Connection:
    def __init__(self, con):
        self._con = con
        self.poisoned = False

    def cursor(self):
        return Cursor(self._con.cursor(), self)

    def close(self):
        self._con.close()


def connect(database, isolation_level=None):
    return Connection(sqlite3.connect(database, isolation_level=isolation_level))
