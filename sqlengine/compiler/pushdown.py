"""The visible part of SQLite's push-down optimization (pushDownWhereTerms, 3.40) on a
FROM subquery's rowid.

SQLite copies a WHERE term that reads only one FROM subquery into that subquery (its WHERE,
or HAVING when it aggregates), replacing each column by the subquery's expression and the
subquery's rowid by NULL (substExpr). For terms on ordinary columns the copy changes no
answer, so sqlengine does not make it; but a term on the rowid of a subquery SQLite
materializes (whose rows read rowids 1, 2, ... outside) holds for NULL inside: ``s.rowid
= 2`` empties the subquery. ``rowid_filtered`` gives such a subquery the filter SQLite's
copy amounts to, as ``SELECT * FROM (subquery) AS s WHERE term`` with the rowid read as
NULL, so its rows are numbered after the filter as SQLite numbers them.

Covered: a ``(SELECT ...)`` FROM item or a view without a column list, WHERE terms (ON terms for the right of a LEFT
JOIN), terms whose columns are all qualified by the item's name, with no subquery, no
aggregate or window call and only deterministic functions; a subquery that is no compound
and has no LIMIT (with window functions: each with PARTITION BY, the term on the rowid
and on the columns that are PARTITION BY terms). This module only rewrites the AST; it never emits code.
"""

from __future__ import annotations

import dataclasses

from sqlengine.compiler.walk import expr_key, iter_children
from sqlengine.sql import ast as A

ROWID_NAMES = frozenset({"rowid", "oid", "_rowid_"})
_SUBQUERIES = (A.Subquery, A.Exists, A.InSelect, A.Select)


def and_terms(e):
    """The AND-separated terms of ``e`` (none for None)."""
    if e is None:
        return []
    if type(e) is A.Binary and e.op.upper() == "AND":
        return and_terms(e.left) + and_terms(e.right)
    return [e]


def _subquery_kind(sel):
    """How SQLite 3.40 pushes a term into ``sel``: None when it does not (a LIMIT, a
    compound other than UNION ALL, a window function without PARTITION BY), the set of
    the names of its columns that are a PARTITION BY term of every window when only a term
    reading no other column but the rowid goes in (restriction 6c: the copy must be
    constant over each partition, pushDownWindowCheck), else "plain"."""
    core = sel.body
    if sel.limit is not None:
        return None
    if type(core) is A.Compound:  # UNION ALL arms, none with a window function
        while type(core) is A.Compound:
            if core.op.upper() != "UNION ALL" or _windowed(core.right):
                return None
            core = core.left
        return None if _windowed(core) else "plain"
    if type(core) is not A.SelectCore:
        return None
    if not core.features & A.FEAT_WINDOW:
        return "plain"
    named = dict(core.windows or [])
    overs = []
    for rc in core.columns:
        stack = [rc]
        while stack:
            e = stack.pop()
            if type(e) is A.FunctionCall and e.over is not None:
                overs.append(named.get(e.over) if isinstance(e.over, str) else e.over)
            if not isinstance(e, _SUBQUERIES):
                stack.extend(iter_children(e))
    if not overs or any(w is None or not _partition(w, named) for w in overs):
        return None if overs else "plain"
    return _partition_columns(core, [_partition(w, named) for w in overs])


def _partition_columns(core, partitions):
    """The (lower-case) names of ``core``'s result columns whose expression is a term of
    each of the PARTITION BY lists ``partitions``."""
    def name_key(e):
        if type(e) is A.Column:
            return (e.name.lower(), (e.table or "").lower())
        return None
    keys = [{expr_key(x, name_key) for x in part} - {None} for part in partitions]
    out = set()
    for rc in core.columns:
        if type(rc) is not A.ResultColumn:
            continue
        name = rc.alias or (rc.expr.name if type(rc.expr) is A.Column else None)
        k = expr_key(rc.expr, name_key)
        if name is not None and k is not None and all(k in ks for ks in keys):
            out.add(name.lower())
    return frozenset(out)


def _windowed(core) -> bool:
    return type(core) is A.SelectCore and bool(core.features & A.FEAT_WINDOW)


def _partition(w, named):
    """The PARTITION BY list of window ``w`` (through the windows it is based on)."""
    while not w.partition_by and w.base is not None and w.base in named:
        w = named[w.base]
    return w.partition_by


def _term_reads_rowid(db, term, alias, allowed=None) -> bool:
    """Whether ``term`` reads ``alias``'s rowid and may be pushed: its columns all
    qualified by ``alias`` (the rowid or, when ``allowed`` is a set, among those names),
    no subquery, only deterministic scalar functions."""
    rowid = False
    stack = [term]
    while stack:
        e = stack.pop()
        t = type(e)
        if isinstance(e, _SUBQUERIES):
            return False
        if t is A.Column:
            if e.schema is not None or e.table is None or e.table.lower() != alias:
                return False
            if e.name.lower() in ROWID_NAMES:
                rowid = True
            elif allowed is not None and e.name.lower() not in allowed:
                return False
        elif t is A.FunctionCall:
            if e.over is not None or e.filter is not None:
                return False
            f = db.functions.reg.find(e.name, 0 if e.star else len(e.args))
            if f is None or f.kind != "scalar" or not f.deterministic:
                return False
        stack.extend(iter_children(e))
    return rowid


def _is_rowid(e, alias) -> bool:
    return (type(e) is A.Column and e.table is not None and e.table.lower() == alias
            and e.name.lower() in ROWID_NAMES)


def _null_rowid(e, alias, fold=True):
    """A copy of ``e`` with ``alias``'s rowid replaced by NULL, after SQLite's resolver
    has made ``rowid IS [NOT] NULL`` a constant (with ``fold``: a rowid is never NULL to
    it, except on the right of a LEFT JOIN)."""
    t = type(e)
    if _is_rowid(e, alias):
        return A.Literal(None)
    if not fold:
        pass
    elif t is A.IsNull and _is_rowid(e.expr, alias):
        return A.Literal(int(e.negated))
    elif (t is A.Binary and e.op.upper() in ("IS", "IS NOT") and _is_rowid(e.left, alias)
            and type(e.right) is A.Literal and e.right.value is None):
        return A.Literal(int(e.op.upper() == "IS NOT"))
    if not hasattr(t, "__dataclass_fields__") or isinstance(e, _SUBQUERIES):
        return e
    changes = {}
    for name in t.__dataclass_fields__:
        v = getattr(e, name)
        if type(v) is list:
            nv = [tuple(_null_rowid(y, alias, fold) for y in x) if type(x) is tuple
                  else _null_rowid(x, alias, fold) for x in v]
        elif hasattr(type(v), "__dataclass_fields__"):
            nv = _null_rowid(v, alias, fold)
        else:
            continue
        changes[name] = nv
    return dataclasses.replace(e, **changes)


def rowid_filtered(db, sel, alias, terms, right_of_left=False):
    """The SELECT of a FROM subquery or view named ``alias`` with the filter SQLite's
    push-down of ``terms`` puts into it, or None when no term reads its rowid."""
    kind = _subquery_kind(sel)
    if alias is None or kind is None:
        return None
    key = alias.lower()
    allowed = None if kind == "plain" else kind
    pushed = [_null_rowid(t, key, not right_of_left) for t in terms
              if _term_reads_rowid(db, t, key, allowed)]
    if not pushed:
        return None
    where = pushed[0]
    for t in pushed[1:]:
        where = A.Binary("AND", where, t)
    core = A.SelectCore([A.Star()], from_=A.SubqueryRef(sel, alias), where=where)
    return A.Select(core)
