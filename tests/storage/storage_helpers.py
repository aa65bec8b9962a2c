"""Shared helpers for the storage tests: reading whole trees through cursors and writing
sqlite_schema rows by hand."""

from sqlengine.storage import Btree, decode_record, encode_record


def read_table(bt: Btree, root: int) -> dict:
    cur = bt.cursor(root)
    out = {}
    ok = cur.first()
    while ok:
        out[cur.rowid] = decode_record(cur.payload())
        ok = cur.next()
    cur.close()
    return out


def read_index(bt: Btree, root: int, key_info) -> list:
    cur = bt.cursor(root, False, key_info)
    out = []
    ok = cur.first()
    while ok:
        out.append(decode_record(cur.key()))
        ok = cur.next()
    cur.close()
    return out


def schema(bt: Btree) -> dict:
    """name -> (type, tbl_name, rootpage, sql) from sqlite_schema."""
    return {r[1]: (r[0], r[2], r[3], r[4]) for r in read_table(bt, 1).values()}


def add_schema_row(bt: Btree, rowid: int, kind: str, name: str, tbl: str, root: int, sql: str):
    cur = bt.cursor(1, True)
    cur.insert(rowid, encode_record((kind, name, tbl, root, sql)))
    cur.close()
    bt.set_meta(1, bt.get_meta(1) + 1)
