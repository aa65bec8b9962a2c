"""Transient row stores of the VM: the sorter, ephemeral tables and ephemeral indexes.

SQLite keeps these in temporary B-trees; a Python engine does better with Python lists,
dicts and ``list.sort``. Rows are tuples of SQL values (the VM's records). Order is SQLite's
(NULL < numbers < TEXT < BLOB, TEXT by collation, DESC columns reversed), equality is
SQLite's equality (1 = 1.0, NULL = NULL for DISTINCT and UNION). A collation is a ``Coll``:
its name, its comparison function and, for the built-in ones, a normalising key function
(``None`` for user collations, which fall back to comparison sorts and linear probes).
Sorting and row keys are compiled (``_sorter.pyx``). A sorter beyond its memory budget
spills sorted runs to an anonymous temporary file of its own (never the database's pager).
These classes never touch the database's storage and never see SQL.
"""

from __future__ import annotations

import os
import sys
import tempfile
import weakref

from sqlengine.vdbe._sorter import (HashedRun, RowOrder, RunMerger, append_table,
                                    encode_rows, hashed_entry, hashed_lookup, row_key,
                                    sort_rows)
from sqlengine.storage._record import encode_record
from sqlengine.vdbe._values import compare

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


class SortSpec:
    """The ordering of a sorter or ephemeral index: ``n_key`` leading fields compared, each
    with a Coll (or None), a DESC flag and a NULLS FIRST flag. Made once per sorter a
    statement compiles (its P4), so the EXPLAIN text is only made when a listing asks."""

    __slots__ = ("n_key", "colls", "desc", "nulls_first", "limit_regs")

    def __init__(self, n_key, colls=None, desc=None, nulls_first=None):
        self.n_key = n_key
        self.colls = list(colls) if colls else [None] * n_key
        if desc:
            self.desc = list(desc)
            self.nulls_first = ([not d for d in desc] if nulls_first is None
                                else list(nulls_first))
        else:
            self.desc = [False] * n_key
            self.nulls_first = [True] * n_key if nulls_first is None else list(nulls_first)
        # (LIMIT register, OFFSET register or 0) of an ORDER BY ... LIMIT sorter: only the
        # first LIMIT+OFFSET rows in sort order are ever read, so the sorter keeps no more
        # (SQLite's top-N sort); None: every row is kept
        self.limit_regs = None

    @property
    def explain(self) -> str:
        """The P4 text of EXPLAIN: ``k(N,...)``, a ``-`` for each DESC field."""
        return "k(%d%s)" % (self.n_key, "".join([",-" if d else "," for d in self.desc]))

    def all_binary(self):
        return all(c is None or c.func is None or c.key is not None for c in self.colls)


def _field_cmp(coll):
    f = coll.func if coll is not None else None

    def cmp(a, b):
        return compare(a, b, f)
    return cmp


