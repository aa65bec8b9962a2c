"""Storage: SQLite's database file format — records, B-trees, the pager and its journal.

This layer knows pages, cells, records and transactions; it never sees SQL, never parses
an expression and never imports from ``compiler``, ``vdbe`` or ``sql``. Collation for index
keys is passed in (``KeyInfo``) by the layer above; BINARY is built in.

The interface the VM uses (see each module for details):

    bt = Btree.open(path, vfs=None)        # ":memory:" or "" for a private in-memory db
    bt.begin(write=False)  bt.commit()  bt.rollback()  bt.in_trans   # 0 none, 1 read, 2 write
        begin() takes SHARED (read) or RESERVED (write); a busy file raises
        OperationalError("database is locked") after bt.busy_timeout seconds (default 5.0);
        as in SQLite, upgrading an open read transaction to write does not wait (BUSY at
        once), and commit() waits up to the timeout for readers to leave (EXCLUSIVE); after
        a BUSY commit the transaction stays open: retry commit() or rollback().
        commit()/rollback() end the transaction (read or write) and release the locks.
    bt.savepoint_open(n) bt.savepoint_release(n) bt.savepoint_rollback(n)
        n = 0 is the outermost; open(n) opens every missing level <= n; release(n) drops
        levels >= n keeping their changes; rollback(n) undoes everything since level n opened
        and keeps level n open (close it with release(n)). Needs a write transaction.
    bt.get_meta(i) / bt.set_meta(i, v)     # 1 schema cookie, 2 file format, 3 default cache
        size, 4 largest root (0), 5 text encoding, 6 user_version, 7 incr vacuum,
        8 application_id; get_meta(0) = freelist count. (storage.format.META_*)
    bt.create_table(intkey=True) -> root pgno (intkey=False: an index b-tree)
    bt.drop_table(root);  bt.clear_table(root) -> number of entries removed
    bt.page_count(), bt.freelist_count(), bt.page_size, bt.set_page_size(n) -> bool (only
        before the first page is written), bt.cache_size (PRAGMA value: >0 pages, <0 KiB),
        bt.set_journal_mode(mode) -> mode, bt.journal_mode, bt.synchronous (0..3),
        bt.integrity_check(roots=None, max_errors=100) -> ["ok"] or SQLite's messages
        (PRAGMA integrity_check shows one row: "*** in database main ***" then the
        messages, one per line);
        roots default to page 1 + every rootpage in sqlite_schema,
        bt.vacuum(page_size=None) -> {old root: new root} (rebuilds the file compactly,
        rewriting sqlite_schema's rootpage column; outside any transaction), bt.close()
    cur = bt.cursor(root, write=False, key_info=None)   # key_info given => index b-tree
    all cursors: first() last() next() prev() -> bool (False = eof); eof; count();
        delete() (current entry; then next() gives the entry after it, prev() the one
        before); close(); payload() -> record bytes; record() -> tuple; column(i) -> value
    table cursors: seek(rowid) -> 0 on it, <0 on a smaller entry, >0 on a larger one (eof
        when the table is empty); seek_ge/seek_gt/seek_le/seek_lt(rowid) -> bool;
        rowid; insert(rowid, payload) (replaces an existing rowid); payload_size()
    index cursors: seek_ge/seek_gt/seek_le/seek_lt(key_tuple) -> bool (compares the first
        len(key_tuple) fields); key() -> bytes; rowid (last field of the key);
        insert(record bytes); compare_key(key_tuple) -> -1/0/1 (entry vs key, prefix only)
    append(rowid, payload) / append(record): insert past the last entry without comparing
    (copying a tree in order). After insert() the cursor is on the new entry. A change through one cursor makes the
    other cursors on that tree save their key and re-seek lazily.
    KeyInfo(n_fields, collations=None, desc=None): collations[i] None (BINARY) or a callable
        cmp(a: str, b: str) -> int; desc[i] True for DESC. Order: NULL < numbers (int/real
        compared exactly) < TEXT (collation) < BLOB (memcmp).
    record codec: encode_record(values) -> bytes; decode_record(bytes) -> tuple;
        decode_column(bytes, i) -> value (None past the end); record_field_count(bytes);
        compare_values(a, b, coll=None) -> -1/0/1.
    Text is UTF-8, decoded with errors="surrogateescape" (invalid bytes survive a round trip).
    Errors: DatabaseError("file is not a database") / ("database disk image is malformed"),
    OperationalError("database is locked") / ("disk I/O error") / ("attempt to write a
    readonly database"); NotSupportedError for UTF-16 files and for writes to auto_vacuum
    files (both are read/written by SQLite, not by this engine).
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
