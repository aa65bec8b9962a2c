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
  the table's name or alias); a subquery without an alias is merged under the name
  ``(subquery-N)``, or the join left as it is (when it cannot be merged, or the query
  writes that name);
- on the right of a LEFT JOIN, the outer query is not DISTINCT (SQLite's restriction:
  its WHERE then joins the ON clause, and its columns read NULL on the row that pads an
  unmatched one, as the subquery's did); the join has no RIGHT or FULL JOIN, no NATURAL
  or USING, no nested join,
  no table-valued function, and every item a distinct visible name (so ``*`` can be
  written as the items' ``name.*`` and the merged items' columns);
- nothing in the outer query (its subqueries and ON clauses included) names a column of
  the table the item does not return, nor a rowid, unqualified or qualified by the item's
  name: the table's other columns are visible once it is merged, and must not capture a
  name; the table has no column named TRUE or FALSE; the outer query has no window
  function (SQLite does not flatten into one) and no CTE is in scope.

Each merged column is the table's column itself, so its affinity, collation, declared
type and name are those the materialized subquery had. This module rewrites ASTs only.
"""

from __future__ import annotations

import dataclasses
from functools import partial

from sqlengine.compiler.flatten import (_exported, _rebound, _star_listed, flatten_from)
from sqlengine.compiler.truefalse import WORDS
from sqlengine.compiler.walk import iter_children, map_children
from sqlengine.sql.ast import Column, Join, ResultColumn, SelectCore, Star, SubqueryRef, TableRef

_ROWID_NAMES = ("rowid", "oid", "_rowid_")
_INNER = ("INNER", ",", "CROSS")


def flatten_join(p, core, order_by):
    """``core`` (whose FROM clause is a Join with a view or subquery item: the compiled
    select._joins_subquery tells) with each such item that can be merged read as its
    table, or ``core`` itself when none can."""
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
        if join is not None and (join.natural or join.using or join.kind not in _INNER
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
    for k, (it, join) in enumerate(items):
        if join is not None and join.kind == "LEFT" and core.distinct:
            continue
        m = _mergeable(p, it)
        if m is not None:
            merges[k] = m
    if not merges:
        return core
    used = _outer_names(core, order_by)
    for k in list(merges):
        body, hidden = merges[k]
        vis = names[k].lower()
        if any((n is None or n in hidden) and (q is None or q == vis) for q, n in used):
            del merges[k]
    for k, (it, _join) in enumerate(items):  # an unnamed item: merged, and its name unused
        if type(it) is SubqueryRef and it.alias is None and (
                k not in merges or any(q == names[k] for q, _n in used)):
            return core
    if not merges:
        return core
    return _rewrite(p, core, items, names, merges)


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
    body = _star_listed(p, flatten_from(p, sel.body, None, views))  # (a view of a view ...)
    exported = _exported(p, body, True)
    if exported is None:
        return None
    table = body.from_
    if view is not None and p.db.attached and _rebound(p, view, table.name):
        return None
    t = p.schema.table(table.name)
    declared = {c.name.lower(): c.name for c in t.columns}
    for rc in body.columns:  # (a name spelled otherwise names a column differently)
        if declared[rc.expr.name.lower()] != rc.expr.name:
            return None
    if any(w in declared for w in WORDS):
        return None
    hidden = (set(declared) | set(_ROWID_NAMES)) - exported
    return body, hidden


def _outer_names(core, order_by):
    """{(lower-case qualifier or None, lower-case name)} of the column names anywhere in
    ``core`` (subqueries and ON clauses included) and ``order_by``, except in the bodies
    of its FROM subqueries (which see no sibling item); a schema-qualified one's name is
    None."""
    out = set()
    stack = [o.expr for o in order_by or ()]
    stack += list(iter_children(core))
    while stack:
        x = stack.pop()
        t = type(x)
        if t is SubqueryRef:
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


def _rewrite(p, core, items, names, merges):
    """``core`` with the items ``merges`` names (their number -> (inner core, _)) read as
    their tables, their WHERE clauses joined to its WHERE and its ``*`` written out."""
    if p.flat_names is None:
        p.flat_names = {}
    where = None
    new_items = []
    ons = [j.on if j is not None else None for _it, j in items]
    for k, (it, join) in enumerate(items):
        m = merges.get(k)
        if m is None:
            new_items.append(it)
            continue
        body = m[0]
        table = body.from_
        new = dataclasses.replace(table, alias=names[k])
        p.flat_names[id(new)] = p.flat_names.get(id(table), table.alias or table.name)
        new_items.append(new)
        if body.where is not None:
            w = _qualified(body.where, names[k])
            if join is not None and join.kind == "LEFT":  # (a term of its ON clause)
                ons[k] = w if ons[k] is None else _and(w, ons[k])
            else:
                where = w if where is None else _and(where, w)
    from_ = new_items[0]
    for k in range(1, len(items)):
        from_ = dataclasses.replace(items[k][1], left=from_, right=new_items[k], on=ons[k])
    if core.where is not None:
        where = core.where if where is None else _and(where, core.where)
    columns = core.columns
    if any(type(rc) is Star for rc in columns):
        columns = []
        for rc in core.columns:
            if type(rc) is Star:
                columns += _star_columns(rc, names, merges)
            else:
                columns.append(rc)
    features = core.features
    for body, _h in merges.values():
        features |= body.features
    return dataclasses.replace(core, columns=columns, from_=from_, where=where,
                               features=features)


def _star_columns(rc, names, merges):
    """What the ``*`` or ``name.*`` ``rc`` stands for: a merged item's returned columns,
    qualified by its name, or another item's ``name.*``."""
    out = []
    want = rc.table.lower() if rc.table is not None else None
    for k, name in enumerate(names):
        if want is not None and name.lower() != want:
            continue
        m = merges.get(k)
        if m is None:
            out.append(Star(name, rc.pos) if want is None else rc)
        else:
            out += [ResultColumn(Column(c.expr.name, name), None, c.expr.name)
                    for c in m[0].columns]
    return out if out else [rc]  # (no such item: the error is the Star's)


def _qualified(e, name):
    """``e`` (an inner WHERE: unqualified column names, no subquery) with each column
    name qualified by ``name``."""
    if type(e) is Column:
        return dataclasses.replace(e, table=name)
    return map_children(e, partial(_qualified, name=name))


def _and(a, b):
    from sqlengine.sql.ast import Binary
    return Binary("AND", a, b)
