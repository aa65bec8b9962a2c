# cython: language_level=3
"""The compiled core of code generation: ``ProgramBuilder`` and the expression coder's hot
paths (values into registers, conditions into jumps, column reads, constants, comparisons
with their affinity and collation, the expression walk).

Every statement of the corpus is new, so each one is compiled, and the compiler's time goes
to these few functions, called once per expression node: here they are C functions calling
each other and the builder directly, with the node classes and opcodes held in C variables.
``compiler/builder.py`` and ``compiler/expr.py`` are the public modules (and hold the
documentation of what is done); expression kinds that are rare per statement (LIKE,
subqueries, row values, RAISE, trigger NEW/OLD, an enclosing query's aggregate) stay in
plain Python in ``expr.py``, which this module calls back through ``_bind``. This module
reads the AST and the resolved scope and appends instructions; it never runs code, touches
storage, or changes a node.
"""

cimport cython
from cpython cimport array
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from cpython.dict cimport PyDict_Update
from cpython.list cimport PyList_GET_ITEM, PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_FromVoidPtr
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
from libc.limits cimport LLONG_MIN
from libc.string cimport memcpy

cdef extern from "Python.h":
    void Py_SET_SIZE(object o, Py_ssize_t n)  # (an array's length, within its allocation)
    void PyList_SET_NULL "PyList_SET_ITEM" (object o, Py_ssize_t i, PyObject *v)
    # (an int's value in C, ``overflow`` -1 / 1 when it is below / above the 64-bit range:
    # one call instead of two comparisons with Python ints)
    long long PyLong_AsLongLongAndOverflow(object o, int *overflow) except? -1

import array as _pyarray

from sqlengine.compiler._resolve cimport (ColRef, Scope, Source, comparison_collation,
                                          expr_affinity, expr_coll_seq, lookup_name,
                                          lower_name, slot, slot_offset)
from sqlengine.compiler._where cimport c_where_begin, c_where_end
from sqlengine.compiler.resolve import (ROWID_NAMES, CoalesceRef, ResolvedColumn,
                                        expr_collation, no_such_column)
from sqlengine.compiler._resolve import has_explicit_collate as _has_explicit_collate
from sqlengine.compiler.explain import eqp_line as _eqp_line
from sqlengine.compiler.walk import operands as _operands
from sqlengine.errors import InternalError, OperationalError
from sqlengine.schema import Table as _SchemaTable
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O
from sqlengine.vdbe._functable cimport FunctionTable
from sqlengine.vdbe._values cimport affinity_of_decltype, comparison_affinity
from sqlengine.vdbe.program cimport Program
from sqlengine.vdbe._sorter cimport SortSpec

# ---- node classes, opcodes and flags as C variables -----------------------------------------
cdef object T_Literal = A.Literal
cdef object T_Column = A.Column
cdef object T_Param = A.Param
cdef object T_Unary = A.Unary
cdef object T_Binary = A.Binary
cdef object T_Collate = A.Collate
cdef object T_Cast = A.Cast
cdef object T_IsNull = A.IsNull
cdef object T_Between = A.Between
cdef object T_InList = A.InList
cdef object T_InSelect = A.InSelect
cdef object T_InTable = A.InTable
cdef object T_Case = A.Case
cdef object T_Like = A.Like
cdef object T_FunctionCall = A.FunctionCall
cdef object T_Subquery = A.Subquery
cdef object T_Exists = A.Exists
cdef object T_RowValue = A.RowValue
cdef object T_Raise = A.Raise
cdef object T_CurrentTime = A.CurrentTime
cdef object T_Star = A.Star
cdef object T_ResolvedColumn = ResolvedColumn
cdef object T_CoalesceRef = CoalesceRef
cdef object T_Table = _SchemaTable

# the fields of the common nodes, read without an attribute lookup (_resolve.pxd's slot)
cdef Py_ssize_t F_LIT_VALUE = slot_offset(A.Literal, "value")
cdef Py_ssize_t F_COL_NAME = slot_offset(A.Column, "name")
cdef Py_ssize_t F_COL_TABLE = slot_offset(A.Column, "table")
cdef Py_ssize_t F_BIN_OP = slot_offset(A.Binary, "op")
cdef Py_ssize_t F_BIN_LEFT = slot_offset(A.Binary, "left")
cdef Py_ssize_t F_BIN_RIGHT = slot_offset(A.Binary, "right")
cdef Py_ssize_t F_UN_OP = slot_offset(A.Unary, "op")
cdef Py_ssize_t F_UN_OPERAND = slot_offset(A.Unary, "operand")
cdef Py_ssize_t F_ISNULL_EXPR = slot_offset(A.IsNull, "expr")
cdef Py_ssize_t F_ISNULL_NEG = slot_offset(A.IsNull, "negated")
cdef Py_ssize_t F_BTW_EXPR = slot_offset(A.Between, "expr")
cdef Py_ssize_t F_BTW_LOW = slot_offset(A.Between, "low")
cdef Py_ssize_t F_BTW_HIGH = slot_offset(A.Between, "high")
cdef Py_ssize_t F_BTW_NEG = slot_offset(A.Between, "negated")
cdef Py_ssize_t F_FC_ARGS = slot_offset(A.FunctionCall, "args")
cdef Py_ssize_t F_FC_DISTINCT = slot_offset(A.FunctionCall, "distinct")
cdef Py_ssize_t F_FC_STAR = slot_offset(A.FunctionCall, "star")
cdef Py_ssize_t F_FC_FILTER = slot_offset(A.FunctionCall, "filter")
cdef Py_ssize_t F_FC_OVER = slot_offset(A.FunctionCall, "over")
cdef Py_ssize_t F_FC_NAME = slot_offset(A.FunctionCall, "name")
cdef Py_ssize_t F_CAST_EXPR = slot_offset(A.Cast, "expr")
cdef Py_ssize_t F_CAST_TYPE = slot_offset(A.Cast, "type_name")
cdef Py_ssize_t F_COLLATE_EXPR = slot_offset(A.Collate, "expr")
cdef Py_ssize_t F_CASE_OPERAND = slot_offset(A.Case, "operand")
cdef Py_ssize_t F_CASE_WHENS = slot_offset(A.Case, "whens")
cdef Py_ssize_t F_CASE_ELSE = slot_offset(A.Case, "else_")
cdef Py_ssize_t F_INL_NEG = slot_offset(A.InList, "negated")
cdef Py_ssize_t F_INSEL_EXPR = slot_offset(A.InSelect, "expr")
cdef Py_ssize_t F_INL_EXPR = slot_offset(A.InList, "expr")
cdef Py_ssize_t F_INL_ITEMS = slot_offset(A.InList, "items")
cdef Py_ssize_t F_LIKE_LEFT = slot_offset(A.Like, "left")
cdef Py_ssize_t F_LIKE_RIGHT = slot_offset(A.Like, "right")
cdef Py_ssize_t F_LIKE_ESCAPE = slot_offset(A.Like, "escape")
cdef Py_ssize_t F_TABLE_STORAGE = slot_offset(_SchemaTable, "storage")
cdef Py_ssize_t F_RC_REF = slot_offset(ResolvedColumn, "ref")

cdef int OP_OpenRead = O.OP_OpenRead
cdef int OP_OpenWrite = O.OP_OpenWrite
cdef int OP_Function = O.OP_Function
cdef int OP_AggStep = O.OP_AggStep
cdef int OP_AggFinal = O.OP_AggFinal
USES_TABLE = 1
USES_CALL = 2
# ProgramBuilder.uses: the bits each opcode (below N_USES) contributes
cdef enum:
    N_USES = 256
cdef unsigned char _USES_OF[N_USES]
for _op in (OP_OpenRead, OP_OpenWrite):
    _USES_OF[_op] = USES_TABLE
for _op in (OP_Function, OP_AggStep, OP_AggFinal):
    _USES_OF[_op] = USES_CALL
del _op
cdef int OP_Null = O.OP_Null
cdef int OP_Integer = O.OP_Integer
cdef int OP_Int64 = O.OP_Int64
cdef int OP_Real = O.OP_Real
cdef int OP_String8 = O.OP_String8
cdef int OP_Blob = O.OP_Blob
cdef int OP_SCopy = O.OP_SCopy
cdef int OP_Rowid = O.OP_Rowid
cdef int OP_Column = O.OP_Column
cdef int OP_Compare = O.OP_Compare
cdef int OP_Gosub = O.OP_Gosub
cdef int OP_Return = O.OP_Return
cdef int OP_Copy = O.OP_Copy
cdef int OP_RealAffinity = O.OP_RealAffinity
cdef int OP_Variable = O.OP_Variable
cdef int OP_Subtract = O.OP_Subtract
cdef int OP_BitNot = O.OP_BitNot
cdef int OP_Not = O.OP_Not
cdef int OP_And = O.OP_And
cdef int OP_Or = O.OP_Or
cdef int OP_Cast = O.OP_Cast
cdef int OP_IsNull = O.OP_IsNull
cdef int OP_NotNull = O.OP_NotNull
cdef int OP_Goto = O.OP_Goto
cdef int OP_Halt = O.OP_Halt
cdef int OP_Transaction = O.OP_Transaction
cdef int OP_If = O.OP_If
cdef int OP_IfNot = O.OP_IfNot
cdef int OP_IfPos = O.OP_IfPos
cdef int OP_MakeRecord = O.OP_MakeRecord
cdef int OP_Found = O.OP_Found
cdef int OP_IdxInsert = O.OP_IdxInsert
cdef int OP_SorterInsert = O.OP_SorterInsert
cdef int OP_DecrJumpZero = O.OP_DecrJumpZero
cdef int OP_ResultRow = O.OP_ResultRow
cdef int OP_Jump = O.OP_Jump
cdef int OP_Eq = O.OP_Eq
cdef int OP_Ne = O.OP_Ne
cdef int OP_Lt = O.OP_Lt
cdef int OP_Le = O.OP_Le
cdef int OP_Gt = O.OP_Gt
cdef int OP_Ge = O.OP_Ge
cdef int CMP_STOREP2 = O.CMP_STOREP2
cdef int CMP_NULLEQ = O.CMP_NULLEQ
cdef int CMP_JUMPIFNULL = O.CMP_JUMPIFNULL
cdef object AFF_NONE = O.AFF_NONE
cdef object AFF_REAL = O.AFF_REAL

cdef dict _ARITH = {"+": O.OP_Add, "-": O.OP_Subtract, "*": O.OP_Multiply,
                    "/": O.OP_Divide, "%": O.OP_Remainder, "||": O.OP_Concat,
                    "&": O.OP_BitAnd, "|": O.OP_BitOr, "<<": O.OP_ShiftLeft,
                    ">>": O.OP_ShiftRight}
cdef dict _CMP = {"=": O.OP_Eq, "!=": O.OP_Ne, "<": O.OP_Lt, "<=": O.OP_Le, ">": O.OP_Gt,
                  ">=": O.OP_Ge, "IS": O.OP_Eq, "IS NOT": O.OP_Ne}
cdef dict _NEGATE = {O.OP_Eq: O.OP_Ne, O.OP_Ne: O.OP_Eq, O.OP_Lt: O.OP_Ge,
                     O.OP_Ge: O.OP_Lt, O.OP_Gt: O.OP_Le, O.OP_Le: O.OP_Gt}
cdef dict _AFF_CODE = {}
for _i, _c in enumerate(O.AFF_CHARS):
    _AFF_CODE.setdefault(_c, _i)
assert O.AFF_CHARS == "@ABCDE"  # (_aff_p5's codes)

cdef object INT64_MAX = 9223372036854775807
cdef object INT64_MIN = -9223372036854775808
cdef object INT64_OVER = 9223372036854775808     # 2**63: -2**63 written as a literal
cdef object _MISSING = object()
cdef array.array _INTS = _pyarray.array("i")
cdef array.array _INT64S = _pyarray.array("q")

# sqlengine.compiler.expr, for the expression kinds coded in Python (set by _bind)
cdef object _expr = None


def _bind(module):
    """Called once by ``compiler/expr.py``: where the Python-coded expression kinds live."""
    global _expr
    _expr = module


# ------------------------------------------------------------------------------------------
# ProgramBuilder
# ------------------------------------------------------------------------------------------

