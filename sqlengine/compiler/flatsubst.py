"""Expression columns for compiler/flatjoin.py (and compiler/flatten.py's lone item,
``lone_copies``): a view or FROM subquery in a join whose result columns are
expressions of its table (or its columns under other names)

    SELECT <outer> FROM a JOIN (SELECT b || 'z' AS bz, a + 1 AS c FROM tab WHERE <w>) AS x ...

is merged as ``tab AS x`` with each outer reference to one of its columns replaced by a
copy of that column's expression, its names qualified by ``x`` (SQLite's substExpr), so
``x.c = u.e`` becomes ``x.a + 1 = u.e``.

A copy is what the subquery's column was only where the outer query cannot tell them
apart, so this module says when the rewrite applies (flatjoin.py's own conditions hold
too):

- the inner core's result columns are expressions of its table's columns (names
  unqualified or qualified by its table's name or alias) with distinct names (none a
  rowid's nor TRUE/FALSE), without subqueries, parameters, aggregate or window calls
  (a function that is not deterministic is called at each use of a copy, as in SQLite),
  and none a function call when the statement may make JSON (SQLite's copy of a call
  clears its JSON subtype: compiler/subtype.py);
- on the right of a LEFT JOIN, each expression is NULL when its table's columns are (on
  the row padding an unmatched one), or is guarded as SQLite's IF_NULL_ROW guards it
  (null_row_guard: a CASE on the table's rowid), which an expression with an affinity
  cannot be (a CASE has none);
- the outer query has no subquery and no USING join, and writes an unqualified name of
  the item's columns only where no other item has that name (its ORDER BY's copies are
  made too, except in a bare term naming a result alias, which stays that alias), nor a
  name given to a result column as an alias (a copy of a renamed column).

A copy keeps the collation the subquery's column had as SQLite's substExpr keeps it: one
that is not a plain column is wrapped in an implicit COLLATE (``Collate.implicit``) of
the expression's collation, BINARY when it has none, and a COLLATE clause copied becomes
implicit. Such a COLLATE gives the copy a collation where its own is asked for (one side
of a comparison, an ORDER BY, GROUP BY or DISTINCT term, a compound's result column) as
a column's, and no precedence over the other side's as an explicit one would have.

Types and affinities need no care: a column of a subquery has its expression's affinity,
which is the copy's. This module rewrites ASTs only.
"""

from __future__ import annotations

import dataclasses
from functools import partial

from sqlengine.compiler._resolve import EARLY_NAMES, collate_operands, has_explicit_collate
from sqlengine.compiler.subtype import _is_call, _may_carry_json
from sqlengine.compiler.truefalse import WORDS
from sqlengine.compiler.walk import SUBQUERY_NODES, iter_children, map_children
from sqlengine.sql.ast import (FEAT_COLLATE, FEAT_WINDOW, Binary, Case, Cast, Collate, Column,
                               Compound, FunctionCall, InTable, IsNull, Join, Literal, Param,
                               Raise, ResultColumn, SelectCore, Star, SubqueryRef, TableRef,
                               Unary)
from sqlengine.vdbe.functions import BUILTINS

_SUBQUERIES = SUBQUERY_NODES + (InTable,)
_ROWID_NAMES = frozenset(("rowid", "oid", "_rowid_"))
# built-in functions whose result is NULL when an argument is
_NULL_CALLS = frozenset(("abs", "length", "lower", "upper", "unicode", "sign", "trim", "ltrim",
                         "rtrim", "substr", "substring", "instr", "replace", "round",
                         "likely", "unlikely"))
# operators whose result is NULL when an operand is
_STRICT = frozenset(("=", "==", "!=", "<>", "<", "<=", ">", ">=", "+", "-", "*", "/", "%",
                     "||", "&", "|", "<<", ">>"))
_UNLIKELY = frozenset(("likely", "unlikely", "likelihood"))  # (_resolve._named_part)


