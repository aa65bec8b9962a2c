# cython: language_level=3
"""Which columns of each FROM item a SELECT reads (SQLite's ``colUsed``), so that the
planner can tell when an index holds every column needed (a covering index).

The answer may be too large, never too small: a column named anywhere in the statement,
subqueries included, counts as read from every source that has a column of that name
(qualifier permitting). The rowid and the INTEGER PRIMARY KEY are not counted: every index
entry ends with the rowid. ``where.py`` checks the emitted code again before it drops a
table lookup, so an over-estimate only costs a missed optimisation. Emits no code.

Compiled (every statement of the corpus is planned once): the walk opens the commonest
nodes (Binary, Column, ResultColumn, InList, Between) by their fields' slots and any other
at the offsets of the slots its class's ``__slots__`` names (found once per class), asks
the sources about a column name once per name written, and finds a source by address.
"""

from cpython.long cimport PyLong_AsVoidPtr
from cpython.object cimport PyObject

from sqlengine.compiler._resolve cimport ColRef, Scope, Source, slot, slot_offset
from sqlengine.compiler._resolve import ResolvedColumn
from sqlengine.sql import ast as A

cdef extern from "Python.h":
    PyObject *_item "PyList_GET_ITEM" (object, Py_ssize_t)  # (a borrowed reference)

cdef object T_Column = A.Column
cdef object T_Literal = A.Literal
cdef object T_Binary = A.Binary
cdef object T_ResolvedColumn = ResolvedColumn
cdef object T_TableRef = A.TableRef
cdef object T_Star = A.Star
cdef object T_ResultColumn = A.ResultColumn
cdef object T_InList = A.InList
cdef object T_Between = A.Between
cdef object T_SelectCore = A.SelectCore
cdef Py_ssize_t F_COL_NAME = slot_offset(A.Column, "name")
cdef Py_ssize_t F_COL_TABLE = slot_offset(A.Column, "table")
cdef Py_ssize_t F_BIN_LEFT = slot_offset(A.Binary, "left")
cdef Py_ssize_t F_BIN_RIGHT = slot_offset(A.Binary, "right")
cdef Py_ssize_t F_RCOL_REF = slot_offset(ResolvedColumn, "ref")
cdef Py_ssize_t F_RC_EXPR = slot_offset(A.ResultColumn, "expr")
cdef Py_ssize_t F_INL_EXPR = slot_offset(A.InList, "expr")
cdef Py_ssize_t F_INL_ITEMS = slot_offset(A.InList, "items")
cdef Py_ssize_t F_BTW_EXPR = slot_offset(A.Between, "expr")
cdef Py_ssize_t F_BTW_LOW = slot_offset(A.Between, "low")
cdef Py_ssize_t F_BTW_HIGH = slot_offset(A.Between, "high")
cdef Py_ssize_t F_CORE_COLUMNS = slot_offset(A.SelectCore, "columns")
cdef Py_ssize_t F_CORE_WHERE = slot_offset(A.SelectCore, "where")
cdef Py_ssize_t F_CORE_GROUP_BY = slot_offset(A.SelectCore, "group_by")
cdef Py_ssize_t F_CORE_HAVING = slot_offset(A.SelectCore, "having")
cdef Py_ssize_t F_CORE_WINDOWS = slot_offset(A.SelectCore, "windows")
cdef Py_ssize_t F_CORE_FROM = slot_offset(A.SelectCore, "from_")
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
    cdef list srcs = (<Scope?>scope).sources
    cdef Py_ssize_t n = len(srcs)
    cdef list sets = [set() for i in range(n)]  # (the answer's sets, by source index)
    cdef Source s
    cdef ColRef ref
    cdef Py_ssize_t i, j, off
    cdef void *sid
    if type(core) is T_SelectCore:
        columns = slot(core, F_CORE_COLUMNS)
        where = slot(core, F_CORE_WHERE)
        others = [slot(core, F_CORE_GROUP_BY), slot(core, F_CORE_HAVING),
                  slot(core, F_CORE_WINDOWS), slot(core, F_CORE_FROM)]
    else:
        columns = core.columns
        where = core.where
        others = [core.group_by, core.having, core.windows, core.from_]
    for rc in columns:
        t = type(rc)
        if t is T_Star or t is not T_ResultColumn and isinstance(rc, T_Star):
            for i in range(n):
                s = <Source?>srcs[i]
                if rc.table is None or s.name.lower() == rc.table.lower():
                    sets[i] = set(range(len(s.columns)))
    if masker is not None and masker.complete:
        where = None
        for sj in masker.cols:  # (id(source), column) pairs
            sid = PyLong_AsVoidPtr((<tuple?>sj)[0])
            i = _index_of(srcs, n, sid)
            if i >= 0:
                j = (<tuple>sj)[1]
                s = <Source><object>_item(srcs, i)
                if j >= 0 and not (s.is_table and j == s.ipk):
                    (<set><object>_item(sets, i)).add(j)
    # a name as written (the name itself unqualified, else (name, qualifier)) -> the
    # ((set, column), ...) it reads
    cdef dict named = {}
    cdef list stack = others
    stack.append(columns)
    stack.append(where)
    cdef Py_ssize_t k = 0
    while k < len(stack):  # (a walk in any order: an index runs over the growing list)
        x = <object>_item(stack, k)
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
            key = name if table is None else (name, table)
            cols = named.get(key)
            if cols is None:
                lname = _LOWER.get(name)
                if lname is None:
                    lname = name.lower()
                    if len(_LOWER) < 4096:
                        _LOWER[name] = lname
                cols = named[key] = _named(srcs, sets, lname, table)
            for sj in <tuple>cols:
                (<set>(<tuple>sj)[0]).add((<tuple>sj)[1])
            continue
        if t is T_ResultColumn:  # (its expression; the alias and text are strings)
            stack.append(slot(x, F_RC_EXPR))
            continue
        if t is T_InList:  # (its operands; ``negated`` and ``pos`` read no column)
            stack.append(slot(x, F_INL_EXPR))
            stack.append(slot(x, F_INL_ITEMS))
            continue
        if t is T_Between:
            stack.append(slot(x, F_BTW_EXPR))
            stack.append(slot(x, F_BTW_LOW))
            stack.append(slot(x, F_BTW_HIGH))
            continue
        if t is T_ResolvedColumn:
            ref = <ColRef?>slot(x, F_RCOL_REF)
            i = _index_of(srcs, n, <void *>ref.source)
            if i >= 0 and ref.col >= 0:
                (<set><object>_item(sets, i)).add(ref.col)
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
    return {i: sets[i] for i in range(n)}


cdef inline Py_ssize_t _index_of(list srcs, Py_ssize_t n, void *src):
    """The index in ``srcs`` of the source at address ``src`` (its id; the last, as a dict
    of ids would answer), -1 when absent."""
    cdef Py_ssize_t i
    for i in range(n - 1, -1, -1):
        if <void *>_item(srcs, i) == src:
            return i
    return -1


cdef tuple _named(list srcs, list sets, lname, table):
    """(the source's set in ``sets``, column) of every source that has a column ``lname``
    (its first, as name lookup finds it), qualified by ``table`` or not; not its INTEGER
    PRIMARY KEY."""
    ltable = table.lower() if table is not None else None
    cdef list out = []
    cdef Source s
    cdef Py_ssize_t i
    for i in range(len(srcs)):
        s = <Source?>srcs[i]
        j = s.col_lower.get(lname)
        if j is None or (s.is_table and j == s.ipk):
            continue
        if ltable is None or ltable == s.name.lower():
            out.append((sets[i], j))
    return tuple(out)
