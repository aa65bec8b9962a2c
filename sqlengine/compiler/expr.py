"""Expression code generation: values into registers, and conditions into jumps.

``code_expr`` computes an expression into a register; ``if_false`` / ``if_true`` emit
jumps (SQLite's sqlite3ExprIfFalse/IfTrue) so WHERE and CASE short-circuit. Comparisons
carry SQLite's affinity and collation rules (P5 / P4 of the comparison opcodes); IN,
BETWEEN, CASE, LIKE/GLOB, CAST and the three kinds of subquery are lowered here. This
module reads the AST and the resolved scope; it never runs code or touches storage.

The kinds met in nearly every statement (literals, columns, parameters, operators,
comparisons, BETWEEN, IN (list), CASE, function calls, conditions as jumps) and the
expression walk are coded in the compiled ``_codegen`` module and re-exported from here;
the rest (LIKE/GLOB, subqueries, row values, RAISE, NEW/OLD in triggers, an enclosing
query's aggregate) is below, and ``_codegen`` calls back into it.
"""

from __future__ import annotations

import sys

from sqlengine.compiler import _codegen
from sqlengine.compiler._codegen import (  # noqa: F401  (the public surface of this module)
    _code_case, _emit_cmp_py as _emit_cmp, aff_code, aggs_in, bare_refs, code_column, code_expr,
    code_expr_reg, emit_constant, if_false, if_true, literal_value, no_aggregate_in, walk)
from sqlengine.compiler.resolve import (  # noqa: F401
    OuterAlias, ResolvedColumn, expr_coll_seq, expr_collation)
from sqlengine.compiler.setrow import SubqueryColumn, code_subquery_column
from sqlengine.compiler.walk import find_node
from sqlengine.errors import OperationalError
from sqlengine.sql.ast import (
    Binary, Cast, Collate, Compound, CurrentTime, Exists, FunctionCall, InSelect,
    InTable, Join, Like, Literal, Raise, ResultColumn, RowValue, Subquery, SubqueryRef,
    Unary, Values)
from sqlengine.vdbe.opcodes import (
    OE_ABORT, ON_CONFLICT, OP_Function, OP_Goto, OP_Not, OP_Null, OP_Raise,
    OP_SCopy)

_AGG_NAMES = frozenset(("count", "sum", "total", "avg", "min", "max", "group_concat",
                        "string_agg"))

INT64_MAX = 9223372036854775807


def hex_literal_too_big(p, e, sign=""):
    """SQLite's error for a hex literal of 2**64 or more (the parser keeps its exact value),
    or for -0x8000000000000000 (a negative literal can only be hex), naming the literal as
    written when the statement text at its offset holds it."""
    v = e.value if e.value >= 0 else e.value + (1 << 64)
    return OperationalError(f"hex literal too big: {sign}{_hex_text(p, e) or f'0x{v:x}'}")


def hex_too_big(p, e, sign=""):
    """Raise ``hex_literal_too_big`` for the literal ``e`` being coded, or, when the
    statement is compiled again to find the last such literal (statement.compile_statement:
    SQLite's coder goes on after an error, each new one replacing the message), note it
    in the Parse's ``hex_notes``: the literal then codes as NULL."""
    err = hex_literal_too_big(p, e, sign)
    notes = vars(p).get("hex_notes")
    if notes is None:
        raise err
    if not vars(p).get("hex_quiet"):
        notes.append(err)


def hex_noted(p) -> bool:
    """Whether a hex literal too big was noted (``hex_too_big``) and a FROM subquery
    (view, CTE) or compound arm coded now notes none: SQLite codes no SELECT after an
    error (sqlite3Select returns at once when pParse->nErr), so a later one's literal is
    never the one named (``hex_quietly`` codes them so). (An expression's subquery is
    left to the coding order: SQLite codes some constants last, sqlite3ExprCodeRunJustOnce,
    which this engine does not follow.)"""
    d = vars(p)
    return bool(d.get("hex_notes")) and not d.get("hex_quiet")


def hex_quietly(p, compile_fn, *args):
    """``compile_fn(*args)`` (a SELECT or compound arm) with no hex literal noted in it,
    each coded as NULL (see ``hex_noted``)."""
    d = vars(p)
    d["hex_quiet"] = True
    try:
        return compile_fn(*args)
    finally:
        d["hex_quiet"] = False


def _hex_text(p, e):
    """The hex literal ``e`` as written in the statement text, None when it is not there."""
    sql, i = p.sql or "", e.pos
    j = i + 2
    if i < 0 or sql[i:j].lower() != "0x":
        return None
    while j < len(sql) and sql[j] in "0123456789abcdefABCDEF":
        j += 1
    v = e.value if e.value >= 0 else e.value + (1 << 64)
    return sql[i:j] if j > i + 2 and int(sql[i + 2:j], 16) == v else None


