"""Expression code generation: values into registers, and conditions into jumps.

``code_expr`` computes an expression into a register; ``if_false`` / ``if_true`` emit
jumps (SQLite's sqlite3ExprIfFalse/IfTrue) so WHERE and CASE short-circuit. Comparisons
carry SQLite's affinity and collation rules (P5 / P4 of the comparison opcodes); IN,
BETWEEN, CASE, LIKE/GLOB, CAST and the three kinds of subquery are lowered here. This
module reads the AST and the resolved scope; it never runs code or touches storage.
"""

from __future__ import annotations

from sqlengine.compiler.resolve import (ResolvedColumn, comparison_collation, expr_affinity,
                                        expr_coll_seq, expr_collation, no_such_column)
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O
from sqlengine.vdbe.opcodes import AFF_NONE
from sqlengine.vdbe._values import comparison_affinity

_ARITH = {"+": O.OP_Add, "-": O.OP_Subtract, "*": O.OP_Multiply, "/": O.OP_Divide,
          "%": O.OP_Remainder, "||": O.OP_Concat, "&": O.OP_BitAnd, "|": O.OP_BitOr,
          "<<": O.OP_ShiftLeft, ">>": O.OP_ShiftRight}
_CMP = {"=": O.OP_Eq, "!=": O.OP_Ne, "<": O.OP_Lt, "<=": O.OP_Le, ">": O.OP_Gt,
        ">=": O.OP_Ge, "IS": O.OP_Eq, "IS NOT": O.OP_Ne}
_NEGATE = {O.OP_Eq: O.OP_Ne, O.OP_Ne: O.OP_Eq, O.OP_Lt: O.OP_Ge, O.OP_Ge: O.OP_Lt,
           O.OP_Gt: O.OP_Le, O.OP_Le: O.OP_Gt}
_AGG_NAMES = frozenset(("count", "sum", "total", "avg", "min", "max", "group_concat",
                        "string_agg"))

INT64_MAX = 9223372036854775807


_AFF_CODE: dict = {}
for _i, _c in enumerate(O.AFF_CHARS):
    _AFF_CODE.setdefault(_c, _i)


def aff_code(aff: str) -> int:
    return _AFF_CODE.get(aff, 0)


def literal_value(v):
    if type(v) is int and (v > INT64_MAX or v < -INT64_MAX - 1):
        return float(v)
    return v


def hex_literal_too_big(p, e, sign=""):
    """SQLite's error for a hex literal of 2**64 or more (the parser keeps its exact value),
    or for -0x8000000000000000 (a negative literal can only be hex), naming the literal as
    written when the statement text at its offset holds it."""
    v = e.value if e.value >= 0 else e.value + (1 << 64)
    return OperationalError(f"hex literal too big: {sign}{_hex_text(p, e) or f'0x{v:x}'}")


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


def is_constant(e) -> bool:
    """True when ``e`` reads no column, parameter-free subquery or non-deterministic function."""
    if isinstance(e, A.Literal):
        return True
    if isinstance(e, A.Unary):
        return is_constant(e.operand)
    if isinstance(e, A.Binary):
        return is_constant(e.left) and is_constant(e.right)
    if isinstance(e, A.Collate):
        return is_constant(e.expr)
    if isinstance(e, A.Cast):
        return is_constant(e.expr)
    return False


def is_aggregate_call(p, e) -> bool:
    if not isinstance(e, A.FunctionCall) or e.over is not None:
        return False
    return p.db.is_aggregate(e.name, len(e.args) if not e.star else 0)


def code_expr_reg(p, scope, e) -> int:
    r = p.b.alloc_reg()
    code_expr(p, scope, e, r)
    return r


def code_column(p, ref, target):
    """Read a resolved column into ``target``."""
    b = p.b
    src = ref.source
    col = ref.col
    ov = ref.scope.overrides
    if ov:
        r = ov.get((src.cursor, col))
        if r is not None:
            b.emit(O.OP_SCopy, r, target)
            return
    if col < 0 or (src.is_table and col == src.ipk):
        b.emit(O.OP_Rowid, src.cursor, target)
        return
    defaults = src.defaults
    field = col
    if src.is_table and src.table.storage is not None:
        field = src.table.storage[col]
        if field < 0:  # a VIRTUAL generated column: computed from the row
            from sqlengine.compiler.generated import code_virtual_column
            code_virtual_column(p, ref, target)
            return
    # the comment (table, column) is joined with a dot only when a listing shows it
    b.emit(O.OP_Column, src.cursor, field, target,
           defaults[col] if defaults is not None else None, 0, (src.name, src.columns[col]))
    if src.is_table and src.affs[col] == O.AFF_REAL:
        b.emit(O.OP_RealAffinity, target)