@cython.final
cdef class ProgramBuilder:
    """Emits VM instructions, allocates registers and cursors, resolves labels.

    The instructions are kept column by column in arrays (opcode, P1, P2, P3, P5: the
    ``array.array`` types of the Program, written through C pointers) and two lists (P4,
    comment), so that emitting one allocates no Python object and ``finish_statement``
    hands them to the Program as they are. ``ops`` is
    a view of them as ``[opcode, p1, p2, p3, p4, p5, comment]`` rows (``ops[a][k]`` reads
    or patches a field in place, ``ops[a] = [...]`` replaces an instruction). A label is
    a negative integer handed out by ``new_label``; it may be used as a jump target (P2,
    and P1/P3 of Jump) before its address is known, and ``resolve`` pins it to the next
    instruction. ``finish`` replaces every label by its address and returns an immutable
    ``vdbe.program.Program``."""

    def __cinit__(self):
        self.n_ops = self.cap = self.n_labels = self.label_cap = 0

    def __dealloc__(self):
        PyMem_Free(self._labels)

    cdef int _grow(self) except -1:
        # The columns are arrays (the Program's types) so that finish_statement can hand
        # them over instead of copying them; _op .. _p3 point at their items. P4 and the
        # comments are lists with room for ``cap`` items whose length is ``n_ops`` (the
        # slots past it NULL and out of sight: gc.get_referents and the like may hand
        # the list to Python code), filled in place by emit, which lengthens them by
        # one: an append would regrow the list every few instructions.
        cdef Py_ssize_t cap = self.cap * 2 if self.cap else 64  # (most statements fit)
        if self.cap == 0:
            self._aop = array.clone(_INTS, cap, False)
            self._ap5 = array.clone(_INTS, cap, False)
            self._ap1 = array.clone(_INT64S, cap, False)
            self._ap2 = array.clone(_INT64S, cap, False)
            self._ap3 = array.clone(_INT64S, cap, False)
            self._p4 = PyList_New(cap)
            self._comments = PyList_New(cap)
            Py_SET_SIZE(self._p4, 0)
            Py_SET_SIZE(self._comments, 0)
        else:
            array.resize(self._aop, cap)
            array.resize(self._ap5, cap)
            array.resize(self._ap1, cap)
            array.resize(self._ap2, cap)
            array.resize(self._ap3, cap)
            self._p4 = _regrow(self._p4, self.n_ops, cap)
            self._comments = _regrow(self._comments, self.n_ops, cap)
        self._op = self._aop.data.as_ints
        self._p5 = self._ap5.data.as_ints
        self._p1 = self._ap1.data.as_longlongs
        self._p2 = self._ap2.data.as_longlongs
        self._p3 = self._ap3.data.as_longlongs
        self.cap = cap
        return 0

    # ---- emission -------------------------------------------------------------------
    cpdef Py_ssize_t emit(self, int op, long long p1=0, long long p2=0, long long p3=0,
                          object p4=None, int p5=0, object comment=None) except -1:
        cdef Py_ssize_t a = self.n_ops
        if a == self.cap:
            self._grow()
        self._op[a] = op
        self._p1[a] = p1
        self._p2[a] = p2
        self._p3[a] = p3
        self._p5[a] = p5
        Py_INCREF(p4)  # (SET_ITEM takes the reference; the item was NULL)
        PyList_SET_ITEM(self._p4, a, p4)
        Py_SET_SIZE(self._p4, a + 1)
        Py_INCREF(comment)
        PyList_SET_ITEM(self._comments, a, comment)
        Py_SET_SIZE(self._comments, a + 1)
        self.n_ops = a + 1
        return a

    @property
    def ops(self):
        """The instructions so far as ``[opcode, p1, p2, p3, p4, p5, comment]`` rows (a
        live view: patching a row patches the instruction)."""
        return OpsView(self)

    cdef object _field(self, Py_ssize_t a, int k):
        if k == 0:
            return self._op[a]
        if k == 1:
            return self._p1[a]
        if k == 2:
            return self._p2[a]
        if k == 3:
            return self._p3[a]
        if k == 4:
            return self._p4[a]
        if k == 5:
            return self._p5[a]
        return self._comments[a]

    cdef int _set_field(self, Py_ssize_t a, int k, object v) except -1:
        if k == 0:
            self._op[a] = v
        elif k == 1:
            self._p1[a] = v
        elif k == 2:
            self._p2[a] = v
        elif k == 3:
            self._p3[a] = v
        elif k == 4:
            self._p4[a] = v
        elif k == 5:
            self._p5[a] = v
        else:
            self._comments[a] = v
        return 0

    cpdef int uses(self) except -1:
        """What the instructions emitted so far do, as bits: USES_TABLE (an OpenRead or
        OpenWrite) and USES_CALL (a Function, AggStep or AggFinal: a call that may return
        a JSON value, ``compiler/subtype.py``)."""
        cdef int found = 0
        cdef unsigned int op
        cdef Py_ssize_t i
        cdef int *ops = self._op
        for i in range(self.n_ops):
            op = <unsigned int>ops[i]
            if op < N_USES:
                found |= _USES_OF[op]
        return found

    cpdef list cursor_uses(self, long long cursor, cursor_ops):
        """The instructions whose P1 is ``cursor`` and whose opcode is in ``cursor_ops``
        (the opcodes whose P1 is a cursor), as ``(address, opcode, P2)`` in program
        order: a scan of the C arrays, for a rewrite of one cursor's reads
        (``_where._make_covering``)."""
        cdef list found = []
        cdef Py_ssize_t i
        cdef long long *p1 = self._p1
        for i in range(self.n_ops):
            if p1[i] == cursor and self._op[i] in cursor_ops:
                found.append((i, self._op[i], self._p2[i]))
        return found

    cpdef Py_ssize_t addr(self):
        """Address of the next instruction."""
        return self.n_ops

    cdef Py_ssize_t _index(self, Py_ssize_t a) except -1:
        if a < 0:
            a += self.n_ops
        if a < 0 or a >= self.n_ops:
            raise IndexError("instruction address out of range")
        return a

    def change_p2(self, Py_ssize_t addr, long long p2):
        self._p2[self._index(addr)] = p2

    def change_p1(self, Py_ssize_t addr, long long p1):
        self._p1[self._index(addr)] = p1

    # ---- labels ---------------------------------------------------------------------
    cpdef int new_label(self) except? 0:
        cdef void *m
        if self.n_labels == self.label_cap:
            self.label_cap = self.label_cap * 2 if self.label_cap else 16
            m = PyMem_Realloc(self._labels, self.label_cap * sizeof(Py_ssize_t))
            if m == NULL:
                raise MemoryError()
            self._labels = <Py_ssize_t *>m
        self._labels[self.n_labels] = -1
        self.n_labels += 1
        return -self.n_labels

    cpdef resolve(self, int label):
        cdef Py_ssize_t i = -label - 1
        if i < 0 or i >= self.n_labels:
            raise IndexError("no such label")
        self._labels[i] = self.n_ops

    # ---- registers and cursors --------------------------------------------------------
    cpdef int alloc_reg(self, int n=1) except? -1:
        cdef int first = self.n_mem + 1
        self.n_mem += n
        return first

    cpdef int alloc_cursor(self) except? -1:
        cdef int c = self.n_cursor
        self.n_cursor += 1
        return c

    cpdef int alloc_once(self) except? -1:
        cdef int c = self.n_once
        self.n_once += 1
        return c

    # ---- constants loaded once ----------------------------------------------------------
    cpdef int const_reg(self, value) except? -1:
        """A register that holds the constant ``value`` (None, int, float, str, bytes, or
        ``(v,)``: the integer v coded as an OP_Int64) for the whole run, for instructions
        that only read it: SQLite's "factored" constants (sqlite3ExprCodeRunJustOnce),
        loaded once by ``emit_consts`` in the program's prologue instead of at every row. One register per distinct value."""
        cdef dict regs
        cdef double d
        if self._consts is None:
            _start_consts(self)
        t = type(value)
        if t is int:  # (the commonest: keyed by the value itself)
            regs = self._const_ints
            key = value
        else:
            # 1, 1.0 and '1' are different constants (the ints have a dict of their own, and
            # no str equals a float); a float other than a zero (-0.0 == 0.0) or a NaN (not
            # equal to itself) and a str are keys themselves, the rest (type, value) or, for
            # those floats, (float, repr) tuples, which equal no str or float
            regs = self._const_regs
            if t is str:
                key = value
            elif t is float:
                d = value
                key = value if d != 0.0 and d == d else (float, repr(value))
            else:
                key = (t, value)
        # one dict look-up: the next register is stored unless the value has one (no
        # constant holds it yet, so getting it back means it was stored)
        cdef int nxt = self.n_mem + 1
        r = regs.setdefault(key, nxt)
        if <int>r == nxt:
            self.n_mem = nxt
            self._consts.append((value, r))
        return r

    cpdef int emit_consts(self) except -1:
        """Load the constants ``const_reg`` handed out and compute the constant expressions
        ``_hoist`` moved, in the order they were made (the prologue, after the Transaction
        the Init instruction leads to)."""
        cdef tuple c
        if self._consts is not None:
            for c in self._consts:
                if len(c) == 2:  # (value, register)
                    emit_constant(self, c[0], c[1])
                else:  # (an instruction _hoist moved)
                    self.emit(c[0], c[1], c[2], c[3], c[4], c[5], c[6])
        return 0

    # ---- finishing --------------------------------------------------------------------
    cdef long long _target(self, long long v) except? -1:
        cdef Py_ssize_t a
        if v < 0:
            if -v > self.n_labels:
                raise InternalError("unknown label in program")
            a = self._labels[-v - 1]
            if a < 0:
                raise InternalError("unresolved label in program")
            return a
        return v

    def finish(self):
        """The Program, every label replaced by its address (P2, and P1/P3 of Jump); the
        instruction arrays are copied into the Program's (the builder's own are left as
        emitted)."""
        return self._finish(False)

    cpdef Program finish_statement(self, names, decls, int n_param, param_names,
                                   bint write, bint is_txn, bint is_ddl, int explain, sql):
        """``finish``, with the statement's description stored in the Program (result
        column names and declared types, parameters, what it does); ``stmt_journal`` is
        left False for the caller to set. The statement is done: its instructions move to
        the Program (no copy), and the builder is left with none (its registers, cursors
        and labels as they were)."""
        cdef Program prog = self._finish(True)
        prog.column_names = list(names)
        prog.column_decltypes = list(decls)
        prog.param_count = n_param
        prog.param_names = list(param_names)
        prog.readonly = not write and not is_txn
        prog.is_write = write
        prog.stmt_journal = False
        prog.is_ddl = is_ddl
        prog.is_txn = is_txn
        prog.is_explain = explain
        prog.sql = sql
        return prog

    cdef Program _finish(self, bint take):
        # take: the builder's arrays and lists become the Program's (sized to n_ops; the
        # builder is left empty), else they are copied
        cdef Py_ssize_t n = self.n_ops, i
        cdef array.array opcodes, p1, p2, p3, p5
        cdef list p4, comments
        cdef int *q0
        cdef long long *q1
        cdef long long *q2
        cdef long long *q3
        cdef long long v
        cdef Program prog
        if take and n:
            opcodes, p1, p2, p3, p5 = self._aop, self._ap1, self._ap2, self._ap3, self._ap5
            Py_SET_SIZE(opcodes, n)
            Py_SET_SIZE(p1, n)
            Py_SET_SIZE(p2, n)
            Py_SET_SIZE(p3, n)
            Py_SET_SIZE(p5, n)
            p4 = self._p4
            comments = self._comments
            self._aop = self._ap1 = self._ap2 = self._ap3 = self._ap5 = None
            self._op = self._p5 = NULL
            self._p1 = self._p2 = self._p3 = NULL
            self.n_ops = self.cap = 0
            self._p4 = self._comments = None
        else:
            opcodes = array.clone(_INTS, n, False)
            p1 = array.clone(_INT64S, n, False)
            p2 = array.clone(_INT64S, n, False)
            p3 = array.clone(_INT64S, n, False)
            p5 = array.clone(_INTS, n, False)
            if n:
                memcpy(opcodes.data.as_ints, self._op, n * sizeof(int))
                memcpy(p5.data.as_ints, self._p5, n * sizeof(int))
                memcpy(p1.data.as_longlongs, self._p1, n * sizeof(long long))
                memcpy(p2.data.as_longlongs, self._p2, n * sizeof(long long))
                memcpy(p3.data.as_longlongs, self._p3, n * sizeof(long long))
            p4 = self._p4[:n] if n else []
            comments = self._comments[:n] if n else []
        if self.n_labels:
            q0 = opcodes.data.as_ints
            q1 = p1.data.as_longlongs
            q2 = p2.data.as_longlongs
            q3 = p3.data.as_longlongs
            for i in range(n):
                v = q2[i]
                if v < 0:
                    q2[i] = self._target(v)
                if q0[i] == OP_Jump:
                    q1[i] = self._target(q1[i])
                    q3[i] = self._target(q3[i])
        prog = Program.__new__(Program)
        prog.opcodes = opcodes
        prog.p1 = p1
        prog.p2 = p2
        prog.p3 = p3
        prog.p4 = p4
        prog.p5 = p5
        prog.comments = comments
        prog.n_mem = self.n_mem + 1
        prog.n_cursor = self.n_cursor
        prog.n_once = self.n_once
        prog.schema_version = 0
        return prog


cdef int _start_consts(ProgramBuilder b) except -1:
    b._consts = []
    b._const_ints = {}
    b._const_regs = {}
    return 0


cdef int _hoist(ProgramBuilder b, Py_ssize_t start) except -1:
    """Move the instructions from address ``start`` on (the code of one constant
    expression into registers no other instruction writes: straight-line code, no jump and
    no label) to the prologue: ``emit_consts`` emits them after the constants made before
    them. SQLite's factored constant expressions (sqlite3ExprCodeRunJustOnce), computed
    once per run instead of at every row."""
    cdef Py_ssize_t a
    cdef list p4 = b._p4, comments = b._comments
    if b._consts is None:
        _start_consts(b)
    for a in range(start, b.n_ops):
        b._consts.append((b._op[a], b._p1[a], b._p2[a], b._p3[a], p4[a], b._p5[a],
                          comments[a]))
    # (the lists keep their room, the slots past ``start`` NULL again: see _grow)
    for a in range(start, b.n_ops):
        _clear_slot(p4, a)
        _clear_slot(comments, a)
    Py_SET_SIZE(p4, start)
    Py_SET_SIZE(comments, start)
    b.n_ops = start
    return 0


cdef inline void _clear_slot(list items, Py_ssize_t i):
    """Drop item ``i`` of ``items``, its slot left NULL (for _grow's lists)."""
    cdef PyObject *x = PyList_GET_ITEM(items, i)
    PyList_SET_NULL(items, i, NULL)
    Py_XDECREF(x)


cdef list _regrow(list items, Py_ssize_t n, Py_ssize_t cap):
    """A list with room for ``cap`` items holding the first ``n`` of ``items`` (its
    length ``n``)."""
    cdef list grown = PyList_New(cap)
    cdef Py_ssize_t i
    for i in range(n):
        x = items[i]
        Py_INCREF(x)
        PyList_SET_ITEM(grown, i, x)
    Py_SET_SIZE(grown, n)
    return grown


_FIELDS = 7  # (opcode, p1, p2, p3, p4, p5, comment)


@cython.final
cdef class OpsView:
    """``ProgramBuilder.ops``: the instructions as rows, live (see ProgramBuilder)."""

    cdef ProgramBuilder b

    def __cinit__(self, ProgramBuilder b):
        self.b = b

    def __len__(self):
        return self.b.n_ops

    def __getitem__(self, Py_ssize_t a):
        return OpView(self.b, self.b._index(a))

    def __setitem__(self, Py_ssize_t a, row):
        cdef Py_ssize_t i = self.b._index(a)
        cdef int k
        row = list(row)
        if len(row) != _FIELDS:
            raise ValueError("an instruction has 7 fields")
        for k in range(_FIELDS):
            self.b._set_field(i, k, row[k])

    def __iter__(self):
        cdef Py_ssize_t a
        for a in range(self.b.n_ops):
            yield OpView(self.b, a)


@cython.final
cdef class OpView:
    """One instruction of a builder, ``[opcode, p1, p2, p3, p4, p5, comment]``, live."""

    cdef ProgramBuilder b
    cdef Py_ssize_t a

    def __cinit__(self, ProgramBuilder b, Py_ssize_t a):
        self.b = b
        self.a = a

    def __len__(self):
        return _FIELDS

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self.b._field(self.a, i) for i in range(*k.indices(_FIELDS))]
        cdef int i = k
        if i < 0:
            i += _FIELDS
        if i < 0 or i >= _FIELDS:
            raise IndexError("an instruction has 7 fields")
        return self.b._field(self.a, i)

    def __setitem__(self, int k, v):
        if k < 0:
            k += _FIELDS
        if k < 0 or k >= _FIELDS:
            raise IndexError("an instruction has 7 fields")
        self.b._set_field(self.a, k, v)

    def __iter__(self):
        cdef int k
        for k in range(_FIELDS):
            yield self.b._field(self.a, k)

    def __repr__(self):
        return repr(self[:])


