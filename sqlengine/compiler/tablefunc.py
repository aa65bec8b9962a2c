"""Table-valued functions in FROM: ``json_each``, ``json_tree`` and ``pragma_NAME(...)``.

``json_each(X[, P])`` / ``json_tree(X[, P])`` become an ephemeral table filled when control
reaches the FROM clause: the arguments are evaluated there (they may read columns of an
enclosing query, so a correlated subquery refills it on every run) and the rows come from
``vdbe.func_json``. The hidden columns ``json`` and ``root`` are left out of ``*``.
Arguments that read another table of the same FROM clause are not supported.

This module emits code; it never runs it.
"""

from __future__ import annotations

from sqlengine.compiler.resolve import Scope
from sqlengine.errors import OperationalError
from sqlengine.vdbe import opcodes as O


def table_function_source(p, item, scope, Source, TableDest):
    """The FROM source of a table-valued function call, or None when ``item`` names none."""
    name = item.name.lower()
    if name.startswith("pragma_"):
        from sqlengine.compiler.pragma import pragma_function_source
        return pragma_function_source(p, item, Source, TableDest)
    if name not in ("json_each", "json_tree"):
        return None
    from sqlengine.compiler.expr import code_expr
    from sqlengine.vdbe import func_json
    fn = func_json.json_each if name == "json_each" else func_json.json_tree
    args = list(item.args)
    if not 1 <= len(args) <= 2:
        raise OperationalError(f"too many arguments on {name}() - max 2" if len(args) > 2
                               else f"no such table: {item.name}")
    b = p.b
    cur = b.alloc_cursor()
    b.emit(O.OP_OpenEphemeral, cur, 0)
    regs = b.alloc_reg(len(args))
    outer = scope.outer if scope is not None else None
    arg_scope = Scope([], outer=outer, corr=scope.corr if scope is not None else None)
    for i, a in enumerate(args):
        code_expr(p, arg_scope, a, regs + i)
    if arg_scope.correlated and scope is not None:
        scope.correlated = True

    def fill(vm, values, cur=cur, fn=fn):
        data = vm.cursors[cur].data
        for k, row in enumerate(fn(*values)):
            data.insert(k + 1, tuple(row))
        return None
    out = b.alloc_reg()
    b.emit(O.OP_Function, 0, regs, out, fill, len(args))
    cols = list(func_json.JSON_EACH_COLUMNS)
    n = len(cols)
    src = Source(item.alias or item.name, cur, cols, [O.AFF_BLOB] * n, [None] * n, [None] * n)
    src.hidden.update({n - 2, n - 1})
    return src
