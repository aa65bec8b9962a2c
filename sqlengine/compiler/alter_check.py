"""ALTER TABLE's schema test (SQLite's renameTestSchema and the resolving its
sqlite_rename_* functions do): RENAME TO, RENAME COLUMN and DROP COLUMN first resolve every
view and trigger of the schema (main's sqlite_schema rows in rowid order, then temp's) and
fail on the first that does not: ``error in view v: no such column: x``. DROP COLUMN then
resolves them again against the table as it will be: ``error in view v after drop column:
no such column: t.b``; a RENAME against the schema its rewrite makes (``renamed_schema``):
``error in view v after rename: ambiguous column name: x``.

SQLite only resolves names there (sqlite3SelectPrep; renameResolveTrigger for a trigger):
it reports what its resolver reports (columns, tables, compound sizes, ORDER BY terms,
HAVING on a plain query, row values) but not what its coder would (wrong numbers of
values, sub-select sizes) nor a function's error (a rename parse skips those). Here each
object is compiled on a throw-away ``Parse`` and only an error of the resolving kind is
kept. A trigger's statements are compiled as the SELECTs SQLite resolves for them: an
INSERT's source and ``SELECT * FROM`` its table, an UPDATE's ``SELECT <set values> FROM
<table, its FROM> WHERE ...``, a DELETE's ``SELECT * FROM <table> WHERE ...``, the WHEN
clause as ``SELECT <when>``; NEW and OLD are bound as when it fires, and no other
trigger fires inside it (each is tested on its own). ``PRAGMA legacy_alter_table=ON``
changes the test as it changes SQLite's (see ``check_schema``).

This module only compiles to find errors; the code it emits is thrown away.
"""

from __future__ import annotations

import dataclasses

from sqlengine.compiler.walk import map_children
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A

# what SQLite's resolver (and so the schema test) reports; anything else is left alone
_RESOLVE_ERRORS = ("no such column: ", "no such table: ", "ambiguous column name: ",
                   "SELECTs to the left and right of ", "row value misused",
                   "HAVING clause on a non-aggregate query",
                   "aggregate functions are not allowed in the GROUP BY clause",
                   "cannot join using column ")
_RESOLVE_PARTS = (" is circularly defined", " ORDER BY term does not match any column",
                  " ORDER BY term out of range")


def check_schema(p, when="", schema=None, own=None, rename_table=False, objects=None,
                 db="main"):
    """Raise SQLite's error for the first view or trigger that does not resolve, in
    sqlite_schema order; ``schema``: the schema to resolve against (the altered one after
    DROP COLUMN or a rename; p.schema by default); ``when``: "", "after drop column" or
    "after rename"; ``objects``: (database, lower-case name) -> the View or Trigger that
    row holds now (those a rename rewrote). ``own(kind, name)`` may test a row itself (a table or
    index row) and return an error message. ``db``: the altered table's database; for
    "temp" only temp's rows are tested (SQLite's renameTestSchema with bTemp).
    With legacy_alter_table on, RENAME TO tests nothing, the others fail with a bare
    "SQL logic error" before the change and test nothing after it."""
    schema = schema if schema is not None else p.schema
    legacy = getattr(p.db, "legacy_alter_table", 0)
    resolve = not legacy or not (rename_table or when)
    for row_db, kind, name, obj in schema_rows(p):
        if db == "temp" and row_db != "temp":
            continue
        if objects is not None and kind in ("view", "trigger"):
            obj = objects.get((row_db, name.lower()), obj)
        msg = own(kind, name) if own is not None else None
        if msg is None and obj is not None and resolve:
            msg = error_of(p, schema, kind, obj)
            if msg is not None and legacy:
                raise OperationalError("SQL logic error")
        if msg is not None:
            sep = " " if when else ""
            raise OperationalError(f"error in {kind} {name}{sep}{when}: {msg}")


