# cython: language_level=3, nonecheck=True
"""The bytecode loop: runs one compiled ``Program`` over the registers and cursors of a run.

``Vdbe(db, program)`` holds the run state (registers, cursors, program counter, Once flags,
aggregate states, bound parameters); the program itself is never modified, so one compiled
program serves every run. ``step()`` runs until the next result row (returned as a tuple)
or the end (None). One function switches on the opcode; the opcode numbers come from
``opcodes.py`` and are repeated in the enum below (a test holds the two lists together).

The VM calls ``_values`` for every SQL value operation, the storage layer's cursors for
every b-tree move, and a few hooks of the database object (``db._vm_begin``,
``db._vm_autocommit``, ``db._vm_parse_schema``...) for transactions and schema changes. It
never parses SQL and never decides a plan; errors it raises are ``sqlengine.errors``
classes carrying SQLite's messages.
"""

from sqlengine.vdbe._values cimport (apply_affinity, compare, compare_with_affinity,
                                     add, sub, mul, div, rem, negate, bit_and, bit_or,
                                     bit_not, shift_left, shift_right, concat, truth,
                                     logical_not, cast_affinity, cast, real_affinity,
                                     int_real_order)

cimport cython
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE, PyList_SET_ITEM
from cpython.ref cimport PyObject, Py_INCREF, Py_XDECREF
from cpython cimport array
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM, PyTuple_GET_ITEM
from cpython.set cimport PySet_Discard
from cpython.weakref cimport PyWeakref_GetObject
from cpython.exc cimport PyErr_CheckSignals
from weakref import ref as weakref_ref

from sqlengine import errors as E
from sqlengine.vdbe._aggregates cimport AggBase
from sqlengine.vdbe._scalar cimport ScalarBase
from sqlengine.storage._btree cimport (BtCursor, begin_cookie, end_transaction, open_cursor,
                                       park_cursor)
from sqlengine.storage._record cimport KeyInfo
from sqlengine.storage._pageread cimport PagerState
from sqlengine.vdbe import sorter as S
from sqlengine.vdbe._sorter cimport (SortSpec, Sorter, EphTable, EphIndex, EphHash,
                                     new_sorter, new_eph_table, new_eph_index, new_eph_hash,
                                     row_key)
from sqlengine.vdbe.program cimport Program
from sqlengine.vdbe.opcodes import DDL_COUNTS_CHANGES
from sqlengine.storage._record cimport encode_record
from sqlengine.storage._record import decode_record

cdef enum:
    OP_Noop, OP_Init, OP_Goto, OP_Halt, OP_HaltIfNull, OP_Integer, OP_Int64, OP_Real,
    OP_String8, OP_Blob, OP_Null, OP_Variable, OP_Move, OP_Copy, OP_SCopy, OP_ResultRow,
    OP_OpenRead, OP_OpenWrite, OP_OpenEphemeral, OP_OpenPseudo, OP_Close, OP_Rewind,
    OP_Last, OP_Next, OP_Prev, OP_SeekRowid, OP_NotExists, OP_SeekGE, OP_SeekGT, OP_SeekLE,
    OP_SeekLT, OP_IdxGE, OP_IdxGT, OP_IdxLE, OP_IdxLT, OP_IdxRowid, OP_Column, OP_Rowid,
    OP_NullRow, OP_IfNullRow, OP_MakeRecord, OP_NewRowid, OP_Insert, OP_IdxInsert,
    OP_Delete, OP_IdxDelete, OP_Found, OP_NotFound, OP_NoConflict, OP_Count, OP_Clear,
    OP_Eq, OP_Ne, OP_Lt, OP_Le, OP_Gt, OP_Ge, OP_Compare, OP_Jump, OP_If, OP_IfNot,
    OP_IsNull, OP_NotNull, OP_And, OP_Or, OP_Not, OP_IsTrue, OP_Add, OP_Subtract,
    OP_Multiply, OP_Divide, OP_Remainder, OP_Concat, OP_BitAnd, OP_BitOr, OP_ShiftLeft,
    OP_ShiftRight, OP_BitNot, OP_Negative, OP_Function, OP_AggStep, OP_AggFinal,
    OP_AggValue, OP_SorterOpen, OP_SorterInsert, OP_SorterSort, OP_SorterNext,
    OP_SorterData, OP_ResetSorter, OP_Once, OP_Gosub, OP_Return, OP_InitCoroutine,
    OP_Yield, OP_EndCoroutine, OP_Affinity, OP_Cast, OP_CastType, OP_RealAffinity,
    OP_MustBeInt, OP_IfPos, OP_IfNotZero, OP_DecrJumpZero, OP_OffsetLimit, OP_Transaction,
    OP_AutoCommit, OP_Savepoint, OP_ReadCookie, OP_SetCookie, OP_CreateBtree, OP_Destroy,
    OP_ParseSchema, OP_SetLastRowid, OP_AddChanges, OP_Sequence, OP_IdxKeyCheck,
    OP_RowData, OP_MemMax, OP_Raise, OP_IfNullJump, OP_InListCheck, OP_ClrSubtype,
    OP_SorterCutoff, OP_Program, OP_OpenDup

# Cursor kinds
cdef enum:
    K_TABLE = 0
    K_INDEX = 1
    K_EPH_TABLE = 2
    K_EPH_INDEX = 3
    K_SORTER = 4
    K_PSEUDO = 5
    K_EPH_HASH = 6

DEF CMP_JUMPIFNULL = 0x10
DEF CMP_STOREP2 = 0x20
DEF CMP_NULLEQ = 0x80
DEF OE_ABORT = 2    # (opcodes.OE_*: Halt's P2)
DEF OE_IGNORE = 4

cdef str AFF_CHARS = "@ABCDE"
cdef tuple AFF_ONE = tuple(AFF_CHARS) + (None, None)   # P5 & 7 -> its affinity string
cdef int TEXT_AFF_CODE = AFF_CHARS.index("B")   # a comparison's P5 & 7 under TEXT affinity

# Names the compiler may use to call back into the VM for functions needing connection state.
SQLITE_MAX_I64 = 9223372036854775807


@cython.freelist(16)
cdef class VCursor:
    """One open cursor of a run: a storage cursor or a transient store, with the decoded
    row it is on (``row``) cached until the next move."""
    cdef public int kind
    cdef public object bt
    cdef public object row
    cdef public bint nullrow
    cdef public bint eof
    cdef public object data
    cdef public Py_ssize_t pos
    cdef public object key_info
    cdef public int n_cols
    cdef public long long seq
    cdef public object rowid_cache
    cdef public object pk_fields    # WITHOUT ROWID: the record fields of the PRIMARY KEY

    def __init__(self, int kind, bt=None, data=None, key_info=None, int n_cols=0):
        self.kind = kind
        self.bt = bt
        self.data = data
        self.key_info = key_info
        self.n_cols = n_cols
        self.pk_fields = None
        self.reset()

    cdef void reset(self):
        """Back to the state of a cursor just opened: no row, at EOF, not a NULL row."""
        self.row = None
        self.nullrow = False
        self.eof = True
        self.pos = -1
        self.seq = 0
        self.rowid_cache = None


cdef inline VCursor new_cursor(int kind, object bt, object data, object key_info,
                                int n_cols):
    """A VCursor as VCursor(kind, bt, data, key_info, n_cols) makes it, without the type
    call and its argument parsing (one per cursor a run opens)."""
    cdef VCursor c = VCursor.__new__(VCursor)
    c.kind = kind
    c.bt = bt
    c.data = data
    c.key_info = key_info
    c.n_cols = n_cols
    c.pk_fields = None
    c.reset()
    return c


