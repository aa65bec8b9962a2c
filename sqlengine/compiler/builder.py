"""ProgramBuilder: emits VM instructions, allocates registers and cursors, resolves labels.

A label is a negative integer handed out by ``new_label``; it may be used as a jump target
(P2, and P1/P3 of Jump) before its address is known, and ``resolve`` pins it to the next
instruction. ``finish`` replaces every label by its address and returns an immutable
``vdbe.program.Program``. The builder knows nothing about SQL; it never runs code.
"""

from __future__ import annotations

from sqlengine.errors import InternalError
from sqlengine.vdbe import opcodes as O
from sqlengine.vdbe.program import Program


class ProgramBuilder:
    def __init__(self):
        self.ops: list[list] = []
        self.n_mem = 0
        self.n_cursor = 0
        self.n_once = 0
        self._labels: list[int] = []

    # ---- emission -------------------------------------------------------------------
    def emit(self, op: int, p1=0, p2=0, p3=0, p4=None, p5=0, comment=None) -> int:
        ops = self.ops
        ops.append([op, p1, p2, p3, p4, p5, comment])
        return len(ops) - 1

    def addr(self) -> int:
        """Address of the next instruction."""
        return len(self.ops)

    def change_p2(self, addr: int, p2: int) -> None:
        self.ops[addr][2] = p2

    def change_p1(self, addr: int, p1: int) -> None:
        self.ops[addr][1] = p1

    # ---- labels ---------------------------------------------------------------------
    def new_label(self) -> int:
        self._labels.append(-1)
        return -len(self._labels)

    def resolve(self, label: int) -> None:
        self._labels[-label - 1] = len(self.ops)

    # ---- registers and cursors --------------------------------------------------------
    def alloc_reg(self, n: int = 1) -> int:
        first = self.n_mem + 1
        self.n_mem += n
        return first

    def alloc_cursor(self) -> int:
        c = self.n_cursor
        self.n_cursor += 1
        return c

    def alloc_once(self) -> int:
        c = self.n_once
        self.n_once += 1
        return c

    # ---- finishing --------------------------------------------------------------------
    def _target(self, v: int) -> int:
        if v < 0:
            a = self._labels[-v - 1]
            if a < 0:
                raise InternalError("unresolved label in program")
            return a
        return v

    def finish(self) -> Program:
        """The Program, every label replaced by its address (the instructions are read
        column by column; ``ops`` itself is left as emitted)."""
        ops = self.ops
        if not ops:
            return Program([], self.n_mem + 1, self.n_cursor, self.n_once)
        opcodes, p1, p2, p3, p4, p5, comments = zip(*ops)
        if self._labels:
            target = self._target
            if min(p2) < 0:
                p2 = [v if v >= 0 else target(v) for v in p2]
            if O.OP_Jump in opcodes:
                p1, p3 = list(p1), list(p3)
                for i, op in enumerate(opcodes):
                    if op == O.OP_Jump:
                        p1[i] = target(p1[i])
                        p3[i] = target(p3[i])
        return Program.from_columns(opcodes, p1, p2, p3, p4, p5, comments,
                                    self.n_mem + 1, self.n_cursor, self.n_once)
