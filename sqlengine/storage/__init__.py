"""Storage: SQLite's database file format — records, B-trees, the pager and its journal.

This layer knows pages, cells, records and transactions; it never sees SQL, never parses
an expression and never imports from ``compiler``, ``vdbe`` or ``sql``. Collation for index
keys is passed in (``KeyInfo``) by the layer above; BINARY is built in.

The interface the VM uses (see each module for details):

    bt = Btree.open(path, vfs=None)        # ":memory:" or "" for a private in-memory db
    bt.begin(write)  bt.commit()  bt.rollback()  bt.in_trans   # 0 none, 1 read, 2 write
    bt.savepoint_open(n) bt.savepoint_release(n) bt.savepoint_rollback(n)
    bt.get_meta(i) / bt.set_meta(i, v)     # header meta values (schema cookie, user_version...)
    bt.create_table(intkey) -> root pgno;  bt.drop_table(root);  bt.clear_table(root)
    cur = bt.cursor(root, write, key_info=None)   # key_info given => index b-tree
    table cursors: first() last() next() prev() -> bool; seek(rowid) -> int;
        rowid; payload() -> bytes; insert(rowid, payload); delete(); count(); eof
    index cursors: seek_ge/seek_gt/seek_le/seek_lt(key_tuple) -> bool; key() -> bytes;
        insert(record bytes); delete(); compare_key(key_tuple) -> int
    record codec: encode_record(values) -> bytes; decode_record(bytes) -> tuple;
        decode_column(bytes, i) -> value
"""

from sqlengine.storage._btree import BtCursor
from sqlengine.storage._record import (
    KeyInfo,
    compare_record,
    compare_values,
    decode_column,
    decode_record,
    encode_record,
    record_field_count,
)
from sqlengine.storage.btree import Btree

__all__ = ["Btree", "BtCursor", "KeyInfo", "encode_record", "decode_record", "decode_column",
           "record_field_count", "compare_record", "compare_values"]
