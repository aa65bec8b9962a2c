"""AUTOINCREMENT: the ``sqlite_sequence`` table and the rowids it guards.

As in SQLite: the first AUTOINCREMENT table of a database creates
``sqlite_sequence(name,seq)``; an INSERT into such a table reads the table's sequence
value once, never hands out a rowid at or below it (nor below the largest rowid in use),
raises it to the largest rowid inserted, and writes it back at the end of the statement
when it grew (and when the table had no entry, even if no row was inserted); DROP TABLE
removes the table's entry.

This module emits code; it never runs it.
"""

from __future__ import annotations

from sqlengine.errors import SQLITE_FULL
from sqlengine.vdbe import opcodes as O

SEQUENCE_SQL = "CREATE TABLE sqlite_sequence(name,seq)"


def create_sequence_table(p, schema_cursor, insert_schema_row):
    """Code creating sqlite_sequence, when the database has none yet."""
    if p.schema.table("sqlite_sequence") is not None:
        return
    b = p.b
    root = b.alloc_reg()
    b.emit(O.OP_CreateBtree, 0, root, 1)
    insert_schema_row(p, schema_cursor, "table", "sqlite_sequence", "sqlite_sequence", root,
                      SEQUENCE_SQL)


class Autoinc:
    """The registers of one INSERT's sequence value: ``reg`` (the value, read as an
    integer), ``rowid_reg`` (the sqlite_sequence row holding it, or NULL), ``orig_reg``
    (the value read, NULL without a row: written back only when it grew)."""

    shared = False

    def __init__(self, p, table):
        self.p = p
        self.table = table
        b = p.b
        seq = p.schema.table("sqlite_sequence")
        self.seq_table = seq
        self.reg = b.alloc_reg()
        self.rowid_reg = b.alloc_reg()
        self.orig_reg = b.alloc_reg()
        self.cur = b.alloc_cursor()
        b.emit(O.OP_Integer, 0, self.reg)
        b.emit(O.OP_Null, 0, self.rowid_reg)
        b.emit(O.OP_Null, 0, self.orig_reg)
        if seq is None:
            return
        # find the table's row
        b.emit(O.OP_OpenWrite, self.cur, seq.root, 0, 2, comment="sqlite_sequence")
        name = b.alloc_reg()
        col = b.alloc_reg()
        p.emit_constant(table.name, name)
        done = b.new_label()
        nxt = b.new_label()
        b.emit(O.OP_Rewind, self.cur, done)
        top = b.addr()
        b.emit(O.OP_Column, self.cur, 0, col)
        b.emit(O.OP_Ne, name, nxt, col, None, 0x10)
        b.emit(O.OP_Rowid, self.cur, self.rowid_reg)
        b.emit(O.OP_Column, self.cur, 1, self.reg)
        # (the value as an integer, as SQLite's AddImm 0 makes it: 'abc', NULL, a blob 0)
        b.emit(O.OP_CastType, self.reg, 0, 0, "INTEGER")
        have = b.new_label()
        b.emit(O.OP_NotNull, self.reg, have)
        b.emit(O.OP_Integer, 0, self.reg)
        b.resolve(have)
        b.emit(O.OP_Copy, self.reg, self.orig_reg)
        b.emit(O.OP_Goto, 0, done)
        b.resolve(nxt)
        b.emit(O.OP_Next, self.cur, top)
        b.resolve(done)

    def check_room(self, tcur):
        """Before NewRowid on the table's cursor ``tcur``: SQLite's NewRowid of an
        AUTOINCREMENT table fails with SQLITE_FULL where another table's would pick a
        random rowid (its largest rowid in use is the largest rowid there is), and when
        the sequence value is that rowid."""
        b = self.p.b
        top = b.alloc_reg()
        last = b.alloc_reg()
        room = b.new_label()
        full = b.new_label()
        seq = b.new_label()
        self.p.emit_constant((1 << 63) - 1, top)
        b.emit(O.OP_Last, tcur, seq)
        b.emit(O.OP_Rowid, tcur, last)
        b.emit(O.OP_Ge, top, full, last, None, 0)  # (largest rowid in use: the largest)
        b.resolve(seq)
        b.emit(O.OP_Lt, top, room, self.reg, None, 0)
        b.resolve(full)
        b.emit(O.OP_Halt, SQLITE_FULL, O.OE_ABORT, 0, "database or disk is full")
        b.resolve(room)

    def adjust_new_rowid(self, rowid_reg):
        """After NewRowid chose r[rowid_reg]: make it at least the sequence value + 1."""
        b = self.p.b
        t = b.alloc_reg()
        ok = b.new_label()
        one = b.alloc_reg()
        b.emit(O.OP_Integer, 1, one)
        b.emit(O.OP_Add, self.reg, one, t)
        b.emit(O.OP_Ge, t, ok, rowid_reg, None, 0)
        b.emit(O.OP_SCopy, t, rowid_reg)
        b.resolve(ok)

    def note_rowid(self, rowid_reg):
        """After a row is written: the sequence value is at least its rowid."""
        self.p.b.emit(O.OP_MemMax, self.reg, rowid_reg)

    def finish(self):
        """At the end of the statement: write the sequence value back."""
        if self.shared:
            return
        self.p.autoincs.pop(self.table.name.lower(), None)
        if self.seq_table is None:
            return
        p = self.p
        b = p.b
        # (as SQLite: a value that did not grow is left as stored, a '9' text too)
        same = b.new_label()
        b.emit(O.OP_Le, self.orig_reg, same, self.reg, None, 0)
        regs = b.alloc_reg(2)
        p.emit_constant(self.table.name, regs)
        b.emit(O.OP_SCopy, self.reg, regs + 1)
        rec = b.alloc_reg()
        b.emit(O.OP_MakeRecord, regs, 2, rec)
        have = b.new_label()
        b.emit(O.OP_NotNull, self.rowid_reg, have)
        b.emit(O.OP_NewRowid, self.cur, self.rowid_reg)
        b.resolve(have)
        b.emit(O.OP_Insert, self.cur, rec, self.rowid_reg)
        b.resolve(same)


