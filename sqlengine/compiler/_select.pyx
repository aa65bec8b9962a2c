"""The compiled entries select.py calls once per SELECT core, where a Python call's
argument parsing would cost more than the work: the WHERE loop coder opened and closed
through its C entries (``_where.c_where_begin`` / ``c_where_end``, which take the builder
and the flags as C arguments; ``where.where_begin`` is a Python function with eleven
parameters and keywords), and a Select's and a SelectCore's clauses read from their slots.

select.py's augmenting .pxd cimports this module, so compiled select.py calls these as C
functions; select.py run from its source calls the same functions through Python. This
module only forwards: it emits no code of its own and holds no state.
"""

from sqlengine.compiler._levels cimport WhereInfo
from sqlengine.compiler._resolve cimport Scope, slot, slot_offset
from sqlengine.compiler._where cimport c_where_begin, c_where_end
from sqlengine.compiler.context cimport Parse
from sqlengine.sql import ast as A

cdef object T_Select = A.Select
cdef Py_ssize_t F_SEL_WITH = slot_offset(A.Select, "with_")
cdef Py_ssize_t F_SEL_BODY = slot_offset(A.Select, "body")
cdef Py_ssize_t F_SEL_ORDER = slot_offset(A.Select, "order_by")
cdef Py_ssize_t F_SEL_LIMIT = slot_offset(A.Select, "limit")
cdef Py_ssize_t F_SEL_OFFSET = slot_offset(A.Select, "offset")


cpdef WhereInfo where_loops(Parse p, Scope scope, where, left_on, core, order_by, limit,
                            distinct):
    """``where.where_begin(p, scope, where, left_on, (), core, order_by, limit,
    distinct=distinct)``: the loops of a non-aggregate SELECT core."""
    return c_where_begin(p, p.b, scope, where, left_on, (), core, order_by, limit, True,
                         False, 0, distinct)


cpdef int where_close(Parse p, WhereInfo info) except -1:
    """``where.where_end(p, info)``."""
    return c_where_end(p, p.b, info)


cpdef tuple select_clauses(sel):
    """(WITH, body, ORDER BY, LIMIT, OFFSET) of the Select ``sel``."""
    if type(sel) is T_Select:
        return (slot(sel, F_SEL_WITH), slot(sel, F_SEL_BODY), slot(sel, F_SEL_ORDER),
                slot(sel, F_SEL_LIMIT), slot(sel, F_SEL_OFFSET))
    return sel.with_, sel.body, sel.order_by, sel.limit, sel.offset


cdef object T_SelectCore = A.SelectCore
cdef Py_ssize_t F_CORE_WHERE = slot_offset(A.SelectCore, "where")
cdef Py_ssize_t F_CORE_GROUP = slot_offset(A.SelectCore, "group_by")
cdef Py_ssize_t F_CORE_HAVING = slot_offset(A.SelectCore, "having")
cdef Py_ssize_t F_CORE_FEATURES = slot_offset(A.SelectCore, "features")
cdef Py_ssize_t F_CORE_DISTINCT = slot_offset(A.SelectCore, "distinct")


cpdef tuple core_clauses(core):
    """(WHERE, GROUP BY, HAVING, features, DISTINCT) of the SelectCore ``core``."""
    if type(core) is T_SelectCore:
        return (slot(core, F_CORE_WHERE), slot(core, F_CORE_GROUP),
                slot(core, F_CORE_HAVING), slot(core, F_CORE_FEATURES),
                slot(core, F_CORE_DISTINCT))
    return core.where, core.group_by, core.having, core.features, core.distinct
