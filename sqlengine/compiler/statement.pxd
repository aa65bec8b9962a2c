# Declarations of sqlengine.compiler.statement (compiled from statement.py in pure-Python
# mode): _compile, run once per statement, holds its Parse and program builder typed (their
# fields are C reads, the builder's emit a C call), and calls the helpers of this module as
# C functions. Only .pyx modules are cimported here (a module compiled from a .py may run
# from its source, see _source_guard.py); no other module cimports this one. A change to
# the layout of Parse (context.pxd) or ProgramBuilder (_codegen.pxd) needs
# compiler.statement rebuilt.

cimport cython

cimport sqlengine.compiler._codegen as _cg
from sqlengine.compiler._codegen cimport ProgramBuilder
from sqlengine.compiler.context cimport Parse as CParse


cpdef bint _may_name_json(str text) except -1

@cython.locals(p=CParse, b=ProgramBuilder, explain=int, is_txn=bint, write=bint)
cpdef _compile(db, stmt, str text)
