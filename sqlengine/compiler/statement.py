"""Compile one parsed statement into a ``Program``: dispatch on the statement kind, then
the program's frame (SQLite's shape: ``Init`` jumps to a tail that opens the transaction
and jumps back; the body ends with ``Halt``).

Transaction statements (BEGIN/COMMIT/ROLLBACK/SAVEPOINT/RELEASE) become AutoCommit and
Savepoint instructions; a few PRAGMAs are answered with constant rows. This module never
runs a program.
"""

from __future__ import annotations

from sqlengine.compiler import compile_options, ddl, subtype
from sqlengine.compiler._codegen import USES_CALL, USES_TABLE
from sqlengine.compiler.context import Parse
from sqlengine.compiler.delete import compile_delete
from sqlengine.compiler.insert import compile_insert
from sqlengine.compiler.resolve import release_scopes
from sqlengine.compiler.select import OutputDest, compile_select
from sqlengine.compiler.update import compile_update
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O

compile_options.register_functions()

# Instructions that may stop a statement with an error half way, leaving its earlier
# writes to be undone (SQLite's mayAbort, sqlite3VdbeAssertMayAbort's list): a function
# call (built-in or user: either may raise) or aggregate step, MustBeInt without a jump,
# and (see _may_abort) a halt whose conflict action is ABORT.
_MAY_RAISE = frozenset((O.OP_Function, O.OP_AggStep, O.OP_AggFinal, O.OP_AggValue,
                        O.OP_Destroy, O.OP_ParseSchema))
_HALTS = frozenset((O.OP_Halt, O.OP_HaltIfNull, O.OP_Raise))
_KEEPS_OR_DROPS_ALL = (O.OE_ROLLBACK, O.OE_FAIL)


def _may_abort(p, prog) -> bool:
    """Whether ``prog`` may fail after a write with its changes to be undone (it then runs
    in a statement savepoint inside a transaction). An I/O error, a full disk or an
    interrupt needs none: those roll back the whole transaction (database._stmt_error)."""
    if p.db.collations.has_user():  # (a user collation may raise in any comparison)
        return True
    p1, p2 = prog.p1, prog.p2
    for i, op in enumerate(prog.opcodes):
        if op in _MAY_RAISE:
            return True
        if op in _HALTS:
            if op == O.OP_Raise:
                if p1[i] not in _KEEPS_OR_DROPS_ALL:
                    return True
            elif (p1[i] or op == O.OP_HaltIfNull) and p2[i] not in _KEEPS_OR_DROPS_ALL:
                return True
        elif op == O.OP_MustBeInt and p2[i] == 0:
            return True
    return False


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
    finally:
        release_scopes()  # (frees the statement's scopes without the cyclic collector)


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


def _compile(db, stmt, text: str):
    explain = 0
    if isinstance(stmt, A.Explain):
        explain = 2 if stmt.query_plan else 1
        stmt = stmt.statement
    p = Parse(db, text)
    p.ast = stmt
    p.eqp = explain == 2
    b = p.b
    init = b.emit(O.OP_Init, 0, 0)
    names: list[str] = []
    decls: list = []
    t = type(stmt)
    is_txn = False
    if t is A.Select:
        info = compile_select(p, stmt, OutputDest())
        names, decls = info.names, info.decltypes
    elif t is A.Insert:
        compile_insert(p, stmt)
    elif t is A.Update:
        compile_update(p, stmt)
    elif t is A.Delete:
        compile_delete(p, stmt)
    elif t is A.CreateTable:
        ddl.compile_create_table(p, stmt, text)
    elif t is A.CreateIndex:
        ddl.compile_create_index(p, stmt, text)
    elif t is A.CreateView:
        ddl.compile_create_view(p, stmt, text)
    elif t is A.CreateTrigger:
        ddl.compile_create_trigger(p, stmt, text)
    elif t is A.Drop:
        ddl.compile_drop(p, stmt)
    elif t is A.Reindex:
        ddl.compile_reindex(p, stmt)
    elif t is A.Begin:
        is_txn = True
        if stmt.mode and stmt.mode.upper() in ("IMMEDIATE", "EXCLUSIVE"):
            # SQLite: the write transaction (RESERVED lock) starts now, not at the first write
            b.emit(O.OP_Transaction, 0, 1)
        b.emit(O.OP_AutoCommit, 0, 0, 0, stmt.mode)
    elif t is A.Commit:
        is_txn = True
        from sqlengine.compiler import fkey
        fkey.code_commit_check(p)
        b.emit(O.OP_AutoCommit, 1, 0)
        fkey.code_transaction_end(p)
    elif t is A.Rollback:
        is_txn = True
        if stmt.savepoint is not None:
            b.emit(O.OP_Savepoint, 2, 0, 0, stmt.savepoint)
        else:
            b.emit(O.OP_AutoCommit, 1, 1)
            from sqlengine.compiler import fkey
            fkey.code_transaction_end(p)
    elif t is A.Savepoint:
        is_txn = True
        b.emit(O.OP_Savepoint, 0, 0, 0, stmt.name)
    elif t is A.Release:
        is_txn = True
        from sqlengine.compiler import fkey
        fkey.code_release_check(p, stmt.name)
        b.emit(O.OP_Savepoint, 1, 0, 0, stmt.name)
    elif t is A.Pragma:
        from sqlengine.compiler.pragma import compile_pragma
        names = compile_pragma(p, stmt)
        decls = [None] * len(names)
    elif t is A.Vacuum:
        from sqlengine.compiler.vacuum import compile_vacuum
        compile_vacuum(p, stmt)
    elif t is A.Analyze:
        pass
    elif t is A.CreateVirtualTable:
        raise OperationalError(f"no such module: {stmt.module}")
    elif t in (A.Attach, A.Detach):
        raise OperationalError("ATTACH/DETACH are not supported")
    elif t is A.AlterTable:
        from sqlengine.compiler.alter import compile_alter
        compile_alter(p, stmt)
    else:
        raise OperationalError(f"unsupported statement: {t.__name__}")
    if t in (A.Insert, A.Update, A.Delete):
        from sqlengine.compiler.fkey import code_statement_end_check
        code_statement_end_check(p)  # deferred foreign keys of an autocommit statement
    rt = getattr(p, "returning", None)
    if rt is not None:
        names, decls = rt.names, rt.decltypes
    b.emit(O.OP_Halt, 0, 0)
    # the tail: open the transaction, then go back to the start
    b.change_p2(init, b.addr())
    uses = b.uses()
    needs_txn = not is_txn and (p.write or uses & USES_TABLE)
    if needs_txn:
        b.emit(O.OP_Transaction, 0, 1 if p.write else 0)
    b.emit_consts()
    b.emit(O.OP_Goto, 0, init + 1)
    if text and ("json" in text.lower() or "->" in text) or uses & USES_CALL:
        subtype.mark_result_rows(b.ops, text or "", p.schema)  # (nothing without a call)
    prog = b.finish()
    prog.column_names = list(names)
    prog.column_decltypes = list(decls)
    prog.param_count = p.n_param
    prog.param_names = list(p.param_names)
    prog.readonly = not p.write and not is_txn
    prog.is_write = p.write
    prog.stmt_journal = p.write and (t not in (A.Insert, A.Update, A.Delete) or (
        not p.one_row_write and _may_abort(p, prog)))
    prog.is_ddl = p.ddl
    prog.is_txn = is_txn
    prog.is_explain = explain
    prog.sql = text
    return prog