def schema_rows(p):
    """(database, type, name, object) of main's sqlite_schema rows in rowid order, then
    temp's (database: "main" or "temp"; the object: its View or Trigger, else None)."""
    from sqlengine.compiler.attach import find
    from sqlengine.storage import decode_record
    main = getattr(p.schema, "main", p.schema)
    dbs = [("main", getattr(p.db.bt, "main", p.db.bt), main)]
    temp = find(p.db, "temp")
    if temp is not None and temp.db is not p.db:
        dbs.append(("temp", temp.db.bt, temp.db.schema))
    out = []
    for db, bt, s in dbs:
        if bt.page_count() == 0:
            continue
        cur = bt.cursor(1)
        try:
            ok = cur.first()
            while ok:
                rec = decode_record(cur.payload())
                ok = cur.next()
                if len(rec) < 2 or not isinstance(rec[1], str):
                    continue
                kind, name = rec[0], rec[1]
                if name.lower().startswith("sqlite_"):
                    continue
                obj = None
                if kind == "view":
                    obj = s.views.get(name.lower())
                elif kind == "trigger":
                    obj = s.triggers.get(name.lower())
                out.append((db, kind, name, obj))
        finally:
            cur.close()
    return out


def error_of(p, schema, kind, obj):
    """The resolving error of view or trigger ``obj`` against ``schema``, or None."""
    from sqlengine.compiler.context import Parse
    q = Parse(p.db, "")
    q.schema = schema
    q.functions = _AnyFunction(q.functions)
    q.no_function_errors = True  # (resolve_order's reordering too)
    try:
        if kind == "view":
            _compile_view(q, obj)
        else:
            _compile_trigger(q, schema, obj)
    except OperationalError as e:
        msg = str(e)
        if msg == "row value misused":  # (resolving: only a comparison of two sizes)
            return msg if _has_size_mismatch(obj) else None
        if msg.startswith(_RESOLVE_ERRORS) or any(part in msg for part in _RESOLVE_PARTS):
            return msg
        if msg.startswith("no such index: ") and schema is p.schema:
            # (an INDEXED BY is looked up as FROM is expanded; the altered schemas made
            # here have no indexes, which an ALTER never removes)
            return msg
    return None


class _AnyFunction:
    """The connection's functions, where a name or an argument count no function has
    stands for a function that returns NULL: a rename parse reports no function errors."""

    def __init__(self, functions):
        self._functions = functions

    def __getattr__(self, name):
        return getattr(self._functions, name)

    def scalar(self, name, nargs):
        f = self._functions.scalar(name, nargs)
        return f if f is not None else _null_function


def _null_function(vm, args):
    return None


def _has_size_mismatch(obj):
    """Whether view or trigger ``obj`` compares row values of two sizes (resolve.c's
    'row value misused'; a row value elsewhere is its coder's)."""
    from sqlengine.compiler.resolve_order import _COMPARISONS, _mismatch
    from sqlengine.compiler.walk import iter_children
    stack = [obj.select] if hasattr(obj, "select") else [obj.when] + list(obj.body)
    while stack:
        e = stack.pop()
        t = type(e)
        if t is A.Binary and e.op.upper() in _COMPARISONS and _mismatch(e.left, e.right) \
                or t is A.Between and _mismatch(e.expr, e.low, e.high):
            return True
        if e is not None:
            stack.extend(iter_children(e))
    return False


def renamed_schema(p, changes, old_table=None):
    """(a copy of p.schema as a RENAME leaves it, {(database, lower-case name): rewritten
    View or Trigger}) from ``changes`` ((database, lower-case name) -> (type, name,
    tbl_name, sql) of each rewritten sqlite_schema row, database "main" or "temp");
    ``old_table``: the (database, lower-case name) a RENAME TO retires."""
    import copy
    from sqlengine import schema as S
    from sqlengine.sql import parse_one
    m = copy.copy(p.schema)
    m.tables = dict(p.schema.tables)
    m.views = dict(p.schema.views)
    m.triggers = dict(p.schema.triggers)
    objects = {}
    for (db, key), (kind, name, _tbl, sql) in changes.items():
        if kind == "table":
            old = None
            for k in merged_keys(p, db, old_table[1] if (db, key) == old_table else key):
                old = m.tables.pop(k, None) or old
            if key != name.lower() and db == "temp" and "main." + key in m.tables:
                m.tables[key] = m.tables["main." + key]  # (no longer hidden)
            if old is not None:
                new_t = S.table_from_ast(parse_one(sql).stmt, old.root, sql)
                for k in merged_keys(p, db, name.lower()):
                    m.tables[k] = new_t
        elif kind == "view":
            ast = parse_one(sql).stmt
            v = objects[(db, key)] = S.View(name, ast.select, ast.columns, sql)
            for k in merged_keys(p, db, key):
                m.views[k] = v
        elif kind == "trigger":
            tr = objects[(db, key)] = S.Trigger(parse_one(sql).stmt, sql)
            m.triggers[key] = tr
            if db == "temp":  # (attach.holder_name: the trigger is temp's)
                m.triggers["temp." + key] = tr
    return m, objects