def code_expr(p, scope, e, target: int) -> None:
    b = p.b
    t = type(e)
    if t is A.Literal:
        if type(e.value) is int and e.value > INT64_MAX + 1:
            raise hex_literal_too_big(p, e)
        p.emit_constant(literal_value(e.value), target)
    elif t is A.Column:
        ref = scope.lookup(e.name, e.table) if scope is not None else None
        if ref is None:
            if p.trigger_ctx is not None and e.table is not None and \
                    e.table.lower() in ("new", "old"):
                code_trigger_ref(p, e, target)
                return
            if e.table is None and scope is not None:
                alias = _find_alias(scope, e.name)
                if alias is not None:
                    code_expr(p, scope, alias, target)
                    return
            if e.quoted and e.table is None:
                p.emit_constant(e.name, target)
                return
            raise no_such_column(e.name, e.table)
        code_column(p, ref, target)
    elif t is ResolvedColumn:
        code_column(p, e.ref, target)
    elif t is A.Param:
        b.emit(O.OP_Variable, p.param_number(e.text, e.pos), target)
    elif t is A.Unary:
        op = e.op
        if op == "-" and isinstance(e.operand, A.Literal) and type(e.operand.value) in (int, float):
            v = e.operand.value
            if type(v) is int and (v > INT64_MAX + 1 or (v == -INT64_MAX - 1
                                                        and _hex_text(p, e.operand))):
                raise hex_literal_too_big(p, e.operand, "-")
            if type(v) is int and v == INT64_MAX + 1:
                p.emit_constant(-v, target)
            else:
                p.emit_constant(literal_value(-literal_value(v)), target)
            return
        r = code_expr_reg(p, scope, e.operand)
        if op == "-":
            # SQLite computes -x as 0 - x (overflow to REAL included)
            z = b.alloc_reg()
            b.emit(O.OP_Integer, 0, z)
            b.emit(O.OP_Subtract, r, z, target)
        elif op == "+":
            b.emit(O.OP_SCopy, r, target)
        elif op == "~":
            b.emit(O.OP_BitNot, r, target)
        else:
            b.emit(O.OP_Not, r, target)
    elif t is A.Binary:
        op = e.op
        if op in _ARITH:
            r1 = code_expr_reg(p, scope, e.left)
            r2 = code_expr_reg(p, scope, e.right)
            b.emit(_ARITH[op], r2, r1, target)
        elif op in _CMP:
            if isinstance(e.left, A.RowValue) or isinstance(e.right, A.RowValue):
                _code_vector_cmp(p, scope, e, target)
                return
            flags = O.CMP_STOREP2 | (O.CMP_NULLEQ if op in ("IS", "IS NOT") else 0)
            _emit_cmp(p, scope, _CMP[op], e.left, e.right, target, flags)
        elif op in ("AND", "OR"):
            r1 = code_expr_reg(p, scope, e.left)
            r2 = code_expr_reg(p, scope, e.right)
            b.emit(O.OP_And if op == "AND" else O.OP_Or, r1, r2, target)
        else:
            raise OperationalError(f"no such function: {op}")
    elif t is A.Collate:
        p.collation(e.collation)
        code_expr(p, scope, e.expr, target)
    elif t is A.Cast:
        code_expr(p, scope, e.expr, target)
        b.emit(O.OP_CastType, target, 0, 0, e.type_name)
    elif t is A.IsNull:
        r = code_expr_reg(p, scope, e.expr)
        b.emit(O.OP_Integer, 1, target)
        lbl = b.new_label()
        b.emit(O.OP_IsNull if not e.negated else O.OP_NotNull, r, lbl)
        b.emit(O.OP_Integer, 0, target)
        b.resolve(lbl)
    elif t is A.Between:
        rx = code_expr_reg(p, scope, e.expr)
        r1 = b.alloc_reg()
        r2 = b.alloc_reg()
        _emit_cmp(p, scope, O.OP_Ge, e.expr, e.low, r1, O.CMP_STOREP2, left_reg=rx)
        _emit_cmp(p, scope, O.OP_Le, e.expr, e.high, r2, O.CMP_STOREP2, left_reg=rx)
        b.emit(O.OP_And, r1, r2, target)
        if e.negated:
            b.emit(O.OP_Not, target, target)
    elif t is A.InList:
        _code_in_list(p, scope, e, target)
    elif t is A.InSelect:
        _code_in_select(p, scope, e, target)
    elif t is A.Case:
        _code_case(p, scope, e, target)
    elif t is A.Like:
        _code_like(p, scope, e, target)
    elif t is A.FunctionCall:
        _code_function(p, scope, e, target)
    elif t is A.Subquery:
        from sqlengine.compiler.select import code_scalar_subquery
        code_scalar_subquery(p, scope, e, target)
    elif t is A.Exists:
        from sqlengine.compiler.select import code_exists
        code_exists(p, scope, e, target)
    elif t is A.CurrentTime:
        f = p.db.find_function(e.kind.lower(), 0)
        b.emit(O.OP_Function, 0, target, target, f, 0)
    elif t is A.Raise:
        _code_raise(p, e)
        b.emit(O.OP_Null, 0, target)
    elif t is A.RowValue:
        raise OperationalError("row value misused")
    elif t is A.InTable:
        from sqlengine.compiler.select import code_in_table
        code_in_table(p, scope, e, target)
    else:
        raise OperationalError(f"unsupported expression: {type(e).__name__}")


