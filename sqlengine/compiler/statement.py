"""Compile one parsed statement into a ``Program``: dispatch on the statement kind, then
the program's frame (SQLite's shape: ``Init`` jumps to a tail that opens the transaction
and jumps back; the body ends with ``Halt``).

Transaction statements (BEGIN/COMMIT/ROLLBACK/SAVEPOINT/RELEASE) become AutoCommit and
Savepoint instructions; a few PRAGMAs are answered with constant rows. This module never
runs a program.
"""

from __future__ import annotations

from sqlengine.compiler import compile_options, ddl, fkey, subtype
from sqlengine.compiler import _codegen as _cg  # (a C call when compiled: statement.pxd)
from sqlengine.compiler import _resolve as _res  # (the same)
from sqlengine.compiler._codegen import USES_CALL
from sqlengine.compiler.context import Parse
from sqlengine.compiler.delete import compile_delete
from sqlengine.compiler.insert import compile_insert
from sqlengine.compiler.select import OutputDest, compile_select
from sqlengine.compiler.update import compile_update
from sqlengine.errors import SQLITE_FULL, OperationalError
from sqlengine.sql import ast as A
from sqlengine.sql.ast import (
    AlterTable, Analyze, Attach, Begin, Commit, CreateIndex, CreateTable, CreateTrigger,
    CreateView, CreateVirtualTable, Delete, Detach, Drop, Explain, Insert, Pragma, Reindex,
    Release, Rollback, Select, Update, Vacuum)
from sqlengine.vdbe.opcodes import (
    DDL_COUNTS_CHANGES, OE_FAIL, OE_ROLLBACK, OP_AggFinal, OP_AggStep, OP_AggValue,
    OP_AutoCommit, OP_Destroy, OP_Function, OP_Halt, OP_HaltIfNull, OP_Init, OP_MustBeInt, OP_ParseSchema,
    OP_Raise, OP_Savepoint, OP_Transaction)

compile_options.register_functions()

# Instructions that may stop a statement with an error half way, leaving its earlier
# writes to be undone (SQLite's mayAbort, sqlite3VdbeAssertMayAbort's list): a function
# call (built-in or user: either may raise) or aggregate step, MustBeInt without a jump,
# and (see _may_abort) a halt whose conflict action is ABORT. (Module-level ints: C ints
# when compiled, statement.pxd.)
_OP_FUNCTION, _OP_AGG_STEP, _OP_AGG_FINAL, _OP_AGG_VALUE = (
    OP_Function, OP_AggStep, OP_AggFinal, OP_AggValue)
_OP_DESTROY, _OP_PARSE_SCHEMA = OP_Destroy, OP_ParseSchema
_OP_HALT, _OP_HALT_IF_NULL, _OP_RAISE, _OP_MUST_BE_INT = (
    OP_Halt, OP_HaltIfNull, OP_Raise, OP_MustBeInt)
_OE_ROLLBACK, _OE_FAIL, _SQLITE_FULL = OE_ROLLBACK, OE_FAIL, SQLITE_FULL


def _may_abort(p, prog) -> bool:
    """Whether ``prog`` may fail after a write with its changes to be undone (it then runs
    in a statement savepoint inside a transaction). An I/O error, a full disk or an
    interrupt needs none: those roll back the whole transaction (database._stmt_error).
    One pass over the program's opcode array (a C loop when compiled) finds the
    instructions that always may raise and reads the operands of its halts and
    MustBeInts; a user collation (which may raise in any comparison) answers last."""
    ops, p1, p2 = prog.opcodes, prog.p1, prog.p2
    for i in range(len(ops)):
        op = ops[i]
        if op == _OP_FUNCTION or op == _OP_AGG_STEP or op == _OP_AGG_FINAL \
                or op == _OP_AGG_VALUE or op == _OP_DESTROY or op == _OP_PARSE_SCHEMA:
            return True
        if op == _OP_RAISE:
            action = p1[i]
            if action != _OE_ROLLBACK and action != _OE_FAIL:
                return True
        elif op == _OP_MUST_BE_INT:
            if p2[i] == 0:
                return True
        elif op == _OP_HALT or op == _OP_HALT_IF_NULL:
            code, action = p1[i], p2[i]
            if (code or op == _OP_HALT_IF_NULL) and action != _OE_ROLLBACK \
                    and action != _OE_FAIL and code != _SQLITE_FULL:
                return True  # (SQLITE_FULL: AUTOINCREMENT out of rowids, a full disk)
    return p.db.collations.has_user()


# A statement whose nesting SQLite accepts but whose compile walks deeper than Python's
# default recursion limit allows (hundreds of chained CTEs, a long COLLATE chain) is
# compiled again on a thread with this stack and recursion limit.
_DEEP_STACK = 512 * 1024 * 1024
_DEEP_RECURSION = 150_000


def compile_statement(db, stmt, text: str):
    """The Program of one statement AST (``text`` is its source, for sqlite_schema)."""
    try:
        return _compile(db, stmt, text)
    except RecursionError:
        return _compile_deep(db, stmt, text)
    except OperationalError as err:
        if not str(err).startswith("hex literal too big: "):
            raise
        _res.release_scopes()
        return _compile_noting_hex(db, stmt, text, err)
    finally:
        _res.release_scopes()  # (frees the statement's scopes without the cyclic collector)


def _compile_noting_hex(db, stmt, text, err):
    """Compile again a statement that failed on a hex literal too big for 64 bits, each
    such literal noted and coded as NULL (expr.hex_too_big), and fail with the last one
    noted, as SQLite's coder (which goes on after an error) does; an error raised after
    the notes is the statement's."""
    notes = []
    _compile(db, stmt, text, notes)
    raise notes[-1] if notes else err