def expr_columns(p, body):
    """{lower-case name: (expression, name)} of the result columns of ``body`` (a core
    over one table of the schema, with no DISTINCT, GROUP BY, HAVING or window, not
    all of them plain columns under their own names) when they can be copied into an
    outer query, else None."""
    if body.distinct or body.group_by or body.having is not None or body.windows:
        return None
    table = body.from_
    if type(table) is not TableRef or table.schema is not None or getattr(p, "ctes", None):
        return None
    t = p.schema.table(table.name)
    if t is None:
        return None
    columns = {c.name.lower() for c in t.columns}
    own = (table.alias or table.name).lower()
    out = {}
    for rc in body.columns:
        if type(rc) is not ResultColumn:
            return None
        e = x = rc.expr
        if has_explicit_collate(e):  # (its collation looked up: select.check_collations)
            p.collation(_first_collate(e).collation)
        while type(x) is Collate:  # (named by the column under COLLATE: _resolve._named_part)
            x = x.expr
        name = rc.alias or (x.name if type(x) is Column else rc.text)
        key = name.lower()
        if not name or key in out or key in _ROWID_NAMES or key in WORDS:
            return None
        if not _copyable(p, e, own, columns) or _is_call(e) and _may_carry_json(p):
            return None  # (SQLite clears the JSON subtype of a call it copies)
        if rc.alias is None and type(x) is FunctionCall and x.name.lower() in _UNLIKELY:
            return None  # (a view names it by its argument, a subquery by its text)
        out[key] = (e, name)
    if body.where is not None and not _copyable(p, body.where, own, columns):
        return None
    return out


def _first_collate(e):
    """The COLLATE clause that names ``e``'s collation (sqlite3ExprCollSeq: the left-most,
    outside subqueries); ``e`` holds one (has_explicit_collate)."""
    stack = [e]
    while stack:
        x = stack.pop()
        if type(x) is Collate:
            return x
        if not isinstance(x, _SUBQUERIES):
            stack.extend(reversed(list(iter_children(x))))
    return None


def _copyable(p, e, own, columns) -> bool:
    """``e`` reads only columns of its table (qualified by ``own`` or not) and holds
    nothing a copy would change: no subquery, parameter, RAISE, aggregate or window
    call, or unknown function (a function that is not deterministic is called
    at each use of a copy, as in SQLite: ``x.r = x.r`` is false for ``random() AS r``)."""
    reg = p.db.functions.reg
    stack = [e]
    while stack:
        x = stack.pop()
        t = type(x)
        if isinstance(x, _SUBQUERIES) or t is Param or t is Raise:
            return False
        if t is Column:
            if x.schema is not None or x.table is not None and x.table.lower() != own \
                    or x.name.lower() not in columns:
                return False
            continue
        if t is FunctionCall:
            if x.over is not None or x.filter is not None or x.distinct or x.order_by:
                return False
            f = reg.find(x.name, 0 if x.star else len(x.args))
            if f is None or f.kind != "scalar":
                return False
        stack.extend(iter_children(x))
    return True


def null_strict(p, e) -> bool:
    """Whether ``e`` is NULL when every column it reads is NULL."""
    t = type(e)
    if t is Column:
        return True
    if t is Binary:
        return e.op.upper() in _STRICT and (null_strict(p, e.left) or null_strict(p, e.right))
    if t is Unary:
        return e.op.upper() in ("-", "+", "~", "NOT") and null_strict(p, e.operand)
    if t is Cast or t is Collate:
        return null_strict(p, e.expr)
    if t is FunctionCall and e.name.lower() in _NULL_CALLS and e.args and not e.star:
        n = len(e.args)  # (the built-in function, not one the application put in its place)
        return p.db.functions.reg.find(e.name, n) is BUILTINS.find(e.name, n) and any(
            null_strict(p, a) for a in e.args)
    return False


def null_row_guard(p, body, subst):
    """How the copies of ``subst`` (the expr_columns of the core ``body``) on the right of
    a LEFT JOIN are kept NULL on the row padding an unmatched one: "" when each is NULL
    there anyway, else the rowid name (of ``body``'s table) that guards the others as
    ``CASE WHEN <item>.<rowid> IS NULL THEN NULL ELSE <copy> END`` (SQLite's IF_NULL_ROW),
    or None when one cannot be guarded so: it has an affinity (a column or CAST under its
    COLLATE, which a CASE would lose), or the table has no rowid or no free name for it."""
    guarded = [e for e, _n in subst.values() if not null_strict(p, e)]
    if not guarded:
        return ""
    for e in guarded:
        while type(e) is Collate:
            e = e.expr
        if type(e) is Column or type(e) is Cast:
            return None
    t = p.schema.table(body.from_.name)
    if t.without_rowid:
        return None
    return next((r for r in ("rowid", "_rowid_", "oid") if r not in t.col_index), None)


