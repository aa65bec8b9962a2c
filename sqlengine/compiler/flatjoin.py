"""The query flattener for a view or FROM subquery that is one item of a join (SQLite's
flattenSubquery where the outer FROM clause has several items; compiler/flatten.py does
the lone item). An item that just picks columns and rows of one table

    SELECT <outer> FROM a JOIN (SELECT c1, c2 FROM tab WHERE <w>) AS x ON <on> WHERE <x>

is coded as ``SELECT <outer> FROM a JOIN tab AS x ON <on> WHERE <w'> AND <x>`` (``<w'>``:
``<w>`` with its names qualified by ``x``): the table gets a loop of the join, and the
planner can use its indexes for the ON, WHERE and inner WHERE terms, instead of copying
it into an ephemeral table first. Its plan lines name ``tab``, as sqlite3's.

The rewrite applies only where it cannot change a result, a name or an error:

- the item is what flatten.py merges alone (one core over one table of the schema, no
  DISTINCT, GROUP BY, HAVING, window, ORDER BY, LIMIT, WITH or view column list, result
  columns ``*`` or plain distinct names of the table's columns spelled as declared, a
  WHERE of names of its columns and no subquery, its names unqualified or qualified by
  the table's name or alias), or such a core whose result columns are expressions of the
  table's columns or its columns under other names (compiler/flatsubst.py: copied where
  the outer query names them, under its further conditions); a subquery without an alias is merged under the name
  ``(subquery-N)``, or the join left as it is (when it cannot be merged, or the query
  writes that name);
- on the right of a LEFT JOIN, the outer query is not DISTINCT (SQLite's restriction:
  its WHERE then joins the ON clause, and its columns read NULL on the row that pads an
  unmatched one, as the subquery's did); the join has no RIGHT or FULL JOIN, no NATURAL
  join, no nested join, no USING naming a column the item does not return (nor, under a
  ``*``, a USING join bringing an item not merged, whose ``name.*`` would show the
  column ``*`` leaves out),
  no table-valued function, and every item a distinct visible name (so ``*`` can be
  written as the items' ``name.*`` and the merged items' columns);
- nothing in the outer query (its subqueries and ON clauses included) names a column of
  the table the item does not return, nor a rowid, unqualified or qualified by the item's
  name: the table's other columns are visible once it is merged, and must not capture a
  name; the table has no column named TRUE or FALSE; the outer query has no window
  function (SQLite does not flatten into one) and no CTE is in scope.

An item whose FROM clause is an inner join of tables of the schema (no view, LEFT,
RIGHT, NATURAL or USING; distinct names; not itself brought by a USING join; every name of its result columns, ON clauses and
WHERE found in exactly one of them) is merged as those tables under their own names, its
ON and WHERE terms qualified, when it is not on the right of a LEFT JOIN (SQLite's
restriction), its tables' names are no other item's nor written in the outer query, the
outer query holds no subquery and its ORDER BY no name qualified by the item's: its
names qualified by the item's name are then qualified by the table each column comes
from, and a name any of its tables has but the item does not return (or has twice) is
not written in the outer query, as above.

Each merged column is the table's column itself (or a copy of its expression, which
flatsubst.py makes only where it behaves as the subquery's column did), so its affinity,
collation, declared type and name are those the materialized subquery had. This module rewrites ASTs only.
"""

from __future__ import annotations

import dataclasses
from functools import partial

from sqlengine.compiler.flatsubst import (Copier, expr_columns, null_row_guard, outer_allows,
                                          rewritten_ok)
from sqlengine.compiler.flatten import (_bare_columns, _exported, _rebound, _star_listed,
                                        flatten_from)
from sqlengine.compiler.truefalse import WORDS
from sqlengine.compiler.walk import SUBQUERY_NODES, iter_children, map_children
from sqlengine.sql.ast import (FEAT_COLLATE, Column, InTable, Join, ResultColumn, SelectCore, Star, SubqueryRef,
                               TableRef)

_ROWID_NAMES = ("rowid", "oid", "_rowid_")
_SUBQUERIES = SUBQUERY_NODES + (InTable,)
_INNER = ("INNER", ",", "CROSS")


