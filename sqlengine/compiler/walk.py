"""Generic traversal of the AST (``sql.ast``): which fields of a node hold other nodes, and
small fast walks built on that.

``child_fields(cls)`` gives, once per class, the names of the fields that may hold nodes
(a node, a list of nodes, a list of tuples of nodes: ``Case.whens``, ``SelectCore.windows``),
read from the dataclass annotations; scalar fields (names, flags, positions, a Literal's
value) are left out. Walking with these tables costs one attribute read per child field,
instead of ``dataclasses.fields`` and ``is_dataclass`` on every node. Objects that are not
AST dataclasses (the compiler's ``ResolvedColumn``, strings, numbers) are leaves.

The typed walks the compiler uses per statement (expression coding, aggregate collection)
stay beside their users; this module holds the generic ones (and ``map_children``, the
copy-on-change rebuild of a node's fields) and must never emit code or change a node.
"""

from __future__ import annotations

import dataclasses

from sqlengine.sql import ast as A

# Annotations of fields that never hold a node.
_SCALAR = frozenset({
    "str", "str | None", "bool", "bool | None", "int", "object", "list[str]",
    "list[str] | None",
})

_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}

# Nodes a walk that stays within one SELECT does not enter.
SUBQUERY_NODES = (A.Subquery, A.Exists, A.InSelect, A.Select)


def child_fields(cls) -> tuple[str, ...]:
    """The names of the fields of ``cls`` that may hold AST nodes (empty for a class that
    is not a dataclass)."""
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        if dataclasses.is_dataclass(cls):
            names = tuple(f.name for f in dataclasses.fields(cls)
                          if not (isinstance(f.type, str) and f.type in _SCALAR))
        else:
            names = ()
        _CHILD_FIELDS[cls] = names
    return names


def iter_children(node):
    """The AST nodes directly under ``node``, in field order (lists and the tuples in them
    flattened)."""
    fields = _CHILD_FIELDS.get(type(node))
    if fields is None:
        fields = child_fields(type(node))
    for name in fields:
        v = getattr(node, name)
        if v is None:
            continue
        if type(v) is list:
            for x in v:
                if type(x) is tuple:
                    for y in x:
                        if _is_node(y):
                            yield y
                elif _is_node(x):
                    yield x
        elif _is_node(v):
            yield v


_ALL_FIELDS: dict[type, tuple[str, ...]] = {}


def map_children(node, f):
    """``node`` with ``f`` applied to each node in its fields (through lists and tuples),
    rebuilt by ``dataclasses.replace`` only where ``f`` returned another object: ``node``
    itself when nothing changed. Every field is looked at (not only ``child_fields``), and
    no node is changed. A value that is not an AST node comes back as it is."""
    if not _is_node(node):
        return node
    names = _ALL_FIELDS.get(type(node))
    if names is None:
        names = _ALL_FIELDS[type(node)] = tuple(x.name for x in dataclasses.fields(node))
    changes = {}
    for name in names:
        v = getattr(node, name)
        w = map_value(v, f)
        if w is not v:
            changes[name] = w
    return dataclasses.replace(node, **changes) if changes else node


def map_value(v, f):
    """``f`` applied to ``v`` when it is a node, to the items of a list or tuple (rebuilt
    only when one of them changed), else ``v``."""
    t = type(v)
    if t is list or t is tuple:
        out = [map_value(x, f) for x in v]
        if all(a is b for a, b in zip(out, v)):
            return v
        return out if t is list else tuple(out)
    return f(v) if _is_node(v) else v


def _is_node(v) -> bool:
    return hasattr(type(v), "__dataclass_fields__")


def compound_cores(body) -> list:
    """The cores of a SELECT body (a SelectCore or a chain of Compounds), the last arm
    first (the one SQLite's ExprAffinity and column names read)."""
    out = []
    while type(body) is A.Compound:
        out.append(body.right)
        body = body.left
    out.append(body)
    return out