def outer_allows(p, core, order_by, items, names, merges, holds_subquery, outer_names):
    """Whether the outer query lets the items of ``merges`` with copied columns be
    merged (see the module docstring; the checks that need the rewritten query are
    ``rewritten_ok``'s)."""
    if any(j is not None and j.using for _it, j in items) or holds_subquery(core):
        return False
    used = {n for q, n in outer_names(core, None) if q is None}
    for o in order_by or ():
        if bare_alias(core, o.expr):
            continue
        stack = [o.expr]
        while stack:
            x = stack.pop()
            if isinstance(x, _SUBQUERIES):
                return False
            if type(x) is Column:
                if x.table is None and x.schema is None:
                    used.add(x.name.lower())
                continue
            stack.extend(iter_children(x))
    for k, m in merges.items():
        if m[3] is None:
            continue
        mine = used.intersection(m[3])
        if not mine:
            continue
        for j, (it, _join) in enumerate(items):
            if j == k:
                continue
            theirs = _item_names(p, it, merges.get(j))
            if theirs is None or not theirs.isdisjoint(mine):
                return False  # (ambiguous there, or perhaps)
    return True


def bare_alias(core, e) -> bool:
    """Whether the ORDER BY term ``e`` is a bare name of a result alias of ``core`` (it
    names that result column, not a column of the FROM clause)."""
    if type(e) is not Column or e.table is not None:
        return False
    n = e.name.lower()
    return any(type(rc) is ResultColumn and rc.alias is not None and rc.alias.lower() == n
               for rc in core.columns)


def _alias_position(core, name):
    """The number (from 1) of the first result column of ``core`` aliased ``name``, as an
    ORDER BY term of that bare name resolves (SQLite's resolveAsName), or None when a
    ``*`` comes first (its width is not known here)."""
    n = name.lower()
    for k, rc in enumerate(core.columns, 1):
        if type(rc) is not ResultColumn:
            return None
        if rc.alias is not None and rc.alias.lower() == n:
            return k
    return None


def _item_names(p, it, m):
    """The lower-case column names FROM item ``it`` (merged as ``m``) shows, or None
    when unknown."""
    if m is not None:
        if m[3] is not None:
            return set(m[3])
        if m[2] is not None:
            return set(m[2][1])
        return {rc.expr.name.lower() for rc in m[0].columns}
    if type(it) is TableRef:
        if it.schema is not None:
            return None
        t = p.schema.table(it.name)
        if t is not None:
            return {c.name.lower() for c in t.columns}
        view = p.schema.views.get(it.name.lower())
        if view is None:
            return None
        if view.columns:
            return {c.lower() for c in view.columns}
        return _select_names(view.select)
    if type(it) is SubqueryRef:
        return _select_names(it.select)
    return None


def _select_names(sel):
    body = sel.body
    while type(body) is Compound:
        body = body.left
    if type(body) is not SelectCore:
        return None
    out = set()
    for rc in body.columns:
        if type(rc) is not ResultColumn:
            return None
        e = rc.expr
        out.add((rc.alias or (e.name if type(e) is Column else rc.text)).lower())
    return out


