# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled SQL front end: SQLite's tokenizer and the LALR(1) driver, in Cython.

This is the hot path of every statement. It behaves exactly like the reference pair
``lexer.py`` + ``parser.py`` (same tokens, same fallback/wildcard/default-reduction rules,
same stack depth, same messages) and runs the same tables (``tables.py``, computed by lark
from ``grammar.lark``) and the same reductions (``builder.py``, which build the AST): only
the loop, the state stack and the tokenizer are compiled. ``parser.py`` uses it when it is
built (``python build.py sql._parser``). It never builds a parse tree and never resolves
names.
"""

from ..errors import OperationalError
from . import ast as _ast

cdef object Literal = _ast.Literal
cdef object Binary = _ast.Binary
cdef object Unary = _ast.Unary
cdef object Column = _ast.Column
cdef object FunctionCall = _ast.FunctionCall
cdef int FEAT_FUNCTION = _ast.FEAT_FUNCTION
from .builder import MAX_FUNCTION_ARG as _MAX_FUNCTION_ARG, truth_test, join_kind, _JOIN_BITS
cdef Py_ssize_t MAX_FUNCTION_ARG = _MAX_FUNCTION_ARG
from .limits import MIN_TEXT_FOR_DEPTH as _MIN_TEXT_FOR_DEPTH
from .limits import MAX_EXPR_DEPTH as _MAX_EXPR_DEPTH
cdef object Cast = _ast.Cast
cdef Py_ssize_t MIN_TEXT_FOR_DEPTH = _MIN_TEXT_FOR_DEPTH
cdef Py_ssize_t MAX_EXPR_DEPTH = _MAX_EXPR_DEPTH

from cpython.object cimport PyTypeObject

from cpython.ref cimport PyObject, Py_INCREF, Py_XDECREF
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_READ
from cpython.unicode cimport PyUnicode_READ_CHAR

cdef extern from "Python.h":
    object _PyObject_GC_New(PyTypeObject *t)  # (what the PyObject_GC_New macro calls)
    void PyObject_GC_Track(void *o)
    int PyUnicode_READY(object o) except? -1
    Py_ssize_t _ulen "PyUnicode_GET_LENGTH" (PyObject *o)
    int _ukind "PyUnicode_KIND" (PyObject *o)
    void *_udata "PyUnicode_DATA" (PyObject *o)
    double PyOS_string_to_double(const char *s, char **endptr, PyObject *overflow) except? -1.0
    const char *_utf8 "PyUnicode_AsUTF8AndSize" (object o, Py_ssize_t *size) except NULL
    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef *d_member

# The commonest nodes are made without running their dataclass __init__ (allocate, then
# store every slot straight into the object, as the slot descriptors would), which cuts
# their cost by more than half. Only done when the classes still have exactly the fields
# of node_fields, each an object slot, and calling one only stores its arguments
# (_check_fast_new); otherwise the classes are called as usual.
cdef bint FAST_NEW = False
cdef int _T_OBJECT_EX = 16  # (structmember.h: an object slot, AttributeError when unset)
# OFF[K + i]: the offset in the object of the i-th field (dataclass order) of class K
cdef enum:
    BINARY = 2
    UNARY = 6
    COLUMN = 9
    RESULT_COLUMN = 14
    SELECT_CORE = 17
    SELECT = 27
    FUNCTION = 33
    TABLE_REF = 41
    JOIN = 47
    ORDERING_TERM = 54
    BETWEEN = 57
    IN_LIST = 62
    TAIL = 66
    PARSED_ = 69
    BUILDER_ = 73
    STAR = 79
    IN_SELECT = 82
    SUBQUERY = 86
    EXISTS = 88
    CASE = 90
    LITERAL = 95
    CAST = 98
    N_OFF = 101
cdef Py_ssize_t OFF[N_OFF]

from .builder import _Tail
cdef object TAIL_CLASS = _Tail


def node_fields():
    """[(class, its first OFF index, its fields in order)] of the nodes made directly."""
    return [
        (_ast.Literal, LITERAL, ["value", "pos", "word"]),
        (_ast.Binary, BINARY, ["op", "left", "right", "pos"]),
        (_ast.Unary, UNARY, ["op", "operand", "pos"]),
        (_ast.Column, COLUMN, ["name", "table", "schema", "quoted", "pos"]),
        (_ast.ResultColumn, RESULT_COLUMN, ["expr", "alias", "text"]),
        (_ast.SelectCore, SELECT_CORE, ["columns", "distinct", "from_", "where", "group_by",
                                        "having", "windows", "pos", "features",
                                        "alias_columns"]),
        (_ast.Select, SELECT, ["body", "with_", "order_by", "limit", "offset", "pos"]),
        (_ast.FunctionCall, FUNCTION, ["name", "args", "distinct", "star", "filter", "over",
                                       "order_by", "pos"]),
        (_ast.TableRef, TABLE_REF, ["name", "schema", "alias", "indexed_by", "not_indexed",
                                    "pos"]),
        (_ast.Join, JOIN, ["left", "right", "kind", "natural", "on", "using", "pos"]),
        (_ast.OrderingTerm, ORDERING_TERM, ["expr", "desc", "nulls"]),
        (_ast.Between, BETWEEN, ["expr", "low", "high", "negated", "pos"]),
        (_ast.InList, IN_LIST, ["expr", "items", "negated", "pos"]),
        (TAIL_CLASS, TAIL, ["order_by", "limit", "offset"]),
        (PARSED, PARSED_, ["stmt", "text", "start", "end"]),
        (BUILDER, BUILDER_, ["sql", "base", "lookahead", "error", "new_table", "features"]),
        (_ast.Star, STAR, ["table", "pos", "nested"]),
        (_ast.InSelect, IN_SELECT, ["expr", "select", "negated", "pos"]),
        (_ast.Subquery, SUBQUERY, ["select", "pos"]),
        (_ast.Exists, EXISTS, ["select", "pos"]),
        (_ast.Case, CASE, ["operand", "whens", "else_", "pos", "truth"]),
        (_ast.Cast, CAST, ["expr", "type_name", "pos"]),
    ]


cdef inline void _set(object o, Py_ssize_t off, object v) noexcept:
    """Store ``v`` into the slot at ``off`` of a just-allocated node (the slot is empty)."""
    Py_INCREF(v)
    (<PyObject **>((<char *><PyObject *>o) + off))[0] = <PyObject *>v


cdef inline object _get(object o, Py_ssize_t off):
    """The value in the slot at ``off`` of a node made here (a slot always set)."""
    return <object> (<PyObject **>((<char *><PyObject *>o) + off))[0]


cdef inline void _replace(object o, Py_ssize_t off, object v) noexcept:
    """Store ``v`` into the (set) slot at ``off`` of a node, releasing the value it held."""
    cdef PyObject **slot = <PyObject **>((<char *><PyObject *>o) + off)
    cdef PyObject *old = slot[0]
    Py_INCREF(v)
    slot[0] = <PyObject *>v
    Py_XDECREF(old)


cdef inline int features_of(object builder) except? -1:
    """builder.features, read from its slot when the Builder was made here."""
    if FAST_NEW:
        return _get(builder, OFF[BUILDER_ + 5])
    return builder.features


cdef inline int set_features(object builder, int bits) except -1:
    """builder.features = bits."""
    if FAST_NEW:
        _replace(builder, OFF[BUILDER_ + 5], int_obj(bits))
    else:
        builder.features = bits
    return 0


def _slot_offsets(cls, names):
    """The offsets of the object slots ``names`` of ``cls`` (None when one is not a plain
    object slot)."""
    import types
    out = []
    for name in names:
        d = cls.__dict__.get(name)
        if type(d) is not types.MemberDescriptorType:
            return None
        m = (<PyMemberDescrObject *>d).d_member
        if m.type != _T_OBJECT_EX:
            return None
        out.append(m.offset)
    return out


def _has_fields(cls, names):
    """``cls`` is a slotted class whose fields are exactly ``names`` (a dataclass without
    __post_init__, or _Tail and Builder)."""
    import dataclasses
    if dataclasses.is_dataclass(cls):
        fields = [f.name for f in dataclasses.fields(cls)]
        if hasattr(cls, "__post_init__"):
            return False
    else:
        fields = list(getattr(cls, "__slots__", ()))
    return fields == names and hasattr(cls, "__slots__")


def _whole_object(cls, names):
    """The slots ``names`` are all of a ``cls`` object besides its header (_alloc leaves
    the rest unset), and ``cls`` is a garbage-collected type without a __dict__ or
    __weakref__ slot of its own."""
    return (cls.__flags__ & (1 << 14)  # Py_TPFLAGS_HAVE_GC
            and not cls.__flags__ & (1 << 4)  # Py_TPFLAGS_MANAGED_DICT
            and cls.__itemsize__ == 0 and cls.__dictoffset__ == 0
            and cls.__weakrefoffset__ == 0
            and cls.__basicsize__ == object.__basicsize__ + len(names) * sizeof(PyObject *))


def _init_only_stores(cls, names, tail=()):
    """Calling ``cls`` with one new object per field of ``names`` but the last ``len(tail)``
    stores each object in its field, the ``tail`` constants in the others, and nothing
    else can differ (no metaclass, no __new__ of its own): what the direct allocation
    stores instead. A class whose own __init__ converts or computes a field is called."""
    if type(cls) is not type or cls.__new__ is not object.__new__:
        return False
    args = [object() for _ in range(len(names) - len(tail))]
    try:
        o = cls(*args)
    except Exception:
        return False
    for name, v in zip(names, args + list(tail)):
        got = getattr(o, name, args)
        if got is not v and (type(got) is not type(v) or got != v):
            return False
    return True


_BUILDER_TAIL = (0, None, None, 0)  # lookahead, error, new_table, features (new_builder)


def _check_fast_new():
    offsets = {}
    if PARSED is None or BUILDER is None:
        return False
    for cls, start, names in node_fields():
        if not _has_fields(cls, names) or not _whole_object(cls, names):
            return False
        if not _init_only_stores(cls, names, _BUILDER_TAIL if cls is BUILDER else ()):
            return False
        offsets[start] = _slot_offsets(cls, names)
        if offsets[start] is None:
            return False
    for start, offs in offsets.items():
        for i, off in enumerate(offs):
            OFF[start + i] = off
    return True


# The ints 0 .. N_INTS - 1 made once: a node's position (and a small integer literal's
# value) is one of these shared objects, not a new int per node (CPython keeps only
# -5 .. 256).
cdef enum:
    N_INTS = 4096
cdef tuple INTS = tuple(range(N_INTS))
cdef PyObject *INT_AT[N_INTS]  # (INTS's items, read without a tuple access)


cdef void _int_at_init() noexcept:
    cdef int i
    for i in range(N_INTS):
        INT_AT[i] = <PyObject *> INTS[i]


_int_at_init()


cdef inline object int_obj(long long v):
    """The int ``v``, the kept one when it is in [0, N_INTS)."""
    if 0 <= v < N_INTS:
        return <object> INT_AT[v]
    return v


cdef inline object _alloc(object cls):
    """A new node of ``cls``, not yet tracked by the garbage collector, its slots not set:
    the caller stores every slot (with values it computed before, so nothing can fail in
    between) and then returns _tracked(o). (PyObject_GC_New: no zeroing of the object,
    which PyType_GenericAlloc does; _check_fast_new checks the slots are the whole object.)"""
    return _PyObject_GC_New(<PyTypeObject *> cls)


cdef inline object _tracked(object o):
    PyObject_GC_Track(<PyObject *> o)
    return o


cdef inline object new_literal(object value, Py_ssize_t pos, bint word=False):
    if not FAST_NEW:
        return Literal(value, pos, word)
    p = int_obj(pos)
    o = _alloc(Literal)
    _set(o, OFF[LITERAL + 0], value)
    _set(o, OFF[LITERAL + 1], p)
    _set(o, OFF[LITERAL + 2], word)
    return _tracked(o)


cdef inline object new_binary(object op, object left, object right, Py_ssize_t pos):
    if not FAST_NEW:
        return Binary(op, left, right, pos)
    p = int_obj(pos)
    o = _alloc(Binary)
    _set(o, OFF[BINARY + 0], op)
    _set(o, OFF[BINARY + 1], left)
    _set(o, OFF[BINARY + 2], right)
    _set(o, OFF[BINARY + 3], p)
    return _tracked(o)


cdef inline object new_unary(object op, object operand, Py_ssize_t pos):
    if not FAST_NEW:
        return Unary(op, operand, pos)
    p = int_obj(pos)
    o = _alloc(Unary)
    _set(o, OFF[UNARY + 0], op)
    _set(o, OFF[UNARY + 1], operand)
    _set(o, OFF[UNARY + 2], p)
    return _tracked(o)


cdef object ResultColumn = _ast.ResultColumn
cdef object SelectCore = _ast.SelectCore
cdef object Select = _ast.Select
cdef object TableRef = _ast.TableRef
cdef object Join = _ast.Join
cdef object OrderingTerm = _ast.OrderingTerm
cdef object Between = _ast.Between
cdef object InList = _ast.InList


cdef inline object new_result_column(object expr, object alias, str text):
    if not FAST_NEW:
        return ResultColumn(expr, alias, text)
    o = _alloc(ResultColumn)
    _set(o, OFF[RESULT_COLUMN + 0], expr)
    _set(o, OFF[RESULT_COLUMN + 1], alias)
    _set(o, OFF[RESULT_COLUMN + 2], text)
    return _tracked(o)


cdef inline object new_select_core(PyObject **values, int base, Py_ssize_t pos, object features):
    # values[base:]: SELECT distinct selcollist from where_opt groupby_opt having_opt ...
    if not FAST_NEW:
        return SelectCore(<object> values[base + 2], bool(<object> values[base + 1]),
                          <object> values[base + 3], <object> values[base + 4],
                          <object> values[base + 5], <object> values[base + 6], None, pos,
                          features)
    v0 = bool(<object> values[base + 1])
    p = int_obj(pos)
    o = _alloc(SelectCore)
    _set(o, OFF[SELECT_CORE + 0], <object> values[base + 2])  # columns
    _set(o, OFF[SELECT_CORE + 1], v0)  # distinct
    _set(o, OFF[SELECT_CORE + 2], <object> values[base + 3])  # from_
    _set(o, OFF[SELECT_CORE + 3], <object> values[base + 4])  # where
    _set(o, OFF[SELECT_CORE + 4], <object> values[base + 5])  # group_by
    _set(o, OFF[SELECT_CORE + 5], <object> values[base + 6])  # having
    _set(o, OFF[SELECT_CORE + 6], None)  # windows
    _set(o, OFF[SELECT_CORE + 7], p)
    _set(o, OFF[SELECT_CORE + 8], features)
    _set(o, OFF[SELECT_CORE + 9], None)  # alias_columns
    return _tracked(o)


cdef inline object new_function(str name, list args, bint distinct, bint star,
                                Py_ssize_t pos):
    if not FAST_NEW:
        return FunctionCall(name, args, distinct, star, pos=pos)
    p = int_obj(pos)
    o = _alloc(FunctionCall)
    _set(o, OFF[FUNCTION + 0], name)
    _set(o, OFF[FUNCTION + 1], args)
    _set(o, OFF[FUNCTION + 2], distinct)
    _set(o, OFF[FUNCTION + 3], star)
    _set(o, OFF[FUNCTION + 4], None)  # filter
    _set(o, OFF[FUNCTION + 5], None)  # over
    _set(o, OFF[FUNCTION + 6], None)  # order_by
    _set(o, OFF[FUNCTION + 7], p)
    return _tracked(o)


cdef inline object new_tail(object order_by, object lim):
    """builder._tail: ORDER BY and (LIMIT, OFFSET) or None after one core."""
    if lim is None:
        limit = offset = None
    else:
        limit = (<tuple> lim)[0]
        offset = (<tuple> lim)[1]
    if not FAST_NEW:
        return TAIL_CLASS(order_by, limit, offset)
    o = _alloc(TAIL_CLASS)
    _set(o, OFF[TAIL + 0], order_by)
    _set(o, OFF[TAIL + 1], limit)
    _set(o, OFF[TAIL + 2], offset)
    return _tracked(o)


cdef inline object new_select(object body, object tail, Py_ssize_t pos):
    """A SELECT without WITH of one core, and its tail (None or a _Tail)."""
    if tail is None:
        order_by = limit = offset = None
    elif FAST_NEW and type(tail) is TAIL_CLASS:
        order_by = _get(tail, OFF[TAIL + 0])
        limit = _get(tail, OFF[TAIL + 1])
        offset = _get(tail, OFF[TAIL + 2])
    else:
        order_by = tail.order_by
        limit = tail.limit
        offset = tail.offset
    if not FAST_NEW:
        return Select(body, None, order_by, limit, offset, pos)
    p = int_obj(pos)
    o = _alloc(Select)
    _set(o, OFF[SELECT + 0], body)
    _set(o, OFF[SELECT + 1], None)  # with_
    _set(o, OFF[SELECT + 2], order_by)
    _set(o, OFF[SELECT + 3], limit)
    _set(o, OFF[SELECT + 4], offset)
    _set(o, OFF[SELECT + 5], p)
    return _tracked(o)


cdef inline object new_column(object name, object table, bint quoted, Py_ssize_t pos):
    if not FAST_NEW:
        return Column(name, table, None, quoted, pos)
    p = int_obj(pos)
    o = _alloc(Column)
    _set(o, OFF[COLUMN + 0], name)
    _set(o, OFF[COLUMN + 1], table)
    _set(o, OFF[COLUMN + 2], None)  # schema
    _set(o, OFF[COLUMN + 3], quoted)
    _set(o, OFF[COLUMN + 4], p)
    return _tracked(o)


cdef inline object new_table_ref(object name, object schema, object alias, Py_ssize_t pos):
    if not FAST_NEW:
        return TableRef(name, schema, alias, pos=pos)
    p = int_obj(pos)
    o = _alloc(TableRef)
    _set(o, OFF[TABLE_REF + 0], name)
    _set(o, OFF[TABLE_REF + 1], schema)
    _set(o, OFF[TABLE_REF + 2], alias)
    _set(o, OFF[TABLE_REF + 3], None)  # indexed_by
    _set(o, OFF[TABLE_REF + 4], False)  # not_indexed
    _set(o, OFF[TABLE_REF + 5], p)
    return _tracked(o)


cdef inline object new_join(object left, object right, object kind, object natural,
                            object on, object using, Py_ssize_t pos):
    if not FAST_NEW:
        return Join(left, right, kind, natural, on, using, pos)
    p = int_obj(pos)
    o = _alloc(Join)
    _set(o, OFF[JOIN + 0], left)
    _set(o, OFF[JOIN + 1], right)
    _set(o, OFF[JOIN + 2], kind)
    _set(o, OFF[JOIN + 3], natural)
    _set(o, OFF[JOIN + 4], on)
    _set(o, OFF[JOIN + 5], using)
    _set(o, OFF[JOIN + 6], p)
    return _tracked(o)


cdef inline object new_ordering_term(object expr, object desc, object nulls):
    if not FAST_NEW:
        return OrderingTerm(expr, bool(desc), nulls)
    v0 = bool(desc)
    o = _alloc(OrderingTerm)
    _set(o, OFF[ORDERING_TERM + 0], expr)
    _set(o, OFF[ORDERING_TERM + 1], v0)
    _set(o, OFF[ORDERING_TERM + 2], nulls)
    return _tracked(o)


cdef inline object new_between(object expr, object low, object high, object negated,
                               Py_ssize_t pos):
    if not FAST_NEW:
        return Between(expr, low, high, negated, pos)
    p = int_obj(pos)
    o = _alloc(Between)
    _set(o, OFF[BETWEEN + 0], expr)
    _set(o, OFF[BETWEEN + 1], low)
    _set(o, OFF[BETWEEN + 2], high)
    _set(o, OFF[BETWEEN + 3], negated)
    _set(o, OFF[BETWEEN + 4], p)
    return _tracked(o)


cdef inline object new_in_list(object expr, object items, object negated, Py_ssize_t pos):
    if not FAST_NEW:
        return InList(expr, items, negated, pos)
    p = int_obj(pos)
    o = _alloc(InList)
    _set(o, OFF[IN_LIST + 0], expr)
    _set(o, OFF[IN_LIST + 1], items)
    _set(o, OFF[IN_LIST + 2], negated)
    _set(o, OFF[IN_LIST + 3], p)
    return _tracked(o)


cdef inline object new_builder(str sql, Py_ssize_t base):
    """Builder(sql, base)."""
    if not FAST_NEW:
        return BUILDER(sql, base)
    b = int_obj(base)
    o = _alloc(BUILDER)
    _set(o, OFF[BUILDER_ + 0], sql)
    _set(o, OFF[BUILDER_ + 1], b)
    _set(o, OFF[BUILDER_ + 2], 0)  # lookahead
    _set(o, OFF[BUILDER_ + 3], None)  # error
    _set(o, OFF[BUILDER_ + 4], None)  # new_table
    _set(o, OFF[BUILDER_ + 5], 0)  # features
    return _tracked(o)


cdef object Star = _ast.Star
cdef object InSelect = _ast.InSelect
cdef object Subquery = _ast.Subquery
cdef object Exists = _ast.Exists
cdef object Case = _ast.Case


cdef inline object new_star(object pos):
    if not FAST_NEW:
        return Star(None, pos)
    o = _alloc(Star)
    _set(o, OFF[STAR + 0], None)  # table
    _set(o, OFF[STAR + 1], pos)
    _set(o, OFF[STAR + 2], False)  # nested
    return _tracked(o)


cdef inline object new_in_select(object expr, object select, object negated, Py_ssize_t pos):
    if not FAST_NEW:
        return InSelect(expr, select, negated, pos)
    p = int_obj(pos)
    o = _alloc(InSelect)
    _set(o, OFF[IN_SELECT + 0], expr)
    _set(o, OFF[IN_SELECT + 1], select)
    _set(o, OFF[IN_SELECT + 2], negated)
    _set(o, OFF[IN_SELECT + 3], p)
    return _tracked(o)


cdef inline object new_subquery(object cls, Py_ssize_t first, object select, Py_ssize_t pos):
    """Subquery or Exists (both: select, pos)."""
    if not FAST_NEW:
        return cls(select, pos)
    p = int_obj(pos)
    o = _alloc(cls)
    _set(o, OFF[first + 0], select)
    _set(o, OFF[first + 1], p)
    return _tracked(o)


cdef inline object new_case(object operand, object whens, object else_, Py_ssize_t pos):
    if not FAST_NEW:
        return Case(operand, whens, else_, pos)
    p = int_obj(pos)
    o = _alloc(Case)
    _set(o, OFF[CASE + 0], operand)
    _set(o, OFF[CASE + 1], whens)
    _set(o, OFF[CASE + 2], else_)
    _set(o, OFF[CASE + 3], p)
    _set(o, OFF[CASE + 4], None)
    return _tracked(o)


cdef inline object new_cast(object expr, object type_name, Py_ssize_t pos):
    if not FAST_NEW:
        return Cast(expr, type_name, pos)
    p = int_obj(pos)
    o = _alloc(Cast)
    _set(o, OFF[CAST + 0], expr)
    _set(o, OFF[CAST + 1], type_name)
    _set(o, OFF[CAST + 2], p)
    return _tracked(o)


cdef inline object new_parsed(object stmt, str text, Py_ssize_t start, Py_ssize_t end):
    if not FAST_NEW:
        return PARSED(stmt, text, start, end)
    a = int_obj(start)
    b = int_obj(end)
    o = _alloc(PARSED)
    _set(o, OFF[PARSED_ + 0], stmt)
    _set(o, OFF[PARSED_ + 1], text)
    _set(o, OFF[PARSED_ + 2], a)
    _set(o, OFF[PARSED_ + 3], b)
    return _tracked(o)


cdef inline str binary_op(str text):
    """Binary.op for the operator ``text`` of an ``expr OP expr`` rule, as Builder.binary
    makes it (== is =, <> is !=, AND and OR in upper case, any other its own text), without
    a dict lookup: the operators are told apart by length and first character."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    cdef Py_UCS4 c = PyUnicode_READ_CHAR(text, 0)
    if n == 1:
        return text
    if c == 61:  # ==
        return "="
    if c == 60 and PyUnicode_READ_CHAR(text, 1) == 62:  # <>
        return "!="
    if (65 <= c <= 90) or (97 <= c <= 122):
        if n == 3 and (c == 65 or c == 97):
            return "AND"
        if n == 2 and (c == 79 or c == 111):
            return "OR"
        return text.upper()
    return text


