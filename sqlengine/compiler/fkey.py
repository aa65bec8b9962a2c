"""FOREIGN KEY enforcement while ``PRAGMA foreign_keys`` is on.

Each foreign key becomes a few internal triggers, coded inline by ``trigger.py`` like any
other trigger:

* on the child table, AFTER INSERT and AFTER UPDATE OF the key columns: a non-NULL key with
  no parent row fails with ``FOREIGN KEY constraint failed``;
* on the parent table, for DELETE and for an UPDATE that changes the parent key: the
  action of the clause (CASCADE deletes or updates the children, SET NULL / SET DEFAULT
  rewrite their keys, RESTRICT fails before the change, NO ACTION fails after it when
  children are left without a parent).

Deferred keys (DEFERRABLE INITIALLY DEFERRED, or any key while ``PRAGMA
defer_foreign_keys`` is on) do not fail where a violation appears: the check marks the
key on the connection (``db.fk_dirty``) instead. COMMIT (and a RELEASE that ends the
transaction, and the end of a statement in autocommit mode) then verifies every marked
key over its whole child table, failing with ``FOREIGN KEY constraint failed`` and leaving
the transaction open, as SQLite's deferred-constraint counter does; a violation undone
before COMMIT does not fail it.

Immediate keys are verified the same way at the end of the statement when one of its
rows left one violated (marks per run of the statement, ``db.fk_stmt``): a later row may
have resolved it, as SQLite's statement counter allows. Differences from SQLite kept on
purpose small: a marked key is verified over all its rows, so a violation stored while
foreign_keys was off fails it too, and a cascade does not re-enter the same foreign key's
trigger (ON DELETE CASCADE of a self-referencing key deletes the whole subtree at once
instead, through a recursive CTE).

This module builds trigger objects from SQL text and codes the few checks above; it never
runs anything.
"""

from __future__ import annotations

from sqlengine import errors as E
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O

_MSG = "'FOREIGN KEY constraint failed'"
_cache: dict = {}


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _foreign_keys(table):
    """[(child columns, ForeignKeyRef)] of a table, in declaration order."""
    from sqlengine.sql import parse_one
    if not table.sql:
        return []
    parsed = parse_one(table.sql)
    ast = parsed.stmt if parsed is not None else None
    if not isinstance(ast, A.CreateTable):
        return []
    out = []
    for cd in ast.columns:
        for cc in cd.constraints:
            if cc.foreign_key is not None:
                out.append(([cd.name], cc.foreign_key))
    for tc in ast.constraints:
        if tc.foreign_key is not None:
            out.append((list(tc.fk_columns or []), tc.foreign_key))
    return out


def _parent_columns(schema, fk):
    parent = schema.table(fk.table)
    if parent is None:
        return None, None
    if fk.columns:
        return parent, list(fk.columns)
    if parent.ipk >= 0:
        return parent, [parent.columns[parent.ipk].name]
    for spec in parent.unique_specs:
        if spec[5]:
            return parent, [parent.columns[c].name for c in spec[0]]
    return parent, None


def _match(child_cols, parent_cols, child_q, ref, prefix):
    return " AND ".join(f"{child_q}.{_q(c)} = {prefix}.{_q(p)}"
                        for c, p in zip(child_cols, parent_cols))


