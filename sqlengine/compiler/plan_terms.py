"""The WHERE clause analysed once per statement (SQLite's ``WhereClause``): the terms of the
AND-split WHERE (and ON) expression, each with the bitmask of the FROM items it reads and,
for a comparison of a column with another expression, the operands an index could use.

Masks are plain integers: bit ``i`` stands for ``scope.sources[i]`` in the order the sources
had when the clause was analysed (FROM order). A term that reads a subquery, a
non-deterministic function or a name that does not resolve to a column of this scope is
*pinned*: it is tested in the innermost loop, where every source is positioned. Every
expression is walked once; name lookups go through the scope's cache. This module emits no
code and never decides the plan (``planner.py`` does).
"""

from __future__ import annotations

from sqlengine.compiler._terms import Operand, WhereTerm  # noqa: F401  (C structs; re-exported)
from sqlengine.compiler._terms import is_constant
from sqlengine.compiler._terms import mask as _mask
from sqlengine.compiler.resolve import CoalesceRef, ResolvedColumn, comparison_collation
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A

_VOLATILE = frozenset(("random", "randomblob", "changes", "last_insert_rowid",
                       "total_changes"))
_FLIP = {"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
PINNED = -1  # mask value of an expression that must be tested where every source is open
_OUTER = (0, None)  # a Masker memo entry: a column of an enclosing scope (no bit here)


def split_and(e, out):
    """Append the AND-connected parts of ``e`` to ``out`` (left to right). A term
    ``(a, b) = (x, y)`` (or IS) of two row values of one size stands for ``a = x`` and
    ``b = y``, which come after every other term, the last such term's first (SQLite's
    exprAnalyze, run over the terms from the last, appends them)."""
    if e is None:
        return out
    start = len(out)
    _split(e, out)
    vectors = [i for i in range(start, len(out)) if _is_vector_eq(out[i])]
    if vectors:
        later = []
        for i in reversed(vectors):
            v = out[i]
            split_and(_and_all([A.Binary(v.op, x, y)
                                for x, y in zip(v.left.items, v.right.items)]), later)
        out[start:] = [x for i, x in enumerate(out[start:], start) if i not in vectors]
        out.extend(later)
    return out


def _split(e, out):
    if type(e) is A.Binary and e.op == "AND":
        _split(e.left, out)
        _split(e.right, out)
    else:
        out.append(e)


def _is_vector_eq(e):
    return (type(e) is A.Binary and e.op in ("=", "IS") and type(e.left) is A.RowValue
            and type(e.right) is A.RowValue and len(e.left.items) == len(e.right.items))


def _and_all(terms):
    e = terms[0]
    for x in terms[1:]:
        e = A.Binary("AND", e, x)
    return e


class Masker:
    """Computes source masks of expressions of one scope (a source's bit is looked up by
    identity, so the masks do not depend on later reordering of ``scope.sources``)."""

    __slots__ = ("scope", "bit_of", "cols", "complete", "memo")

    def __init__(self, scope):
        self.scope = scope
        self.bit_of = {id(s): 1 << i for i, s in enumerate(scope.sources)}
        self.cols = set()  # (id(source), column) of every column read by the masked terms
        self.complete = True  # False once a walk stopped early (cols may miss some)
        # (name, qualifier) as written -> _column_mask's answer: a WHERE names the same
        # columns again and again; the lookup's side effects (marking the scopes a
        # correlated reference crosses) are done by the first lookup
        self.memo = {}

    def mask(self, e) -> int:
        """The mask of ``e``, or PINNED (the walk is compiled: ``_terms.mask``)."""
        return _mask(self, e, _VOLATILE, PINNED, _OUTER)

    def _column_mask(self, x):
        """(bit, (id(source), column)) of a column name of this scope, _OUTER for one of an
        enclosing scope, PINNED when it does not resolve here."""
        try:
            ref = self.scope.lookup(x.name, x.table)
        except OperationalError:
            return PINNED
        if ref is None:
            return PINNED
        if ref.depth:
            return _OUTER
        if type(ref) is CoalesceRef:  # a FULL JOIN's USING column reads every side
            b = 0
            for alt in ref.alts:
                b |= self.bit_of.get(id(alt.source), 0)
            return b, (id(ref.alts[0].source), ref.alts[0].col)
        b = self.bit_of.get(id(ref.source))
        if b is None:
            return PINNED
        return b, (id(ref.source), ref.col)


def column_of(scope, e, src):
    """The column number of ``src`` that ``e`` is (-1: the rowid or INTEGER PRIMARY KEY of
    a table), or None. A COLLATE-wrapped column is not a column for an index."""
    t = type(e)
    if t is ResolvedColumn:
        ref = e.ref
    elif t is A.Column:
        try:
            ref = scope.lookup(e.name, e.table)
        except OperationalError:
            return None
        if ref is None or ref.depth != 0:
            return None
    else:
        return None
    if ref.source is not src:
        return None
    if src.is_table and ref.col >= 0 and ref.col == src.ipk:
        return -1
    return ref.col


def _column_ref(scope, e):
    """(source, column number) of this scope that the column expression ``e`` is (the
    column number as ``column_of`` gives it), with one lookup; or None."""
    t = type(e)
    if t is ResolvedColumn:
        ref = e.ref
        if ref.scope is not scope:
            return None
    elif t is A.Column:
        try:
            ref = scope.lookup(e.name, e.table)
        except OperationalError:
            return None
        if ref is None or ref.depth != 0:
            return None
    else:
        return None
    if type(ref) is CoalesceRef:  # (a coalesce() is no column of an index)
        return None
    src = ref.source
    if src.is_table and ref.col >= 0 and ref.col == src.ipk:
        return src, -1
    return src, ref.col


def or_to_in(scope, t):
    """SQLite's OR-to-IN rewrite for the planner: a term ``x = c1 OR x = c2 OR ...`` on one
    column with constants is an operand ``x IN (c1, c2, ...)`` (the term itself is still
    tested in the loop); None for any other OR."""
    stack = [t.expr]
    col = None
    values = []
    while stack:
        e = stack.pop()
        if type(e) is not A.Binary:
            return None
        if e.op == "OR":
            stack.append(e.right)
            stack.append(e.left)
            continue
        if e.op != "=":
            return None
        if is_constant(e.right):
            x, v = e.left, e.right
        elif is_constant(e.left):
            x, v = e.right, e.left
        else:
            return None
        hit = _column_ref(scope, x)
        if hit is None or hit[0].is_table is False:
            return None
        if col is None:
            col, lhs = hit, x
        elif hit != col:
            return None
        values.append(v)
    src, c = col
    return Operand(src, c, "IN", A.InList(lhs, values), lhs, 0, t)


class WhereClause:
    """The analysed terms of one WHERE (plus the ON terms of LEFT JOINs)."""

    __slots__ = ("scope", "masker", "terms", "on_terms", "n")

    def __init__(self, scope, exprs, left_on):
        self.scope = scope
        self.n = len(scope.sources)
        self.masker = Masker(scope)
        self.terms = [self._term(e, False, comparison_collation) for e in exprs]
        self.on_terms = {}
        for lvl, on in left_on.items():
            self.on_terms[lvl] = [self._term(e, True, comparison_collation)
                                  for e in split_and(on, [])]

    def release(self):
        """Drop the terms' operands once the loops are coded: an Operand points back to
        its term, a cycle that reference counting alone would not free."""
        for t in self.terms:
            t.operands = ()
        for ts in self.on_terms.values():
            for t in ts:
                t.operands = ()

    def _term(self, e, left_on, comparison_collation):
        m = self.masker.mask(e)
        pinned = m == PINNED
        t = WhereTerm(e, (1 << self.n) - 1 if pinned else m, pinned, left_on)
        if not pinned and m:
            self._operands(t, comparison_collation)
        return t

    def _expr_operands(self, t, lhs, rhs, op, comparison_collation):
        """Operands on the index columns that are the expression ``lhs`` (number -2)."""
        from sqlengine.compiler.exprindex import XN_EXPR, indexed_expr_sources
        scope = self.scope
        for src in indexed_expr_sources(scope, lhs):
            pm = self.masker.mask(rhs)
            if pm == PINNED or pm & self.masker.bit_of[id(src)]:
                continue
            coll = comparison_collation(t.expr.left, t.expr.right, scope)
            t.operands.append(Operand(src, XN_EXPR, op, rhs, A.Collate(lhs, coll), pm, t))

    def _operands(self, t, comparison_collation):
        """Fill ``t.operands`` with the column comparisons an index could drive."""
        scope = self.scope
        e = t.expr
        ty = type(e)
        if ty is A.Binary:
            if e.op not in _FLIP:
                return
            coll = None
            coll_done = False
            for lhs, rhs, op in ((e.left, e.right, e.op), (e.right, e.left, _FLIP[e.op])):
                hit = _column_ref(scope, lhs)
                if hit is None:
                    if type(lhs) is not A.Literal:  # an indexed expression (exprindex.py)
                        self._expr_operands(t, lhs, rhs, op, comparison_collation)
                    continue
                src, c = hit
                pm = self.masker.mask(rhs)
                if pm == PINNED or pm & self.masker.bit_of[id(src)]:
                    continue
                if not coll_done:
                    # the comparison's collation comes from its operands in written order;
                    # the column side is handed on under an explicit COLLATE of it
                    coll = comparison_collation(e.left, e.right, scope)
                    coll_done = True
                t.operands.append(Operand(src, c, op, rhs, A.Collate(lhs, coll), pm, t))
        elif ty is A.Between and not e.negated:
            hit = _column_ref(scope, e.expr)
            if hit is None:
                return
            src, c = hit
            me = self.masker.bit_of[id(src)]
            for bound, op in ((e.low, ">="), (e.high, "<=")):
                pm = self.masker.mask(bound)
                if pm == PINNED or pm & me:
                    continue
                t.operands.append(Operand(src, c, op, bound, e.expr, pm, t))
        elif ty is A.InList and not e.negated and e.items:
            hit = _column_ref(scope, e.expr)
            if hit is None:
                return
            src, c = hit
            pm = 0
            for it in e.items:
                m = self.masker.mask(it)
                if m == PINNED:
                    return
                pm |= m
            if pm & self.masker.bit_of[id(src)]:
                return
            t.operands.append(Operand(src, c, "IN", e, e.expr, pm, t))
