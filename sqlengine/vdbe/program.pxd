# Declarations of sqlengine.vdbe.program for other Cython modules (the builder,
# compiler/_codegen.pyx, fills a Program's fields directly). See program.pyx.

cdef class Program:
    cdef public object opcodes, p1, p2, p3, p5, p4, comments, n_mem, n_cursor, n_once
    cdef public object column_names, column_decltypes, param_count, param_names
    cdef public object readonly, is_explain, sql, schema_version, is_ddl, is_write, is_txn
    cdef public object stmt_journal
