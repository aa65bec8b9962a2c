# Declarations of sqlengine.compiler._paths for other Cython modules (the WHERE loop coder,
# _where.pyx, calls the planner through these). See _paths.pyx for the documentation.

cpdef tuple plan(scope, wc, core, order_by=*, limit=*, int group=*)
