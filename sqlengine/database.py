"""The engine's connection object: one open database, its schema, and prepared statements.

This is the level of SQLite's C API (sqlite3_open, sqlite3_prepare_v2, sqlite3_step): it
ties the parser, compiler, VM and storage together and is what ``dbapi.py`` wraps. It
speaks in Python values (None, int, float, str, bytes) and raises only the classes of
``sqlengine.errors``. It never implements DB-API conventions (implicit BEGIN, row
factories, adapters); those live in ``dbapi.py``.

Interface (the contract with ``dbapi.py``):

    db = Database(path, timeout=5.0, vfs=None)   # ":memory:" for an in-memory database
    stmt, tail = db.prepare(sql, start=0)          # first statement at/after ``start``;
                                                   # stmt is None when only blanks/comments
                                                   # remain; tail = offset after it
    stmt.column_names     list[str]
    stmt.column_decltypes list[str | None]
    stmt.param_count      int;  stmt.param_names  list[str | None] (index 0 is ?1)
    stmt.readonly         bool (no write to the database)
    stmt.is_explain       0, 1 (EXPLAIN) or 2 (EXPLAIN QUERY PLAN)
    stmt.bind(index, value)  (1-based);  stmt.clear_bindings()
    stmt.step() -> tuple | None   (a row, or None when done; raises errors.*)
    stmt.reset();  stmt.finalize()
    db.autocommit      True when no explicit transaction is open
    db.changes, db.total_changes, db.last_insert_rowid
    db.create_function(name, nargs, func, deterministic=False)
    db.create_aggregate(name, nargs, factory)   # factory() -> obj with step(*a), finalize()
    db.create_window_function(name, nargs, factory)
    db.create_collation(name, func | None)
    db.interrupt();  db.close()
"""