cdef object SLOW = object()
cdef tuple NO_ON_USING = (None, None)  # Builder.on_none
cdef tuple COMMA_JOIN = (",", False)  # Builder.joinop_comma
# Builder.joinop_kw's (kind, natural) of each one-word join type written in upper case
# (LEFT JOIN, CROSS JOIN ...), which are a keyword's kept string; builder.join_kind's answer
cdef dict JOIN_ONE = {}
for _w in _JOIN_BITS:
    if join_kind([_w]) is not None:
        JOIN_ONE[_w] = join_kind([_w])

# Reductions done here rather than in builder.py (the commonest expression nodes); each
# builds exactly what the Builder method of the same name builds.
cdef enum:
    F_CALL = 0
    F_INTEGER = 1
    F_BINARY = 2
    F_UNARY = 3
    F_PAREN = 4
    F_STRING = 5
    F_NULL = 6
    F_COLUMN = 7
    F_FLOAT = 8
    F_UNARY_MINUS = 9
    F_SCANPT = 10
    F_LIST1 = 11
    F_LIST_APPEND = 12
    F_EMPTY_LIST = 13
    F_TRUE = 14
    F_FALSE = 15
    F_SECOND = 16
    F_THIRD = 17
    F_RCOL = 18
    F_ONESELECT = 19
    F_SELECT_PLAIN = 20
    F_UNARY_PLUS = 21
    F_FUNCTION = 22
    F_FUNCTION_STAR = 23
    F_FINISH = 24
    F_TYPETOKEN = 25
    F_CAST = 26
    F_FIRST = 27
    F_FROM_TABLE = 28
    F_ON_NONE = 29
    F_SORTLIST1 = 30
    F_SORTLIST_APPEND = 31
    F_IS = 32
    F_BETWEEN = 33
    F_IN_LIST = 34
    F_LIMIT = 35
    F_STL_PREFIX = 36
    F_JOINOP_COMMA = 37
    F_COLUMN2 = 38
    F_RSTAR = 39
    F_XFULLNAME = 40
    F_IN_SELECT = 41
    F_IS_NOT = 42
    F_CASE = 43
    F_CASE1 = 44
    F_CASE_APPEND = 45
    F_SUBQUERY = 46
    F_EXISTS = 47
    F_JOINOP_KW = 48
    F_NONE = 127    # (a rule without a reduction: its value is its one symbol's or None)