def merged_keys(p, db, key):
    """The keys under which the merged schema holds the table or view ``key`` of database
    ``db`` ("main" or "temp"): the bare name alone without a temp database; else
    ``db.key``, and the bare name when it reaches this database's object (temp's names
    hide main's)."""
    from sqlengine.compiler.attach import find
    temp = find(p.db, "temp") if p.db.attached else None
    if temp is None:
        return [key]
    ts = temp.db.schema
    hidden = db == "main" and (key in ts.tables or key in ts.views)
    return [f"{db}.{key}"] + ([] if hidden else [key])


def altered_schema(p, t, new_t):
    """A copy of p.schema in which table ``t`` is ``new_t`` (what DROP COLUMN makes it)."""
    import copy
    m = copy.copy(p.schema)
    m.tables = dict(p.schema.tables)  # (a TableMap builds every table it reads out)
    for key, other in list(m.tables.items()):
        if other is t or (getattr(other, "root", None) == t.root and
                          getattr(other, "name", None) == t.name):
            m.tables[key] = new_t
    return m


def _compile_view(q, v):
    from sqlengine.compiler.cte import schema_scope
    from sqlengine.compiler.select import CallbackDest, compile_select
    with schema_scope(q, v):
        compile_select(q, _without_ordinals(v.select), CallbackDest(lambda base, n: None))


def _without_ordinals(node):
    """``node`` without the ORDER BY terms of a plain (not compound) SELECT that are column
    numbers from 1 to 65535: SQLite checks those against the result columns while coding,
    not while resolving (0, a negative or a larger one it rejects at once)."""
    node = map_children(node, _without_ordinals)
    if type(node) is A.Select and node.order_by and not isinstance(node.body, A.Compound):
        kept = [o for o in node.order_by if not _ordinal(o.expr)]
        if len(kept) != len(node.order_by):
            node = dataclasses.replace(node, order_by=kept or None)
    return node


def _ordinal(e):
    from sqlengine.compiler.expr import term_number
    k = term_number(e)
    return k is not None and 1 <= k <= 0xFFFF


def _compile_trigger(q, schema, tr):
    from sqlengine.compiler.cte import schema_scope
    from sqlengine.compiler.select import CallbackDest, compile_select
    from sqlengine.compiler.trigger import bind_new_old, view_shape
    table = schema.table(tr.table)
    if table is None:
        view = schema.views.get(tr.table.lower())
        if view is None:
            return
        table = view_shape(q, view)  # (SQLite names the view's columns first)
    b = q.b
    width = len(getattr(table, "columns", None) or getattr(table, "col_names", ())) + 1
    new_base = b.alloc_reg(width) if tr.event != "DELETE" else None
    old_base = b.alloc_reg(width) if tr.event != "INSERT" else None
    # no trigger fires inside the one tested: each is tested on its own
    q.trigger_stack += tuple(schema.triggers)
    q.trigger_ctx = (new_base, old_base, table)
    q.trigger_ignore = b.new_label()
    q.nested += 1
    when, body = bind_new_old(tr, table, new_base, old_base)
    with schema_scope(q, tr, "triggers"):
        for sel in _resolved_selects(when, body):
            compile_select(q, _without_ordinals(sel), CallbackDest(lambda base, n: None))
    b.resolve(q.trigger_ignore)


def _select(columns, from_=None, where=None):
    return A.Select(body=A.SelectCore(columns=columns, from_=from_, where=where))


def _resolved_selects(when, body):
    """The SELECTs SQLite's renameResolveTrigger resolves for a trigger, in its order."""
    if when is not None:
        yield _select([A.ResultColumn(when)])
    for st in body:
        if isinstance(st, A.Select):
            yield st
        elif isinstance(st, A.Insert):
            if st.source is not None:
                yield st.source
            yield _select([A.Star()], A.TableRef(st.table, st.schema))
        elif isinstance(st, A.Update):
            src = st.table if st.from_ is None else A.Join(st.table, st.from_, ",")
            yield _select([A.ResultColumn(s.expr) for s in st.sets], src, st.where)
        elif isinstance(st, A.Delete):
            yield _select([A.Star()], st.table, st.where)
