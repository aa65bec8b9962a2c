# Declarations of sqlengine.vdbe._values for other Cython modules (the VM loop cimports these).
# See _values.pyx for the documentation of each function.

from cpython.float cimport PyFloat_AS_DOUBLE
from cpython.long cimport PyLong_AsLongLongAndOverflow

from sqlengine.storage._record cimport int_real_compare

cdef tuple atof(str z)
cdef tuple atoi64(str z)
cpdef tuple parse_real(object z)
cpdef tuple parse_int64(object z)

cpdef str affinity_of_decltype(object decltype)
cpdef object apply_affinity(object v, object aff)
cpdef object apply_numeric_affinity(object v, bint try_for_int=*)
cpdef object integer_affinity(double r)
cpdef object real_affinity(object v)
cpdef str comparison_affinity(object aff1, object aff2)

cpdef int compare(object a, object b, object coll=*) except? -2


cdef inline bint int_real_order(object a, object b, int* res) noexcept:
    """When one of a, b is an INTEGER and the other a REAL (not NaN): their order (-1, 0, 1,
    as compare() gives it) in *res, and True; else False (nothing compared)."""
    cdef long long i
    cdef int overflow = 0
    cdef double r
    if type(a) is int and type(b) is float:
        r = PyFloat_AS_DOUBLE(b)
        i = PyLong_AsLongLongAndOverflow(a, &overflow)
        if overflow or r != r:
            return False
        res[0] = int_real_compare(i, r)
        return True
    if type(a) is float and type(b) is int:
        r = PyFloat_AS_DOUBLE(a)
        i = PyLong_AsLongLongAndOverflow(b, &overflow)
        if overflow or r != r:
            return False
        res[0] = -int_real_compare(i, r)
        return True
    return False

cpdef object compare_with_affinity(object a, object b, object aff, object coll=*)

cpdef object numeric_value(object v)
cpdef object add(object a, object b)
cpdef object sub(object a, object b)
cpdef object mul(object a, object b)
cpdef object div(object a, object b)
cpdef object rem(object a, object b)
cpdef object negate(object a)
cpdef object bit_and(object a, object b)
cpdef object bit_or(object a, object b)
cpdef object bit_not(object a)
cpdef object shift_left(object a, object b)
cpdef object shift_right(object a, object b)
cpdef object concat(object a, object b)
cpdef object truth(object v)
cpdef object logical_not(object v)

cpdef str render_real(double value, int precision, str xtype, bint alternate=*, bint altform2=*, str prefix=*)
cpdef str real_to_text(double r)
cpdef object to_text(object v)
cpdef object to_blob(object v)
cpdef bytes text_bytes(str s)
cpdef str text_of_bytes(object b)
cpdef long long to_int(object v) except? -1
cpdef double to_real(object v) except? -1.0
cpdef object to_numeric(object v)
cpdef long long double_to_int64(double r)
cpdef object cast(object v, object type_name)
cpdef object cast_affinity(object v, object aff)
cpdef str typeof(object v)
