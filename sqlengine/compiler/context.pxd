# Declarations of sqlengine.compiler.context for other Cython modules: Parse's fields, so
# that a module cimporting it (the augmenting .pxd of select.py and statement.py) reads and
# stores them in C. See context.pyx for what each field holds. ``b`` is typed: a reader
# gets the ProgramBuilder itself, whose methods are then C calls.

from sqlengine.compiler._codegen cimport ProgramBuilder


cdef class Parse:
    cdef public ProgramBuilder b
    cdef public object db, schema, functions, sql, trigger_stack, eqp_names, alias_links
    cdef public object n_param, params, param_names, _param_pos, write, one_row_write, ddl
    cdef public object trigger_ctx, nested, halt_label, early_names, values_unused, body_db
    cdef public object trigger_ignore, ast, eqp, eqp_parent, returning, view_stack
    cdef public object flat_names, unused_values, uncoded_results, ctes, no_hand_up
    cdef public object left_flat, json_seen, partial_flags, autoincs, gen_busy
    cdef dict __dict__  # (any other field: resolve_order's pending_error, explain's sel_ids)