cpdef int code_program_tail(ProgramBuilder b, Py_ssize_t init, bint is_txn,
                            bint write) except -1:
    """The end of a statement's program (the frame ``compiler/statement.py`` describes):
    Halt, then the tail the Init at ``init`` jumps to (the Transaction a statement that
    writes or opens a table needs, the constants, a Goto back to ``init + 1``). Returns
    ``b.uses()`` of the body."""
    cdef int uses
    b.emit(OP_Halt, 0, 0)
    b._p2[b._index(init)] = b.n_ops
    uses = b.uses()
    if not is_txn and (write or uses & USES_TABLE):
        b.emit(OP_Transaction, 0, 1 if write else 0)
    b.emit_consts()
    b.emit(OP_Goto, 0, init + 1)
    return uses


cpdef int emit_group_break(ProgramBuilder b, int has_group, int cur, int prev, int ng, spec,
                           int ret, int out_sub, int acc, int n_acc, int used) except -1:
    """A GROUP BY pass's step with the row's group key in ``cur`` (``ng`` registers): if a
    group is open (``has_group``) and the key differs from ``prev`` (compared by the
    SortSpec ``spec``), output it (Gosub ``ret``, ``out_sub``) and reset the ``n_acc``
    accumulators at ``acc``; then mark a group open, reset ``used`` (when non-zero) and
    remember the key."""
    cdef int new_group = b.new_label()
    cdef int same = b.new_label()
    cdef int first_row = b.new_label()
    b.emit(OP_IfNot, has_group, first_row, 0)
    b.emit(OP_Compare, cur, prev, ng, spec)
    b.emit(OP_Jump, new_group, same, new_group)
    b.resolve(new_group)
    b.emit(OP_Gosub, ret, out_sub)
    if n_acc:
        b.emit(OP_Null, 0, acc, acc + n_acc - 1)
    b.resolve(first_row)
    b.emit(OP_Integer, 1, has_group)
    if used:
        b.emit(OP_Integer, 0, used)
    b.emit(OP_Copy, cur, prev, ng - 1)
    b.resolve(same)
    return 0


cpdef int emit_group_start(ProgramBuilder b, int has_group, int prev, int ng, int acc,
                           int n_acc) except -1:
    """Before a GROUP BY pass: no group open, the previous key (``ng`` registers at
    ``prev``) and the ``n_acc`` accumulators at ``acc`` NULL."""
    b.emit(OP_Integer, 0, has_group)
    b.emit(OP_Null, 0, prev, prev + ng - 1)
    if n_acc:
        b.emit(OP_Null, 0, acc, acc + n_acc - 1)
    return 0


cpdef int emit_group_flush(ProgramBuilder b, int ret, int out_sub, int end) except -1:
    """After a GROUP BY pass: output the last group (Gosub ``ret``, ``out_sub``) and jump
    to ``end``; the output subroutine is coded next, from ``out_sub``."""
    b.emit(OP_Gosub, ret, out_sub)
    b.emit(OP_Goto, 0, end)
    b.resolve(out_sub)
    return 0


cdef inline object _call_filter(a):
    """An aggregate call's FILTER (``a.filter``), read from the slot of an exact
    FunctionCall."""
    if type(a) is T_FunctionCall:
        return slot(a, F_FC_FILTER)
    return a.filter


cdef inline object _call_args(a):
    """An aggregate call's arguments coded from the row: none for ``count(*)``, else
    ``a.args`` (read from the slots of an exact FunctionCall)."""
    if type(a) is T_FunctionCall:
        if slot(a, F_FC_STAR):
            return ()
        return slot(a, F_FC_ARGS)
    return () if a.star else a.args


cpdef int emit_agg_finals(ProgramBuilder b, int acc, list defs) except -1:
    """AggFinal of each aggregate of ``defs`` (``(call, function, n_args)`` tuples), the
    i-th accumulator at ``acc + i``."""
    cdef Py_ssize_t i
    cdef tuple d
    for i in range(len(defs)):
        d = <tuple>defs[i]
        b.emit(OP_AggFinal, acc + i, d[2], 0, d[1])
    return 0


cpdef int emit_agg_steps(ProgramBuilder b, p, scope, list defs, list needs_hit, int hit,
                         int used, int acc, list bases, bint code_args,
                         dict filter_regs) except -1:
    """AggStep of each aggregate of ``defs`` (``(call, function, n_args)`` tuples), the
    i-th accumulator at ``acc + i``, its arguments at ``bases[i]``: coded there first when
    ``code_args`` (the loops' row), else already read there (a sorter's record). A FILTER
    skips the step: its value in ``filter_regs[i]`` when given, else coded here; the
    arguments are coded after it, as SQLite does (a row it drops computes none). With
    ``needs_hit[i]`` the step sets ``hit`` when it makes the row its best (min()/max() with
    bare columns), and a dropped row counts as one only if ``used`` says it is the first."""
    cdef Py_ssize_t i, j, n = len(defs)
    cdef int skip, h, nargs, base
    cdef tuple d
    for i in range(n):
        d = <tuple>defs[i]
        a = d[0]
        nargs = d[2]
        skip = 0
        h = hit if needs_hit[i] else 0
        filt = _call_filter(a)
        if filt is not None:
            skip = b.new_label()
            if h and used:  # a dropped row is loaded only if it is the first
                b.emit(OP_Copy, used, hit, 0)
            if filter_regs is not None:  # its value, computed while scanning the rows
                b.emit(OP_IfNot, filter_regs[i], skip, 1)
            else:
                _if_false(p, b, scope, filt, skip, True)
        base = bases[i]
        if code_args:
            j = 0
            for x in _call_args(a):
                _code_expr(p, b, scope, x, base + j)
                j += 1
        dist = slot(a, F_FC_DISTINCT) if type(a) is T_FunctionCall else a.distinct
        b.emit(OP_AggStep, (1 if dist else 0) | (h << 1), base, acc + i, d[1], nargs)
        if skip:
            b.resolve(skip)
    return 0


cdef int emit_copy_bare(ProgramBuilder b, p, list bare, int hit, int used, int bare_regs,
                        int srt, const int* fields) except -1:
    """Load the ``bare`` columns (ColRefs) into ``bare_regs`` onwards unless ``hit`` says
    the row is not the one they come from: from the sorter ``srt``'s fields ``fields``
    (one per column) when ``srt`` >= 0, else from the loops' row; then mark ``used`` (when
    non-zero)."""
    cdef Py_ssize_t k, n = len(bare)
    cdef int skip
    if not n:
        return 0
    skip = b.new_label()
    b.emit(OP_If, hit, skip, 0)
    for k in range(n):
        if srt >= 0:
            b.emit(OP_Column, srt, fields[k], bare_regs + k)
        else:
            _code_column(p, b, bare[k], bare_regs + k)
    b.resolve(skip)
    if used:
        b.emit(OP_Integer, 1, used)
    return 0


cpdef int emit_columns(ProgramBuilder b, int cursor, int first, int n, int target) except -1:
    """Read the ``n`` columns from ``first`` of ``cursor`` into ``target`` onwards."""
    cdef int j
    for j in range(n):
        b.emit(OP_Column, cursor, first + j, target + j)
    return 0


cpdef int code_result_columns(ProgramBuilder b, p, scope, list result_exprs, unused,
                              all_unused) except -1:
    """The result columns ``result_exprs`` into new registers (at least one), the first
    returned; the numbers in ``unused`` (the object ``all_unused``: every one) are coded as
    values SQLite never codes (``Parse.values_unused``: select._code_result)."""
    cdef Py_ssize_t i, n = len(result_exprs)
    cdef int base = b.alloc_reg(n if n > 1 else 1)
    for i in range(n):
        if unused is None or unused is not all_unused and i not in unused:
            _code_expr(p, b, scope, result_exprs[i], base + i)
            continue
        saved = p.values_unused
        p.values_unused = True
        try:
            _code_expr(p, b, scope, result_exprs[i], base + i)
        finally:
            p.values_unused = saved
    return base


cdef int group_rows_into_sorter(ProgramBuilder b, p, scope, list defs, group_by, list bare,
                                const int* fields, int n_stored, filters, int n_args, int srt,
                                int width) except -1:
    """In a GROUP BY query's loop, one record per row into the sorter ``srt`` (``width``
    fields): the group terms, the aggregates' arguments (``defs``: ``(call, function,
    n_args)`` tuples), the ``n_stored`` ``bare`` columns (ColRefs) that are no group term
    (``fields[k]``, the field each is read from, past the arguments; a group term's is
    that term's), then the values of the FILTERs of the aggregates numbered in
    ``filters``. An aggregate's FILTER is computed first, and a row it drops computes none
    of its arguments (NULL)."""
    cdef Py_ssize_t ng = len(group_by), n_bare = len(bare), j, i, k
    cdef int blk = b.alloc_reg(width)
    cdef int pos, nargs, skip, rec, fp
    cdef dict fpos = {}
    cdef tuple d
    for j in range(ng):
        _code_expr(p, b, scope, group_by[j], blk + j)
    k = 0
    for i in filters:
        fpos[i] = ng + n_args + n_stored + k
        k += 1
    pos = ng
    for i in range(len(defs)):
        d = <tuple>defs[i]
        a = d[0]
        nargs = d[2]
        skip = 0
        filt = _call_filter(a)
        if filt is not None:
            skip = b.new_label()
            fp = fpos[i]
            _code_expr(p, b, scope, filt, blk + fp)
            if nargs:
                b.emit(OP_Null, 0, blk + pos, blk + pos + nargs - 1)
            b.emit(OP_IfNot, blk + fp, skip, 1)
        for x in _call_args(a):
            _code_expr(p, b, scope, x, blk + pos)
            pos += 1
        if skip:
            b.resolve(skip)
    for k in range(n_bare):
        if fields[k] >= ng:  # (else read from its group term's field)
            _code_column(p, b, bare[k], blk + pos)
            pos += 1
    rec = b.alloc_reg(1)
    b.emit(OP_MakeRecord, blk, width, rec)
    b.emit(OP_SorterInsert, srt, rec)
    return 0


EQP_DISTINCT = "USE TEMP B-TREE FOR DISTINCT"  # (the plan line of a DISTINCT's index)


cpdef int emit_limited(ProgramBuilder b, p, dest, int base, int n, lreg, oreg,
                       int end_label) except -1:
    """A result row in ``base``.. (``n`` registers) to ``dest`` (None: the statement's
    result rows, a ResultRow), past the OFFSET still counted down in ``oreg`` and, with a
    LIMIT counted down in ``lreg``, jumping to ``end_label`` at its last row (either
    register None: no such clause)."""
    cdef int skip = 0
    if oreg is not None:
        skip = b.new_label()
        b.emit(OP_IfPos, oreg, skip, 1)
    if dest is None:
        b.emit(OP_ResultRow, base, n)
    else:
        dest.emit(p, base, n)
    if lreg is not None:
        b.emit(OP_DecrJumpZero, lreg, end_label)
    if skip:
        b.resolve(skip)
    return 0


cpdef int emit_result_row(ProgramBuilder b, p, scope, int res_base, int n_res, distinct_cur,
                          list distinct_said, sorter, list obt, dest, lreg, oreg,
                          int end_label) except -1:
    """One result row of a SELECT core, already in ``res_base``.. (``n_res`` registers):
    dropped when the ephemeral index ``distinct_cur`` (None: no DISTINCT) has it already,
    else into the ORDER BY ``sorter`` (None: none) as a record of the ``obt`` terms' keys
    (select._resolve_order_by's tuples: a term naming result column ``idx`` is copied)
    then the row, else to ``dest`` under LIMIT / OFFSET (``emit_limited``). The first
    DISTINCT row appends its EXPLAIN QUERY PLAN line to ``distinct_said``.

    ``distinct_cur`` may instead be (flag register, first of ``n_res`` registers, SortSpec)
    when the loops bring equal rows together (WhereInfo.distinct 1): a row equal to the
    one before it (compared by the SortSpec, NULLs equal) is dropped; the flag, 0 before
    the loops, says whether there is one before it."""
    cdef int skip = 0, blk, rec, k, n_ob, fresh, flag, prev
    cdef long long idx
    cdef tuple o
    if type(distinct_cur) is tuple:
        flag = (<tuple>distinct_cur)[0]
        prev = (<tuple>distinct_cur)[1]
        skip = b.new_label()
        fresh = b.new_label()
        b.emit(OP_IfNot, flag, fresh, 0)
        b.emit(OP_Compare, res_base, prev, n_res, (<tuple>distinct_cur)[2])
        b.emit(OP_Jump, fresh, skip, fresh)
        b.resolve(fresh)
        b.emit(OP_Integer, 1, flag)
        b.emit(OP_Copy, res_base, prev, n_res - 1)
    elif distinct_cur is not None:
        if not distinct_said:
            distinct_said.append(_eqp_line(p, EQP_DISTINCT))
        skip = b.new_label()
        rec = b.alloc_reg(1)
        b.emit(OP_MakeRecord, res_base, n_res, rec)
        b.emit(OP_Found, distinct_cur, skip, rec, 0)
        b.emit(OP_IdxInsert, distinct_cur, rec)
    if sorter is not None:
        n_ob = len(obt)
        blk = b.alloc_reg(n_ob + n_res)
        for k in range(n_ob):
            o = <tuple>obt[k]
            if o[1] is not None:
                idx = o[1]
                b.emit(OP_SCopy, res_base + idx, blk + k)
            else:
                _code_expr(p, b, scope, o[0], blk + k)
        if n_res:
            b.emit(OP_Copy, res_base, blk + n_ob, n_res - 1)
        rec = b.alloc_reg(1)
        b.emit(OP_MakeRecord, blk, n_ob + n_res, rec)
        b.emit(OP_SorterInsert, sorter, rec)
    else:
        emit_limited(b, p, dest, res_base, n_res, lreg, oreg, end_label)
    if skip:
        b.resolve(skip)
    return 0


# ------------------------------------------------------------------------------------------
# Aggregate queries (select._compile_aggregate's loops and output, coded here so that the
# builder, the expression coder and the emitters above are called from C)
# ------------------------------------------------------------------------------------------

