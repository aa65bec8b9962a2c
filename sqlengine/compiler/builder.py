"""ProgramBuilder: emits VM instructions, allocates registers and cursors, resolves labels.

A label is a negative integer handed out by ``new_label``; it may be used as a jump target
(P2, and P1/P3 of Jump) before its address is known, and ``resolve`` pins it to the next
instruction. ``finish`` replaces every label by its address and returns an immutable
``vdbe.program.Program``. The builder knows nothing about SQL; it never runs code.

The class is compiled (``_codegen.pyx``, declared in ``_codegen.pxd``), so that the
expression coder beside it and the compiled coders that cimport it (``_where.pyx``) call
``emit`` and the register and label allocators as C functions; its interface:

- ``emit(op, p1=0, p2=0, p3=0, p4=None, p5=0, comment=None) -> address``
- ``addr()``, ``change_p1(addr, p1)``, ``change_p2(addr, p2)``
- ``new_label()``, ``resolve(label)``
- ``alloc_reg(n=1)``, ``alloc_cursor()``, ``alloc_once()``
- ``finish() -> Program``
- ``ops`` (the instructions as ``[op, p1, p2, p3, p4, p5, comment]`` rows, a live view of
  the builder's arrays: ``ops[a][k] = v`` or ``ops[a] = [...]`` patches an instruction
  before ``finish``), ``n_mem``, ``n_cursor``, ``n_once``.
"""

from __future__ import annotations

from sqlengine.compiler._codegen import ProgramBuilder

__all__ = ["ProgramBuilder"]
