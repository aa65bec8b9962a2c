"""A compiled program: the immutable output of the compiler, the input of the VM.

A program is five parallel integer arrays (opcode, p1, p2, p3, p5), a list of P4 operands
(Python objects: strings, KeyInfo, functions, affinity strings) and a list of comments
(a string, or a (table, column) pair that a listing joins with a dot),
plus what a prepared statement reports about itself (column names, declared types,
parameters, read-only). It is never modified after ``ProgramBuilder.finish``; the VM keeps
its run state (registers, cursors, pc) elsewhere, so one program can be run many times.
This module never runs a program.
"""

from __future__ import annotations

from array import array

from sqlengine.vdbe.opcodes import NAMES


class Program:
    __slots__ = (
        "opcodes", "p1", "p2", "p3", "p5", "p4", "comments", "n_mem", "n_cursor",
        "column_names", "column_decltypes", "param_count", "param_names", "readonly",
        "is_explain", "n_once", "sql", "schema_version", "is_ddl", "is_write", "is_txn",
        "stmt_journal",
    )

    def __init__(self, ops, n_mem, n_cursor, n_once=0):
        """``ops``: the instructions as [opcode, p1, p2, p3, p4, p5, comment] lists."""
        cols = tuple(zip(*ops)) if ops else ((),) * 7
        self._init(*cols, n_mem, n_cursor, n_once)

    @classmethod
    def from_arrays(cls, opcodes, p1, p2, p3, p4, p5, comments, n_mem, n_cursor, n_once=0):
        """A program that takes the given columns as they are (not copied): ``opcodes``
        and ``p5`` ``array('i')``, ``p1``..``p3`` ``array('q')``, ``p4`` and ``comments``
        lists, all of one length and not changed afterwards (``ProgramBuilder.finish``)."""
        prog = cls.__new__(cls)
        prog._set(opcodes, p1, p2, p3, p4, p5, comments, n_mem, n_cursor, n_once)
        return prog

    def _init(self, opcodes, p1, p2, p3, p4, p5, comments, n_mem, n_cursor, n_once):
        self._set(array("i", opcodes), array("q", p1), array("q", p2), array("q", p3),
                  list(p4), array("i", p5), list(comments), n_mem, n_cursor, n_once)

    def _set(self, opcodes, p1, p2, p3, p4, p5, comments, n_mem, n_cursor, n_once):
        self.opcodes = opcodes
        self.p1 = p1
        self.p2 = p2
        self.p3 = p3
        self.p5 = p5
        self.p4 = p4
        self.comments = comments
        self.n_mem = n_mem
        self.n_cursor = n_cursor
        self.n_once = n_once
        self.column_names: list[str] = []
        self.column_decltypes: list[str | None] = []
        self.param_count = 0
        self.param_names: list[str | None] = []
        self.readonly = True
        self.is_explain = 0
        self.sql = ""
        self.schema_version = 0
        self.is_ddl = False
        self.is_write = False
        self.is_txn = False
        # a writing statement that may fail after a write runs in a statement savepoint
        self.stmt_journal = True

    def __len__(self):
        return len(self.opcodes)

    def explain_rows(self):
        """The rows of EXPLAIN: (addr, opcode, p1, p2, p3, p4, p5, comment)."""
        rows = []
        for i in range(len(self.opcodes)):
            p4 = self.p4[i]
            if p4 is not None and not isinstance(p4, (int, float, str, bytes)):
                p4 = getattr(p4, "explain", None) or type(p4).__name__
                if callable(p4):
                    p4 = p4()
            comment = self.comments[i]
            if type(comment) is tuple:  # (table, column) of a Column read
                comment = ".".join(comment)
            rows.append((i, NAMES[self.opcodes[i]], self.p1[i], self.p2[i], self.p3[i],
                         p4, self.p5[i], comment))
        return rows

    def listing(self) -> str:
        return "\n".join(
            f"{a:<4} {op:<14} {p1:<4} {p2:<4} {p3:<4} {'' if p4 is None else p4!s:<14} {p5:<2} {c or ''}"
            for a, op, p1, p2, p3, p4, p5, c in self.explain_rows())