cdef int OP_SorterOpen = O.OP_SorterOpen
cdef int OP_SorterSort = O.OP_SorterSort
cdef int OP_SorterNext = O.OP_SorterNext
cdef int OP_Noop = O.OP_Noop
cdef object FEAT_COLLATE = A.FEAT_COLLATE
EQP_GROUP_BY = "USE TEMP B-TREE FOR GROUP BY"

# (imported on first use: both modules import this one)
cdef object _result_coll_seq = None


cdef int _bind_agg() except -1:
    global _result_coll_seq
    from sqlengine.compiler._resolve import result_coll_seq
    _result_coll_seq = result_coll_seq
    return 0


cdef SortSpec _group_spec(p, list gnames):
    """The SortSpec comparing a GROUP BY key: one ascending field per term, NULLs first,
    collated by ``gnames`` (the terms' collation names, None: BINARY), as
    ``SortSpec(len(gnames), colls)`` makes it, without the Python-level constructor call
    and its keyword parsing (the collations looked up only for a named one)."""
    cdef Py_ssize_t j, n = len(gnames)
    cdef list colls = [None] * n
    cdef SortSpec spec = SortSpec.__new__(SortSpec)
    for j in range(n):
        c = gnames[j]
        if c is not None:
            colls[j] = p.collation(c)
    spec.n_key = <int>n
    spec.colls = colls
    spec.desc = [False] * n
    spec.nulls_first = [True] * n
    spec.limit_regs = None
    spec._norms = None
    spec._exact = -1
    return spec


cdef class ResultRows:
    """A SELECT core's result rows (select._compile_core): ``emit`` codes the result
    columns into new registers and hands the row to ``emit_result_row`` (DISTINCT, the
    ORDER BY sorter, or the destination under LIMIT / OFFSET). Made by ``result_rows``;
    its fields are declared in _codegen.pxd."""

    cpdef int emit(self) except -1:
        """One result row, computed where the code runs (the scope's overrides apply)."""
        cdef int base = code_result_columns(self.b, self.p, self.scope, self.result_exprs,
                                            self.unused, self.all_unused)
        return emit_result_row(self.b, self.p, self.scope, base, len(self.result_exprs),
                               self.distinct_cur, self.distinct_said, self.sorter,
                               self.obt, self.dest, self.lreg, self.oreg, self.end_label)


cpdef ResultRows result_rows(ProgramBuilder b, p, scope, list result_exprs, unused, all_unused,
                             distinct_cur, list distinct_said, sorter, list obt, dest, lreg,
                             oreg, int end_label):
    """The ResultRows of a SELECT core (a C call from select.pxd, no keyword parsing of
    its fourteen arguments)."""
    cdef ResultRows rows = ResultRows.__new__(ResultRows)
    rows.b = b
    rows.p = p
    rows.scope = scope
    rows.result_exprs = result_exprs
    rows.unused = unused
    rows.all_unused = all_unused
    rows.distinct_cur = distinct_cur
    rows.distinct_said = distinct_said
    rows.sorter = sorter
    rows.obt = obt
    rows.dest = dest
    rows.lreg = lreg
    rows.oreg = oreg
    rows.end_label = end_label
    return rows


cdef inline object _ref_key(ref):
    """``ref.key`` (a ColRef's ``(cursor, column)``), read from the fields of an exact
    ColRef of a Source without the property's Python-level call."""
    if type(ref) is ColRef:
        src = (<ColRef>ref).source
        if type(src) is Source:
            return ((<Source>src).cursor, (<ColRef>ref).col)
    return ref.key


cdef object _column_ref(Scope scope, e):
    """The ColRef of ``scope`` that ``e`` (a plain column) is, or None."""
    # (an exact Column, the common term, is not a ResolvedColumn: tested first, so that
    # it costs no isinstance call)
    if type(e) is not T_Column:
        if isinstance(e, T_ResolvedColumn):
            ref = e.ref
            return ref if ref.scope is scope else None
    if type(e) is T_Column or isinstance(e, T_Column):
        try:
            if type(e) is T_Column:
                ref = scope.lookup(slot(e, F_COL_NAME), slot(e, F_COL_TABLE))
            else:
                ref = scope.lookup(e.name, e.table)
        except OperationalError:
            return None
        if ref is not None and ref.scope is scope:
            return ref
    return None


cdef enum:
    N_FIELDS = 16  # (code_aggregate's bare columns whose sorter fields it keeps on the stack)


cdef Py_ssize_t _index_of(list items, key) except -2:
    """The position of the first item of ``items`` equal to ``key``, or -1."""
    cdef Py_ssize_t i
    for i in range(len(items)):
        if items[i] == key:
            return i
    return -1


cdef int _step_loop_row(ProgramBuilder b, p, scope, list defs, list needs_hit, int hit,
                        int used, int acc, list bare, int bare_regs) except -1:
    """Step every aggregate and load the bare columns from the loops' current row (the
    arguments into registers of their own)."""
    cdef list bases = []
    cdef Py_ssize_t i
    cdef int nargs
    for i in range(len(defs)):
        nargs = (<tuple>defs[i])[2]
        bases.append(b.alloc_reg(nargs if nargs > 1 else 1))
    emit_agg_steps(b, p, scope, defs, needs_hit, hit, used, acc, bases, True, None)
    emit_copy_bare(b, p, bare, hit, used, bare_regs, -1, NULL)
    return 0


cdef int _output_row(ProgramBuilder b, p, Scope scope, int acc, list defs,
                     dict agg_overrides, list bare, int bare_regs,
                     dict key_overrides, having, ResultRows rows) except -1:
    """The result row of a group (or of the whole query): finalize the aggregates, test
    HAVING, compute and emit the row with the aggregates, bare columns and group keys
    read from their registers (the scope's overrides, cleared after)."""
    cdef int skip = b.new_label()
    cdef Py_ssize_t k
    cdef dict overrides = scope.overrides
    emit_agg_finals(b, acc, defs)
    if agg_overrides:  # (PyDict_Update: dict.update's merge without its method call)
        PyDict_Update(overrides, agg_overrides)
    for k in range(len(bare)):
        overrides[_ref_key(bare[k])] = bare_regs + k
    if key_overrides:
        PyDict_Update(overrides, key_overrides)
    if having is not None:
        _if_false(p, b, scope, having, skip, True)
    rows.emit()
    b.resolve(skip)
    overrides.clear()
    return 0


cpdef int code_aggregate(ProgramBuilder b, p, Scope scope, core, where, left_on, list defs,
                         list group_by, having, ResultRows rows, dict agg_overrides,
                         list bare, int bare_regs, int acc, list sort_desc=None,
                         bint as_distinct=False) except -1:
    """An aggregate query's loops and result rows (select._compile_aggregate has made the
    accumulators ``defs``, ``(call, function, n_args)`` tuples at ``acc`` onwards, the
    overrides of its calls ``agg_overrides`` and the ``bare`` columns' registers): without
    ``group_by`` one pass over the rows then one result row; with it the rows in group
    order, from the loops when they deliver that order (an index on the group terms, as
    SQLite's WHERE_GROUPBY), else from a sorter keyed by the group terms, then one pass that
    closes a group (``_output_row`` as a subroutine) when its key changes.

    ``sort_desc`` (None: no such ORDER BY): the query's ORDER BY is the GROUP BY's terms,
    descending where it is True (group_order.order_is_group); the group sorter then sorts that
    way, and the loops are asked for it (SQLite's WHERE_SORTBYGROUP). Answers 1 when the
    groups come in that order (the rows skip the ORDER BY sorter, which the caller drops),
    else 0. ``as_distinct``: the GROUP BY is a DISTINCT's that select._compile_core
    rewrote (its sorter's plan line says DISTINCT, as SQLite's).

    The bare columns (SQLite's accumulator columns) are loaded as SQLite's
    updateAccumulator loads them: from the row the last min()/max() stepped made its best,
    else from the first row (of the group), where a min()/max() whose FILTER drops the row
    counts as not made best unless this is that first row. ``used`` (SQLite's regAcc /
    iUseFlag) is 0 on the first row, then 1; without GROUP BY it exists only when no
    min()/max() is free of a FILTER (one of those always says which row to load)."""
    cdef Py_ssize_t i, j, k, n_defs = len(defs), n_bare = len(bare), ng, n_stored
    cdef int used = 0, hit, n_args = 0, width, has_group, prev, cur, ret, out_sub, end
    cdef int srt, args_base, o, top, nargs
    cdef int by_group = 0  # (the result rows need no ORDER BY sorter)
    cdef Py_ssize_t sorter_addr
    cdef bint any_hit = False, free_minmax = False, one_minmax
    cdef list needs_hit = [], filters, gnames, bases, order
    cdef dict key_overrides = {}, filter_regs
    cdef list bare_keys
    cdef int few[N_FIELDS]
    cdef int* fields = few
    cdef array.array more
    cdef tuple d
    if _result_coll_seq is None:
        _bind_agg()
    for i in range(n_defs):
        d = <tuple>defs[i]
        h = bool(n_bare and d[1].needs_collation)
        needs_hit.append(h)
        if h:
            any_hit = True
            if _call_filter(d[0]) is None:
                free_minmax = True
    if n_bare and (group_by is not None or not free_minmax):
        used = b.alloc_reg(1)
    hit = b.alloc_reg(1) if any_hit else used

    if group_by is None:
        if n_defs:
            b.emit(OP_Null, 0, acc, acc + n_defs - 1)
        if n_bare:
            b.emit(OP_Null, 0, bare_regs, bare_regs + n_bare - 1)
        if used:
            b.emit(OP_Integer, 0, used)
        one_minmax = False
        if n_defs == 1 and having is None:
            d = <tuple>defs[0]
            a = d[0]
            one_minmax = (d[2] == 1 and _call_filter(a) is None
                          and lower_name(a.name) in ("min", "max"))
        w = c_where_begin(p, b, scope, where, left_on, (), core, None, None, True,
                          one_minmax, False, None)
        _step_loop_row(b, p, scope, defs, needs_hit, hit, used, acc, bare, bare_regs)
        c_where_end(p, b, w)
        _output_row(b, p, scope, acc, defs, agg_overrides, bare, bare_regs, key_overrides,
                    having, rows)
        return 0

    ng = len(group_by)
    filters = []
    for i in range(n_defs):
        d = <tuple>defs[i]
        n_args += <int>d[2]
        if _call_filter(d[0]) is not None:
            filters.append(i)
    any_collate = core.features & FEAT_COLLATE  # (the GROUP BY terms are the core's own)
    gnames = [_result_coll_seq(g, scope, any_collate)[1] for g in group_by]
    spec = _group_spec(p, gnames)
    if sort_desc is not None:
        spec.desc = list(sort_desc)
        spec.nulls_first = [not x for x in sort_desc]
    has_group = b.alloc_reg(1)
    prev = b.alloc_reg(ng)
    # a group term's column read outside aggregates is an accumulator column too, loaded
    # from the row the bare columns come from (a NOCASE key: that row's spelling)
    # (the bare columns' keys, a few (cursor, column) tuples, scanned by ==: cheaper than
    # a set's hashing of each)
    bare_keys = [_ref_key(ref) for ref in bare]
    # the sorter's field of each bare column: a column that is a group term is read from
    # that term's field (SQLite's iSorterColumn), the others are stored after the
    # aggregates' arguments (a few on the stack, more in an array)
    if n_bare > N_FIELDS:
        more = array.clone(_INTS, n_bare, False)
        fields = more.data.as_ints
    for k in range(n_bare):
        fields[k] = -1
    for j in range(ng):
        ref = _column_ref(scope, group_by[j])
        if ref is not None:
            key = _ref_key(ref)
            k = _index_of(bare_keys, key)
            if k < 0:
                key_overrides.setdefault(key, prev + j)
            elif fields[k] < 0:
                fields[k] = <int>j
    n_stored = 0
    for k in range(n_bare):
        if fields[k] < 0:
            fields[k] = <int>(ng + n_args + n_stored)
            n_stored += 1
    width = <int>(ng + n_args + n_stored + len(filters))
    cur = b.alloc_reg(ng)
    ret = b.alloc_reg(1)
    out_sub = b.new_label()
    end = b.new_label()
    emit_group_start(b, has_group, prev, ng, acc, n_defs)

    srt = b.alloc_cursor()
    sorter_addr = b.emit(OP_SorterOpen, srt, width, 0, spec)
    if sort_desc is None:
        order = [(group_by[j], False, True, gnames[j]) for j in range(ng)]
        w = c_where_begin(p, b, scope, where, left_on, (), core, order, None, True, False, 1,
                          None)
    else:
        order = [(group_by[j], sort_desc[j], not sort_desc[j], gnames[j]) for j in range(ng)]
        w = c_where_begin(p, b, scope, where, left_on, (), core, order, None, True, False, 2,
                          None)
    if w.n_ordered == ng:  # the loops deliver the groups in order: no sorter
        b.ops[sorter_addr] = [OP_Noop, 0, 0, 0, None, 0, None]
        if w.sorted:
            by_group = 1
        for j in range(ng):
            _code_expr(p, b, scope, group_by[j], cur + j)
        # with the row's group key in cur: close the previous group if the key changed
        emit_group_break(b, has_group, cur, prev, ng, spec, ret, out_sub, acc, n_defs, used)
        _step_loop_row(b, p, scope, defs, needs_hit, hit, used, acc, bare, bare_regs)
        c_where_end(p, b, w)
        b.emit(OP_IfNot, has_group, end, 0)
    else:
        if sort_desc is not None:  # (the group sorter sorts in the ORDER BY's order)
            by_group = 1
        group_rows_into_sorter(b, p, scope, defs, group_by, bare, fields, n_stored, filters,
                               n_args, srt, width)
        c_where_end(p, b, w)
        _eqp_line(p, EQP_DISTINCT if as_distinct else EQP_GROUP_BY)
        b.emit(OP_SorterSort, srt, end)
        top = b.n_ops
        emit_columns(b, srt, 0, ng, cur)
        emit_group_break(b, has_group, cur, prev, ng, spec, ret, out_sub, acc, n_defs, used)
        args_base = b.alloc_reg(n_args if n_args > 1 else 1)
        emit_columns(b, srt, ng, n_args, args_base)
        bases = []
        o = args_base
        for i in range(n_defs):
            bases.append(o)
            o += <int>(<tuple>defs[i])[2]
        filter_regs = {}
        for k in range(len(filters)):
            i = filters[k]
            filter_regs[i] = b.alloc_reg(1)
            b.emit(OP_Column, srt, ng + n_args + n_stored + k, filter_regs[i])
        emit_agg_steps(b, p, scope, defs, needs_hit, hit, used, acc, bases, False, filter_regs)
        emit_copy_bare(b, p, bare, hit, used, bare_regs, srt, fields)
        b.emit(OP_SorterNext, srt, top)
    emit_group_flush(b, ret, out_sub, end)
    if by_group:
        rows.sorter = None
    _output_row(b, p, scope, acc, defs, agg_overrides, bare, bare_regs, key_overrides,
                having, rows)
    b.emit(OP_Return, ret)
    b.resolve(end)
    return by_group


