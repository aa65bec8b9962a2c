"""Which query an aggregate call belongs to (SQLite's resolve.c, the TK_AGG_FUNCTION loop
over sqlite3ReferencesSrcList, and select.c's analyzeAggregate at ``op2`` depth).

SQLite attaches an aggregate call to the innermost query one of whose FROM items a column
of its arguments (or FILTER) names; a call that names no column at all (``count(*)``) is
the query's it is written in. So in ``select (select count(t.a) from u) from t`` the
count is the outer query's: it makes that query an aggregate one (one row, the count of
t's rows), and the subquery reads the finished value, like a column of the outer row.

The enclosing query learns of such calls before it codes its loop: ``attach`` compiles,
into a throw-away program, the subqueries of its result columns and HAVING (and of its
ORDER BY when it is an aggregate query already: SQLite's aggregate analysis walks those
three), with the query's Scope collecting what they hand up (``OuterAggs``). The
subquery's own compile leaves these calls out of its aggregates (``own``); when the call
is coded (``expr``'s function coder asks ``outer_register``), it reads the register the
home query's output phase holds for it. Coded where that query does not compute it (a
subquery of its WHERE, GROUP BY or ON clauses, or the query is no aggregate one), it is
SQLite's ``misuse of aggregate: f()``.

This module decides and hands over registers; it emits no code of its own.
"""

from __future__ import annotations

from sqlengine.compiler.cte import find_cte
from sqlengine.compiler.resolve import ROWID_NAMES, OuterAlias, ResolvedColumn
from sqlengine.compiler.walk import iter_children, operands
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A

_SUBQUERIES = (A.Subquery, A.Exists, A.InSelect)
_SUBQUERY, _EXISTS, _IN_SELECT = _SUBQUERIES  # (tested by identity: attach)

PROBED = object()  # ``outer_register``: the call was handed up to a collecting query


class OuterAggs:
    """The aggregate calls that subqueries hand up to one query (its Scope's
    ``agg_context``): collected while ``attach`` compiles them, then kept so that a call
    rebuilt by a later rewrite (same source position and name) still finds its register."""

    __slots__ = ("calls", "by_pos", "collecting")

    def __init__(self):
        self.calls = []
        self.by_pos = {}
        self.collecting = True

    def add(self, call):
        if all(c is not call for c in self.calls):
            self.calls.append(call)
            if call.pos >= 0:
                self.by_pos.setdefault((call.pos, call.name.lower()), call)


class FromLink(list):
    """The ``corr`` flag of a FROM subquery compiled with the name context around the query
    that holds it (select._materialize): its Scope's ``outer`` skips that query. SQLite
    counts an aggregate's depth in name contexts but collects it by SELECT nesting, so a
    call that belongs further out than such a subquery is never collected: "misuse of
    aggregate"."""

    __slots__ = ()


def home_depth(scope, call) -> int:
    """How many queries out from ``scope`` the aggregate ``call`` belongs: the least depth
    of the columns its arguments and FILTER read (0 when they read none, or a name that
    does not resolve: coding it raises the error)."""
    exprs = list(call.args)
    if call.filter is not None:
        exprs.append(call.filter)
    return max(_least_depth(scope, exprs), 0)


def _least_depth(scope, exprs) -> int:
    """The least depth, from ``scope``, of the columns ``exprs`` read outside subqueries
    (an enclosing query's alias: those of its expression); -1 when they read none."""
    best = -1
    stack = list(exprs)
    while stack:
        e = stack.pop()
        t = type(e)
        if t is A.Column:
            try:
                ref = scope.lookup(e.name, e.table)
            except OperationalError:
                return 0
            if ref is None:
                return 0
            if _in_registers(ref):
                continue
            d = ref.depth
        elif t is ResolvedColumn:
            if _in_registers(e.ref):
                continue
            d = _hops(scope, e.ref.scope)
        elif t is OuterAlias:
            d = _least_depth(e.scope, [e.expr])
            if d < 0:
                continue
            d += _hops(scope, e.scope)
        elif t in _SUBQUERIES:
            continue
        else:
            stack.extend(x for x in operands(e) if x is not None)
            continue
        if d == 0:
            return 0
        if best < 0 or d < best:
            best = d
    return best