class Copier:
    """Replaces the outer query's references to the copied columns of merged items
    (``subst``: visible item name -> its expr_columns), remembering the names given to
    result columns as aliases and whether a copy was wrapped in an implicit COLLATE
    (``wrapped``: the rewritten core then holds a COLLATE, FEAT_COLLATE)."""

    def __init__(self, p, items, names, merges, guards=None):
        self.p = p
        # lower-case item name -> the rowid name guarding its copies (null_row_guard)
        self.guards = {names[k].lower(): r for k, r in (guards or {}).items() if r}
        self.by_name = {}  # lower-case item name -> (item name, columns, table)
        self.unq = {}  # lower-case column name -> (item name, columns) (None: two)
        for k, m in merges.items():
            if m[3] is None:
                continue
            table = p.schema.table(m[0].from_.name)
            self.by_name[names[k].lower()] = (names[k], m[3], table)
            for n in m[3]:
                self.unq[n] = None if n in self.unq else names[k].lower()
        self.aliases = set()
        self.wrapped = False

    def _copy(self, x):
        """The copy for the Column ``x``, else None."""
        if x.schema is not None:
            return None
        if x.table is not None:
            hit = self.by_name.get(x.table.lower())
        else:
            q = self.unq.get(x.name.lower())
            hit = self.by_name.get(q) if q is not None else None
        if hit is None or x.name.lower() not in hit[1]:
            return None
        return self._fresh_copy(hit[1][x.name.lower()][0], hit[0], hit[2])

    def expr(self, e):
        if e is None:
            return None
        if type(e) is list:
            return [self.expr(x) for x in e]
        if type(e) is Column:
            c = self._copy(e)
            return e if c is None else c
        return map_children(e, self.expr)

    def order_by(self, core, order_by):
        """``order_by`` of the original ``core`` with its copies in it."""
        if not order_by:
            return order_by
        out = []
        for o in order_by:
            if not bare_alias(core, o.expr):
                out.append(dataclasses.replace(o, expr=self.expr(o.expr)))
                continue
            k = _alias_position(core, o.expr.name)  # (a copy named as the alias is may
            # come before it: its number still means the column the alias names)
            out.append(o if k is None else dataclasses.replace(o, expr=Literal(k)))
        return out

    def result(self, rc):
        """The result column ``rc`` with its copies in it, named as it was."""
        if type(rc) is not ResultColumn:
            return rc
        e = rc.expr
        if type(e) is not Column or rc.alias is not None:
            return ResultColumn(self.expr(e), rc.alias, rc.text)
        c = self._copy(e)
        if c is None:
            return rc
        hit = self.by_name[(e.table or self.unq[e.name.lower()]).lower()]
        name = e.name if self.p.naming == EARLY_NAMES else hit[1][e.name.lower()][1]
        return self._named(c, name, hit[2])

    def star(self, k_name, columns, table):
        """The result columns a ``*`` or ``x.*`` shows of a merged item's copies."""
        return [self._named(self._copy_of(k_name, key), name, table)
                for key, (_e, name) in columns.items()]

    def _copy_of(self, k_name, key):
        hit = self.by_name[k_name.lower()]
        return self._fresh_copy(hit[1][key][0], k_name, hit[2])

    def _fresh_copy(self, inner, name, table):
        """A fresh copy of the inner expression ``inner`` (over ``table``) qualified by
        ``name``, with the collation the subquery's column had, as SQLite's substExpr
        makes it: a column as it is, a COLLATE made implicit, anything else under an
        implicit COLLATE of ``inner``'s collation (BINARY when it has none)."""
        e = _fresh(inner, name)
        t = type(e)
        if t is Column:
            return e
        self.wrapped = True
        rowid = self.guards.get(name.lower()) if self.guards else None
        if rowid and not null_strict(self.p, inner):  # (SQLite's IF_NULL_ROW)
            e = Case(None, [(IsNull(Column(rowid, name)), Literal(None))], e)
        elif t is Collate:
            return dataclasses.replace(e, implicit=True)
        return Collate(e, _collation(inner, table) or "BINARY", implicit=True)

    def _named(self, c, name, table):
        if type(c) is Column:  # (named by the table's column unless given an alias)
            i = table.col_index.get(c.name.lower(), -1)
            declared = table.columns[i].name if i >= 0 else c.name
            if c.name == name and declared == name:
                return ResultColumn(c, None, name)
            self.aliases.add(name.lower())
            return ResultColumn(c, name, name)
        return ResultColumn(c, None, name)


def _fresh(e, name):
    """A new copy of every node of ``e`` (an inner expression), its column names
    qualified by ``name``."""
    if type(e) is Column:
        return dataclasses.replace(e, table=name)
    return dataclasses.replace(map_children(e, partial(_fresh, name=name)))


