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


cdef class Masker:
    cdef public object scope
    cdef public dict bit_of
    cdef public set cols
    cdef public bint complete
    cdef public dict memo
    cpdef object mask(self, e)
    cdef object _column_mask(self, name, table)


cdef class WhereClause:
    cdef public object scope
    cdef public Masker masker
    cdef public list terms
    cdef public dict on_terms
    cdef public int n
    cdef WhereTerm term(self, e, bint left_on)
    cdef void expr_operands(self, WhereTerm t, lhs, rhs, str op) except *
    cdef void operands(self, WhereTerm t) except *