FAST_ALIASES = {"integer": F_INTEGER, "binary": F_BINARY, "unary": F_UNARY,
                "paren": F_PAREN, "string": F_STRING, "null": F_NULL, "column": F_COLUMN,
                "float_": F_FLOAT, "unary_minus": F_UNARY_MINUS, "scanpt": F_SCANPT,
                "list1": F_LIST1, "list_append": F_LIST_APPEND, "empty_list": F_EMPTY_LIST,
                "true": F_TRUE, "false": F_FALSE, "second": F_SECOND, "third": F_THIRD,
                "rcol": F_RCOL, "oneselect": F_ONESELECT, "select_plain": F_SELECT_PLAIN,
                "unary_plus": F_UNARY_PLUS, "function": F_FUNCTION,
                "function_star": F_FUNCTION_STAR, "finish": F_FINISH,
                "typetoken": F_TYPETOKEN, "cast": F_CAST, "sclp": F_FIRST,
                "from_table": F_FROM_TABLE, "on_none": F_ON_NONE, "sortlist1": F_SORTLIST1,
                "sortlist_append": F_SORTLIST_APPEND, "is_": F_IS, "between": F_BETWEEN,
                "in_list": F_IN_LIST, "limit": F_LIMIT, "stl_prefix": F_STL_PREFIX,
                "joinop_comma": F_JOINOP_COMMA, "column2": F_COLUMN2, "rstar": F_RSTAR,
                "xfullname": F_XFULLNAME, "in_select": F_IN_SELECT, "is_not": F_IS_NOT,
                "case": F_CASE, "case1": F_CASE1, "case_append": F_CASE_APPEND,
                "subquery": F_SUBQUERY, "exists": F_EXISTS, "joinop_kw": F_JOINOP_KW}

