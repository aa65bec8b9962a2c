"""Row values (SQLite's vectors) in expressions: ``(a, b)`` and a subquery of several
columns, compared with =, <>, <, <=, >, >=, IS, IS NOT, tested with BETWEEN, used as a
CASE operand or on the left of IN.

A comparison of two vectors follows SQLite's codeVectorCompare: the items are compared
pair by pair, left to right, each pair with its own affinity and collation
(sqlite3BinaryCompareCollSeq of the two items; a subquery's item is its result column),
and the result is known as soon as a pair decides it (the later items of a row value are
then not computed). Equality is false at the first unequal pair, else NULL when a pair
held a NULL, else true; an ordering is decided by the first pair that is not equal. The
vectors must have the same size, else ``row value misused``; an item that is itself a
vector is misused too. A subquery is run once (or per row when correlated) into one
register per column; none of its rows gives NULLs.

``x IN ((1, 2), (3, 4))`` with a row value on the left is ``x IN (VALUES (1, 2), (3,
4))``, as SQLite's parser rewrites it. This module only emits code for those
expressions; every other kind is ``expr.code_expr``'s.
"""

from __future__ import annotations

from sqlengine.compiler.expr import (_emit_cmp, code_expr, code_expr_reg,
                                     is_constant)
from sqlengine.compiler.resolve import ResolvedColumn, has_explicit_collate
from sqlengine.compiler.walk import find_node
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O

_MISUSED = "row value misused"
_OPS = {"=": O.OP_Eq, "!=": O.OP_Ne, "<": O.OP_Lt, "<=": O.OP_Le, ">": O.OP_Gt,
        ">=": O.OP_Ge, "IS": O.OP_Eq, "IS NOT": O.OP_Ne}
_STRICT = {O.OP_Le: O.OP_Lt, O.OP_Ge: O.OP_Gt}


def vector_size(p, scope, e) -> int:
    """sqlite3ExprVectorSize: the items of a row value, the columns of a subquery, else 1."""
    t = type(e)
    if t is A.RowValue:
        return len(e.items)
    if t is A.Subquery:
        n = _select._sub_columns(e.select)
        return n if n >= 0 else len(_select.result_info_only(p, e.select, scope).names)
    return 1


def is_vector(p, scope, e) -> bool:
    t = type(e)
    return (t is A.RowValue or t is A.Subquery) and vector_size(p, scope, e) != 1


class _SubColumn:
    """The ColRef of a subquery's result column seen from the enclosing expression: its
    affinity and collation, for the comparisons of its item."""

    __slots__ = ("aff", "coll", "col")

    def __init__(self, aff, coll, has_coll):
        self.aff = aff
        self.coll = coll
        self.col = 0 if has_coll else -1  # -1: no collation (a literal, an expression)

    def affinity(self):
        return self.aff

    def collation(self):
        return self.coll


class Vector:
    """The items of a vector operand. ``expr(i)`` is what gives item i its affinity and
    collation; ``reg(i)`` the register holding it: a row value's item is computed when it
    is first asked for (SQLite's exprVectorRegister) unless ``precode`` computed them all
    at once (BETWEEN and CASE use the operand more than once); a subquery runs here."""

    def __init__(self, p, scope, e, precode=False):
        self.p = p
        self.scope = scope
        self.regs = None
        if type(e) is A.RowValue:
            self.items = list(e.items)
            if precode:
                self.regs = [self._code_item(x) for x in self.items]
        elif type(e) is A.Subquery:
            self.items, self.regs = _code_subquery_row(p, scope, e)
        else:
            self.items = [e]
            if precode:
                self.regs = [code_expr_reg(p, scope, e)]

    def __len__(self):
        return len(self.items)

    def expr(self, i):
        return self.items[i]

    def reg(self, i):
        if self.regs is not None:
            return self.regs[i]
        return self._code_item(self.items[i])

    def _code_item(self, x):
        if is_vector(self.p, self.scope, x):
            raise OperationalError(_MISUSED)
        return code_expr_reg(self.p, self.scope, x)


def _code_subquery_row(p, scope, e):
    """Run the subquery ``e`` into one register per column (NULLs when it has no row):
    its item expressions (stand-ins carrying each column's affinity and collation) and
    registers."""
    base, info = _select.code_subquery_row(p, scope, e)
    n = len(info.names)
    last = info.rightmost()  # SQLite's x.pSelect: a compound's rightmost SELECT
    exprs = _select.last_result_exprs(e.select) or []
    items = []
    for i in range(n):
        has = last.has_coll is None or last.has_coll[i]
        x = ResolvedColumn(_SubColumn(last.affs[i] or None, last.colls[i], has))
        if i < len(exprs) and has_explicit_collate(exprs[i]):
            x = A.Collate(x, last.colls[i] or "BINARY")
        items.append(x)
    return items, [base + i for i in range(n)]


