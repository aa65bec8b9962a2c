# Declarations of sqlengine.compiler._terms for other Cython modules (the loop builder,
# _loops.pyx, cimports these). See _terms.pyx and plan_terms.py for the documentation.

from cpython.long cimport PyLong_FromVoidPtr

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
cpdef list split_and(e, list out)


cdef inline object obj_id(object o):
    """``id(o)`` without a call of the builtin (CPython's id is the object's address)."""
    return PyLong_FromVoidPtr(<void *>o)


cdef class Masker:
    cdef public object scope
    cdef tuple sources
    cdef public list cols
    cdef public bint complete
    cdef public dict memo
    cdef void init(self, scope) except *
    cdef unsigned long long bit(self, src) noexcept
    cpdef object mask(self, e)
    cdef object _column_mask(self, name, table)


cdef class WhereClause:
    cdef public object scope
    cdef public Masker masker
    cdef public list terms
    cdef public dict on_terms
    cdef public int n
    cdef void init(self, scope, exprs, left_on) except *
    cpdef release(self)
    cdef WhereTerm term(self, e, bint left_on)
    cdef object column_of(self, e)
    cdef void expr_operands(self, WhereTerm t, lhs, rhs, str op) except *
    cdef void operands(self, WhereTerm t) except *


cdef WhereClause new_where_clause(scope, list exprs, left_on)