def _in_registers(ref) -> bool:
    """True for a column of a row held in registers (a source with no cursor: the row a
    RETURNING clause reads). SQLite codes such a column as a register (TK_REGISTER), which
    its aggregate analysis does not take for a column, so ``RETURNING (SELECT max(a))``
    aggregates in its subquery, over that one row."""
    src = ref.source
    return getattr(src, "cursor", 0) == -1 and (-1, ref.col) in ref.scope.overrides


def resolved_aggregate(scope, aggs) -> bool:
    """Whether the calls ``aggs`` (this query's) make it an aggregate query when SQLite
    resolves its names, which is when it tests a HAVING without GROUP BY: a call whose
    arguments read columns, each a RETURNING row's (``_in_registers``), is then the
    RETURNING clause's own, since those are columns until SQLite codes them (so 3.40 runs
    it over that one row, but fails "HAVING clause on a non-aggregate query")."""
    for call in aggs:
        cols = []
        for x in call.args:
            _columns(x, cols)
        if call.filter is not None:
            _columns(call.filter, cols)
        if not cols:
            return True
        for e in cols:
            if type(e) is A.Column:
                try:
                    ref = scope.lookup(e.name, e.table)
                except OperationalError:
                    return True
            else:
                ref = e.ref if type(e) is ResolvedColumn else None
            if ref is None or not _in_registers(ref):
                return True
    return False


def _columns(e, out):
    """Append to ``out`` the column references of ``e`` outside subqueries."""
    stack = [e]
    while stack:
        e = stack.pop()
        t = type(e)
        if t is A.Column or t is ResolvedColumn or t is OuterAlias:
            out.append(e)
        elif t not in _SUBQUERIES:
            stack.extend(x for x in operands(e) if x is not None)
    return out


def _hops(scope, target) -> int:
    d = 0
    s = scope
    while s is not None and s is not target:
        s = s.outer
        d += 1
    return d if s is not None else 0


def own(scope, aggs):
    """The calls of ``aggs`` that belong to the query of ``scope`` (all of them at the top
    level: only a subquery's can belong further out)."""
    if scope.outer is None or not aggs:
        return aggs
    return [a for a in aggs if home_depth(scope, a) == 0]


def attach(p, scope, aggs, refs, start=0):
    """``aggs`` (this query's own calls) and the calls that subqueries among ``refs[start:]``
    (what ``select._collect_aggs`` gathered) hand up to this query."""
    if scope.outer is not None and aggs:  # (``own``'s test, without its call)
        aggs = own(scope, aggs)
    if refs is None:
        return aggs
    subs = []
    for r in refs[start:] if start else refs:  # (no tuple search per ref)
        t = type(r)
        if t is _SUBQUERY or t is _EXISTS or t is _IN_SELECT:
            subs.append(r)
    if not subs:
        return aggs
    refused = getattr(p, "no_hand_up", None)
    subs = [s for s in subs if (not refused or id(s) not in refused)
            and _may_hand_up(p, scope, s.select)]
    if not subs:
        return aggs
    from sqlengine.compiler.select import result_info_only
    box = scope.agg_context
    if box is None:
        box = scope.agg_context = OuterAggs()
    box.collecting = True
    n = len(box.calls)
    try:
        for s in subs:
            try:
                result_info_only(p, s.select, scope, type(s) is A.Exists)
            except OperationalError as err:
                if not str(err).startswith("misuse of aggregate: "):
                    raise
                # (left to the code of the subquery where it stands, which may fail first
                # with another error: resolve_order.subquery_size_error)
    finally:
        box.collecting = False
    seen = {id(a) for a in aggs}
    return aggs + [c for c in box.calls[n:] if id(c) not in seen]


def no_hand_up(p) -> set:
    """The ids of the subquery nodes whose aggregate calls no enclosing query collects
    (those a window query's rewrite moves into its inner query)."""
    out = getattr(p, "no_hand_up", None)
    if out is None:
        out = p.no_hand_up = set()
    return out


