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

A key whose parent table is missing, or whose parent columns are no PRIMARY KEY or
UNIQUE key with their own collations, fails every statement that would check it, with
SQLite's message (``no such table: main.x``, ``foreign key mismatch - "c" referencing
"p"``; key_error follows the order SQLite looks the keys up in). DROP TABLE of a parent
first deletes its rows as DELETE does (code_drop_table).

This module builds trigger objects from SQL text and codes the few checks above; it never
runs anything.
"""

from __future__ import annotations

import copy

from sqlengine import errors as E
from sqlengine.compiler.expr import code_expr
from sqlengine.compiler.walk import find_node
from sqlengine.schema import Trigger, pk_index
from sqlengine.sql import ast as A
from sqlengine.sql import parse_one
from sqlengine.vdbe import opcodes as O

_MSG = "'FOREIGN KEY constraint failed'"
MAX_TRIGGER_DEPTH = 1000  # SQLITE_MAX_TRIGGER_DEPTH: nested trigger frames allowed
_cache: dict = {}


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _foreign_keys(table):
    """[(child columns, ForeignKeyRef)] of a table, in declaration order."""
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


def _marker(name, table, event):
    """A trigger with no body: it codes nothing, but makes the statement code its
    triggers (trigger.code_triggers, which asks key_error for the key's error)."""
    tr = Trigger(parse_one(f"CREATE TRIGGER {_q(name)} AFTER {event} ON {_q(table)} "
                           "BEGIN SELECT 1; END").stmt, None)
    tr.body = ()
    return tr


def _key_found(parent, fk, pcols, ccols) -> bool:
    """Whether the parent key of a foreign key is one SQLite can look up
    (sqlite3FkLocateIndex): for one column, the INTEGER PRIMARY KEY; without a column
    list, the PRIMARY KEY of as many columns as the child's; else the columns, in any
    order, of a UNIQUE constraint or index (no partial one) with the columns' own
    collations."""
    if pcols is None or len(pcols) != len(ccols):
        return False
    cols = [parent.find_column(c) for c in pcols]
    if any(i < 0 for i in cols):
        return False
    if len(cols) == 1 and cols[0] == parent.ipk:
        return True
    want = sorted(cols)
    for spec in parent.unique_specs:
        if sorted(spec[0]) != want:
            continue
        if not fk.columns:
            if spec[5]:
                return True
        elif _default_collations(parent, spec[0], spec[1]):
            return True
    if not fk.columns:
        return False
    return any(ix.unique and ix.where is None and ix.exprs is None
               and sorted(ix.columns) == want
               and _default_collations(parent, ix.columns, ix.collations)
               for ix in parent.indexes)


def _default_collations(table, cols, colls) -> bool:
    """Whether an index's key collations are its columns' own."""
    for c, coll in zip(cols, colls):
        if coll is not None and coll.lower() != (table.columns[c].collation or "binary").lower():
            return False
    return True


def _parent_columns(schema, fk, prefix=""):
    """The parent table of ``fk`` in the child's own schema (``prefix``: "aux." for an
    attached file's child, "" for main's), and its key columns."""
    if prefix:
        parent = schema.tables.get(prefix + fk.table.lower())
    else:
        parent = schema.tables.get("main." + fk.table.lower()) or schema.table(fk.table)
        if parent is not None and parent.root >> _ROOT_SHIFT:
            parent = None       # an attached file's table is never main's parent
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


_ROOT_SHIFT = 40       # attach.ROOT_SHIFT: an attached file's roots are tagged above it


def _owner_key(table):
    """Foreign-key triggers belong to one table object of the (merged) schema: main.t and
    aux.t share a name but not their (tagged) root page."""
    return (table.root, table.name.lower())


def _schema_prefix(schema, key, table):
    """"aux." when ``key`` names an attached file's table by its qualified merged name, ""
    for main's tables under their own name; None for the other names of a table (an
    attached table reached by its bare name, main.t beside t)."""
    if "." in key and key.split(".", 1)[1] == table.name.lower():
        prefix = key.split(".", 1)[0] + "."
        return None if prefix == "main." else prefix
    if table.root >> _ROOT_SHIFT:
        return None
    return ""


def _merged_name(schema, prefix, name):
    if prefix:
        return prefix + name
    if "main." + name.lower() in schema.tables:
        return "main." + name
    return name


def _match(child_cols, parent_cols, child_q, ref, prefix):
    # an attached file's child is named "aux.t" in the FROM, which is no column qualifier:
    # its columns go unqualified (the innermost FROM, the child, resolves them first)
    qual = "" if "." in child_q else child_q + "."
    return " AND ".join(f"{qual}{_q(c)} = {prefix}.{_q(p)}"
                        for c, p in zip(child_cols, parent_cols))


def _build(schema):
    """{table name (lower): [Trigger]} of every foreign key in the schema, and the keys
    (``_keys``)."""
    out: dict = {}
    found_keys = []

    def add(owner, name, timing, event, body, when=None, of=None, check=None, fk_tag=None):
        of_text = (" OF " + ", ".join(_q(c) for c in of)) if of else ""
        when_text = f" WHEN {when}" if when else ""
        sql = (f"CREATE TRIGGER {_q(name)} {timing} {event}{of_text} ON {_q(owner.name)}"
               f"{when_text} BEGIN {body}; END")
        ast = parse_one(sql).stmt
        if check == "FK_DEPTH":  # the RAISE of the cascade's depth limit
            ast = _with_depth_error(ast)
        elif check is not None:  # the RAISE of a check that a deferred key only records
            ast = _with_check_kind(ast, check, fk_tag)
        out.setdefault(_owner_key(owner), []).append(Trigger(ast, sql))

    for key, child in schema.tables.items():
        if key == "sqlite_schema":
            continue
        prefix = _schema_prefix(schema, key, child)
        if prefix is None:
            continue            # a second name of a table seen under its own schema's name
        for n, (ccols, fk) in enumerate(_foreign_keys(child)):
            parent, pcols = _parent_columns(schema, fk, prefix)
            tag = f"sqlite_fk_{child.name}_{n}"
            found = parent is not None and _key_found(parent, fk, pcols, ccols)
            found_keys.append((child, prefix, ccols, fk, parent, pcols, found))
            if not found:
                # SQLite fails every statement that would check the key ("no such table:
                # main.x", "foreign key mismatch"): markers that put the statement on
                # the trigger path, where key_error names the error
                for owner in (child, parent) if parent is not None else (child,):
                    for event in ("INSERT", "UPDATE", "DELETE"):
                        out.setdefault(_owner_key(owner), []).append(
                            _marker(f"{tag}_{event.lower()}", owner.name, event))
                continue
            # names in the bodies as the merged schema of ATTACH spells them ("aux.t")
            cq = _q(_merged_name(schema, prefix, child.name))
            pq = _q(_merged_name(schema, prefix, parent.name))
            kind = "FK_DEFERRED" if fk.deferred else "FK_IMMEDIATE"
            # the child side
            notnull = " AND ".join(f"new.{_q(c)} IS NOT NULL" for c in ccols)
            exists = (f"EXISTS (SELECT 1 FROM {pq} WHERE " +
                      " AND ".join(f"{pq}.{_q(p)} = new.{_q(c)}"
                                   for c, p in zip(ccols, pcols)) + ")")
            check = f"SELECT RAISE(ABORT, {_MSG}) WHERE {notnull} AND NOT {exists}"
            add(child, tag + "_ins", "AFTER", "INSERT", check, check=kind, fk_tag=tag)
            add(child, tag + "_upd", "AFTER", "UPDATE", check, of=ccols, check=kind,
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
                    if event == "DELETE" and child is parent:
                        # a self-referencing key: SQLite's cascade recurses (a trigger
                        # cannot fire inside itself here), so delete the whole subtree,
                        # its rows named by rowid (WITHOUT ROWID: by PRIMARY KEY)
                        first = " AND ".join(f"{_q(c)} = old.{_q(p)}"
                                             for c, p in zip(ccols, pcols))
                        step = " AND ".join(f"c.{_q(c)} = p.{_q(p)}"
                                            for c, p in zip(ccols, pcols))
                        if child.without_rowid:
                            keys = [_q(child.columns[i].name) for i in pk_index(child).columns]
                        else:
                            keys = ["rowid"]
                        rk = [f"k{j}" for j in range(len(keys))]
                        lhs = keys[0] if len(keys) == 1 else "(" + ", ".join(keys) + ")"
                        join = " AND ".join(f"p.{k} = r.{r}" for k, r in zip(keys, rk))
                        # each row also carries its depth below the deleted one: SQLite's
                        # cascade runs one trigger frame deeper per level and fails
                        # beyond SQLITE_MAX_TRIGGER_DEPTH frames
                        body = (f"DELETE FROM {cq} WHERE {lhs} IN (WITH RECURSIVE "
                                f"sqlite_fk_tree({', '.join(rk)}, d) AS (SELECT "
                                f"{', '.join(keys)}, 1 FROM {cq} WHERE {first} UNION SELECT "
                                f"{', '.join('c.' + k for k in keys)}, r.d + 1 FROM {cq} AS c, "
                                f"{cq} AS p, sqlite_fk_tree AS r WHERE {join} AND {step}) "
                                f"SELECT {', '.join(rk)} FROM sqlite_fk_tree WHERE CASE WHEN "
                                f"d >= {MAX_TRIGGER_DEPTH} THEN RAISE(ABORT, '') END IS NULL)")
                        add(parent, name, "AFTER", event, body, when, of, check="FK_DEPTH")
                        continue
                    elif event == "DELETE" and (cyc := _cascade_cycle(
                            schema, prefix, child, parent,
                            _match(ccols, pcols, "c", parent, "old"))) is not None:
                        # ON DELETE CASCADE keys that lead back to the parent (t1 -> t2 ->
                        # t1): SQLite's cascade recurses; here a trigger cannot fire inside
                        # itself, so the child rows the recursion would reach are found
                        # first (a recursive CTE over every key of the cycle) and deleted at
                        # once; their own deletion fires the cycle's other keys
                        body = f"DELETE FROM {cq} WHERE rowid IN ({cyc})"
                    elif event == "DELETE":
                        body = f"DELETE FROM {cq} WHERE {old_match}"
                    else:
                        sets = ", ".join(f"{_q(c)} = new.{_q(p)}" for c, p in zip(ccols, pcols))
                        body = f"UPDATE {cq} SET {sets} WHERE {old_match}"
                    add(parent, name, "AFTER", event, body, when, of)
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
                    add(parent, name, "AFTER", event, body, when, of)
                elif action == "RESTRICT":
                    body = f"SELECT RAISE(ABORT, {_MSG}) WHERE {children}"
                    add(parent, name, "BEFORE", event, body, when, of)
                else:
                    body = f"SELECT RAISE(ABORT, {_MSG}) WHERE {children}"
                    add(parent, name, "AFTER", event, body, when, of, check=kind,
                        fk_tag=tag)
    return out, found_keys


_edges_cache: dict = {}


def _cascade_edges(schema, prefix):
    """[(parent, child, child columns, parent columns)] of the ON DELETE CASCADE keys
    between rowid tables of one schema (remembered for the schema object)."""
    hit = _edges_cache.get((id(schema), prefix))
    if hit is not None and hit[0] is schema:
        return hit[1]
    if len(_edges_cache) > 16:
        _edges_cache.clear()
    out = []
    for key, child in schema.tables.items():
        if key == "sqlite_schema" or child.without_rowid or \
                _schema_prefix(schema, key, child) != prefix:
            continue
        for ccols, fk in _foreign_keys(child):
            if (fk.on_delete or "").upper() != "CASCADE":
                continue
            parent, pcols = _parent_columns(schema, fk, prefix)
            if parent is None or parent.without_rowid or pcols is None \
                    or len(pcols) != len(ccols):
                continue
            out.append((parent, child, ccols, pcols))
    _edges_cache[(id(schema), prefix)] = (schema, out)
    return out


def _cascade_cycle(schema, prefix, child, parent, first):
    """For the ON DELETE CASCADE key from ``child`` to ``parent`` (two rowid tables) when
    cascading keys lead from ``child`` back to ``parent``: a query of the rowids of every
    ``child`` row that the cascade from the deleted parent row reaches (``first``: the
    condition on ``c``, a child row, of the first step), following every cascading key
    among the tables reachable from the child; None when there is no such cycle."""
    if child is parent or child.without_rowid or parent.without_rowid:
        return None
    edges = _cascade_edges(schema, prefix)
    reach, todo = {id(child)}, [child]
    while todo:
        t = todo.pop()
        for p_, c_, _cc, _pc in edges:
            if p_ is t and id(c_) not in reach:
                reach.add(id(c_))
                todo.append(c_)
    if id(parent) not in reach:
        return None
    num: dict = {}
    names: dict = {}
    for p_, c_, _cc, _pc in edges:
        if id(p_) in reach and id(c_) in reach:
            for t in (p_, c_):
                num.setdefault(id(t), len(num))
                names[id(t)] = _q(_merged_name(schema, prefix, t.name))
    steps = []
    for p_, c_, cc, pc in edges:
        if id(p_) in num and id(c_) in num:
            on = " AND ".join(f"y.{_q(a)} = x.{_q(b)}" for a, b in zip(cc, pc))
            steps.append(f" UNION SELECT {num[id(c_)]}, y.rowid FROM {names[id(p_)]} AS x, "
                         f"{names[id(c_)]} AS y, sqlite_fk_reach AS r WHERE r.t = "
                         f"{num[id(p_)]} AND x.rowid = r.k AND {on}")
    n = num[id(child)]
    return (f"WITH RECURSIVE sqlite_fk_reach(t, k) AS (SELECT {n}, c.rowid FROM "
            f"{names[id(child)]} AS c WHERE {first}{''.join(steps)}) "
            f"SELECT k FROM sqlite_fk_reach WHERE t = {n}")


def _default_sql(table, col, default_spans):
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
        hit = (schema, *_build(schema))
        _cache[id(schema)] = hit
    return hit[1].get(_owner_key(table), ())


def key_error(p, table, event, update_cols=None, single_row=False):
    """The error SQLite's parser is left with after coding the foreign keys of a write
    to ``table`` (``update_cols``: the lower-case names an UPDATE sets; ``single_row``: an
    INSERT of one row that SQLite codes no immediate parent check for), or None. SQLite
    looks each key's parent up (sqlite3FkLocateIndex) in this order, its last message
    standing: for UPDATE and DELETE, every key naming the table as parent (sqlite3FkOldmask,
    the newest key first); then the table's own keys (the last declared first) and then
    the keys naming it, until one fails (sqlite3FkCheck: a missing parent table is 'no
    such table'); then the keys naming it whose action it codes (sqlite3FkActions)."""
    triggers_for(p, table)
    keys = _cache[id(p.schema)][2]
    me = _owner_key(table)
    own = [k for k in keys if _owner_key(k[0]) == me][::-1]
    naming = [k for k in keys if k[4] is not None and _owner_key(k[4]) == me][::-1]
    if event == "UPDATE" and update_cols is not None:
        own = [k for k in own if any(c.lower() in update_cols for c in k[2])]
        changed = [k for k in naming if _parent_changed(table, k, update_cols)]
    else:
        changed = naming
    if event != "INSERT" and not own and not changed:
        return None     # SQLite's sqlite3FkRequired
    msg = None
    if event != "INSERT":
        for k in naming:
            if not k[6]:
                msg = _mismatch(k)
    defer = getattr(p.db, "defer_foreign_keys", 0)
    msg = _check_error(own, changed, event == "INSERT" and single_row and not defer) or msg
    if event != "INSERT":
        for k in changed:
            action = ((k[3].on_delete if event == "DELETE" else k[3].on_update)
                      or "NO ACTION").upper()
            if action != "NO ACTION" and not (action == "RESTRICT" and defer) and not k[6]:
                msg = _mismatch(k)
    return msg


def update_keys_required(p, table, update_cols) -> bool:
    """SQLite's sqlite3FkRequired for an UPDATE of ``table`` setting ``update_cols``
    (lower-case names): foreign keys are on and one of the table's own keys, or one naming
    it as parent, has a column set."""
    if not getattr(p.db, "foreign_keys", 0):
        return False
    triggers_for(p, table)
    me = _owner_key(table)
    for k in _cache[id(p.schema)][2]:
        if _owner_key(k[0]) == me and any(c.lower() in update_cols for c in k[2]):
            return True
        if k[4] is not None and _owner_key(k[4]) == me and _parent_changed(table, k, update_cols):
            return True
    return False


def code_drop_table(p, table, schema_name):
    """SQLite's sqlite3FkDropTable: before DROP TABLE removes a table that a foreign key
    names as its parent, its rows are deleted as by DELETE FROM (the keys' actions run,
    the table's own triggers do not), then, unless defer_foreign_keys is on, a child row
    left without its parent fails the statement before the schema changes. A table that
    is only a child, with a deferred key of its own (any key while defer_foreign_keys is
    on), has its rows deleted so only while a deferred key is violated (SQLite's FkIfZero
    on its count of them): its deferred violations leave with it, as _violations sees at
    COMMIT, but its rows deleted count. Either way its rows deleted (none when skipped)
    are the statement's changes()."""
    from sqlengine.compiler.delete import compile_delete
    triggers_for(p, table)
    me = _owner_key(table)
    keys = _cache[id(p.schema)][2]
    parent = any(k[4] is not None and _owner_key(k[4]) == me for k in keys)
    defer = getattr(p.db, "defer_foreign_keys", 0)
    skip = None
    if not parent:
        if not any(_owner_key(k[0]) == me and (defer or k[3].deferred) for k in keys):
            return
        skip = p.b.new_label()
        _code_unless_violated(p, skip)
    p.no_user_triggers = True
    try:
        compile_delete(p, A.Delete(A.TableRef(table.name, schema_name)))
    finally:
        p.no_user_triggers = False
    p.ddl = O.DDL_COUNTS_CHANGES  # (its rows deleted are the statement's changes())
    if skip is not None:
        p.b.resolve(skip)
        return
    if not defer:
        _code_verify(p, _stmt_any, immediate_only=True, clean=_stmt_clean,
                     per_key=_stmt_marked)
    # in autocommit mode the statement is its transaction: its deferred keys must hold
    # while the table is still there to be read
    _code_verify(p, _dirty_in_autocommit, per_key=_dirty_marked)


def _code_unless_violated(p, skip):
    """Jump to ``skip`` unless some foreign key marked for COMMIT is violated now: a child
    row without its parent (SQLite counts its deferred violations exactly; a mark here
    only says one may be)."""
    b = p.b
    checks = _violations(p.schema)
    if not checks:
        b.emit(O.OP_Goto, 0, skip)
        return
    r = b.alloc_reg()
    b.emit(O.OP_Function, 0, r, r, _dirty, 0)
    b.emit(O.OP_IfNot, r, skip, 0)
    found = b.new_label()
    saved = p.trigger_ctx
    p.trigger_ctx = None
    try:
        for tag, text in checks:
            nxt = b.new_label()
            b.emit(O.OP_Function, 0, r, r, _dirty_marked(tag), 0)
            b.emit(O.OP_IfNot, r, nxt, 0)
            code_expr(p, None, parse_one("SELECT " + text).stmt.body.columns[0].expr, r)
            b.emit(O.OP_If, r, found, 0)
            b.resolve(nxt)
    finally:
        p.trigger_ctx = saved
    b.emit(O.OP_Goto, 0, skip)
    b.resolve(found)


def _check_error(own, naming, single_row):
    """The first error of sqlite3FkCheck's look-ups: the table's own keys, then those
    naming it (none immediate for ``single_row``)."""
    for k in own:
        if k[4] is None:
            return f"no such table: {k[1] or 'main.'}{k[3].table}"
        if not k[6]:
            return _mismatch(k)
    for k in naming:
        if not k[6] and not (single_row and not k[3].deferred):
            return _mismatch(k)
    return None


def _mismatch(key):
    return f'foreign key mismatch - "{key[0].name}" referencing "{key[4].name}"'


def _parent_changed(table, key, update_cols) -> bool:
    """SQLite's fkParentIsModified: an UPDATE sets a column the key names in its parent
    (a key without a column list: the INTEGER PRIMARY KEY)."""
    fk = key[3]
    if fk.columns:
        return any(c.lower() in update_cols for c in fk.columns)
    return table.ipk >= 0 and table.columns[table.ipk].name.lower() in update_cols


# ---- deferred checks -------------------------------------------------------------------------

def _with_check_kind(ast, kind, tag):
    """The trigger ``ast`` with the RAISE of its one SELECT marked FK_DEFERRED or
    FK_IMMEDIATE (a kind no SQL text can spell), which ``code_fk_raise`` codes; its
    message names the foreign key (``tag``)."""
    ast = copy.deepcopy(ast)
    sel = ast.body[0]
    rc = sel.body.columns[0]
    rc.expr = A.Raise(kind, A.Literal(tag))
    return ast


def _with_depth_error(ast):
    """The trigger ``ast`` with its RAISE marked FK_DEPTH (SQLite's "too many levels of
    trigger recursion", an SQLITE_ERROR rather than a constraint failure)."""
    ast = copy.deepcopy(ast)
    find_node(ast, lambda e: type(e) is A.Raise, stop=()).action = "FK_DEPTH"
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
    if e.action == "FK_DEPTH":
        b.emit(O.OP_Halt, E.SQLITE_ERROR, O.OE_ABORT, 0, "too many levels of trigger recursion")
        return
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
            cq = _q(child.name)
            notnull = " AND ".join(f"c.{_q(c)} IS NOT NULL" for c in ccols)
            if parent is None:
                # (a parent dropped since a row was marked: every complete key violates)
                out.append((f"sqlite_fk_{child.name}_{n}",
                            f"EXISTS (SELECT 1 FROM {cq} AS c WHERE {notnull})"))
                continue
            if not _key_found(parent, fk, pcols, ccols):
                continue
            # aliases: a table may reference itself
            pq = _q(parent.name)
            match = " AND ".join(f"p.{_q(p)} = c.{_q(c)}" for c, p in zip(ccols, pcols))
            out.append((f"sqlite_fk_{child.name}_{n}",
                        f"EXISTS (SELECT 1 FROM {cq} AS c WHERE {notnull} AND NOT EXISTS "
                        f"(SELECT 1 FROM {pq} AS p WHERE {match}))"))
    return out


def _code_verify(p, gate, immediate_only=False, clean=None, per_key=None):
    """When ``gate`` (a VM callback) says so, check every foreign key (with ``per_key``,
    only those ``per_key(tag)`` says are marked): fail with 'FOREIGN KEY constraint
    failed' on a violation, else clear the mark."""
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
