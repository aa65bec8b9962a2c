# Declarations of sqlengine.compiler.statement (compiled from statement.py in pure-Python
# mode): _compile, run once per statement, holds its Parse and program builder typed (their
# fields are C reads, the builder's emit a C call), and calls the helpers of this module as
# C functions. Only .pyx modules are cimported here (a module compiled from a .py may run
# from its source, see _source_guard.py); no other module cimports this one. A change to
# the layout of Parse (context.pxd), ProgramBuilder (_codegen.pxd) or Program (program.pxd)
# needs compiler.statement rebuilt.

cimport cython

cimport sqlengine.compiler._codegen as _cg
cimport sqlengine.compiler._resolve as _res
from sqlengine.compiler._codegen cimport ProgramBuilder
from sqlengine.compiler.context cimport Parse as CParse
from sqlengine.vdbe.program cimport Program


cpdef bint _may_name_json(str text) except -1

@cython.locals(p=CParse, b=ProgramBuilder, explain=int, is_txn=bint, write=bint, prog=Program)
cpdef _compile(db, stmt, str text, hex_notes=*)

# _may_abort's one pass over the opcode array: the opcodes it tests as C ints, the array
# read through a typed memoryview (the operands through Python, for the few halts), the
# Parse's and the Program's fields as C reads.
cdef int _OP_FUNCTION, _OP_AGG_STEP, _OP_AGG_FINAL, _OP_AGG_VALUE, _OP_DESTROY
cdef int _OP_PARSE_SCHEMA, _OP_HALT, _OP_HALT_IF_NULL, _OP_RAISE, _OP_MUST_BE_INT
cdef long long _OE_ROLLBACK, _OE_FAIL, _SQLITE_FULL

@cython.locals(ops="const int[:]", i=Py_ssize_t, op=int, code="long long",
               action="long long")
cdef bint _may_abort(CParse p, Program prog) except -1
