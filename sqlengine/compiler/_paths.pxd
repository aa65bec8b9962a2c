# Declarations of sqlengine.compiler._paths for other Cython modules (the WHERE loop coder,
# _where.pyx, calls the planner through these). See _paths.pyx for the documentation.

from sqlengine.compiler._resolve cimport Scope
from sqlengine.compiler._terms cimport WhereClause

cpdef tuple plan(Scope scope, WhereClause wc, core, order_by=*, limit=*, int group=*,
                 distinct=*, db=*)


# fields of a schema.Table read from its slot (``table_field``)
cdef enum:
    TAB_NAME = 0
    TAB_ROOT = 1
    TAB_COLUMNS = 2
    TAB_WITHOUT_ROWID = 3
    TAB_INDEXES = 4
    N_TAB_FIELDS = 5

cdef object table_field(table, int f)
