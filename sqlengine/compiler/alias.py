"""Result-column aliases: which clauses see a SELECT's AS names (SQLite's resolveAlias).

SQLite resolves a bare name by searching, from the innermost query outwards, each query's
FROM columns (then its rowid) and after them, when the clause being resolved in that
query allows it, that query's result aliases:

- WHERE (ON clauses included), GROUP BY, HAVING and ORDER BY see the aliases, and so do
  the subqueries inside those clauses; the result columns do not, nor do the subqueries
  inside them (``select 1 as x, x`` is ``no such column: x``);
- a FROM column of the same name wins, except for a bare ORDER BY name, which
  ``select._resolve_order_by`` matches with an alias first (resolveAsName);
- GROUP BY and ORDER BY do not see enclosing queries (neither their columns nor their
  aliases); LIMIT and OFFSET see no names at all;
- an alias of a window call is refused everywhere but in this query's ORDER BY
  (``misuse of aliased window function x``), a row value's anywhere (``row value
  misused``).

``Aliases.clause`` (compiled, compiler/_alias.pyx) rewrites one clause expression (copy on
write): a name that is this query's alias becomes the aliased expression itself (so it
plans and codes as if written there: affinity, collation, index use); a name that is an
enclosing query's alias becomes an ``OuterAlias``, which codes that expression in the
enclosing query's scope, a correlated reference. Which enclosing queries a subquery sees
is decided where it sits: the rewrite of a clause that sees the aliases marks the
subqueries met in it (``Parse.alias_links``), and the Scope of such a subquery gets
``alias_outer`` set.

This module rewrites expressions only; it never emits code.
"""

from __future__ import annotations

from sqlengine.compiler._alias import Aliases  # noqa: F401  (compiled; re-exported)
from sqlengine.compiler._resolve import result_aliases, rewrite_columns  # noqa: F401  (both used outside)
from sqlengine.compiler.aggscope import answers, local_names
from sqlengine.compiler.walk import operands
from sqlengine.errors import OperationalError
from sqlengine.sql.ast import (
    Collate, Column, Compound, Exists, FunctionCall, InSelect, ResultColumn, SelectCore,
    Subquery)

_SUBQUERIES = (Subquery, Exists, InSelect)


def link_subquery_scope(p, scope, core):
    """Set ``scope.alias_outer`` for the Scope of ``core`` when the core sits in a clause
    of its enclosing query that sees that query's aliases."""
    links = p.alias_links
    if links:
        hit = links.get(id(core))
        if hit is not None and hit[0] is scope.outer:
            scope.alias_outer = True


def share_link(p, core, new_core):
    """``new_core`` (a rewrite of ``core``, compiled in its place) sees what it sees."""
    links = p.alias_links
    if links:
        hit = links.get(id(core))
        if hit is not None:
            links[id(new_core)] = (hit[0], new_core)


def sees_outer_aliases(scope) -> bool:
    """Whether lookups from ``scope`` see aliases of an enclosing query."""
    s = scope
    while s.outer is not None:
        if s.alias_outer and s.outer.aliases:
            return True
        s = s.outer
    return False


def check_local_terms(p, scope, order_by, group_by):
    """A subquery's ORDER BY and GROUP BY terms see no enclosing query (SQLite resolves
    them with its ``sNC.pNext`` cleared), nor do the subqueries inside them: a column of
    one is ``no such column``. A bare result alias (ORDER BY) and an ordinal name no
    column."""
    aliases = scope.aliases
    for e in [t.expr for t in order_by or ()] + list(group_by or ()):
        x = e
        while type(x) is Collate:
            x = x.expr
        if type(x) is Column and x.table is None and x.name.lower() in aliases:
            continue
        _check_local(p, scope, x, ())


def _check_local(p, scope, e, levels):
    """Raise ``no such column`` for a column of ``e`` that no query from ``scope`` in
    answers but an enclosing one does; ``levels``: the FROM names of the subqueries
    between (aggscope.local_names), a column one of them answers is theirs."""
    stack = [e]
    while stack:
        x = stack.pop()
        t = type(x)
        if t is Column:
            if any(answers(lv, x) for lv in levels):
                continue
            ref = scope.lookup(x.name, x.table)
            if ref is not None and ref.depth > 0:
                shown = x.name if x.table is None else f"{x.table}.{x.name}"
                raise OperationalError(f"no such column: {shown}")
        elif t is FunctionCall and x.over is not None and not levels:
            continue  # (a window's own clauses resolve with the query's names)
        elif t in _SUBQUERIES:
            if t is InSelect:
                stack.append(x.expr)
            _check_local_select(p, scope, x.select, levels)
        else:
            stack.extend(c for c in operands(x) if c is not None)


def _check_local_select(p, scope, sel, levels):
    """``_check_local`` over the cores of a subquery met in such a term, where their FROM
    clauses are plain tables (any other kind may answer a name: left to the coder)."""
    if sel.with_ is not None:
        return
    cores = []
    stack = [sel.body]
    while stack:
        body = stack.pop()
        if type(body) is Compound:
            stack += [body.left, body.right]
        elif type(body) is SelectCore:
            cores.append(body)
        else:
            return
    for core in cores:
        names = local_names(p, core.from_)
        if names is None:
            continue
        inner = levels + (names,)
        parts = [rc.expr for rc in core.columns if type(rc) is ResultColumn]
        parts += [x for x in (core.where, core.having) if x is not None]
        parts += list(core.group_by or ())
        for x in parts:
            _check_local(p, scope, x, inner)
    names = local_names(p, cores[0].from_) if len(cores) == 1 else None
    if names is not None:
        for o in sel.order_by or ():
            _check_local(p, scope, o.expr, levels + (names,))
