"""Whole-database operations of the DB-API built on plain SQL: iterdump, backup, Blob,
serialize and deserialize.

SQLite implements these below the SQL level (page copies, incremental blob I/O). On
sqlengine's own engine, backup/serialize/deserialize move pages (``dbapi_pages``); here they
are built from statements the engine already runs (reading sqlite_schema, SELECT, INSERT,
UPDATE), so they work on any engine that speaks the ``database`` contract. They keep the
stdlib's interface and messages; differences are written next to the code. This module
must never touch the storage layer directly.
"""

from __future__ import annotations

import operator
import os
import tempfile

from sqlengine import errors
from sqlengine.dbapi_types import sql_literal
from sqlengine.errors import OperationalError, ProgrammingError


def _quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _rows(conn, sql, params=()):
    """Run ``sql`` on the engine directly (no implicit BEGIN, no tracing); yield rows."""
    stmt, _ = conn._db.prepare(sql, 0)
    try:
        for i, value in enumerate(params, 1):
            stmt.bind(i, value)
        while True:
            row = stmt.step()
            if row is None:
                return
            yield row
    finally:
        stmt.finalize()


def _run(conn, sql, params=()):
    for _ in _rows(conn, sql, params):
        pass


def _column_names(conn, sql):
    stmt, _ = conn._db.prepare(sql, 0)
    try:
        return list(stmt.column_names)
    finally:
        stmt.finalize()


def _schema(conn):
    """(type, name, tbl_name, sql) of every schema object, in sqlite_schema order."""
    return list(_rows(conn, "SELECT type, name, tbl_name, sql FROM sqlite_master"))


# ---------------------------------------------------------------------------------------
# iterdump: the stdlib's dump format (CREATE TABLE, its rows as INSERTs, then the other
# objects, sqlite_sequence last), so a dump taken here is line-for-line the stdlib's.


def iterdump(conn):
    schema = _schema(conn)
    return _dump_lines(conn, schema)


def _dump_lines(conn, schema):
    yield "BEGIN TRANSACTION;"
    tables = sorted((row for row in schema if row[0] == "table" and row[3] is not None),
                    key=lambda row: row[1].encode("utf-8"))
    writable_schema = False
    sequence = []
    for _, name, _, sql in tables:
        if name == "sqlite_sequence":
            sequence.append('DELETE FROM "sqlite_sequence";')
            for seq_name, seq in _rows(conn, 'SELECT * FROM "sqlite_sequence"'):
                sequence.append(f"INSERT INTO \"sqlite_sequence\" VALUES('{seq_name}',{seq});")
            continue
        if name == "sqlite_stat1":
            yield 'ANALYZE "sqlite_master";'
        elif name.startswith("sqlite_"):
            continue
        elif sql.startswith("CREATE VIRTUAL TABLE"):
            if not writable_schema:
                writable_schema = True
                yield "PRAGMA writable_schema=ON;"
            escaped_name = name.replace("'", "''")
            escaped_sql = sql.replace("'", "''")
            yield ("INSERT INTO sqlite_master(type,name,tbl_name,rootpage,sql)"
                   f"VALUES('table','{escaped_name}','{escaped_name}',0,'{escaped_sql}');")
        else:
            yield f"{sql};"
        table = _quote_ident(name)
        for row in _rows(conn, f"SELECT * FROM {table}"):
            values = ",".join(sql_literal(value) for value in row)
            yield f"INSERT INTO {table} VALUES({values});"
    for kind, _, _, sql in schema:
        if kind in ("index", "trigger", "view") and sql is not None:
            yield f"{sql};"
    if writable_schema:
        yield "PRAGMA writable_schema=OFF;"
    yield from sequence
    yield "COMMIT;"


# ---------------------------------------------------------------------------------------
# backup: replaces the target's content with the source's, table by table.
# SQLite copies pages; this copies schema and rows (rowids kept), in one transaction on
# the target, and reports progress once, as one step that copied everything.


def _page_count(conn):
    try:
        for (count,) in _rows(conn, "PRAGMA page_count"):
            return int(count)
    except errors.Error:
        pass
    return 0


def copy_database(source, target):
    """Make ``target``'s main database a copy of ``source``'s (both Connections)."""
    target_schema = _schema(target)
    source_schema = _schema(source)
    _run(target, "BEGIN")
    try:
        for kind in ("trigger", "view", "table"):
            for row_kind, name, _, sql in target_schema:
                if row_kind == kind and sql is not None and not name.startswith("sqlite_"):
                    _run(target, f"DROP {kind.upper()} IF EXISTS {_quote_ident(name)}")
        if any(row[1] == "sqlite_sequence" for row in target_schema):
            _run(target, 'DELETE FROM "sqlite_sequence"')
        for kind, name, _, sql in source_schema:
            if kind == "table" and sql is not None and not name.startswith("sqlite_"):
                _run(target, sql)
                _copy_rows(source, target, name)
        for kind, name, _, sql in source_schema:
            if name == "sqlite_sequence":
                for seq_name, seq in list(_rows(source, 'SELECT * FROM "sqlite_sequence"')):
                    _run(target, 'INSERT INTO "sqlite_sequence" VALUES(?, ?)', (seq_name, seq))
            elif kind in ("index", "trigger", "view") and sql is not None:
                _run(target, sql)
        _copy_pragma(source, target, "user_version")
        _copy_pragma(source, target, "application_id")
        _run(target, "COMMIT")
    except BaseException:
        if not target._db.autocommit:
            _run(target, "ROLLBACK")
        raise
    target._schema_changed()