def _compile_deep(db, stmt, text):
    """``_compile`` on a thread with a deep stack; a statement too deep even there fails
    as SQLite's parser does on its own stack (``parser stack overflow``)."""
    import sys
    import threading
    out = []

    def run():
        try:
            out.append(("ok", _compile(db, stmt, text)))
        except RecursionError:
            out.append(("err", OperationalError("parser stack overflow")))
        except BaseException as e:  # noqa: BLE001 - handed back to the caller's thread
            out.append(("err", e))
    old_stack = threading.stack_size(_DEEP_STACK)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, _DEEP_RECURSION))
    try:
        t = threading.Thread(target=run, name="sqlengine-deep-compile")
        t.start()
        t.join()
    finally:
        threading.stack_size(old_stack)
        sys.setrecursionlimit(old_limit)
    kind, value = out[0]
    if kind == "err":
        raise value
    return value


def _may_name_json(text: str) -> bool:
    """Whether ``text`` holds "json" in any case (a J first: most statements have none,
    and then no lower-case copy of the text is made)."""
    return ("j" in text or "J" in text) and "json" in text.lower()


_OUTPUT = OutputDest()  # (it holds nothing: one serves every statement)


def _compile(db, stmt, text: str, hex_notes=None):
    explain = 0
    if type(stmt) is Explain:
        explain = 2 if stmt.query_plan else 1
        stmt = stmt.statement
    p = Parse(db, text, stmt, explain == 2)
    if hex_notes is not None:  # (_compile_noting_hex)
        vars(p)["hex_notes"] = hex_notes
    b = p.b
    init = b.emit(OP_Init, 0, 0)
    names: list[str] = []
    decls: list = []
    t = type(stmt)
    is_txn = False
    if t is Select:
        info = compile_select(p, stmt, _OUTPUT)
        names, decls = info.names, info.decltypes
    elif t is Insert:
        compile_insert(p, stmt)
    elif t is Update:
        compile_update(p, stmt)
    elif t is Delete:
        compile_delete(p, stmt)
    elif t is CreateTable:
        ddl.compile_create_table(p, stmt, text)
    elif t is CreateIndex:
        ddl.compile_create_index(p, stmt, text)
    elif t is CreateView:
        ddl.compile_create_view(p, stmt, text)
    elif t is CreateTrigger:
        ddl.compile_create_trigger(p, stmt, text)
    elif t is Drop:
        ddl.compile_drop(p, stmt)
    elif t is Reindex:
        ddl.compile_reindex(p, stmt)
    elif t is Begin:
        is_txn = True
        if stmt.mode and stmt.mode.upper() in ("IMMEDIATE", "EXCLUSIVE"):
            # SQLite: the write transaction (RESERVED lock) starts now, not at the first write
            b.emit(OP_Transaction, 0, 1)
        b.emit(OP_AutoCommit, 0, 0, 0, stmt.mode)
    elif t is Commit:
        is_txn = True
        fkey.code_commit_check(p)
        b.emit(OP_AutoCommit, 1, 0)
        fkey.code_transaction_end(p)
    elif t is Rollback:
        is_txn = True
        if stmt.savepoint is not None:
            b.emit(OP_Savepoint, 2, 0, 0, stmt.savepoint)
        else:
            b.emit(OP_AutoCommit, 1, 1)
            fkey.code_transaction_end(p)
    elif t is A.Savepoint:
        is_txn = True
        b.emit(OP_Savepoint, 0, 0, 0, stmt.name)
    elif t is Release:
        is_txn = True
        fkey.code_release_check(p, stmt.name)
        b.emit(OP_Savepoint, 1, 0, 0, stmt.name)
    elif t is Pragma:
        from sqlengine.compiler.pragma import compile_pragma
        names = compile_pragma(p, stmt)
        decls = [None] * len(names)
    elif t is Vacuum:
        from sqlengine.compiler.vacuum import compile_vacuum
        compile_vacuum(p, stmt)
    elif t is Analyze:
        from sqlengine.compiler.analyze import compile_analyze
        compile_analyze(p, stmt)
    elif t is CreateVirtualTable:
        raise OperationalError(f"no such module: {stmt.module}")
    elif t in (Attach, Detach):
        raise OperationalError("ATTACH/DETACH are not supported")
    elif t is AlterTable:
        from sqlengine.compiler.alter import compile_alter
        compile_alter(p, stmt)
    else:
        raise OperationalError(f"unsupported statement: {t.__name__}")
    if t is Insert or t is Update or t is Delete:
        fkey.code_statement_end_check(p)  # deferred foreign keys of an autocommit statement
    rt = p.returning
    if rt is not None:
        names, decls = rt.names, rt.decltypes
    # Halt, then the tail: open the transaction, load the constants, go back to the start
    write = p.write
    uses = _cg.code_program_tail(b, init, is_txn, write)
    if uses & USES_CALL or text and ("->" in text or _may_name_json(text)):
        subtype.mark_result_rows(b.ops, text or "", p.schema)  # (nothing without a call)
    prog = b.finish_statement(names, decls, p.n_param, p.param_names, write, is_txn, p.ddl,
                              explain, text)
    if p.ddl == DDL_COUNTS_CHANGES:
        prog.is_ddl = DDL_COUNTS_CHANGES
    if write:
        prog.stmt_journal = (t is not Insert and t is not Update and t is not Delete) or (
            not p.one_row_write and _may_abort(p, prog))
    return prog
