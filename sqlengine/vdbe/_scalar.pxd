# Declarations of sqlengine.vdbe._scalar for the VM loop and the compiled functions (see
# _scalar.pyx).

cdef class ScalarBase:
    cdef object call_mem(self, object vm, list mem, Py_ssize_t base, Py_ssize_t n)