def _find_alias(scope, name):
    s = scope
    if s.aliases:
        return s.aliases.get(name.lower())
    return None


def code_trigger_ref(p, e, target):
    """NEW.x / OLD.x inside a trigger body."""
    new_base, old_base, table = p.trigger_ctx
    which = e.table.lower()
    base = new_base if which == "new" else old_base
    if base is None:
        raise OperationalError(f"no such column: {e.table}.{e.name}")
    name = e.name.lower()
    n = table.find_column(e.name) if not getattr(table, "is_view", False) else \
        _view_col(table, e.name)
    if n is None or n < 0:
        if name in ("rowid", "oid", "_rowid_") and not getattr(table, "is_view", False):
            p.b.emit(O.OP_SCopy, base, target)
            return
        raise OperationalError(f"no such column: {e.table}.{e.name}")
    if not getattr(table, "is_view", False) and n == table.ipk:
        p.b.emit(O.OP_SCopy, base, target)
        return
    p.b.emit(O.OP_SCopy, base + 1 + n, target)


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
    if e.action == "IGNORE":
        if p.trigger_ignore is None:
            raise OperationalError("RAISE() may only be used within a trigger-program")
        b.emit(O.OP_Goto, 0, p.trigger_ignore)
        return
    if p.trigger_ctx is None:
        raise OperationalError("RAISE() may only be used within a trigger-program")
    msg = e.message.value if isinstance(e.message, A.Literal) else ""
    action = O.ON_CONFLICT.get(e.action, O.OE_ABORT)
    b.emit(O.OP_Raise, action, 0, 0, str(msg))


def _emit_cmp(p, scope, opcode, left, right, dest, flags, left_reg=None, right_reg=None):
    """Emit one comparison: jump to ``dest`` (a label) or, with CMP_STOREP2, store into it."""
    rl = left_reg if left_reg is not None else code_expr_reg(p, scope, left)
    rr = right_reg if right_reg is not None else code_expr_reg(p, scope, right)
    coll = _NOT_FOUND
    tr = type(right)
    if type(left) is A.Column and (tr is A.Literal or tr is A.Param) and scope is not None:
        # the common "column op constant": the column gives both affinity and collation
        # (a constant has neither), exactly as the general rules below would find
        try:
            ref = scope.lookup(left.name, left.table)
        except OperationalError:
            ref = None
        if ref is not None:
            col = ref.col
            if col < 0:
                aff, coll = comparison_affinity("D", AFF_NONE), None
            else:
                src = ref.source
                aff, coll = comparison_affinity(src.affs[col], AFF_NONE), src.colls[col]
    if coll is _NOT_FOUND:
        aff = comparison_affinity(expr_affinity(left, scope), expr_affinity(right, scope))
        coll = comparison_collation(left, right, scope)
    p.b.emit(opcode, rr, dest, rl, None if coll is None else p.coll_func(coll),
             _AFF_CODE.get(aff, 0) | flags)


_NOT_FOUND = object()


