"""Transient row stores of the VM: the sorter, ephemeral tables and ephemeral indexes.

SQLite keeps these in temporary B-trees; a Python engine does better with Python lists,
dicts and ``list.sort``. Rows are tuples of SQL values (the VM's records). Order is SQLite's
(NULL < numbers < TEXT < BLOB, TEXT by collation, DESC columns reversed), equality is
SQLite's equality (1 = 1.0, NULL = NULL for DISTINCT and UNION). A collation is a ``Coll``:
its name, its comparison function and, for the built-in ones, a normalising key function
(``None`` for user collations, which fall back to comparison sorts and linear probes).
The stores the VM keeps per cursor (SortSpec, Sorter, EphTable, EphIndex, EphHash), sorting
and row keys are compiled (``_sorter.pyx``, cimported by the VM); this module holds the
collations, the settings below (read by those stores when made or checked, so a test may
change them here) and the rare spilled forms. A sorter beyond its memory budget spills
sorted runs to an anonymous temporary file of its own (never the database's pager), an
ephemeral table or automatic index beyond its budget moves to a b-tree in a temporary file.
These classes never touch the database's storage and never see SQL.
"""

from __future__ import annotations

import os
import tempfile
import weakref

from sqlengine.vdbe import _sorter
from sqlengine.vdbe._sorter import (EphHash, EphIndex, EphTable, HashedRun, SortSpec, Sorter,
                                    append_table, hashed_entry, hashed_lookup, row_key,
                                    sort_rows)
from sqlengine.vdbe._sorter import row_bytes as _row_bytes  # noqa: F401 (tests read it)
from sqlengine.storage._record import encode_record

__all__ = ["BINARY", "Coll", "EphHash", "EphIndex", "EphTable", "SortSpec", "Sorter",
           "SpilledIndex", "SpilledTable",
           "builtin_key", "row_key", "sort_rows"]


def _ascii_lower(s: str) -> str:
    return s.lower() if s.isascii() else "".join(
        c.lower() if "A" <= c <= "Z" else c for c in s)


def _rtrim(s: str) -> str:
    return s.rstrip(" ")


class Coll:
    """A collation as the VM sees it: ``func(a, b) -> int`` (None for BINARY) and ``key``
    (a function mapping text to a value whose ==, hash and < agree with ``func``, or None)."""

    __slots__ = ("name", "func", "key")

    def __init__(self, name: str, func=None, key=None):
        self.name = name
        self.func = func
        self.key = key

    def __repr__(self):
        return self.name


BINARY = Coll("BINARY", None, None)


def builtin_key(name: str):
    n = name.upper()
    if n == "NOCASE":
        return _ascii_lower
    if n == "RTRIM":
        return _rtrim
    return None


# The in-memory budget of a sorter (bytes of Python row objects, estimated): beyond it,
# sorted runs go to a temporary file. 0 keeps every row in memory.
SORTER_BUDGET = 1 << 20
# The same for an automatic index (EphHash) before it moves to a temporary b-tree.
EPH_BUDGET = 1 << 20
MERGE_FANIN = 64
_FIRST_CHECK = 64        # rows before the first size estimate
_MIN_RUN = 256
_WINDOW = 256            # merged rows handed to the VM at once
_MERGE_BATCH = 1024

_sorter.use_settings(globals())   # the compiled stores read the settings above from here


class SpilledTable:
    """The rows of an ``EphTable`` moved to a rowid b-tree in a temporary file with a bounded
    page cache (``cursor``: a write cursor on it). The file is removed when this object is
    dropped."""

    __slots__ = ("bt", "cursor", "_fin", "__weakref__")

    def __init__(self, table: EphTable):
        bt, path = _temp_btree()
        self._fin = weakref.finalize(self, _drop_btree, bt, path)
        root = bt.create_table(True)
        self.bt = bt
        self.cursor = bt.cursor(root, True)
        append_table(self.cursor, table.rowids, table.rows, encode_record)
        table.rows = []
        table.rowids = []


def _temp_btree():
    """A b-tree on a new temporary file, in a write transaction, with a cache of about
    ``EPH_BUDGET`` bytes and nothing made durable."""
    from sqlengine.storage.btree import Btree

    fd, path = tempfile.mkstemp(prefix="sqlengine-temp-", suffix=".db")
    os.close(fd)
    try:
        bt = Btree.open(path)
        bt.synchronous = 0
        bt.cache_size = -max(EPH_BUDGET // 1024, 64)
        bt.begin(True)
    except BaseException:
        os.unlink(path)
        raise
    return bt, path


class SpilledIndex:
    """Rows grouped by the normalised value of their first ``n_key`` fields, kept in a
    temporary file: each row gets a rowid made of the hash of its normalised key (31 bits)
    above its insertion number (32 bits), so a group is one rowid range, in insertion
    order. Rows are gathered by a spilling ``Sorter`` (sorted by rowid) and written at the
    first lookup into a ``HashedRun`` (blocks of entries, a small in-memory block index); a
    lookup reads its key's range and keeps the rows whose key equals (hash collisions are
    filtered). Rows added after the first lookup (unusual: an automatic index is filled
    before it is probed) are kept in memory. The file is removed when the index is
    dropped."""

    __slots__ = ("n_key", "norms", "sorter", "seq", "run", "late", "file", "__weakref__")

    def __init__(self, n_key, norms):
        self.n_key = n_key
        self.norms = norms
        self.sorter = Sorter(SortSpec(1))
        self.seq = 0
        self.run = None
        self.late = None
        self.file = None

    def add(self, row):
        entry = hashed_entry(row, self.n_key, self.norms, self.seq)
        self.seq += 1
        if self.run is not None:
            if self.late is None:
                self.late = []
            self.late.append(entry)
            return
        s = self.sorter
        s.rows.append(entry)
        if s.trim_at and len(s.rows) >= s.trim_at:
            s.trim(None)

    def _build(self):
        self.file = tempfile.TemporaryFile(prefix="sqlengine-temp-")
        run = HashedRun(self.file.fileno())
        s = self.sorter
        s.sort()
        while True:
            run.add(s.rows)
            if s.merger is None or not s.refill():
                break
        run.finish()
        s.close()
        self.sorter = None
        self.run = run

    def lookup(self, key):
        if self.run is None:
            self._build()
        return hashed_lookup(self.run, key, self.n_key, self.norms, self.late)


def _drop_btree(bt, path):
    try:
        bt.close()
    except Exception:
        pass
    for p in (path, path + "-journal"):
        try:
            os.unlink(p)
        except OSError:
            pass