# ------------------------------------------------------------------------------------------
# Constants, columns, lookups
# ------------------------------------------------------------------------------------------

cpdef emit_constant(ProgramBuilder b, value, int reg):
    """Load a constant (None, int, float, str or bytes) into ``reg``."""
    cdef int ov
    cdef long long x
    t = type(value)
    if value is None:
        b.emit(OP_Null, 0, reg)
    elif t is int:
        x = PyLong_AsLongLongAndOverflow(value, &ov)
        if ov == 0 and -2147483648 <= x <= 2147483647:
            b.emit(OP_Integer, x, reg)
        else:
            b.emit(OP_Int64, 0, reg, 0, value)
    elif t is float:
        b.emit(OP_Real, 0, reg, 0, value)
    elif isinstance(value, str):
        b.emit(OP_String8, 0, reg, 0, str(value))
    elif t is tuple:  # (an integer literal SQLite codes as Int64: _code_operand)
        b.emit(OP_Int64, 0, reg, 0, value[0])
    else:
        value = bytes(value)
        b.emit(OP_Blob, len(value), reg, 0, value)


cpdef literal_value(v):
    """A literal's value as coded: an integer beyond 64 bits reads as a REAL."""
    cdef int ov
    if type(v) is int:
        PyLong_AsLongLongAndOverflow(v, &ov)
        if ov:
            return float(v)
    return v


cdef inline int _emit_literal_int(ProgramBuilder b, long long x, bint negate, int reg) \
        except -1:
    """The integer literal of 64-bit value ``x`` (negated with ``negate``) into ``reg``, as
    SQLite's codeInteger: an OP_Integer when the literal as written is 0 to 2**31 - 1 (its
    EP_IntValue), else an OP_Int64 (so ``-2147483648`` and ``0xffffffffffffffff``, -1, are
    Int64s). ``x`` is not the smallest 64-bit integer when negated."""
    if 0 <= x <= 2147483647:
        b.emit(OP_Integer, -x if negate else x, reg)
    else:
        b.emit(OP_Int64, 0, reg, 0, -x if negate else x)
    return 0


cdef int _notnull_fold(scope, e) except -2:
    """SQLite's resolve-time rewrite of ``x ISNULL`` / ``x NOTNULL`` (``x IS [NOT] NULL``
    too) where x cannot be NULL: the rowid of a FROM subquery or view not on the right of
    a LEFT JOIN counts as never NULL (sqlite3ExprCanBeNull), even where reading it gives
    NULL, so the test becomes 0 (ISNULL) or 1 (NOTNULL). -1: no such test."""
    cdef Source src
    t = type(e)
    if t is T_IsNull:
        x = slot(e, F_ISNULL_EXPR)
        neg = slot(e, F_ISNULL_NEG)
    elif t is T_Binary:
        op = slot(e, F_BIN_OP)
        right = slot(e, F_BIN_RIGHT)
        if not ((op == "IS" or op == "IS NOT") and type(right) is T_Literal and
                slot(right, F_LIT_VALUE) is None):
            return -1
        x = slot(e, F_BIN_LEFT)
        neg = op == "IS NOT"
    else:
        return -1
    if scope is None or type(x) is not T_Column:
        return -1
    name = slot(x, F_COL_NAME)
    if lower_name(name) not in ROWID_NAMES:
        return -1
    try:
        ref = lookup_name(scope, name, slot(x, F_COL_TABLE))
    except OperationalError:
        return -1  # (the ordinary coding raises it)
    if ref is None or (<ColRef>ref).col >= 0:
        return -1
    src = (<ColRef>ref).source
    if src.is_table or src.left or src.nullable:
        return -1
    return 1 if neg else 0


cpdef code_column(p, ref_, int target):
    """Read a resolved column (a ColRef) into ``target``."""
    _code_column(p, p.b, ref_, target)


cdef int _code_column(p, ProgramBuilder b, ColRef ref, int target) except -1:
    # (code_column with the builder ``p.b`` handed down by the expression coder)
    cdef Py_ssize_t c
    if ref is None:
        raise InternalError("no column to read")
    cdef Source src = ref.source
    col = ref.col
    cdef dict ov = (<Scope>ref.scope).overrides
    if ov:
        r = ov.get((src.cursor, col))
        if r is not None:
            b.emit(OP_SCopy, r, target)
            return 0
    if type(ref) is T_CoalesceRef:  # a FULL JOIN's USING column: the first non-NULL side
        done = b.new_label()
        alts = ref.alts
        for alt in alts:
            _code_column(p, b, alt, target)
            if alt is not alts[-1]:
                b.emit(OP_NotNull, target, done)
        b.resolve(done)
        return 0
    is_table = src.is_table
    if col < 0 or (is_table and col == src.ipk):
        if col < 0 and src.rowid_null:  # a subquery's rowid that SQLite reads as NULL
            b.emit(OP_Null, 0, target)
        else:
            b.emit(OP_Rowid, src.cursor, target)
        return 0
    c = col
    defaults = src.defaults
    field = col
    if is_table:
        table = src.table  # (a schema Table's field read from its slot)
        storage = slot(table, F_TABLE_STORAGE) if type(table) is T_Table else table.storage
        if storage is not None:
            field = storage[c]
            if field < 0:  # a VIRTUAL generated column: computed from the row
                _expr.code_virtual_column(p, ref, target)
                return 0
    # the comment (table, column) is joined with a dot only when a listing shows it
    b.emit(OP_Column, src.cursor, field, target,
           defaults[c] if defaults is not None else None, 0, (src.name, src.columns[c]))
    # a REAL column (of a table, or of a subquery, view or CTE read from its rows) gives a
    # REAL value: SQLite's sqlite3ColumnDefault
    aff = src.affs[c]
    if aff is AFF_REAL or aff == AFF_REAL:
        b.emit(OP_RealAffinity, target)
    return 0


def aff_code(aff):
    """The P5 code of an affinity character."""
    return _AFF_CODE.get(aff, 0)


# ------------------------------------------------------------------------------------------
# Values into registers
# ------------------------------------------------------------------------------------------

cpdef int code_expr_reg(p, scope, e) except? -1:
    """Code ``e`` into a new register; its number."""
    return _code_expr_reg(p, p.b, scope, e)


cdef int _code_expr_reg(p, ProgramBuilder b, scope, e) except? -1:
    cdef int r = b.alloc_reg(1)
    _code_expr(p, b, scope, e, r)
    return r


cdef int _code_operand(p, ProgramBuilder b, scope, e) except? -1:
    """The register holding ``e`` for an instruction that only reads it (an arithmetic,
    comparison or logical operand): ``_code_operand_k``'s."""
    cdef int konst = 0
    return _code_operand_k(p, b, scope, e, &konst)


cdef int _code_operand_k(p, ProgramBuilder b, scope, e, int *konst) except? -1:
    """The register holding operand ``e``, ``konst[0]`` set to 1 when ``e`` is constant.
    A constant's register is filled once per run, as SQLite's factored constants
    (sqlite3ExprCodeTemp): a literal's, or in a program with a cursor a negated number's,
    by ``const_reg`` (one register per value), any other constant expression (what ``_code_expr`` reports
    constant: literals, parameters, arithmetic, unary operators, CAST, COLLATE) coded
    here and moved to the prologue (``_hoist``) once the program has a cursor (without
    one it has no loop to take it out of). Anything else is coded here into a new
    register. A unary + is the value of its operand."""
    cdef Py_ssize_t start
    cdef int r
    t = type(e)
    while t is T_Unary and slot(e, F_UN_OP) == "+":
        e = slot(e, F_UN_OPERAND)
        t = type(e)
    if t is T_Literal:
        r = _literal_reg(b, slot(e, F_LIT_VALUE))
        if r:
            konst[0] = 1
            return r
    elif t is T_Unary and b.n_cursor and slot(e, F_UN_OP) == "-" and \
            type(slot(e, F_UN_OPERAND)) is T_Literal:
        r = _negated_literal_reg(b, slot(slot(e, F_UN_OPERAND), F_LIT_VALUE))
        if r:
            konst[0] = 1
            return r
    start = b.n_ops
    r = b.alloc_reg(1)
    if _code_expr(p, b, scope, e, r) == 1:
        konst[0] = 1
        if b.n_cursor:  # (a program that opens no cursor has no loop: nothing to gain)
            _hoist(b, start)
    return r


cdef int _literal_reg(ProgramBuilder b, v) except -1:
    """The constant register of a literal of value ``v`` as ``_code_expr`` codes it; 0 for
    an integer above 2**63 (the coder raises)."""
    cdef int ov
    cdef long long iv
    if type(v) is not int:
        return b.const_reg(v)
    iv = PyLong_AsLongLongAndOverflow(v, &ov)
    if ov == 0:
        # (a negative literal is a hex one of 2**63 or more: an Int64 whatever its
        # value, emit_constant's 1-tuple)
        return b.const_reg(v) if iv >= 0 else b.const_reg((v,))
    if not v > INT64_OVER:  # (beyond 64 bits: a REAL)
        return b.const_reg(float(v))
    return 0


cdef int _negated_literal_reg(ProgramBuilder b, v) except -1:
    """The constant register of ``-v``, a literal of value ``v``, as ``_code_unary`` codes
    it (a negated float; a negated integer as ``_emit_literal_int``); 0 for the rest."""
    cdef int ov
    cdef long long iv
    if type(v) is float:
        return b.const_reg(-v)
    if type(v) is not int:
        return 0
    iv = PyLong_AsLongLongAndOverflow(v, &ov)
    if ov != 0 or iv == LLONG_MIN:
        return 0
    return b.const_reg(-iv) if 0 <= iv <= 2147483647 else b.const_reg((-iv,))


cpdef code_expr(p, scope, e, int target):
    """Compute ``e`` into register ``target``."""
    _code_expr(p, p.b, scope, e, target)


# The coder's functions below take the builder (``p.b``, read once by the public entry
# points) as an argument: reading it from the Parse object is a Python attribute lookup.
# (Code that swaps ``p.b`` puts it back before it returns, so it is the same builder
# throughout one call.)

cdef int _code_expr(p, ProgramBuilder b, scope, e, int target) except -1:
    """Code ``e`` into ``target``: 1 when ``e`` is a constant whose code is straight-line
    (no jump, no label) and writes no other register than its own new ones (literals,
    parameters, arithmetic, unary operators, CAST and COLLATE over such), which
    ``_code_operand_k`` may move to the prologue; else 0."""
    cdef int r, r1, r2, rx, z, ov, k1, k2
    cdef long long iv
    t = type(e)
    if t is T_Unary:
        return _code_unary(p, b, scope, e, target)
    if t is T_Literal:
        v = slot(e, F_LIT_VALUE)
        if type(v) is not int:
            emit_constant(b, v, target)
            return 1
        iv = PyLong_AsLongLongAndOverflow(v, &ov)
        if ov == 0:
            _emit_literal_int(b, iv, False, target)
            return 1
        if v > INT64_OVER:
            _expr.hex_too_big(p, e)  # (raises, unless compile_statement's retry notes it)
            b.emit(OP_Null, 0, target)
            return 1
        emit_constant(b, float(v), target)  # (beyond 64 bits: a REAL)
        return 1
    elif t is T_Column:
        ref = lookup_name(scope, slot(e, F_COL_NAME), slot(e, F_COL_TABLE)) \
            if scope is not None else None
        if ref is None:
            table = e.table
            if p.trigger_ctx is not None and table is not None and \
                    table.lower() in ("new", "old"):
                _expr.code_trigger_ref(p, e, target)
                return 0
            if e.quoted and table is None:
                emit_constant(b, e.name, target)
                return 0
            raise no_such_column(e.name, table)
        _code_column(p, b, ref, target)
    elif t is T_Binary:
        op = slot(e, F_BIN_OP)
        opc = _ARITH.get(op)
        if opc is not None:
            k1 = k2 = 0
            r1 = _code_operand_k(p, b, scope, slot(e, F_BIN_LEFT), &k1)
            r2 = _code_operand_k(p, b, scope, slot(e, F_BIN_RIGHT), &k2)
            b.emit(opc, r2, r1, target)
            return k1 & k2
        opc = _CMP.get(op)
        if opc is not None:
            left = slot(e, F_BIN_LEFT)
            right = slot(e, F_BIN_RIGHT)
            if (_maybe_vector(left) or _maybe_vector(right)) and \
                    _expr._rowvalue.code_compare(p, scope, e, target):
                return 0
            if (op == "IS" or op == "IS NOT") and type(right) is T_Literal:
                k = _notnull_fold(scope, e)
                if k >= 0:
                    b.emit(OP_Integer, k, target)
                    return 0
            _emit_cmp(p, b, scope, opc, left, right, target,
                      CMP_STOREP2 | (CMP_NULLEQ if op == "IS" or op == "IS NOT" else 0),
                      None, None)
        elif op == "AND" or op == "OR":
            r1 = _code_operand(p, b, scope, slot(e, F_BIN_LEFT))
            r2 = _code_operand(p, b, scope, slot(e, F_BIN_RIGHT))
            b.emit(OP_And if op == "AND" else OP_Or, r1, r2, target)
        else:
            _expr._code_binary_other(p, scope, e, target)
    elif t is T_ResolvedColumn:
        _code_column(p, b, slot(e, F_RC_REF), target)
    elif t is T_Param:
        b.emit(OP_Variable, p.param_number(e.text, e.pos), target)
        return 1
    elif t is T_Collate:  # (its collation is looked up only where one is used, as in SQLite)
        return _code_expr(p, b, scope, slot(e, F_COLLATE_EXPR), target)
    elif t is T_Cast:
        k1 = _code_expr(p, b, scope, slot(e, F_CAST_EXPR), target)
        # (P2 the affinity's character code, as SQLite's OP_Cast)
        b.emit(OP_Cast, target, ord(affinity_of_decltype(slot(e, F_CAST_TYPE))))
        return k1
    elif t is T_IsNull:
        k = _notnull_fold(scope, e)
        if k >= 0:
            b.emit(OP_Integer, k, target)
            return 0
        r = _code_expr_reg(p, b, scope, slot(e, F_ISNULL_EXPR))
        b.emit(OP_Integer, 1, target)
        lbl = b.new_label()
        b.emit(OP_IsNull if not slot(e, F_ISNULL_NEG) else OP_NotNull, r, lbl)
        b.emit(OP_Integer, 0, target)
        b.resolve(lbl)
    elif t is T_Between:
        if _vector_between(p, scope, e) and _expr._rowvalue.code_between(p, scope, e, target):
            return 0
        x = slot(e, F_BTW_EXPR)
        rx = _code_expr_reg(p, b, scope, x)
        r1 = b.alloc_reg(1)
        r2 = b.alloc_reg(1)
        _emit_cmp(p, b, scope, OP_Ge, x, slot(e, F_BTW_LOW), r1, CMP_STOREP2, rx, None)
        _emit_cmp(p, b, scope, OP_Le, x, slot(e, F_BTW_HIGH), r2, CMP_STOREP2, rx, None)
        b.emit(OP_And, r1, r2, target)
        if slot(e, F_BTW_NEG):
            b.emit(OP_Not, target, target)
    elif t is T_InList:
        _code_in_list(p, b, scope, e, target)
    elif t is T_Case:
        _code_case_b(p, b, scope, e, target)
    elif t is T_FunctionCall:
        _code_function(p, b, scope, e, target)
    else:
        _expr._code_expr_other(p, scope, e, target)