@cython.freelist(16)
cdef class AggState:
    """The running state of one aggregate: the aggregate object and, for DISTINCT, the
    set of argument tuples already seen."""
    cdef readonly object obj
    cdef readonly object seen
    cdef bint compiled      # a compiled built-in (AggBase) stepping every row: step_mem

    def __init__(self, obj, distinct):
        self.obj = obj
        self.seen = set() if distinct else None
        self.compiled = not distinct and isinstance(obj, AggBase)


# read once (a module attribute lookup per use otherwise); the other row stores are
# cimported from _sorter
cdef object SpilledTable = S.SpilledTable


cdef inline AggState new_agg_state(object obj, bint distinct):
    """AggState(obj, distinct) without the type call (one per group and aggregate)."""
    cdef AggState st = AggState.__new__(AggState)
    st.obj = obj
    st.seen = set() if distinct else None
    st.compiled = not distinct and isinstance(obj, AggBase)
    return st


cdef tuple CHAR1 = tuple([chr(i) for i in range(128)])   # the one-character strings


cdef inline object _aff_at(object aff, Py_ssize_t i):
    """aff[i] of an affinity string (a cached one-character str, not a new one)."""
    cdef Py_UCS4 ch
    if type(aff) is str and 0 <= i < len(<str>aff):
        ch = (<str>aff)[i]
        if ch < 128:
            return <object>PyTuple_GET_ITEM(CHAR1, ch)
    return aff[i]


# _slot and _set, the register and slot accesses of nearly every instruction, and _int_order,
# the comparison of two integers, are C functions the compiler must inline into step() (a
# plain inline one it leaves out of so large a function, and each access pays a call).
cdef extern from *:
    """
    static inline __attribute__((always_inline)) PyObject *sqlengine_vm_slot(
            PyObject *items, long long i) {
        if (i >= 0 && i < PyList_GET_SIZE(items)) {
            PyObject *v = PyList_GET_ITEM(items, i);
            Py_INCREF(v);
            return v;
        }
        PyErr_SetString(PyExc_IndexError, "list index out of range");
        return NULL;
    }
    static inline __attribute__((always_inline)) int sqlengine_vm_set(
            PyObject *items, long long i, PyObject *v) {
        if (i >= 0 && i < PyList_GET_SIZE(items)) {
            PyObject *old = PyList_GET_ITEM(items, i);
            Py_INCREF(v);
            PyList_SET_ITEM(items, i, v);
            Py_XDECREF(old);
            return 0;
        }
        PyErr_SetString(PyExc_IndexError, "list assignment index out of range");
        return -1;
    }
    static inline __attribute__((always_inline)) int sqlengine_vm_int_order(
            PyObject *v, PyObject *w, int *res) {
        int ov, ow;
        long long x = PyLong_AsLongLongAndOverflow(v, &ov);
        long long y = PyLong_AsLongLongAndOverflow(w, &ow);
        if (ov || ow)
            return 0;
        *res = (x > y) - (x < y);
        return 1;
    }
    """
    # items[i] for 0 <= i < len(items) (a register read, a cursor slot, a P4 operand)
    # without the general index path (no negative index); IndexError otherwise
    object _slot "sqlengine_vm_slot"(list items, long long i)
    # items[i] = v for 0 <= i < len(items) (a register store); IndexError otherwise
    int _set "sqlengine_vm_set"(list items, long long i, object v) except -1
    # the order (-1, 0, 1) of two ints (exact int objects) that fit in 64 bits, in C: 1,
    # *res set; 0 when either does not fit (then compare them as Python ints)
    bint _int_order "sqlengine_vm_int_order"(object v, object w, int* res)


cdef inline BtCursor _btc(object bt):
    """The b-tree cursor of a table or index cursor (BtCursor is final: one type test)."""
    if type(bt) is BtCursor:
        return <BtCursor>bt
    return <BtCursor?>bt


cdef inline tuple _regs(list mem, Py_ssize_t base, Py_ssize_t n):
    """The tuple of registers mem[base:base + n] (no intermediate list)."""
    cdef Py_ssize_t i
    if base < 0 or n < 0 or base + n > len(mem):
        return tuple(mem[base:base + n])
    cdef tuple t = PyTuple_New(n)
    cdef object v
    for i in range(n):
        v = <object>PyList_GET_ITEM(mem, base + i)
        Py_INCREF(v)
        PyTuple_SET_ITEM(t, i, v)
    return t


cdef inline object _row_of(VCursor c):
    """The decoded row at a cursor (None-filled when on its NULL row)."""
    cdef int k = c.kind
    if c.row is not None:
        return c.row
    if k == K_TABLE:
        c.row = decode_record(c.bt.payload())
    elif k == K_INDEX:
        c.row = decode_record(c.bt.key())
    elif k == K_EPH_TABLE:
        c.row = (<EphTable?>c.data).rows[c.pos]
    elif k == K_EPH_INDEX:
        c.row = (<EphIndex?>c.data).sorted[c.pos]
    elif k == K_SORTER:
        c.row = (<Sorter?>c.data).rows[c.pos]
    elif k == K_EPH_HASH:
        c.row = (<EphHash?>c.data).cur[c.pos]
    return c.row


cdef object _pk_key(VCursor c):
    """The row key of a cursor on a WITHOUT ROWID table or one of its indexes: the tuple
    of its PRIMARY KEY values, which stands for the rowid (Rowid/IdxRowid give it,
    SeekRowid/NotExists seek the table by it)."""
    r = _row_of(c)
    try:
        return tuple([r[i] for i in c.pk_fields])
    except IndexError:
        raise E.DatabaseError("database disk image is malformed", code=E.SQLITE_CORRUPT)


cdef inline object _idx_rowid(VCursor c):
    """The rowid ending the record of an index cursor; an index record without an integer
    there is corrupt (SQLite: sqlite3VdbeIdxRowid)."""
    if c.pk_fields is not None:
        return _pk_key(c)
    if c.kind == K_INDEX and c.row is None:
        r = (<BtCursor?>c.bt).idx_rowid_c()
        if type(r) is not int:
            raise E.DatabaseError("database disk image is malformed", code=E.SQLITE_CORRUPT)
        return r
    r = _row_of(c)
    if len(r) == 0 or (c.kind == K_INDEX and type(r[len(r) - 1]) is not int):
        raise E.DatabaseError("database disk image is malformed", code=E.SQLITE_CORRUPT)
    return r[len(r) - 1]


cdef object _int_key(object v, int op):
    """The integer rowid to seek for key ``v`` under a seek opcode, or a marker: None when
    no row can match, True for 'every row' (text key under LE/LT)."""
    import math
    if type(v) is int:
        return v
    if v is None:
        return None
    v2 = apply_affinity(v, "C")
    if type(v2) is int:
        return v2
    if type(v2) is float:
        if v2 != v2:
            return None
        if op == OP_SeekGE or op == OP_SeekLT:
            f = math.ceil(v2)
        else:
            f = math.floor(v2)
        if f > SQLITE_MAX_I64 or f < -SQLITE_MAX_I64 - 1:
            return v2   # beyond the 64-bit range: a float (math.ceil/floor give an int)
        return f
    # text or blob: greater than every number
    if op == OP_SeekLE or op == OP_SeekLT:
        return True
    return None