class Sorter:
    """Rows added in any order, read back sorted (SorterOpen/Insert/Sort/Next).

    The VM appends to ``rows`` and calls ``trim`` when their count reaches ``trim_at``
    (0: never). After ``sort``, ``rows`` holds the sorted rows the VM reads by ``pos``; when
    the rows were spilled, it holds only a window of them and ``refill`` (called by the VM
    at the window's end, ``merger`` set) loads the next window.

    Top-N (``spec.limit_regs`` set): ``trim`` sorts the rows and cuts them to LIMIT+OFFSET
    (read from the registers then). The sort is stable, so the rows kept are exactly the
    first ones of the full sort. After a cut, ``cutoff`` is the last row kept: a new row
    that ``order.sorts_after`` it can never be read and the VM drops it at once.

    Otherwise the in-memory part is bounded (SQLite's external merge sort): ``trim`` first
    estimates the memory of a row and sets the run length that fits ``SORTER_BUDGET`` bytes;
    each full run is sorted and written to an anonymous temporary file (``encode_rows``) and
    ``sort`` merges the runs (``RunMerger``; at most ``MERGE_FANIN`` at once, more go
    through intermediate merges). Runs are written in insertion order and the merge takes
    equal rows from the earlier run first, so the whole sort stays stable. A row holding a
    value the run format cannot keep exactly (a str subclass with a subtype) makes the
    sorter keep everything in memory."""

    __slots__ = ("rows", "spec", "pos", "trim_at", "cutoff", "order", "budget", "run_rows",
                 "file", "runs", "merger", "peak_rows", "topn")

    def __init__(self, spec):
        self.rows = []
        self.spec = spec
        self.pos = 0
        self.cutoff = None
        self.order = None
        self.budget = SORTER_BUDGET
        self.run_rows = 0        # rows per run once estimated; 0 before
        self.file = None
        self.runs = None
        self.merger = None
        self.peak_rows = 0       # the most rows held in memory at once (for tests)
        self.topn = getattr(spec, "limit_regs", None) is not None
        if self.topn:
            self.trim_at = 256
        else:
            self.trim_at = _FIRST_CHECK if self.budget else 0

    def trim(self, mem):
        if not self.topn:
            self._spill_check()
            return
        lreg, oreg = self.spec.limit_regs
        limit = mem[lreg]
        offset = mem[oreg] if oreg else 0
        if type(limit) is not int or limit < 0 or (oreg and type(offset) is not int):
            # no usable bound: keep every row, as an ordinary (spilling) sorter
            self.topn = False
            self.trim_at = _FIRST_CHECK if self.budget else 0
            self._spill_check()
            return
        bound = limit + (offset if offset > 0 else 0)
        sort_rows(self.rows, self.spec)
        del self.rows[bound:]
        self.trim_at = max(2 * bound, 256)
        if bound > 0 and len(self.rows) == bound and type(self.rows[-1]) is tuple:
            self.cutoff = self.rows[-1]
            if self.order is None:
                self.order = RowOrder(self.spec)

    def _spill_check(self):
        rows = self.rows
        if not self.budget:
            self.trim_at = 0
            return
        # estimated again at each check: the rows of one sorter may grow as it fills
        self.run_rows = max(_MIN_RUN, self.budget // _row_bytes(rows))
        if len(rows) < self.run_rows:
            self.trim_at = self.run_rows
            return
        if len(rows) > self.peak_rows:
            self.peak_rows = len(rows)
        sort_rows(rows, self.spec)
        data = encode_rows(rows)
        if data is None:
            # a value the run format cannot hold: everything stays in memory
            self.trim_at = 0
            return
        self._write_run(data)
        rows.clear()
        self.trim_at = self.run_rows

    def _write_run(self, data):
        if self.file is None:
            self.file = tempfile.TemporaryFile(prefix="sqlengine-sort-")
            self.runs = []
        f = self.file
        off = f.seek(0, 2)
        f.write(data)
        f.flush()
        self.runs.append((off, len(data)))

    def sort(self):
        rows = self.rows
        if len(rows) > self.peak_rows:
            self.peak_rows = len(rows)
        sort_rows(rows, self.spec)
        self.pos = 0
        if self.runs is None:
            return
        if rows:
            data = encode_rows(rows)
            if data is None:
                # the last rows hold a value the runs cannot keep: finish in memory
                rest = list(rows)
                rows.clear()
                self._load_all(rest)
                return
            self._write_run(data)
            rows.clear()
        fd = self.file.fileno()
        runs = self.runs
        while len(runs) > MERGE_FANIN:
            merged = []
            for i in range(0, len(runs), MERGE_FANIN):
                group = runs[i:i + MERGE_FANIN]
                if len(group) == 1:
                    merged.append(group[0])
                    continue
                m = RunMerger(fd, group, self.spec, self._bufsize(len(group)))
                f = self.file
                off = f.seek(0, 2)
                total = 0
                while True:
                    batch = m.next_rows(_MERGE_BATCH)
                    if not batch:
                        break
                    data = encode_rows(batch)
                    f.write(data)
                    total += len(data)
                f.flush()
                merged.append((off, total))
            runs = merged
        self.runs = runs
        self.merger = RunMerger(fd, runs, self.spec, self._bufsize(len(runs)))
        self.rows = self.merger.next_rows(_WINDOW)

    def _load_all(self, rest):
        m = RunMerger(self.file.fileno(), self.runs, self.spec, self._bufsize(len(self.runs)))
        out = []
        while True:
            batch = m.next_rows(_MERGE_BATCH)
            if not batch:
                break
            out.extend(batch)
        out.extend(rest)
        sort_rows(out, self.spec)
        self.rows = out
        self.close()

    def _bufsize(self, nruns):
        return max(4096, self.budget // max(nruns, 1) // 2)

    def refill(self):
        """Load the next window of merged rows; False at the end."""
        self.rows = self.merger.next_rows(_WINDOW)
        if self.rows:
            return True
        self.close()
        return False

    def close(self):
        self.merger = None
        if self.file is not None:
            self.file.close()
            self.file = None
        self.runs = None


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
# per row besides the tuple and its values: the list slot and the two sort entries
_ROW_OVERHEAD = 8 + 2 * 40


def _row_bytes(rows) -> int:
    """The estimated memory of one row of ``rows`` (from a sample of them)."""
    n = len(rows)
    if not n:
        return 64 + _ROW_OVERHEAD
    step = max(1, n // 32)
    total = count = 0
    for i in range(0, n, step):
        r = rows[i]
        total += sys.getsizeof(r) + sum(sys.getsizeof(v) for v in r if v is not None)
        count += 1
    return total // count + _ROW_OVERHEAD


class EphTable:
    """A transient rowid table: rows kept in rowid order (rowids only ever grow).

    Beyond ``EPH_BUDGET`` bytes (estimated) ``full`` is set; the VM then moves a table whose
    cursor has not been positioned yet into a ``SpilledTable`` (a rowid b-tree in a
    temporary file, which the VM reads as an ordinary table cursor)."""

    __slots__ = ("rows", "rowids", "next_rowid", "pos", "check_at", "full")

    def __init__(self):
        self.rows = []
        self.rowids = []
        self.next_rowid = 1
        self.pos = -1
        self.check_at = _FIRST_CHECK if EPH_BUDGET else -1
        self.full = False

    def insert(self, rowid, row):
        if self.rowids and rowid <= self.rowids[-1]:
            # Out of order or replace: keep the lists sorted.
            import bisect
            i = bisect.bisect_left(self.rowids, rowid)
            if i < len(self.rowids) and self.rowids[i] == rowid:
                self.rows[i] = row
                return
            self.rowids.insert(i, rowid)
            self.rows.insert(i, row)
        else:
            self.rowids.append(rowid)
            self.rows.append(row)
        if rowid >= self.next_rowid:
            self.next_rowid = rowid + 1
        if len(self.rows) == self.check_at:
            self._check()

    def _check(self):
        rows = self.rows
        sample = rows[::max(1, len(rows) // 32)]
        per = _row_bytes(sample) - _ROW_OVERHEAD + 8 + 8 + 32   # + rowid and its slot
        limit = max(EPH_BUDGET // per, _FIRST_CHECK)
        if len(rows) < limit:
            self.check_at = limit
        elif encode_rows(sample) is None or any(type(r) is not int for r in self.rowids[:1]):
            self.check_at = -1       # values a b-tree cannot keep exactly: stay in memory
        else:
            self.full = True
            self.check_at = -1


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


class EphIndex:
    """A transient index of rows: membership by key prefix, iteration in key order."""

    __slots__ = ("spec", "n_fields", "entries", "norms", "exact", "sorted", "pos",
                 "prefix_sets")

    def __init__(self, spec: SortSpec, n_fields: int):
        self.spec = spec
        self.n_fields = n_fields
        self.entries: dict = {}
        self.norms = [c.key if c is not None else None for c in spec.colls]
        self.norms += [None] * (n_fields - len(self.norms))
        self.exact = spec.all_binary()
        self.sorted = None
        self.pos = -1
        self.prefix_sets = {}

    def key(self, row, n):
        return row_key(row, n, self.norms)

    def insert(self, row):
        self.entries[row_key(row, len(row), self.norms)] = row
        self.sorted = None
        self.prefix_sets = {}

    def delete(self, row):
        k = self.key(row, len(row))
        if k in self.entries:
            del self.entries[k]
            self.sorted = None
            self.prefix_sets = {}

    def found(self, key_values) -> bool:
        n = len(key_values)
        if not self.exact:
            return self._found_slow(key_values)
        k = row_key(key_values, n, self.norms)
        if n >= self.n_fields:
            return k in self.entries
        s = self.prefix_sets.get(n)
        if s is None:
            s = {kk[:n] for kk in self.entries}
            self.prefix_sets[n] = s
        return k in s

    def _found_slow(self, key_values):
        n = len(key_values)
        cmps = [_field_cmp(c) for c in self.spec.colls] + [_field_cmp(None)] * n
        for row in self.entries.values():
            for i in range(n):
                if cmps[i](row[i], key_values[i]) != 0:
                    break
            else:
                return True
        return False

    def rows_sorted(self):
        if self.sorted is None:
            rows = list(self.entries.values())
            spec = self.spec
            if spec.n_key < self.n_fields:
                spec = SortSpec(self.n_fields, spec.colls + [None] * (self.n_fields - spec.n_key),
                                spec.desc + [False] * (self.n_fields - spec.n_key))
            sort_rows(rows, spec)
            self.sorted = rows
        return self.sorted

    def __len__(self):
        return len(self.entries)


class EphHash:
    """A transient hash index (SQLite's automatic index, as a hash): rows grouped by the
    normalised value of their first ``n_key`` fields; a lookup yields one group (``cur``).

    Beyond ``EPH_BUDGET`` bytes (estimated) the rows move to a ``SpilledIndex``: a b-tree
    index in a temporary file with a bounded page cache, as SQLite keeps its automatic
    indexes; lookups then seek it."""

    __slots__ = ("n_key", "norms", "groups", "cur", "count", "check_at", "spilled")

    def __init__(self, spec: SortSpec):
        self.n_key = spec.n_key
        self.norms = [c.key if c is not None else None for c in spec.colls]
        self.norms += [None] * (self.n_key - len(self.norms))
        self.groups: dict = {}
        self.cur = ()
        self.count = 0
        self.check_at = _FIRST_CHECK if EPH_BUDGET else -1
        self.spilled = None

    def insert(self, row):
        if self.spilled is not None:
            self.spilled.add(row)
            self.count += 1
            return
        k = row_key(row, self.n_key, self.norms)
        g = self.groups.get(k)
        if g is None:
            self.groups[k] = [row]
        else:
            g.append(row)
        self.count += 1
        if self.count == self.check_at:
            self._check()

    def _check(self):
        sample = []
        for g in self.groups.values():
            sample.append(g[0])
            if len(sample) >= 32:
                break
        # the row, its key tuple and the dict's and group list's share
        per = _row_bytes(sample) + 56 + 8 * self.n_key + 100
        limit = max(EPH_BUDGET // per, _FIRST_CHECK)
        if self.count < limit:
            self.check_at = limit
            return
        if encode_rows(sample) is None:
            self.check_at = -1     # values the temporary b-tree cannot keep exactly
            return
        sp = SpilledIndex(self.n_key, self.norms)
        for g in self.groups.values():
            for row in g:
                sp.add(row)
        self.groups = {}
        self.spilled = sp

    def lookup(self, key) -> bool:
        if self.spilled is not None:
            self.cur = self.spilled.lookup(key)
        else:
            self.cur = self.groups.get(row_key(key, self.n_key, self.norms), ())
        return len(self.cur) > 0

    def __len__(self):
        return self.count


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
