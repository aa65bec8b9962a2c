"""One prepared statement (sqlite3_stmt): its program's run state (a Vdbe), its bound
parameters, and the steps of its runs.

Compiled because every statement the connection prepares makes one and every row it
returns is a step: in plain Python the object, its first step and its reset were a fixed
cost of thousands of interpreted instructions a statement, and each row another call.
``database.py``'s Database prepares statements and does the transaction work around a run
(``_stmt_error``, ``_stmt_abandon``, ``_explain``, schema reloads); this module only keeps
a statement's state and steps its VM. It never opens a transaction or touches storage.
"""

from cpython.weakref cimport PyWeakref_NewRef

from sqlengine import errors as E
from sqlengine.compiler.statement import compile_statement
from sqlengine.errors import OperationalError
from sqlengine.vdbe._values import plain_bindings
from sqlengine.vdbe._vm cimport Vdbe, new_vdbe
from sqlengine.vdbe.program cimport Program

cdef object ProgrammingError = E.ProgrammingError
cdef object InterfaceError = E.InterfaceError
cdef object Error = E.Error
cdef int SQLITE_ABORT_ROLLBACK = E.SQLITE_ABORT | 2 << 8
cdef int SQLITE_INTERRUPT = E.SQLITE_INTERRUPT
cdef int SQLITE_READONLY = E.SQLITE_READONLY
cdef int SQLITE_RANGE = E.SQLITE_RANGE


class SchemaChanged(Exception):
    """Raised by the VM's OP_Transaction (Database._vm_schema_changed) when the schema cookie
    is not the one the program was compiled against: the statement is compiled again and
    run from its start."""