def uncollated(e):
    """``e`` without the COLLATE operators around it."""
    while type(e) is Collate:
        e = e.expr
    return e


def term_number(e):
    """The column number that the ORDER BY or GROUP BY term ``e`` (its COLLATE taken off)
    is, as SQLite's sqlite3ExprIsInteger reads it: an integer literal written 0 to
    2**31 - 1 (its EP_IntValue; not an unquoted TRUE or FALSE), or one under a unary +
    or - (``-1`` is out of range); None for any other term, an expression (a literal of
    2147483648 or more included: a constant, which orders nothing)."""
    t = type(e)
    if t is Literal:
        v = e.value
        return v if type(v) is int and 0 <= v <= 0x7FFFFFFF and not e.word else None
    if t is Unary and e.op in ("+", "-"):
        k = term_number(e.operand)
        return -k if k is not None and e.op == "-" else k
    return None


def is_constant(e) -> bool:
    """True when ``e`` reads no column, parameter-free subquery or non-deterministic function."""
    if isinstance(e, Literal):
        return True
    if isinstance(e, Unary):
        return is_constant(e.operand)
    if isinstance(e, Binary):
        return is_constant(e.left) and is_constant(e.right)
    if isinstance(e, Collate):
        return is_constant(e.expr)
    if isinstance(e, Cast):
        return is_constant(e.expr)
    return False


def is_aggregate_call(p, e) -> bool:
    if not isinstance(e, FunctionCall) or e.over is not None:
        return False
    return p.functions.is_aggregate(e.name, len(e.args) if not e.star else 0)


def _code_expr_other(p, scope, e, target):
    """``code_expr`` for the kinds ``_codegen`` leaves to Python."""
    b = p.b
    t = type(e)
    if t is InSelect:
        _code_in_select(p, scope, e, target)
    elif t is Like:
        _code_like(p, scope, e, target)
    elif t is Subquery:
        _select.code_scalar_subquery(p, scope, e, target)
    elif t is Exists:
        _select.code_exists(p, scope, e, target)
    elif t is CurrentTime:
        f = p.functions.scalar(e.kind.lower(), 0)
        b.emit(OP_Function, 0, target, target, f, 0)
    elif t is Raise:
        _code_raise(p, e)
        b.emit(OP_Null, 0, target)
    elif t is RowValue:
        raise OperationalError("row value misused")
    elif t is InTable:
        _select.code_in_table(p, scope, e, target)
    elif t is OuterAlias:  # an enclosing query's alias, coded in that query (alias.py)
        code_expr(p, e.scope, e.expr, target)
    elif t is SubqueryColumn:  # a column of SET (a, b) = (select ...)
        code_subquery_column(p, scope, e, target)
    else:
        raise OperationalError(f"unsupported expression: {type(e).__name__}")


def _code_binary_other(p, scope, e, target):
    """``code_expr`` for the binary operators ``_codegen`` leaves to Python."""
    b = p.b
    op = e.op
    if op in ("->", "->>"):  # SQLite's JSON operators are the functions of that name
        f = p.functions.scalar(op, 2)
        if f is None:
            raise OperationalError(f"no such function: {op}")
        base = b.alloc_reg(2)
        code_expr(p, scope, e.left, base)
        code_expr(p, scope, e.right, base + 1)
        b.emit(OP_Function, 0, base, target, f, 2)
    else:
        raise OperationalError(f"no such function: {op}")


def code_virtual_column(p, ref, target):
    """A VIRTUAL generated column, computed from its row (``generated.py``)."""
    _generated.code_virtual_column(p, ref, target)


def code_trigger_ref(p, e, target):
    """NEW.x / OLD.x inside a trigger body."""
    new_base, old_base, table = p.trigger_ctx
    which = e.table.lower()
    base = new_base if which == "new" else old_base
    if base is None or e.schema is not None:  # (``main.new.x`` names no column)
        raise OperationalError(f"no such column: {e.table}.{e.name}")
    name = e.name.lower()
    n = table.find_column(e.name) if not getattr(table, "is_view", False) else \
        _view_col(table, e.name)
    if n is None or n < 0:
        if name in ("rowid", "oid", "_rowid_"):  # (a view's: trigger.py sets it)
            p.b.emit(OP_SCopy, base, target)
            return
        raise OperationalError(f"no such column: {e.table}.{e.name}")
    if not getattr(table, "is_view", False) and n == table.ipk:
        p.b.emit(OP_SCopy, base, target)
        return
    p.b.emit(OP_SCopy, base + 1 + n, target)


