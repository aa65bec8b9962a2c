# Declarations of sqlengine.compiler.context (compiled from context.py in pure-Python
# mode): Parse is a cdef class, so that the fields a statement starts with are C stores
# and a read of one is a slot's getter, not an instance-dict look-up. See context.py for
# what each field holds. Only its own module types it: the others read its fields as
# attributes (a module cimporting it would fail to import while context.py runs from its
# source, see _source_guard.py).

cdef class Parse:
    cdef public object db, schema, functions, b, sql, trigger_stack, eqp_names, alias_links
    cdef public object n_param, params, param_names, _param_pos, write, one_row_write, ddl
    cdef public object trigger_ctx, nested, halt_label, early_names, values_unused, body_db
    cdef public object trigger_ignore, ast, eqp, eqp_parent, returning, view_stack
    cdef public object flat_names, unused_values, uncoded_results, ctes, no_hand_up
    cdef public object left_flat, json_seen, partial_flags, autoincs, gen_busy
    cdef dict __dict__  # (any other field: resolve_order's pending_error, explain's sel_ids)