def flatten_join(p, core, order_by):
    """(``core``, ``order_by``) (a core whose FROM clause is a Join with a view or
    subquery item: the compiled select._joins_subquery tells) with each such item that
    can be merged read as its table, or themselves when none can."""
    out = _flatten_join(p, core, order_by)
    return out if type(out) is tuple else (out, order_by)


def _flatten_join(p, core, order_by):
    """flatten_join's ``core``, or (``core``, ``order_by``) when copies were made in
    its ORDER BY."""
    items = []
    f = core.from_
    while type(f) is Join:
        items.append((f.right, f))
        f = f.left
    items.append((f, None))
    items.reverse()
    if getattr(p, "ctes", None) or core.alias_columns is not None or _has_window(core):
        return core
    names = []
    for it, join in items:
        if join is not None and (join.natural or join.kind not in _INNER
                                 and join.kind != "LEFT"):
            return core
        t = type(it)
        if t is TableRef:
            names.append(it.alias or it.name)
        elif t is SubqueryRef:  # (an unnamed one: a name for its columns, see below)
            names.append(it.alias if it.alias is not None else f"(subquery-{len(names)})")
        else:  # (a nested join, a table-valued function)
            return core
    if len({n.lower() for n in names}) < len(names):
        return core
    merges = {}
    guards = {}  # item number -> null_row_guard's answer (on the right of a LEFT JOIN)
    for k, (it, join) in enumerate(items):
        if join is not None and join.kind == "LEFT" and core.distinct:
            continue
        m = _mergeable(p, it)
        if m is not None and m[3] is not None and join is not None and join.kind == "LEFT":
            guards[k] = null_row_guard(p, m[0], m[3])
            if guards[k] is None:
                continue  # (copies: see flatsubst.py)
        if m is not None:
            merges[k] = m
    if not merges:
        return core
    used = _outer_names(core, order_by)
    for _it, join in items:  # (a USING name is looked up on both sides)
        if join is not None and join.using:
            used.update((None, n.lower()) for n in join.using)
    taken = {n.lower() for n in names} | {q for q, _n in used}
    ob_names = {q for q, _n in _outer_names(None, order_by)}
    for k in list(merges):
        body, hidden, inner, _subst = merges[k]
        vis = names[k].lower()
        if any((n is None or n in hidden) and (q is None or q == vis) for q, n in used):
            del merges[k]
        elif inner is not None and (items[k][1] is not None and (
                items[k][1].kind == "LEFT" or items[k][1].using)  # (its first table's)
                                    or not taken.isdisjoint(inner[2])
                                    or _holds_subquery(core)
                                    or vis in ob_names and _order_holds_subquery(order_by)):
            del merges[k]
        elif inner is not None:
            taken.update(inner[2])
    if any(m[3] is not None for m in merges.values()) and not outer_allows(
            p, core, order_by, items, names, merges, _holds_subquery, _outer_names):
        merges = {k: m for k, m in merges.items() if m[3] is None}
    for k, (it, _join) in enumerate(items):  # an unnamed item: merged, and its name unused
        if type(it) is SubqueryRef and it.alias is None and (
                k not in merges or any(q == names[k] for q, _n in used)):
            return core
    if not merges:
        return core
    retarget = {names[k].lower(): m[2][1] for k, m in merges.items() if m[2] is not None}
    if retarget and order_by and not ob_names.isdisjoint(retarget):
        # (``ORDER BY v.x`` of a merged join ``v``: x's table, as its other clauses)
        order_by = [dataclasses.replace(o, expr=_retargeted(o.expr, retarget)) for o in order_by]
    if any(type(rc) is Star and rc.table is None for rc in core.columns) and any(
            j is not None and j.using and k not in merges for k, (_it, j) in enumerate(items)):
        return core  # (``*`` leaves out a USING column of the right item: not ``name.*``)
    if all(m[3] is None for m in merges.values()):
        return _rewrite(p, core, items, names, merges, None), order_by
    copier = Copier(p, items, names, merges, guards)
    out = _rewrite(p, core, items, names, merges, copier)
    ob = copier.order_by(core, order_by)
    if rewritten_ok(out, ob, copier.aliases):
        return out, ob
    merges = {k: m for k, m in merges.items() if m[3] is None}
    for k, (it, _join) in enumerate(items):  # (as above: an unnamed item left as it is)
        if type(it) is SubqueryRef and it.alias is None and k not in merges:
            return core
    return (_rewrite(p, core, items, names, merges, None), order_by) if merges else core


