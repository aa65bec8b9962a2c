"""SQLite's parse-time size limits, checked on the AST the parser built.

- Expression depth (SQLITE_MAX_EXPR_DEPTH, 1000): SQLite gives every expression node the
  height 1 + the height of its tallest operand (a subquery counts the tallest expression
  of its result columns, WHERE, HAVING, GROUP BY, ORDER BY; FROM items and window
  definitions do not count) and refuses a node taller than the limit with
  ``Expression tree is too large (maximum depth 1000)``. A COLLATE node is made without
  measuring its operand (sqlite3ExprAddCollateToken): its height is 1, so a chain of
  COLLATE clauses never grows.
- Terms of a compound SELECT (SQLITE_MAX_COMPOUND_SELECT, 500): ``too many terms in
  compound SELECT``.

Only the measuring lives here; the parser (builder.py) decides when to ask. This module
never reads names and never changes the AST.
"""

from __future__ import annotations

from . import ast as A

MAX_EXPR_DEPTH = 1000
MAX_COMPOUND_SELECT = 500
# Limits checked elsewhere (the parser, the compiler), kept here so that each has one home.
MAX_COLUMN = 2000  # SQLITE_MAX_COLUMN
MAX_VARIABLE_NUMBER = 250000  # SQLITE_MAX_VARIABLE_NUMBER of the stdlib's SQLite
MAX_FUNCTION_ARG = 127  # SQLITE_MAX_FUNCTION_ARG
# Limits the stdlib module reports (getlimit) that nothing here checks.
MAX_SQL_LENGTH = 1_000_000_000  # SQLITE_MAX_SQL_LENGTH
MAX_VDBE_OP = 250_000_000  # SQLITE_MAX_VDBE_OP
MAX_TRIGGER_DEPTH = 1000  # SQLITE_MAX_TRIGGER_DEPTH
MAX_WORKER_THREADS = 0  # SQLITE_DEFAULT_WORKER_THREADS

# A statement shorter than this cannot hold an expression deeper than the limit (each
# level needs an operator and an operand), so its depth is not measured; nor is that of a
# statement of at most MAX_EXPR_DEPTH tokens (the compiled parser counts them: each node
# on a path down the tree stands for a token of its own).
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
    """The values of the fields of ``node``; a list of tuples (``Case.whens``) is given as
    its tuples' items, so that ``_items`` sees every node."""
    out = []
    for f in node.__dataclass_fields__:
        v = getattr(node, f)
        if type(v) is list and v and type(v[0]) is tuple:
            v = [x for item in v for x in item]
        out.append(v)
    return out


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


def expr_too_deep(root, limit: int = MAX_EXPR_DEPTH) -> bool:
    """Whether ``max_expr_height(root) > limit``, found by a depth-first search that stops
    at the first path of more than ``limit`` expression nodes (much cheaper than measuring
    every height). Falls back to ``max_expr_height`` when the tree is deeper than Python's
    recursion allows."""
    try:
        return _deeper(root, 0, limit)
    except RecursionError:
        return max_expr_height(root) > limit


def _deeper(node, depth: int, limit: int) -> bool:
    """Whether a path from ``node`` down its counted children (``_children``) holds more
    than ``limit`` expression nodes, ``depth`` of them being above ``node``. The left
    operands of a chain of binary operators (``a + b + c ...``, left-deep) are followed in
    a loop, so that only right-nested trees, which the parser's stack bounds, recurse."""
    t = type(node)
    while t is A.Binary:
        depth += 1
        if depth > limit or _deeper(node.right, depth, limit):
            return True
        node = node.left
        t = type(node)
    while t is A.Collate:  # height 1 for the nodes above; its operand measured on its own
        if depth + 1 > limit:
            return True
        node = node.expr
        t = type(node)
        depth = 0
    if t in _EXPR_SET:
        depth += 1
        if depth > limit:
            return True
    fields = _TABLES.get(t)
    if fields is None:
        fields = _tables(t)
    counted, others = fields
    for name in counted:
        v = getattr(node, name)
        if v is None:
            continue
        if type(v) is list:
            for x in v:
                if type(x) is tuple:
                    for y in x:
                        if _is_node(y) and _deeper(y, depth, limit):
                            return True
                elif _is_node(x) and _deeper(x, depth, limit):
                    return True
        elif _is_node(v) and _deeper(v, depth, limit):
            return True
    for name in others:
        v = getattr(node, name)
        if v is None:
            continue
        for x in _items(v):
            if _deeper(x, 0, limit):
                return True
    return False


def _is_node(v) -> bool:
    return hasattr(type(v), "__dataclass_fields__")


# Per AST class: (fields whose height counts, fields only visited), as ``_children``.
_TABLES: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}
_SCALAR = frozenset({"str", "str | None", "bool", "bool | None", "int", "object",
                     "list[str]", "list[str] | None"})


def _tables(cls):
    fields = tuple(n for n, f in getattr(cls, "__dataclass_fields__", {}).items()
                   if not (isinstance(f.type, str) and f.type in _SCALAR))
    if cls is A.FunctionCall:
        entry = (("args",), ("filter", "over", "order_by"))
    elif cls in _EXPR_SET or cls in (A.Compound, A.Values, A.OrderingTerm, A.ResultColumn):
        entry = (fields, ())
    elif cls is A.SelectCore:
        entry = (("columns", "where", "having", "group_by"), ("from_", "windows"))
    elif cls is A.Select:
        entry = (("body", "order_by", "limit", "offset"), ("with_",))
    else:
        entry = ((), fields)
    _TABLES[cls] = entry
    return entry


def _children(node):
    """(children whose height counts for ``node``, children only visited)."""
    t = type(node)
    if t is A.Collate:
        return [], [node.expr]
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
