# Declarations of sqlengine.vdbe._functable for other Cython modules (the expression coder,
# _codegen.pyx, cimports FunctionTable: its look-ups are then C calls). See _functable.pyx.

cdef class FunctionTable:
    cdef public object db, reg, ctx
    cdef dict _calls

    cdef object _find(self, name, int nargs)
    cdef object _remember(self, tuple key, value)
    cpdef scalar(self, name, int nargs)
    cpdef aggregate(self, name, int nargs)
    cpdef bint is_aggregate(self, name, int nargs) except -1
