"""Partial indexes (CREATE INDEX ... WHERE): only rows for which the WHERE clause is true
have an entry, and only those take part in a UNIQUE check.

``code_partial_flag`` evaluates the clause for the row being written into a register
(1 or 0) that the write path consults before checking uniqueness and before inserting
the entry; ``partial_flag`` finds that register again from the key registers. Deleting
an entry that is not there is harmless, so DELETE needs nothing. The planner reads a
partial index only where the query's WHERE implies the index's (``partial_plan.py``).
This module emits code; it never runs it.
"""

from __future__ import annotations

from sqlengine.compiler.expr import if_false
from sqlengine.compiler.generated import row_scope
from sqlengine.vdbe import opcodes as O


def code_partial_flag(p, table, idx, base, key_reg):
    """r[flag] = 1 when the row at ``base`` belongs in partial index ``idx``."""
    b = p.b
    flag = b.alloc_reg()
    no = b.new_label()
    b.emit(O.OP_Integer, 0, flag)
    if_false(p, row_scope(p, table, base), idx.where, no, True)
    b.emit(O.OP_Integer, 1, flag)
    b.resolve(no)
    flags = getattr(p, "partial_flags", None)
    if flags is None:
        flags = p.partial_flags = {}
    flags[key_reg] = flag
    return flag


def partial_flag(p, key_reg):
    """The flag register of the partial-index key in ``key_reg`` (None if not partial)."""
    flags = getattr(p, "partial_flags", None)
    return None if flags is None else flags.get(key_reg)