def _build(schema):
    """{table name (lower): [Trigger]} of every foreign key in the schema."""
    from sqlengine.schema import Trigger
    from sqlengine.sql import parse_one
    out: dict = {}

    def add(owner, name, timing, event, body, when=None, of=None, check=None, fk_tag=None):
        of_text = (" OF " + ", ".join(_q(c) for c in of)) if of else ""
        when_text = f" WHEN {when}" if when else ""
        sql = (f"CREATE TRIGGER {_q(name)} {timing} {event}{of_text} ON {_q(owner)}"
               f"{when_text} BEGIN {body}; END")
        ast = parse_one(sql).stmt
        if check is not None:  # the RAISE of a check that a deferred key only records
            ast = _with_check_kind(ast, check, fk_tag)
        out.setdefault(owner.lower(), []).append(Trigger(ast, sql))

    for key, child in schema.tables.items():
        if key == "sqlite_schema":
            continue
        for n, (ccols, fk) in enumerate(_foreign_keys(child)):
            parent, pcols = _parent_columns(schema, fk)
            if parent is None or pcols is None or len(pcols) != len(ccols):
                continue
            tag = f"sqlite_fk_{child.name}_{n}"
            cq = _q(child.name)
            pq = _q(parent.name)
            kind = "FK_DEFERRED" if fk.deferred else "FK_IMMEDIATE"
            # the child side
            notnull = " AND ".join(f"new.{_q(c)} IS NOT NULL" for c in ccols)
            exists = (f"EXISTS (SELECT 1 FROM {pq} WHERE " +
                      " AND ".join(f"{pq}.{_q(p)} = new.{_q(c)}"
                                   for c, p in zip(ccols, pcols)) + ")")
            check = f"SELECT RAISE(ABORT, {_MSG}) WHERE {notnull} AND NOT {exists}"
            add(child.name, tag + "_ins", "AFTER", "INSERT", check, check=kind, fk_tag=tag)
            add(child.name, tag + "_upd", "AFTER", "UPDATE", check, of=ccols, check=kind,
                fk_tag=tag)
            # the parent side
            old_match = _match(ccols, pcols, cq, parent, "old")
            children = f"EXISTS (SELECT 1 FROM {cq} WHERE {old_match})"
            changed = " OR ".join(f"old.{_q(p)} IS NOT new.{_q(p)}" for p in pcols)
            for event, action in (("DELETE", fk.on_delete), ("UPDATE", fk.on_update)):
                action = (action or "NO ACTION").upper()
                when = changed if event == "UPDATE" else None
                of = pcols if event == "UPDATE" else None
                name = f"{tag}_{event.lower()}"
                if action == "CASCADE":
                    if event == "DELETE" and child is parent and not child.without_rowid:
                        # a self-referencing key: SQLite's cascade recurses (a trigger
                        # cannot fire inside itself here), so delete the whole subtree
                        first = " AND ".join(f"{_q(c)} = old.{_q(p)}"
                                             for c, p in zip(ccols, pcols))
                        step = " AND ".join(f"c.{_q(c)} = p.{_q(p)}"
                                            for c, p in zip(ccols, pcols))
                        body = (f"DELETE FROM {cq} WHERE rowid IN (WITH RECURSIVE "
                                f"sqlite_fk_tree(rid) AS (SELECT rowid FROM {cq} WHERE {first} "
                                f"UNION SELECT c.rowid FROM {cq} AS c, {cq} AS p, "
                                f"sqlite_fk_tree AS r WHERE p.rowid = r.rid AND {step}) "
                                f"SELECT rid FROM sqlite_fk_tree)")
                    elif event == "DELETE":
                        body = f"DELETE FROM {cq} WHERE {old_match}"
                    else:
                        sets = ", ".join(f"{_q(c)} = new.{_q(p)}" for c, p in zip(ccols, pcols))
                        body = f"UPDATE {cq} SET {sets} WHERE {old_match}"
                    add(parent.name, name, "AFTER", event, body, when, of)
                elif action in ("SET NULL", "SET DEFAULT"):
                    vals = []
                    for c in ccols:
                        v = "NULL"
                        if action == "SET DEFAULT":
                            i = child.find_column(c)
                            if i >= 0 and child.columns[i].default is not None:
                                from sqlengine.compiler.pragma import default_spans
                                v = _default_sql(child, i, default_spans) or "NULL"
                        vals.append(f"{_q(c)} = ({v})")
                    body = f"UPDATE {cq} SET {', '.join(vals)} WHERE {old_match}"
                    add(parent.name, name, "AFTER", event, body, when, of)
                elif action == "RESTRICT":
                    body = f"SELECT RAISE(ABORT, {_MSG}) WHERE {children}"
                    add(parent.name, name, "BEFORE", event, body, when, of)
                else:
                    body = f"SELECT RAISE(ABORT, {_MSG}) WHERE {children}"
                    add(parent.name, name, "AFTER", event, body, when, of, check=kind,
                        fk_tag=tag)
    return out


def _default_sql(table, col, default_spans):
    from sqlengine.sql import parse_one
    spans = default_spans(table.sql)
    ast = parse_one(table.sql).stmt
    k = 0
    for i, cd in enumerate(ast.columns):
        for cc in cd.constraints:
            if cc.kind == "DEFAULT":
                if i == col and k < len(spans):
                    return spans[k]
                k += 1
    return None