def _copy_rows(source, target, name):
    table = _quote_ident(name)
    columns = _column_names(source, f"SELECT * FROM {table}")
    plain = ", ".join(_quote_ident(c) for c in columns)
    try:  # keep rowids: copy _rowid_ as well (not for WITHOUT ROWID tables)
        select = f"SELECT _rowid_, * FROM {table}"
        _column_names(source, select)
        placeholders = ", ".join("?" * (len(columns) + 1))
        insert, _ = target._db.prepare(
            f"INSERT INTO {table}(_rowid_, {plain}) VALUES({placeholders})", 0)
    except errors.Error:
        select = f"SELECT * FROM {table}"
        placeholders = ", ".join("?" * len(columns))
        insert, _ = target._db.prepare(f"INSERT INTO {table}({plain}) VALUES({placeholders})",
                                       0)
    try:
        for row in _rows(source, select):
            insert.reset()
            for i, value in enumerate(row, 1):
                insert.bind(i, value)
            insert.step()
    finally:
        insert.finalize()


def _copy_pragma(source, target, pragma):
    try:
        for (value,) in _rows(source, f"PRAGMA {pragma}"):
            if value:
                _run(target, f"PRAGMA {pragma} = {int(value)}")
    except errors.Error:
        pass


def backup(source, target, *, pages=-1, progress=None, name="main", sleep=0.250):
    from sqlengine.dbapi import Connection

    if not isinstance(target, Connection):
        raise TypeError(
            f"backup() argument 'target' must be sqlengine.Connection, not {type(target).__name__}"
        )
    if not isinstance(pages, int):
        raise TypeError(f"'{type(pages).__name__}' object cannot be interpreted as an integer")
    if target is source:
        raise ValueError("target cannot be the same connection instance")
    target._check()
    if progress is not None and not callable(progress):
        raise TypeError("progress argument must be a callable")
    if not isinstance(name, str):
        raise TypeError(f"backup() argument 'name' must be str, not {type(name).__name__}")
    if not target._db.autocommit:
        raise OperationalError("target is in transaction")
    from sqlengine import dbapi_pages

    if dbapi_pages.supported(source) and dbapi_pages.supported(target):
        dbapi_pages.backup(source, target, pages, progress, name)
        return
    if name != "main":
        raise OperationalError(f"unknown database {name}")
    copy_database(source, target)
    if progress is not None:
        progress(errors.SQLITE_DONE, 0, _page_count(source))


# ---------------------------------------------------------------------------------------
# serialize / deserialize: through a temporary database file in SQLite's format.


def serialize(conn, name):
    from sqlengine import dbapi_pages
    from sqlengine.dbapi import Connection

    if dbapi_pages.supported(conn):
        return dbapi_pages.serialize(conn, name)
    if name != "main":
        raise OperationalError(f"unknown database {name}")
    fd, path = tempfile.mkstemp(suffix=".db", prefix="sqlengine-")
    os.close(fd)
    os.unlink(path)
    try:
        copy = Connection(path)
        try:
            copy_database(conn, copy)
        finally:
            copy.close()
        with open(path, "rb") as handle:
            return handle.read()
    finally:
        for suffix in ("", "-journal", "-wal"):
            if os.path.exists(path + suffix):
                os.unlink(path + suffix)