def _code_vector_cmp(p, scope, e, target):
    l, r = e.left, e.right
    if not (isinstance(l, A.RowValue) and isinstance(r, A.RowValue)) or \
            len(l.items) != len(r.items):
        raise OperationalError("row value misused")
    if e.op not in ("=", "!=", "IS", "IS NOT"):
        raise OperationalError("row value misused")
    conj = None
    base = "=" if e.op in ("=", "!=") else "IS"
    for a, c in zip(l.items, r.items):
        term = A.Binary(base, a, c)
        conj = term if conj is None else A.Binary("AND", conj, term)
    if e.op in ("!=", "IS NOT"):
        conj = A.Unary("NOT", conj)
    code_expr(p, scope, conj, target)


def _code_in_list(p, scope, e, target):
    b = p.b
    if not e.items:
        b.emit(O.OP_Integer, 1 if e.negated else 0, target)
        return
    if isinstance(e.expr, A.RowValue):
        raise OperationalError("row value misused")
    rx = code_expr_reg(p, scope, e.expr)
    aff = expr_affinity(e.expr, scope)
    # x IN (list) compares with x's collation; x IN (constant) is x = +constant (parse.y)
    coll_name = comparison_collation(e.expr, e.items[0], scope) \
        if len(e.items) == 1 and is_constant(e.items[0]) else expr_collation(e.expr, scope)
    done = b.new_label()
    found = b.new_label()
    b.emit(O.OP_Null, 0, target)
    # A NULL left operand still evaluates every item (their errors are raised), as SQLite does
    has_null = b.alloc_reg()
    b.emit(O.OP_Integer, 0, has_null)
    for item in e.items:
        ri = code_expr_reg(p, scope, item)
        coll = p.coll_func(coll_name)
        nn = b.new_label()
        b.emit(O.OP_NotNull, ri, nn)
        b.emit(O.OP_Integer, 1, has_null)
        b.resolve(nn)
        b.emit(O.OP_Eq, ri, found, rx, coll, aff_code(aff))
    b.emit(O.OP_IsNull, rx, done)
    b.emit(O.OP_IfPos, has_null, done, 0)
    b.emit(O.OP_Integer, 1 if e.negated else 0, target)
    b.emit(O.OP_Goto, 0, done)
    b.resolve(found)
    b.emit(O.OP_Integer, 0 if e.negated else 1, target)
    b.resolve(done)


def _code_in_select(p, scope, e, target):
    from sqlengine.compiler.select import code_in_subquery
    code_in_subquery(p, scope, e, target)


def _code_case(p, scope, e, target):
    b = p.b
    end = b.new_label()
    r0 = code_expr_reg(p, scope, e.operand) if e.operand is not None else None
    for w, then in e.whens:
        nxt = b.new_label()
        if r0 is not None:
            _emit_cmp(p, scope, O.OP_Ne, e.operand, w, nxt, O.CMP_JUMPIFNULL, left_reg=r0)
        else:
            if_false(p, scope, w, nxt, True)
        code_expr(p, scope, then, target)
        b.emit(O.OP_Goto, 0, end)
        b.resolve(nxt)
    if e.else_ is not None:
        code_expr(p, scope, e.else_, target)
    else:
        b.emit(O.OP_Null, 0, target)
    b.resolve(end)


def _code_like(p, scope, e, target):
    name = e.op.lower()
    args = [e.right, e.left] + ([e.escape] if e.escape is not None else [])
    f = p.db.find_function(name, len(args))
    if f is None:
        raise OperationalError(f"no such function: {e.op}")
    base = p.b.alloc_reg(len(args))
    for i, a in enumerate(args):
        code_expr(p, scope, a, base + i)
    p.b.emit(O.OP_Function, 0, base, target, f, len(args))
    if e.negated:
        p.b.emit(O.OP_Not, target, target)