cdef tuple _prog_arrays(Program prog):
    """The operand arrays of ``prog`` (opcodes, P1, P2, P3, P5), checked to be of one
    length and of the types the loop's pointers read."""
    # (the Program's fields read as C slots, not Python attribute lookups)
    cdef array.array opc = <array.array?>prog.opcodes
    cdef array.array a1 = <array.array?>prog.p1
    cdef array.array a2 = <array.array?>prog.p2
    cdef array.array a3 = <array.array?>prog.p3
    cdef array.array a5 = <array.array?>prog.p5
    cdef Py_ssize_t n = len(opc)
    if len(a1) != n or len(a2) != n or len(a3) != n or len(a5) != n \
            or opc.ob_descr.typecode != b'i' or a5.ob_descr.typecode != b'i' \
            or a1.ob_descr.typecode != b'q' or a2.ob_descr.typecode != b'q' \
            or a3.ob_descr.typecode != b'q':
        raise E.InternalError("malformed program arrays")
    return (opc, a1, a2, a3, a5)


cdef Vdbe new_vdbe(object db, Program prog):
    """The run state of ``prog`` on connection ``db``, before its first step (the
    prepared statement makes one per program, and another after a recompile)."""
    if prog is None:
        raise TypeError("a Program is needed")
    cdef tuple arrays = _prog_arrays(prog)
    cdef array.array opc = arrays[0]
    cdef array.array a1 = arrays[1]
    cdef array.array a2 = arrays[2]
    cdef array.array a3 = arrays[3]
    cdef array.array a5 = arrays[4]
    cdef Vdbe vm = Vdbe.__new__(Vdbe)
    vm.db = db
    vm.prog = prog
    vm._arrays = arrays
    vm.cur_arrays = arrays
    vm.n_op = len(opc)
    vm.n_mem = prog.n_mem + 1
    vm.n_cursor = prog.n_cursor + 1
    vm.opc = opc.data.as_ints
    vm.a1 = a1.data.as_longlongs
    vm.a2 = a2.data.as_longlongs
    vm.a3 = a3.data.as_longlongs
    vm.a5 = a5.data.as_ints
    vm.p4 = prog.p4
    vm.bindings = [None] * (prog.param_count + 1)
    vm.stmt = None
    vm._fresh_lists()
    vm._reset()
    return vm


