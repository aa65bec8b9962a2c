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
    stmt.bind_all(values) -> bool   (optional) ?1..?n from a tuple/list of n plain values;
                                    False (nothing bound) for anything else
    stmt.step() -> tuple | None   (a row, or None when done; raises errors.*)
    stmt.step_rows(append)        (optional) step() until None, append(row) for each row
    stmt.reset();  stmt.finalize()
    db.autocommit      True when no explicit transaction is open
    db.changes, db.total_changes, db.last_insert_rowid
    db.create_function(name, nargs, func, deterministic=False)
    db.create_aggregate(name, nargs, factory)   # factory() -> obj with step(*a), finalize()
    db.create_window_function(name, nargs, factory)
    db.create_collation(name, func | None)
    db.interrupt();  db.close()

Extensions beyond the contract (used by tests, tools and the compiler):

    db.execute(sql, params=()) -> list[tuple]   every statement of ``sql``; the rows of the
                                                last (no DB-API conventions)
    db.schema                  the loaded ``schema.Schema`` (tables, indexes, views, triggers)
    db.find_function / find_aggregate / is_aggregate / find_collation   (compiler look-ups)

Optional, used by dbapi.py and the shell when present (they fall back without them):
    stmt.param_names entries as sqlite3_bind_parameter_name: ':a' '@a' '$a' '?3'; None for ?
    db.set_authorizer(callback | None)   # callback(action, arg1, arg2, dbname, source) at
                                         # prepare -> 0 OK, 1 DENY, 2 IGNORE (SQLITE_* codes)
    db.set_progress_handler(callback | None, n)   # every n VM steps; a true result stops
                                         # the statement: OperationalError("interrupted")
    db.set_limit(category, value)        # sqlite3_limit categories 0..11
    exc.offset on a prepare error        # offset of the offending token in the statement
                                         # text (sqlite3_error_offset), for the shell
    An exception raised by a user callback propagates out of step() unchanged (dbapi.py
    wraps the callbacks so that they raise the stdlib's errors).

Transactions: a statement that reads opens a read transaction and a statement that writes
a write transaction when none is open; in autocommit mode a write is committed when its
statement ends and no other statement writes, and the transaction ends when the last active
statement finishes (statements still reading keep a read transaction, SHARED on the file).
Inside an explicit transaction every writing statement runs in a statement savepoint, so an
error undoes that statement only (ABORT), or nothing (FAIL), or the whole transaction
(ROLLBACK), as the conflict action says.
"""

from __future__ import annotations

import weakref

from sqlengine import errors as E
from sqlengine import schema as S
from sqlengine._statement import SchemaChanged, Statement
from sqlengine.compiler.planner import forget_table_facts
from sqlengine.compiler.statement import compile_statement
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.sql import parse_one
from sqlengine.sql.limits import MAX_TRIGGER_DEPTH
# the schema rows' texts are parsed under another name: bench/phase_split.py times
# prepare's parse_one (this module's global), not a schema reload's
from sqlengine.sql import parse_one as _parse_schema_sql
from sqlengine.vdbe import opcodes as O


_ATTACH_STATEMENTS = (A.Attach, A.Detach)
_SCHEMA_KINDS = {"table": A.CreateTable, "index": A.CreateIndex, "view": A.CreateView,
                 "trigger": A.CreateTrigger}

# Programs kept by statement text for prepare(). Small: the DB-API has its own statement
# cache, and keeping hundreds of programs of distinct statements alive slows down the
# compilation of new ones (their memory is not reused while it is still warm); a program
# and its AST of a large join take some 50 KB, so 64 of them made a run of distinct
# statements (the corpus workload) hold 2.4x sqlite3's memory.
_PROGRAM_CACHE_SIZE = 16


def _statement_of(vm):
    """The Statement running ``vm`` (None for a VM no statement runs)."""
    ref = vm.stmt
    return ref() if ref is not None else None


class Database:
    # PRAGMA foreign_keys and defer_foreign_keys (off until set: compiler/pragma.py) and
    # the foreign-key marks of compiler/fkey.py: class defaults, so that reading one never
    # raises an AttributeError to be caught (the compile of every write statement reads
    # foreign_keys several times)
    foreign_keys = 0
    defer_foreign_keys = 0
    # PRAGMA query_only, the connection's (kept on its temp and attached databases too:
    # compiler/pragma_settings.py): a statement that would write fails at its first step
    query_only = 0
    temp_store = 0  # (PRAGMA temp_store: compiler/pragma_settings.py)
    automatic_index = 1  # (PRAGMA automatic_index: the planner's, compiler/_loops.pyx)
    # SQLITE_LIMIT_TRIGGER_DEPTH: the trigger frames a statement may nest (the VM's
    # OP_Program, recursive triggers; set_limit)
    max_trigger_depth = MAX_TRIGGER_DEPTH
    reverse_unordered_selects = 0  # (compiler/_where.pyx)
    fk_dirty = None
    fk_stmt = None
    # statements a ROLLBACK stopped (_trip), whose next step raises "abort due to ROLLBACK";
    # a WeakSet once one was
    _tripped = None
    # the open explicit transaction wrote this database's schema cookie (SQLite's
    # DBFLAG_SchemaChange, which stays set after a ROLLBACK TO): its connection's ROLLBACK
    # and ROLLBACK TO then stop every active statement (_txn_changed_schema)
    schema_changed = False
    # compiler/attach.py: an attached or temp database's connection (a weakref)
    owner = None

    def set_limit(self, category, value):
        """A run-time limit the connection's setlimit changed that the engine acts on
        (only SQLITE_LIMIT_TRIGGER_DEPTH, category 10, here: the VM reads it)."""
        if category == 10 and value != self.max_trigger_depth:
            self.max_trigger_depth = value
            # (read when a trigger is coded too: the prepared statements are made again)
            self._schema_version += 1
            self.schema.version = self._schema_version

    def __init__(self, path, timeout=5.0, vfs=None):
        from sqlengine.storage import Btree
        self.path = path
        try:
            self.bt = Btree.open(path, vfs)
        except E.Error:
            raise
        except OSError as e:
            raise OperationalError("unable to open database file",
                                   code=E.SQLITE_CANTOPEN) from e
        try:
            self.bt.busy_timeout = timeout
            # PRAGMA integrity_check compares index entries with their table rows here,
            # where the schema is known (the b-tree layer checks the pages)
            self.bt.index_check = self._index_integrity
        except Exception:
            pass
        self.autocommit = True
        self.changes = 0
        self.total_changes = 0
        self.last_insert_rowid = 0
        self.writable_schema = False
        self.ignore_check_constraints = False
        self.closed = False
        self._active: set = set()
        self._stmt_sp: dict = {}
        self._savepoints: list[str] = []
        self._txn_by_savepoint = False
        self._cache: dict = {}
        self._schema_version = 0
        self._interrupted = False
        self._progress_handler = None  # set_progress_handler: called by the VM every
        self._progress_ops = 0         # _progress_ops instructions
        self._authorizer = None
        self.attached: list = []  # compiler/attach.py: the ATTACHed databases, in order
        self._attach_code = 1
        from sqlengine.vdbe._functable import FunctionTable
        self.functions = FunctionTable(self)
        from sqlengine.vdbe.collations import CollationRegistry
        self.collations = CollationRegistry()
        self._coll_cache: dict = {}
        self._memory = path in (":memory:", "") or bool(getattr(self.bt, "is_memory", False))
        self.schema = S.Schema()
        self._load_schema(at_open=True)

    # ---- schema ---------------------------------------------------------------------------
    def _read_schema_rows(self):
        rows = S.SchemaRows()
        if self.bt.page_count() == 0:
            return rows, 0
        self._scan_records(1, rows.add)
        return rows, self.bt.get_meta(1)

    def _scan_records(self, root, add):
        """``add`` each record of the table b-tree at ``root``, in rowid order."""
        cur = self.bt.cursor(root, False)
        record = cur.record  # (each row decoded in place: no payload bytes copied first)
        step = cur.next
        ok = cur.first()
        while ok:
            add(record())
            ok = step()
        cur.close()

    def _load_schema(self, at_open=False):
        own = self.bt.in_trans == 0
        if own:
            self.bt.begin(False)
        try:
            rows, cookie = self._read_schema_rows()
            # (``at_open``: a PRAGMA default_cache_size kept in the header is the cache
            # size, as SQLite's sqlite3InitOne takes it)
            size = self.bt.get_meta(3) if at_open else 0
        finally:
            if own:
                self.bt.commit()
        self._install_schema(rows, cookie)
        if size:
            self.bt.cache_size = abs(size - 0x100000000 if size >= 0x80000000 else size)

    def _check_schema_cookie(self):
        """Another connection may have changed the schema: reload it when the file's schema
        cookie moved (SQLite does the same when it prepares a statement)."""
        bt = self.bt
        bt.begin(False)
        try:
            if bt.get_meta(1) != self.schema.cookie:
                rows, cookie = self._read_schema_rows()
                self._install_schema(rows, cookie)
        finally:
            bt.commit()

    def _install_schema(self, rows, cookie, edit=None):
        """Build the schema from ``rows`` (every sqlite_schema row), or with ``edit`` (a
        DDL statement's schema.SchemaEdit and the rows it deleted) change the current one
        by the rows it deleted and those it added, ``rows`` (schema.edit_schema)."""
        # SQLite names the damaged row: "malformed database schema (x) - <why>". The row
        # being built is the one whose text was parsed last.
        current = [None]

        def malformed(name, why=None):
            return E.DatabaseError(f"malformed database schema ({name})"
                                   + (f" - {why}" if why else ""), code=E.SQLITE_CORRUPT)

        def parse(sql, typ, name):
            current[0] = name
            r = _parse_schema_sql(sql)
            if r is None:
                raise malformed(name)
            st = r.stmt
            want = _SCHEMA_KINDS.get(typ)
            if want is not None and (not isinstance(st, want)
                                     or st.name.lower() != name.lower()):
                # not the CREATE statement of the row's own object
                raise malformed(name)
            return st
        old = getattr(self.schema, "main", self.schema)
        try:
            if edit is not None:
                s = S.edit_schema(self.schema, edit[0], edit[1], rows, parse)
            else:
                s = S.build_schema(rows, parse, old)
        except E.Error as e:
            if str(e).startswith("malformed database schema"):
                raise
            where = f" ({current[0]})" if current[0] is not None else ""
            raise E.DatabaseError(f"malformed database schema{where} - {e}",
                                  code=E.SQLITE_CORRUPT) from None
        if edit is not None:
            s.has_stats = old.has_stats  # (an edit keeps the tables' statistics)
        elif old.has_stats or S.STAT1 in s.tables:
            self._read_stats(s)  # (SQLite's sqlite3AnalysisLoad of a schema load)
        s.cookie = cookie
        self._schema_version += 1
        s.version = self._schema_version
        self.schema = s
        self._cache.clear()
        if self.attached:
            from sqlengine.compiler.attach import merged_schema
            self.schema = merged_schema(self, s)

    def _read_stats(self, s):
        """Give the tables of schema ``s`` the statistics its sqlite_stat1 holds
        (schema.apply_stats; none without the table or when it cannot be read, as SQLite
        ignores a failed load), and have the planner weigh them."""
        rows = []
        stat = s.tables.get(S.STAT1)
        if stat is not None and not stat.without_rowid:
            bt = self.bt
            own = bt.in_trans == 0
            if own:
                bt.begin(False)
            try:
                self._scan_records(stat.root, rows.append)
            except E.Error:
                rows = []
            finally:
                if own:
                    bt.commit()
        S.apply_stats(s, rows)
        forget_table_facts()

    def load_stats(self):
        """After ANALYZE (SQLite's OP_LoadAnalysis and OP_Expire): the statistics read
        again, and every prepared statement compiled again before its next run."""
        main = getattr(self.schema, "main", self.schema)
        self._read_stats(main)
        self._schema_version += 1
        main.version = self.schema.version = self._schema_version
        self._cache.clear()

    # ---- preparing --------------------------------------------------------------------------
    def prepare(self, sql, start=0):
        if self.closed:
            raise E.ProgrammingError("Cannot operate on a closed database.")
        parsed = parse_one(sql, start)
        if parsed is None:
            return None, len(sql)
        if not self._memory and self.bt.in_trans == 0:
            self._check_schema_cookie()
        key = parsed.text
        if self._authorizer is not None:
            return self._prepare_authorized(parsed), parsed.end
        hit = self._cache.get(key)
        if hit is not None and hit[0].schema_version == self.schema.version:
            prog, ast = hit
        else:
            ast = parsed.stmt
            if self.attached or type(ast) in _ATTACH_STATEMENTS or getattr(ast, "temp", False) \
                    or (getattr(ast, "schema", None) or "").lower() == "temp":
                from sqlengine.compiler.attach import prepare_attached
                return prepare_attached(self, parsed), parsed.end
            prog = compile_statement(self, ast, parsed.text)
            prog.schema_version = self.schema.version
            cache = self._cache
            if len(cache) >= _PROGRAM_CACHE_SIZE:  # forget the oldest
                del cache[next(iter(cache))]
            cache[key] = (prog, ast)
        return Statement(self, parsed.text, ast, prog), parsed.end

    def _prepare_authorized(self, parsed):
        """Prepare under an authorizer: ask it about the statement (compiler/auth.py), never
        from or into the cache (its answers may change between two prepares)."""
        from sqlengine.compiler.auth import authorize
        from sqlengine.compiler.statement import compile_statement
        from sqlengine.sql import ast as A
        ast = authorize(self, parsed.stmt, self._authorizer)
        if ast is None:  # IGNORE: the statement does nothing
            ast = A.Pragma("sqlengine_authorizer_ignored")
        if self.attached or type(ast) in _ATTACH_STATEMENTS or getattr(ast, "temp", False) \
                or (getattr(ast, "schema", None) or "").lower() == "temp":
            from sqlengine.compiler.attach import prepare_attached
            return prepare_attached(self, parsed, ast)
        prog = compile_statement(self, ast, parsed.text)
        prog.schema_version = self.schema.version
        return Statement(self, parsed.text, ast, prog)

    def set_authorizer(self, callback):
        """sqlite3_set_authorizer: ``callback(action, arg1, arg2, dbname, source)`` is asked
        about every statement prepared from now on (None removes it)."""
        self._authorizer = callback
        self._cache.clear()

    def execute(self, sql, params=()):
        """Run every statement of ``sql``; the rows of the last one (a convenience for tests
        and tools: ``dbapi.py`` is the real front door)."""
        pos = 0
        rows = []
        while True:
            stmt, pos2 = self.prepare(sql, pos)
            if stmt is None:
                break
            for i, v in enumerate(params[:stmt.param_count]):
                stmt.bind(i + 1, v)
            rows = []
            try:
                while True:
                    r = stmt.step()
                    if r is None:
                        break
                    rows.append(r)
            finally:
                stmt.finalize()
            pos = pos2
        return rows

    # ---- statement lifecycle (called by Statement) --------------------------------------------
    def _finish_txn_if_idle(self):
        """In autocommit mode, end the transaction once no statement writes (sqlite3VdbeHalt:
        autocommit and db->nVdbeWrite == 0): all of it when no statement is active, else its
        write part, committed at once while the statements still active go on reading."""
        if self.autocommit and self.bt.in_trans:
            if not self._active:
                self.bt.commit()
            elif self.bt.in_trans == 2 and not self._writing():
                self._end_txn()

    def _writing(self):
        """Whether a statement still active writes (SQLite's db->nVdbeWrite > 0)."""
        for s in self._active:
            if s.prog.is_write and not s.vm.done:
                return True
        return False

    def _end_txn(self, rollback=False, own=0):
        """Commit (or roll back) the transaction. While statements are still active (other
        than the ``own`` running one: COMMIT, ROLLBACK, RELEASE) it ends in a read
        transaction that keeps SHARED on every file (Pager.keep_read), as SQLite's
        btreeEndTransaction keeps TRANS_READ while other statements read: their cursors go
        on reading a file that no other connection can change under them."""
        bt = self.bt
        end = bt.rollback if rollback else bt.commit
        if len(self._active) <= own:
            end()
            return
        pagers = [bt.pager] + [att.db.bt.pager for att in self.attached]
        for p in pagers:
            p.keep_read = True
        try:
            end()
        finally:
            for p in pagers:
                del p.keep_read  # (back to the class default: no attribute on the pager)

    def _vm_release_statement(self, stmt):
        """At the end of a run (the VM's Halt): release the statement's journal, if any."""
        sp = self._stmt_sp.pop(stmt, None)
        if sp is not None:
            self.bt.savepoint_release(sp)

    def _stmt_of(self, vm):
        stmt = _statement_of(vm)
        return stmt if stmt in self._active else None

    def _stmt_error(self, stmt, exc):
        vm = stmt.vm
        action = vm.error_action
        vm.done = True
        vm.close_cursors()
        sp = self._stmt_sp.pop(stmt, None)
        self._active.discard(stmt)
        if self.autocommit and getattr(self, "fk_dirty", None):
            self.fk_dirty = None  # its deferred foreign-key marks went with its changes
        rollback = action == O.OE_ROLLBACK or _forces_rollback(exc, vm.prog, sp is not None)
        # as sqlite3VdbeHalt: the changes count when FAIL keeps them
        vm.count_changes(vm.n_change if action == O.OE_FAIL and not rollback else 0)
        if not self.bt.in_trans:
            return
        if rollback:
            self._rollback_all()
            return
        if action == O.OE_FAIL:
            if sp is not None:
                self.bt.savepoint_release(sp)
            self._finish_txn_if_idle()
            return
        if sp is not None:
            self.bt.savepoint_rollback(sp)
            self.bt.savepoint_release(sp)
            if vm.prog.is_ddl:
                self._reload_schema_in_txn()
            if self.autocommit and self.bt.in_trans == 2 and not self._writing():
                # (other statements read on: the transaction holds only this one's undone
                # changes, ended as SQLite's vdbeHalt does with sqlite3RollbackAll)
                self._end_txn(rollback=True)
            return
        if self.autocommit and not self._active:
            if self.bt.in_trans == 2:
                self.bt.rollback()
                if vm.prog.is_ddl:
                    self._load_schema()
            else:
                self.bt.commit()

    def _stmt_abandon(self, stmt):
        """A statement reset before it finished: end its part in the transaction."""
        vm = stmt.vm
        vm.close_cursors()
        sp = self._stmt_sp.pop(stmt, None)
        if sp is not None:
            self.bt.savepoint_release(sp)
        self._active.discard(stmt)
        self._finish_txn_if_idle()

    def _rollback_all(self, own=0):
        """Roll the transaction back: ROLLBACK (``own``: its statement is active) or an
        error that ends the transaction. As SQLite's sqlite3RollbackAll(SQLITE_ABORT_ROLLBACK):
        when the transaction changed a schema (main's, the temp or an attached one's)
        every active statement is stopped (_trip); else they read on (the rolled-back
        content), the transaction kept open for them as a read one. (SQLite stops the
        cursors open for writing too, but no statement that is active between two steps
        writes any more: a RETURNING has made all its changes before its first row.)"""
        cookie = self.schema.cookie
        changed = self._txn_changed_schema()
        self._stmt_sp.clear()
        if self.bt.in_trans:
            self._end_txn(rollback=True, own=own)
        self._end_explicit_txn()
        self.fk_dirty = None  # (deferred foreign keys marked by what was rolled back)
        self._savepoints.clear()
        self._load_schema()
        if (changed or self.schema.cookie != cookie) and self._active:
            self._trip_all()
            if len(self._active) <= own and self.bt.in_trans:
                self.bt.commit()  # (the read transaction kept for them ends with them)

    def _txn_changed_schema(self):
        """Whether the open transaction wrote a schema cookie: main's, the temp or an
        attached database's (each database's ``schema_changed``)."""
        if self.schema_changed:
            return True
        for att in self.attached:
            if att.db.schema_changed:
                return True
        return False

    def _end_explicit_txn(self):
        """Back to autocommit mode: the transaction's schema-change marks go with it."""
        self.autocommit = True
        self.schema_changed = False
        for att in self.attached:
            att.db.schema_changed = False

    def _trip_all(self):
        """Stop every active statement but the ROLLBACK running (a rollback that undid a
        schema change: their programs may read b-trees that no longer exist)."""
        for s in list(self._active):
            if type(s.ast) is not A.Rollback:
                self._trip(s)

    def _trip(self, stmt):
        """Stop an active statement at a rollback (sqlite3BtreeTripAllCursors): its cursors
        closed, its next step raises "abort due to ROLLBACK" (SQLITE_ABORT_ROLLBACK)."""
        stmt.vm.done = True
        stmt.vm.close_cursors()
        self._active.discard(stmt)
        if self._tripped is None:
            self._tripped = weakref.WeakSet()
        self._tripped.add(stmt)

    # ---- hooks the VM calls --------------------------------------------------------------------
    def _vm_begin(self, vm, write):
        """OP_Transaction of a write statement inside an open transaction: a read one to
        make a write one, or a statement journal wanted. (With no transaction open the VM
        begins it itself: _btree.begin_cookie, then _vm_schema_changed when the cookie
        differs and _vm_stmt_journal for a write that may want a journal.)"""
        bt = self.bt
        if bt.pager.in_trans < 2:  # (Btree.in_trans, without the property call)
            bt.begin(True)
        if vm.prog.stmt_journal:
            self._vm_stmt_journal(vm)

    def _vm_schema_changed(self):
        """The schema cookie read at a statement's begin is not the one its program was
        compiled against: read the schema again and have the statement recompiled."""
        rows, cookie = self._read_schema_rows()
        self._install_schema(rows, cookie)
        raise SchemaChanged()

    def _vm_stmt_journal(self, vm):
        """Open the statement journal (a savepoint) of a write statement whose program may
        fail part way, unless it runs alone in an autocommit transaction (undoing it is
        rolling the transaction back) or has one already."""
        if self.autocommit and len(self._active) <= 1:
            return
        stmt = self._stmt_of(vm)
        if stmt is not None and stmt not in self._stmt_sp:
            n = len(self._savepoints) + len(self._stmt_sp)
            self.bt.savepoint_open(n)
            self._stmt_sp[stmt] = n

    def _vm_autocommit(self, on, rollback):
        if not on:
            if not self.autocommit:
                raise OperationalError("cannot start a transaction within a transaction")
            self.autocommit = False
            return
        if self.autocommit:
            if rollback:
                raise OperationalError("cannot rollback - no transaction is active")
            raise OperationalError("cannot commit - no transaction is active")
        if rollback:
            self._rollback_all(own=1)
            return
        others = [s for s in self._active if s.vm.started and not s.vm.done and s.prog.is_write]
        if others:
            raise OperationalError("cannot commit transaction - SQL statements in progress")
        if self.bt.in_trans:
            self._end_txn(own=1)
        self._savepoints.clear()
        self._end_explicit_txn()

    def _vm_savepoint(self, op, name):
        low = name.lower()
        if op == 0:
            if self.autocommit:
                self.autocommit = False
                self._txn_by_savepoint = True
            self.bt.begin(True)
            self.bt.savepoint_open(len(self._savepoints))
            self._savepoints.append(low)
            return
        try:
            i = len(self._savepoints) - 1 - self._savepoints[::-1].index(low)
        except ValueError:
            raise OperationalError(f"no such savepoint: {name}") from None
        if op == 1:
            if i == 0 and self._txn_by_savepoint:
                self._savepoints.clear()
                if self.bt.in_trans:
                    self._end_txn(own=1)
                self._end_explicit_txn()
                self._txn_by_savepoint = False
                return
            self.bt.savepoint_release(i)
            del self._savepoints[i:]
        else:
            self.bt.savepoint_rollback(i)
            del self._savepoints[i + 1:]
            self._reload_schema_in_txn()
            if self._txn_changed_schema():
                # the transaction changed a schema (before the savepoint or after it):
                # SQLite's OP_Savepoint then stops every active statement
                self._trip_all()

    def _edit_schema(self, change) -> bool:
        """The schema after a CREATE or DROP, from the rows of the groups it changed: the
        current schema's rows of those groups it did not delete, then the rows it added,
        read from the end of sqlite_schema. False, changing nothing, when sqlite_schema
        does not hold the number of rows that gives, or the last rows are not of those
        groups (the statement did not do what it said: read everything again)."""
        s = self.schema
        gone = change.gone(s)
        n_deleted = sum(len(p) for p in gone.values())
        new = []
        cur = self.bt.cursor(1, False)
        try:
            if cur.count() != s.n_rows - n_deleted + change.added:
                return False
            ok = cur.last()
            for _ in range(change.added):
                if not ok:
                    return False
                new.append(cur.record())
                ok = cur.prev()
        finally:
            cur.close()
        rows = S.SchemaRows(change.keys)
        for rec in reversed(new):
            rows.add(rec)
        if rows.skipped:
            return False
        self._install_schema(rows, self.bt.get_meta(1), (change, gone))
        return True

    def _reload_schema_in_txn(self):
        rows, cookie = self._read_schema_rows()
        self._install_schema(rows, cookie)

    def _vm_get_meta(self, i):
        return self.bt.get_meta(i)

    def _vm_set_meta(self, i, v):
        if i == 1 and not self.autocommit:
            self.schema_changed = True
        if v < 0:
            v = self.bt.get_meta(i) + 1
        self.bt.set_meta(i, v & 0xFFFFFFFF)

    def _vm_create_btree(self, kind):
        return self.bt.create_table(kind == 1)

    def _vm_destroy(self, root):
        owner = self.owner() if self.owner is not None else None
        if len(self._active) + (len(owner._active) if owner is not None else 0) > 1:
            # another statement of the connection is reading (SQLite's OP_Destroy:
            # db->nVdbeRead > 1)
            raise OperationalError("database table is locked", code=E.SQLITE_LOCKED)
        self.bt.drop_table(root)

    def _vm_clear(self, root):
        return self.bt.clear_table(root)

    def _vm_parse_schema(self, change=None):
        """OP_ParseSchema: after CREATE or DROP (``change`` a schema.SchemaEdit) only the
        groups of rows it changed are built again (``_edit_schema``); otherwise (ALTER
        TABLE, or with attached databases) the whole schema is read again."""
        if type(change) is S.SchemaEdit and not self.attached and self._edit_schema(change):
            return
        for att in self.attached:
            # (ALTER's rename of a main table or column rewrites temp's views and
            # triggers too: its schema first, which main's merged schema is built from)
            if att.name == "temp" and att.db.bt.in_trans:
                att.db._reload_schema_in_txn()
        self._reload_schema_in_txn()

    # ---- EXPLAIN -------------------------------------------------------------------------------
    def _vacuum(self, schema, into, has_into=False):
        """VACUUM [schema] [INTO file], run by the statement's program (compiler/vacuum.py)."""
        from sqlengine.storage.vacuum import vacuum, vacuum_into

        if has_into and not isinstance(into, str):
            raise OperationalError("non-text filename")
        if not self.autocommit:
            raise OperationalError("cannot VACUUM from within a transaction")
        if len(self._active) > 1:
            raise OperationalError("cannot VACUUM - SQL statements in progress")
        if schema == "temp":
            return None
        bt = self.bt
        if into is not None:
            vacuum_into(bt, into, bt.pending_page_size, bt.pager.vfs)
            return None
        vacuum(bt, bt.pending_page_size)
        bt.pending_page_size = None
        self._load_schema()
        return None

    def _explain(self, stmt):
        if stmt.is_explain == 1:
            return stmt.prog.explain_rows()
        from sqlengine.compiler.explain import query_plan
        return query_plan(self, stmt)

    # ---- functions and collations -------------------------------------------------------------
    def find_function(self, name, nargs):
        return self.functions.scalar(name, nargs)

    def find_aggregate(self, name, nargs):
        return self.functions.aggregate(name, nargs)

    def is_aggregate(self, name, nargs):
        return self.functions.is_aggregate(name, nargs)

    def function_exists(self, name):
        return self.functions.exists(name)

    def function_names(self):
        """Every function name a statement can call: the scalar and aggregate functions
        (built-in and created), the window-only ones and the table-valued ones."""
        from sqlengine.compiler.tablefunc import TABLE_FUNCTIONS
        from sqlengine.compiler.window import WINDOW_FUNCTIONS
        names = {n for n in self.functions.names() if n.isidentifier()}  # not '->'
        return names | WINDOW_FUNCTIONS | TABLE_FUNCTIONS

    def create_function(self, name, nargs, func, deterministic=False):
        self.functions.create_function(name, nargs, func, deterministic)
        self._cache.clear()

    def create_aggregate(self, name, nargs, factory):
        self.functions.create_aggregate(name, nargs, factory)
        self._cache.clear()

    def create_window_function(self, name, nargs, factory):
        self.functions.create_aggregate(name, nargs, factory)
        self._cache.clear()

    def create_collation(self, name, func):
        self.collations.register(name, func)
        self._coll_cache.pop(name.upper(), None)
        self._cache.clear()

    def find_collation(self, name):
        from sqlengine.vdbe.sorter import Coll, builtin_key
        key = name.upper()
        c = self._coll_cache.get(key)
        if c is not None:
            return c
        try:
            f = self.collations.get(name)
        except E.Error:
            return None
        if f is None and key != "BINARY":
            return None
        c = Coll(key, f, builtin_key(key) if key in ("NOCASE", "RTRIM") and
                 not self.collations_user_override(key) else None)
        self._coll_cache[key] = c
        return c

    def collations_user_override(self, key):
        user = getattr(self.collations, "_user", {})
        return key in user or key.lower() in user

    # ---- misc ------------------------------------------------------------------------------------
    def interrupt(self):
        self._interrupted = True

    def set_progress_handler(self, callback, n):
        """sqlite3_progress_handler: ``callback()`` runs every ``n`` VM instructions of a
        statement; a true result stops it with OperationalError("interrupted"). None or
        n <= 0 removes the handler."""
        if callback is None or n <= 0:
            self._progress_handler = None
            self._progress_ops = 0
        else:
            self._progress_ops = int(n)
            self._progress_handler = callback

    def _index_integrity(self, max_errors, only=None):
        """The second half of SQLite's integrity_check: every table row has its entry in
        each index ("row N missing from index X") and each index holds as many entries as
        the table has rows ("wrong # of entries in index X"). Entries are compared by value
        (no collation needed: an entry holds the row's values as stored). Tables with
        virtual generated columns (for a WITHOUT ROWID table: indexes on them) and expression
        or partial indexes are left out; a WITHOUT ROWID table's index entries are its
        columns then the PRIMARY KEY columns it lacks (schema.record_tail); a table whose pages are too damaged to read is left to the page
        check's messages. ``only``: the one table to look at (PRAGMA
        integrity_check(TABLE))."""
        from collections import Counter

        from sqlengine.storage import decode_record
        out = []
        schema = getattr(self.schema, "main", self.schema)
        bt = getattr(self.bt, "main", self.bt)
        for table in _hash_order(bt, schema):
            if len(out) >= max_errors:
                break
            if only is not None and table is not only:
                continue
            wr = table.without_rowid
            if table.root <= 1 or (getattr(table, "storage", None) and not wr):
                continue
            idxs = [ix for ix in reversed(table.indexes)
                    if ix.root and ix.where is None and ix.exprs is None and not ix.is_pk
                    and all(0 <= c < len(table.columns) for c in ix.columns)]
            if wr:  # (an index on a VIRTUAL generated column is left out)
                idxs = [ix for ix in idxs
                        if all(table.storage[c] >= 0 for c in _wr_entry_columns(table, ix))]
            if not idxs:
                continue
            try:
                check = _check_wr_indexes if wr else _check_table_indexes
                out.extend(check(bt, table, idxs, decode_record, Counter,
                                 max_errors - len(out)))
            except E.DatabaseError:
                continue
        return out[:max_errors]

    def close(self):
        if self.closed:
            return
        for s in list(self._active):
            s.vm.done = True
        self._active.clear()
        try:
            if self.bt.in_trans:
                self.bt.rollback()
        finally:
            self.bt.close()
            self.closed = True


# Errors after which SQLite cannot trust a statement's half-done changes (vdbeHalt's
# "special errors"): out of memory, I/O error, interrupt, disk full.
_SPECIAL_ERRORS = (E.SQLITE_NOMEM, E.SQLITE_IOERR, E.SQLITE_INTERRUPT, E.SQLITE_FULL)


def _forces_rollback(exc, prog, has_savepoint):
    """Whether the error ``exc`` of a statement running ``prog`` rolls back the whole
    transaction, as sqlite3VdbeHalt decides for the special errors: an interrupted writer,
    or an I/O error in any statement, does; out of memory and a full disk only when the
    statement has no statement savepoint to roll back to."""
    if isinstance(exc, MemoryError):
        code = E.SQLITE_NOMEM
    elif isinstance(exc, E.Error):
        code = exc.sqlite_errorcode & 0xFF
    else:
        return False
    if code not in _SPECIAL_ERRORS or (code == E.SQLITE_INTERRUPT and prog.readonly):
        return False
    return not (has_savepoint and code in (E.SQLITE_NOMEM, E.SQLITE_FULL))


def _norm(v):
    """A stored value as an index comparison sees it (1 and 1.0 are one key)."""
    if type(v) is float and v.is_integer() and -2.0 ** 63 <= v < 2.0 ** 63:
        return (1, int(v))
    if type(v) in (int, float):
        return (1, v)
    return (type(v).__name__, v)


def _check_table_indexes(bt, table, idxs, decode_record, Counter, budget):
    entries = []
    for ix in idxs:
        seen = _count_entries(bt, ix, decode_record, Counter)
        entries.append((ix, seen, sum(seen.values())))
    out = []
    nrows = 0
    ipk = table.ipk
    cur = bt.cursor(table.root)
    try:
        ok = cur.first()
        while ok:
            nrows += 1
            rowid = cur.rowid
            rec = decode_record(cur.payload())
            for ix, seen, _n in entries:
                if any(c != ipk and c >= len(rec) for c in ix.columns):
                    continue        # a column added later: its default is not stored
                key = tuple(_norm(rowid if c == ipk else rec[c]) for c in ix.columns) + \
                    (_norm(rowid),)
                if seen[key] > 0:
                    seen[key] -= 1
                elif len(out) < budget:
                    out.append(f"row {nrows} missing from index {ix.name}")
            ok = cur.next()
    finally:
        cur.close()
    for ix, _seen, n in entries:
        if n != nrows and len(out) < budget:
            out.append(f"wrong # of entries in index {ix.name}")
    return out


def _hash_order(bt, schema):
    """The tables in the order SQLite's integrity_check visits them: its schema's table
    hash (tables and views, loaded in sqlite_schema's rowid order after the schema table
    itself, "sqlite_master")."""
    from sqlengine.schema import table_hash_order
    tables = dict(schema.tables)
    out = []
    for name in table_hash_order(bt):
        t = tables.pop(name.lower(), None)
        if t is not None:
            out.append(t)
    return out + list(tables.values())


def _wr_entry_columns(table, ix):
    """The columns of an entry of index ``ix`` of WITHOUT ROWID ``table``, in record order."""
    from sqlengine.schema import record_tail
    return list(ix.columns) + [c for c, _coll, _d in record_tail(table, ix)]


def _count_entries(bt, ix, decode_record, Counter):
    from sqlengine.storage import KeyInfo
    seen = Counter()
    cur = bt.cursor(ix.root, False, KeyInfo(0))
    try:
        ok = cur.first()
        while ok:
            seen[tuple(_norm(v) for v in decode_record(cur.payload()))] += 1
            ok = cur.next()
    finally:
        cur.close()
    return seen


def _check_wr_indexes(bt, table, idxs, decode_record, Counter, budget):
    """_check_table_indexes for a WITHOUT ROWID table: its rows are the entries of its
    PRIMARY KEY b-tree (``table.storage`` gives each column's field), the entry a row needs
    in an index its columns and then the key columns the index lacks."""
    from sqlengine.storage import KeyInfo
    entries = [(ix, _count_entries(bt, ix, decode_record, Counter),
                [table.storage[c] for c in _wr_entry_columns(table, ix)]) for ix in idxs]
    totals = [sum(seen.values()) for _ix, seen, _f in entries]
    out = []
    nrows = 0
    cur = bt.cursor(table.root, False, KeyInfo(0))
    try:
        ok = cur.first()
        while ok:
            nrows += 1
            rec = decode_record(cur.payload())
            for ix, seen, fields in entries:
                if any(f >= len(rec) for f in fields):
                    continue        # a column added later: its default is not stored
                key = tuple(_norm(rec[f]) for f in fields)
                if seen[key] > 0:
                    seen[key] -= 1
                elif len(out) < budget:
                    out.append(f"row {nrows} missing from index {ix.name}")
            ok = cur.next()
    finally:
        cur.close()
    for (ix, _seen, _f), n in zip(entries, totals):
        if n != nrows and len(out) < budget:
            out.append(f"wrong # of entries in index {ix.name}")
    return out