cdef enum:
    STACK_DEPTH = 100
    NOACT = -2147483647
    K_SPACE = -1
    K_ILLEGAL = -2
    K_NONE = -3

from libc.stdlib cimport malloc, free
from libc.string cimport memcmp

# ------------------------------------------------------------------ tables (set by init)
cdef int NSTATES = 0, NTERMS = 0, NNTS = 0, NRULES = 0
cdef int *ACTION = NULL       # NSTATES * NTERMS, NOACT when absent
cdef int *DEFAULT = NULL      # NSTATES, NOACT when none
cdef int *GOTO = NULL         # NSTATES * NNTS
cdef int *RULE_ORIGIN = NULL
cdef int *RULE_LEN = NULL
cdef char *RULE_START = NULL
cdef char *RULE_FAST = NULL
cdef char *RULE_UNIT = NULL   # per rule: one symbol, no reduction, not the start rule
cdef char *FALLBACK = NULL    # per terminal
cdef char *ACCEPT = NULL      # per state
cdef char *HAS_ID = NULL      # per state: the grammar has an action on ID there
cdef char *HAS_ANY = NULL     # per state: the grammar has an action on ANY there
cdef char *INT_ONLY = NULL    # per state: its every action reduces ``term: INTEGER``
cdef list RULE_FN = []
cdef dict KEYWORDS = {}
cdef object BUILDER = None
cdef object PARSED = None
cdef object QNAME = None

# Terminal numbers of the tokens the tokenizer makes.
cdef int T_END, T_ID, T_ANY, T_STRING, T_INTEGER, T_FLOAT, T_BLOB, T_VARIABLE
cdef int T_LP, T_RP, T_SEMI, T_COMMA, T_DOT, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_REM
cdef int T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_BITAND, T_BITOR, T_LSHIFT, T_RSHIFT
cdef int T_CONCAT, T_PTR, T_BITNOT, T_WINDOW, T_OVER, T_FILTER, T_AS, T_JOIN_KW

cdef char ID_LIKE[512]        # per terminal: getToken() of SQLite reports it as TK_ID
cdef list FIXED_TEXT = []     # per terminal: a text it often has (1 or 2 characters)


def init(tables, keywords, builder_class, parsed_class, qname_class, fallback_names):
    """Load the numbered tables (``tables.Tables``) into C arrays."""
    global NSTATES, NTERMS, NNTS, NRULES, ACTION, DEFAULT, GOTO, RULE_ORIGIN, RULE_LEN
    global FAST_NEW
    global HAS_ID, HAS_ANY, RULE_UNIT, INT_ONLY
    global RULE_START, RULE_FAST, FALLBACK, ACCEPT, RULE_FN, KEYWORDS, BUILDER, PARSED, QNAME
    global T_END, T_ID, T_ANY, T_STRING, T_INTEGER, T_FLOAT, T_BLOB, T_VARIABLE
    global T_LP, T_RP, T_SEMI, T_COMMA, T_DOT, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_REM
    global T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_BITAND, T_BITOR, T_LSHIFT, T_RSHIFT
    global T_CONCAT, T_PTR, T_BITNOT, T_WINDOW, T_OVER, T_FILTER, T_AS, T_JOIN_KW
    cdef int i, s
    term_no = {n: i for i, n in enumerate(tables.terminals)}
    NSTATES = len(tables.action)
    NTERMS = len(tables.terminals)
    NNTS = len(tables.nonterminals)
    NRULES = len(tables.rules)
    if NTERMS > 512:
        raise RuntimeError("too many terminals")
    ACTION = <int *> malloc(sizeof(int) * NSTATES * NTERMS)
    DEFAULT = <int *> malloc(sizeof(int) * NSTATES)
    GOTO = <int *> malloc(sizeof(int) * NSTATES * NNTS)
    RULE_ORIGIN = <int *> malloc(sizeof(int) * NRULES)
    RULE_LEN = <int *> malloc(sizeof(int) * NRULES)
    RULE_START = <char *> malloc(NRULES)
    RULE_FAST = <char *> malloc(NRULES)
    RULE_UNIT = <char *> malloc(NRULES)
    FALLBACK = <char *> malloc(NTERMS)
    ACCEPT = <char *> malloc(NSTATES)
    HAS_ID = <char *> malloc(NSTATES)
    HAS_ANY = <char *> malloc(NSTATES)
    INT_ONLY = <char *> malloc(NSTATES)
    for s in range(NSTATES):
        for i in range(NTERMS):
            ACTION[s * NTERMS + i] = NOACT
        for t, a in tables.action[s].items():
            ACTION[s * NTERMS + t] = a
        d = tables.default[s]
        DEFAULT[s] = NOACT if d is None else d
        for i in range(NNTS):
            GOTO[s * NNTS + i] = -1
        for nt, g in tables.goto[s].items():
            GOTO[s * NNTS + nt] = g
        ACCEPT[s] = 1 if s in tables.accept else 0
    start_nt = tables.nonterminals.index("start")
    fns = []
    for i, (origin, length, alias, name) in enumerate(tables.rules):
        RULE_ORIGIN[i] = origin
        RULE_LEN[i] = length
        RULE_START[i] = 1 if origin == start_nt else 0
        fn = getattr(builder_class, alias, None) if alias else None
        if fn is None and not alias and length > 1:
            fn = getattr(builder_class, name, None)
        RULE_FAST[i] = FAST_ALIASES.get(fn.__name__, F_CALL) if fn is not None else F_NONE
        RULE_UNIT[i] = fn is None and length == 1 and not RULE_START[i]
        if fn is None and (alias or length > 1):
            raise RuntimeError(f"grammar.lark: no reduction for {alias or name}")
        fns.append(fn)
    RULE_FN = fns
    for i in range(NTERMS):
        FALLBACK[i] = 0
        ID_LIKE[i] = 0
    for n in fallback_names:
        FALLBACK[term_no[n]] = 1
        ID_LIKE[term_no[n]] = 1
    KEYWORDS = {k: term_no[v] for k, v in keywords.items()}
    kw_init(KEYWORDS)
    BUILDER = builder_class
    PARSED = parsed_class
    FAST_NEW = _check_fast_new()
    QNAME = qname_class
    T_END = term_no["$END"]; T_ID = term_no["ID"]; T_ANY = term_no["ANY"]
    T_STRING = term_no["STRING"]; T_INTEGER = term_no["INTEGER"]; T_FLOAT = term_no["FLOAT"]
    T_BLOB = term_no["BLOB"]; T_VARIABLE = term_no["VARIABLE"]; T_LP = term_no["LP"]
    T_RP = term_no["RP"]; T_SEMI = term_no["SEMI"]; T_COMMA = term_no["COMMA"]
    # A terminal without an action in a state takes the state's default reduction unless
    # it falls back to ID there or the state has an ANY action (parse_at tests those
    # first): that default is stored in ACTION itself, so the loop's one lookup finds it.
    for s in range(NSTATES):
        HAS_ID[s] = ACTION[s * NTERMS + T_ID] != NOACT
        HAS_ANY[s] = ACTION[s * NTERMS + T_ANY] != NOACT
    for s in range(NSTATES):
        for i in range(NTERMS):
            if ACTION[s * NTERMS + i] != NOACT:
                continue
            if FALLBACK[i] and HAS_ID[s]:
                continue
            if HAS_ANY[s] and i != T_END:
                continue
            ACTION[s * NTERMS + i] = DEFAULT[s]
    # A state reached by shifting an INTEGER whose every action (the default one too)
    # reduces it by ``term: INTEGER``: F_INTEGER reads a short decimal's digits from the
    # text, so parse_at pushes no string for such a token there (see int_only_states).
    for s in range(NSTATES):
        INT_ONLY[s] = _reduces_integer_only(s)
    T_DOT = term_no["DOT"]; T_PLUS = term_no["PLUS"]; T_MINUS = term_no["MINUS"]
    T_STAR = term_no["STAR"]; T_SLASH = term_no["SLASH"]; T_REM = term_no["REM"]
    T_EQ = term_no["EQ"]; T_NE = term_no["NE"]; T_LT = term_no["LT"]; T_LE = term_no["LE"]
    T_GT = term_no["GT"]; T_GE = term_no["GE"]; T_BITAND = term_no["BITAND"]
    T_BITOR = term_no["BITOR"]; T_LSHIFT = term_no["LSHIFT"]; T_RSHIFT = term_no["RSHIFT"]
    T_CONCAT = term_no["CONCAT"]; T_PTR = term_no["PTR"]; T_BITNOT = term_no["BITNOT"]
    T_WINDOW = term_no["WINDOW"]; T_OVER = term_no["OVER"]; T_FILTER = term_no["FILTER"]
    T_AS = term_no["AS"]; T_JOIN_KW = term_no["JOIN_KW"]
    for n in ("ID", "STRING", "JOIN_KW", "WINDOW", "OVER"):
        ID_LIKE[term_no[n]] = 1
    global FIXED_TEXT
    FIXED_TEXT = [None] * NTERMS
    for n, text in (("LP", "("), ("RP", ")"), ("SEMI", ";"), ("COMMA", ","), ("DOT", "."),
                    ("PLUS", "+"), ("MINUS", "-"), ("STAR", "*"), ("SLASH", "/"),
                    ("REM", "%"), ("EQ", "="), ("LT", "<"), ("GT", ">"), ("BITAND", "&"),
                    ("BITOR", "|"), ("BITNOT", "~"), ("LE", "<="), ("GE", ">="), ("NE", "!="),
                    ("LSHIFT", "<<"), ("RSHIFT", ">>"), ("CONCAT", "||"), ("PTR", "->")):
        FIXED_TEXT[term_no[n]] = text


