"""The engine adapter: how the runner drives a SQL engine, and its DB-API implementation.

The runner needs two operations, stated in the reference's terms:

``statement(sql) -> None | str``
    Run ``sql`` as ``sqlite3_exec`` does (the reference's slt_sqlite.c): every statement in
    the text, in order, each stepped to completion, stopping at the first error. None on
    success, else the error message.

``query(sql) -> (ncols, rows, step_error)``
    Prepare the first statement of ``sql`` and step it. Raises ``PrepareError`` when it
    cannot be prepared. ``ncols`` is the statement's column count (None when it cannot be
    told: the first step failed and EXPLAIN does not show it), ``rows`` the rows stepped
    before any error, ``step_error`` the message of an error raised while stepping (the
    reference stops there and compares the rows it has), else None.

``DBAPIEngine`` implements both over any DB-API 2.0 module with the stdlib ``sqlite3`` API
(``connect``, ``Connection.cursor``, ``Cursor.execute/fetchall/description``), in autocommit
mode (``isolation_level=None``) so that scripts' own BEGIN/COMMIT work. Where the stdlib
module cannot run a record the way the reference C runner does, it is worked around here,
on the error path only (no cost on records that succeed):

* Several statements in one record: the stdlib raises ``ProgrammingError: You can only
  execute one statement at a time``. The adapter then splits the text into statements
  (``sqlite3.complete_statement`` on growing prefixes ending at each ``;``, so semicolons in
  strings, comments and trigger bodies are SQLite's business) and runs them as the reference
  does: all of them for a statement record (``sqlite3_exec``), only the first for a query
  (``sqlite3_prepare_v2``). FORMAT.md says a statement record runs only its first
  statement; the reference's code and its published failures (evidence/slt_lang_aggfunc.test
  line 487 needs the ``DROP INDEX`` of the record at line 476 to have run) say otherwise,
  and the reference wins. Each use is noted (``notes``).
* Prepare error or step error? ``execute`` prepares and steps the first row in one call. When
  it raises, the adapter asks whether ``EXPLAIN <sql>`` prepares: if it does, the statement
  prepared and the error came from stepping (rows so far: none). The column count of such a
  statement comes from the ResultRow instruction of its EXPLAIN listing.
* Rows before a step error: the stdlib builds a row and steps to the next before handing the
  row out, so an error on row k+1 loses row k. A probe at connect time finds whether the
  module does this; if so, after a mid-result error the adapter re-runs the query as
  ``SELECT * FROM (<sql>) LIMIT k`` to collect exactly the k rows the reference saw.

This module never renders or compares values; it only runs SQL and reports what happened.
"""

from __future__ import annotations

import importlib
import sqlite3 as _stdlib_sqlite3
import time

__all__ = ["Engine", "PrepareError", "EngineCrash", "DBAPIEngine", "open_engine",
           "split_statements"]

_MULTI_STATEMENT = "one statement at a time"


class PrepareError(Exception):
    """The SQL of a query record could not be prepared (message = the engine's error)."""


class EngineCrash(Exception):
    """The engine raised something other than a DB-API error (a bug in the engine).

    The runner counts it as a failure whatever the record expects, ``statement error`` too.
    """


class Engine:
    """The interface the runner drives. Subclass it to plug in an engine that is not DB-API."""

    name = "engine"

    def statement(self, sql: str):  # -> None | str
        raise NotImplementedError

    def query(self, sql: str):  # -> (ncols, rows, step_error)
        raise NotImplementedError

    def close(self) -> None:
        pass

    #: Notes on the current record when the adapter had to run it differently from the
    #: reference (the runner moves them to the result, with the record's line, and clears).
    notes: list


def split_statements(sql: str) -> list[str]:
    """Cut ``sql`` after each complete statement's ``;``; a non-blank tail is kept last.

    Uses ``sqlite3.complete_statement`` (SQLite's own tokenizer, so semicolons inside
    strings, comments and CREATE TRIGGER bodies are handled as SQLite does).
    """
    parts = []
    start = 0
    k = sql.find(";")
    while k >= 0:
        if _stdlib_sqlite3.complete_statement(sql[start:k + 1]):
            parts.append(sql[start:k + 1])
            start = k + 1
        k = sql.find(";", k + 1)
    if sql[start:].strip():
        parts.append(sql[start:])
    return parts


def _connect(module, database, cached_statements=None):
    if cached_statements is not None:
        try:
            return module.connect(database, isolation_level=None,
                                  cached_statements=cached_statements)
        except TypeError:
            pass
    try:
        return module.connect(database, isolation_level=None)
    except TypeError:
        con = module.connect(database)
        try:
            con.isolation_level = None
        except Exception:
            pass
        return con


