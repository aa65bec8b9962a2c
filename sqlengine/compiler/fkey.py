"""FOREIGN KEY enforcement while ``PRAGMA foreign_keys`` is on.

Each foreign key becomes a few internal triggers, coded inline by ``trigger.py`` like any
other trigger:

* on the child table, AFTER INSERT and AFTER UPDATE OF the key columns: a non-NULL key with
  no parent row fails with ``FOREIGN KEY constraint failed``;
* on the parent table, for DELETE and for an UPDATE that changes the parent key: the
  action of the clause (CASCADE deletes or updates the children, SET NULL / SET DEFAULT
  rewrite their keys, RESTRICT fails before the change, NO ACTION fails after it when
  children are left without a parent).

Differences from SQLite kept on purpose small: checks run per row rather than at the end
of the statement, DEFERRABLE INITIALLY DEFERRED keys are not checked at all (their
actions still run), and a cascade does not re-enter the same foreign key's trigger.

This module builds trigger objects from SQL text; it never emits code itself and never
runs anything.
"""

from __future__ import annotations

from sqlengine.sql import ast as A

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

    def add(owner, name, timing, event, body, when=None, of=None):
        of_text = (" OF " + ", ".join(_q(c) for c in of)) if of else ""
        when_text = f" WHEN {when}" if when else ""
        sql = (f"CREATE TRIGGER {_q(name)} {timing} {event}{of_text} ON {_q(owner)}"
               f"{when_text} BEGIN {body}; END")
        ast = parse_one(sql).stmt
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
            # the child side
            if not fk.deferred:
                notnull = " AND ".join(f"new.{_q(c)} IS NOT NULL" for c in ccols)
                exists = (f"EXISTS (SELECT 1 FROM {pq} WHERE " +
                          " AND ".join(f"{pq}.{_q(p)} = new.{_q(c)}"
                                       for c, p in zip(ccols, pcols)) + ")")
                check = f"SELECT RAISE(ABORT, {_MSG}) WHERE {notnull} AND NOT {exists}"
                add(child.name, tag + "_ins", "AFTER", "INSERT", check)
                add(child.name, tag + "_upd", "AFTER", "UPDATE", check, of=ccols)
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
                    if event == "DELETE":
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
                elif not fk.deferred:
                    body = f"SELECT RAISE(ABORT, {_MSG}) WHERE {children}"
                    add(parent.name, name, "AFTER", event, body, when, of)
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
