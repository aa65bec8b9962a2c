# Declarations of sqlengine.vdbe._aggregates for the VM loop (see _aggregates.pyx).

cdef class AggBase:
    cdef object step_mem(self, list mem, Py_ssize_t base, int n)
