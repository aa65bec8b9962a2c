"""VACUUM at the storage level: rebuild the database compactly.

Every b-tree named in sqlite_schema is copied, in key order, cell by cell through two
cursors, into a fresh database of the same page size (so the trees come out dense and the
freelist empty), the sqlite_schema rows are rewritten with the new root page numbers, and the
new image replaces the file inside one write transaction of the original (every old page
journaled first), so a crash leaves the old or the new database. The fresh database of a
file database is an anonymous temporary file whose page cache is bounded like any other
(dirty pages spill to it), so memory does not grow with the database; an in-memory database
is rebuilt in memory. The page size may change on the way
(PRAGMA page_size followed by VACUUM). VACUUM INTO writes the same compact copy to a new
file instead and leaves the original as it is. The compiler decides when (VACUUM
statement, compiler/vacuum.py); this module only knows pages, trees and the schema table's
column 4.

Never runs while a transaction is open on the connection.
"""

from __future__ import annotations

import os
import tempfile

from sqlengine import errors
from sqlengine.storage._record import KeyInfo, decode_record, encode_record

_META_COPIED = (1, 2, 3, 5, 6, 7, 8)


def vacuum(bt, page_size: int | None = None) -> dict[int, int]:
    """Rebuild ``bt``'s file, with a new page size if given (512..65536, a power of two).
    Returns {old root: new root}."""
    if bt.in_trans:
        raise errors.OperationalError("cannot VACUUM from within a transaction")
    bt.begin(True)
    tmp = tmp_path = None
    try:
        if bt.pager.db_size == 0:
            bt.commit()
            return {}
        tmp, tmp_path = _scratch(bt)
        mapping = _copy(bt, tmp, page_size)
        tmp.set_meta(1, bt.get_meta(1) + 1)
        for c in list(bt._live_cursors()):
            c.invalidate()
        bt.pager.replace_image(tmp.pager, tmp.page_size)
        _drop(tmp, tmp_path)
        tmp = None
        return mapping
    except BaseException:
        if tmp is not None:
            _drop(tmp, tmp_path)
        if bt.in_trans:
            try:
                bt.rollback()
            except errors.Error:
                pass     # the original error is the one to report
        raise


def vacuum_into(bt, path: str, page_size: int | None = None, vfs=None) -> None:
    """VACUUM INTO: write a compact copy of ``bt`` to the new database file ``path`` (which
    must not exist or be empty), reading ``bt`` in one read transaction."""
    from sqlengine.storage.btree import Btree

    if path != ":memory:" and os.path.exists(path) and os.path.getsize(path) > 0:
        raise errors.OperationalError("output file already exists")
    folder = os.path.dirname(os.path.abspath(path))
    try:
        if path != ":memory:" and not os.path.isdir(folder):
            raise errors.OperationalError(f"unable to open database: {path}")
        dst = Btree.open(path, vfs)
    except errors.Error:
        raise errors.OperationalError(f"unable to open database: {path}") from None
    own = not bt.in_trans
    if own:
        bt.begin(False)
    try:
        _copy(bt, dst, page_size)
        dst.set_meta(1, bt.get_meta(1) + 1)
        dst.commit()
    except BaseException:
        if dst.in_trans:
            try:
                dst.rollback()
            except errors.Error:
                pass
        raise
    finally:
        dst.close()
        if own and bt.in_trans:
            bt.commit()


def _copy(bt, tmp, page_size):
    """Copy every b-tree of ``bt`` named in sqlite_schema into the empty database ``tmp``
    (a write transaction is opened on it here), in key order; the schema rows get the new
    root numbers. Returns {old root: new root}."""
    new_ps = page_size or bt.page_size
    if new_ps < 512 or new_ps > 65536 or new_ps & (new_ps - 1):
        new_ps = bt.page_size
    tmp.set_page_size(new_ps)
    tmp.pager.reserved = bt.pager.reserved
    if not tmp.in_trans:
        tmp.begin(True)
    rows = []
    src = bt.cursor(1)
    ok = src.first()
    while ok:
        rows.append((src.rowid, decode_record(src.payload())))
        ok = src.next()
    src.close()
    mapping: dict[int, int] = {}
    for _rowid, rec in rows:
        root = rec[3] if len(rec) > 3 else None
        if not isinstance(root, int) or root <= 0 or root in mapping:
            continue
        page = bt.pager.get(root)
        if not page.parsed:
            page.parse_header()
        intkey = page.intkey
        new_root = tmp.create_table(intkey)
        mapping[root] = new_root
        src = bt.cursor(root, False, None if intkey else KeyInfo(0))
        dst = tmp.cursor(new_root, True, None if intkey else KeyInfo(0))
        dst.append_from(src)
        src.close()
        dst.close()
    sch = tmp.cursor(1, True)
    for rowid, rec in rows:
        rec = list(rec)
        if len(rec) > 3 and isinstance(rec[3], int) and rec[3] in mapping:
            rec[3] = mapping[rec[3]]
        sch.append(rowid, encode_record(rec))
    sch.close()
    for i in _META_COPIED:
        tmp.set_meta(i, bt.get_meta(i))
    return mapping


def _scratch(bt):
    """The fresh database VACUUM builds: a temporary file beside nothing (removed when done)
    for a file database, memory for a memory one. Its cache size is the original's."""
    from sqlengine.storage.btree import Btree

    if bt.pager.memory:
        return Btree.open(":memory:"), None
    fd, path = tempfile.mkstemp(prefix="sqlengine-vacuum-", suffix=".db")
    os.close(fd)
    try:
        tmp = Btree.open(path)
        tmp.synchronous = 0            # a scratch file: nothing to make durable
        tmp.cache_size = bt.cache_size
    except BaseException:
        os.unlink(path)
        raise
    return tmp, path


def _drop(tmp, path):
    try:
        tmp.close()
    finally:
        if path is not None:
            for p in (path, path + "-journal"):
                try:
                    os.unlink(p)
                except OSError:
                    pass
