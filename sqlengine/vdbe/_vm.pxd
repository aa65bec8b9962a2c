# cython: language_level=3
# Declarations of sqlengine.vdbe._vm for the prepared statement (sqlengine/_statement.pyx),
# which makes a run (new_vdbe) and steps it (Vdbe.step, reset) as C calls and reads its state
# (started, done, bindings) as C fields. See _vm.pyx.

from sqlengine.vdbe.program cimport Program


cdef class Vdbe:
    cdef public Program prog
    cdef public object db
    # the program's operand arrays (array.array 'i' and 'q'), held so the pointers stay valid
    cdef object _arrays
    cdef const int* opc
    cdef const long long* a1
    cdef const long long* a2
    cdef const long long* a3
    cdef const int* a5
    cdef Py_ssize_t n_op
    cdef Py_ssize_t n_mem, n_cursor  # the lengths of mem and cursors (the program's + 1)
    cdef bint stale                  # reset() left the last run's mem and cursors lists
    cdef list p4
    cdef public list mem
    cdef public list cursors
    cdef public list bindings
    cdef public int pc
    cdef public list once
    cdef int cmp
    cdef public long long n_change
    cdef public long long n_nested  # rows changed by triggers' statements (total_changes only)
    cdef public bint done
    cdef public bint started
    cdef public object error_action
    cdef public object last_rowid
    cdef public long long n_ops     # instructions run by this run (the progress handler's clock)
    cdef public object stmt         # weak reference to the statement running this program, or None
    # the callers of the trigger sub-program running (OP_Program), innermost last, or None;
    # the trigger frames around the one running (SQLite's nFrame, counting inline triggers)
    cdef list frames
    cdef int frame_level
    cdef tuple cur_arrays  # the operand arrays of the program running (_arrays: the statement's)

    cpdef object step(self)
    cdef int _enter(self, tuple arrays, list p4) except -1
    cdef int _enter_frame(self, int pc, long long inline, list mem, list cursors,
                          list p4s) except -1
    cdef int _leave_frame(self, int pc, list mem, list cursors, bint ignore) except -1
    cpdef reset(self)
    cdef int _fresh_lists(self) except -1
    cdef int _reset(self) except -1
    cdef int _park_cursors(self, list cursors) except -1
    cdef int _open_table(self, int i, long long root, bint write, object p4) except -1
    cdef int _halt(self) except -1
    cpdef count_changes(self, long long n)
    cdef long long _next_check(self, long long nops) except -1
    cdef long long _tick(self, long long nops) except -1
    cdef object _new_rowid(self, object c)


cdef Vdbe new_vdbe(object db, Program prog)
