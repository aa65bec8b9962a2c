# cython: language_level=3
"""The base of the compiled scalar functions the VM calls with their arguments in its
registers: OP_Function calls ``call_mem(vm, mem, base, n)`` on a ``ScalarBase`` (arguments
``mem[base:base + n]``, no argument list made per row) and ``f(vm, args)`` on any other
function object. A subclass keeps ``__call__(vm, args)`` for every other caller, with the
same result. This module holds no function itself.
"""


cdef class ScalarBase:
    """A compiled scalar function (OP_Function's P4)."""

    cdef object call_mem(self, object vm, list mem, Py_ssize_t base, Py_ssize_t n):
        return self(vm, mem[base:base + n])