class _Shared(Autoinc):
    """An INSERT into a table that a statement around it (whose trigger it is in) inserts
    into too: it uses that statement's sequence registers, written back once at its end
    (SQLite keeps one AutoincInfo per table for the top-level statement)."""

    shared = True

    def __init__(self, outer):  # (no code: the registers are the outer statement's)
        self.__dict__.update(outer.__dict__)


def shared_in(outer, reg):
    """The sequence value of ``outer`` (an INSERT's Autoinc) as a trigger sub-program
    sees it: in its register ``reg``, which the call copies in and back out."""
    ai = _Shared(outer)
    ai.reg = reg
    return ai


def begin(p, table):
    """Start AUTOINCREMENT bookkeeping for an INSERT into ``table`` (None if not needed)."""
    if not getattr(table, "autoinc", False):
        return None
    active = getattr(p, "autoincs", None)
    if active is None:
        active = p.autoincs = {}
    outer = active.get(table.name.lower())
    if outer is not None:
        return _Shared(outer)
    ai = active[table.name.lower()] = Autoinc(p, table)
    return ai


def code_drop(p, table_name):
    """Code removing a dropped table's sqlite_sequence entry."""
    seq = p.schema.table("sqlite_sequence")
    if seq is None:
        return
    b = p.b
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenWrite, cur, seq.root, 0, 2, comment="sqlite_sequence")
    name = b.alloc_reg()
    col = b.alloc_reg()
    p.emit_constant(table_name, name)
    done = b.new_label()
    top = b.new_label()
    nxt = b.new_label()
    b.emit(O.OP_Rewind, cur, done)
    b.resolve(top)
    b.emit(O.OP_Column, cur, 0, col)
    b.emit(O.OP_Ne, name, nxt, col, None, 0x10)
    b.emit(O.OP_Delete, cur, 0)
    b.resolve(nxt)
    b.emit(O.OP_Next, cur, top)
    b.resolve(done)