cdef int _code_unary(p, ProgramBuilder b, scope, e, int target) except -1:
    """A unary operator into ``target``; 1 when constant, as ``_code_expr``."""
    cdef int r, k, z, ov
    cdef long long iv
    op = slot(e, F_UN_OP)
    operand = slot(e, F_UN_OPERAND)
    if op == "+":  # a no-op on the value (SQLite codes the operand into the target)
        return _code_expr(p, b, scope, operand, target)
    if op == "-" and type(operand) is T_Literal and \
            type(slot(operand, F_LIT_VALUE)) in (int, float):
        v = slot(operand, F_LIT_VALUE)
        if type(v) is float:
            emit_constant(b, -v, target)
            return 1
        iv = PyLong_AsLongLongAndOverflow(v, &ov)
        if ov == 0 and iv != LLONG_MIN:  # (the common case: -v is a 64-bit integer too)
            _emit_literal_int(b, iv, True, target)
            return 1
        if type(v) is int and (v > INT64_OVER or (v == INT64_MIN
                                                  and _expr._hex_text(p, operand))):
            _expr.hex_too_big(p, operand, "-")  # (as above)
            b.emit(OP_Null, 0, target)
            return 1
        if v == INT64_OVER:
            emit_constant(b, -v, target)
            return 1
        # (else -9223372036854775808 negated, the smallest integer the parser folded:
        # SQLite codes that literal as an Int64 and negates it at run time, 0 - x)
    k = 0
    r = _code_operand_k(p, b, scope, operand, &k)  # (SQLite's sqlite3ExprCodeTemp)
    if op == "-":
        # SQLite computes -x as 0 - x (overflow to REAL included), the 0 a constant (in
        # a program with a loop: one without a cursor runs this once)
        if b.n_cursor:
            z = b.const_reg(0)
        else:
            z = b.alloc_reg(1)
            b.emit(OP_Integer, 0, z)
        b.emit(OP_Subtract, r, z, target)
    elif op == "~":
        b.emit(OP_BitNot, r, target)
    else:
        b.emit(OP_Not, r, target)
    return k



def _scalar_filter_error(p, e, f, name, nargs, ename):
    """Raise SQLite's error for a FILTER on a call of a scalar function: its look-up
    error first (no such function, wrong number of arguments, a window function without
    OVER), else 'FILTER may not be used with non-aggregate f()'."""
    from sqlengine.compiler.resolve_order import INLINE_COUNTS
    if f is None and nargs not in INLINE_COUNTS.get(name, ()):
        from sqlengine.compiler.window_args import without_over_error
        err = without_over_error(e)
        if err is not None:
            raise err
        if p.db.function_exists(name):
            raise OperationalError(f"wrong number of arguments to function {ename}()")
        raise OperationalError(f"no such function: {ename}")
    raise OperationalError(f"FILTER may not be used with non-aggregate {ename}()")


cdef int _code_function(p, ProgramBuilder b, scope, e, int target) except -1:
    """A function call (an exact FunctionCall): an aggregate the query has computed is
    read from its register (the scope's overrides, keyed by id(e)); another aggregate is
    an enclosing query's or a misuse (``expr._code_outer_aggregate``); coalesce(),
    ifnull(), iif(), likely(), unlikely() and likelihood() are coded inline, as SQLite
    does; any other scalar function is an OP_Function over its arguments' registers."""
    cdef Py_ssize_t nargs, i
    cdef int base, end
    cdef Py_UCS4 c0
    if scope is not None:
        ov = (<Scope>scope).overrides if type(scope) is Scope else scope.overrides
        if ov:
            r_ = ov.get(PyLong_FromVoidPtr(<void *>e))
            if r_ is not None:
                b.emit(OP_SCopy, r_, target)
                return 0
    args = slot(e, F_FC_ARGS)
    star = slot(e, F_FC_STAR)
    nargs = 0 if star else len(args)
    ename = slot(e, F_FC_NAME)
    name = lower_name(ename)
    if slot(e, F_FC_OVER) is not None:  # (a window query's calls are compiler/window.py's)
        from sqlengine.compiler.window import misuse_error
        raise misuse_error(p.db, e)
    functions = p.functions
    # (a name the scalar look-up finds is no aggregate's: both look the same function
    # up, so is_aggregate is asked only when it finds none)
    if type(functions) is FunctionTable:  # (the connection's table: C calls)
        f = (<FunctionTable>functions).scalar(name, nargs)
    else:  # (alter_check's stand-in)
        f = functions.scalar(name, nargs)
    if f is None and _is_aggregate(functions, name, nargs):
        _expr._code_outer_aggregate(p, scope, e, target)
        return 0
    if star:
        raise OperationalError(f"wrong number of arguments to function {ename}()")
    if slot(e, F_FC_FILTER) is not None:  # (DISTINCT, though, a scalar function ignores)
        _scalar_filter_error(p, e, f, name, nargs, ename)
    c0 = (<str>name)[0] if type(name) is str and len(<str>name) else 0
    if c0 == u"c" or c0 == u"i" or c0 == u"l" or c0 == u"u":  # (the names coded inline)
        if name == "coalesce" and nargs < 2:
            raise OperationalError(f"wrong number of arguments to function {ename}()")
        if (name == "coalesce" or name == "ifnull") and nargs >= 2:
            if name == "ifnull" and nargs != 2:
                raise OperationalError(f"wrong number of arguments to function {ename}()")
            end = b.new_label()
            for i in range(nargs):
                _code_expr(p, b, scope, args[i], target)
                if i < nargs - 1:
                    b.emit(OP_NotNull, target, end)
            b.resolve(end)
            return 0
        if (name == "iif" or name == "if") and nargs == 3:
            _code_case_b(p, b, scope, T_Case(None, [(args[0], args[1])], args[2]), target)
            return 0
        if ((name == "likely" or name == "unlikely") and nargs == 1 or
                name == "likelihood" and nargs == 2):
            if nargs == 2:
                from sqlengine.compiler.resolve_order import likelihood_error
                err = likelihood_error(e)
                if err is not None:
                    raise err
            _code_expr(p, b, scope, args[0], target)
            return 0
    if f is None:
        from sqlengine.compiler.window_args import without_over_error
        err = without_over_error(e)  # (a window function called without OVER)
        if err is not None:
            raise err
        if p.db.function_exists(name):
            raise OperationalError(f"wrong number of arguments to function {ename}()")
        raise OperationalError(f"no such function: {ename}")
    if nargs and getattr(f, "needs_collation", False):
        coll = None
        for a in args:  # the first argument that carries a collation (BINARY counts)
            has, c = expr_coll_seq(a, scope)
            if has:
                coll = c
                break
        cf = p.coll_func(coll)
        if cf is not f.coll:  # (a call with the collation it has is the same call)
            f = f.with_collation(cf)
    base = b.alloc_reg(nargs if nargs > 1 else 1)
    for i in range(nargs):
        _code_expr(p, b, scope, args[i], base + i)
    b.emit(OP_Function, 0, base, target, f, nargs)
    return 0


cdef inline bint _maybe_vector(x):
    """Whether ``x`` may be a vector (a row value, or a subquery of several columns)."""
    t = type(x)
    return t is T_RowValue or t is T_Subquery


cdef bint _vector_cmp(p, scope, left, right) except -1:
    """Whether a comparison of ``left`` and ``right`` is rowvalue's (an operand is a
    vector, or their sizes differ: an error it raises)."""
    if not _maybe_vector(left) and not _maybe_vector(right):
        return False
    vs = _expr._rowvalue.vector_size
    return vs(p, scope, left) != 1 or vs(p, scope, right) != 1


cdef bint _vector_between(p, scope, e) except -1:
    if not (_maybe_vector(slot(e, F_BTW_EXPR)) or _maybe_vector(slot(e, F_BTW_LOW)) or
            _maybe_vector(slot(e, F_BTW_HIGH))):
        return False
    vs = _expr._rowvalue.vector_size
    return vs(p, scope, e.expr) != 1 or vs(p, scope, e.low) != 1 or vs(p, scope, e.high) != 1


def _emit_cmp_py(p, scope, opcode, left, right, dest, flags, left_reg=None, right_reg=None):
    """Emit one comparison: jump to ``dest`` (a label) or, with CMP_STOREP2, store into it."""
    _emit_cmp(p, p.b, scope, opcode, left, right, dest, flags, left_reg, right_reg)


cdef int _emit_cmp(p, ProgramBuilder b, scope, int opcode, left, right, int dest, int flags,
                   left_reg, right_reg) except -1:
    cdef int rl, rr
    cdef Source src
    ref = None
    tr = type(right)
    if type(left) is T_Column and (tr is T_Literal or tr is T_Param) and scope is not None:
        # the common "column op constant": the column gives both affinity and collation
        # (a constant has neither), exactly as the general rules would find; looked up
        # once, for its reading too
        try:
            ref = lookup_name(scope, slot(left, F_COL_NAME), slot(left, F_COL_TABLE))
        except OperationalError:
            ref = None  # (coding the operand raises it)
    if left_reg is not None:
        rl = left_reg
    elif ref is not None:  # (what _code_operand codes for a column that resolves)
        rl = b.alloc_reg(1)
        _code_column(p, b, ref, rl)
    else:
        rl = _code_operand(p, b, scope, left)
    rr = right_reg if right_reg is not None else _code_operand(p, b, scope, right)
    coll = _MISSING
    if ref is not None:
            col = (<ColRef>ref).col
            if col < 0:
                aff = comparison_affinity("D", AFF_NONE)
                coll = None
            else:
                src = (<ColRef>ref).source
                aff = comparison_affinity(src.affs[col], AFF_NONE)
                coll = src.colls[col]
    if coll is _MISSING:
        aff = comparison_affinity(expr_affinity(left, scope), expr_affinity(right, scope))
        coll = comparison_collation(left, right, scope)
        if aff == "B" and (_keeps_number(left) or _keeps_number(right)):
            rl = _text_copy(b, left, rl)
            rr = _text_copy(b, right, rr)
            aff = None
    if coll is not None and flags & CMP_NULLEQ and tr is T_Literal and \
            slot(right, F_LIT_VALUE) is None:
        coll = None  # (x IS [NOT] NULL: SQLite's TK_ISNULL/TK_NOTNULL, which uses none)
    b.emit(opcode, rr, dest, rl, None if coll is None else p.coll_func(coll),
           _aff_p5(aff) | flags)


cdef inline int _aff_p5(aff):
    """``_AFF_CODE.get(aff, 0)``: the P5 code of an affinity character (O.AFF_CHARS is
    "@ABCDE", coded 0 to 5), 0 for anything else (None)."""
    cdef Py_UCS4 ch
    cdef long c
    if type(aff) is str and len(<str>aff) == 1:
        ch = (<str>aff)[0]
        c = <long>ch
        if c >= 64 and c <= 69:
            return <int>(c - 64)
    return 0


cdef bint _keeps_number(e):
    """Whether ``e`` is replace(), which SQLite gives back its first argument unchanged
    when the pattern is empty: a number then also holding its text form, which TEXT
    affinity leaves a number (so it compares below any text). Its other results are text
    or NULL, which TEXT affinity leaves as they are, so a comparison under TEXT affinity
    converts only the other operand."""
    while type(e) is T_Unary and e.op == "+":
        e = e.operand
    return type(e) is A.FunctionCall and e.over is None and len(e.args) == 3 and \
        e.name.lower() == "replace"


cdef int _text_copy(ProgramBuilder b, e, int r):
    """For a comparison under TEXT affinity where an operand keeps its number: the
    register of operand ``e`` (in ``r``) with TEXT affinity applied, in a copy."""
    cdef int t
    if _keeps_number(e):
        return r
    t = b.alloc_reg(1)
    b.emit(OP_SCopy, r, t)
    b.emit(O.OP_Affinity, t, 1, 0, "B")
    return t


cdef bint _constant_items(list items) except -1:
    for item in items:
        if not _expr.is_constant(item):
            return False
    return True


cdef int _code_in_list(p, ProgramBuilder b, scope, e, int target) except -1:
    """``x [NOT] IN (items)`` into ``target``: 1, 0, or NULL when no item matches and x or
    an item is NULL."""
    cdef int rx, has_null = 0, nul, done, found
    items = slot(e, F_INL_ITEMS)
    negated = slot(e, F_INL_NEG)
    if not items:
        b.emit(OP_Integer, 1 if negated else 0, target)
        return 0
    x = slot(e, F_INL_EXPR)
    if type(x) is T_RowValue:  # (a, b) IN ((1, 2), ...) is IN (VALUES (1, 2), ...)
        _code_expr(p, b, scope, _expr._rowvalue.in_list_as_values(e), target)
        return 0
    if type(x) is T_Subquery:
        _expr._rowvalue.check_in_list_lhs(p, scope, e)
    rx = _code_expr_reg(p, b, scope, x)
    if p.returning is not None and len(items) > 2 and _constant_items(items):
        # (SQLite probes such a list as an ephemeral table, converting its left side)
        from sqlengine.compiler.select import convert_row_column
        convert_row_column(p, scope, x, expr_affinity(x, scope))
    done = b.new_label()
    found = b.new_label()
    b.emit(OP_Null, 0, target)
    nul = _in_list_items(p, b, scope, x, items, rx, found, &has_null)
    _in_list_unknown(b, rx, nul, has_null, done)
    b.emit(OP_Integer, 1 if negated else 0, target)
    b.emit(OP_Goto, 0, done)
    b.resolve(found)
    b.emit(OP_Integer, 0 if negated else 1, target)
    b.resolve(done)
    return 0


