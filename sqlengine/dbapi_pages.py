"""Page-level backup, serialize and deserialize for connections on sqlengine's own engine
(the level of sqlite3_backup_step, sqlite3_serialize and sqlite3_deserialize).

``dbapi_extras`` calls these when the connection's ``Database`` has a b-tree (``db.bt``), or
offers the optional ``backup_pages(target_db, name, pages, progress)``,
``serialize_pages(name)`` and ``deserialize_pages(data, name)`` of its own (the ctypes
stand-in of the tests, over SQLite's C API); other engines keep its SQL-level copies. A backup or a
deserialize replaces the target's whole image inside one write transaction of its pager
(``Pager.replace_image``: every old page journaled first), so the target holds the old or
the new database, never a mix; serialize reads the source's pages in a read transaction.
This module only moves whole pages: it never interprets records or SQL.
"""

from __future__ import annotations

from sqlengine import errors
from sqlengine.errors import OperationalError

_MAGIC = b"SQLite format 3\0"


def supported(conn) -> bool:
    """True when ``conn``'s engine gives page access (sqlengine's, or its own methods)."""
    return hasattr(conn._db, "bt") or hasattr(conn._db, "serialize_pages")


def _database(conn, name):
    """(Database, its own b-tree) of schema ``name`` of ``conn``."""
    db = conn._db
    if name == "main":
        return db, _plain(db.bt)
    for att in getattr(db, "attached", ()):
        if att.name.lower() == name.lower():
            return att.db, _plain(att.db.bt)
    raise OperationalError(f"unknown database {name}")


def _plain(bt):
    return getattr(bt, "main", bt)  # the main b-tree behind an ATTACH multi b-tree


class _Page:
    __slots__ = ("data",)

    def __init__(self, data):
        self.data = data


class _Image:
    """A database image in memory, seen as the source pager of ``replace_image``."""

    def __init__(self, data: bytes):
        self.page_size = _page_size(data)
        ps = self.page_size
        if len(data) % ps:
            data = data + bytes(ps - len(data) % ps)
        self.data = data
        self.db_size = len(data) // ps
        self.reserved = data[20] if len(data) > 20 and data[:16] == _MAGIC else 0

    def get(self, pgno):
        ps = self.page_size
        return _Page(self.data[(pgno - 1) * ps:pgno * ps])


def _page_size(data):
    if len(data) >= 100 and data[:16] == _MAGIC:
        n = int.from_bytes(data[16:18], "big")
        if n == 1:
            n = 65536
        if 512 <= n <= 65536 and not n & (n - 1):
            return n
    return 4096


def _replace(bt, pager_like, page_size):
    bt.begin(True)
    try:
        for cur in list(bt._live_cursors()):
            cur.invalidate()
        bt.pager.replace_image(pager_like, page_size)
    except BaseException:
        if bt.in_trans:
            try:
                bt.rollback()
            except errors.Error:
                pass
        raise


def backup(source, target, pages, progress, name):
    """Copy schema ``name`` of ``source`` over ``target``'s main database, reporting
    progress as SQLite's backup steps of ``pages`` pages would."""
    if not hasattr(source._db, "bt"):
        source._db.backup_pages(target._db, name, pages, progress)
        target._schema_changed()
        return
    _, sbt = _database(source, name)
    tdb = target._db
    tbt = _plain(tdb.bt)
    own = sbt.in_trans == 0
    if own:
        sbt.begin(False)
    try:
        total = sbt.pager.db_size
        remaining = total
        if progress is not None and pages > 0:
            while remaining > pages:  # a step that leaves pages to copy
                remaining -= pages
                progress(errors.SQLITE_OK, remaining, total)
        _replace(tbt, sbt.pager, sbt.page_size)
    finally:
        if own and sbt.in_trans:
            sbt.commit()
    tdb._load_schema()
    target._schema_changed()
    if progress is not None:
        progress(errors.SQLITE_DONE, 0, total)


def serialize(conn, name):
    """The bytes of schema ``name``'s database file, as sqlite3_serialize gives them."""
    if not hasattr(conn._db, "bt"):
        return conn._db.serialize_pages(name)
    _, bt = _database(conn, name)
    own = bt.in_trans == 0
    if own:
        bt.begin(False)
    try:
        n = bt.pager.db_size
        if n == 0:
            raise OperationalError(f"unable to serialize '{name}'")
        get = bt.pager.get
        return b"".join(bytes(get(pgno).data) for pgno in range(1, n + 1))
    finally:
        if own and bt.in_trans:
            bt.commit()


