# cython: language_level=3
"""Which columns of each FROM item a SELECT reads (SQLite's ``colUsed``), so that the
planner can tell when an index holds every column needed (a covering index).

The answer may be too large, never too small: a column named anywhere in the statement,
subqueries included, counts as read from every source that has a column of that name
(qualifier permitting). The rowid and the INTEGER PRIMARY KEY are not counted: every index
entry ends with the rowid. ``where.py`` checks the emitted code again before it drops a
table lookup, so an over-estimate only costs a missed optimisation. Emits no code.

Compiled (every statement of the corpus is planned once): the walk reads a node's fields
at the offsets of the slots its class's ``__slots__`` names (found once per class), and
asks the sources about a column name once per name written.
"""

from cpython.object cimport PyObject

from sqlengine.compiler._resolve cimport ColRef, Source, slot, slot_offset
from sqlengine.compiler._resolve import ResolvedColumn
from sqlengine.sql import ast as A

cdef object T_Column = A.Column
cdef object T_Literal = A.Literal
cdef object T_Binary = A.Binary
cdef object T_ResolvedColumn = ResolvedColumn
cdef object T_TableRef = A.TableRef
cdef object T_Star = A.Star
cdef Py_ssize_t F_COL_NAME = slot_offset(A.Column, "name")
cdef Py_ssize_t F_COL_TABLE = slot_offset(A.Column, "table")
cdef Py_ssize_t F_BIN_LEFT = slot_offset(A.Binary, "left")
cdef Py_ssize_t F_BIN_RIGHT = slot_offset(A.Binary, "right")
cdef Py_ssize_t F_RC_REF = slot_offset(ResolvedColumn, "ref")
# node class -> the offsets of its fields but "pos" (a tuple of ints), or the field names
# (a list) when one of them is no plain slot, or None when the class has no __slots__
cdef dict _fields_of = {}
cdef dict _LOWER = {}  # a column name as written -> lower case (few distinct names)


cdef object _fields(t):
    hit = _fields_of.get(t, False)
    if hit is False:
        hit = _fields_of[t] = _class_fields(t)
    return hit


cdef object _class_fields(t):
    """_fields's answer for a class not seen before (apart: its generator expression
    would make every _fields call allocate a closure)."""
    slots = getattr(t, "__slots__", None)
    if slots is None:
        hit = None
    else:
        names = [n for n in ((slots,) if type(slots) is str else slots) if n != "pos"]
        offsets = []
        for n in names:
            owner = next((k for k in t.__mro__ if n in k.__dict__), None)
            try:
                offsets.append(slot_offset(owner, n))
            except (TypeError, KeyError, AttributeError):
                offsets = None
                break
        hit = names if offsets is None else tuple(offsets)
    return hit


cdef inline object _field(object o, Py_ssize_t off):
    """The slot at ``off`` of ``o`` (None when unset, as getattr(o, name, None))."""
    cdef PyObject *v = (<PyObject **>((<char *><PyObject *>o) + off))[0]
    return None if v is NULL else <object>v


cpdef dict columns_used(scope, core, masker=None):
    """{source index: set of column numbers} for the sources of ``scope``; a source whose
    every column may be read maps to the set of all of them. ``masker``: the WHERE
    clause's Masker; when its walks saw every column of the WHERE terms, the WHERE is not
    walked again."""
    cdef list srcs = scope.sources
    cdef Py_ssize_t n = len(srcs)
    cdef dict used = {i: set() for i in range(n)}
    cdef dict index_of = {id(s): i for i, s in enumerate(srcs)}
    cdef Source s
    cdef ColRef ref
    cdef Py_ssize_t i, off
    for rc in core.columns:
        if isinstance(rc, T_Star):
            for i in range(n):
                s = <Source?>srcs[i]
                if rc.table is None or s.name.lower() == rc.table.lower():
                    used[i] = set(range(len(s.columns)))
    where = core.where
    if masker is not None and masker.complete:
        where = None
        for sid, j in masker.cols:
            hit = index_of.get(sid)
            if hit is not None:
                s = <Source?>srcs[<Py_ssize_t>hit]
                if j >= 0 and not (s.is_table and j == s.ipk):
                    (<set>used[hit]).add(j)
    cdef dict named = {}  # (name, qualifier) as written -> ((source index, column), ...)
    cdef list stack = [core.columns, where, core.group_by, core.having, core.windows,
                       core.from_]
    order_by = getattr(core, "order_by_for_plan", None)
    if order_by is not None:
        stack.append(order_by)
    cdef Py_ssize_t k = 0
    while k < len(stack):  # (a walk in any order: an index runs over the growing list)
        x = stack[k]
        k += 1
        if x is None:
            continue
        t = type(x)
        if t is str or t is int or t is float or t is bool or t is bytes or t is T_Literal:
            continue
        if t is T_Binary:  # (the commonest node: its two operands, not its operator)
            stack.append(slot(x, F_BIN_LEFT))
            stack.append(slot(x, F_BIN_RIGHT))
            continue
        if t is T_Column:
            name = slot(x, F_COL_NAME)
            table = slot(x, F_COL_TABLE)
            key = (name, table)
            cols = named.get(key)
            if cols is None:
                lname = _LOWER.get(name)
                if lname is None:
                    lname = name.lower()
                    if len(_LOWER) < 4096:
                        _LOWER[name] = lname
                cols = named[key] = _named(srcs, lname, table)
            for i, j in <tuple>cols:
                (<set>used[i]).add(j)
            continue
        if t is T_ResolvedColumn:
            ref = <ColRef?>slot(x, F_RC_REF)
            hit = index_of.get(id(ref.source))
            if hit is not None and ref.col >= 0:
                (<set>used[hit]).add(ref.col)
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
                return {i: set(range(len(srcs[i].columns))) for i in range(n)}
            stack.extend(d.values())
        elif type(fields) is tuple:
            for off in <tuple>fields:
                stack.append(_field(x, off))
        else:
            for name in <list>fields:
                stack.append(getattr(x, name, None))
    return used


cdef tuple _named(list srcs, lname, table):
    """(source index, column) of every source that has a column ``lname`` (its first, as
    name lookup finds it), qualified by ``table`` or not; not its INTEGER PRIMARY KEY."""
    ltable = table.lower() if table is not None else None
    cdef list out = []
    cdef Source s
    for i in range(len(srcs)):
        s = <Source?>srcs[i]
        j = s.col_lower.get(lname)
        if j is None or (s.is_table and j == s.ipk):
            continue
        if ltable is None or ltable == s.name.lower():
            out.append((i, j))
    return tuple(out)