class DBAPIEngine(Engine):
    """Any DB-API module with the stdlib sqlite3 API, in autocommit mode, one connection."""

    def __init__(self, module_name: str = "sqlite3", database: str = ":memory:"):
        self.name = module_name
        self.module = importlib.import_module(module_name)
        # The corpus runs each statement text about once: a statement cache only costs
        # (about 8% of sqlite3's time on the corpus), so it is turned off where supported.
        self.con = _connect(self.module, database, cached_statements=0)
        self.cur = self.con.cursor()
        self._error = getattr(self.module, "Error", Exception)
        self.notes: list[str] = []
        self._loses_row: bool | None = None

    # -- the two operations --------------------------------------------------------------

    def statement(self, sql):
        cur = self.cur
        try:
            cur.execute(sql)
            if cur.description is not None:
                cur.fetchall()
            return None
        except Exception as e:
            return self._statement_error(sql, e)

    def query(self, sql):
        cur = self.cur
        try:
            cur.execute(sql)
            rows = cur.fetchall()
        except Exception as e:
            return self._query_error(sql, e)
        d = cur.description
        return (len(d) if d is not None else 0), rows, None

    def close(self):
        try:
            self.con.close()
        except Exception:
            pass

    # -- error paths ---------------------------------------------------------------------

    def _split(self, sql, e, how):
        """The statements of a multi-statement text, when ``e`` says it was one."""
        if _MULTI_STATEMENT not in str(e):
            return None
        parts = split_statements(sql)
        if len(parts) < 2:
            return None
        self.notes.append(f"{len(parts)} statements in one record: {how}")
        return parts

    def _statement_error(self, sql, e):
        if not isinstance(e, self._error):
            raise EngineCrash(_crash_text(e)) from e
        parts = self._split(sql, e, "ran them all, as sqlite3_exec does")
        if parts is None:
            return str(e)
        for part in parts:
            err = self.statement(part)
            if err is not None:
                return err
        return None

    def _query_error(self, sql, e):
        if not isinstance(e, self._error):
            raise EngineCrash(_crash_text(e)) from e
        parts = self._split(sql, e, "ran the first only, as sqlite3_prepare_v2 does")
        if parts is not None:
            return self.query(parts[0])
        ncols = self._explain_ncols(sql)
        if ncols is False:
            raise PrepareError(str(e)) from None
        cur = self.cur
        rows = []
        try:
            cur.execute(sql)
            d = cur.description
            if d is not None:
                ncols = len(d)
            for row in cur:
                rows.append(row)
        except Exception as e2:
            if not isinstance(e2, self._error):
                raise EngineCrash(_crash_text(e2)) from e2
            err = str(e2)
        else:  # the error did not come back: report what this run gave
            return (ncols if ncols is not None else 0), rows, None
        how = "compared the rows before it"
        if rows and self.loses_row_before_error():
            got = self._rows_before(sql, len(rows) + 1)
            if got is not None:
                rows = got
                how = "re-ran it with LIMIT to get the row the module drops"
        self.notes.append(f"error while stepping after {len(rows)} rows ({err}): {how}")
        return ncols, rows, err

    def _explain_ncols(self, sql):
        """False if ``sql`` does not prepare, else its column count (None if unknown)."""
        try:
            listing = self.cur.execute("EXPLAIN " + sql).fetchall()
        except Exception:
            return False
        seen_halt = False
        for row in listing:
            if len(row) > 3:
                if row[1] == "ResultRow":
                    return row[3]
                if row[1] == "Halt":
                    seen_halt = True
        return 0 if seen_halt else None

    def _rows_before(self, sql, k):
        body = sql.rstrip().rstrip(";")
        try:
            rows = self.cur.execute(f"SELECT * FROM ({body}\n) LIMIT {k}").fetchall()
        except Exception:
            return None
        return rows if len(rows) == k else None

    def loses_row_before_error(self) -> bool:
        """Does this module drop the last good row when stepping the next one fails?"""
        if self._loses_row is None:
            self._loses_row = _probe_loses_row(self.module)
        return self._loses_row


def _crash_text(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"


_PROBE_CACHE: dict[str, bool] = {}


def _probe_loses_row(module) -> bool:
    name = module.__name__
    if name in _PROBE_CACHE:
        return _PROBE_CACHE[name]
    result = False
    try:
        con = _connect(module, ":memory:")
        cur = con.cursor()
        cur.execute("CREATE TABLE probe(x)")
        cur.execute("INSERT INTO probe VALUES(1)")
        cur.execute("INSERT INTO probe VALUES(2)")
        cur.execute("INSERT INTO probe VALUES(-9223372036854775808)")
        cur.execute("SELECT abs(x) FROM probe")
        got = []
        try:
            for row in cur:
                got.append(row)
        except Exception:
            result = len(got) == 1
        con.close()
    except Exception:
        result = False
    _PROBE_CACHE[name] = result
    return result


class TimedEngine(Engine):
    """Wraps an engine and adds up the wall time spent inside it (``seconds``)."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.name = engine.name
        self.notes = engine.notes
        self.seconds = 0.0

    def statement(self, sql):
        t = time.perf_counter()
        try:
            return self.engine.statement(sql)
        finally:
            self.seconds += time.perf_counter() - t

    def query(self, sql):
        t = time.perf_counter()
        try:
            return self.engine.query(sql)
        finally:
            self.seconds += time.perf_counter() - t

    def close(self):
        self.engine.close()


def open_engine(name: str, database: str = ":memory:") -> Engine:
    """An engine by name: any importable DB-API module (``sqlite3``, ``sqlengine``, ...)."""
    return DBAPIEngine(name, database)