cdef class Statement:
    """One prepared statement (sqlite3_stmt)."""

    cdef public object db, text, ast, column_names, column_decltypes
    cdef public object param_count, param_names, readonly, is_explain, _bindings
    cdef public Program prog
    cdef public Vdbe vm     # the run state (its steps and its fields are C calls and reads)
    cdef public bint finalized
    cdef object _explain_rows
    cdef object __weakref__

    def __init__(self, db, text, ast, Program prog not None):
        self.db = db
        self.text = text
        self.ast = ast
        self._set_program(prog)
        self._bindings = [None] * (prog.param_count + 1)
        self._explain_rows = None
        self.finalized = False

    cpdef _set_program(self, Program prog):
        self.prog = prog
        cdef Vdbe vm = new_vdbe(self.db, prog)
        # a weak reference: a strong one would make every statement a reference cycle,
        # which only the cyclic garbage collector frees
        vm.stmt = PyWeakref_NewRef(self, None)
        self.vm = vm
        self.column_names = prog.column_names
        self.column_decltypes = prog.column_decltypes
        self.param_count = prog.param_count
        self.param_names = prog.param_names
        self.readonly = prog.readonly
        self.is_explain = prog.is_explain
        if prog.is_explain == 1:
            self.column_names = ["addr", "opcode", "p1", "p2", "p3", "p4", "p5", "comment"]
            self.column_decltypes = [None] * 8
        elif prog.is_explain == 2:
            self.column_names = ["id", "parent", "notused", "detail"]
            self.column_decltypes = [None] * 4

    # ---- parameters -------------------------------------------------------------------
    def bind(self, index, value):
        if index < 1 or index > self.param_count:
            raise InterfaceError("bind index out of range", code=SQLITE_RANGE)
        if value is not None and type(value) not in (int, float, str, bytes):
            if isinstance(value, bool):
                value = int(value)
            elif isinstance(value, (bytearray, memoryview)):
                value = bytes(value)
            elif isinstance(value, int):
                value = int(value)
            elif isinstance(value, float):
                value = float(value)
            elif isinstance(value, str):
                value = str(value)
            else:
                raise InterfaceError("Error binding parameter - probably unsupported type.")
        if type(value) is int and not (-9223372036854775808 <= value <= 9223372036854775807):
            raise OverflowError("Python int too large to convert to SQLite INTEGER")
        if type(value) is float and value != value:  # (NaN binds NULL, as in SQLite)
            value = None
        self._bindings[index] = value

    def bind_all(self, values):
        """Bind ?1..?n at once from a tuple or list of n plain values (None, int, float,
        str, bytes), with bind()'s checks; False, binding nothing, when ``values`` is not
        such a sequence (then bind them one by one)."""
        b = plain_bindings(values, self.param_count)
        if b is None:
            return False
        self._bindings = b
        return True

    def clear_bindings(self):
        self._bindings = [None] * (self.param_count + 1)

    # ---- running ----------------------------------------------------------------------
    def step(self):
        """The next row (a tuple), or None when the run is done."""
        cdef Vdbe vm = self.vm
        db = self.db
        if vm.started:
            if vm.done:
                tripped = db._tripped
                if tripped is not None and self in tripped:
                    tripped.discard(self)
                    raise OperationalError("abort due to ROLLBACK", code=SQLITE_ABORT_ROLLBACK)
                return None
        else:  # (a finalized or EXPLAIN statement never starts its program)
            if self.finalized:
                raise ProgrammingError("Cannot operate on a finalized statement.")
            if self.is_explain:
                if self._explain_rows is None:
                    if self.prog.schema_version != db.schema.version:
                        self._recompile()  # (a pragma expired it: its plan may differ)
                    self._explain_rows = iter(db._explain(self))
                return next(self._explain_rows, None)
            if self.prog.schema_version != db.schema.version:
                self._recompile()
                vm = self.vm
            vm.bindings = self._bindings
            if self.prog.is_write and db.query_only:  # (SQLite's OP_Transaction test)
                raise OperationalError("attempt to write a readonly database",
                                       code=SQLITE_READONLY)
            db._interrupted = False
            db._active.add(self)
        try:
            if db._interrupted:  # interrupt() between two rows (the VM looks every 4096 ops)
                db._interrupted = False
                raise OperationalError("interrupted", code=SQLITE_INTERRUPT)
            row = vm.step()
        except SchemaChanged:
            db._stmt_error(self, None)
            vm.reset()
            self._recompile()
            return self.step()
        except Exception as e:
            error = self._stopped_by(e)
            if error is not None:
                raise error from None
            raise
        return row

    def step_rows(self, append):
        """Step to the end, handing each row to ``append``: what a loop of step() until it
        returns None does (the DB-API's fetchall), without a call of step() per row."""
        cdef Vdbe vm = self.vm
        db = self.db
        if not vm.started or vm.done:  # (not between two rows: step() knows the rest)
            row = self.step()
            while row is not None:
                append(row)
                row = self.step()
            return
        try:
            while True:
                if db._interrupted:  # as step(): interrupt() between two rows
                    db._interrupted = False
                    raise OperationalError("interrupted", code=SQLITE_INTERRUPT)
                row = vm.step()
                if row is None:
                    if db._tripped is not None:  # (a ROLLBACK stopped it: step() raises)
                        self.step()
                    return
                append(row)
        except Exception as e:  # (no SchemaChanged: the run began before its first row)
            error = self._stopped_by(e)
            if error is not None:
                raise error from None
            raise

    cdef object _stopped_by(self, e):
        """The run failed with ``e`` (an engine error, or a bug or a user function's error):
        the statement stopped as sqlite3VdbeHalt does (Database._stmt_error). Returns the
        error to raise instead of ``e``, if any: a RecursionError is SQLite's "parser stack
        overflow" and a Python OverflowError its "integer overflow"."""
        self.db._stmt_error(self, e)
        if isinstance(e, RecursionError):
            return OperationalError("parser stack overflow")
        if isinstance(e, OverflowError) and not isinstance(e, Error):
            return OperationalError("integer overflow")
        return None

    def _recompile(self):
        prog = compile_statement(self.db, self.ast, self.text)
        prog.schema_version = self.db.schema.version
        b = self._bindings
        self._set_program(prog)
        self._bindings = b if len(b) == prog.param_count + 1 else [None] * (prog.param_count + 1)

    def reset(self):
        db = self.db
        self._explain_rows = None
        if db._tripped is not None:
            db._tripped.discard(self)
        cdef Vdbe vm = self.vm
        if vm.started or vm.done:  # (a VM that never started is as reset() leaves it)
            if not vm.done:
                db._stmt_abandon(self)
            vm.reset()

    def finalize(self):
        cdef Vdbe vm
        if not self.finalized:
            self._explain_rows = None
            vm = self.vm
            if vm.started and not vm.done:
                self.db._stmt_abandon(self)
            vm.started = False  # (step() then raises; the registers go with the statement)
            self.finalized = True
