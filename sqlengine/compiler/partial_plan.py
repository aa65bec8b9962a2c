"""Which partial indexes (CREATE INDEX ... WHERE) a query may read, as SQLite's
whereUsablePartialIndex decides it: the index holds only the rows its WHERE accepts, so a
loop may read it only when the query's terms imply that WHERE. Each AND part of the
index's WHERE must be implied by one term of the query (sqlite3ExprImpliesExpr):

* the term is the part itself (the same tree, its columns those of the table read, a
  COLLATE where the part has one, literals of the same value; a ``?`` never matches);
* the part is an OR, one of whose sides the term implies;
* the part is ``x IS NOT NULL`` and the term cannot be true while ``x`` is NULL: ``x``
  itself, a comparison or arithmetic reaching ``x`` (exprImpliesNotNull's walk).

The terms that count are the WHERE's for a table outside an outer join, only its own ON
terms for the right table of a LEFT (or RIGHT) JOIN, none for a table left of a RIGHT
JOIN. A ``lo <= x`` comparison whose left side is no column is read as SQLite stores it,
turned round (EP_Commuted), so it is the same as no written part; a BETWEEN also stands
for its two comparisons ``x >= lo`` and ``x <= hi``, an OR of equalities of one column
for its ``x IN (...)``.

It also gives the run cost SQLite adds for the table rows a full scan of a partial index
looks up (whereLoopAddBtree's nLookup). The loop builder (``_loops.pyx``) calls it only
for a table that has a partial index; it emits no code.
"""

from __future__ import annotations

import dataclasses
import re

from sqlengine.compiler._resolve import ResolvedColumn, comparison_collation, expr_affinity
from sqlengine.compiler._terms import column_ref, split_and
from sqlengine.sql import ast as A
from sqlengine.vdbe.opcodes import AFF_NONE, AFF_TEXT

_ROWID_NAMES = ("rowid", "oid", "_rowid_")
# the comparisons SQLite's WHERE analysis turns round (exprCommute), and their turned op
_TURNED = {"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<=", "IS": "IS"}
# exprImpliesNotNull: the operators after which only a non-NULL operand can give a true
# result, and those that pass the question on unchanged
_NOT_OPS = frozenset(("=", "==", "!=", "<>", "<", "<=", ">", ">=", "+", "-", "|", "<<", ">>",
                      "||"))
_PASS_OPS = frozenset(("*", "/", "%", "&"))


def index_parts(ix):
    """The AND parts of a partial index's WHERE (a tuple), or None for a full index."""
    if ix.where is None:
        return None
    return tuple(split_and(ix.where, []))


def usable(scope, src, terms, parts) -> bool:
    """Whether the query terms ``terms`` (WhereTerms) imply every part of a partial
    index's WHERE (``index_parts``) on the source ``src`` of ``scope``."""
    if src.ltorj:  # (SQLite: never a partial index left of a RIGHT JOIN)
        return False
    exprs = []
    for t in terms:
        exprs.extend(_stored_forms(scope, t.expr))
        if type(t.expr) is A.Binary and t.expr.op == "OR":
            x = _or_column(scope, src, t.expr)  # (the OR's virtual ``x IN (...)``)
            if x is not None:
                exprs.append((A.InList(x, []), False))
    m = _Matcher(scope, src)
    for part in parts:
        if not any(m.implies(e, commuted, part) for e, commuted in exprs):
            return False
    return True


def _stored_forms(scope, e):
    """[(expression, marked)]: a term as SQLite's WHERE analysis keeps it, with the
    comparisons it adds: ``lo < x`` (no column on the left) is kept turned round as
    ``x > lo``; ``x < y`` (columns on both sides) gains ``y > x``; a BETWEEN gains its two
    comparisons. ``marked``: the turned comparison has another collation than the
    written one (EP_Commuted), so that it equals no written expression."""
    if type(e) is A.Between and not e.negated:
        out = [(e, False)]
        for op, bound in ((">=", e.low), ("<=", e.high)):
            out.extend(_stored_forms(scope, A.Binary(op, e.expr, bound)))
        return out
    if type(e) is A.Binary and e.op == "OR":
        # (the WHERE analysis of an OR turns round each comparison among its branches)
        turned, marked = _turned_or(scope, e)
        return [(turned, marked)]
    if type(e) is A.Like:
        bound = _like_bound(scope, e)
        return [(e, False)] if bound is None else [(e, False), (bound, False)]
    if type(e) is not A.Binary or e.op not in _TURNED or not _is_column(_bare(e.right)):
        return [(e, False)]
    turned = A.Binary(_TURNED[e.op], e.right, e.left)
    marked = _coll(comparison_collation(e.left, e.right, scope)) != \
        _coll(comparison_collation(e.right, e.left, scope))
    if _is_column(_bare(e.left)):
        return [(e, False), (turned, marked)]
    return [(turned, marked)]