def check_names(p, scope, *exprs):
    """Raise the error for the first column of ``exprs`` (in their order, outside
    subqueries) that names nothing: SQLite resolves every name before it codes a vector
    comparison, which here computes the items of both sides in turn."""
    for e in exprs:
        bad = find_node(e, lambda x: type(x) is A.Column and not _names_something(
            p, scope, x))
        if bad is not None:
            code_expr(p, scope, bad, p.b.alloc_reg())  # raises its error


def _names_something(p, scope, c):
    if scope is None:
        return c.quoted and c.table is None
    try:
        if scope.lookup(c.name, c.table) is not None:
            return True
    except OperationalError:
        return False
    if c.table is None:
        return c.quoted
    return p.trigger_ctx is not None and c.table.lower() in ("new", "old")


def code_compare(p, scope, e, target) -> bool:
    """Code the comparison ``e`` (a Binary with a comparison operator) into ``target``
    when an operand is a vector; False (nothing emitted) when both are plain values."""
    left, right = e.left, e.right
    n = vector_size(p, scope, left)
    if n != vector_size(p, scope, right):  # found before any name is resolved
        raise OperationalError(_MISUSED)
    if n == 1:
        return False
    lv, rv = vectors(p, scope, left, right)
    compare_vectors(p, e.op, lv, rv, target)
    return True


def vectors(p, scope, *exprs, precode=False):
    """The Vectors of ``exprs``, their names resolved in their order (a subquery's when
    it is compiled here); the first gets ``precode``."""
    out = []
    for e in exprs:
        check_names(p, scope, e)
        out.append(Vector(p, scope, e, precode and not out))
    return out


def compare_vectors(p, op, lv, rv, target):
    """codeVectorCompare of the Vectors ``lv`` and ``rv`` (same size) under ``op``."""
    b = p.b
    opc = _OPS[op]
    flags = O.CMP_STOREP2 | (O.CMP_NULLEQ if op in ("IS", "IS NOT") else 0)
    done = b.new_label()
    n = len(lv)
    b.emit(O.OP_Integer, 1, target)
    if opc in (O.OP_Eq, O.OP_Ne):
        zero = b.new_label()
        tmp = b.alloc_reg()
        for i in range(n):
            nxt = b.new_label()
            _emit_cmp(p, lv.scope, O.OP_Eq, lv.expr(i), rv.expr(i), tmp, flags,
                      lv.reg(i), rv.reg(i))
            b.emit(O.OP_IfNot, tmp, zero, 0)  # unequal: false, whatever follows
            b.emit(O.OP_NotNull, tmp, nxt)
            b.emit(O.OP_Null, 0, target)  # unknown unless a later pair is unequal
            b.resolve(nxt)
        b.emit(O.OP_Goto, 0, done)
        b.resolve(zero)
        b.emit(O.OP_Integer, 0, target)
        b.resolve(done)
        if opc == O.OP_Ne:
            b.emit(O.OP_Not, target, target)
        return
    strict = _STRICT.get(opc, opc)
    lt = b.alloc_reg()
    eq = b.alloc_reg()
    for i in range(n - 1):
        nxt = b.new_label()
        rl, rr = lv.reg(i), rv.reg(i)
        _emit_cmp(p, lv.scope, strict, lv.expr(i), rv.expr(i), lt, flags, rl, rr)
        b.emit(O.OP_If, lt, done, 0)  # decided: true
        _emit_cmp(p, lv.scope, O.OP_Eq, lv.expr(i), rv.expr(i), eq, flags, rl, rr)
        b.emit(O.OP_If, eq, nxt, 0)  # equal: the next pair decides
        b.emit(O.OP_SCopy, lt, target)  # false, or NULL when an item is NULL
        b.emit(O.OP_Goto, 0, done)
        b.resolve(nxt)
    _emit_cmp(p, lv.scope, opc, lv.expr(n - 1), rv.expr(n - 1), target, flags,
              lv.reg(n - 1), rv.reg(n - 1))
    b.resolve(done)


