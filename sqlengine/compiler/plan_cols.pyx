# cython: language_level=3
"""Which columns of each FROM item a SELECT reads (SQLite's ``colUsed``), so that the
planner can tell when an index holds every column needed (a covering index).

The answer may be too large, never too small: a column named anywhere in the statement,
subqueries included, counts as read from every source that has a column of that name
(qualifier permitting). The rowid and the INTEGER PRIMARY KEY are not counted: every index
entry ends with the rowid. ``where.py`` checks the emitted code again before it drops a
table lookup, so an over-estimate only costs a missed optimisation. Emits no code.

Compiled (every statement of the corpus is planned once): the walk reads a node's fields by
the names its class's ``__slots__`` gives, looked up once per class.
"""

from sqlengine.compiler._resolve import ResolvedColumn
from sqlengine.sql import ast as A

cdef frozenset _LEAVES = frozenset((str, int, float, bytes, bool, type(None)))
cdef object T_Column = A.Column
cdef object T_ResolvedColumn = ResolvedColumn
cdef object T_TableRef = A.TableRef
cdef object T_Star = A.Star
cdef dict _fields_of = {}  # node class -> its __slots__ but "pos" (None: it has none)


cdef object _fields(t):
    hit = _fields_of.get(t, False)
    if hit is False:
        slots = getattr(t, "__slots__", None)
        hit = None if slots is None else tuple([n for n in slots if n != "pos"])
        _fields_of[t] = hit
    return hit


def columns_used(scope, core, masker=None):
    """{source index: set of column numbers} for the sources of ``scope``; a source whose
    every column may be read maps to the set of all of them. ``masker``: the WHERE
    clause's Masker; when its walks saw every column of the WHERE terms, the WHERE is not
    walked again."""
    srcs = scope.sources
    cdef dict used = {i: set() for i in range(len(srcs))}
    cdef dict index_of = {id(s): i for i, s in enumerate(srcs)}
    for rc in core.columns:
        if isinstance(rc, T_Star):
            for i, s in enumerate(srcs):
                if rc.table is None or s.name.lower() == rc.table.lower():
                    used[i] = set(range(len(s.columns)))
    where = core.where
    if masker is not None and masker.complete:
        where = None
        for sid, j in masker.cols:
            i = index_of.get(sid)
            if i is not None and j >= 0 and not (srcs[i].is_table and j == srcs[i].ipk):
                used[i].add(j)
    cdef list stack = [core.columns, where, core.group_by, core.having, core.windows,
                       core.from_]
    order_by = getattr(core, "order_by_for_plan", None)
    if order_by is not None:
        stack.append(order_by)
    while stack:
        x = stack.pop()
        t = type(x)
        if t in _LEAVES:
            continue
        if t is T_Column:
            _add_named(srcs, used, x.name.lower(), x.table)
            continue
        if t is T_ResolvedColumn:
            ref = x.ref
            i = index_of.get(id(ref.source))
            if i is not None and ref.col >= 0:
                (<set>used[i]).add(ref.col)
            continue
        if t is list or t is tuple:
            stack.extend(x)
            continue
        if t is T_TableRef or t is T_Star:
            continue
        fields = _fields(t)
        if fields is None:
            d = getattr(x, "__dict__", None)
            if d is None:
                # not an AST node this module knows: assume it reads everything
                return {i: set(range(len(s.columns))) for i, s in enumerate(srcs)}
            stack.extend(d.values())
            continue
        for name in <tuple>fields:
            stack.append(getattr(x, name, None))
    return used


cdef void _add_named(srcs, dict used, lname, table) except *:
    """Count the column ``lname`` (qualified by ``table`` or not) as read from every
    source that has a column of that name (its first, as name lookup finds it)."""
    ltable = table.lower() if table is not None else None
    for i, s in enumerate(srcs):
        j = s.col_lower.get(lname)
        if j is None or (s.is_table and j == s.ipk):
            continue
        if ltable is None or ltable == s.name.lower():
            used[i].add(j)