def find_node(e, pred, stop=SUBQUERY_NODES):
    """The first node under ``e`` (pre-order, ``e`` included) for which ``pred`` is true,
    not entering nodes of the types ``stop`` (by default subqueries) nor the inside of a
    node ``pred`` accepts; None when there is none."""
    if e is None or isinstance(e, stop):
        return None
    if pred(e):
        return e
    for c in iter_children(e):
        r = find_node(c, pred, stop)
        if r is not None:
            return r
    return None


def _no_operands(e):
    return ()


def _case_operands(e):
    out = [e.operand] if e.operand is not None else []
    for w, th in e.whens:
        out.append(w)
        out.append(th)
    if e.else_ is not None:
        out.append(e.else_)
    return out


# The operands of each kind of expression node, in source order, as ``expr.walk`` visits
# them: subqueries' SELECTs, window definitions and an aggregate's ORDER BY are not
# operands; None stands for nothing (an absent ESCAPE or FILTER).
OPERANDS = {
    A.Literal: _no_operands,
    A.Column: _no_operands,
    A.Param: _no_operands,
    A.CurrentTime: _no_operands,
    A.Star: _no_operands,
    A.Unary: lambda e: (e.operand,),
    A.Binary: lambda e: (e.left, e.right),
    A.Like: lambda e: (e.left, e.right, e.escape),
    A.Between: lambda e: (e.expr, e.low, e.high),
    A.InList: lambda e: [e.expr, *e.items],
    A.InSelect: lambda e: (e.expr,),
    A.InTable: lambda e: (e.expr,),
    A.Exists: _no_operands,
    A.Subquery: _no_operands,
    A.RowValue: lambda e: e.items,
    A.IsNull: lambda e: (e.expr,),
    A.Collate: lambda e: (e.expr,),
    A.Cast: lambda e: (e.expr,),
    A.Case: _case_operands,
    A.FunctionCall: lambda e: [*e.args, e.filter] if e.filter is not None else e.args,
    A.Raise: lambda e: (e.message,),
}


def operands(e):
    """The operand expressions of ``e`` (see OPERANDS); none for a node of another kind
    (the compiler's ResolvedColumn)."""
    f = OPERANDS.get(type(e))
    return f(e) if f is not None else ()


_KEY_FIELDS: dict[type, tuple[str, ...]] = {}
_NO_KEY = (A.Subquery, A.Exists, A.InSelect, A.InTable, A.Select, A.WindowDef)


class _NoKey(Exception):
    pass


def expr_key(e, column_key):
    """A hashable key that two expressions SQLite's sqlite3ExprCompare finds the same
    share: positions left out, function names case-folded, a literal by its type and value
    (1, 1.0 and '1' differ), a column by ``column_key(node)`` (None: not a column). None
    when ``e`` holds a subquery or a window, or nests deeper than the stack (no key)."""
    try:
        return _key(e, column_key)
    except (_NoKey, RecursionError):
        return None


def _key(e, column_key):
    if e is None or type(e) in (str, int, float, bool, bytes):
        return e
    if type(e) is list or type(e) is tuple:
        return tuple([_key(x, column_key) for x in e])
    t = type(e)
    if t is A.Literal:
        return (t, type(e.value), e.value)
    k = column_key(e)
    if k is not None:
        return k
    if isinstance(e, _NO_KEY) or not _is_node(e):
        raise _NoKey
    names = _KEY_FIELDS.get(t)
    if names is None:
        names = _KEY_FIELDS[t] = tuple(f.name for f in dataclasses.fields(t) if f.name != "pos")
    out = [t]
    for name in names:
        v = getattr(e, name)
        tv = type(v)
        # (a scalar field is its own key: kept here, without a call of _key for it)
        if v is None or tv is bool or tv is int or tv is float or tv is bytes:
            out.append(v)
        elif tv is str:
            out.append(v.lower() if t is A.FunctionCall and name == "name" else v)
        else:
            out.append(_key(v, column_key))
    return tuple(out)


# Precompute the tables of every AST class at import (they are read on every walk).
for _cls in vars(A).values():
    if isinstance(_cls, type) and dataclasses.is_dataclass(_cls):
        child_fields(_cls)
del _cls