def triggers_for(p, table):
    """The internal foreign-key triggers on ``table`` (none when foreign_keys is off)."""
    if p is None or not getattr(p.db, "foreign_keys", 0):
        return ()
    schema = p.schema
    hit = _cache.get(id(schema))
    if hit is None or hit[0] is not schema:
        if len(_cache) > 64:
            _cache.clear()
        hit = (schema, _build(schema))
        _cache[id(schema)] = hit
    return hit[1].get(table.name.lower(), ())


# ---- deferred checks -------------------------------------------------------------------------

def _with_check_kind(ast, kind, tag):
    """The trigger ``ast`` with the RAISE of its one SELECT marked FK_DEFERRED or
    FK_IMMEDIATE (a kind no SQL text can spell), which ``code_fk_raise`` codes; its
    message names the foreign key (``tag``)."""
    import copy
    ast = copy.deepcopy(ast)
    sel = ast.body[0]
    rc = sel.body.columns[0]
    rc.expr = A.Raise(kind, A.Literal(tag))
    return ast


def _mark_deferred(db, tag):
    """Foreign key ``tag`` may be violated at COMMIT (``db.fk_dirty``: the set of them)."""
    d = getattr(db, "fk_dirty", None)
    if not d:
        d = db.fk_dirty = set()
    d.add(tag)


def _deferred_marker(tag):
    def mark(vm, args):
        _mark_deferred(vm.db, tag)
        return None
    return mark


def _deferring(vm, args):
    return 1 if getattr(vm.db, "defer_foreign_keys", 0) else 0


def code_fk_raise(p, e):
    """A foreign-key violation found for the current row: a deferred key (or any key
    while defer_foreign_keys is on) marks the connection for COMMIT, an immediate one
    marks the statement (SQLite counts immediate violations to the end of the
    statement: a later row may resolve them)."""
    b = p.b
    r = b.alloc_reg()
    if e.action == "FK_IMMEDIATE":
        tag = e.message.value if isinstance(e.message, A.Literal) else ""
        b.emit(O.OP_Function, 0, r, r, _immediate_marker(tag), 0)
    else:
        tag = e.message.value if isinstance(e.message, A.Literal) else ""
        b.emit(O.OP_Function, 0, r, r, _deferred_marker(tag), 0)


def _immediate_marker(tag):
    """Record, for the running statement (its VM), that foreign key ``tag`` may be
    violated (``db.fk_stmt`` = (vm, {tags})); a mark left by a statement that failed is
    ignored by the next one."""
    def mark(vm, args):
        db = vm.db
        if getattr(db, "defer_foreign_keys", 0):
            _mark_deferred(db, tag)
            return None
        d = getattr(db, "fk_stmt", None)
        if d is None or d[0] is not vm:
            d = db.fk_stmt = (vm, set())
        d[1].add(tag)
        return None
    return mark


def _stmt_marked(tag):
    def test(vm, args):
        d = getattr(vm.db, "fk_stmt", None)
        return 1 if d is not None and d[0] is vm and tag in d[1] else 0
    return test


def _stmt_any(vm, args):
    d = getattr(vm.db, "fk_stmt", None)
    return 1 if d is not None and d[0] is vm and d[1] else 0


def _stmt_clean(vm, args):
    vm.db.fk_stmt = None
    return None


def _dirty(vm, args):
    return 1 if getattr(vm.db, "fk_dirty", False) else 0


def _dirty_in_autocommit(vm, args):
    db = vm.db
    return 1 if getattr(db, "fk_dirty", False) and db.autocommit else 0


def _dirty_marked(tag):
    def test(vm, args):
        d = getattr(vm.db, "fk_dirty", None)
        return 1 if d and tag in d else 0
    return test


def _clean(vm, args):
    vm.db.fk_dirty = None
    return None


def _end_of_transaction(vm, args):
    db = vm.db
    db.fk_dirty = None
    db.defer_foreign_keys = 0
    # the transaction is over: a later SAVEPOINT inside BEGIN does not own the next one
    if hasattr(db, "_txn_by_savepoint"):
        db._txn_by_savepoint = False
    return None


def _release_commits(name):
    low = name.lower()

    def test(vm, args):
        db = vm.db
        sps = getattr(db, "_savepoints", None) or []
        return 1 if (getattr(db, "fk_dirty", False) and getattr(db, "_txn_by_savepoint", False)
                     and low in sps and sps.index(low) == 0) else 0
    return test


