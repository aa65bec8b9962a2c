# Declarations of sqlengine.compiler._resolve for other Cython modules (the expression
# coder, _codegen.pyx, cimports these). See _resolve.pyx for the documentation.

cdef object lookup_name(scope, name, table)
