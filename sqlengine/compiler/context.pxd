# Declarations of sqlengine.compiler.context for other Cython modules: Parse's fields, so
# that a module cimporting it (the augmenting .pxd of select.py and statement.py) reads and
# stores them in C. See context.pyx for what each field holds. ``b`` is typed: a reader
# gets the ProgramBuilder itself, whose methods are then C calls.

from sqlengine.compiler._codegen cimport ProgramBuilder


cdef class Parse:
    cdef public ProgramBuilder b  # the program being built
    cdef public object db, schema, functions  # the database, its schema and functions
    cdef public object sql  # the statement's text
    cdef public object ast  # the statement's AST (the numbers of its SELECTs: explain.py)
    # compiling for EXPLAIN QUERY PLAN: plan lines wanted (explain.py); the plan line new
    # lines go under; cursor -> the name a loop's plan line gives
    cdef public object eqp, eqp_parent, eqp_names
    # the lower-case names of the triggers being coded (trigger.py), innermost last: a
    # tuple, replaced on each push and pop (most statements code none: no list to make)
    cdef public object trigger_stack
    # id(SelectCore of a subquery) -> (Scope of the query around it, the core): the
    # subqueries that see that query's result aliases (alias.py); made by the first link
    # (resolve_order.py, _alias.pyx), None until then
    cdef public object alias_links
    # the parameters: their count; made by the first one (param_number): text -> number,
    # and the names by number; source offset -> number, once numbered (_number_params)
    cdef public object n_param, params, param_names, _param_pos
    # what the statement does: writes; is an INSERT of one row that cannot fail after its
    # first write (insert.py: its program needs no statement savepoint, SQLite's
    # !isMultiWrite); changes the schema
    cdef public object write, one_row_write, ddl
    # (new_base_reg, old_base_reg, table) while coding a trigger; the label RAISE(IGNORE)
    # jumps to inside a trigger body
    cdef public object trigger_ctx, trigger_ignore
    cdef public object nested, halt_label
    # How the SELECT compiling names its result columns (_resolve.RESULT_NAMES, or
    # EARLY_NAMES while a FROM subquery or CTE body compiles: SQLite names its columns
    # before names resolve, so a double-quoted string keeps its bare name there; or
    # COLUMN_NAMES for a view's or CREATE TABLE AS's: select.py, _resolve.result_column)
    cdef public object naming
    # True while a value SQLite never codes is coded (select.py: an EXISTS subquery's
    # result columns, a flattened subquery's unused ones): an aggregate that would be
    # "misuse of aggregate" there is NULL (expr.py)
    cdef public object values_unused
    cdef public object body_db  # the database of the view or trigger body (cte.schema_scope)
    cdef public object returning  # what a RETURNING clause (or ALTER's check) returns
    # made on their first write (most statements need none of them): the views being
    # expanded, lower-case (select.py); id(TableRef) -> the name its plan line gives
    # (flatten.py); id(SelectCore of a FROM subquery SQLite flattens) -> the numbers of its
    # result columns the outer query never names (select.py); id(SelectCore) -> the
    # numbers of its result columns never coded (flatten.ALL_COLUMNS: all, an EXISTS
    # subquery's), while its FROM clause is built (select.py)
    cdef public object view_stack, flat_names, unused_values, uncoded_results
    # set while they apply: the WITH stack (cte.py), the calls a subquery may not hand up
    # (aggscope.py), a flattened subquery's FROM item on the right of a LEFT JOIN
    # (select.py), whether the statement can carry JSON (subtype.py)
    cdef public object ctes, no_hand_up, left_flat, json_seen
    # and those of a write: the flag registers of partial-index keys (partial.py), the
    # AUTOINCREMENT tables being inserted into (autoinc.py), the generated columns being
    # computed (generated.py)
    cdef public object partial_flags, autoincs, gen_busy
    cdef dict __dict__  # (any other field: resolve_order's pending_error, explain's sel_ids)
