"""``SET (c1, c2, ...) = (SELECT ...)`` in UPDATE, UPDATE ... FROM, an upsert's DO UPDATE
and a trigger's UPDATE: each column assigned gets a ``SubqueryColumn``, SQLite's
TK_SELECT_COLUMN. The first of them coded runs the subquery into one register per result
column (its first row, NULLs when it has none; once per statement unless it is
correlated), the others of the same clause read those registers, so the subquery runs
once for all its columns. Its width is checked where it is coded: 'N columns assigned M
values'. This module emits code; it never runs it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe.opcodes import OP_SCopy


class _Run:
    """Where one SET clause's subquery put its row: the builder it was coded into and its
    first register (None until coded), and the number of its columns."""

    __slots__ = ("builder", "base", "width")

    def __init__(self):
        self.builder = None
        self.base = 0
        self.width = 0


@dataclass(slots=True, eq=False)
class SubqueryColumn:
    """Column ``index`` of the row of subquery ``sub`` assigned to one of the ``width``
    columns of a vector SET clause; ``run`` is shared by the clause's columns."""

    sub: A.Subquery
    index: int
    width: int
    run: object


def set_exprs(s) -> list:
    """The expressions SET clause ``s`` assigns to its columns, in their order."""
    if s.vector:
        return subquery_columns(s.expr, len(s.columns))
    if len(s.columns) == 1:
        return [s.expr]
    if type(s.expr) is A.RowValue and len(s.expr.items) == len(s.columns):
        return s.expr.items
    raise OperationalError("row value misused")


def subquery_columns(sub, width) -> list:
    """The ``width`` expressions a SET clause ``(c1, ..., cN) = (sub)`` assigns, in order."""
    run = _Run()
    return [SubqueryColumn(sub, i, width, run) for i in range(width)]


def code_subquery_column(p, scope, e, target):
    """``e`` (a SubqueryColumn) into ``target``: the subquery runs here when no column of
    its clause was coded before in this program."""
    from sqlengine.compiler.select import code_subquery_row
    run = e.run
    b = p.b
    if run.builder is not b:
        base, info = code_subquery_row(p, scope, e.sub)
        run.builder, run.base, run.width = b, base, len(info.names)
    if run.width != e.width:
        raise OperationalError(f"{e.width} columns assigned {run.width} values")
    b.emit(OP_SCopy, run.base + e.index, target)