def _may_hand_up(p, scope, sel) -> bool:
    """Whether the subquery ``sel`` may hold an aggregate call that belongs to the query of
    ``scope`` or further out (cheap, and never wrong the other way): a call every column of
    which some query from ``scope`` outwards may answer and no query between, where its
    FROM clause is plain tables, does."""
    last = sel.body  # (built last: its features cover the arms and subqueries before it)
    while type(last) is A.Compound:
        last = last.right
    if not getattr(last, "features", A.FEATURES_UNKNOWN) & A.FEAT_FUNCTION:
        return False
    is_aggregate = p.functions.is_aggregate
    stack = [(sel, ())]
    ctes = getattr(p, "ctes", None)
    seen = set()
    while stack:
        node, levels = stack.pop()
        t = type(node)
        if t is A.TableRef and ctes and node.schema is None:
            # a CTE's body resolves where it is read, like a FROM subquery there
            entry = find_cte(p, node.name)
            if entry is not None and id(entry) not in seen:
                seen.add(id(entry))
                stack.append((entry.cte.select, levels[:-1]))
            continue
        if t is A.SelectCore:
            inner = levels + (local_names(p, node.from_),)
            for c in iter_children(node):
                # (a FROM subquery does not see its siblings)
                stack.append((c, levels if type(c) is A.SubqueryRef else inner))
            continue
        if t is A.Join:
            for c in iter_children(node):
                stack.append((c, levels[:-1] if type(c) is A.SubqueryRef else levels))
            continue
        if t is A.Column or t is A.Literal:
            continue
        if t is A.FunctionCall and node.over is None and not node.star and node.args and \
                is_aggregate(node.name, len(node.args)) and _hands_up(scope, node, levels):
            return True
        for c in iter_children(node):
            stack.append((c, levels))
    return False


def _hands_up(scope, call, levels) -> bool:
    cols = []
    for a in call.args + ([call.filter] if call.filter is not None else []):
        _columns(a, cols)
    if not cols:
        return False
    for c in cols:
        if type(c) is A.Column and any(lv is not None and answers(lv, c) for lv in levels):
            return False
        if not _visible(scope, c):
            return False
    return True


def local_names(p, from_):
    """The FROM clause ``from_`` as {lower-case item name: lower-case column names} when
    it is plain schema tables (None when another kind of item may answer names)."""
    out = {}
    stack = [from_] if from_ is not None else []
    ctes = getattr(p, "ctes", None)
    while stack:
        item = stack.pop()
        t = type(item)
        if t is A.Join:
            stack.append(item.left)
            stack.append(item.right)
            continue
        if t is not A.TableRef or item.schema is not None or (
                ctes and find_cte(p, item.name) is not None):
            return None
        table = p.schema.table(item.name)
        if table is None or table.is_view:
            return None
        names = set(table.col_index)
        if not table.without_rowid:
            names.update(ROWID_NAMES)
        out[(item.alias or item.name).lower()] = names
    return out


def answers(level, c) -> bool:
    """Whether the FROM names ``level`` (a ``local_names`` result) answer the column
    reference ``c``."""
    lname = c.name.lower()
    if c.table is not None:
        cols = level.get(c.table.lower())
        return cols is not None and lname in cols
    return any(lname in cols for cols in level.values())


def _visible(scope, c) -> bool:
    """Whether some query from ``scope`` outwards may answer the column reference ``c``
    (looked at without resolving it, which would mark the subqueries between as
    correlated)."""
    if type(c) is not A.Column:
        return True
    lname = c.name.lower()
    ltable = c.table.lower() if c.table is not None else None
    s = scope
    while s is not None:
        if ltable is None and lname in s.aliases:
            return True
        for src in s.sources:
            if ltable is not None and src.name.lower() != ltable and src.enames is None:
                continue
            if lname in src.col_lower or src.enames is not None:
                return True
            if src.has_rowid and lname in ROWID_NAMES:
                return True
        s = s.outer
    return False


def outer_register(scope, call, uncoded=False):
    """The register that holds the aggregate ``call`` of an enclosing query, PROBED when
    that query is collecting its calls (``attach``), None when the call is this query's
    or its query does not compute it here. ``uncoded``: the value is one SQLite never
    codes (Parse.values_unused), so a FROM subquery between does not stop the call from
    making its home an aggregate query, as SQLite's resolver attributes it."""
    if scope is None or scope.outer is None:
        return None
    d = home_depth(scope, call)
    if d == 0:
        return None
    home = scope
    for _ in range(d):
        if type(home.corr) is FromLink and not uncoded:
            return None
        home = home.outer
    r = home.overrides.get(id(call))
    if r is not None:
        return r
    box = home.agg_context
    if box is None:
        return None
    if box.collecting:
        box.add(call)
        return PROBED
    if call.pos >= 0:
        first = box.by_pos.get((call.pos, call.name.lower()))
        if first is not None:
            return home.overrides.get(id(first))
    return None
