# Declarations of sqlengine.compiler._select for select.py's augmenting .pxd (select.pxd),
# which cimports this module: its calls are then C calls. See _select.pyx.

from sqlengine.compiler._levels cimport WhereInfo
from sqlengine.compiler._resolve cimport Scope
from sqlengine.compiler.context cimport Parse


cpdef WhereInfo where_loops(Parse p, Scope scope, where, left_on, core, order_by, limit,
                            distinct)
cpdef int where_close(Parse p, WhereInfo info) except -1
cpdef tuple select_clauses(sel)
cpdef tuple core_clauses(core)
cpdef object plain_table_source(Parse p, item, bint lone)
cpdef Py_ssize_t plain_items(Parse p, list items, Scope scope, list sources,
                             list extra) except -1