def _view_col(view, name):
    cols = view.col_names if hasattr(view, "col_names") else None
    if cols is None:
        return None
    for i, c in enumerate(cols):
        if c.lower() == name.lower():
            return i
    return None


def _code_raise(p, e):
    b = p.b
    if e.action in ("FK_DEFERRED", "FK_IMMEDIATE", "FK_DEPTH"):  # foreign keys (fkey.py)
        _fkey.code_fk_raise(p, e)
        return
    if e.action == "IGNORE":
        if p.trigger_ignore is None:
            raise OperationalError("RAISE() may only be used within a trigger-program")
        b.emit(OP_Goto, 0, p.trigger_ignore)
        return
    if p.trigger_ctx is None:
        raise OperationalError("RAISE() may only be used within a trigger-program")
    msg = e.message.value if isinstance(e.message, Literal) else ""
    action = ON_CONFLICT.get(e.action, OE_ABORT)
    b.emit(OP_Raise, action, 0, 0, str(msg))


def _code_in_select(p, scope, e, target):
    _select.code_in_subquery(p, scope, e, target)


def _code_like(p, scope, e, target):
    name = e.op.lower()
    args = [e.right, e.left] + ([e.escape] if e.escape is not None else [])
    f = p.functions.scalar(name, len(args))
    if f is None:
        raise OperationalError(f"no such function: {e.op}")
    base = p.b.alloc_reg(len(args))
    for i, a in enumerate(args):
        code_expr(p, scope, a, base + i)
    p.b.emit(OP_Function, 0, base, target, f, len(args))
    if e.negated:
        p.b.emit(OP_Not, target, target)


def _code_outer_aggregate(p, scope, e, target):
    """An aggregate call this query does not compute: an enclosing query's (it holds the
    value: compiler/aggscope.py), else a misuse (SQLite's resolve-time message where the
    clause allows no aggregate, its code-time one elsewhere)."""
    if scope is None or not scope.agg_allowed and (
            scope.in_where is None or _inside(scope.in_where, e)):
        # (LIMIT, VALUES, SET, an UPDATE's or DELETE's WHERE, or the WHERE and FROM of a
        # SELECT that is no aggregate one: clauses where SQLite allows no aggregate)
        raise OperationalError(f"misuse of aggregate function {e.name}()")
    r = _aggscope.outer_register(scope, e, p.values_unused)
    if r is _aggscope.PROBED or r is None and p.values_unused:
        p.b.emit(OP_Null, 0, target)
        return
    if r is not None:
        p.b.emit(OP_SCopy, r, target)
        return
    raise OperationalError(f"misuse of aggregate: {e.name}()")


def _inside(exprs, e) -> bool:
    return any(find_node(x, lambda y: y is e) is not None for x in exprs if x is not None)


def walk_select(sel, fn):
    cores = []
    stack = [sel.body]
    while stack:  # the compound's cores, left to right
        bd = stack.pop()
        if isinstance(bd, Compound):
            stack.append(bd.right)
            stack.append(bd.left)
        else:
            cores.append(bd)
    for c in cores:
        if isinstance(c, Values):
            for row in c.rows:
                for x in row:
                    walk(x, fn, True)
            continue
        for rc in c.columns:
            if isinstance(rc, ResultColumn):
                walk(rc.expr, fn, True)
        walk(c.where, fn, True)
        for g in c.group_by or ():
            walk(g, fn, True)
        walk(c.having, fn, True)
        _walk_from(c.from_, fn)
    for o in sel.order_by or ():
        walk(o.expr, fn, True)


def _walk_from(f, fn):
    if f is None:
        return
    if isinstance(f, Join):
        _walk_from(f.left, fn)
        _walk_from(f.right, fn)
        walk(f.on, fn, True)
    elif isinstance(f, SubqueryRef):
        walk_select(f.select, fn)


_codegen._bind(sys.modules[__name__])
from sqlengine.compiler import rowvalue as _rowvalue  # noqa: E402,F401  (_codegen calls it; it imports this module)
# Modules whose functions this one calls and that import it (directly or not): bound once
# this module is complete, and read as attributes where they are called (a function-level
# import there cost a module look-up per call: per subquery, EXISTS or IN coded).
from sqlengine.compiler import aggscope as _aggscope  # noqa: E402
from sqlengine.compiler import fkey as _fkey  # noqa: E402
from sqlengine.compiler import generated as _generated  # noqa: E402
from sqlengine.compiler import select as _select  # noqa: E402