cdef bint _reduces_integer_only(int s) noexcept:
    cdef int i, a
    cdef bint seen = False
    for i in range(NTERMS + 1):
        a = ACTION[s * NTERMS + i] if i < NTERMS else DEFAULT[s]
        if a == NOACT:
            continue
        if a >= 0 or RULE_FAST[-1 - a] != F_INTEGER:
            return False
        seen = True
    return seen


def int_only_states():
    """The states where parse_at pushes no value for a short decimal INTEGER (for tests)."""
    return [s for s in range(NSTATES) if INT_ONLY[s]]


# ------------------------------------------------------------------ tokenizer

cdef inline bint is_space(Py_UCS4 c) noexcept:
    return c == 32 or (9 <= c <= 13)


cdef inline bint is_digit(Py_UCS4 c) noexcept:
    return 48 <= c <= 57


cdef inline bint is_xdigit(Py_UCS4 c) noexcept:
    return (48 <= c <= 57) or (97 <= c <= 102) or (65 <= c <= 70)


cdef inline bint is_id_char(Py_UCS4 c) noexcept:
    if c >= 128:
        return True
    return (48 <= c <= 57) or (97 <= c <= 122) or (65 <= c <= 90) or c == 95 or c == 36


cdef inline bint is_id_start(Py_UCS4 c) noexcept:
    if c >= 128:
        return True
    return (97 <= c <= 122) or (65 <= c <= 90) or c == 95


cdef struct Src:
    # The characters of the SQL text, read in place (PEP 393: 1, 2 or 4 bytes each).
    int kind
    void *data
    # set by next_token: the keyword-table slot of the word just read when it is a keyword
    # written in upper case (its value is then the table's string), else -1
    int word
    # set by next_token for a word (a name or keyword not quoted): the hash of its
    # characters kept_text uses
    unsigned int hash
    # set by parse_at: the number of tokens shifted so far (see F_FINISH)
    Py_ssize_t shifted


cdef inline Src source(str sql) except *:
    cdef Src src
    if PyUnicode_READY(sql) < 0:
        raise MemoryError()
    src.kind = PyUnicode_KIND(sql)
    src.data = PyUnicode_DATA(sql)
    src.word = -1
    src.hash = 0
    src.shifted = 0
    return src


cdef inline Py_UCS4 ch(const Src *src, Py_ssize_t i) noexcept:
    """The character at ``i`` (the caller keeps ``i`` inside the text)."""
    return PyUnicode_READ(src.kind, src.data, i)


cdef inline Py_UCS4 at(Src *src, Py_ssize_t i, Py_ssize_t n) noexcept:
    return ch(src, i) if i < n else 0


cdef int next_token(Src *src, Py_ssize_t i, Py_ssize_t n, Py_ssize_t *end) noexcept:
    """The terminal number of the token at ``i`` (K_SPACE, K_ILLEGAL), its end in *end."""
    src.word = -1
    cdef Py_UCS4 c = ch(src, i), d
    cdef Py_ssize_t j
    cdef int kind, named
    # (the commonest first: words, blanks, numbers; then one switch on the character)
    if is_id_start(c):
        if (c == 120 or c == 88) and at(src, i + 1, n) == 39:  # x'
            j = i + 2
            while j < n and is_xdigit(ch(src, j)):
                j += 1
            if j >= n or ch(src, j) != 39 or (j - i) % 2:
                while j < n and ch(src, j) != 39:
                    j += 1
                end[0] = j + 1 if j < n else n
                return K_ILLEGAL
            end[0] = j + 1
            return T_BLOB
        return word(src, i, n, end)
    if is_space(c):
        j = i + 1
        while j < n and is_space(ch(src, j)):
            j += 1
        end[0] = j
        return K_SPACE
    if is_digit(c):
        return number(src, i, n, end)
    end[0] = i + 1
    if c == 44:  # ,
        return T_COMMA
    elif c == 40:  # (
        return T_LP
    elif c == 41:  # )
        return T_RP
    elif c == 61:  # =
        if at(src, i + 1, n) == 61:
            end[0] = i + 2
        return T_EQ
    elif c == 42:  # *
        return T_STAR
    elif c == 43:  # +
        return T_PLUS
    elif c == 45:  # -
        d = at(src, i + 1, n)
        if d == 45:
            j = i + 2
            while j < n and ch(src, j) != 10:
                j += 1
            end[0] = j + 1 if j < n else n
            return K_SPACE
        if d == 62:  # >
            end[0] = i + 3 if at(src, i + 2, n) == 62 else i + 2
            return T_PTR
        return T_MINUS
    elif c == 59:  # ;
        return T_SEMI
    elif c == 60:  # <
        d = at(src, i + 1, n)
        if d == 61:
            end[0] = i + 2
            return T_LE
        if d == 62:
            end[0] = i + 2
            return T_NE
        if d == 60:
            end[0] = i + 2
            return T_LSHIFT
        return T_LT
    elif c == 62:  # >
        d = at(src, i + 1, n)
        if d == 61:
            end[0] = i + 2
            return T_GE
        if d == 62:
            end[0] = i + 2
            return T_RSHIFT
        return T_GT
    elif c == 39 or c == 34 or c == 96:  # ' " `
        j = i + 1
        while True:
            while j < n and ch(src, j) != c:
                j += 1
            if j >= n:
                end[0] = n
                return K_ILLEGAL
            if j + 1 < n and ch(src, j + 1) == c:
                j += 2
                continue
            end[0] = j + 1
            return T_STRING if c == 39 else T_ID
    elif c == 46:  # .
        if is_digit(at(src, i + 1, n)):
            return number(src, i, n, end)
        return T_DOT
    elif c == 47:  # /
        if at(src, i + 1, n) == 42:
            j = i + 2
            while j + 1 < n and not (ch(src, j) == 42 and ch(src, j + 1) == 47):
                j += 1
            end[0] = j + 2 if j + 1 < n else n
            return K_SPACE
        return T_SLASH
    elif c == 37:  # %
        return T_REM
    elif c == 33:  # !
        if at(src, i + 1, n) == 61:
            end[0] = i + 2
            return T_NE
        return K_ILLEGAL
    elif c == 124:  # |
        if at(src, i + 1, n) == 124:
            end[0] = i + 2
            return T_CONCAT
        return T_BITOR
    elif c == 38:  # &
        return T_BITAND
    elif c == 126:  # ~
        return T_BITNOT
    elif c == 91:  # [
        j = i + 1
        while j < n and ch(src, j) != 93:
            j += 1
        if j >= n:
            end[0] = n
            return K_ILLEGAL
        end[0] = j + 1
        return T_ID
    elif c == 63:  # ?
        j = i + 1
        while j < n and is_digit(ch(src, j)):
            j += 1
        end[0] = j
        return T_VARIABLE
    elif c == 36 or c == 64 or c == 58 or c == 35:  # $ @ : #
        named = 0
        kind = T_VARIABLE
        j = i + 1
        while j < n:
            d = ch(src, j)
            if is_id_char(d):
                named += 1
            elif d == 40 and named > 0:
                j += 1
                while j < n and not is_space(ch(src, j)) and ch(src, j) != 41:
                    j += 1
                if j < n and ch(src, j) == 41:
                    j += 1
                else:
                    kind = K_ILLEGAL
                break
            elif d == 58 and at(src, j + 1, n) == 58:
                j += 1
            else:
                break
            j += 1
        end[0] = j
        return kind if named > 0 else K_ILLEGAL
    return K_ILLEGAL


# ------------------------------------------------------------------ keywords
# The keywords (ASCII, matched case-insensitively) in an open-addressing hash table, so that
# telling a keyword from an identifier makes no Python string.
cdef enum:
    KW_SLOTS = 1024       # a power of two, well above twice the number of keywords
    KW_MAX = 17           # the longest keyword
cdef char KW_TEXT[KW_SLOTS][KW_MAX + 1]
cdef int KW_LEN[KW_SLOTS]  # 0: an empty slot
cdef int KW_TERM[KW_SLOTS]
cdef list KW_WORD = [None] * KW_SLOTS  # the keyword, upper case, as a str
cdef unsigned int FNV_BASIS = 2166136261u
cdef unsigned int FNV_PRIME = 16777619u


cdef inline unsigned int kw_hash(const char *s, int n) noexcept:
    cdef unsigned int h = FNV_BASIS
    cdef int k
    for k in range(n):
        h = (h ^ <unsigned char> s[k]) * FNV_PRIME
    return h


cdef void kw_init(dict keywords) except *:
    cdef int k, n
    cdef unsigned int slot
    cdef bytes b
    for slot in range(KW_SLOTS):
        KW_LEN[slot] = 0
    for word, term in keywords.items():
        b = (<str> word).upper().encode("ascii")
        n = len(b)
        if n > KW_MAX or n == 0:
            raise RuntimeError(f"keyword {word!r} is longer than KW_MAX")
        slot = kw_hash(b, n) & (KW_SLOTS - 1)
        while KW_LEN[slot]:
            slot = (slot + 1) & (KW_SLOTS - 1)
        for k in range(n):
            KW_TEXT[slot][k] = b[k]
        KW_LEN[slot] = n
        KW_TERM[slot] = term
        KW_WORD[slot] = b.decode("ascii")