cdef bint _in_list_jumps(p, scope, e) except -1:
    """Whether the IN list ``e`` is coded as jumps by ``_jump_in_list`` (a scalar left
    operand, at least one item, outside RETURNING)."""
    x = slot(e, F_INL_EXPR)
    return bool(slot(e, F_INL_ITEMS)) and type(x) is not T_RowValue and \
        type(x) is not T_Subquery and p.returning is None


cdef int _jump_in_list(p, ProgramBuilder b, scope, e, int label, bint when,
                       bint jump_if_null) except -1:
    """Jump to ``label`` when ``x [NOT] IN (items)`` (``_in_list_jumps``) is ``when``
    (true, or false), or NULL with ``jump_if_null``; else fall through. SQLite's
    sqlite3ExprCodeIN for a list it compares item by item."""
    cdef int rx, has_null = 0, nul, found
    x = slot(e, F_INL_EXPR)
    rx = _code_expr_reg(p, b, scope, x)
    if when != bool(slot(e, F_INL_NEG)):  # (a match is the outcome that jumps)
        nul = _in_list_items(p, b, scope, x, slot(e, F_INL_ITEMS), rx, label, &has_null)
        if jump_if_null:
            _in_list_unknown(b, rx, nul, has_null, label)
        return 0
    found = b.new_label()
    nul = _in_list_items(p, b, scope, x, slot(e, F_INL_ITEMS), rx, found, &has_null)
    if not jump_if_null:
        _in_list_unknown(b, rx, nul, has_null, found)
    b.emit(OP_Goto, 0, label)
    b.resolve(found)
    return 0


cdef int _in_list_items(p, ProgramBuilder b, scope, x, list items, int rx, int found,
                        int *has_null) except -1:
    """The comparisons of ``x`` (in ``rx``) with each item, in order: a jump to ``found``
    at the first equal one. Every item is evaluated, even when x is NULL (their errors are
    raised), as SQLite does; a constant one once per run (``_code_operand_k``). Returns 1
    when an item is the NULL literal (no match then means NULL), else 0. ``has_null[0]``
    is set to a register holding 0 unless an item that may be NULL at run time (not a
    literal) was NULL, made at the first such item; it stays 0 (no register) without one."""
    cdef int ri, nn, aff_p5, nul = 0
    cdef bint text_items, first = True
    aff_p5 = _AFF_CODE.get(expr_affinity(x, scope), 0)
    text_items = aff_p5 == _AFF_CODE.get("B", 0)  # (TEXT: a number item is compared as text)
    # x IN (list) compares with x's collation; x IN (constant) is x = +constant (parse.y)
    if len(items) == 1 and (type(items[0]) is T_Literal or _expr.is_constant(items[0])):
        coll_name = comparison_collation(x, items[0], scope)
    else:
        coll_name = expr_collation(x, scope)
    for item in items:
        if type(item) is T_Literal and slot(item, F_LIT_VALUE) is None:
            nul = 1  # (equal to nothing)
            ri = 0
        else:
            ri = _code_operand(p, b, scope, item)
        if first:  # (one collation for every item: asked once the first item is coded)
            coll = p.coll_func(coll_name)
            first = False
        if ri == 0:
            continue
        if not _never_null(item):
            if has_null[0] == 0:
                has_null[0] = b.alloc_reg(1)
                b.emit(OP_Integer, 0, has_null[0])
            nn = b.new_label()
            b.emit(OP_NotNull, ri, nn)
            b.emit(OP_Integer, 1, has_null[0])
            b.resolve(nn)
        if text_items and _keeps_number(item):
            b.emit(OP_Eq, ri, found, _text_copy(b, x, rx), coll, 0)
            continue
        b.emit(OP_Eq, ri, found, rx, coll, aff_p5)
    return nul


cdef bint _never_null(e):
    """Whether ``e`` is a literal other than NULL, or one under unary + or - (never NULL)."""
    while type(e) is T_Unary and slot(e, F_UN_OP) in ("+", "-"):
        e = slot(e, F_UN_OPERAND)
    return type(e) is T_Literal and slot(e, F_LIT_VALUE) is not None


cdef int _in_list_unknown(ProgramBuilder b, int rx, int nul, int has_null,
                          int label) except -1:
    """After ``_in_list_items`` found no match: jump to ``label`` when the outcome is NULL
    (x NULL, or a NULL item)."""
    if nul:
        b.emit(OP_Goto, 0, label)
        return 0
    b.emit(OP_IsNull, rx, label)
    if has_null:
        b.emit(OP_IfPos, has_null, label, 0)
    return 0


cdef int OP_Count = O.OP_Count
cdef int OP_IfNullJump = O.OP_IfNullJump
cdef int OP_Rewind = O.OP_Rewind
cdef int OP_Next = O.OP_Next
cdef int OP_Affinity = O.OP_Affinity
cdef int OP_OpenEphemeral = O.OP_OpenEphemeral


cpdef code_in_probe(p, scope, lhs_items, lhs_regs, last, rhs_exprs, dest, int cur,
                    Py_ssize_t once_addr, Py_ssize_t open_addr, int after, bint corr,
                    bint negated, int target):
    """The end of ``x IN (SELECT ...)`` (select.code_in_subquery) once its sub-SELECT is
    coded into the set ``cur`` (SetDest ``dest``) between the OP_Once at ``once_addr`` and
    label ``after``: each comparison's affinity and collation (the left item's against the
    column of the rightmost SELECT ``last``, whose result expressions are ``rhs_exprs``, or
    None), applied to the set's MakeRecords and to its OP_OpenEphemeral at ``open_addr``;
    the OP_Once dropped for a correlated sub-SELECT (``corr``); then the probe, 1 (0 if
    ``negated``), 0 (1) or NULL into ``target``. ``lhs_regs``: the left side's registers
    when a row-valued subquery computed them, else None (the items are coded here)."""
    cdef ProgramBuilder b = p.b
    cdef Py_ssize_t n = len(lhs_items), i
    cdef int key, done, found, has_null, cnt, empty, scan, nul, top, differs, r
    cdef bint convert = False
    cdef list colls = [None] * n
    last_affs = last.affs
    last_colls = last.colls
    affs = ""
    for i in range(n):
        item = lhs_items[i]
        la = expr_affinity(item, scope)
        ra = last_affs[i]
        affs += comparison_affinity(ra, la) if ra else la
        # sqlite3BinaryCompareCollSeq(lhs item, the subquery's column)
        rhs = rhs_exprs[i] if rhs_exprs is not None and i < len(rhs_exprs) else None
        has, c = expr_coll_seq(item, scope)
        if rhs is not None and not _has_explicit_collate(item) and _has_explicit_collate(rhs):
            c = last_colls[i]
        elif not has:
            c = last_colls[i]
        colls[i] = p.collation(c)
    for a in affs:
        if a != "@" and a != "A":
            convert = True
            break
    aff = affs if convert else None
    dest.aff = aff  # (SetDest.set_affinity)
    for a in dest.addrs:
        b._set_field(b._index(a), 4, aff)
    i = b._index(open_addr)
    b._set_field(i, 0, OP_OpenEphemeral)
    b._set_field(i, 1, cur)
    b._set_field(i, 2, n)
    b._set_field(i, 3, 0)
    b._set_field(i, 4, SortSpec(n, colls))
    b._set_field(i, 5, 0)
    b._set_field(i, 6, None)
    b.resolve(after)
    if corr:
        b._set_field(b._index(once_addr), 0, OP_Noop)
    # the probe (sqlite3ExprCodeIN)
    key = b.alloc_reg(n)
    for i in range(n):
        if lhs_regs is not None:
            b.emit(OP_SCopy, lhs_regs[i], key + i)
        else:
            _code_expr(p, b, scope, lhs_items[i], key + i)
    if p.returning is not None and n == 1 and lhs_regs is None:
        from sqlengine.compiler.select import convert_row_column
        convert_row_column(p, scope, lhs_items[0], affs)  # (an empty set's too)
    done = b.new_label()
    found = b.new_label()
    has_null = b.new_label()
    cnt = b.alloc_reg(1)
    b.emit(OP_Count, cur, cnt)
    empty = b.new_label()
    b.emit(OP_IfNot, cnt, empty, 0)
    scan = has_null if n == 1 else b.new_label()
    # a left side holding a NULL goes to the scan before the affinity is applied to it
    # (sqlite3ExprCodeIN's step 2 comes before its OP_Affinity)
    b.emit(OP_IfNullJump, key, scan, n)
    if convert:
        b.emit(OP_Affinity, key, n, 0, affs)
    b.emit(OP_Found, cur, found, key, n)
    # not found: NULL if the set holds a NULL (single column), else false
    if n == 1:
        nul = b.alloc_reg(1)
        b.emit(OP_Null, 0, nul)
        b.emit(OP_Found, cur, has_null, nul, 1)
    else:
        # several columns (sqlite3ExprCodeIN's step 6): NULL when some row of the set has
        # no column that differs for sure from the left side's (NULLs compare unknown)
        b.resolve(scan)
        b.emit(OP_Rewind, cur, empty)
        top = b.addr()
        differs = b.new_label()
        r = b.alloc_reg(1)
        for i in range(n):
            b.emit(OP_Column, cur, i, r)
            b.emit(OP_Ne, key + i, differs, r, p.coll_func(expr_collation(lhs_items[i], scope)), 0)
        b.emit(OP_Goto, 0, has_null)
        b.resolve(differs)
        b.emit(OP_Next, cur, top)
    b.resolve(empty)
    b.emit(OP_Integer, 1 if negated else 0, target)
    b.emit(OP_Goto, 0, done)
    b.resolve(found)
    b.emit(OP_Integer, 0 if negated else 1, target)
    b.emit(OP_Goto, 0, done)
    b.resolve(has_null)
    b.emit(OP_Null, 0, target)
    b.resolve(done)


def _code_case(p, scope, e, int target):
    """CASE [operand] WHEN ... THEN ... [ELSE ...] END."""
    _code_case_b(p, p.b, scope, e, target)


cdef int _code_case_b(p, ProgramBuilder b, scope, e, int target) except -1:
    cdef int end, nxt, r0 = 0
    operand = slot(e, F_CASE_OPERAND)
    if _maybe_vector(operand) and _expr._rowvalue.code_case(p, scope, e, target):
        return 0
    end = b.new_label()
    if operand is not None:
        r0 = _code_expr_reg(p, b, scope, operand)
    for w, then in slot(e, F_CASE_WHENS):
        nxt = b.new_label()
        if operand is not None:
            _emit_cmp(p, b, scope, OP_Ne, operand, w, nxt, CMP_JUMPIFNULL, r0, None)
        else:
            _if_false(p, b, scope, w, nxt, True)
        _code_expr(p, b, scope, then, target)
        b.emit(OP_Goto, 0, end)
        b.resolve(nxt)
    else_ = slot(e, F_CASE_ELSE)
    if else_ is not None:
        _code_expr(p, b, scope, else_, target)
    else:
        b.emit(OP_Null, 0, target)
    b.resolve(end)


# ------------------------------------------------------------------------------------------
# Conditions as jumps
# ------------------------------------------------------------------------------------------

cpdef if_false(p, scope, e, int label, bint jump_if_null):
    """Jump to ``label`` when ``e`` is false (and when NULL if ``jump_if_null``)."""
    _if_false(p, p.b, scope, e, label, jump_if_null)


cpdef if_true(p, scope, e, int label, bint jump_if_null):
    """Jump to ``label`` when ``e`` is true (and when NULL if ``jump_if_null``)."""
    _if_true(p, p.b, scope, e, label, jump_if_null)


cdef int _if_false(p, ProgramBuilder b, scope, e, int label, bint jump_if_null) except -1:
    cdef int r, rx, d2, f
    t = type(e)
    if t is T_Binary:
        op = slot(e, F_BIN_OP)
        if op == "AND":
            _if_false(p, b, scope, slot(e, F_BIN_LEFT), label, jump_if_null)
            _if_false(p, b, scope, slot(e, F_BIN_RIGHT), label, jump_if_null)
            return 0
        if op == "OR":
            d2 = b.new_label()
            _if_true(p, b, scope, slot(e, F_BIN_LEFT), d2, not jump_if_null)
            _if_false(p, b, scope, slot(e, F_BIN_RIGHT), label, jump_if_null)
            b.resolve(d2)
            return 0
        opc = _CMP.get(op)
        if opc is not None:
            left = slot(e, F_BIN_LEFT)
            right = slot(e, F_BIN_RIGHT)
            if not _vector_cmp(p, scope, left, right):
                if op == "IS" or op == "IS NOT":
                    k = _notnull_fold(scope, e) if type(right) is T_Literal else -1
                    if k >= 0:
                        if k == 0:
                            b.emit(OP_Goto, 0, label)
                        return 0
                    _emit_cmp(p, b, scope, _NEGATE[opc], left, right, label, CMP_NULLEQ,
                              None, None)
                else:
                    _emit_cmp(p, b, scope, _NEGATE[opc], left, right, label,
                              CMP_JUMPIFNULL if jump_if_null else 0, None, None)
                return 0
    elif t is T_Unary and slot(e, F_UN_OP) == "NOT":
        _if_true(p, b, scope, slot(e, F_UN_OPERAND), label, jump_if_null)
        return 0
    elif t is T_IsNull:
        k = _notnull_fold(scope, e)
        if k >= 0:
            if k == 0:
                b.emit(OP_Goto, 0, label)
            return 0
        r = _code_expr_reg(p, b, scope, slot(e, F_ISNULL_EXPR))
        b.emit(OP_NotNull if not slot(e, F_ISNULL_NEG) else OP_IsNull, r, label)
        return 0
    elif t is T_Between and _vector_between(p, scope, e):
        _expr._rowvalue.jump_between(p, scope, e, label, jump_if_null, False)
        return 0
    elif t is T_InList and _in_list_jumps(p, scope, e):
        _jump_in_list(p, b, scope, e, label, False, jump_if_null)
        return 0
    elif t is T_Between:
        # NOT BETWEEN jumps as SQLite's NOT over BETWEEN: when the BETWEEN is true
        if slot(e, F_BTW_NEG):
            _between_if_true(p, b, scope, e, label, jump_if_null)
        else:
            _between_if_false(p, b, scope, e, label, jump_if_null)
        return 0
    elif t is T_Literal:
        v = slot(e, F_LIT_VALUE)
        if v is not None and type(v) is int and v <= INT64_MAX:
            if not v:
                b.emit(OP_Goto, 0, label)
            return 0
    r = _code_expr_reg(p, b, scope, e)
    b.emit(OP_IfNot, r, label, 1 if jump_if_null else 0)