def _order_holds_subquery(order_by) -> bool:
    """Whether a term of ``order_by`` holds a subquery (whose own FROM may name a table
    as a merged item is named: its names are not rewritten)."""
    return _any_subquery([o.expr for o in order_by])


def _has_window(core) -> bool:
    """Whether ``core`` has a window (a WINDOW clause or a window function call)."""
    if core.windows:
        return True
    from sqlengine.sql.ast import FEAT_WINDOW
    return bool(core.features & FEAT_WINDOW)


def _mergeable(p, item):
    """(inner core, the lower-case names of its table's columns it does not return, and
    the rowid's) of a view or subquery FROM item this module can merge, else None."""
    views = ()
    view = None
    if type(item) is SubqueryRef:
        sel = item.select
    else:
        key = item.name.lower()
        view = p.schema.views.get(key)
        if (view is None or view.columns or item.schema is not None
                or item.indexed_by is not None or p.schema.table(item.name) is not None):
            return None
        sel, views = view.select, (key,)
    if (sel.with_ is not None or sel.order_by or sel.limit is not None
            or type(sel.body) is not SelectCore):
        return None
    if type(sel.body.from_) is Join:
        if view is not None and p.db.attached and any(
                _rebound(p, view, name) for name in _joined_names(sel.body.from_)):
            return None
        return _join_body(p, sel.body)
    body = _star_listed(p, flatten_from(p, sel.body, None, views))  # (a view of a view ...)
    exported = _exported(p, body, True)
    subst = None
    if exported is None:
        if _bare_columns(body):  # (not merged for another reason: no copy can help)
            return None
        subst = expr_columns(p, body)
        if subst is None:
            return None
        exported = set(subst)
    table = body.from_
    if view is not None and p.db.attached and _rebound(p, view, table.name):
        return None
    t = p.schema.table(table.name)
    declared = {c.name.lower(): c.name for c in t.columns}
    if subst is None:
        for rc in body.columns:  # (a name spelled otherwise names a column differently)
            if declared[rc.expr.name.lower()] != rc.expr.name:
                return None
    if any(w in declared for w in WORDS):
        return None
    hidden = (set(declared) | set(_ROWID_NAMES)) - exported
    return body, hidden, None, subst


def _joined_names(f):
    """The names of the plain tables of a join (``_join_body`` refuses any other item)."""
    names = []
    while type(f) is Join:
        if type(f.right) is TableRef:
            names.append(f.right.name)
        f = f.left
    if type(f) is TableRef:
        names.append(f.name)
    return names


def _join_body(p, body):
    """(``body``, the lower-case names the outer query must not write, (its FROM items
    [(TableRef, Join or None)], {lower-case name of a result column: the name of the
    table it comes from}, the lower-case names of those tables)) of a SELECT core over an
    inner join of tables this module can merge, else None."""
    if body.distinct or body.group_by or body.having is not None or body.windows:
        return None
    items = []
    f = body.from_
    while type(f) is Join:
        if f.natural or f.using or f.kind not in _INNER:
            return None
        items.append((f.right, f))
        f = f.left
    items.append((f, None))
    items.reverse()
    tables = {}
    for it, _j in items:
        if type(it) is not TableRef or it.schema is not None:
            return None
        t = p.schema.table(it.name)
        key = (it.alias or it.name).lower()
        if t is None or key in tables or any(c.name.lower() in WORDS for c in t.columns):
            return None
        tables[key] = t
    qual = {}
    for rc in body.columns:
        if type(rc) is not ResultColumn or rc.alias is not None or type(rc.expr) is not Column:
            return None
        e = rc.expr
        q = _owner(e, tables)
        if q is None or e.name.lower() in qual:
            return None
        t = tables[q]
        if t.columns[t.col_index[e.name.lower()]].name != e.name:
            return None
        qual[e.name.lower()] = q
    for part in [j.on for _it, j in items if j is not None] + [body.where]:
        if part is not None and not _owned(part, tables):
            return None
    every = set(_ROWID_NAMES)
    twice = set()
    for t in tables.values():
        for c in t.columns:
            n = c.name.lower()
            (twice if n in every else every).add(n)
    hidden = every - set(qual) | twice
    return body, hidden, (items, qual, tables), None


