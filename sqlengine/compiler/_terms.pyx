# cython: language_level=3
"""The compiled core of WHERE-term analysis (``compiler/plan_terms.py`` is the public module
and documents the rules): the ``WhereClause`` of a statement, its terms and their operands
(C structs that the loop builder, ``_loops.pyx``, reads without attribute lookups), and the
walk that computes which FROM items an expression reads (``Masker.mask``), run for every
term and every operand side. It reads the AST and the scope's lookups; it emits no code and
never decides the plan.
"""

cimport cython

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
from sqlengine.compiler._resolve cimport (ColRef, Scope, comparison_collation, lookup_name,
                                          lower_name, slot, slot_offset)
from sqlengine.compiler._resolve import CoalesceRef, ResolvedColumn
from sqlengine.compiler.exprindex import XN_EXPR, indexed_expr_sources
from sqlengine.errors import OperationalError
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
cdef object T_CoalesceRef = CoalesceRef

# fields of the nodes the mask walk reads, without an attribute lookup (slot, _resolve.pxd)
cdef Py_ssize_t F_COL_NAME = slot_offset(A.Column, "name")
cdef Py_ssize_t F_COL_TABLE = slot_offset(A.Column, "table")
cdef Py_ssize_t F_BIN_LEFT = slot_offset(A.Binary, "left")
cdef Py_ssize_t F_BIN_RIGHT = slot_offset(A.Binary, "right")
cdef Py_ssize_t F_BIN_OP = slot_offset(A.Binary, "op")
cdef Py_ssize_t F_UN_OPERAND = slot_offset(A.Unary, "operand")
cdef Py_ssize_t F_ISNULL_EXPR = slot_offset(A.IsNull, "expr")
cdef Py_ssize_t F_COLLATE_EXPR = slot_offset(A.Collate, "expr")
cdef Py_ssize_t F_COLLATE_COLLATION = slot_offset(A.Collate, "collation")
cdef Py_ssize_t F_COLLATE_POS = slot_offset(A.Collate, "pos")
cdef object C_NO_POS = -1
cdef Py_ssize_t F_COLLATE_IMPLICIT = slot_offset(A.Collate, "implicit")
cdef bint FAST_COLLATE = tuple(A.Collate.__slots__) == ("expr", "collation", "pos", "implicit")


cdef extern from "Python.h":
    object PyType_GenericAlloc(PyTypeObject *t, Py_ssize_t n)
cdef Py_ssize_t F_CAST_EXPR = slot_offset(A.Cast, "expr")
cdef Py_ssize_t F_BTW_EXPR = slot_offset(A.Between, "expr")
cdef Py_ssize_t F_BTW_LOW = slot_offset(A.Between, "low")
cdef Py_ssize_t F_BTW_HIGH = slot_offset(A.Between, "high")
cdef Py_ssize_t F_BTW_NEGATED = slot_offset(A.Between, "negated")
cdef Py_ssize_t F_IN_EXPR = slot_offset(A.InList, "expr")
cdef Py_ssize_t F_IN_ITEMS = slot_offset(A.InList, "items")
cdef Py_ssize_t F_IN_NEGATED = slot_offset(A.InList, "negated")
cdef Py_ssize_t F_RC_REF = slot_offset(ResolvedColumn, "ref")

cdef frozenset VOLATILE = frozenset(("random", "randomblob", "changes", "last_insert_rowid",
                                     "total_changes"))
