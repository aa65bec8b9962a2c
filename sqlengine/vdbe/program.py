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

from sqlengine.vdbe.opcodes import NAMES


class Program:
    __slots__ = (
        "opcodes", "p1", "p2", "p3", "p5", "p4", "comments", "n_mem", "n_cursor",
        "column_names", "column_decltypes", "param_count", "param_names", "readonly",
        "is_explain", "n_once", "sql", "schema_version", "is_ddl", "is_write", "is_txn",
        "stmt_journal",
    )

    @classmethod
    def from_arrays(cls, opcodes, p1, p2, p3, p4, p5, comments, n_mem, n_cursor, n_once=0):
        """A program that takes the given columns as they are (not copied): ``opcodes``
        and ``p5`` ``array('i')``, ``p1``..``p3`` ``array('q')``, ``p4`` and ``comments``
        lists, all of one length and not changed afterwards (``ProgramBuilder.finish``).
        What the statement reports about itself (column names and declared types,
        parameters, read-only, write, DDL, transaction, EXPLAIN, statement journal, SQL
        text) is set by its compiler (``compiler/statement.py``), every attribute of it."""
        prog = cls.__new__(cls)
        prog.opcodes = opcodes
        prog.p1 = p1
        prog.p2 = p2
        prog.p3 = p3
        prog.p5 = p5
        prog.p4 = p4
        prog.comments = comments
        prog.n_mem = n_mem
        prog.n_cursor = n_cursor
        prog.n_once = n_once
        prog.schema_version = 0
        return prog

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
