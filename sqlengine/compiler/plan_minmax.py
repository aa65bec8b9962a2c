"""Aggregates answered by one b-tree operation instead of a scan of the rows:

- ``count(*)`` of a whole table counts the cells of its smallest index that is narrower
  than the table (SQLite's choice in ``isSimpleCount``'s caller), or of the table itself;
- ``min(x)`` / ``max(x)`` of a whole table (SQLite's ``minMaxQuery``) reads the one entry
  at the right end of an index on ``x`` (or of the table for the rowid): the first entry
  that is not NULL for min, the last for max (mirrored for a DESC column); with bare
  columns beside it, the table row of that entry is read too (SQLite's DeferredSeek).

Each emits its EXPLAIN QUERY PLAN line as sqlite3 words it. The caller decides that the
query has that shape; this module only codes the read and never looks at the rest of
the SELECT.
"""

from __future__ import annotations

from sqlengine.compiler import planner
from sqlengine.compiler.explain import eqp_line
from sqlengine.compiler.where import index_key_info, open_source_cursor
from sqlengine.vdbe import opcodes as O

_REAL = "E"  # REAL affinity: an index (like the table) may hold an integral REAL as INTEGER


def _in_sqlite_order(table):
    """The indexes as SQLite's list holds them (the newest first)."""
    return [ix for ix in table.indexes[::-1] if ix.where is None]


def code_count(p, src, target, hint=None):
    """count(*) of every row of table source ``src`` into register ``target``; the table
    itself under NOT INDEXED (INDEXED BY does not change SQLite's choice here)."""
    b = p.b
    table = src.table
    best = None
    # (a table without an index has none to weigh: no sizes asked for)
    if table.indexes and not table.without_rowid and not (hint is not None and hint.not_indexed):
        sz_tab, sz_idx = planner._sizes(table)
        for ix in _in_sqlite_order(table):
            if any(c < 0 for c in ix.columns):
                continue
            szi = sz_idx[ix.name]
            if szi < sz_tab and (best is None or szi < sz_idx[best.name]):
                best = ix
    if best is None:
        if p.eqp:  # (the line's text made only for EXPLAIN QUERY PLAN)
            eqp_line(p, f"SCAN {src.name}")
        open_source_cursor(p, src)
        b.emit(O.OP_Count, src.cursor, target)
        return
    eqp_line(p, f"SCAN {src.name} USING COVERING INDEX {best.name}")
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenRead, cur, best.root, 0, index_key_info(p, best, table), comment=best.name)
    b.emit(O.OP_Count, cur, target)


def _minmax_index(table, col, only=None):
    """The smallest index whose first column is ``col`` in the column's own collation
    (only the index named ``only`` when given: INDEXED BY)."""
    sz_tab, sz_idx = planner._sizes(table)
    want = (table.columns[col].collation or "BINARY").upper()
    best = None
    for ix in _in_sqlite_order(table):
        if not ix.columns or ix.columns[0] != col:
            continue
        if only is not None and ix.name.lower() != only:
            continue
        if (ix.collations[0] or table.columns[col].collation or "BINARY").upper() != want:
            continue
        if best is None or sz_idx[ix.name] < sz_idx[best.name]:
            best = ix
    return best


def code_minmax(p, src, col, is_max, target, hint=None, load_row=None, row_cols=()) -> bool:
    """min(col) or max(col) over every row of table source ``src`` into ``target`` by one
    seek; False (nothing emitted) when no index or rowid order answers it. ``load_row``,
    when given, codes the bare columns: ``load_row(False)`` their NULLs before the seek,
    ``load_row(True)`` their reads from the table cursor on the row found; ``row_cols``
    are the table columns they read (all in the index: EXPLAIN QUERY PLAN says COVERING,
    as sqlite3, though the row is read from the table all the same)."""
    b = p.b
    table = src.table
    if table.without_rowid or hint is not None and hint.not_indexed and col >= 0:
        return False
    ix = None
    if col >= 0:
        only = hint.indexed_by.lower() if hint is not None and hint.indexed_by else None
        ix = _minmax_index(table, col, only)
        if ix is None:
            return False
    if load_row is not None:
        load_row(False)
    done = b.new_label()
    empty = b.new_label()
    if col < 0:  # the rowid: the table's own first or last entry
        eqp_line(p, f"SEARCH {src.name}")
        open_source_cursor(p, src)
        b.emit(O.OP_Last if is_max else O.OP_Rewind, src.cursor, empty)
        b.emit(O.OP_Rowid, src.cursor, target)
        if load_row is not None:
            load_row(True)
    else:
        covering = "COVERING " if all(c in ix.columns for c in row_cols) else ""
        eqp_line(p, f"SEARCH {src.name} USING {covering}INDEX {ix.name}")
        cur = b.alloc_cursor()
        b.emit(O.OP_OpenRead, cur, ix.root, 0, index_key_info(p, ix, table), comment=ix.name)
        # NULLs sort first in key order, last for a DESC column
        nulls_at_end = bool(ix.desc[0])
        if is_max:
            # the end away from the NULLs: NULL there only when every entry is NULL
            b.emit(O.OP_Rewind if nulls_at_end else O.OP_Last, cur, empty)
        else:  # the first entry past the NULLs
            nul = b.alloc_reg()
            b.emit(O.OP_Null, 0, nul)
            retry = b.new_label() if load_row is not None else empty
            b.emit(O.OP_SeekLT if nulls_at_end else O.OP_SeekGT, cur, retry, nul, 1)
            if load_row is not None:  # only NULLs: the row of the first (SQLite's retry)
                found = b.new_label()
                b.emit(O.OP_Goto, 0, found)
                b.resolve(retry)
                b.emit(O.OP_Last if nulls_at_end else O.OP_Rewind, cur, empty)
                b.resolve(found)
        b.emit(O.OP_Column, cur, 0, target)
        if table.columns[col].affinity == _REAL:
            b.emit(O.OP_RealAffinity, target)
        if load_row is not None:
            rowid = b.alloc_reg()
            open_source_cursor(p, src)
            b.emit(O.OP_IdxRowid, cur, rowid)
            b.emit(O.OP_SeekRowid, src.cursor, done, rowid)
            load_row(True)
    b.emit(O.OP_Goto, 0, done)
    b.resolve(empty)
    b.emit(O.OP_Null, 0, target)
    b.resolve(done)
    return True