def _code_function(p, scope, e, target):
    b = p.b
    if scope is not None:
        ov = scope.overrides.get(id(e))
        if ov is not None:
            b.emit(O.OP_SCopy, ov, target)
            return
    nargs = 0 if e.star else len(e.args)
    name = e.name.lower()
    if e.over is not None:
        raise OperationalError("window functions are not supported")
    if p.db.is_aggregate(name, nargs):
        raise OperationalError(f"misuse of aggregate: {e.name}()")
    if e.distinct or e.star:
        raise OperationalError("DISTINCT aggregates must have exactly one argument"
                               if e.distinct else f"wrong number of arguments to function {e.name}()")
    if name == "coalesce" and nargs < 2:
        raise OperationalError(f"wrong number of arguments to function {e.name}()")
    if name in ("coalesce", "ifnull") and nargs >= 2:
        if name == "ifnull" and nargs != 2:
            raise OperationalError(f"wrong number of arguments to function {e.name}()")
        end = b.new_label()
        for i, a in enumerate(e.args):
            code_expr(p, scope, a, target)
            if i < nargs - 1:
                b.emit(O.OP_NotNull, target, end)
        b.resolve(end)
        return
    if name in ("iif", "if") and nargs == 3:
        _code_case(p, scope, A.Case(None, [(e.args[0], e.args[1])], e.args[2]), target)
        return
    if name in ("likely", "unlikely") and nargs == 1:
        code_expr(p, scope, e.args[0], target)
        return
    if name == "likelihood" and nargs == 2:
        code_expr(p, scope, e.args[0], target)
        return
    f = p.db.find_function(name, nargs)
    if f is None:
        if p.db.function_exists(name):
            raise OperationalError(f"wrong number of arguments to function {e.name}()")
        raise OperationalError(f"no such function: {e.name}")
    if getattr(f, "needs_collation", False) and nargs:
        coll = None
        for a in e.args:  # the first argument that carries a collation (BINARY counts)
            has, c = expr_coll_seq(a, scope)
            if has:
                coll = c
                break
        f = f.with_collation(p.coll_func(coll))
    base = b.alloc_reg(max(nargs, 1))
    for i, a in enumerate(e.args):
        code_expr(p, scope, a, base + i)
    b.emit(O.OP_Function, 0, base, target, f, nargs)


# ------------------------------------------------------------------------------------------
# Conditions as jumps
# ------------------------------------------------------------------------------------------

def if_false(p, scope, e, label, jump_if_null: bool) -> None:
    """Jump to ``label`` when ``e`` is false (and when NULL if ``jump_if_null``)."""
    b = p.b
    t = type(e)
    if t is A.Binary:
        op = e.op
        if op == "AND":
            if_false(p, scope, e.left, label, jump_if_null)
            if_false(p, scope, e.right, label, jump_if_null)
            return
        if op == "OR":
            d2 = b.new_label()
            if_true(p, scope, e.left, d2, not jump_if_null)
            if_false(p, scope, e.right, label, jump_if_null)
            b.resolve(d2)
            return
        if op in _CMP and not isinstance(e.left, A.RowValue) and not isinstance(e.right, A.RowValue):
            if op in ("IS", "IS NOT"):
                _emit_cmp(p, scope, _NEGATE[_CMP[op]], e.left, e.right, label, O.CMP_NULLEQ)
            else:
                _emit_cmp(p, scope, _NEGATE[_CMP[op]], e.left, e.right, label,
                          O.CMP_JUMPIFNULL if jump_if_null else 0)
            return
    elif t is A.Unary and e.op == "NOT":
        if_true(p, scope, e.operand, label, jump_if_null)
        return
    elif t is A.IsNull:
        r = code_expr_reg(p, scope, e.expr)
        b.emit(O.OP_NotNull if not e.negated else O.OP_IsNull, r, label)
        return
    elif t is A.Between and not e.negated:
        # x >= lo AND x <= hi, short-circuited as SQLite's jump code does
        rx = code_expr_reg(p, scope, e.expr)
        f = O.CMP_JUMPIFNULL if jump_if_null else 0
        _emit_cmp(p, scope, O.OP_Lt, e.expr, e.low, label, f, left_reg=rx)
        _emit_cmp(p, scope, O.OP_Gt, e.expr, e.high, label, f, left_reg=rx)
        return
    elif t is A.Literal and e.value is not None and type(e.value) is int and \
            e.value <= INT64_MAX:
        if not e.value:
            b.emit(O.OP_Goto, 0, label)
        return
    r = code_expr_reg(p, scope, e)
    b.emit(O.OP_IfNot, r, label, 1 if jump_if_null else 0)


