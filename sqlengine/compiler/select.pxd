# Declarations of sqlengine.compiler.select (compiled from select.py in pure-Python mode):
# the SELECT compiler's functions that call one another once or more per SELECT core are
# cpdef, so that those calls are C calls (a Python call's argument tuple and parsing are
# gone; other modules still call them as Python functions), and the program builder a
# function holds is typed, so that its emit / alloc_reg / new_label / resolve are C calls
# too; the WHERE loop coder's entries and a Select's clauses are reached through
# _select.pyx's C functions. Only .pyx modules are cimported here (a module compiled from
# a .py may run from its source, see _source_guard.py); no other module cimports this one.
# A change to the layout of ProgramBuilder (_codegen.pxd), Scope (_resolve.pxd), Parse
# (context.pxd) or WhereInfo (_levels.pxd) needs compiler.select rebuilt.

cimport cython

cimport sqlengine.compiler._codegen as _cg
cimport sqlengine.compiler._resolve as _res
cimport sqlengine.compiler._select as _sel
from sqlengine.compiler._codegen cimport ProgramBuilder
from sqlengine.compiler._levels cimport WhereInfo
from sqlengine.compiler._resolve cimport Scope as CScope
from sqlengine.compiler.context cimport Parse
from sqlengine.vdbe._functable cimport FunctionTable


cpdef compile_select(Parse p, sel, dest, outer=*, corr=*)

@cython.locals(b=ProgramBuilder)
cpdef tuple _limit_regs(Parse p, scope, limit, offset, end_label)

cpdef list _flatten(f, list out)

@cython.locals(sources=list, extra=list, left_on=dict)
cpdef tuple build_from(Parse p, from_, CScope scope, outer=*)

cpdef list _expand_columns(Parse p, core, CScope scope)

cpdef bint _joins_subquery(f, views) except -1

cpdef list _collect_aggs(Parse p, exprs, refs=*)

@cython.locals(b=ProgramBuilder, scope=CScope, w=WhereInfo, n_res=Py_ssize_t,
               n_ordered=Py_ssize_t)
cpdef _compile_core(Parse p, core, order_by, limit, offset, dest, outer, corr, compound_arm=*)

cpdef _no_collate(e)

@cython.locals(b=ProgramBuilder)
cpdef _emit_topn_row(Parse p, CScope scope, list obt, list result_exprs, unused, sorter)

cpdef _code_result(Parse p, scope, list result_exprs, unused, i, target)

cpdef _fixed_limit(limit)

cpdef _hint(core)

cpdef _and_all(where, extra)

cpdef tuple _merge_aggs(scope, list aggs)

@cython.locals(b=ProgramBuilder, table=FunctionTable)
cpdef _compile_aggregate(Parse p, core, CScope scope, extra, left_on, list aggs, group_by,
                         having, list result_exprs, order_exprs, rows, refs=*, sort_desc=*,
                         as_distinct=*)
