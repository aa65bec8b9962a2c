"""Generated columns (``AS (expr) VIRTUAL | STORED``).

A STORED column is computed when its row is written and kept in the record like any
other column. A VIRTUAL column is never stored: the record holds only the other columns
(``Table.storage`` maps a column to its record field) and a read computes the expression
from the row. While a row is being written, its registers (``base+1 ..``, one per column
in declared order) hold every column, the generated ones computed here after the regular
ones got their affinity, as SQLite's sqlite3ComputeGeneratedColumns does.

CREATE TABLE checks each expression as SQLite's resolver does (compiler/selfref.py). This
module emits code; it never runs it.
"""

from __future__ import annotations

from sqlengine.compiler import truefalse
from sqlengine.compiler.expr import code_expr
from sqlengine.compiler.resolve import Scope, Source, table_source
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe.opcodes import (AFF_BLOB, AFF_NONE, AFF_REAL, OP_Affinity, OP_Column,
    OP_RealAffinity, OP_SCopy)



# id(table) -> (table, its columns' affinities as one string, whether one is generated):
# a Table's columns never change once it is built (a schema change builds new Tables), and
# every row write compiled asks both; the entry holds its Table, so an id is not reused
_facts: dict = {}


def table_facts(table) -> tuple:
    """(table, affinity string, has a generated column) of a table (or view: no columns
    generated), remembered per table object."""
    hit = _facts.get(id(table))
    if hit is not None and hit[0] is table:
        return hit
    aff = ""
    gen = False
    for c in getattr(table, "columns", ()):
        aff += c.affinity
        if c.generated is not None:
            gen = True
    if len(_facts) > 256:
        _facts.clear()
    hit = _facts[id(table)] = (table, aff, gen)
    return hit


def has_generated(table) -> bool:
    return table_facts(table)[2]


def _column_refs(e, out):
    """Names (lower case) of the unqualified columns ``e`` reads."""
    if isinstance(e, A.Column):
        out.add(e.name.lower())
        return out
    for v in _children(e):
        _column_refs(v, out)
    return out


def _children(e):
    slots = getattr(type(e), "__slots__", None) or getattr(e, "__dataclass_fields__", {})
    for name in slots:
        v = getattr(e, name, None)
        if isinstance(v, list):
            for x in v:
                if hasattr(x, "__dataclass_fields__"):
                    yield x
        elif hasattr(v, "__dataclass_fields__"):
            yield v


# ---- reading -------------------------------------------------------------------------------

def code_virtual_column(p, ref, target):
    """Compute virtual column ``ref.col`` of the row under ``ref.source``'s cursor."""
    src = ref.source
    table = src.table
    col = table.columns[ref.col]
    busy = _busy(p)
    key = (id(table), ref.col)
    if key in busy:
        raise OperationalError(f'generated column loop on "{col.name}"')
    busy.add(key)
    try:
        scope = Scope([_row_source(src)])
        scope.overrides = ref.scope.overrides
        code_expr(p, scope, truefalse.bind_for_table(col.generated, table), target)
    finally:
        busy.discard(key)
    _col_affinity(p, col, target)


def _row_source(src):
    """A copy of a table source under the table's own name (the expression's names are
    unqualified), reading the same cursor."""
    t = src.table
    s = Source(t.name, src.cursor, src.columns, src.affs, src.colls, src.decltypes, table=t)
    s.index_cursor = src.index_cursor
    return s


def _busy(p):
    busy = getattr(p, "gen_busy", None)
    if busy is None:
        busy = p.gen_busy = set()
    return busy


def _col_affinity(p, col, reg):
    if col.affinity not in (AFF_BLOB, AFF_NONE):
        p.b.emit(OP_Affinity, reg, 1, 0, col.affinity)


def code_read_row(p, table, cur, base, only=None):
    """Read the row under table cursor ``cur`` into ``base+1 ..`` (``base`` holds its
    rowid): stored columns from the record, the virtual columns computed from those
    registers (the rowid alias's register stays NULL: its reads take ``base``). ``only``:
    the columns wanted (the others' registers are left as they are), for a table without
    generated columns; None: all."""
    b = p.b
    st = table.storage
    for i, c in enumerate(table.columns):
        if i == table.ipk or st is not None and st[i] < 0 or only is not None and i not in only:
            continue
        else:
            b.emit(OP_Column, cur, i if st is None else st[i], base + 1 + i)
            if c.affinity == AFF_REAL:
                b.emit(OP_RealAffinity, base + 1 + i)
    if st is not None:
        code_generated(p, table, base, virtual_only=True)


def record_registers(p, table, base):
    """(first, count) of registers holding the record of the row at ``base``: the stored
    columns in order (the rowid alias's register is NULL); the row's own registers when
    it has no VIRTUAL column."""
    st = table.storage
    if st is None:
        return base + 1, len(table.columns)
    b = p.b
    tmp = b.alloc_reg(table.n_stored)
    for i, k in enumerate(st):
        if k >= 0:
            b.emit(OP_SCopy, base + 1 + i, tmp + k)
    return tmp, table.n_stored


# ---- writing -------------------------------------------------------------------------------

def row_scope(p, table, base):
    """A scope whose columns are the registers of the row at ``base`` (a row being written:
    its generated columns, CHECK constraints, index expressions, partial-index WHERE
    clauses and RETURNING read it)."""
    src = table_source(table.name, -1, table)
    scope = Scope([src])
    for i in range(len(table.columns)):
        scope.overrides[(-1, i)] = base if i == table.ipk else base + 1 + i
    scope.overrides[(-1, -1)] = base
    return scope


def code_generated(p, table, base, virtual_only=False):
    """Compute the generated columns of the row at ``base`` into their registers, each
    once the columns it reads are available (SQLite's order, and its loop error)."""
    if not has_generated(table):
        return
    cols = table.columns
    pending = [i for i, c in enumerate(cols) if c.generated is not None
               and not (virtual_only and c.stored)]
    if not pending:
        return
    notavail = set(pending)
    refs = {i: _column_refs(cols[i].generated, set()) for i in pending}
    scope = row_scope(p, table, base)
    while True:
        progress = False
        redo = None
        for i in pending:
            if i not in notavail:
                continue
            if any(cols[j].name.lower() in refs[i] for j in notavail):
                redo = i
                continue
            code_expr(p, scope, truefalse.bind_for_table(cols[i].generated, table),
                      base + 1 + i)
            _col_affinity(p, cols[i], base + 1 + i)
            notavail.discard(i)
            progress = True
        if redo is None or not progress:
            break
    if redo is not None:
        raise OperationalError(f'generated column loop on "{cols[redo].name}"')