def if_true(p, scope, e, label, jump_if_null: bool) -> None:
    """Jump to ``label`` when ``e`` is true (and when NULL if ``jump_if_null``)."""
    b = p.b
    t = type(e)
    if t is A.Binary:
        op = e.op
        if op == "AND":
            d2 = b.new_label()
            if_false(p, scope, e.left, d2, not jump_if_null)
            if_true(p, scope, e.right, label, jump_if_null)
            b.resolve(d2)
            return
        if op == "OR":
            if_true(p, scope, e.left, label, jump_if_null)
            if_true(p, scope, e.right, label, jump_if_null)
            return
        if op in _CMP and not isinstance(e.left, A.RowValue) and not isinstance(e.right, A.RowValue):
            if op in ("IS", "IS NOT"):
                _emit_cmp(p, scope, _CMP[op], e.left, e.right, label, O.CMP_NULLEQ)
            else:
                _emit_cmp(p, scope, _CMP[op], e.left, e.right, label,
                          O.CMP_JUMPIFNULL if jump_if_null else 0)
            return
    elif t is A.Unary and e.op == "NOT":
        if_false(p, scope, e.operand, label, jump_if_null)
        return
    elif t is A.IsNull:
        r = code_expr_reg(p, scope, e.expr)
        b.emit(O.OP_IsNull if not e.negated else O.OP_NotNull, r, label)
        return
    elif t is A.Between and not e.negated:
        rx = code_expr_reg(p, scope, e.expr)
        d2 = b.new_label()
        f = 0 if jump_if_null else O.CMP_JUMPIFNULL
        _emit_cmp(p, scope, O.OP_Lt, e.expr, e.low, d2, f, left_reg=rx)
        _emit_cmp(p, scope, O.OP_Le, e.expr, e.high, label,
                  O.CMP_JUMPIFNULL if jump_if_null else 0, left_reg=rx)
        b.resolve(d2)
        return
    r = code_expr_reg(p, scope, e)
    b.emit(O.OP_If, r, label, 1 if jump_if_null else 0)


# ------------------------------------------------------------------------------------------
# Walking
# ------------------------------------------------------------------------------------------

class _SelectMark:
    """A subquery to walk once the operands pushed before it are done."""

    __slots__ = ("select",)

    def __init__(self, select):
        self.select = select


_WALK_LEAVES = frozenset((A.Column, A.Literal, A.Param, ResolvedColumn, A.CurrentTime,
                          A.Star))


def walk(e, fn, into_subqueries=False):
    """Call ``fn(node)`` on ``e`` and its sub-expressions (pre-order); ``fn`` returning
    False stops the descent below that node."""
    if e is None:
        return
    stack = [e]
    pop = stack.pop
    push = stack.append
    leaves = _WALK_LEAVES
    while stack:
        e = pop()
        if e is None:  # a missing operand (an absent ELSE, ESCAPE, ...)
            continue
        t = type(e)
        if t is _SelectMark:
            walk_select(e.select, fn)
            continue
        if fn(e) is False or t in leaves:
            continue
        # operands are pushed last-first, so that they are visited first-first
        if t is A.Binary:
            push(e.right)
            push(e.left)
        elif t is A.Unary:
            push(e.operand)
        elif t is A.IsNull or t is A.Collate or t is A.Cast:
            push(e.expr)
        elif t is A.Between:
            push(e.high)
            push(e.low)
            push(e.expr)
        elif t is A.InList:
            for i in reversed(e.items):
                if i is not None:
                    push(i)
            push(e.expr)
        elif t is A.FunctionCall:
            if e.filter is not None:
                push(e.filter)
            for a in reversed(e.args):
                if a is not None:
                    push(a)
        elif t is A.Case:
            if e.else_ is not None:
                push(e.else_)
            for w, th in reversed(e.whens):
                if th is not None:
                    push(th)
                if w is not None:
                    push(w)
            if e.operand is not None:
                push(e.operand)
        elif t is A.Like:
            if e.escape is not None:
                push(e.escape)
            push(e.right)
            push(e.left)
        elif t is A.InSelect:
            if into_subqueries:
                push(_SelectMark(e.select))
            push(e.expr)
        elif t is A.InTable:
            push(e.expr)
        elif t is A.Exists or t is A.Subquery:
            if into_subqueries:
                push(_SelectMark(e.select))
        elif t is A.RowValue:
            for i in reversed(e.items):
                if i is not None:
                    push(i)
        elif t is A.Raise:
            if e.message is not None:
                push(e.message)


def walk_select(sel, fn):
    body = sel.body
    cores = []

    def collect(bd):
        if isinstance(bd, A.Compound):
            collect(bd.left)
            collect(bd.right)
        else:
            cores.append(bd)
    collect(body)
    for c in cores:
        if isinstance(c, A.Values):
            for row in c.rows:
                for x in row:
                    walk(x, fn, True)
            continue
        for rc in c.columns:
            if isinstance(rc, A.ResultColumn):
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
    if isinstance(f, A.Join):
        _walk_from(f.left, fn)
        _walk_from(f.right, fn)
        walk(f.on, fn, True)
    elif isinstance(f, A.SubqueryRef):
        walk_select(f.select, fn)
