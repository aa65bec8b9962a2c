# Declarations of sqlengine.compiler._where for other Cython modules (the aggregate coder in
# _codegen.pyx calls the WHERE loop coder through these, without a Python call's argument
# parsing). See _where.pyx and where.py for the documentation.

from sqlengine.compiler._codegen cimport ProgramBuilder
from sqlengine.compiler._levels cimport WhereInfo
from sqlengine.compiler._resolve cimport Scope

cdef WhereInfo c_where_begin(p, ProgramBuilder b, Scope scope, where, left_on, extra_terms,
                             core, order_by, limit, bint open_cursors, bint minmax,
                             int group, distinct)
cdef int c_where_end(p, ProgramBuilder b, WhereInfo info) except -1