def _violations(schema, immediate_only=False):
    """(tag, SQL expression) per foreign key of the schema (``immediate_only``: those not
    DEFERRABLE INITIALLY DEFERRED), the expression true when some child row has a
    complete key and no parent row; ``tag`` names the key as its triggers do."""
    out = []
    for key, child in schema.tables.items():
        if key == "sqlite_schema":
            continue
        for n, (ccols, fk) in enumerate(_foreign_keys(child)):
            if immediate_only and fk.deferred:
                continue
            parent, pcols = _parent_columns(schema, fk)
            if parent is None or pcols is None or len(pcols) != len(ccols):
                continue
            # aliases: a table may reference itself
            cq, pq = _q(child.name), _q(parent.name)
            notnull = " AND ".join(f"c.{_q(c)} IS NOT NULL" for c in ccols)
            match = " AND ".join(f"p.{_q(p)} = c.{_q(c)}" for c, p in zip(ccols, pcols))
            out.append((f"sqlite_fk_{child.name}_{n}",
                        f"EXISTS (SELECT 1 FROM {cq} AS c WHERE {notnull} AND NOT EXISTS "
                        f"(SELECT 1 FROM {pq} AS p WHERE {match}))"))
    return out


def _code_verify(p, gate, immediate_only=False, clean=None, per_key=None):
    """When ``gate`` (a VM callback) says so, check every foreign key (with ``per_key``,
    only those ``per_key(tag)`` says are marked): fail with 'FOREIGN KEY constraint
    failed' on a violation, else clear the mark."""
    from sqlengine.compiler.expr import code_expr
    from sqlengine.sql import parse_one
    b = p.b
    checks = _violations(p.schema, immediate_only)
    if not checks:
        return
    r = b.alloc_reg()
    skip = b.new_label()
    b.emit(O.OP_Function, 0, r, r, gate, 0)
    b.emit(O.OP_IfNot, r, skip, 0)
    saved = p.trigger_ctx
    p.trigger_ctx = None
    try:
        for tag, text in checks:
            ok = b.new_label()
            if per_key is not None:
                b.emit(O.OP_Function, 0, r, r, per_key(tag), 0)
                b.emit(O.OP_IfNot, r, ok, 0)
            code_expr(p, None, parse_one("SELECT " + text).stmt.body.columns[0].expr, r)
            b.emit(O.OP_IfNot, r, ok, 0)
            b.emit(O.OP_Halt, E.SQLITE_CONSTRAINT_FOREIGNKEY, O.OE_ABORT, 0,
                   "FOREIGN KEY constraint failed")
            b.resolve(ok)
    finally:
        p.trigger_ctx = saved
    b.emit(O.OP_Function, 0, r, r, clean or _clean, 0)
    b.resolve(skip)


def code_commit_check(p):
    """Before COMMIT: the deferred foreign keys must hold."""
    _code_verify(p, _dirty, per_key=_dirty_marked)


def code_release_check(p, name):
    """Before RELEASE of the savepoint that opened the transaction (it commits)."""
    _code_verify(p, _release_commits(name), per_key=_dirty_marked)


def code_statement_start(p):
    """At the start of a top-level write statement: no mark of an earlier (failed) run
    of it is left."""
    if p.nested == 0 and getattr(p.db, "foreign_keys", 0):
        r = p.b.alloc_reg()
        p.b.emit(O.OP_Function, 0, r, r, _stmt_clean, 0)


def code_statement_end_check(p):
    """At the end of a top-level write statement: in autocommit mode the statement is its
    own transaction, so its deferred foreign keys must hold now."""
    if p.nested == 0 and getattr(p.db, "foreign_keys", 0):
        # the immediate keys a row of this statement left violated
        _code_verify(p, _stmt_any, immediate_only=True, clean=_stmt_clean,
                     per_key=_stmt_marked)
        _code_verify(p, _dirty_in_autocommit, per_key=_dirty_marked)


def code_transaction_end(p):
    """After COMMIT or ROLLBACK: no deferred violation is pending and defer_foreign_keys
    turns itself off, as in SQLite."""
    r = p.b.alloc_reg()
    p.b.emit(O.OP_Function, 0, r, r, _end_of_transaction, 0)