def _owner(e, tables):
    """The name of the one table of ``tables`` the Column ``e`` reads, else None."""
    if e.schema is not None:
        return None
    n = e.name.lower()
    if e.table is not None:
        q = e.table.lower()
        t = tables.get(q)
        return q if t is not None and n in t.col_index else None
    hits = [q for q, t in tables.items() if n in t.col_index]
    return hits[0] if len(hits) == 1 else None


def _owned(e, tables) -> bool:
    """No subquery under ``e``, and each of its column names read from one of
    ``tables``."""
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, _SUBQUERIES):
            return False
        if type(x) is Column:
            if _owner(x, tables) is None:
                return False
            continue
        stack.extend(iter_children(x))
    return True


def _holds_subquery(core) -> bool:
    """Whether a subquery is anywhere in ``core`` but its FROM items."""
    stack = [x for x in iter_children(core) if type(x) is not Join and type(x) is not SubqueryRef]
    f = core.from_
    while type(f) is Join:
        if f.on is not None:
            stack.append(f.on)
        f = f.left
    return _any_subquery(stack)


def _any_subquery(stack) -> bool:
    """Whether a subquery is in one of the nodes of ``stack`` (a list it empties)."""
    while stack:
        x = stack.pop()
        if isinstance(x, _SUBQUERIES):
            return True
        stack.extend(iter_children(x))
    return False


def _outer_names(core, order_by):
    """{(lower-case qualifier or None, lower-case name)} of the column names anywhere in
    ``core`` (subqueries, the FROM subqueries in them, and ON clauses included) and
    ``order_by``, except in the bodies of its own FROM subqueries (which see no sibling
    item); a schema-qualified one's name is None."""
    out = set()
    stack = [o.expr for o in order_by or ()]
    own = set()  # (its own FROM subqueries; one nested deeper may read its names)
    if core is not None:
        stack += list(iter_children(core))
        f = core.from_
        while type(f) is Join:
            own.add(id(f.right))
            f = f.left
        own.add(id(f))
    while stack:
        x = stack.pop()
        t = type(x)
        if t is SubqueryRef and id(x) in own:
            continue
        if t is Column:
            q = x.table
            if x.schema is not None:  # (``main.x.a`` would read a merged item's table)
                out.add((q.lower(), None))
            else:
                out.add((q.lower() if q is not None else None, x.name.lower()))
            continue
        stack.extend(iter_children(x))
    return out