# The class of a character < 256 within a word: not a word character, a lower-case ASCII
# letter, another ASCII word character (upper-case letter, digit, _ or $), or not ASCII
# (every character >= 128 is a word character, as in SQLite).
cdef enum:
    WC_NONE = 0
    WC_LOWER = 1
    WC_OTHER = 2
    WC_WIDE = 3
cdef unsigned char WORD_CLASS[256]


cdef void word_class_init() noexcept:
    cdef int c
    for c in range(256):
        if 97 <= c <= 122:
            WORD_CLASS[c] = WC_LOWER
        elif (65 <= c <= 90) or (48 <= c <= 57) or c == 95 or c == 36:
            WORD_CLASS[c] = WC_OTHER
        elif c >= 128:
            WORD_CLASS[c] = WC_WIDE
        else:
            WORD_CLASS[c] = WC_NONE


word_class_init()


cdef int word(Src *src, Py_ssize_t i, Py_ssize_t n, Py_ssize_t *end) noexcept:
    """The terminal of the word (a name or keyword, not quoted) at ``i``: its keyword's, else
    T_ID. One pass over its characters finds its end and computes both the hash of its
    upper-cased form (the keyword table's, kw_hash) and that of its characters as written
    (kept_text's, left in src.hash)."""
    cdef unsigned int h = FNV_BASIS, hk = FNV_BASIS, slot
    cdef Py_ssize_t j = i, m
    cdef unsigned int c  # (not Py_UCS4: Cython's arithmetic on that makes a str)
    cdef unsigned char cls, seen = 0  # (the classes met, or-ed)
    cdef const unsigned char *p = <const unsigned char *> src.data
    cdef int k
    if src.kind == 1:  # (the commonest text: one byte a character, read straight)
        while j < n:
            c = p[j]
            cls = WORD_CLASS[c]
            if cls == WC_NONE:
                break
            seen |= 1 << cls
            h = (h ^ c) * FNV_PRIME
            if cls == WC_LOWER:
                c -= 32
            hk = (hk ^ c) * FNV_PRIME
            j += 1
    else:
        while j < n:
            c = ch(src, j)
            cls = WORD_CLASS[c] if c < 256 else WC_WIDE
            if cls == WC_NONE:
                break
            seen |= 1 << cls
            h = (h ^ c) * FNV_PRIME
            if cls == WC_LOWER:
                c -= 32
            hk = (hk ^ c) * FNV_PRIME
            j += 1
    end[0] = j
    src.hash = h
    m = j - i
    if m > KW_MAX or seen & (1 << WC_WIDE):  # (keywords match ASCII case-insensitively)
        return T_ID
    slot = hk & (KW_SLOTS - 1)
    while KW_LEN[slot]:
        if KW_LEN[slot] == m:
            k = 0
            while k < m:
                c = ch(src, i + k)
                if 97 <= c <= 122:
                    c -= 32
                if c != <unsigned char> KW_TEXT[slot][k]:
                    break
                k += 1
            if k == m:
                if not seen & (1 << WC_LOWER):  # (written in upper case)
                    src.word = <int> slot
                return KW_TERM[slot]
        slot = (slot + 1) & (KW_SLOTS - 1)
    return T_ID


cdef int number(Src *src, Py_ssize_t i, Py_ssize_t n, Py_ssize_t *end) noexcept:
    cdef Py_ssize_t j
    cdef int kind = T_INTEGER
    cdef Py_UCS4 d
    if ch(src, i) == 48 and (at(src, i + 1, n) == 120 or at(src, i + 1, n) == 88) \
            and is_xdigit(at(src, i + 2, n)):
        j = i + 3
        while j < n and is_xdigit(ch(src, j)):
            j += 1
        end[0] = j
        return T_INTEGER
    j = i
    while j < n and is_digit(ch(src, j)):
        j += 1
    if j < n and ch(src, j) == 46:
        kind = T_FLOAT
        j += 1
        while j < n and is_digit(ch(src, j)):
            j += 1
    if j < n and (ch(src, j) == 101 or ch(src, j) == 69):
        d = at(src, j + 1, n)
        if is_digit(d) or ((d == 43 or d == 45) and is_digit(at(src, j + 2, n))):
            kind = T_FLOAT
            j += 2
            while j < n and is_digit(ch(src, j)):
                j += 1
    while j < n and is_id_char(ch(src, j)):
        kind = K_ILLEGAL
        j += 1
    end[0] = j
    return kind


def tokenize(str sql not None):
    """[(terminal number or -1 space / -2 illegal, start, end)] (for tests)."""
    cdef Py_ssize_t i = 0, n = len(sql), e = 0
    cdef Src src = source(sql)
    out = []
    while i < n:
        k = next_token(&src, i, n, &e)
        out.append((k, i, e))
        i = e
    return out


cdef int peek(Src *src, Py_ssize_t i, Py_ssize_t n, Py_ssize_t *end) noexcept:
    cdef int k
    while i < n:
        k = next_token(src, i, n, end)
        if k != K_SPACE:
            return k
        i = end[0]
    end[0] = n
    return K_NONE


cdef int window_kind(int kind, Src *src, Py_ssize_t e, Py_ssize_t n, int last) noexcept:
    cdef Py_ssize_t j = 0
    cdef int k1, k2
    if kind == T_WINDOW:
        k1 = peek(src, e, n, &j)
        if k1 < 0 or not ID_LIKE[k1]:
            return T_ID
        k2 = peek(src, j, n, &j)
        return T_WINDOW if k2 == T_AS else T_ID
    if last != T_RP:
        return T_ID
    k1 = peek(src, e, n, &j)
    if kind == T_OVER:
        return T_OVER if (k1 == T_LP or (k1 >= 0 and ID_LIKE[k1])) else T_ID
    return T_FILTER if k1 == T_LP else T_ID


# Texts of names and keywords recently read (by a hash of their characters), so that a
# name the statements keep using (col0, tab1) is one kept string, not a new one per token.
cdef enum:
    TEXT_SLOTS = 512      # a power of two
    TEXT_MAX = 32         # longer texts are not kept
    RCOL_KEPT_MAX = 12    # a result column's text is kept up to this length
cdef PyObject *TEXTS[TEXT_SLOTS]  # (each a kept str, owned here, or NULL)


cdef object kept_text(const Src *src, str sql, Py_ssize_t s, Py_ssize_t e):
    """sql[s:e], the kept string when it holds the same characters."""
    cdef unsigned int h = FNV_BASIS
    cdef Py_ssize_t i
    if e - s > TEXT_MAX:
        return sql[s:e]
    for i in range(s, e):
        h = (h ^ <unsigned int> ch(src, i)) * FNV_PRIME
    return kept_hashed(src, sql, s, e, h)


cdef object kept_hashed(const Src *src, str sql, Py_ssize_t s, Py_ssize_t e, unsigned int h):
    """kept_text, given the hash of the characters (word() computes a word's as it reads
    it)."""
    cdef Py_ssize_t n = e - s
    cdef unsigned int slot
    cdef PyObject *kept
    if n > TEXT_MAX:
        return sql[s:e]
    slot = h & (TEXT_SLOTS - 1)
    kept = TEXTS[slot]
    if kept != NULL and _ulen(kept) == n and _ukind(kept) == src.kind and \
            memcmp(_udata(kept), (<char *> src.data) + s * src.kind, n * src.kind) == 0:
        return <object> kept
    text = sql[s:e]
    Py_INCREF(text)
    TEXTS[slot] = <PyObject *> text
    Py_XDECREF(kept)
    return text


cdef object token_value(int kind, str sql, Py_ssize_t s, Py_ssize_t e, int word,
                        unsigned int hash, const Src *src):
    """The value of token ``kind`` at [s, e) (``word``: its keyword slot, ``hash``: the hash
    of its characters when it is a word, see Src); a keyword or operator written as the
    table holds it is that kept string (equal to its text)."""
    cdef Py_UCS4 c
    cdef object fixed
    if word >= 0:
        return KW_WORD[word]
    fixed = FIXED_TEXT[kind]
    if fixed is not None and e - s == len(<str> fixed) and (
            e - s == 1 or ch(src, s) == PyUnicode_READ_CHAR(fixed, 0)):
        return fixed
    c = ch(src, s)
    if kind == T_ID:
        if c == 34:
            return QNAME(sql[s + 1:e - 1].replace('""', '"'))
        if c == 91:
            return sql[s + 1:e - 1]
        if c == 96:
            return sql[s + 1:e - 1].replace("``", "`")
        return kept_hashed(src, sql, s, e, hash)  # (a name or a keyword taken as one)
    if kind == T_STRING:
        text = sql[s + 1:e - 1]
        return text.replace("''", "'") if "'" in text else text
    if kind == T_BLOB:
        return bytes.fromhex(sql[s + 2:e - 1])
    if kind == T_INTEGER or kind == T_FLOAT or kind == T_VARIABLE:
        return sql[s:e]
    if is_id_start(c):
        return kept_hashed(src, sql, s, e, hash)  # (a keyword not in upper case)
    return kept_text(src, sql, s, e)  # (==, <>, ->>)


cdef object syntax_error(str sql, Py_ssize_t s, Py_ssize_t e):
    if e <= s:
        return OperationalError("incomplete input")
    return OperationalError(f'near "{sql[s:e]}": syntax error')


# ------------------------------------------------------------------ the LALR loop