_NUMBER = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*\Z")


def _like_bound(scope, e):
    """The lower bound ``x >= prefix`` SQLite's LIKE optimization adds for ``x LIKE
    'prefix%'`` or ``x GLOB 'prefix*'`` (isLikeOrGlob), or None."""
    if e.negated or e.op not in ("LIKE", "GLOB") or type(e.right) is not A.Literal:
        return None
    z = e.right.value
    if type(z) is not str:
        return None
    wild = "%_" if e.op == "LIKE" else "*?["
    esc = None
    if e.escape is not None:
        if e.op != "LIKE" or type(e.escape) is not A.Literal:
            return None
        esc = e.escape.value
        if type(esc) is not str or len(esc) != 1 or esc in wild:
            return None
    prefix = []
    k = 0
    while k < len(z) and z[k] not in wild:
        if z[k] == esc and k + 1 < len(z):
            k += 1
        prefix.append(z[k])
        k += 1
    if not prefix or k == 1 and z[0] == esc:
        return None
    text = "".join(prefix)
    if not (_is_column(_bare(e.left)) and expr_affinity(e.left, scope) == AFF_TEXT):
        # (the prefix bounds must not read as numbers)
        if text == "-" or _NUMBER.match(text) or \
                _NUMBER.match(text[:-1] + chr(ord(text[-1]) + 1)):
            return None
    coll = "NOCASE" if e.op == "LIKE" else "BINARY"
    return A.Binary(">=", A.Collate(e.left, coll), A.Literal(text))


def _or_column(scope, src, e):
    """The column of ``src`` that every branch of the OR ``e`` compares ``=`` with a value
    of the same affinity or none (SQLite's OR-to-IN rewrite), or None."""
    branches = []
    stack = [e]
    while stack:
        x = stack.pop()
        if type(x) is A.Binary and x.op == "OR":
            stack.append(x.left)
            stack.append(x.right)
        elif type(x) is A.Binary and x.op == "=":
            branches.append(x)
        else:
            return None
    found = None
    for cand in (branches[0].left, branches[0].right):
        hit = column_ref(scope, cand) if _is_column(cand) else None
        if hit is None or hit[0] is not src:
            continue
        aff = expr_affinity(cand, scope)
        for b in branches:
            for col, other in ((b.left, b.right), (b.right, b.left)):
                if _is_column(col) and column_ref(scope, col) == hit:
                    oa = expr_affinity(other, scope)
                    if oa == AFF_NONE or oa == aff:
                        break
            else:
                break
        else:
            found = cand
            break
    return found


def _coll(c):
    return (c or "BINARY").upper()


def _turned_or(scope, e):
    """(the OR ``e`` with every comparison among its OR-connected branches stored as
    _stored_forms stores one, whether one of them is marked)."""
    if type(e) is A.Binary and e.op == "OR":
        left, m1 = _turned_or(scope, e.left)
        right, m2 = _turned_or(scope, e.right)
        if left is e.left and right is e.right:
            return e, m1 or m2
        return A.Binary("OR", left, right), m1 or m2
    if type(e) is A.Binary and e.op in _TURNED and not _is_column(_bare(e.left)) \
            and _is_column(_bare(e.right)):
        return _stored_forms(scope, e)[0]
    return e, False


def _bare(e):
    while type(e) is A.Collate:
        e = e.expr
    return e


def _is_column(e) -> bool:
    return type(e) in (A.Column, ResolvedColumn)