cdef class Vdbe:
    """The run state of one program (its fields are declared in ``_vm.pxd``); made by
    ``new_vdbe``."""

    cpdef reset(self):
        """Back to the start of the program. The registers go now (a kept statement
        must not hold the last run's values); their list and the cursors' are made again
        by the next run's first step (a statement reset and never run again, the DB-API's
        usual, makes none); the run's b-tree cursors were parked in their Btree at its
        end (a run stopped midway drops them)."""
        if self.started and not self.done:
            self.cursors = [None] * self.n_cursor   # (a run stopped midway: its cursors go)
        self.mem = None
        self._reset()
        self.stale = True

    cdef int _fresh_lists(self) except -1:
        self.mem = [None] * self.n_mem
        self.cursors = [None] * self.n_cursor
        self.once = None  # the Once flags, made by the first Once of the run
        self.stale = False
        return 0

    cdef int _reset(self) except -1:
        self.pc = 0
        self.cmp = 0
        self.n_change = 0
        self.n_nested = 0
        self.done = False
        self.started = False
        self.error_action = None
        self.n_ops = 0
        if self.frames:  # (stopped inside a trigger sub-program: the statement's again)
            self._enter(self._arrays, self.prog.p4)
        self.frames = None
        self.frame_level = 0
        return 0

    def close_cursors(self):
        self.cursors = [None] * self.n_cursor

    cdef int _park_cursors(self, list cursors) except -1:
        """At Halt: the b-tree cursors of the run leave their trees (no page, no position)
        and wait, parked in their Btree, for a later OpenRead/OpenWrite of any statement
        to open them again (_btree.park_cursor / open_cursor)."""
        cdef VCursor c
        cdef Py_ssize_t i
        for i in range(len(cursors)):
            c = <VCursor>cursors[i]
            if c is not None and (c.kind == K_TABLE or c.kind == K_INDEX) \
                    and c.data is None and type(c.bt) is BtCursor:
                park_cursor(<BtCursor>c.bt)
                c.bt = None
        return 0

    cdef int _open_table(self, int i, long long root, bint write, object p4) except -1:
        """OpenRead/OpenWrite of cursor ``i``. A cursor the slot already holds on the same
        b-tree (an open inside a loop: an inner table's index, an OR term's) is cleared
        and kept, as SQLite's OP_OpenRead keeps it, instead of a new b-tree cursor."""
        cdef VCursor c
        cdef BtCursor bc
        cdef int kind = K_TABLE
        key_info = None
        if p4 is not None and not isinstance(p4, int):
            key_info = p4
            kind = K_INDEX
        c = self.cursors[i]
        if c is not None and c.kind == kind and c.key_info is key_info:
            bc = <BtCursor?>c.bt
            if bc.root == root and bc.writable == write:
                bc.invalidate()
                c.reset()
                return 0
        bt = open_cursor(self.db.bt, root, write, key_info)
        c = new_cursor(kind, bt, None, key_info, 0)
        if key_info is not None and type(key_info) is not KeyInfo:
            c.pk_fields = getattr(key_info, "pk_fields", None)
        _set(self.cursors, i, c)
        return 0

    cdef int _enter(self, tuple arrays, list p4) except -1:
        """The loop runs the program of ``arrays`` and ``p4`` (the statement's own or a
        trigger sub-program's) from the next time it reads them (``step``)."""
        cdef array.array opc = arrays[0]
        self.cur_arrays = arrays
        self.opc = opc.data.as_ints
        self.a1 = (<array.array>arrays[1]).data.as_longlongs
        self.a2 = (<array.array>arrays[2]).data.as_longlongs
        self.a3 = (<array.array>arrays[3]).data.as_longlongs
        self.a5 = (<array.array>arrays[4]).data.as_ints
        self.n_op = len(opc)
        self.p4 = p4
        return 0

    cdef int _enter_frame(self, int pc, long long inline, list mem, list cursors,
                          list p4s) except -1:
        """OP_Program at ``pc``: a trigger fired from inside itself (recursive_triggers)
        runs its sub-program in a frame of its own (SQLite's VdbeFrame), the caller's run
        state kept in ``frames``, not by a Python call: a thousand levels need no C
        stack. ``inline``: the trigger frames coded inline around the call. A P4 of None
        is a trigger coded inline, whose depth alone is checked. Returns whether a frame
        was entered."""
        cdef int level = self.frame_level + <int>inline
        cdef Program sub
        cdef list sub_mem
        cdef int n
        if level >= self.db.max_trigger_depth:
            self.error_action = OE_ABORT
            raise E.OperationalError("too many levels of trigger recursion")
        op = _slot(p4s, pc)
        if op is None:
            return 0
        sub = <Program?>op[0][0]
        arrays = _prog_arrays(sub)
        if self.frames is None:
            self.frames = []
        self.frames.append((pc, mem, cursors, self.once, p4s, self.cur_arrays,
                            self.frame_level))
        sub_mem = [None] * (sub.n_mem + 1)
        for k in op[1]:  # (parent register, its register, count): NEW, OLD, sequences
            for n in range(<int>k[2]):
                _set(sub_mem, <int>k[1] + n, _slot(mem, <int>k[0] + n))
        self.mem = sub_mem
        self.cursors = [None] * (sub.n_cursor + 1)
        self.once = None
        self.frame_level = level
        self._enter(arrays, sub.p4)
        self.pc = 0
        return 1

    cdef int _leave_frame(self, int pc, list mem, list cursors, bint ignore) except -1:
        """Halt at ``pc`` of a trigger sub-program: back to the OP_Program that called it,
        to the instruction after it, or, for a RAISE(IGNORE) (``ignore``), to its P2; the
        frame's cursors are parked and its registers the call copies back are."""
        cdef tuple fr
        cdef list up
        cdef int n
        self._park_cursors(cursors)
        fr = self.frames.pop()
        pc = fr[0]
        up = fr[1]
        for k in (<tuple>_slot(<list>fr[4], pc))[2]:  # (its register, caller's, count)
            for n in range(<int>k[2]):
                _set(up, <int>k[1] + n, _slot(mem, <int>k[0] + n))
        self.mem = up
        self.cursors = fr[2]
        self.once = fr[3]
        self.frame_level = fr[6]
        self._enter(fr[5], fr[4])
        self.pc = self.a2[pc] if ignore else pc + 1
        return 0

    cpdef object step(self):
        """Run to the next result row (a tuple) or to the end (None)."""
        if self.stale:
            self._fresh_lists()
        cdef list mem = self.mem
        # the operand arrays read through plain pointers (the memoryviews held by self keep
        # them alive); pc is checked against the program's length once per instruction
        cdef Py_ssize_t n_op = self.n_op
        cdef const int* opc = self.opc
        cdef const long long* a1 = self.a1
        cdef const long long* a2 = self.a2
        cdef const long long* a3 = self.a3
        cdef const int* a5 = self.a5
        cdef list p4s = self.p4
        cdef list cursors = self.cursors
        cdef int pc = self.pc
        cdef int op, i, n, p5, res
        cdef long long p1, p2, p3
        cdef VCursor c
        cdef BtCursor bc
        cdef Sorter srt
        cdef bint done, jump
        cdef object v, w, r, k
        cdef double dv, dw
        cdef long long nops, check_at
        if self.done:
            return None
        if n_op == 0:
            raise E.InternalError("empty program")
        self.started = True
        nops = self.n_ops
        check_at = self._next_check(nops)
        while True:
            nops += 1
            if nops >= check_at:
                self.n_ops = nops
                check_at = self._tick(nops)
            if <size_t>pc >= <size_t>n_op:
                raise E.InternalError("jump to %d outside the program" % pc)
            op = opc[pc]
            p1 = a1[pc]
            p2 = a2[pc]
            p3 = a3[pc]
            if op == OP_Column:
                c = <VCursor>_slot(cursors, p1)
                if c.nullrow:
                    _set(mem, p3, None)
                else:
                    r = c.row
                    if r is None:
                        if c.kind == K_TABLE or c.kind == K_INDEX:
                            # one field decoded in place, no row tuple
                            v = _btc(c.bt).column_or(p2, _slot(p4s, pc), &done)
                            if done:
                                _set(mem, p3, v)
                                pc += 1
                                continue
                        r = _row_of(c)
                    if p2 < len(r):
                        _set(mem, p3, r[p2])
                    else:
                        _set(mem, p3, _slot(p4s, pc))
            elif op == OP_Next:
                c = <VCursor>_slot(cursors, p1)
                c.row = None
                c.nullrow = False
                if c.kind == K_TABLE or c.kind == K_INDEX:
                    if _btc(c.bt).next_():
                        pc = p2
                        continue
                    c.eof = True
                elif c.kind == K_EPH_TABLE:
                    c.pos += 1
                    if c.pos < len((<EphTable?>c.data).rows):
                        pc = p2
                        continue
                    c.eof = True
                elif c.kind == K_EPH_INDEX:
                    c.pos += 1
                    if c.pos < len((<EphIndex?>c.data).sorted):
                        pc = p2
                        continue
                    c.eof = True
                elif c.kind == K_EPH_HASH:
                    c.pos += 1
                    if c.pos < len((<EphHash?>c.data).cur):
                        pc = p2
                        continue
                    c.eof = True
            elif op == OP_Eq or op == OP_Ne or op == OP_Lt or op == OP_Le or op == OP_Gt \
                    or op == OP_Ge:
                p5 = a5[pc]
                v = _slot(mem, p3)
                w = _slot(mem, p1)
                coll = _slot(p4s, pc)
                if v is None or w is None:
                    if p5 & CMP_NULLEQ:
                        res = 0 if (v is None and w is None) else 1
                        if op == OP_Eq:
                            r = 1 if res == 0 else 0
                        elif op == OP_Ne:
                            r = 1 if res != 0 else 0
                        else:
                            r = None
                    else:
                        r = None
                    if p5 & CMP_STOREP2:
                        _set(mem, p2, r)
                    elif r is None:
                        if p5 & CMP_JUMPIFNULL:
                            pc = p2
                            continue
                    elif r:
                        pc = p2
                        continue
                    pc += 1
                    continue
                if type(v) is int and type(w) is int and (p5 & 7) != TEXT_AFF_CODE:
                    # two integers under any affinity but TEXT: compared as they are (what
                    # compare_with_affinity does for them; no collation applies to numbers)
                    if not _int_order(v, w, &res):
                        res = 0 if v == w else (-1 if v < w else 1)
                elif type(v) is float and type(w) is float and (p5 & 7) != TEXT_AFF_CODE:
                    # two reals likewise (compare()'s double comparison)
                    dv = v
                    dw = w
                    res = (dv > dw) - (dv < dw)
                elif (p5 & 7) != TEXT_AFF_CODE and int_real_order(v, w, &res):
                    pass  # an INTEGER and a REAL likewise, compared exactly
                elif type(v) is tuple or type(w) is tuple:  # WITHOUT ROWID row keys
                    res = 0 if v == w else 1
                else:
                    res = compare_with_affinity(
                        v, w, <object>PyTuple_GET_ITEM(AFF_ONE, p5 & 7), coll)
                if op == OP_Eq:
                    jump = res == 0
                elif op == OP_Ne:
                    jump = res != 0
                elif op == OP_Lt:
                    jump = res < 0
                elif op == OP_Le:
                    jump = res <= 0
                elif op == OP_Gt:
                    jump = res > 0
                else:
                    jump = res >= 0
                if p5 & CMP_STOREP2:
                    _set(mem, p2, 1 if jump else 0)
                elif jump:
                    pc = p2
                    continue
            elif op == OP_Goto:
                pc = p2
                continue
            elif op == OP_ResultRow:
                self.pc = pc + 1
                self.n_ops = nops
                if a5[pc]:  # values with a subtype (JSON text) leave the VM as plain str
                    return tuple([str(v) if isinstance(v, str) else v
                                  for v in mem[p1:p1 + p2]])
                return _regs(mem, p1, p2)
            elif op == OP_Rowid:
                c = <VCursor>_slot(cursors, p1)
                if c.nullrow:
                    _set(mem, p2, None)
                elif c.kind == K_TABLE:
                    _set(mem, p2, _btc(c.bt).rowid_c())
                elif c.kind == K_EPH_TABLE:
                    _set(mem, p2, (<EphTable?>c.data).rowids[c.pos])
                else:
                    _set(mem, p2, _idx_rowid(c))
            elif op == OP_If:
                v = truth(_slot(mem, p1))
                if v is None:
                    if p3:
                        pc = p2
                        continue
                elif v:
                    pc = p2
                    continue
            elif op == OP_IfNot:
                v = truth(_slot(mem, p1))
                if v is None:
                    if p3:
                        pc = p2
                        continue
                elif not v:
                    pc = p2
                    continue
            elif op == OP_Integer:
                _set(mem, p2, p1)
            elif op == OP_Int64 or op == OP_Real or op == OP_String8 or op == OP_Blob:
                _set(mem, p2, _slot(p4s, pc))
            elif op == OP_Null:
                _set(mem, p2, None)
                if p3 > p2:
                    for i in range(p2 + 1, p3 + 1):
                        _set(mem, i, None)
            elif op == OP_Variable:
                _set(mem, p2, self.bindings[p1])
            elif op == OP_Move:
                for i in range(p3):
                    _set(mem, p2 + i, _slot(mem, p1 + i))
                    _set(mem, p1 + i, None)
            elif op == OP_Copy:
                for i in range(p3 + 1):
                    _set(mem, p2 + i, _slot(mem, p1 + i))
            elif op == OP_SCopy:
                _set(mem, p2, _slot(mem, p1))
            elif op == OP_IsNull:
                if _slot(mem, p1) is None:
                    pc = p2
                    continue
            elif op == OP_NotNull:
                if _slot(mem, p1) is not None:
                    pc = p2
                    continue
            elif op == OP_IfNullJump:
                for i in range(p3):
                    if _slot(mem, p1 + i) is None:
                        pc = p2
                        break
                else:
                    pc += 1
                continue
            elif op == OP_And or op == OP_Or:
                v = truth(_slot(mem, p1))
                w = truth(_slot(mem, p2))
                if op == OP_And:
                    if v == 0 or w == 0:
                        r = 0
                    elif v is None or w is None:
                        r = None
                    else:
                        r = 1
                else:
                    if v == 1 or w == 1:
                        r = 1
                    elif v is None or w is None:
                        r = None
                    else:
                        r = 0
                _set(mem, p3, r)
            elif op == OP_Not:
                _set(mem, p2, logical_not(_slot(mem, p1)))
            elif op == OP_IsTrue:
                v = truth(_slot(mem, p1))
                if v is None:
                    _set(mem, p2, p3)
                else:
                    _set(mem, p2, (1 if v else 0) ^ (<int>_slot(p4s, pc)))
            elif op == OP_Add:
                _set(mem, p3, add(_slot(mem, p2), _slot(mem, p1)))
            elif op == OP_Subtract:
                _set(mem, p3, sub(_slot(mem, p2), _slot(mem, p1)))
            elif op == OP_Multiply:
                _set(mem, p3, mul(_slot(mem, p2), _slot(mem, p1)))
            elif op == OP_Divide:
                _set(mem, p3, div(_slot(mem, p2), _slot(mem, p1)))
            elif op == OP_Remainder:
                _set(mem, p3, rem(_slot(mem, p2), _slot(mem, p1)))
            elif op == OP_Concat:
                _set(mem, p3, concat(_slot(mem, p2), _slot(mem, p1)))
            elif op == OP_BitAnd:
                _set(mem, p3, bit_and(_slot(mem, p1), _slot(mem, p2)))
            elif op == OP_BitOr:
                _set(mem, p3, bit_or(_slot(mem, p1), _slot(mem, p2)))
            elif op == OP_ShiftLeft:
                _set(mem, p3, shift_left(_slot(mem, p2), _slot(mem, p1)))
            elif op == OP_ShiftRight:
                _set(mem, p3, shift_right(_slot(mem, p2), _slot(mem, p1)))
            elif op == OP_BitNot:
                _set(mem, p2, bit_not(_slot(mem, p1)))
            elif op == OP_Negative:
                _set(mem, p2, negate(_slot(mem, p1)))
            elif op == OP_Function:
                n = a5[pc]
                v = _slot(p4s, pc)
                if isinstance(v, ScalarBase):
                    # compiled: arguments read from the registers
                    _set(mem, p3, (<ScalarBase>v).call_mem(self, mem, p2, n))
                else:
                    _set(mem, p3, v(self, mem[p2:p2 + n]))
            elif op == OP_AggStep:
                n = a5[pc]
                st = _slot(mem, p3)
                if st is None:
                    st = new_agg_state(_slot(p4s, pc).new(), (p1 & 1) != 0)
                    _set(mem, p3, st)
                # r[P1 >> 1] (when non-zero) is SQLite's regHit: 0 after a step that made
                # the row the min()/max() (its bare columns are loaded), 1 after one that
                # did not; a DISTINCT duplicate steps nothing and leaves it as it was
                i = p1 >> 1
                if (<AggState>st).compiled:
                    # compiled built-in aggregate: arguments read from the registers
                    r = (<AggBase>(<AggState>st).obj).step_mem(mem, p2, n)
                    if i:
                        _set(mem, i, 0 if r else 1)
                    pc += 1
                    continue
                args = mem[p2:p2 + n]
                if (<AggState>st).seen is not None:
                    # the first NULL is a distinct value too (the step sees it once)
                    f = _slot(p4s, pc)
                    k = row_key(args, n, f.distinct_norms or [None] * n)
                    if k in (<AggState>st).seen:
                        pc += 1
                        continue
                    (<AggState>st).seen.add(k)
                r = _slot(p4s, pc).step((<AggState>st).obj, args)
                if i:
                    _set(mem, i, 0 if r else 1)
            elif op == OP_AggFinal or op == OP_AggValue:
                st = _slot(mem, p1)
                f = _slot(p4s, pc)
                if st is None:
                    v = f.final(f.new())
                else:
                    v = f.final((<AggState>st).obj)
                if op == OP_AggFinal:
                    _set(mem, p1, v)
                else:
                    _set(mem, p3, v)
            elif op == OP_Affinity:
                aff = _slot(p4s, pc)
                for i in range(p2):
                    _set(mem, p1 + i, apply_affinity(_slot(mem, p1 + i), _aff_at(aff, i)))
            elif op == OP_MakeRecord:
                aff = _slot(p4s, pc)
                if aff is None:
                    _set(mem, p3, _regs(mem, p1, p2))
                else:
                    mem[p3] = tuple([apply_affinity(mem[p1 + i], _aff_at(aff, i))
                                     for i in range(p2)])
            elif op == OP_RealAffinity:
                v = _slot(mem, p1)
                if type(v) is int:
                    _set(mem, p1, float(v))
            elif op == OP_Cast:
                _set(mem, p1, cast_affinity(_slot(mem, p1), AFF_CHARS[p2 & 7]))
            elif op == OP_CastType:
                _set(mem, p1, cast(_slot(mem, p1), _slot(p4s, pc)))
            elif op == OP_Gosub:
                _set(mem, p1, pc)
                pc = p2
                continue
            elif op == OP_Return:
                pc = _slot(mem, p1) + 1
                continue
            elif op == OP_InitCoroutine:
                _set(mem, p1, p3 - 1)
                if p2:
                    pc = p2
                    continue
            elif op == OP_Yield:
                i = _slot(mem, p1)
                _set(mem, p1, pc)
                pc = i + 1
                continue
            elif op == OP_EndCoroutine:
                i = _slot(mem, p1)
                # the caller's Yield: jump to its P2
                if <size_t>i >= <size_t>n_op:
                    raise E.InternalError("return to %d outside the program" % i)
                pc = a2[i]
                _set(mem, p1, pc - 1)
                continue
            elif op == OP_Once:
                if self.once is None:
                    self.once = [False] * (n_op + 1)
                elif self.once[pc]:
                    pc = p2
                    continue
                self.once[pc] = True
            elif op == OP_IfPos:
                v = _slot(mem, p1)
                if v > 0:
                    _set(mem, p1, v - p3)
                    pc = p2
                    continue
            elif op == OP_IfNotZero:
                v = _slot(mem, p1)
                if v != 0:
                    if v > 0:
                        _set(mem, p1, v - 1)
                    pc = p2
                    continue
            elif op == OP_DecrJumpZero:
                v = _slot(mem, p1) - 1
                _set(mem, p1, v)
                if v == 0:
                    pc = p2
                    continue
            elif op == OP_MustBeInt:
                v = _slot(mem, p1)
                if type(v) is not int:
                    w = apply_affinity(v, "C")
                    if type(w) is not int:
                        if p2 == 0:
                            raise E.error_for_code(E.SQLITE_MISMATCH, "datatype mismatch")
                        pc = p2
                        continue
                    _set(mem, p1, w)
            elif op == OP_OffsetLimit:
                v = _slot(mem, p1)
                w = _slot(mem, p3)
                if v <= 0:
                    _set(mem, p2, -1)
                else:
                    _set(mem, p2, v + (w if w > 0 else 0))
            elif op == OP_MemMax:
                if _slot(mem, p2) > _slot(mem, p1):
                    _set(mem, p1, _slot(mem, p2))
            elif op == OP_Compare:
                ki = _slot(p4s, pc)
                self.cmp = 0
                for i in range(p3):
                    v = _slot(mem, p1 + i)
                    w = _slot(mem, p2 + i)
                    if (type(v) is int or type(v) is float) and \
                            (type(w) is int or type(w) is float):
                        res = compare(v, w, None)  # numbers: no collation applies
                    else:
                        coll = ki.colls[i] if ki is not None and i < len(ki.colls) else None
                        res = compare(v, w, coll.func if coll is not None else None)
                    if res:
                        if ki is not None and i < len(ki.desc) and ki.desc[i]:
                            res = -res
                        self.cmp = res
                        break
            elif op == OP_Jump:
                if self.cmp < 0:
                    pc = p1
                elif self.cmp == 0:
                    pc = p2
                else:
                    pc = p3
                continue
            elif op == OP_Init:
                pc = p2
                continue
            elif op == OP_Halt:
                if p1:
                    self.error_action = p2
                    raise E.error_for_code(p1, _slot(p4s, pc))
                if self.frames:  # the end of a trigger sub-program: to its caller
                    self._leave_frame(pc, mem, cursors, p2 == OE_IGNORE)
                    # the program of the frame now running: its registers, cursors, operands
                    mem = self.mem
                    cursors = self.cursors
                    p4s = self.p4
                    n_op = self.n_op
                    opc = self.opc
                    a1 = self.a1
                    a2 = self.a2
                    a3 = self.a3
                    a5 = self.a5
                    pc = self.pc
                    continue
                self.pc = pc
                self.done = True
                self._park_cursors(cursors)
                self.cursors = [None] * len(cursors)
                self._halt()
                return None
            elif op == OP_HaltIfNull:
                if _slot(mem, p3) is None:
                    self.error_action = p2
                    raise E.error_for_code(p1, _slot(p4s, pc))
            elif op == OP_Raise:
                self.error_action = p1
                raise E.error_for_code(E.SQLITE_CONSTRAINT_TRIGGER, _slot(p4s, pc))
            elif op == OP_Transaction:
                # nothing to do when the transaction is open at the level needed and no
                # statement journal is wanted (a repeated statement inside a transaction)
                r = self.db.bt
                i = (<PagerState?>r.pager).in_trans
                if i == 0:
                    # no transaction open (every statement in autocommit mode): begun here,
                    # as db._vm_begin would, without its call
                    if begin_cookie(r, p2) != self.db.schema.cookie:
                        self.db._vm_schema_changed()
                    if p2 and self.prog.stmt_journal:
                        self.db._vm_stmt_journal(self)
                elif p2 and (i < 2 or self.prog.stmt_journal):
                    self.db._vm_begin(self, p2)
            elif op == OP_AutoCommit:
                self.db._vm_autocommit(p1, p2)
            elif op == OP_Savepoint:
                self.db._vm_savepoint(p1, _slot(p4s, pc))
            elif op == OP_ReadCookie:
                _set(mem, p2, self.db._vm_get_meta(p3))
            elif op == OP_SetCookie:
                self.db._vm_set_meta(p2, p3)
            elif op == OP_CreateBtree:
                _set(mem, p2, self.db._vm_create_btree(p3))
            elif op == OP_Destroy:
                self.db._vm_destroy(p1)
            elif op == OP_Clear:
                n = self.db._vm_clear(p1)
                if p2:
                    self.n_change += n
            elif op == OP_ParseSchema:
                self.db._vm_parse_schema(_slot(p4s, pc))
            elif op == OP_SetLastRowid:
                self.db.last_insert_rowid = mem[p1]
            elif op == OP_AddChanges:
                if p2:
                    self.n_nested += p1
                else:
                    self.n_change += p1
            elif op == OP_OpenRead or op == OP_OpenWrite:
                if a5[pc] & 0x10:
                    p2 = mem[p2]
                self._open_table(p1, p2, op == OP_OpenWrite, _slot(p4s, pc))
            elif op == OP_OpenEphemeral:
                ki = _slot(p4s, pc)
                if a5[pc] & 1:
                    c = new_cursor(K_EPH_HASH, None, new_eph_hash(<SortSpec?>ki, p2), ki, p2)
                elif ki is None:
                    c = new_cursor(K_EPH_TABLE, None, new_eph_table(), None, p2)
                else:
                    c = new_cursor(K_EPH_INDEX, None, new_eph_index(<SortSpec?>ki, p2), ki, p2)
                cursors[p1] = c
            elif op == OP_OpenDup:  # (the rows stay shared; each cursor has its position)
                c = <VCursor>_slot(cursors, p2)
                v = c.data
                if type(v) is SpilledTable:
                    cursors[p1] = new_cursor(K_TABLE, v.bt.cursor(v.cursor.root, False), v,
                                             None, c.n_cols)
                else:
                    cursors[p1] = new_cursor(c.kind, None, v, c.key_info, c.n_cols)
            elif op == OP_SorterOpen:
                ki = _slot(p4s, pc)
                cursors[p1] = new_cursor(K_SORTER, None, new_sorter(<SortSpec?>ki), ki, p2)
            elif op == OP_OpenPseudo:
                c = new_cursor(K_PSEUDO, None, None, None, p3)
                c.row = mem[p2]
                c.data = p2
                cursors[p1] = c
            elif op == OP_ResetSorter:
                c = <VCursor>_slot(cursors, p1)
                if c is not None:
                    if c.kind == K_SORTER:
                        c.data = new_sorter(<SortSpec?>c.key_info)
                    elif c.kind == K_EPH_TABLE:
                        c.data = new_eph_table()
                    elif c.kind == K_EPH_INDEX:
                        c.data = new_eph_index(<SortSpec?>c.key_info, c.n_cols)
                    elif type(c.data) is SpilledTable:
                        c.kind = K_EPH_TABLE
                        c.bt = None
                        c.data = new_eph_table()
                        c.pos = -1
                    c.row = None
            elif op == OP_Close:
                cursors[p1] = None
            elif op == OP_Rewind or op == OP_Last:
                c = <VCursor>_slot(cursors, p1)
                c.row = None
                c.nullrow = False
                k = c.kind
                if k == K_TABLE or k == K_INDEX:
                    if op == OP_Rewind:
                        ok = _btc(c.bt).first()
                    else:
                        ok = _btc(c.bt).last()
                elif k == K_EPH_TABLE:
                    n = len((<EphTable?>c.data).rows)
                    c.pos = 0 if op == OP_Rewind else n - 1
                    ok = n > 0
                elif k == K_EPH_INDEX:
                    n = len((<EphIndex?>c.data).rows_sorted())
                    c.pos = 0 if op == OP_Rewind else n - 1
                    ok = n > 0
                else:
                    raise E.InternalError("Rewind on a sorter")
                c.eof = not ok
                if not ok:
                    pc = p2
                    continue
            elif op == OP_Prev:
                c = <VCursor>_slot(cursors, p1)
                c.row = None
                c.nullrow = False
                if c.kind == K_TABLE or c.kind == K_INDEX:
                    if _btc(c.bt).prev_():
                        pc = p2
                        continue
                else:
                    c.pos -= 1
                    if c.pos >= 0:
                        pc = p2
                        continue
                c.eof = True
            elif op == OP_SeekRowid or op == OP_NotExists:
                c = <VCursor>_slot(cursors, p1)
                c.row = None
                c.nullrow = False
                v = _slot(mem, p3)
                if type(v) is tuple and c.kind == K_INDEX:
                    # a WITHOUT ROWID table: seek its b-tree by the PRIMARY KEY
                    bc = <BtCursor?>c.bt
                    if bc.seek_ge(v) and bc.compare_key(v) == 0:
                        c.eof = False
                        pc += 1
                        continue
                    c.eof = True
                    pc = p2
                    continue
                if type(v) is not int:
                    v = apply_affinity(v, "C")
                    if type(v) is not int:
                        c.eof = True
                        pc = p2
                        continue
                if c.kind == K_EPH_TABLE:
                    i = (<EphTable?>c.data).find(v)
                    if i >= 0:
                        c.pos = i
                        c.eof = False
                    else:
                        c.eof = True
                        pc = p2
                        continue
                elif not _btc(c.bt).seek_rowid_eq(v):
                    c.eof = True
                    pc = p2
                    continue
                else:
                    c.eof = False
            elif op == OP_SeekGE or op == OP_SeekGT or op == OP_SeekLE or op == OP_SeekLT:
                c = <VCursor>_slot(cursors, p1)
                c.row = None
                c.nullrow = False
                if c.kind == K_TABLE:
                    bc = <BtCursor?>c.bt
                    k = _int_key(_slot(mem, p3), op)
                    if k is None:
                        c.eof = True
                        pc = p2
                        continue
                    if k is True:
                        ok = bc.last()
                    elif type(k) is not int:
                        # beyond the 64-bit range
                        if (k > 0) == (op == OP_SeekGE or op == OP_SeekGT):
                            ok = False
                        elif op == OP_SeekGE or op == OP_SeekGT:
                            ok = bc.first()
                        else:
                            ok = bc.last()
                    elif op == OP_SeekGE:
                        ok = bc.seek_ge(k)
                    elif op == OP_SeekGT:
                        ok = bc.seek_gt(k)
                    elif op == OP_SeekLE:
                        ok = bc.seek_le(k)
                    else:
                        ok = bc.seek_lt(k)
                elif c.kind == K_EPH_HASH:
                    n = <int>_slot(p4s, pc)
                    ok = (<EphHash?>c.data).lookup(_regs(mem, p3, n))
                    c.pos = 0
                else:
                    n = <int>_slot(p4s, pc)
                    key = _regs(mem, p3, n)
                    bc = <BtCursor?>c.bt
                    if op == OP_SeekGE:
                        ok = bc.seek_ge(key)
                    elif op == OP_SeekGT:
                        ok = bc.seek_gt(key)
                    elif op == OP_SeekLE:
                        ok = bc.seek_le(key)
                    else:
                        ok = bc.seek_lt(key)
                c.eof = not ok
                if not ok:
                    pc = p2
                    continue
            elif op == OP_IdxGE or op == OP_IdxGT or op == OP_IdxLE or op == OP_IdxLT:
                c = <VCursor>_slot(cursors, p1)
                n = <int>_slot(p4s, pc)
                if c.kind == K_TABLE:
                    v = _btc(c.bt).rowid_c()
                    w = _slot(mem, p3)
                    res = compare(v, apply_affinity(w, "C"), None) if w is not None else 1
                else:
                    res = _btc(c.bt).compare_key(_regs(mem, p3, n))
                if op == OP_IdxGE:
                    ok = res >= 0
                elif op == OP_IdxGT:
                    ok = res > 0
                elif op == OP_IdxLE:
                    ok = res <= 0
                else:
                    ok = res < 0
                if ok:
                    pc = p2
                    continue
            elif op == OP_IdxRowid:
                c = <VCursor>_slot(cursors, p1)
                _set(mem, p2, None if c.nullrow else _idx_rowid(c))
            elif op == OP_NullRow:
                c = <VCursor>_slot(cursors, p1)
                if c is None:
                    c = new_cursor(K_PSEUDO, None, None, None, 0)
                    cursors[p1] = c
                c.nullrow = True
                c.row = None
            elif op == OP_IfNullRow:
                c = <VCursor>_slot(cursors, p1)
                if c is None or c.nullrow:
                    _set(mem, p3, None)
                    pc = p2
                    continue
            elif op == OP_NewRowid:
                c = <VCursor>_slot(cursors, p1)
                if c.kind == K_EPH_TABLE:
                    _set(mem, p2, (<EphTable?>c.data).next_rowid)
                else:
                    _set(mem, p2, self._new_rowid(c))
            elif op == OP_Insert:
                c = <VCursor>_slot(cursors, p1)
                v = mem[p3]
                if c.kind == K_EPH_TABLE:
                    (<EphTable?>c.data).insert(v, mem[p2])
                    if (<EphTable>c.data).full and c.pos == -1:
                        # beyond its memory budget and not yet read: a temporary b-tree,
                        # read from now on as a table cursor
                        c.data = SpilledTable(c.data)
                        c.bt = c.data.cursor
                        c.kind = K_TABLE
                else:
                    k = encode_record(mem[p2])
                    if type(v) is int and type(c.bt) is BtCursor:
                        (<BtCursor>c.bt).insert_row(v, k)
                    else:
                        c.bt.insert(v, k)
                    c.row = None
                    p5 = a5[pc]
                    if p5 & 0x01:
                        self.n_change += 1
                    elif p5 & 0x08:
                        self.n_nested += 1
                    if p5 & 0x20:
                        self.db.last_insert_rowid = v
            elif op == OP_IdxInsert:
                c = <VCursor>_slot(cursors, p1)
                if c.kind == K_EPH_INDEX:
                    (<EphIndex?>c.data).insert(mem[p2])
                elif c.kind == K_EPH_HASH:
                    (<EphHash?>c.data).insert(mem[p2])
                elif c.kind == K_SORTER:
                    (<Sorter?>c.data).rows.append(mem[p2])
                elif type(c.bt) is BtCursor:
                    (<BtCursor>c.bt).insert_key(encode_record(mem[p2]))
                else:
                    c.bt.insert(encode_record(mem[p2]))
            elif op == OP_SorterInsert:
                srt = <Sorter?>(<VCursor>_slot(cursors, p1)).data
                if srt.trim_at:
                    # top-N sorter (ORDER BY ... LIMIT): drop a row that sorts after the
                    # last one kept, cut the rows back when they have doubled; otherwise
                    # the spill check of a sorter's memory budget
                    v = mem[p2]
                    k = srt.cutoff
                    if k is not None and type(v) is tuple and srt.order.sorts_after(v, k):
                        pc += 1
                        continue
                    srt.rows.append(v)
                    if len(srt.rows) >= srt.trim_at:
                        srt.trim(mem)
                else:
                    srt.rows.append(mem[p2])
            elif op == OP_SorterCutoff:
                srt = <Sorter?>(<VCursor>_slot(cursors, p1)).data
                k = srt.cutoff
                if k is not None and srt.order.sorts_after(_regs(mem, p3, srt.spec.n_key), k):
                    pc = p2
                    continue
            elif op == OP_SorterSort:
                c = <VCursor>_slot(cursors, p1)
                srt = <Sorter?>c.data
                srt.sort()
                c.pos = 0
                c.row = None
                if not srt.rows:
                    c.eof = True
                    pc = p2
                    continue
                c.eof = False
            elif op == OP_SorterNext:
                c = <VCursor>_slot(cursors, p1)
                srt = <Sorter?>c.data
                c.pos += 1
                c.row = None
                if c.pos < len(srt.rows):
                    pc = p2
                    continue
                if srt.merger is not None and srt.refill():
                    # a spilled sorter: the next window of merged rows
                    c.pos = 0
                    pc = p2
                    continue
                c.eof = True
            elif op == OP_SorterData or op == OP_RowData:
                c = <VCursor>_slot(cursors, p1)
                _set(mem, p2, _row_of(c))
            elif op == OP_Delete:
                c = <VCursor>_slot(cursors, p1)
                if c.kind == K_EPH_INDEX:
                    (<EphIndex?>c.data).delete(_row_of(c))
                elif type(c.bt) is BtCursor:
                    (<BtCursor>c.bt).delete_entry()
                else:
                    c.bt.delete()
                c.row = None
                p5 = a5[pc]
                if p5 & 0x01:
                    self.n_change += 1
                elif p5 & 0x08:
                    self.n_nested += 1
            elif op == OP_IdxDelete:
                c = <VCursor>_slot(cursors, p1)
                key = _regs(mem, p2, p3)
                if c.kind == K_EPH_INDEX:
                    (<EphIndex?>c.data).delete(key)
                elif type(c.bt) is BtCursor:
                    bc = <BtCursor>c.bt
                    if bc.seek_eq(key):
                        bc.delete_entry()
                elif c.bt.seek_ge(key) and c.bt.compare_key(key) == 0:
                    c.bt.delete()
                c.row = None
            elif op == OP_Found or op == OP_NotFound or op == OP_NoConflict \
                    or op == OP_IdxKeyCheck:
                c = <VCursor>_slot(cursors, p1)
                n = <int>_slot(p4s, pc)
                if n == 0:
                    key = tuple(mem[p3])
                else:
                    key = _regs(mem, p3, n)
                if op == OP_NoConflict and None in key:
                    pc = p2
                    continue
                c.row = None
                if c.kind == K_EPH_INDEX:
                    found = (<EphIndex?>c.data).found(key)
                else:
                    bc = <BtCursor?>c.bt
                    found = bc.seek_ge(key) and bc.compare_key(key) == 0
                    c.eof = not found
                if op == OP_Found:
                    if found:
                        pc = p2
                        continue
                elif not found:
                    pc = p2
                    continue
            elif op == OP_Count:
                c = <VCursor>_slot(cursors, p1)
                if c.kind == K_EPH_TABLE:
                    _set(mem, p2, len((<EphTable?>c.data).rows))
                elif c.kind == K_EPH_INDEX:
                    _set(mem, p2, len((<EphIndex?>c.data).entries))
                else:
                    _set(mem, p2, c.bt.count())
            elif op == OP_Sequence:
                c = <VCursor>_slot(cursors, p1)
                _set(mem, p2, c.seq)
                c.seq += 1
            elif op == OP_InListCheck:
                v = mem[p1]
                if v is None:
                    _set(mem, p2, None)
                else:
                    k = v if type(v) is not str else ("s", v)
                    if k in _slot(p4s, pc):
                        _set(mem, p2, 1)
                    else:
                        _set(mem, p2, None if p3 else 0)
            elif op == OP_ClrSubtype:
                v = mem[p1]
                if isinstance(v, str) and type(v) is not str:
                    _set(mem, p1, str(v))
            elif op == OP_Noop:
                pass
            elif op == OP_Program:
                if not self._enter_frame(pc, p3, mem, cursors, p4s):
                    pc += 1  # (a trigger coded inline: its depth checked, no frame)
                    continue
                # the program of the frame now running: its registers, cursors, operands
                mem = self.mem
                cursors = self.cursors
                p4s = self.p4
                n_op = self.n_op
                opc = self.opc
                a1 = self.a1
                a2 = self.a2
                a3 = self.a3
                a5 = self.a5
                pc = self.pc
                continue
            else:
                raise E.InternalError("unknown opcode %d at %d" % (op, pc))
            pc += 1

    cdef int _halt(self) except -1:
        """The end of a run (sqlite3VdbeHalt): the statement's journal released, the change
        counts set, the statement no longer active, and in autocommit mode the transaction
        committed once no statement writes (ended once none runs)."""
        db = self.db
        ref = self.stmt
        if ref is None:
            stmt = None
        elif type(ref) is weakref_ref:
            stmt = <object>PyWeakref_GetObject(ref)   # (no call of the reference)
        else:
            stmt = ref()
        if db._stmt_sp:
            db._vm_release_statement(stmt)
        if self.n_change or self.n_nested or self.prog.is_write:
            self.count_changes(self.n_change)
        active = db._active
        if type(active) is set:
            PySet_Discard(active, stmt)
        else:
            active.discard(stmt)
        if db.autocommit:
            if not active:
                bt = db.bt
                if (<PagerState?>bt.pager).in_trans:
                    end_transaction(bt)     # (bt.commit(), compiled for a plain Btree)
            elif self.prog.is_write:
                # other statements still read: the write is committed now all the same,
                # the transaction kept open for them as a read one (sqlite3VdbeHalt commits
                # once no statement writes, whatever reads)
                db._finish_txn_if_idle()
        return 0

    cpdef count_changes(self, long long n):
        """sqlite3VdbeSetChanges at the end of a run: ``n`` rows changed by the statement
        (changes(): not set by a schema change, unless its code counts rows), and those its
        triggers changed (in total_changes() only)."""
        prog = self.prog
        db = self.db
        if prog.is_write and (not prog.is_ddl or prog.is_ddl == DDL_COUNTS_CHANGES):
            db.changes = n
        db.total_changes += n + self.n_nested

    cdef long long _next_check(self, long long nops) except -1:
        """The instruction count at which the loop next looks at interrupt() and calls the
        progress handler: every 4096 instructions, and every N with a handler set."""
        cdef long long nxt = nops + 4096, n, m
        if getattr(self.db, "_progress_handler", None) is not None:
            n = self.db._progress_ops
            m = (nops // n + 1) * n
            if m < nxt:
                nxt = m
        return nxt

    cdef long long _tick(self, long long nops) except -1:
        """interrupt() and the progress handler (sqlite3_progress_handler: called every N
        instructions of a statement; a true result interrupts it). The Python signal
        handlers run here first: a loop of compiled instructions alone (a co-routine's)
        runs no Python code that would run them (the shell's Ctrl-C calls interrupt())."""
        PyErr_CheckSignals()  # (raises what a handler raises)
        db = self.db
        if db._interrupted:
            db._interrupted = False
            raise E.OperationalError("interrupted", code=E.SQLITE_INTERRUPT)
        handler = getattr(db, "_progress_handler", None)
        if handler is not None and nops % <long long>db._progress_ops == 0:
            if handler():
                raise E.OperationalError("interrupted", code=E.SQLITE_INTERRUPT)
        return self._next_check(nops)

    cdef object _new_rowid(self, object c):
        bt = (<VCursor>c).bt
        if not bt.last():
            return 1
        v = bt.rowid
        if v >= SQLITE_MAX_I64:
            import random
            for _ in range(100):
                cand = random.randint(1, SQLITE_MAX_I64)
                if bt.seek(cand) != 0 or bt.eof:
                    return cand
            raise E.DatabaseError("database or disk is full", code=E.SQLITE_FULL)
        return v + 1