def _rewrite(p, core, items, names, merges, copier):
    """``core`` with the items ``merges`` names (their number -> (inner core, _)) read as
    their tables, their WHERE clauses joined to its WHERE and its ``*`` written out
    (``copier``: a flatsubst.Copier when some have their columns copied, else None)."""
    if p.flat_names is None:
        p.flat_names = {}
    where = None
    retarget = {names[k].lower(): m[2][1] for k, m in merges.items() if m[2] is not None}
    out = []  # [(item, the Join bringing it or None, its ON clause)]
    for k, (it, join) in enumerate(items):
        on = join.on if join is not None else None
        if on is not None and retarget:
            on = _retargeted(on, retarget)
        if on is not None and copier is not None:
            on = copier.expr(on)
        m = merges.get(k)
        if m is None:
            out.append((it, join, on))
            continue
        body, _hidden, inner, _subst = m
        if inner is not None:  # its tables, the first brought by the item's join, whose
            # ON terms join the last one's (all inner joins: where they sit is no matter)
            tables = inner[0]
            ons = [_owned_qualified(j.on, inner) if j is not None and j.on is not None
                   else None for _t, j in tables]
            if on is not None:
                ons[-1] = on if ons[-1] is None else _and(ons[-1], on)
            out.append((tables[0][0], join, ons[0]))
            out += [(t, j, ons[i + 1]) for i, (t, j) in enumerate(tables[1:])]
            if body.where is not None:
                w = _owned_qualified(body.where, inner)
                where = w if where is None else _and(where, w)
            continue
        table = body.from_
        new = dataclasses.replace(table, alias=names[k])
        p.flat_names[id(new)] = p.flat_names.get(id(table), table.alias or table.name)
        if body.where is not None:
            w = _qualified(body.where, names[k])
            if join is not None and join.kind == "LEFT":  # (a term of its ON clause)
                on = w if on is None else _and(w, on)
            else:
                where = w if where is None else _and(where, w)
        out.append((new, join, on))
    from_ = out[0][0]
    for it, join, on in out[1:]:
        from_ = dataclasses.replace(join, left=from_, right=it, on=on)
    if core.where is not None:
        w = _retargeted(core.where, retarget) if retarget else core.where
        if copier is not None:
            w = copier.expr(w)
        where = w if where is None else _and(where, w)
    columns = core.columns
    if retarget:
        core = dataclasses.replace(core, columns=_retargeted(core.columns, retarget),
                                   group_by=_retargeted(core.group_by, retarget),
                                   having=_retargeted(core.having, retarget))
        columns = core.columns
    if copier is not None:
        core = dataclasses.replace(core, columns=[copier.result(rc) for rc in core.columns],
                                   group_by=copier.expr(core.group_by),
                                   having=copier.expr(core.having))
        columns = core.columns
    if any(type(rc) is Star for rc in columns):
        columns = []
        for rc in core.columns:
            if type(rc) is Star:
                columns += _star_columns(p, rc, names, merges, items, copier)
            else:
                columns.append(rc)
    features = core.features
    for body, _h, _i, _s in merges.values():
        features |= body.features
    if copier is not None and copier.wrapped:
        features |= FEAT_COLLATE
    return dataclasses.replace(core, columns=columns, from_=from_, where=where,
                               features=features)


def _star_columns(p, rc, names, merges, items, copier):
    """What the ``*`` or ``name.*`` ``rc`` stands for: a merged item's returned columns,
    qualified by its name (for ``*``, not those a USING clause of its join names; copies
    of its expressions when ``copier`` has them), or another item's ``name.*``."""
    out = []
    want = rc.table.lower() if rc.table is not None else None
    for k, name in enumerate(names):
        if want is not None and name.lower() != want:
            continue
        m = merges.get(k)
        if m is None:
            out.append(Star(name, rc.pos) if want is None else rc)
            continue
        if m[3] is not None:
            out += copier.star(name, m[3], p.schema.table(m[0].from_.name))
            continue
        qual = m[2][1] if m[2] is not None else None
        join = items[k][1]
        skip = {n.lower() for n in join.using} if want is None and join is not None \
            and join.using else ()
        out += [ResultColumn(Column(c.expr.name, qual[c.expr.name.lower()] if qual
                                    else name), None, c.expr.name)
                for c in m[0].columns if c.expr.name.lower() not in skip]
    return out if out else [rc]  # (no such item: the error is the Star's)


def _qualified(e, name):
    """``e`` (an inner WHERE: unqualified column names, no subquery) with each column
    name qualified by ``name``."""
    if type(e) is Column:
        return dataclasses.replace(e, table=name)
    return map_children(e, partial(_qualified, name=name))


def _owned_qualified(e, inner):
    """``e`` (an ON clause or WHERE of a merged join: see _owned) with each column name
    qualified by the table it reads."""
    if type(e) is Column:
        return dataclasses.replace(e, table=_owner(e, inner[2]))
    return map_children(e, partial(_owned_qualified, inner=inner))


def _retargeted(v, retarget):
    """``v`` (an expression, a list of them, or None) with each name qualified by a
    merged join's item name qualified by the table its column comes from
    (``retarget``: item name -> {column name: table name})."""
    if type(v) is list:
        return [_retargeted(x, retarget) for x in v]
    if v is None:
        return None
    if type(v) is Column:
        q = v.table.lower() if v.table is not None and v.schema is None else None
        qual = retarget.get(q) if q is not None else None
        if qual is not None and v.name.lower() in qual:
            return dataclasses.replace(v, table=qual[v.name.lower()])
        return v
    return map_children(v, partial(_retargeted, retarget=retarget))


def _and(a, b):
    from sqlengine.sql.ast import Binary
    return Binary("AND", a, b)