class _Matcher:
    """sqlite3ExprCompare and its implication walks for one source of one scope."""

    def __init__(self, scope, src):
        self.scope = scope
        self.src = src
        self.table = src.table

    def implies(self, e, commuted, part) -> bool:
        if not commuted and self.same(e, part):
            return True
        if type(part) is A.Binary and part.op == "OR":
            return self.implies(e, commuted, part.left) or \
                self.implies(e, commuted, part.right)
        nt = _null_test(part)
        if nt is not None and nt[1]:
            return self.not_null(e, nt[0], False)
        return False

    def not_null(self, p, x, seen_not) -> bool:
        """Whether ``p`` true means ``x`` is not NULL (``seen_not``: ``p`` must be able
        to take any non-NULL value)."""
        if self.same(p, x):
            return not (type(x) is A.Literal and x.value is None)
        tp = type(p)
        if tp is A.Binary:
            op = p.op
            if op in _NOT_OPS:
                seen_not = True
            elif op not in _PASS_OPS:
                return False
            return self.not_null(p.right, x, seen_not) or self.not_null(p.left, x, seen_not)
        if tp is A.Collate:
            return self.not_null(p.expr, x, seen_not)
        if tp is A.Unary:
            if p.op in ("+", "-"):
                return self.not_null(p.operand, x, seen_not)
            if p.op in ("NOT", "~"):
                return self.not_null(p.operand, x, True)
            return False
        if tp is A.InList:
            return self.not_null(p.expr, x, True)
        if tp is A.InSelect:
            if seen_not or p.negated:
                return False
            return self.not_null(p.expr, x, True)
        if tp is A.Case and p.truth is not None:  # x IS TRUE, x IS FALSE
            if seen_not or p.truth[0] != "IS":
                return False
            return self.not_null(p.truth[1], x, True)
        if tp is A.Between:
            if seen_not or p.negated:
                return False
            return (self.not_null(p.low, x, True) or self.not_null(p.high, x, True)
                    or self.not_null(p.expr, x, True))
        return False

    def index_column(self, x):
        """The column number (-1 the rowid) a column of the index's WHERE names."""
        table = self.table
        c = table.find_column(x.name)
        if c < 0:
            return -1 if x.name.lower() in _ROWID_NAMES else None
        return -1 if c == table.ipk else c

    def same(self, q, x) -> bool:
        """sqlite3ExprCompare(q, x) == 0: the query expression ``q`` is the index's
        expression ``x``."""
        tq = type(q)
        if tq is A.Column or tq is ResolvedColumn:
            if type(x) is not A.Column:
                return False
            hit = column_ref(self.scope, q)
            if hit is None or hit[0] is not self.src:
                return False
            c = self.index_column(x)
            return c is not None and hit[1] == c
        nq = _null_test(q)
        if nq is not None:
            nx = _null_test(x)
            return nx is not None and nq[1] == nx[1] and self.same(nq[0], nx[0])
        if tq is not type(x):
            return False
        if tq is A.Literal:
            a, b = q.value, x.value
            return type(a) is type(b) and a == b
        if tq is A.Param or tq is A.Raise:
            return False
        if tq is A.Collate:
            return q.collation.lower() == x.collation.lower() and self.same(q.expr, x.expr)
        if tq is A.FunctionCall:
            if q.name.lower() != x.name.lower() or q.over is not None or x.over is not None:
                return False
        if not dataclasses.is_dataclass(q):
            return q == x
        for f in dataclasses.fields(q):
            if f.name == "pos" or not f.compare or f.name == "name" and tq is A.FunctionCall:
                continue
            if not self.same_value(getattr(q, f.name), getattr(x, f.name)):
                return False
        return True

    def same_value(self, a, b) -> bool:
        if isinstance(a, (list, tuple)):
            if not isinstance(b, (list, tuple)) or len(a) != len(b):
                return False
            return all(self.same_value(u, v) for u, v in zip(a, b))
        if dataclasses.is_dataclass(a) or type(a) is ResolvedColumn:
            return b is not None and self.same(a, b)
        if type(a) is str and type(b) is str:
            return a == b
        return a == b


def _null_test(e):
    """(x, negated) of ``x IS [NOT] NULL`` in any spelling (SQLite's TK_ISNULL and
    TK_NOTNULL), else None."""
    te = type(e)
    if te is A.IsNull:
        return e.expr, e.negated
    if te is A.Binary and e.op in ("IS", "IS NOT") and type(e.right) is A.Literal \
            and e.right.value is None:
        return e.left, e.op == "IS NOT"
    return None


def lookup_cost(scope, src, wc, ix, n_rows) -> int:
    """whereLoopAddBtree's nLookup for a full scan of ``ix`` that reads the table: the
    index's rows (LogEst ``n_rows``) plus 16, less one for each WHERE term, from the
    first, that the index's columns can test (less 20 for an equality), up to the first
    that reads a column it lacks."""
    cols = set(ix.columns)
    ipk = src.table.ipk
    n = n_rows + 16
    terms = list(wc.terms)
    for level in sorted(wc.on_terms):
        terms.extend(wc.on_terms[level])
    for t in terms:
        if not _covered(scope, src, t.expr, cols, ipk):
            break
        n -= 1
        if _is_equality(t):
            n -= 19
    return n


def _is_equality(t) -> bool:
    for o in t.operands:
        if o.op == "=":
            return True
    e = t.expr
    return type(e) is A.Binary and e.op == "IS" and (
        _is_column(_bare(e.left)) or _is_column(_bare(e.right)))


def _covered(scope, src, e, cols, ipk) -> bool:
    """Whether every column of ``src`` that ``e`` reads is in ``cols`` (or the rowid)."""
    te = type(e)
    if te is A.Column or te is ResolvedColumn:
        hit = column_ref(scope, e)
        if hit is None or hit[0] is not src:
            return True
        c = hit[1]
        return c < 0 or c == ipk or c in cols
    if isinstance(e, (list, tuple)):
        return all(_covered(scope, src, x, cols, ipk) for x in e)
    if not dataclasses.is_dataclass(e) or isinstance(e, (A.Select, A.SelectCore)):
        return True
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if v is not None and not isinstance(v, (str, int, float, bytes, bool)):
            if not _covered(scope, src, v, cols, ipk):
                return False
    return True