def _collation(e, table):
    """sqlite3ExprCollSeq of the inner expression ``e`` (its columns ``table``'s): the
    name of its collation, or None (BINARY, or none)."""
    while True:
        t = type(e)
        if t is Column:
            i = table.col_index.get(e.name.lower(), -1)
            return table.columns[i].collation if i >= 0 else None
        if t is Collate:
            return e.collation
        if t is Cast:
            e = e.expr
        elif t is Unary and e.op == "+":
            e = e.operand
        elif not has_explicit_collate(e):
            return None
        else:  # (SQLite's EP_Collate walk: the left operand first)
            left, rest = collate_operands(e)
            e = left if left is not None and has_explicit_collate(left) else next(
                (x for x in rest if x is not None and has_explicit_collate(x)), None)
            if e is None:
                return None


def rewritten_ok(core, order_by, aliases) -> bool:
    """Whether the rewritten ``core`` and ``order_by`` write no name of ``aliases`` (the
    names Copier gave result columns as aliases) unqualified: it would now match that
    alias."""
    if not aliases:
        return True
    parts = list(iter_children(core)) + [o.expr for o in order_by or ()]
    f = core.from_
    while type(f) is Join:
        if f.on is not None:
            parts.append(f.on)
        f = f.left
    stack = parts
    while stack:
        x = stack.pop()
        if type(x) is Column:
            if x.table is None and x.name.lower() in aliases:
                return False
            continue
        if type(x) is not ResultColumn:  # (the aliases themselves)
            stack.extend(iter_children(x))
        else:
            stack.append(x.expr)
    return True


def lone_copies(p, core, order_by, body, visible):
    """(``core``, ``order_by``) with its one FROM item, a view or subquery over the core
    ``body`` (named ``visible``, or None), merged by copies of its expression columns
    (compiler/flatten.py's case, with expressions), or None when that does not apply:
    besides ``expr_columns``' and ``rewritten_ok``'s conditions, the outer query has no
    subquery, window or column list, writes no other item's name and no column of the
    table the item does not return (a rowid included), as flatten.py requires."""
    subst = expr_columns(p, body)
    if subst is None or core.alias_columns is not None or core.windows or \
            core.features & FEAT_WINDOW:
        return None
    table = body.from_
    t = p.schema.table(table.name)
    if any(c.name.lower() in WORDS for c in t.columns):
        return None
    vis = visible.lower() if visible else None
    hidden = ({c.name.lower() for c in t.columns} | _ROWID_NAMES) - set(subst)
    stack = [x for x in iter_children(core) if x is not core.from_]
    stack += [o.expr for o in order_by or () if not bare_alias(core, o.expr)]
    while stack:
        x = stack.pop()
        tx = type(x)
        if isinstance(x, _SUBQUERIES):
            return None
        if tx is Star:
            if x.table is not None and x.table.lower() != vis:
                return None
            continue
        if tx is Column:
            n = x.name.lower()
            if x.schema is not None or x.table is not None and (
                    x.table.lower() != vis or n not in subst) or x.table is None and n in hidden:
                return None
            continue
        stack.extend(iter_children(x))
    name = visible or table.alias or table.name
    items, names = [(core.from_, None)], [name]
    merges = {0: (body, hidden, None, subst)}
    copier = Copier(p, items, names, merges)
    where = copier.expr(core.where)
    if body.where is not None:
        inner = _fresh(body.where, name)
        where = inner if where is None else Binary("AND", inner, where)
    columns = []
    for rc in core.columns:
        if type(rc) is Star:
            columns += copier.star(name, subst, t)
        else:
            columns.append(copier.result(rc))
    item = dataclasses.replace(table, alias=visible or table.alias)
    if p.flat_names is None:
        p.flat_names = {}
    p.flat_names[id(item)] = p.flat_names.get(id(table), table.alias or table.name)
    out = dataclasses.replace(core, columns=columns, from_=item, where=where,
                              group_by=copier.expr(core.group_by),
                              having=copier.expr(core.having),
                              features=core.features | body.features | (
                                  FEAT_COLLATE if copier.wrapped else 0))
    ob = copier.order_by(core, order_by)
    if not rewritten_ok(out, ob, copier.aliases):
        return None
    return out, ob

