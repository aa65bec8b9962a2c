"""VACUUM at the storage level: rebuild the database compactly.

Every b-tree named in sqlite_schema is copied, in key order, into a fresh in-memory database
of the same page size (so the trees come out dense and the freelist empty), the
sqlite_schema rows are rewritten with the new root page numbers, and the new image replaces
the file inside one write transaction of the original (every old page journaled first), so a
crash leaves the old or the new database. The page size may change on the way
(PRAGMA page_size followed by VACUUM). The compiler decides when
(VACUUM statement); this module only knows pages, trees and the schema table's column 4.

Never runs while a transaction is open on the connection.
"""

from __future__ import annotations

from sqlengine import errors
from sqlengine.storage._record import KeyInfo, decode_record, encode_record

_META_COPIED = (1, 2, 3, 5, 6, 7, 8)


def vacuum(bt, page_size: int | None = None) -> dict[int, int]:
    """Rebuild ``bt``'s file, with a new page size if given (512..65536, a power of two).
    Returns {old root: new root}."""
    from sqlengine.storage.btree import Btree

    if bt.in_trans:
        raise errors.OperationalError("cannot VACUUM from within a transaction")
    bt.begin(True)
    try:
        if bt.pager.db_size == 0:
            bt.commit()
            return {}
        tmp = Btree.open(":memory:")
        new_ps = page_size or bt.page_size
        if new_ps < 512 or new_ps > 65536 or new_ps & (new_ps - 1):
            new_ps = bt.page_size
        tmp.set_page_size(new_ps)
        tmp.pager.reserved = bt.pager.reserved
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
            ok = src.first()
            while ok:
                if intkey:
                    dst.append(src.rowid, src.payload())
                else:
                    dst.append(src.key())
                ok = src.next()
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
        tmp.set_meta(1, bt.get_meta(1) + 1)
        for c in list(bt._live_cursors()):
            c.invalidate()
        bt.pager.replace_image(tmp.pager, tmp.page_size)
        tmp.close()
        return mapping
    except BaseException:
        if bt.in_trans:
            try:
                bt.rollback()
            except errors.Error:
                pass     # the original error is the one to report
        raise