cdef dict FLIP = {"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
PINNED = -1  # mask value of an expression that must be tested where every source is open
cdef object C_PINNED = PINNED
_OUTER = (0, None)  # a Masker memo entry: a column of an enclosing scope (no bit here)
cdef object C_OUTER = _OUTER


@cython.freelist(16)  # (made and freed by the dozen for every statement)
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


cdef inline Operand new_operand(src, int col, str op, rhs, lhs, unsigned long long prereq,
                                WhereTerm term):
    """An Operand as ``Operand(...)`` makes it, without the call's argument parsing."""
    cdef Operand o = Operand.__new__(Operand)
    o.src = src
    o.col = col
    o.op = op
    o.rhs = rhs
    o.lhs = lhs
    o.prereq = prereq
    o.term = term
    return o


cdef inline object new_collate(expr, collation):
    """``A.Collate(expr, collation)`` made without a call of the dataclass's Python
    ``__init__``: allocated (zeroed) and its four slots stored in place, ``pos`` -1,
    ``implicit`` False (when the class's slots are still exactly those four)."""
    if not FAST_COLLATE:
        return T_Collate(expr, collation)
    cdef object c = PyType_GenericAlloc(<PyTypeObject *>T_Collate, 0)
    _store(c, F_COLLATE_EXPR, expr)
    _store(c, F_COLLATE_COLLATION, collation)
    _store(c, F_COLLATE_POS, C_NO_POS)
    _store(c, F_COLLATE_IMPLICIT, False)
    return c


cdef inline void _store(object o, Py_ssize_t off, object v):
    """Store ``v`` in the (unset) slot at ``off`` of the new node ``o``."""
    cdef PyObject **slot_p = <PyObject **>((<char *><PyObject *>o) + off)
    Py_INCREF(v)
    Py_XDECREF(slot_p[0])
    slot_p[0] = <PyObject *>v


@cython.freelist(16)  # (made and freed by the dozen for every statement)
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


cdef inline Py_ssize_t _push(list stack, Py_ssize_t sp, x) except -1:
    """Masker.mask's push of ``x`` on ``stack[:sp]``; the new depth."""
    if sp < len(stack):
        stack[sp] = x
    else:
        stack.append(x)
    return sp + 1


@cython.freelist(4)  # (made and freed for every statement)
cdef class Masker:
    """Computes source masks of expressions of one scope (a source's bit is found by
    identity in the sources as they were when the Masker was made, so the masks do not
    depend on later reordering of ``scope.sources``). ``cols``: (id(source), column) of
    every column read by the masked terms (each at least once); ``complete`` False once a
    walk stopped early (cols may miss some); ``memo``: (name, qualifier) as written ->
    _column_mask's answer (a WHERE names the same columns again and again; the lookup's
    side effects, marking the scopes a correlated reference crosses, are done by the first
    lookup)."""

    # (its fields are declared in _terms.pxd)

    def __init__(self, scope):
        self.init(scope)

    cdef void init(self, scope) except *:
        self.scope = scope
        # (a Scope's field read directly)
        self.sources = tuple((<Scope>scope).sources if type(scope) is Scope else scope.sources)
        self.cols = []
        self.complete = True
        self.memo = {}

    cdef unsigned long long bit(self, src) noexcept:
        """The bit of source ``src`` (that of its last place), 0 for none of this scope:
        a scan by identity of a few sources, no id() number made and hashed."""
        cdef tuple sources = self.sources
        cdef Py_ssize_t i = len(sources) - 1
        while i >= 0:
            if <object>sources[i] is src:
                return 1ULL << i
            i -= 1
        return 0

    cpdef object mask(self, e):
        """The bitmask of the sources of ``scope`` that ``e`` reads, or PINNED (also
        clearing ``complete``) for a term that must be tested where every source is
        open."""
        scope = self.scope
        cdef dict memo = self.memo
        cdef list cols = self.cols
        cdef unsigned long long m = 0, bit
        # the expressions left to walk: stack[:sp] (a list popped in place, so that a
        # pop is no call of list.pop, which the shrinking list made a method call), and
        # ``x`` when ``ahead``: the one to walk first (a Binary's left operand is walked
        # next, not pushed and popped; the order of the walk is the same)
        cdef list stack = []
        cdef Py_ssize_t sp = 0
        cdef bint ahead = True
        cdef tuple th
        cdef ColRef ref
        x = e
        while ahead or sp:
            if ahead:
                ahead = False
            else:
                sp -= 1
                x = stack[sp]
            if x is None:
                continue
            t = type(x)
            if t is T_Literal or t is T_Param:
                continue
            if t is T_Column:
                name = slot(x, F_COL_NAME)
                table = slot(x, F_COL_TABLE)
                key = name if table is None else (name, table)  # (as the Scope's cache)
                hit = memo.get(key)
                if hit is None:
                    hit = memo[key] = self._column_mask(name, table)
                    if hit is not C_PINNED and hit is not C_OUTER:
                        cols.append((<tuple>hit)[1])  # (once: a memo hit is the same)
                if hit is C_PINNED:
                    self.complete = False
                    return C_PINNED
                if hit is not C_OUTER:
                    m |= <unsigned long long>(<tuple>hit)[0]
            elif t is T_Binary:
                sp = _push(stack, sp, slot(x, F_BIN_RIGHT))
                x = slot(x, F_BIN_LEFT)
                ahead = True
            elif t is T_ResolvedColumn:
                ref = <ColRef?>slot(x, F_RC_REF)
                if ref.scope is scope:
                    bit = self.bit(ref.source)
                    if not bit:
                        self.complete = False
                        return C_PINNED
                    m |= bit
                    cols.append((obj_id(ref.source), ref.col))
            elif t is T_Unary:
                sp = _push(stack, sp, slot(x, F_UN_OPERAND))
            elif t is T_IsNull:
                sp = _push(stack, sp, slot(x, F_ISNULL_EXPR))
            elif t is T_Collate:
                sp = _push(stack, sp, slot(x, F_COLLATE_EXPR))
            elif t is T_Cast:
                sp = _push(stack, sp, slot(x, F_CAST_EXPR))
            elif t is T_Between:
                sp = _push(stack, sp, slot(x, F_BTW_HIGH))
                sp = _push(stack, sp, slot(x, F_BTW_LOW))
                sp = _push(stack, sp, slot(x, F_BTW_EXPR))
            elif t is T_InList:
                for y in slot(x, F_IN_ITEMS):
                    sp = _push(stack, sp, y)
                sp = _push(stack, sp, slot(x, F_IN_EXPR))
            elif t is T_Like:
                sp = _push(stack, sp, x.escape)
                sp = _push(stack, sp, x.right)
                sp = _push(stack, sp, x.left)
            elif t is T_FunctionCall:
                if lower_name(x.name) in VOLATILE:
                    self.complete = False
                    return C_PINNED
                for y in x.args:
                    sp = _push(stack, sp, y)
                sp = _push(stack, sp, x.filter)
            elif t is T_Case:
                sp = _push(stack, sp, x.operand)
                for w, th2 in x.whens:
                    sp = _push(stack, sp, w)
                    sp = _push(stack, sp, th2)
                sp = _push(stack, sp, x.else_)
            elif t is T_RowValue:
                for y in x.items:
                    sp = _push(stack, sp, y)
            elif t is T_CurrentTime:
                continue
            else:  # subqueries, RAISE, anything not known here
                self.complete = False
                return C_PINNED
        return m

    cdef object _column_mask(self, name, table):
        """(bit, (id(source), column), its ColRef) of a column name of this scope (the
        ColRef None for a FULL JOIN's USING column), _OUTER for one of an enclosing scope,
        PINNED when it does not resolve here."""
        cdef ColRef ref
        try:
            r = lookup_name(self.scope, name, table)
        except OperationalError:
            return C_PINNED
        if r is None:
            return C_PINNED
        ref = <ColRef?>r
        if ref.depth:
            return C_OUTER
        cdef unsigned long long b
        if type(ref) is T_CoalesceRef:  # a FULL JOIN's USING column reads every side
            b = 0
            for alt in r.alts:
                b |= self.bit((<ColRef?>alt).source)
            first = <ColRef?>r.alts[0]
            return b, (obj_id(first.source), first.col), None
        b = self.bit(ref.source)
        if not b:
            return C_PINNED
        return b, (obj_id(ref.source), ref.col), ref


cpdef object column_ref(scope, e):
    """(source, column number) of this scope that the column expression ``e`` is (the
    column number as ``plan_terms.column_of`` gives it: -1 for the rowid or INTEGER
    PRIMARY KEY of a table), with one lookup; or None."""
    cdef ColRef ref
    t = type(e)
    if t is T_ResolvedColumn:
        ref = <ColRef?>slot(e, F_RC_REF)
        if ref.scope is not scope:
            return None
    elif t is T_Column:
        try:
            r = lookup_name(scope, slot(e, F_COL_NAME), slot(e, F_COL_TABLE))
        except OperationalError:
            return None
        if r is None:
            return None
        ref = <ColRef?>r
        if ref.depth != 0:
            return None
    else:
        return None
    if type(ref) is T_CoalesceRef:  # (a coalesce() is no column of an index)
        return None
    return _ref_column(ref)


cdef inline object _ref_column(ColRef ref):
    """column_ref's answer for the column ``ref`` of its scope."""
    src = ref.source
    if src.is_table and ref.col >= 0 and ref.col == src.ipk:
        return src, -1
    return src, ref.col


@cython.freelist(4)  # (made and freed for every statement)
cdef class WhereClause:
    """The analysed terms of one WHERE (plus the ON terms of LEFT JOINs, by level)."""

    # (its fields are declared in _terms.pxd)

    def __init__(self, scope, exprs, left_on):
        self.init(scope, exprs, left_on)

    cdef void init(self, scope, exprs, left_on) except *:
        self.scope = scope
        cdef Masker masker = Masker.__new__(Masker)
        masker.init(scope)
        self.n = len(masker.sources)
        self.masker = masker
        self.terms = [self.term(e, False) for e in exprs]
        self.on_terms = {}
        if left_on:
            for lvl, on in left_on.items():
                self.on_terms[lvl] = [self.term(e, True) for e in split_and(on, [])]

    cdef object column_of(self, e):
        """``column_ref(self.scope, e)``; a column name the mask walk of a term looked up
        is answered from the Masker's memo (the same lookup: no second one)."""
        if type(e) is T_Column:
            name = slot(e, F_COL_NAME)
            table = slot(e, F_COL_TABLE)
            hit = self.masker.memo.get(name if table is None else (name, table))
            if hit is C_OUTER:  # (a column of an enclosing query)
                return None
            if hit is not None and hit is not C_PINNED:
                ref = (<tuple>hit)[2]
                return None if ref is None else _ref_column(<ColRef>ref)
        return column_ref(self.scope, e)

    cpdef release(self):
        """Drop the terms' operands once the loops are coded: an Operand points back to
        its term, a cycle that reference counting alone would not free."""
        cdef WhereTerm t
        for t in self.terms:
            t.operands = ()
        if self.on_terms:
            for ts in self.on_terms.values():
                for t in ts:
                    t.operands = ()

    cdef WhereTerm term(self, e, bint left_on):
        m = self.masker.mask(e)
        cdef bint pinned = m is C_PINNED
        cdef unsigned long long full = ((1ULL << self.n) - 1) if self.n < 64 else ~0ULL
        cdef WhereTerm t = WhereTerm.__new__(WhereTerm)
        t.expr = e
        t.mask = full if pinned else m
        t.pinned = pinned
        t.operands = []
        t.left_on = left_on
        t.level = -1
        if not pinned and m:
            self.operands(t)
        return t

    cdef void expr_operands(self, WhereTerm t, lhs, rhs, str op) except *:
        """Operands on the index columns that are the expression ``lhs`` (number -2)."""
        scope = self.scope
        cdef Masker masker = self.masker
        for src in indexed_expr_sources(scope, lhs):
            pm = masker.mask(rhs)
            if pm is C_PINNED or <unsigned long long>pm & masker.bit(src):
                continue
            coll = comparison_collation(t.expr.left, t.expr.right, scope)
            t.operands.append(new_operand(src, XN_EXPR, op, rhs, new_collate(lhs, coll), pm, t))

    cdef void operands(self, WhereTerm t) except *:
        """Fill ``t.operands`` with the column comparisons an index could drive."""
        scope = self.scope
        cdef Masker masker = self.masker
        e = t.expr
        ty = type(e)
        cdef bint coll_done
        cdef unsigned long long me
        cdef int k
        cdef list ops = t.operands
        if ty is T_Binary:  # (the fields read from their slots: the type is exact)
            op = slot(e, F_BIN_OP)
            flip = FLIP.get(op)
            if flip is None:
                return
            left = slot(e, F_BIN_LEFT)
            right = slot(e, F_BIN_RIGHT)
            coll = None
            coll_done = False
            for k in range(2):  # column op rhs, then the flipped comparison
                if k == 0:
                    lhs, rhs, o = left, right, op
                else:
                    lhs, rhs, o = right, left, flip
                hit = self.column_of(lhs)
                if hit is None:
                    if type(lhs) is not T_Literal:  # an indexed expression (exprindex.py)
                        self.expr_operands(t, lhs, rhs, o)
                    continue
                src, c = hit
                pm = masker.mask(rhs)
                if pm is C_PINNED or <unsigned long long>pm & masker.bit(src):
                    continue
                if not coll_done:
                    # the comparison's collation comes from its operands in written order;
                    # the column side is handed on under an explicit COLLATE of it
                    coll = comparison_collation(left, right, scope)
                    coll_done = True
                ops.append(new_operand(src, c, o, rhs, new_collate(lhs, coll), pm, t))
        elif ty is T_Between and not slot(e, F_BTW_NEGATED):
            x = slot(e, F_BTW_EXPR)
            hit = self.column_of(x)
            if hit is None:
                return
            src, c = hit
            me = masker.bit(src)
            for k in range(2):
                if k == 0:
                    bound, o = slot(e, F_BTW_LOW), ">="
                else:
                    bound, o = slot(e, F_BTW_HIGH), "<="
                pm = masker.mask(bound)
                if pm is C_PINNED or <unsigned long long>pm & me:
                    continue
                ops.append(new_operand(src, c, o, bound, x, pm, t))
        elif ty is T_InList and not slot(e, F_IN_NEGATED) and slot(e, F_IN_ITEMS):
            x = slot(e, F_IN_EXPR)
            hit = self.column_of(x)
            if hit is None:
                return
            src, c = hit
            pm = 0
            for it in slot(e, F_IN_ITEMS):
                m = masker.mask(it)
                if m is C_PINNED:
                    return
                pm |= m
            if <unsigned long long>pm & masker.bit(src):
                return
            ops.append(new_operand(src, c, "IN", e, x, pm, t))


cdef WhereClause new_where_clause(scope, list exprs, left_on):
    """``WhereClause(scope, exprs, left_on)``, called from C (the WHERE loop coder)
    without the call's argument parsing."""
    cdef WhereClause wc = WhereClause.__new__(WhereClause)
    wc.init(scope, exprs, left_on)
    return wc


cpdef list split_and(e, list out):
    """Append the AND-connected parts of ``e`` to ``out`` (left to right) and return
    ``out``. A term ``(a, b) = (x, y)`` (or IS) of two row values of one size stands for
    ``a = x`` and ``b = y``, which come after every other term, the last such term's
    first (SQLite's exprAnalyze, run over the terms from the last, appends them). The
    WHERE loop coder's split of WHERE and ON (``plan_terms.split_and`` re-exports it)."""
    if e is None:
        return out
    cdef Py_ssize_t start = len(out), i, n
    _split(e, out)
    n = len(out)
    for i in range(start, n):
        if _is_vector_eq(out[i]):
            break
    else:
        return out
    cdef list vectors = [i for i in range(start, n) if _is_vector_eq(out[i])]
    cdef list later = []
    for i in reversed(vectors):
        v = out[i]
        split_and(_and_all([T_Binary(v.op, x, y)
                            for x, y in zip(v.left.items, v.right.items)]), later)
    out[start:] = [x for i, x in enumerate(out[start:], start) if i not in vectors]
    out.extend(later)
    return out


cdef int _split(e, list out) except -1:
    if type(e) is T_Binary and slot(e, F_BIN_OP) == "AND":
        _split(slot(e, F_BIN_LEFT), out)
        _split(slot(e, F_BIN_RIGHT), out)
    else:
        out.append(e)
    return 0


cdef bint _is_vector_eq(e) except -1:
    if type(e) is not T_Binary or type(slot(e, F_BIN_LEFT)) is not T_RowValue:
        return False
    return (type(e.right) is T_RowValue and e.op in ("=", "IS")
            and len(e.left.items) == len(e.right.items))


cdef object _and_all(list terms):
    e = terms[0]
    for x in terms[1:]:
        e = T_Binary("AND", e, x)
    return e
