"""Transient row stores of the VM: the sorter, ephemeral tables and ephemeral indexes.

SQLite keeps these in temporary B-trees; a Python engine does better with Python lists,
dicts and ``list.sort``. Rows are tuples of SQL values (the VM's records). Order is SQLite's
(NULL < numbers < TEXT < BLOB, TEXT by collation, DESC columns reversed), equality is
SQLite's equality (1 = 1.0, NULL = NULL for DISTINCT and UNION). A collation is a ``Coll``:
its name, its comparison function and, for the built-in ones, a normalising key function
(``None`` for user collations, which fall back to comparison sorts and linear probes).
Sorting and row keys are compiled (``_sorter.pyx``). These classes never touch storage and
never see SQL.
"""

from __future__ import annotations

from sqlengine.vdbe._sorter import RowOrder, row_key, sort_rows
from sqlengine.vdbe._values import compare

__all__ = ["BINARY", "Coll", "EphHash", "EphIndex", "EphTable", "SortSpec", "Sorter",
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
    with a Coll (or None), a DESC flag and a NULLS FIRST flag."""

    __slots__ = ("n_key", "colls", "desc", "nulls_first", "explain", "limit_regs")

    def __init__(self, n_key, colls=None, desc=None, nulls_first=None):
        self.n_key = n_key
        self.colls = list(colls) if colls else [None] * n_key
        self.desc = list(desc) if desc else [False] * n_key
        if nulls_first is None:
            nulls_first = [not d for d in self.desc]
        self.nulls_first = list(nulls_first)
        self.explain = "k(%d%s)" % (n_key, "".join(
            ",-" if d else "," for d in self.desc))
        # (LIMIT register, OFFSET register or 0) of an ORDER BY ... LIMIT sorter: only the
        # first LIMIT+OFFSET rows in sort order are ever read, so the sorter keeps no more
        # (SQLite's top-N sort); None: every row is kept
        self.limit_regs = None

    def all_binary(self):
        return all(c is None or c.func is None or c.key is not None for c in self.colls)


def _field_cmp(coll):
    f = coll.func if coll is not None else None

    def cmp(a, b):
        return compare(a, b, f)
    return cmp


class Sorter:
    """Rows added in any order, read back sorted (SorterOpen/Insert/Sort/Next).

    With ``spec.limit_regs`` set, ``trim_at`` is the row count at which the VM calls
    ``trim``: the rows are sorted and cut to LIMIT+OFFSET (read from the registers then).
    The sort is stable, so the rows kept are exactly the first ones of the full sort. After
    a cut, ``cutoff`` is the last row kept: a new row that ``order.sorts_after`` it can
    never be read and the VM drops it at once."""

    __slots__ = ("rows", "spec", "pos", "trim_at", "cutoff", "order")

    def __init__(self, spec):
        self.rows = []
        self.spec = spec
        self.pos = 0
        self.trim_at = 256 if getattr(spec, "limit_regs", None) is not None else 0
        self.cutoff = None
        self.order = None

    def trim(self, mem):
        lreg, oreg = self.spec.limit_regs
        limit = mem[lreg]
        offset = mem[oreg] if oreg else 0
        if type(limit) is not int or limit < 0 or (oreg and type(offset) is not int):
            self.trim_at = 0  # no usable bound: keep every row
            return
        bound = limit + (offset if offset > 0 else 0)
        sort_rows(self.rows, self.spec)
        del self.rows[bound:]
        self.trim_at = max(2 * bound, 256)
        if bound > 0 and len(self.rows) == bound and type(self.rows[-1]) is tuple:
            self.cutoff = self.rows[-1]
            if self.order is None:
                self.order = RowOrder(self.spec)

    def sort(self):
        sort_rows(self.rows, self.spec)
        self.pos = 0


class EphTable:
    """A transient rowid table: rows kept in rowid order (rowids only ever grow)."""

    __slots__ = ("rows", "rowids", "next_rowid", "pos")

    def __init__(self):
        self.rows = []
        self.rowids = []
        self.next_rowid = 1
        self.pos = -1

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
        self.entries[self.key(row, len(row))] = row
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
        k = self.key(key_values, n)
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
    normalised value of their first ``n_key`` fields; a lookup yields one group."""

    __slots__ = ("n_key", "norms", "groups", "cur")

    def __init__(self, spec: SortSpec):
        self.n_key = spec.n_key
        self.norms = [c.key if c is not None else None for c in spec.colls]
        self.groups: dict = {}
        self.cur = ()

    def insert(self, row):
        k = row_key(row, self.n_key, self.norms)
        g = self.groups.get(k)
        if g is None:
            self.groups[k] = [row]
        else:
            g.append(row)

    def lookup(self, key) -> bool:
        self.cur = self.groups.get(row_key(key, self.n_key, self.norms), ())
        return len(self.cur) > 0

    def __len__(self):
        return sum(len(g) for g in self.groups.values())