def code_between(p, scope, e, target) -> bool:
    """``x [NOT] BETWEEN lo AND hi`` over vectors: ``x >= lo AND x <= hi`` with x computed
    once (exprCodeBetween); False (nothing emitted) when all three are plain values."""
    if not _between_sizes(p, scope, e):
        return False
    b = p.b
    x, lo, hi = vectors(p, scope, e.expr, e.low, e.high, precode=True)
    r1 = b.alloc_reg()
    r2 = b.alloc_reg()
    compare_vectors(p, ">=", x, lo, r1)
    compare_vectors(p, "<=", x, hi, r2)
    b.emit(O.OP_And, r1, r2, target)
    if e.negated:
        b.emit(O.OP_Not, target, target)
    return True


def jump_between(p, scope, e, label, jump_if_null, when_true):
    """Jump to ``label`` when the vector BETWEEN ``e`` is true (``when_true``) or false
    (and when NULL if ``jump_if_null``), short-circuited as SQLite's exprCodeBetween with
    a jump: ``x <= hi`` is not computed when ``x >= lo`` decides."""
    _between_sizes(p, scope, e)
    b = p.b
    x, lo, hi = vectors(p, scope, e.expr, e.low, e.high, precode=True)
    ge = b.alloc_reg()
    le = b.alloc_reg()
    compare_vectors(p, ">=", x, lo, ge)
    if when_true != e.negated:  # jump when (x >= lo AND x <= hi) is true
        skip = b.new_label()
        b.emit(O.OP_IfNot, ge, skip, 0 if jump_if_null else 1)
        compare_vectors(p, "<=", x, hi, le)
        b.emit(O.OP_If, le, label, 1 if jump_if_null else 0)
        b.resolve(skip)
    else:  # jump when it is false
        b.emit(O.OP_IfNot, ge, label, 1 if jump_if_null else 0)
        compare_vectors(p, "<=", x, hi, le)
        b.emit(O.OP_IfNot, le, label, 1 if jump_if_null else 0)


def _between_sizes(p, scope, e) -> bool:
    """Whether BETWEEN ``e`` is over vectors (their sizes must agree)."""
    n = vector_size(p, scope, e.expr)
    if n != vector_size(p, scope, e.low) or n != vector_size(p, scope, e.high):
        raise OperationalError(_MISUSED)
    return n != 1


def code_case(p, scope, e, target) -> bool:
    """``CASE x WHEN y ...`` with a vector operand: x computed once, compared with each
    WHEN as ``x = y``; False (nothing emitted) when the operand is a plain value."""
    if not is_vector(p, scope, e.operand):
        return False
    check_names(p, scope, e.operand, *[x for w in e.whens for x in w], e.else_)
    b = p.b
    x = Vector(p, scope, e.operand, precode=True)
    end = b.new_label()
    hit = b.alloc_reg()
    for w, then in e.whens:
        nxt = b.new_label()
        if vector_size(p, scope, w) != len(x):
            raise OperationalError(_MISUSED)
        compare_vectors(p, "=", x, Vector(p, scope, w), hit)
        b.emit(O.OP_IfNot, hit, nxt, 1)
        code_expr(p, scope, then, target)
        b.emit(O.OP_Goto, 0, end)
        b.resolve(nxt)
    if e.else_ is not None:
        code_expr(p, scope, e.else_, target)
    else:
        b.emit(O.OP_Null, 0, target)
    b.resolve(end)
    return True


def in_list_as_values(e):
    """``(a, b) IN ((1, 2), (3, 4))`` as ``(a, b) IN (VALUES (1, 2), (3, 4))`` (SQLite's
    parser does it; sqlite3ExprListToValues gives its error for an item of another size)."""
    n = len(e.expr.items)
    rows = []
    for item in e.items:
        m = len(item.items) if type(item) is A.RowValue else 1
        if m != n:
            raise OperationalError(
                f"IN(...) element has {m} term{'s' if m > 1 else ''} - expected {n}")
        rows.append(list(item.items))
    sel = A.Select(A.Values(rows))
    return A.InSelect(e.expr, sel, e.negated)


def check_in_list_lhs(p, scope, e):
    """The error of ``(SELECT a, b) IN (list)``: a single constant item makes it
    ``= +item`` (``row value misused``), else each item is compared as one value."""
    if type(e.expr) is not A.Subquery:
        return
    n = vector_size(p, scope, e.expr)
    if n == 1:
        return
    if len(e.items) == 1 and _constant_item(e.items[0]):
        raise OperationalError(_MISUSED)
    raise OperationalError(f"sub-select returns {n} columns - expected 1")


def _constant_item(x):
    if type(x) is A.RowValue:
        return all(_constant_item(i) for i in x.items)
    return is_constant(x)


# select.py imports this module (through expr.py): bound once this one is complete, and its
# functions read as attributes (an import inside vector_size ran for every subquery operand).
from sqlengine.compiler import select as _select  # noqa: E402