cdef int _if_true(p, ProgramBuilder b, scope, e, int label, bint jump_if_null) except -1:
    cdef int r, rx, d2
    t = type(e)
    if t is T_Binary:
        op = slot(e, F_BIN_OP)
        if op == "AND":
            d2 = b.new_label()
            _if_false(p, b, scope, slot(e, F_BIN_LEFT), d2, not jump_if_null)
            _if_true(p, b, scope, slot(e, F_BIN_RIGHT), label, jump_if_null)
            b.resolve(d2)
            return 0
        if op == "OR":
            _if_true(p, b, scope, slot(e, F_BIN_LEFT), label, jump_if_null)
            _if_true(p, b, scope, slot(e, F_BIN_RIGHT), label, jump_if_null)
            return 0
        opc = _CMP.get(op)
        if opc is not None:
            left = slot(e, F_BIN_LEFT)
            right = slot(e, F_BIN_RIGHT)
            if not _vector_cmp(p, scope, left, right):
                if op == "IS" or op == "IS NOT":
                    k = _notnull_fold(scope, e) if type(right) is T_Literal else -1
                    if k >= 0:
                        if k == 1:
                            b.emit(OP_Goto, 0, label)
                        return 0
                    _emit_cmp(p, b, scope, opc, left, right, label, CMP_NULLEQ, None, None)
                else:
                    _emit_cmp(p, b, scope, opc, left, right, label,
                              CMP_JUMPIFNULL if jump_if_null else 0, None, None)
                return 0
    elif t is T_Unary and slot(e, F_UN_OP) == "NOT":
        _if_false(p, b, scope, slot(e, F_UN_OPERAND), label, jump_if_null)
        return 0
    elif t is T_IsNull:
        k = _notnull_fold(scope, e)
        if k >= 0:
            if k == 1:
                b.emit(OP_Goto, 0, label)
            return 0
        r = _code_expr_reg(p, b, scope, slot(e, F_ISNULL_EXPR))
        b.emit(OP_IsNull if not slot(e, F_ISNULL_NEG) else OP_NotNull, r, label)
        return 0
    elif t is T_Between and _vector_between(p, scope, e):
        _expr._rowvalue.jump_between(p, scope, e, label, jump_if_null, True)
        return 0
    elif t is T_InList and _in_list_jumps(p, scope, e):
        _jump_in_list(p, b, scope, e, label, True, jump_if_null)
        return 0
    elif t is T_Between:
        if slot(e, F_BTW_NEG):
            _between_if_false(p, b, scope, e, label, jump_if_null)
        else:
            _between_if_true(p, b, scope, e, label, jump_if_null)
        return 0
    r = _code_expr_reg(p, b, scope, e)
    b.emit(OP_If, r, label, 1 if jump_if_null else 0)


cdef int _between_if_false(p, ProgramBuilder b, scope, e, int label,
                           bint jump_if_null) except -1:
    """Jump to ``label`` unless x >= lo AND x <= hi (``e``'s operands, its NOT ignored),
    short-circuited as SQLite's exprCodeBetween: hi is not computed when x < lo."""
    cdef int rx
    x = slot(e, F_BTW_EXPR)
    rx = _code_expr_reg(p, b, scope, x)
    f = CMP_JUMPIFNULL if jump_if_null else 0
    _emit_cmp(p, b, scope, OP_Lt, x, slot(e, F_BTW_LOW), label, f, rx, None)
    _emit_cmp(p, b, scope, OP_Gt, x, slot(e, F_BTW_HIGH), label, f, rx, None)
    return 0


cdef int _between_if_true(p, ProgramBuilder b, scope, e, int label,
                          bint jump_if_null) except -1:
    """Jump to ``label`` when x >= lo AND x <= hi (``e``'s operands, its NOT ignored)."""
    cdef int rx, d2
    x = slot(e, F_BTW_EXPR)
    rx = _code_expr_reg(p, b, scope, x)
    d2 = b.new_label()
    _emit_cmp(p, b, scope, OP_Lt, x, slot(e, F_BTW_LOW), d2,
              0 if jump_if_null else CMP_JUMPIFNULL, rx, None)
    _emit_cmp(p, b, scope, OP_Le, x, slot(e, F_BTW_HIGH), label,
              CMP_JUMPIFNULL if jump_if_null else 0, rx, None)
    b.resolve(d2)
    return 0


# ------------------------------------------------------------------------------------------
# Walking
# ------------------------------------------------------------------------------------------

@cython.final
cdef class _SelectMark:
    """A subquery to walk once the operands pushed before it are done."""

    cdef object select

    def __init__(self, select):
        self.select = select


cdef frozenset _WALK_LEAVES = frozenset((A.Column, A.Literal, A.Param, ResolvedColumn,
                                         A.CurrentTime, A.Star))


cpdef walk(e, fn, bint into_subqueries=False):
    """Call ``fn(node)`` on ``e`` and its sub-expressions (pre-order); ``fn`` returning
    False stops the descent below that node."""
    if e is None:
        return
    cdef list stack = [e]
    while stack:
        e = stack.pop()
        if e is None:  # a missing operand (an absent ELSE, ESCAPE, ...)
            continue
        t = type(e)
        if t is _SelectMark:
            _expr.walk_select((<_SelectMark>e).select, fn)
            continue
        if fn(e) is False or t in _WALK_LEAVES:
            continue
        # operands are pushed last-first, so that they are visited first-first
        if t is T_Binary:
            stack.append(slot(e, F_BIN_RIGHT))
            stack.append(slot(e, F_BIN_LEFT))
        elif t is T_Unary:
            stack.append(slot(e, F_UN_OPERAND))
        elif t is T_IsNull:
            stack.append(slot(e, F_ISNULL_EXPR))
        elif t is T_Collate:
            stack.append(slot(e, F_COLLATE_EXPR))
        elif t is T_Cast:
            stack.append(slot(e, F_CAST_EXPR))
        elif t is T_Between:
            stack.append(slot(e, F_BTW_HIGH))
            stack.append(slot(e, F_BTW_LOW))
            stack.append(slot(e, F_BTW_EXPR))
        elif t is T_InList:
            stack.extend(reversed(slot(e, F_INL_ITEMS)))
            stack.append(slot(e, F_INL_EXPR))
        elif t is T_FunctionCall:
            stack.append(slot(e, F_FC_FILTER))
            stack.extend(reversed(slot(e, F_FC_ARGS)))
        elif t is T_Case:
            stack.append(slot(e, F_CASE_ELSE))
            for w, th in reversed(slot(e, F_CASE_WHENS)):
                stack.append(th)
                stack.append(w)
            stack.append(slot(e, F_CASE_OPERAND))
        elif t is T_Like:
            stack.append(e.escape)
            stack.append(e.right)
            stack.append(e.left)
        elif t is T_InSelect:
            if into_subqueries:
                stack.append(_SelectMark(e.select))
            stack.append(e.expr)
        elif t is T_InTable:
            stack.append(e.expr)
        elif t is T_Exists or t is T_Subquery:
            if into_subqueries:
                stack.append(_SelectMark(e.select))
        elif t is T_RowValue:
            stack.extend(reversed(e.items))
        elif t is T_Raise:
            stack.append(e.message)


# ------------------------------------------------------------------------------------------
# Aggregate calls
# ------------------------------------------------------------------------------------------

cdef bint _is_aggregate(functions, name, int nargs) except -1:
    """``functions.is_aggregate(name, nargs)``: a C call on the connection's
    FunctionTable, a method call on another object (alter_check's stand-in)."""
    if type(functions) is FunctionTable:
        return (<FunctionTable>functions).is_aggregate(name, nargs)
    return functions.is_aggregate(name, nargs)


cdef bint _is_agg_call(e, functions, dict memo) except -1:
    """Whether the FunctionCall ``e`` calls an aggregate (not as a window function) of
    ``functions`` (``p.functions``); ``memo`` keeps the answers per (name, argument
    count) for one walk."""
    cdef Py_ssize_t n
    if type(e) is not T_FunctionCall:  # (a subclass: its fields read as attributes)
        if e.over is not None:
            return False
        name = e.name
        n = 0 if e.star else len(e.args)
    else:
        if slot(e, F_FC_OVER) is not None:
            return False
        name = slot(e, F_FC_NAME)
        n = 0 if slot(e, F_FC_STAR) else len(slot(e, F_FC_ARGS))
    key = (name, n)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _is_aggregate(functions, name, n)
    return hit


cpdef aggs_in(e, functions, list out, list refs, dict memo):
    """The aggregate walk of ``select._collect_aggs`` over one expression: calls of an
    aggregate of ``functions`` (``p.functions``; pre-order, subqueries aside) are
    appended to ``out``; column references outside them
    and the subqueries met (Subquery, Exists, InSelect) to ``refs``. An aggregate inside an
    aggregate's arguments is ``misuse of aggregate function``."""
    t = type(e)
    if t is T_Column or t is T_ResolvedColumn:
        refs.append(e)
        return
    if t is T_Literal or t is T_Param or t is T_CurrentTime:
        return
    if t is T_Binary:
        aggs_in(slot(e, F_BIN_LEFT), functions, out, refs, memo)
        aggs_in(slot(e, F_BIN_RIGHT), functions, out, refs, memo)
        return
    if t is T_Unary:
        aggs_in(slot(e, F_UN_OPERAND), functions, out, refs, memo)
        return
    if t is T_Cast:
        aggs_in(slot(e, F_CAST_EXPR), functions, out, refs, memo)
        return
    if t is T_IsNull:
        aggs_in(slot(e, F_ISNULL_EXPR), functions, out, refs, memo)
        return
    if t is T_Collate:
        aggs_in(slot(e, F_COLLATE_EXPR), functions, out, refs, memo)
        return
    if t is T_Between:  # (walk.operands' order here and below)
        aggs_in(slot(e, F_BTW_EXPR), functions, out, refs, memo)
        aggs_in(slot(e, F_BTW_LOW), functions, out, refs, memo)
        aggs_in(slot(e, F_BTW_HIGH), functions, out, refs, memo)
        return
    if t is T_InList:
        aggs_in(slot(e, F_INL_EXPR), functions, out, refs, memo)
        for x in slot(e, F_INL_ITEMS):
            if x is not None:
                aggs_in(x, functions, out, refs, memo)
        return
    if t is T_Like:
        aggs_in(slot(e, F_LIKE_LEFT), functions, out, refs, memo)
        aggs_in(slot(e, F_LIKE_RIGHT), functions, out, refs, memo)
        x = slot(e, F_LIKE_ESCAPE)
        if x is not None:
            aggs_in(x, functions, out, refs, memo)
        return
    if t is T_Case:  # (walk.operands' order: operand, each WHEN and THEN, ELSE)
        x = slot(e, F_CASE_OPERAND)
        if x is not None:
            aggs_in(x, functions, out, refs, memo)
        for w, th in slot(e, F_CASE_WHENS):
            aggs_in(w, functions, out, refs, memo)
            aggs_in(th, functions, out, refs, memo)
        x = slot(e, F_CASE_ELSE)
        if x is not None:
            aggs_in(x, functions, out, refs, memo)
        return
    if t is T_FunctionCall:
        if _is_agg_call(e, functions, memo):
            for a in slot(e, F_FC_ARGS):
                no_aggregate_in(a, functions, memo)
            out.append(e)
            return
        for a in slot(e, F_FC_ARGS):
            aggs_in(a, functions, out, refs, memo)
        x = slot(e, F_FC_FILTER)
        if x is not None:
            aggs_in(x, functions, out, refs, memo)
        return
    if t is T_Subquery or t is T_Exists:
        refs.append(e)
        return
    if t is T_InSelect:
        aggs_in(slot(e, F_INSEL_EXPR), functions, out, refs, memo)
        refs.append(e)
        return
    for x in _operands(e):
        if x is not None:
            aggs_in(x, functions, out, refs, memo)


cpdef no_aggregate_in(e, functions, dict memo):
    """Raise ``misuse of aggregate function`` for an aggregate call in ``e`` (not looking
    into subqueries, nor at the left side of IN (subquery))."""
    cdef list stack = [e]
    while stack:
        e = stack.pop()
        t = type(e)
        if t is T_Literal or t is T_Column or t is T_Param:
            continue
        if t is T_FunctionCall and _is_agg_call(e, functions, memo):
            raise OperationalError(f"misuse of aggregate function {e.name}()")
        if t is T_Subquery or t is T_Exists or t is T_InSelect:
            continue
        if t is T_Unary:
            stack.append(slot(e, F_UN_OPERAND))
            continue
        if t is T_Binary:
            stack.append(slot(e, F_BIN_LEFT))
            stack.append(slot(e, F_BIN_RIGHT))
            continue
        if t is T_Cast:
            stack.append(slot(e, F_CAST_EXPR))
            continue
        if t is T_Collate:
            stack.append(slot(e, F_COLLATE_EXPR))
            continue
        if t is T_IsNull:
            stack.append(slot(e, F_ISNULL_EXPR))
            continue
        for x in _operands(e):
            if x is not None:
                stack.append(x)


cpdef bare_refs(scope, list refs, dict keys, on_subquery):
    """``select._compile_aggregate``'s walk of ``refs`` (what ``aggs_in`` gathered), in
    order: each column that resolves in ``scope`` itself goes into ``keys`` by its
    (cursor, column) (a name that fails to resolve is skipped: coding it tells the
    error), and ``on_subquery(scope, keys, e)`` is called for each subquery ``e``."""
    cdef ColRef ref
    cdef Source src
    for e in refs:
        t = type(e)
        if t is T_ResolvedColumn:
            r = slot(e, F_RC_REF)
        elif t is T_Column:
            try:
                r = lookup_name(scope, slot(e, F_COL_NAME), slot(e, F_COL_TABLE))
            except OperationalError:
                continue
            if r is None:
                continue
        else:
            on_subquery(scope, keys, e)
            continue
        ref = r
        if ref.scope is scope:
            src = ref.source
            keys[(src.cursor, ref.col)] = ref
