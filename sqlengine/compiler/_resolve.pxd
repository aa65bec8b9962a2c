# Declarations of sqlengine.compiler._resolve for other Cython modules (the expression
# coder, _codegen.pyx, cimports these: it then reads a Source's, ColRef's or Scope's fields
# directly, without a Python attribute lookup). See _resolve.pyx for the documentation.

cdef class Source:
    cdef public object name, table, cursor, columns, affs, colls, decltypes, ipk, hidden
    cdef public object left, index_cursor, col_lower, defaults, is_table, join_on
    cdef public object using_cols, nullable, has_rowid, rowid_null, right, ltorj, fj
    cdef public object enames, noexpand, row_est, refill, fill, db


cdef class ColRef:
    cdef public object source, col, scope, depth


cdef class CoalesceRef(ColRef):
    cdef public object alts


cdef class Scope:
    cdef public object sources, outer, overrides, aliases, alias_outer, correlated
    cdef public object agg_allowed, agg_context, in_where, corr, sub_affs
    cdef dict _cache
    cdef Py_ssize_t _cache_n
    cdef object _index, _index_of
    cdef Py_ssize_t _index_len
    cpdef object lookup(self, name, table, pos=*)
    cdef object _lookup(self, name, table)
    cdef tuple _names(self)


cdef object lookup_name(scope, name, table)
cpdef int release_scopes() except -1  # (statement.py: once per statement, a C call)
cpdef str expr_affinity(e, scope)
cpdef comparison_collation(left, right, scope)
cpdef tuple expr_coll_seq(e, scope)
# (select.pxd cimports these: the SELECT compiler calls them once per core)
cpdef Scope new_scope(outer, corr)
cpdef bint sees_words(scope) except -1
cpdef dict result_aliases(columns)
cpdef list result_columns(columns, scope, int naming)
# (_select.pxd's plain_table_source makes the Source of a table FROM item with it)
cdef Source _table_source(name, cursor, table)
cpdef int clear_caches() except -1  # (context.pyx: once per statement, a C call)


# (select.pxd cimports these too: one ResultInfo is made per SELECT compiled)
cdef class ResultInfo:
    cdef public object names, decltypes, affs, colls, has_coll, last, arm, nested


cpdef ResultInfo result_info(cols, scope, bint any_collate)


# ---- reading an AST node's field without an attribute lookup ---------------------------
# The AST nodes (sql/ast.py) are slotted dataclasses: a field is a pointer at a fixed
# offset of the object, which slot_offset finds once (from the class's member descriptor)
# and slot reads. Only for a node whose exact type was checked against that class.
from cpython.object cimport PyObject

cdef Py_ssize_t slot_offset(cls, str name) except -1


# (in C, so that the compiler inlines it: a Cython function holds a traceback path, too
# large for gcc to inline at each of the coder's many field reads)
cdef extern from *:
    """
    static CYTHON_INLINE PyObject *sqlengine_ast_slot(PyObject *o, Py_ssize_t off) {
        PyObject *v = *(PyObject **)((char *)o + off);
        if (__builtin_expect(v != NULL, 1)) {
            Py_INCREF(v);
            return v;
        }
        PyErr_SetString(PyExc_AttributeError, "AST node field not set");
        return NULL;
    }
    """
    object slot "sqlengine_ast_slot"(object o, Py_ssize_t off)


# ---- a name's lower case without str.lower's method call -----------------------------------
cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)
    void *PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)


cdef inline object lower_name(object s):
    """``s.lower()``, but ``s`` itself for an exact str of ASCII characters without an
    upper-case letter (most names are written so): no method call, no new string."""
    cdef const unsigned char *c
    cdef Py_ssize_t i
    if type(s) is str and PyUnicode_IS_ASCII(s):
        c = <const unsigned char *>PyUnicode_DATA(s)
        for i in range(PyUnicode_GET_LENGTH(s)):
            if 65 <= c[i] <= 90:  # (A-Z)
                return s.lower()
        return s
    return s.lower()
