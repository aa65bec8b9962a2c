# Declarations of sqlengine.compiler._levels for other Cython modules (the WHERE loop
# coder, _where.pyx, cimports these and reads their fields directly). See _levels.pyx for
# the documentation.

cdef class Access:
    cdef public str kind
    cdef public object index, eq, lo, lo_op, hi, hi_op, key_aff, covering, eqp
    cdef public bint reverse
    cdef public object lo_aff, hi_aff, partial


cdef class Level:
    cdef public object src
    cdef public Access access
    cdef public int top, cont, brk, done, match_reg, after_match, icur
    cdef public int scratch, seek, start, eqp_addr, fill_at, fill_end
    cdef public tuple in_loops
    cdef public bint minmax
    cdef public object rj


cdef class WhereInfo:
    cdef public list levels
    cdef public int brk
    cdef public object scope
    cdef public int n_ordered
    cdef public bint on_right, sorted
    cdef public int distinct
