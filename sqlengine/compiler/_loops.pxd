# Declarations of sqlengine.compiler._loops for other Cython modules (the path solver,
# _paths.pyx, cimports these). See _loops.pyx and planner.py for the documentation.

cdef int c_log_est(unsigned long long x) noexcept
cdef int c_log_add(int a, int b) noexcept
cdef int c_est_log(int n) noexcept
cpdef str coll_name(c)
cpdef list build_loops(scope, wc, col_used, allowed, ob_cols, hints, db,
                       unsigned long long cross=*)


cdef class WhereLoop:
    cdef public int src_i
    cdef public unsigned long long bit
    cdef public unsigned long long prereq
    cdef public str kind
    cdef public object index
    cdef public tuple eq  # Operands, one per leading index column
    cdef public object lo
    cdef public object hi
    cdef public int n_out
    cdef public int r_run
    cdef public int r_setup
    cdef public bint covering
    cdef public tuple used  # the terms the loop's keys come from
    cdef public int sort_idx  # non-zero: the index might deliver the ORDER BY (kept apart)
    cdef public object ops  # auto: the operands on its source, which _where._access_of keys it by
    cdef tuple order_keys  # the ORDER BY check's view of it (_paths._loop_keys), once made


cdef inline WhereLoop new_loop(int src_i, str kind):
    """A WhereLoop as ``WhereLoop(src_i, kind)`` makes it, without the call."""
    cdef WhereLoop lp = WhereLoop.__new__(WhereLoop)
    lp.src_i = src_i
    lp.bit = 1ULL << src_i
    lp.kind = kind
    lp.eq = ()
    lp.used = ()
    return lp
