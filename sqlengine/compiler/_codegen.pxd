# Declarations of sqlengine.compiler._codegen for other Cython modules (the WHERE loop
# coder, _where.pyx, cimports these): a ProgramBuilder's methods and the expression coder's
# entry points are then C calls. See _codegen.pyx for the documentation.

cimport cython
from cpython cimport array

from sqlengine.compiler._resolve cimport Scope
from sqlengine.vdbe.program cimport Program


@cython.final
cdef class ProgramBuilder:
    cdef public int n_mem
    cdef public int n_cursor
    cdef public int n_once
    cdef Py_ssize_t n_ops, cap
    cdef int *_op
    cdef int *_p5
    cdef long long *_p1
    cdef long long *_p2
    cdef long long *_p3
    cdef array.array _aop, _ap5, _ap1, _ap2, _ap3  # hold the items _op .. _p3 point at
    cdef list _p4
    cdef list _comments
    cdef Py_ssize_t n_labels, label_cap
    cdef Py_ssize_t *_labels
    cdef list _consts
    cdef dict _const_regs
    cdef dict _const_ints

    cdef int _grow(self) except -1
    cpdef Py_ssize_t emit(self, int op, long long p1=*, long long p2=*, long long p3=*,
                          object p4=*, int p5=*, object comment=*) except -1
    cdef object _field(self, Py_ssize_t a, int k)
    cdef int _set_field(self, Py_ssize_t a, int k, object v) except -1
    cpdef int uses(self) except -1
    cpdef list cursor_uses(self, long long cursor, cursor_ops)
    cpdef Py_ssize_t addr(self)
    cdef Py_ssize_t _index(self, Py_ssize_t a) except -1
    cpdef int new_label(self) except? 0
    cpdef resolve(self, int label)
    cpdef int alloc_reg(self, int n=*) except? -1
    cpdef int alloc_cursor(self) except? -1
    cpdef int alloc_once(self) except? -1
    cpdef int const_reg(self, value) except? -1
    cpdef int emit_consts(self) except -1
    cdef long long _target(self, long long v) except? -1
    cdef Program _finish(self, bint take)
    # (statement.py's _compile calls it once per statement: a C call)
    cpdef Program finish_statement(self, names, decls, int n_param, param_names, bint write,
                                   bint is_txn, bint is_ddl, int explain, sql)


cpdef code_column(p, ref_, int target)
cpdef int code_expr_reg(p, scope, e) except? -1
cpdef code_expr(p, scope, e, int target)
cpdef if_false(p, scope, e, int label, bint jump_if_null)
# (select.pxd and statement.pxd cimport these: called once per SELECT core / statement)
cpdef int code_program_tail(ProgramBuilder b, Py_ssize_t init, bint is_txn,
                            bint write) except -1
cpdef int code_result_columns(ProgramBuilder b, p, scope, list result_exprs, unused,
                              all_unused) except -1
cpdef int emit_result_row(ProgramBuilder b, p, scope, int res_base, int n_res, distinct_cur,
                          list distinct_said, sorter, list obt, dest, lreg, oreg,
                          int end_label) except -1


# (select.pxd cimports these: called once per aggregate SELECT core)
@cython.final
cdef class ResultRows:
    cdef ProgramBuilder b
    cdef object p, scope, result_exprs, unused, all_unused, distinct_cur, sorter, dest
    cdef object lreg, oreg
    cdef list distinct_said, obt
    cdef int end_label

    cpdef int emit(self) except -1


cpdef ResultRows result_rows(ProgramBuilder b, p, scope, list result_exprs, unused, all_unused,
                             distinct_cur, list distinct_said, sorter, list obt, dest, lreg,
                             oreg, int end_label)
cpdef int code_aggregate(ProgramBuilder b, p, Scope scope, core, where, left_on, list defs,
                         list group_by, having, ResultRows rows, dict agg_overrides,
                         list bare, int bare_regs, int acc, list sort_desc=*,
                         bint as_distinct=*) except -1