def deserialize(conn, data, name):
    """Make schema ``name`` an in-memory database holding ``data`` (the file is left
    alone, as sqlite3_deserialize does). A damaged image is reported when it is used."""
    from sqlengine.storage import Btree

    if not hasattr(conn._db, "bt"):
        conn._db.deserialize_pages(data, name)
        conn._schema_changed()
        return

    db, old = _database(conn, name)
    image = _Image(data)
    bt = Btree.open(":memory:")
    if image.db_size:
        _replace(bt, image, image.page_size)
        # replace_image stamps a new change counter; the image is kept byte for byte
        bt.pager.file.write(0, bytes(image.get(1).data))
        bt.pager.change_counter = bytes(image.data[24:28])
    multi = db.bt
    if multi is old:
        db.bt = bt
    else:
        object.__setattr__(multi, "main", bt)
    old.close()
    db._memory = True
    try:
        db._load_schema()
    except errors.DatabaseError:
        from sqlengine.schema import SchemaRows
        db._install_schema(SchemaRows(), -1)  # cookie -1: read again (and fail again) when used
    if db is not conn._db:
        from sqlengine.compiler.attach import remerge

        remerge(conn._db)
    conn._schema_changed()


# -------------------------------------------------------------------------------------------
# incremental blob I/O (sqlite3_blob_open / read / write): the value is read and rewritten
# in its row's record through a b-tree cursor, in place (same length, same type), so no
# trigger fires and no change is counted, as in SQLite.


def blob_open(conn, table, column, rowid, writable, name):
    """A handle on one value, or None when the engine offers no page access (the caller
    then falls back to SQL)."""
    db = conn._db
    if hasattr(db, "bt"):
        return _EngineBlob(conn, table, column, rowid, writable, name)
    if hasattr(db, "blob_open"):
        return db.blob_open(name, table, column, rowid, writable)
    return None


class _EngineBlob:
    def __init__(self, conn, table, column, rowid, writable, name):
        from sqlengine.compiler.attach import ROOT_MASK

        db, _ = _database(conn, name)
        self.db = db
        self.conn = conn
        low = table.lower()
        t = db.schema.tables.get(low) if "." not in low else None
        if t is None:
            if low in db.schema.views:
                raise OperationalError(f"cannot open view: {table}")
            raise OperationalError(f"no such table: {name}.{table}")
        if t.without_rowid:
            raise OperationalError(f"cannot open table without rowid: {table}")
        col = t.find_column(column)
        if col < 0:
            raise OperationalError(f'no such column: "{column}"')
        if writable and any(col in (ix.columns or ()) for ix in t.indexes):
            raise OperationalError("cannot open indexed column for writing")
        self.field = t.storage[col] if t.storage is not None else col
        if self.field < 0:
            raise OperationalError("cannot open value of type null")
        self.root = t.root & ROOT_MASK
        self.rowid = rowid
        self.writable = writable
        self.wrote = False
        payload = self._payload(opening=True)
        self.payload = payload
        value = self._field(payload)
        if isinstance(value, str):
            self.text = True
            value = value.encode("utf-8", "surrogateescape")
        elif isinstance(value, bytes):
            self.text = False
        else:
            kind = {type(None): "null", int: "integer", float: "real"}[type(value)]
            raise OperationalError(f"cannot open value of type {kind}")
        self.length = len(value)

    @property
    def bt(self):
        return _plain(self.db.bt)

    def _payload(self, opening=False, write=False):
        bt = self.bt
        own = bt.in_trans == 0
        if own:
            bt.begin(False)
        try:
            cur = bt.cursor(self.root, False)
            try:
                found = cur.seek(self.rowid) == 0 and not cur.eof
                payload = bytes(cur.payload()) if found else None
            finally:
                cur.close()
        finally:
            if own and bt.in_trans and not self.wrote:
                bt.commit()
        if payload is None:
            if opening:
                raise OperationalError(f"no such rowid: {self.rowid}")
            raise OperationalError("query aborted", code=errors.SQLITE_ABORT)
        if not opening and payload != self.payload:  # the row changed under the handle
            raise OperationalError("query aborted", code=errors.SQLITE_ABORT)
        return payload

    def _field(self, payload):
        from sqlengine.storage import decode_column

        return decode_column(payload, self.field)

    def read(self):
        value = self._field(self._payload())
        if isinstance(value, str):
            value = value.encode("utf-8", "surrogateescape")
        return value

    def write(self, value: bytes):
        from sqlengine.storage import decode_record, encode_record

        payload = self._payload()
        record = list(decode_record(payload))
        record[self.field] = value.decode("utf-8", "surrogateescape") if self.text else value
        new = encode_record(record)
        bt = self.bt
        bt.begin(True)
        self.wrote = True
        cur = bt.cursor(self.root, True)
        try:
            if cur.seek(self.rowid) != 0:
                raise OperationalError("query aborted", code=errors.SQLITE_ABORT)
            cur.insert(self.rowid, new)
        finally:
            cur.close()
        self.payload = new

    def close(self):
        db = self.db
        if self.wrote and db.autocommit and not db._active and db.bt.in_trans:
            db.bt.commit()  # the blob's own write transaction ends with it
        self.wrote = False
