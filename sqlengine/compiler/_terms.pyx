# cython: language_level=3
"""The compiled core of WHERE-term analysis (``compiler/plan_terms.py`` is the public module
and documents the rules): the walk that computes which FROM items an expression reads
(``Masker.mask``), run for every term and every operand side of a join's WHERE clause, and
the term and operand objects themselves, C structs that the loop builder (``_loops.pyx``)
reads without attribute lookups. It reads the AST and the scope's lookups; it emits no code
and never decides the plan.
"""

from sqlengine.compiler._resolve import ResolvedColumn
from sqlengine.sql import ast as A

cdef object T_Literal = A.Literal
cdef object T_Param = A.Param
cdef object T_Column = A.Column
cdef object T_Binary = A.Binary
cdef object T_Unary = A.Unary
cdef object T_IsNull = A.IsNull
cdef object T_Collate = A.Collate
cdef object T_Cast = A.Cast
cdef object T_Between = A.Between
cdef object T_InList = A.InList
cdef object T_Like = A.Like
cdef object T_FunctionCall = A.FunctionCall
cdef object T_Case = A.Case
cdef object T_RowValue = A.RowValue
cdef object T_CurrentTime = A.CurrentTime
cdef object T_ResolvedColumn = ResolvedColumn


cdef class Operand:
    """One way a term constrains a column: ``column(src) op rhs``. ``lhs`` is the column
    side as the comparison sees it (wrapped in the term's collation for ``=``/``<``...),
    ``prereq`` the mask of the sources ``rhs`` reads."""

    def __init__(self, src, int col, str op, rhs, lhs, unsigned long long prereq,
                 WhereTerm term):
        self.src = src
        self.col = col
        self.op = op
        self.rhs = rhs
        self.lhs = lhs
        self.prereq = prereq
        self.term = term


cdef class WhereTerm:
    """One AND-connected term. ``mask``: the sources it reads; ``pinned``: it must be
    tested at the innermost level; ``operands``: the index-usable comparisons in it;
    ``level``: the loop that tests it (set by ``where.py``)."""

    def __init__(self, expr, unsigned long long mask, bint pinned, bint left_on=False):
        self.expr = expr
        self.mask = mask
        self.pinned = pinned
        self.operands = []
        self.left_on = left_on
        self.level = -1


cpdef bint is_constant(e):
    """Whether ``e`` is a literal, a parameter or a signed literal (a value an index can be
    looked up with value by value: SQLite's OR-to-IN rewrite and its nIn)."""
    t = type(e)
    if t is T_Literal or t is T_Param:
        return True
    return t is T_Unary and (e.op == "-" or e.op == "+") and type(e.operand) is T_Literal


def mask(masker, e, frozenset volatile, object pinned, object outer):
    """``Masker.mask``: the bitmask of the sources of ``masker.scope`` that ``e`` reads, or
    ``pinned`` (also clearing ``masker.complete``) for a term that must be tested where
    every source is open. ``volatile``: lower-case names of non-deterministic functions;
    ``outer``: the memo value of a column of an enclosing scope."""
    scope = masker.scope
    cdef dict bit_of = masker.bit_of
    cdef dict memo = masker.memo
    cols = masker.cols
    m = 0
    cdef list stack = [e]
    while stack:
        x = stack.pop()
        if x is None:
            continue
        t = type(x)
        if t is T_Literal or t is T_Param:
            continue
        if t is T_Column:
            key = (x.name, x.table)
            hit = memo.get(key)
            if hit is None:
                hit = memo[key] = masker._column_mask(x)
            if hit is pinned:
                masker.complete = False
                return pinned
            if hit is not outer:
                m |= hit[0]
                cols.add(hit[1])
        elif t is T_Binary:
            stack.append(x.right)
            stack.append(x.left)
        elif t is T_ResolvedColumn:
            ref = x.ref
            if ref.scope is scope:
                b = bit_of.get(id(ref.source))
                if b is None:
                    masker.complete = False
                    return pinned
                m |= b
                cols.add((id(ref.source), ref.col))
        elif t is T_Unary:
            stack.append(x.operand)
        elif t is T_IsNull or t is T_Collate or t is T_Cast:
            stack.append(x.expr)
        elif t is T_Between:
            stack.append(x.high)
            stack.append(x.low)
            stack.append(x.expr)
        elif t is T_InList:
            stack.extend(x.items)
            stack.append(x.expr)
        elif t is T_Like:
            stack.append(x.escape)
            stack.append(x.right)
            stack.append(x.left)
        elif t is T_FunctionCall:
            if x.name.lower() in volatile:
                masker.complete = False
                return pinned
            stack.extend(x.args)
            stack.append(x.filter)
        elif t is T_Case:
            stack.append(x.operand)
            for w, th in x.whens:
                stack.append(w)
                stack.append(th)
            stack.append(x.else_)
        elif t is T_RowValue:
            stack.extend(x.items)
        elif t is T_CurrentTime:
            continue
        else:  # subqueries, RAISE, anything not known here
            masker.complete = False
            return pinned
    return m