cdef object fast_reduce(int code, PyObject **values, int base, int length, Py_ssize_t s,
                        Py_ssize_t e, str sql, Py_ssize_t stmt_start, int *features,
                        const Src *src):
    """The value of reducing rule ``code`` (a F_* number) over values[base:base+length],
    or SLOW when Builder's method must do it (the rarer cases, and every error)."""
    cdef str text
    cdef list lst
    cdef Py_ssize_t a, b
    cdef Py_UCS4 c
    cdef const char *p
    cdef char *endp
    cdef double d
    # (an if/elif chain on the code: Cython makes it one C switch)
    if code == F_COLUMN:
        name = <object> values[base]
        if type(name) is QNAME:
            return new_column(str(name), None, True, s)
        a = len(<str> name)
        c = PyUnicode_READ_CHAR(name, 0) if a else 0
        if (a == 4 and (c == 116 or c == 84)) or (a == 5 and (c == 102 or c == 70)):
            low = (<str> name).lower()  # (only these can be TRUE or FALSE)
            if low == "true":
                return new_literal(1, s, True)
            if low == "false":
                return new_literal(0, s, True)
        return new_column(name, None, False, s)
    elif code == F_BINARY:
        return new_binary(binary_op(<str> <object> values[base + 1]), <object> values[base],
                          <object> values[base + 2], s)
    elif code == F_INTEGER:
        # a decimal of at most 18 digits is read here; hex and longer ones by Builder
        a = stmt_start + s
        b = stmt_start + e
        if b - a > 18 or (b - a > 1 and (ch(src, a + 1) == 120 or ch(src, a + 1) == 88)):
            return SLOW
        return new_literal(int_obj(decimal_value(src, a, b)), s)
    elif code == F_SCANPT:
        return int_obj(s)
    elif code == F_PAREN or code == F_SECOND:
        return <object> values[base + 1]
    elif code == F_RCOL:
        # sclp scanpt expr scanpt as: the text between the scan points, trailing space cut
        a = stmt_start + <Py_ssize_t> <object> values[base + 1]
        b = stmt_start + <Py_ssize_t> <object> values[base + 3]
        while b > a and is_space(ch(src, b - 1)):
            b -= 1
        lst = <object> values[base]
        # (a short text, mostly a name, is often written again by the next statements; a
        # longer one, an expression, seldom: kept, it would push a name out of the table)
        lst.append(new_result_column(<object> values[base + 2], <object> values[base + 4],
                                     kept_text(src, sql, a, b) if b - a <= RCOL_KEPT_MAX
                                     else sql[a:b]))
        return lst
    elif code == F_FLOAT:
        # (what float() does with such a token, without its checks for blanks and _)
        p = _utf8(<object> values[base], &a)
        d = PyOS_string_to_double(p, &endp, NULL)
        if endp != p + a:
            return SLOW
        return new_literal(d, s)
    elif code == F_EMPTY_LIST:
        return []
    elif code == F_FIRST:
        return <object> values[base]
    elif code == F_THIRD:
        return <object> values[base + 2]
    elif code == F_ONESELECT:
        if <object> values[base + 7] is None and <object> values[base + 8] is None:
            return (new_select_core(values, base, s, int_obj(features[0])), None)
        return (new_select_core(values, base, s, int_obj(features[0])),
                new_tail(<object> values[base + 7], <object> values[base + 8]))
    elif code == F_SELECT_PLAIN:
        # (a compound's checks are Builder's; a lone core or VALUES needs none)
        body_tail = <object> values[base]
        if len(<tuple> body_tail) != 2:
            return SLOW
        return new_select((<tuple> body_tail)[0], (<tuple> body_tail)[1], s)
    elif code == F_FROM_TABLE:
        return from_table(values, base, s)
    elif code == F_ON_NONE:
        return NO_ON_USING
    elif code == F_FINISH:
        # No depth test for a text too short to nest too deep, nor for a statement of at
        # most MAX_EXPR_DEPTH tokens: each expression node on a path from the root down
        # stands for a token of its own (an operator, a keyword, a name, a literal; a
        # parenthesis makes no node; IS [NOT] TRUE/FALSE's CASE and NOT two nodes for its
        # two or three tokens), so no path is longer than the tokens shifted.
        if e - s < MIN_TEXT_FOR_DEPTH or src.shifted <= MAX_EXPR_DEPTH:
            return <object> values[base]
        return SLOW
    elif code == F_SORTLIST1:
        return [new_ordering_term(<object> values[base], <object> values[base + 1],
                                  <object> values[base + 2])]
    elif code == F_SORTLIST_APPEND:
        lst = <object> values[base]
        lst.append(new_ordering_term(<object> values[base + 2], <object> values[base + 3],
                                     <object> values[base + 4]))
        return lst
    elif code == F_TRUE:
        return True
    elif code == F_FALSE:
        return False
    elif code == F_LIST1:
        return [<object> values[base]]
    elif code == F_LIST_APPEND:
        lst = <object> values[base]
        lst.append(<object> values[base + length - 1])
        return lst
    elif code == F_IS:
        if may_be_truth(<object> values[base + length - 1]):  # perhaps x IS TRUE / FALSE
            test = truth_test("IS", <object> values[base], <object> values[base + length - 1],
                              s, sql, stmt_start)
            if test is not None:
                return test
        return new_binary("IS", <object> values[base], <object> values[base + length - 1], s)
    elif code == F_BETWEEN:
        return new_between(<object> values[base], <object> values[base + 2],
                           <object> values[base + 4], <object> values[base + 1], s)
    elif code == F_IN_LIST:
        if not <object> values[base + 3]:
            return SLOW  # (x IN () is Builder's)
        return new_in_list(<object> values[base], <object> values[base + 3],
                           <object> values[base + 1], s)
    elif code == F_LIMIT:
        return (<object> values[base + 1], None)
    elif code == F_STRING:
        return new_literal(<object> values[base], s)
    elif code == F_NULL:
        return new_literal(None, s)
    elif code == F_FUNCTION or code == F_FUNCTION_STAR:
        # id LP distinct exprlist RP | id LP STAR RP (as Builder.function/function_star)
        name = <object> values[base]
        if type(name) is not str:
            name = str(name)
        if code == F_FUNCTION_STAR:
            args = []
            features[0] |= FEAT_FUNCTION
            return new_function(name, args, False, True, s)
        args = <object> values[base + 3]
        if len(<list> args) > MAX_FUNCTION_ARG:
            return SLOW  # the Builder reports it
        features[0] |= FEAT_FUNCTION
        return new_function(name, args, bool(<object> values[base + 2]), False, s)
    elif code == F_UNARY_PLUS:
        return new_unary("+", <object> values[base + 1], s)
    elif code == F_UNARY_MINUS:
        operand = <object> values[base + 1]
        if type(operand) is Literal and type(
                _get(operand, OFF[LITERAL + 0]) if FAST_NEW else operand.value) is float:
            return SLOW  # builder.py folds -9223372036854775808
        return new_unary("-", operand, s)
    elif code == F_UNARY:
        return new_unary((<str> <object> values[base]).upper(), <object> values[base + 1], s)
    elif code == F_TYPETOKEN:
        return sql[stmt_start + s:stmt_start + e]
    elif code == F_CAST:
        text = <object> values[base + 4]
        return new_cast(<object> values[base + 2], text if text else "", s)
    elif code == F_STL_PREFIX:
        return (<object> values[base], <object> values[base + 1])
    elif code == F_JOINOP_COMMA:
        return COMMA_JOIN
    elif code == F_COLUMN2:
        return new_column(str(<object> values[base + 2]), str(<object> values[base]), False, s)
    elif code == F_RSTAR:
        lst = <object> values[base]
        lst.append(new_star(<object> values[base + 1]))
        return lst
    elif code == F_XFULLNAME:
        return new_table_ref(<object> values[base], None, None, s)
    elif code == F_IN_SELECT:
        return new_in_select(<object> values[base], <object> values[base + 3],
                             <object> values[base + 1], s)
    elif code == F_IS_NOT:
        if may_be_truth(<object> values[base + length - 1]):  # perhaps x IS NOT TRUE / FALSE
            test = truth_test("IS NOT", <object> values[base], <object> values[base + length - 1],
                              s, sql, stmt_start)
            if test is not None:
                return test
        return new_binary("IS NOT", <object> values[base], <object> values[base + length - 1], s)
    elif code == F_CASE:
        return new_case(<object> values[base + 1], <object> values[base + 2],
                        <object> values[base + 3], s)
    elif code == F_CASE1:
        return [(<object> values[base + 1], <object> values[base + 3])]
    elif code == F_CASE_APPEND:
        lst = <object> values[base]
        lst.append((<object> values[base + 2], <object> values[base + 4]))
        return lst
    elif code == F_JOINOP_KW:
        # (JOIN_KW JOIN; SLOW for a word not in upper case, two or three words, an error)
        return JOIN_ONE.get(<object> values[base], SLOW) if length == 2 else SLOW
    elif code == F_SUBQUERY:
        return new_subquery(Subquery, SUBQUERY, <object> values[base + 1], s)
    elif code == F_EXISTS:
        return new_subquery(Exists, EXISTS, <object> values[base + 2], s)
    return SLOW


cdef inline bint may_be_truth(object right) except -1:
    """``right`` passes truth_test's first tests (a Literal whose value is the int 0 or
    1), so that ``x IS NULL`` and the like make no call of it."""
    if type(right) is not Literal:
        return False
    value = _get(right, OFF[LITERAL + 0]) if FAST_NEW else right.value
    return type(value) is int and (value == 0 or value == 1)


