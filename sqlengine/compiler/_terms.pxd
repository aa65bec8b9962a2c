# Declarations of sqlengine.compiler._terms for other Cython modules (the loop builder,
# _loops.pyx, cimports these). See _terms.pyx and plan_terms.py for the documentation.

cdef class Operand:
    cdef public object src
    cdef public int col
    cdef public str op
    cdef public object rhs
    cdef public object lhs
    cdef public unsigned long long prereq
    cdef public WhereTerm term


cdef class WhereTerm:
    cdef public object expr
    cdef public unsigned long long mask
    cdef public bint pinned
    cdef public object operands
    cdef public bint left_on
    cdef public int level


cpdef bint is_constant(e)
cpdef object column_ref(scope, e)
