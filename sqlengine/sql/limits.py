"""SQLite's parse-time size limits, checked on the AST the parser built.

- Expression depth (SQLITE_MAX_EXPR_DEPTH, 1000): SQLite gives every expression node the
  height 1 + the height of its tallest operand (a subquery counts the tallest expression
  of its result columns, WHERE, HAVING, GROUP BY, ORDER BY; FROM items and window
  definitions do not count) and refuses a node taller than the limit with
  ``Expression tree is too large (maximum depth 1000)``.
- Terms of a compound SELECT (SQLITE_MAX_COMPOUND_SELECT, 500): ``too many terms in
  compound SELECT``.

Only the measuring lives here; the parser (builder.py) decides when to ask. This module
never reads names and never changes the AST.
"""

from __future__ import annotations

from . import ast as A

MAX_EXPR_DEPTH = 1000
MAX_COMPOUND_SELECT = 500

# A statement shorter than this cannot hold an expression deeper than the limit (each
# level needs an operator and an operand), so its depth is not measured.
MIN_TEXT_FOR_DEPTH = 2 * MAX_EXPR_DEPTH - 100

_EXPR = (
    A.Literal, A.CurrentTime, A.Column, A.Param, A.Unary, A.Binary, A.Like, A.Between,
    A.InList, A.InSelect, A.InTable, A.Exists, A.Subquery, A.RowValue, A.IsNull, A.Case,
    A.Cast, A.Collate, A.Raise, A.FunctionCall,
)


def _items(value):
    """The AST nodes in a field value (lists and tuples flattened, one level deep each)."""
    if isinstance(value, (list, tuple)):
        for v in value:
            if isinstance(v, (list, tuple)):
                yield from (x for x in v if hasattr(x, "__dataclass_fields__"))
            elif hasattr(v, "__dataclass_fields__"):
                yield v
    elif value is not None and hasattr(value, "__dataclass_fields__"):
        yield value


def _fields(node):
    return [getattr(node, f) for f in node.__dataclass_fields__]


def max_expr_height(root) -> int:
    """The height of the tallest expression node anywhere under ``root`` (iterative:
    the trees measured here are deeper than Python's recursion limit)."""
    tallest = 0
    heights: dict[int, int] = {}
    stack = [(root, False)]
    while stack:
        node, done = stack.pop()
        counted, others = _children(node)
        if not done:
            stack.append((node, True))
            stack.extend((c, False) for c in counted)
            stack.extend((c, False) for c in others)
            continue
        h = max((heights[id(c)] for c in counted), default=0)
        if type(node) in _EXPR_SET:
            h += 1
            if h > tallest:
                tallest = h
        heights[id(node)] = h
    return tallest


def _children(node):
    """(children whose height counts for ``node``, children only visited)."""
    t = type(node)
    if t is A.FunctionCall:
        return list(_items(node.args)), list(_items([node.filter, node.over, node.order_by]))
    if t in _EXPR_SET or t in (A.Compound, A.Values, A.OrderingTerm, A.ResultColumn):
        return list(_items(_fields(node))), []
    if t is A.SelectCore:
        return (list(_items([node.columns, node.where, node.having, node.group_by])),
                list(_items([node.from_, node.windows])))
    if t is A.Select:
        return (list(_items([node.body, node.order_by, node.limit, node.offset])),
                list(_items(node.with_)))
    return [], list(_items(_fields(node)))


_EXPR_SET = frozenset(_EXPR)


def compound_terms(body) -> tuple[int, bool]:
    """The number of SELECTs SQLite chains for a select body, and whether it skips the
    count (a bare multi-row VALUES). VALUES rows on the left of a compound are chained one
    SELECT per row; on the right, a multi-row VALUES is wrapped into one subquery."""
    n = 0
    while type(body) is A.Compound:
        n += 1
        body = body.left
    if type(body) is A.Values:
        if n == 0:
            return len(body.rows), len(body.rows) > 1
        return n + len(body.rows), False
    return n + 1, False