cdef inline long long decimal_value(const Src *src, Py_ssize_t a, Py_ssize_t b) noexcept:
    """The value of the digits at [a, b) of the parsed text (at most 18 of them)."""
    cdef long long v = 0
    cdef Py_ssize_t i
    for i in range(a, b):
        v = v * 10 + (<long long> ch(src, i) - 48)
    return v


cdef object from_table(PyObject **values, int base, Py_ssize_t s):
    """stl_prefix nm dbnm as on_using (as Builder.from_table)."""
    prefix = <object> values[base]
    n1 = <object> values[base + 1]
    n2 = <object> values[base + 2]
    on_using = <object> values[base + 4]
    if n2 is None:
        item = new_table_ref(n1, None, <object> values[base + 3], s if prefix is None else -1)
    else:
        item = new_table_ref(n2, n1, <object> values[base + 3], s if prefix is None else -1)
    if prefix is None:
        if on_using is NO_ON_USING:
            return item
        return SLOW  # (ON or USING without a join: Builder reports it)
    kind_natural = (<tuple> prefix)[1]
    return new_join((<tuple> prefix)[0], item, (<tuple> kind_natural)[0],
                    (<tuple> kind_natural)[1], (<tuple> on_using)[0], (<tuple> on_using)[1], s)


def parse_one(str sql not None, Py_ssize_t start=0):
    """The first statement at or after ``start`` (None when only blanks, comments and
    semicolons remain), as ``parser.parse_one``."""
    cdef Py_ssize_t n = len(sql), e = 0
    cdef Src src = source(sql)
    cdef int k
    while start < n:
        k = next_token(&src, start, n, &e)
        if k != K_SPACE and k != T_SEMI:
            return parse_at(sql, start, &src, k, e)
        start = e
    return None


cdef object builder_reduce(object builder, int r, PyObject **values, Py_ssize_t lo,
                           Py_ssize_t hi, Py_ssize_t lookahead, Py_ssize_t s, Py_ssize_t e,
                           int *features):
    """The value of reducing rule ``r`` over values[lo:hi] by its Builder method, the
    Builder's features being ``*features`` before and after (parse_at keeps them)."""
    cdef Py_ssize_t i
    set_features(builder, features[0])
    builder.lookahead = lookahead
    v = (<list> RULE_FN)[r](builder, [<object> values[i] for i in range(lo, hi)], s, e)
    features[0] = features_of(builder)
    return v


# lalr calls builder_reduce through this pointer, so that the C compiler does not copy
# it into the loop (it would, being called once): the loop stays small enough for the
# compiler to inline the per-token helpers (token_value) into it.
ctypedef object (*BuilderReduce)(object, int, PyObject **, Py_ssize_t, Py_ssize_t,
                                 Py_ssize_t, Py_ssize_t, Py_ssize_t, int *)
cdef BuilderReduce BUILDER_REDUCE = builder_reduce


cdef inline void _put(PyObject **values, Py_ssize_t i, Py_ssize_t *size, object v) noexcept:
    """values[i] = v for the value stack, whose entries below ``*size`` hold a reference
    each (only this changes it, parse_at releases them); it grows by one when ``i`` is its
    size (a push is never further: parse_at tests the depth against STACK_DEPTH before
    each)."""
    cdef PyObject *old
    Py_INCREF(v)
    if i < size[0]:
        old = values[i]
        values[i] = <PyObject *> v
        Py_XDECREF(old)
    else:
        values[i] = <PyObject *> v
        size[0] += 1


cdef inline void _release(PyObject **values, Py_ssize_t size) noexcept:
    """Drops the value stack's references (its entries below ``size``)."""
    cdef Py_ssize_t i
    for i in range(size):
        Py_XDECREF(values[i])


cdef object parse_at(str sql, Py_ssize_t pos, const Src *first, int kind, Py_ssize_t e):
    """Parse the statement whose first token starts at ``pos`` (caller skipped blanks):
    ``kind``, ending at ``e``, as next_token read it over ``first`` (the text's Src)."""
    # The value stack: a C array beside the state stack (no list made and freed per
    # statement); [0] is the bottom state's. Its entries below vsize hold a reference each.
    cdef PyObject *values[STACK_DEPTH + 1]
    cdef Py_ssize_t vsize = 1
    values[0] = <PyObject *> None
    Py_INCREF(None)
    try:
        return lalr(sql, pos, first, kind, e, values, &vsize)
    finally:
        _release(values, vsize)


cdef object lalr(str sql, Py_ssize_t pos, const Src *first, int kind, Py_ssize_t e,
                 PyObject **values, Py_ssize_t *vsize):
    """parse_at's loop, over its value stack ``values`` (of size ``*vsize``)."""
    cdef Py_ssize_t n = len(sql)
    cdef Src src = first[0]
    cdef int states[STACK_DEPTH + 1]
    cdef Py_ssize_t starts[STACK_DEPTH + 1]
    cdef Py_ssize_t ends[STACK_DEPTH + 1]
    cdef int top = 0          # index of the top state; symbols are 1..top
    cdef int t, a, st, r, length, code, last = -100, word = -1
    cdef unsigned int hash = 0
    cdef Py_ssize_t s = pos, rs, re_, last_end = pos, stmt_start = pos
    cdef object v
    cdef bint failed = False  # builder.error is set (see fail() in builder.py)
    # The Builder is made at the first reduction fast_reduce leaves to it (most statements
    # need none); until then the ast.FEAT_* bits of the nodes made (Builder.features) are
    # kept here, and they are handed to it before each of its reductions and read back.
    cdef int features = 0
    cdef object builder = None
    states[0] = 0
    src.shifted = 0
    while True:
        if kind == K_SPACE:
            s = e
            if s >= n:
                kind = T_END if last == T_SEMI else T_SEMI
                e = s
            else:
                kind = next_token(&src, s, n, &e)
            continue
        if kind == K_ILLEGAL:
            raise OperationalError(f'unrecognized token: "{sql[s:e]}"')
        word = src.word  # (before window_kind reads further)
        hash = src.hash
        if kind == T_WINDOW or kind == T_OVER or kind == T_FILTER:
            kind = window_kind(kind, &src, e, n, last)
        t = kind
        while True:
            st = states[top]
            a = ACTION[st * NTERMS + t]
            if a == NOACT:
                # (ACTION holds the default reduction already wherever neither the
                # fallback to ID nor the ANY wildcard applies: see init)
                if FALLBACK[t] and HAS_ID[st]:
                    t = T_ID
                    kind = T_ID
                    a = ACTION[st * NTERMS + t]
                elif HAS_ANY[st] and t != T_END:
                    t = T_ANY
                    a = ACTION[st * NTERMS + t]
                else:
                    a = DEFAULT[st]
                    if a == NOACT:
                        raise syntax_error(sql, s, e)
            if a >= 0:
                break
            r = -1 - a
            if RULE_UNIT[r]:
                # (its one symbol's value and span stay where they are: only the state
                # changes, and the depth is the one already tested when it was pushed)
                states[top] = GOTO[states[top - 1] * NNTS + RULE_ORIGIN[r]]
                continue
            length = RULE_LEN[r]
            if length:
                rs = starts[top - length + 1]
                re_ = ends[top]
            else:
                rs = re_ = s
            code = RULE_FAST[r]
            if code == F_NONE:
                v = <object> values[top - length + 1] if length else None
            else:
                v = SLOW
                if code != F_CALL:
                    v = fast_reduce(code, values, top - length + 1, length,
                                    rs - stmt_start, re_ - stmt_start, sql, stmt_start,
                                    &features, &src)
                if v is SLOW:
                    if builder is None:
                        builder = new_builder(sql, pos)
                    v = BUILDER_REDUCE(builder, r, values, top - length + 1, top + 1,
                                       s - stmt_start, rs - stmt_start, re_ - stmt_start,
                                       &features)
                    # (only builder.py's reductions record an error, and none clears one)
                    if not failed:
                        failed = builder.error is not None
            if RULE_START[r]:
                if failed:
                    raise OperationalError(builder.error)
                return new_parsed(v, sql[stmt_start:last_end], stmt_start,
                                  e if kind == T_END else s)
            top -= length
            if top >= STACK_DEPTH - 1:
                raise OperationalError("parser stack overflow")
            top += 1
            states[top] = GOTO[states[top - 1] * NNTS + RULE_ORIGIN[r]]
            _put(values, top, vsize, v)
            starts[top] = rs
            ends[top] = re_
        # shift
        if failed:
            raise OperationalError(builder.error)
        if top >= STACK_DEPTH - 1:
            raise OperationalError("parser stack overflow")
        top += 1
        states[top] = a
        src.shifted += 1
        if kind == T_INTEGER and INT_ONLY[a] and e - s <= 18 and (
                e - s == 1 or (ch(&src, s + 1) != 120 and ch(&src, s + 1) != 88)):
            # (F_INTEGER reduces it next, from the text: its string would go unread)
            _put(values, top, vsize, None)
        else:
            _put(values, top, vsize, token_value(kind, sql, s, e, word, hash, &src))
        starts[top] = s
        ends[top] = e
        if kind == T_SEMI:
            if ACCEPT[a]:
                s = e
                kind = T_END
                last = T_SEMI
                src.word = -1
                continue
        elif kind != T_END:
            last_end = e
        last = kind
        s = e
        while s < n and is_space(ch(&src, s)):  # (blanks here, not as a K_SPACE token)
            s += 1
        if s >= n:
            kind = T_END if last == T_SEMI else T_SEMI
            e = s
            src.word = -1
        else:
            kind = next_token(&src, s, n, &e)