def deserialize(conn, data, name):
    from sqlengine.dbapi import Connection

    from sqlengine import dbapi_pages

    data = bytes(memoryview(data))
    if name != "main" and not dbapi_pages.supported(conn):
        raise OperationalError(f"unknown database {name}")
    if any(c._statement is not None for c in conn._cursors) or \
            any(s.in_use for s in conn._cache.values()):
        raise OperationalError("cannot deserialize while statements are active",
                               code=errors.SQLITE_BUSY)
    if not conn._db.autocommit:
        raise OperationalError("cannot deserialize while a transaction is open",
                               code=errors.SQLITE_BUSY)
    if dbapi_pages.supported(conn):
        dbapi_pages.deserialize(conn, data, name)
        return
    fd, path = tempfile.mkstemp(suffix=".db", prefix="sqlengine-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        source = Connection(path)
        try:
            copy_database(source, conn)
        finally:
            source.close()
    finally:
        for suffix in ("", "-journal", "-wal"):
            if os.path.exists(path + suffix):
                os.unlink(path + suffix)


# ---------------------------------------------------------------------------------------
# Blob: the stdlib's incremental blob handle, over SELECT and UPDATE of the one value.


class Blob:
    """A handle on one BLOB value (table, column, rowid), as sqlite3.Blob."""

    def __init__(self, conn, table, column, row, readonly, name):
        if not isinstance(table, str) or not isinstance(column, str):
            raise TypeError("blobopen() table and column must be str")
        row = operator.index(row)
        self._conn = conn
        self._readonly = bool(readonly)
        self._closed = False
        self._offset = 0
        from sqlengine import dbapi_pages

        self._io = dbapi_pages.blob_open(conn, table, column, row, not readonly, name)
        if self._io is not None:  # the engine reads and writes the value in place
            self._rowid = row
            self._length = self._io.length
            return
        schema = _quote_ident(name)
        if not any(kind == "table" and tname.lower() == table.lower()
                   for kind, tname, _, _ in _schema(conn)):
            raise OperationalError(f"no such table: {name}.{table}")
        columns = _column_names(conn, f"SELECT * FROM {_quote_ident(table)}")
        matches = [c for c in columns if c.lower() == column.lower()]
        if not matches:
            raise OperationalError(f'no such column: "{column}"')
        del schema
        # The rowid is an int, written into the SQL text: one parameter less to bind.
        where = f"WHERE _rowid_ = {int(row)}"
        self._select = f"SELECT {_quote_ident(matches[0])} FROM {_quote_ident(table)} {where}"
        self._update = f"UPDATE {_quote_ident(table)} SET {_quote_ident(matches[0])} = ? {where}"
        self._rowid = row
        value = self._value(opening=True)
        self._length = len(value)

    def _value(self, opening=False):
        if self._io is not None:
            return self._io.read()
        rows = list(_rows(self._conn, self._select))
        if not rows:
            if opening:
                raise OperationalError(f"no such rowid: {self._rowid}")
            raise OperationalError("query aborted", code=errors.SQLITE_ABORT)
        value = rows[0][0]
        if isinstance(value, str):
            return value.encode("utf-8")
        if isinstance(value, bytes):
            return value
        kind = {type(None): "null", int: "integer", float: "real"}[type(value)]
        raise OperationalError(f"cannot open value of type {kind}")

    def _check(self):
        self._conn._check()
        if self._closed:
            raise ProgrammingError("Cannot operate on a closed blob.")

    def close(self):
        self._conn._check()
        if self._io is not None and not self._closed:
            self._io.close()
        self._closed = True

    def __del__(self):  # an unreferenced blob lets go of its handle, as in the stdlib
        io = getattr(self, "_io", None)
        if io is not None and not self._closed:
            self._closed = True
            try:
                io.close()
            except Exception:  # noqa: S110 - nothing to report to at collection time
                pass

    def __enter__(self):
        self._check()
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __len__(self):
        self._check()
        return self._length

    def tell(self):
        self._check()
        return self._offset

    def seek(self, offset, origin=os.SEEK_SET, /):
        self._check()
        if origin == os.SEEK_SET:
            base = 0
        elif origin == os.SEEK_CUR:
            base = self._offset
        elif origin == os.SEEK_END:
            base = self._length
        else:
            raise ValueError("'origin' should be os.SEEK_SET, os.SEEK_CUR, or os.SEEK_END")
        target = base + offset
        if not 0 <= target <= self._length:
            raise ValueError("offset out of blob range")
        self._offset = target

    def read(self, length=-1, /):
        self._check()
        available = self._length - self._offset
        if length < 0 or length > available:
            length = available
        data = self._value()[self._offset:self._offset + length]
        self._offset += length
        return data

    def _store(self, offset, data):
        if self._readonly:
            raise OperationalError("attempt to write a readonly database",
                                   code=errors.SQLITE_READONLY)
        value = bytearray(self._value())
        value[offset:offset + len(data)] = data
        if self._io is not None:
            self._io.write(bytes(value))
            return
        _run(self._conn, self._update, (bytes(value),))

    def write(self, data, /):
        self._check()
        data = bytes(memoryview(data))
        if len(data) > self._length - self._offset:
            raise ValueError("data longer than blob length")
        self._store(self._offset, data)
        self._offset += len(data)

    def _index(self, key) -> int:
        """The byte offset an integer subscript names (negative from the end)."""
        if not hasattr(key, "__index__"):
            raise TypeError("Blob indices must be integers")
        index = operator.index(key)
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("Blob index out of range")
        return index

    def __getitem__(self, key):
        self._check()
        if isinstance(key, slice):
            return self._value()[key]
        return self._value()[self._index(key)]

    def __setitem__(self, key, value):
        self._check()
        if isinstance(key, slice):
            data = bytes(memoryview(value))
            start, stop, step = key.indices(self._length)
            positions = range(start, stop, step)
            if len(data) != len(positions):
                raise IndexError("Blob slice assignment is wrong size")
            current = bytearray(self._value())
            for position, byte in zip(positions, data):
                current[position] = byte
            self._store(0, bytes(current))
            return
        index = self._index(key)
        if not isinstance(value, int) or not 0 <= value <= 255:
            raise ValueError("byte must be in range(0, 256)")
        self._store(index, bytes((value,)))

    def __delitem__(self, key):
        raise TypeError("Blob doesn't support item deletion")
