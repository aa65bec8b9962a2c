# cython: language_level=3
"""A compiled program: the immutable output of the compiler, the input of the VM.

A program is five parallel integer arrays (opcode, p1, p2, p3, p5), a list of P4 operands
(Python objects: strings, KeyInfo, functions, affinity strings) and a list of comments
(a string, or a (table, column) pair that a listing joins with a dot),
plus what a prepared statement reports about itself (column names, declared types,
parameters, read-only). It is never modified after ``ProgramBuilder.finish``; the VM keeps
its run state (registers, cursors, pc) elsewhere, so one program can be run many times.
This module never runs a program.
"""

from sqlengine.vdbe.opcodes import NAMES


cdef class Program:
    """The attributes are declared in ``program.pxd``. ``ProgramBuilder.finish``
    (compiler/_codegen.pyx) fills the arrays, ``n_mem``, ``n_cursor`` and ``n_once``;
    ``compiler/statement.py`` what the statement reports about itself (column names and
    declared types, parameters, read-only, write, DDL, transaction, EXPLAIN, statement
    journal, SQL text); the connection ``schema_version`` once compiled."""

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
