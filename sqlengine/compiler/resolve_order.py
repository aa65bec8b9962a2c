"""Which error of a failing SELECT core SQLite reports: the first its resolver meets.

sqlengine resolves names while it codes, in coding order (the loops' ON and WHERE terms
before the result columns); SQLite resolves a whole core first (resolve.c,
resolveSelectStep), in its own order: the result columns, then HAVING, then WHERE with
the ON terms after it in join order (sqlite3ProcessJoin appended them to it), then the
ORDER BY terms and the GROUP BY terms that are no column numbers (nor, in ORDER BY, result
aliases), then the GROUP BY terms' aggregates, those of a subquery that belong to the core
included. So when compiling a core fails, ``first_error`` walks those clauses again in
SQLite's order on a throw-away program, and returns the first error found there, else the
one raised. Before
that it expands, as SQLite's sqlite3SelectExpand does before resolving any name, every
subquery of those clauses (and of the ORDER BY), in that order: a missing table in any of
them is the error.

Within one clause it follows resolveExprStep: a column that does not resolve ends the
walk; a function's error (no such function, wrong number of arguments, an aggregate where
the clause allows none) is noted and the walk goes on into its arguments, a later error
replacing it (sqlite3ErrorMsg keeps the last); a subquery is compiled, its first error
ending the walk (but for a misused aggregate: its wording depends on the enclosing
query's aggregate state). Errors SQLite raises while coding ("misuse of aggregate: f()")
are left to the coder. This module runs only when compiling has already failed; it emits no code
that is kept.
"""

from __future__ import annotations

from sqlengine.compiler.resolve import OuterAlias, ResolvedColumn, Scope, no_such_column
from sqlengine.compiler.expr import term_number, uncollated
from sqlengine.compiler.walk import iter_children
from sqlengine.compiler.window import (
    misuse_error as window_misuse, window_call_error, window_lookup_error)
from sqlengine.compiler.window_args import without_over_error
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A

_SUBQUERIES = (A.Subquery, A.Exists, A.InSelect)
_COMPARISONS = frozenset(("=", "==", "<", "<=", ">", ">=", "!=", "<>", "IS", "IS NOT"))
# the functions coded inline, and the numbers of arguments SQLite accepts for each
INLINE_COUNTS = {"coalesce": range(2, 1 << 30), "ifnull": (2,), "iif": (3,),
                 "if": range(1 << 30), "likely": (1,), "unlikely": (1,), "likelihood": (2,)}


# errors SQLite raises before resolving (sqlite3SelectExpand: FROM, joins, *, sizes)
_BEFORE_RESOLVING = ("too many ", "no such table", "no tables specified", "cannot join",
                     "a NATURAL join", "circular reference", "multiple references")


class _Abort(Exception):
    def __init__(self, err):
        self.err = err


def first_error(p, core, outer, corr, err, order_by=None, limits=()):
    """The error SQLite reports for the core ``core`` (``order_by``, ``limits``: its
    SELECT's ORDER BY and LIMIT, OFFSET) whose compile raised ``err``."""
    if str(err).startswith(_BEFORE_RESOLVING) and not str(err).startswith("no such table"):
        return err  # (a missing table may be a subquery's: the walk finds the first)
    from sqlengine.compiler.alias import link_subquery_scope, result_aliases
    from sqlengine.compiler.select import _expand_columns, build_from
    saved = _throwaway_builder(p)
    saved_defs = getattr(p, "window_defs", None)
    p.window_defs = core.windows or ()  # (what OVER may name: _window_call)
    try:
        scope = Scope([], outer, corr if corr is not None else [False])
        if outer is not None:
            link_subquery_scope(p, scope, core)
        sources = build_from(p, core.from_, scope, None)[0]
        scope.sources = sources
        cols = _expand_columns(p, core, scope)
        scope.aliases = result_aliases(core.alias_columns or core.columns)
        results = [c[0] for c in cols]
        # (SQLite expands every subquery, in its walk's order, before resolving a name)
        where = ([core.where] if core.where is not None else []) + _on_terms(core.from_, [])
        found = _expand_error(p, scope, results + where + list(core.group_by or ()) + (
            [core.having] if core.having is not None else []) + [
                o.expr for o in order_by or ()])
        if found is not None:
            return found
        # (LIMIT and OFFSET first, as one expression with no names to see:
        # resolveSelectStep)
        found = _clause_error(p, Scope([]), [e for e in limits if e is not None],
                              False, False, False)
        if found is not None:
            return found
        found = _clause_error(p, scope, results, True, False, True, True)
        if found is not None:
            return found
        # (SQLite: GROUP BY or an aggregate among the result columns makes the query an
        # aggregate one; only then do HAVING and WHERE allow aggregates)
        # (a window call's aggregates do not count here: sum(sum(b)) OVER ())
        is_agg = bool(core.group_by) or any(aggregate_call(p, e, False) is not None
                                            for e in results)
        if core.having is not None:
            if not is_agg:
                return OperationalError("HAVING clause on a non-aggregate query")
            found = _clause_error(p, scope, [core.having], True, True, False)
            if found is not None:
                return found
        # (the ON terms joined the WHERE clause, after it: one expression)
        found = _clause_error(p, scope, where, is_agg, True, False)
        if found is not None:
            return found
        found = _order_by_error(p, scope, order_by or (), len(results))
        if found is not None:
            return found
        # (then the GROUP BY terms, one by one, before their aggregates are refused)
        group_by = [g for g in core.group_by or () if term_number(uncollated(g)) is None]
        found = _clause_error(p, scope, group_by, True, True, True)
        if found is not None:
            return found
        if any(_outer_aggregate(p, scope, g) for g in group_by):
            return OperationalError("aggregate functions are not allowed in the GROUP BY clause")
    except OperationalError:
        return err  # (the FROM clause or its * failed: that was the error)
    finally:
        p.b = saved
        p.window_defs = saved_defs
    return err


# errors SQLite's coder raises, after every name is resolved
CODER_ERRORS = ("misuse of aggregate: ", "sub-select returns ", "hex literal too big")


def compound_error(p, sel, arms, outer, err):
    """The error SQLite reports for the compound SELECT ``sel`` (``arms``: select._arms)
    whose compile raised ``err``. It expands every arm before resolving any, each from the
    right-most to the left (so a missing table of the right-most arm is the one named);
    then it resolves the LIMIT and OFFSET (which see no names), and the arms from the
    right-most to the left, each one whole, checking each arm's number of columns against
    the arm on its right once it is resolved. The first error met there, else ``err``
    (its coder's errors, in coding order)."""
    from sqlengine.compiler.select import _arity_error, result_info_only
    results = []
    for k in range(len(arms) - 1, -1, -1):
        try:
            results.append(len(result_info_only(p, A.Select(arms[k][1]), outer).names))
        except OperationalError as found:
            results.append(found)
    for r in results:
        if isinstance(r, OperationalError) and str(r).startswith(_BEFORE_RESOLVING):
            return r
    for e in (sel.limit, sel.offset):
        if e is not None:
            try:
                result_info_only(p, A.Select(A.SelectCore([A.ResultColumn(e)])))
            except OperationalError as found:
                if not str(found).startswith(CODER_ERRORS):
                    return found
    right = None
    for j, r in enumerate(results):
        if isinstance(r, OperationalError):
            if str(r).startswith(CODER_ERRORS):
                right = None
                continue
            return r
        if right is not None and r != right:
            return _arity_error(arms[len(arms) - j][0])
        right = r
    return err


def subquery_size_error(p, scope, sel, expected, err):
    """The error of a scalar or IN subquery ``sel`` (``expected`` columns wanted) whose
    compile raised ``err``: SQLite checks its number of columns before coding it, so a
    misused aggregate inside it (its coder's error) comes after 'sub-select returns 2
    columns - expected 1'."""
    if not str(err).startswith("misuse of aggregate: "):
        return err
    from sqlengine.compiler.select import result_info_only
    saved = p.values_unused
    p.values_unused = True  # (such an aggregate codes as NULL: only the names are wanted)
    try:
        n = len(result_info_only(p, sel, scope).names)
    except OperationalError:
        return err
    finally:
        p.values_unused = saved
    if n != expected:
        return OperationalError(f"sub-select returns {n} columns - expected {expected}")
    return err


def _expand_error(p, scope, exprs):
    """The first error SQLite's sqlite3SelectExpand meets in the subqueries of ``exprs``
    (their FROM clauses: a missing table), walking them in order; None when none."""
    from sqlengine.compiler.select import result_info_only
    stack = list(reversed(exprs))
    while stack:
        e = stack.pop()
        t = type(e)
        if t in _SUBQUERIES:
            sel = e.select
        elif t is A.Select:  # (the table of an IN, after its left operand)
            sel = e
        elif t is A.InTable and e.args is None:
            stack.append(A.Select(A.SelectCore([A.Star()], from_=A.TableRef(e.name, e.schema))))
            stack.append(e.expr)
            continue
        else:
            stack.extend(reversed(list(iter_children(e))))
            continue
        try:
            result_info_only(p, sel, scope)
        except OperationalError as found:
            if str(found).startswith(_BEFORE_RESOLVING):
                return found
    return None


def _order_by_error(p, scope, order_by, n_results):
    """The error of resolving the ORDER BY terms (resolveOrderGroupBy): a result alias
    is taken as it is, a column number below 1 or above 65535 fails at once and one above
    the result count once every term is resolved; the others are resolved one by one."""
    from sqlengine.compiler.select import _ordinal
    late = None
    for i, o in enumerate(order_by):
        e = uncollated(o.expr)
        k = term_number(e)
        if k is not None:
            if not 1 <= k <= n_results:
                err = OperationalError(f"{_ordinal(i + 1)} ORDER BY term out of range - "
                                       f"should be between 1 and {n_results}")
                if not 1 <= k <= 0xffff:
                    return err
                late = late or err
            continue
        if type(e) is A.Column and e.table is None and e.name.lower() in scope.aliases:
            continue
        found = _clause_error(p, scope, [o.expr], True, True, True, True)
        if found is not None:
            return found
    return late


def _outer_aggregate(p, scope, e) -> bool:
    """Whether GROUP BY term ``e`` holds a subquery calling an aggregate of this query
    (``(SELECT sum(a))``, ``a`` this query's column): coding it where no aggregate is
    computed fails so. SQLite's resolver marks the term (EP_Agg) and refuses it."""
    if not any(isinstance(x, _SUBQUERIES) for x in _nodes(e)):
        return False
    from sqlengine.compiler.expr import code_expr
    try:
        code_expr(p, scope, e, p.b.alloc_reg())
    except OperationalError as err:
        return str(err).startswith("misuse of aggregate: ")
    return False


def _nodes(e):
    stack = [e]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(iter_children(x))


def _on_terms(from_, out):
    if type(from_) is A.Join:
        _on_terms(from_.left, out)
        _on_terms(from_.right, out)
        if from_.on is not None:
            out.append(from_.on)
    return out


def _clause_error(p, scope, exprs, agg_ok, aliases, each, win_ok=False):
    """The error resolving ``exprs`` (one clause) ends with, None when there is none;
    ``each``: SQLite resolves them one by one (a result list), else as one expression;
    ``win_ok``: window calls are allowed there (the result list, ORDER BY: NC_AllowWin)."""
    noted = [None]
    for e in exprs:
        try:
            _walk(p, scope, e, agg_ok, aliases, noted, win_ok)
        except _Abort as stop:
            return stop.err
        if each and noted[0] is not None:
            return noted[0]
    return noted[0]


def _walk(p, scope, e, agg_ok, aliases, noted, win_ok=False):
    t = type(e)
    if t is A.Column:
        _column(p, scope, e, aliases)
        return
    if t is ResolvedColumn or t is OuterAlias or t is A.Literal or t is A.Param:
        return
    if t in _SUBQUERIES:
        # (IN's subquery is resolved before its left operand: resolveExprStep's TK_IN)
        from sqlengine.compiler.select import result_info_only
        pending = noted[0] or getattr(p, "pending_error", None)
        if pending is not None:
            _abort_at_from_subquery(p, scope, e.select, pending)
        if aliases:
            _link_aliases(p, scope, e.select)
        saved = getattr(p, "pending_error", None)
        p.pending_error = pending  # (its own subqueries stop at theirs)
        try:
            result_info_only(p, e.select, scope)
        except OperationalError as err:
            # (a misused aggregate there depends on this query's aggregate state, which
            # this walk does not set up: left to the coder)
            if not str(err).startswith("misuse of aggregate"):
                raise _Abort(err) from None
        finally:
            p.pending_error = saved
        if t is A.InSelect:
            _walk(p, scope, e.expr, agg_ok, aliases, noted)
        return
    if t is A.FunctionCall:
        if e.over is not None:
            _window_call(p, scope, e, agg_ok, aliases, noted, win_ok)
            return
        found = _function_error(p, e, agg_ok)
        if found is not None:
            noted[0] = found
        win_ok = False  # (an aggregate's arguments allow no window call)
    elif t is A.Binary and e.op.upper() in _COMPARISONS and (
            _mismatch(e.left, e.right) or _row_subquery_mismatch(p, scope, e)) or \
            t is A.Between and _mismatch(e.expr, e.low, e.high):
        raise _Abort(OperationalError("row value misused"))  # (before its operands)
    for c in iter_children(e):
        _walk(p, scope, c, agg_ok, aliases, noted, win_ok)


def _window_call(p, scope, e, agg_ok, aliases, noted, win_ok):
    """A call with OVER, as resolveExprStep takes it: the call's own error (where window
    calls are allowed: its function's look-up, then its named window, then a FILTER the
    function may not have), then its arguments and, once its function was found, its
    PARTITION BY, ORDER BY and FILTER. None of these allows a window call."""
    if win_ok:
        looked_up = window_lookup_error(p, e)
        found = looked_up or window_call_error(p, e, getattr(p, "window_defs", None))
    else:
        found = looked_up = window_misuse(p.db, e)
    if found is not None:
        noted[0] = found
    for a in e.args:
        _walk(p, scope, a, agg_ok, aliases, noted)
    if looked_up is not None or type(e.over) is not A.WindowDef:
        return
    for x in e.over.partition_by + [o.expr for o in e.over.order_by] + (
            [e.filter] if e.filter is not None else []):
        _walk(p, scope, x, agg_ok, aliases, noted)


def _abort_at_from_subquery(p, scope, sel, noted):
    """SQLite's resolver, an error already noted, stops once it has resolved the first
    FROM item of subquery ``sel`` (of its right-most arm) that is a subquery, a CTE or a
    view (resolveSelectStep: 'if( pParse->nErr ) return WRC_Abort'): that item's own
    error, else the noted one."""
    from sqlengine.compiler.cte import find_cte
    from sqlengine.compiler.select import result_info_only
    body = sel.body
    while type(body) is A.Compound:
        body = body.right
    if type(body) is not A.SelectCore or body.from_ is None:
        return
    own = {c.name.lower() for c in sel.with_.ctes} if sel.with_ is not None else set()
    stack = [body.from_]
    while stack:
        item = stack.pop()
        t = type(item)
        if t is A.Join:
            stack += [item.right, item.left]
            continue
        if t is A.TableRef:
            key = item.name.lower()
            if item.schema is None and (key in own or find_cte(p, item.name) is not None) \
                    or key in p.schema.views:
                break
        elif t is A.SubqueryRef:
            break
    else:
        return
    probe = A.Select(A.SelectCore([A.Star()], from_=item), with_=sel.with_)
    try:
        result_info_only(p, probe, scope)
    except OperationalError as err:
        raise _Abort(err) from None
    raise _Abort(noted)


def _row_subquery_mismatch(p, scope, e) -> bool:
    """Whether a row value is compared with a subquery of another number of columns (the
    subquery's number counted as SQLite's resolver knows it, its * expanded)."""
    left, right = e.left, e.right
    if type(left) in _SUBQUERIES:
        left, right = right, left
    if type(left) is not A.RowValue or type(right) is not A.Subquery:
        return False
    from sqlengine.compiler.select import _sub_columns, result_info_only
    n = _sub_columns(right.select)  # (its result list as written, unless it has a *)
    if n < 0:
        saved = p.values_unused
        p.values_unused = True  # (an aggregate SQLite's coder would refuse: the names)
        try:
            n = len(result_info_only(p, right.select, scope).names)
        except OperationalError:
            return False
        finally:
            p.values_unused = saved
    return n != len(left.items)


def _mismatch(*operands) -> bool:
    """Whether the vector sizes of ``operands`` differ (a subquery's is not looked at)."""
    if any(type(x) in _SUBQUERIES for x in operands):
        return False
    return len({len(x.items) if type(x) is A.RowValue else 1 for x in operands}) > 1


def _link_aliases(p, scope, sel):
    """Let the cores of ``sel`` see the result aliases of ``scope`` (alias.py's links)."""
    links = p.alias_links
    if links is None:
        links = p.alias_links = {}
    stack = [sel.body]
    while stack:
        body = stack.pop()
        if type(body) is A.Compound:
            stack += [body.left, body.right]
        else:
            links[id(body)] = (scope, body)


def _column(p, scope, e, aliases):
    try:
        ref = scope.lookup(e.name, e.table)
    except OperationalError as err:
        raise _Abort(err) from None
    if ref is not None:
        return
    if e.table is None and (e.quoted or aliases and e.name.lower() in scope.aliases
                            or _outer_alias(scope, e.name.lower())):
        return
    if e.table is not None and p.trigger_ctx is not None and \
            e.table.lower() in ("new", "old"):
        return
    raise _Abort(no_such_column(e.name, e.table))


def _outer_alias(scope, lname) -> bool:
    """Whether an enclosing query has a result alias ``lname`` (some subqueries see them:
    alias.py; taken as seen, so no error is made up)."""
    s = scope.outer
    while s is not None:
        if s.aliases and lname in s.aliases:
            return True
        s = s.outer
    return False


def _function_error(p, e, agg_ok):
    if getattr(p, "no_function_errors", False):  # (ALTER's schema test: alter_check.py)
        return None
    name = e.name.lower()
    nargs = 0 if e.star else len(e.args)
    db = p.db
    if db.is_aggregate(name, nargs):
        return None if agg_ok else OperationalError(
            f"misuse of aggregate function {e.name}()")
    counts = INLINE_COUNTS.get(name)
    if counts is not None and nargs in counts:
        return likelihood_error(e) if name == "likelihood" else None
    if counts is None and db.find_function(name, nargs) is not None:
        return None
    found = without_over_error(e)  # (a window function called without OVER)
    if found is not None:
        return found
    if db.function_exists(name):
        return OperationalError(f"wrong number of arguments to function {e.name}()")
    return OperationalError(f"no such function: {e.name}")


def likelihood_error(e):
    """SQLite's refusal of likelihood(X, Y) whose Y is no floating-point literal between
    0.0 and 1.0 (resolve.c's exprProbability: an integer, a sign or an expression is
    none), or None."""
    y = e.args[1]
    if type(y) is A.Literal and type(y.value) is float and 0.0 <= y.value <= 1.0:
        return None
    return OperationalError(
        f"second argument to {e.name}() must be a constant between 0.0 and 1.0")


def values_error(p, scope, rows, err):
    """The error SQLite 3.40 reports for a VALUES list of several ``rows`` (in ``scope``)
    whose compile raised ``err``. The list is a compound of one-row SELECTs: a missing
    table in any row's subqueries first (sqlite3SelectExpand, from the last row to the
    first), then each row resolved, from the last to the first, its number of terms
    checked against the row after it once it is resolved; then the coder's errors, an
    aggregate function (which each row's resolver allowed) being misused there."""
    if str(err).startswith(CODER_ERRORS):
        return err
    saved = _throwaway_builder(p)
    try:
        found = _expand_error(p, scope, [e for row in reversed(rows) for e in row])
        if found is not None:
            return found
        for k in range(len(rows) - 1, -1, -1):
            found = _clause_error(p, scope, rows[k], True, False, True)
            if found is not None:
                return found
            if k + 1 < len(rows) and len(rows[k]) != len(rows[k + 1]):
                return OperationalError("all VALUES must have the same number of terms")
    finally:
        p.b = saved
    if str(err).startswith("misuse of aggregate function "):
        for row in rows:
            for e in row:
                call = aggregate_call(p, e)
                if call is not None:
                    return OperationalError(f"misuse of aggregate: {call.name}()")
    return err


def names_error(p, scope, exprs):
    """The first error resolving each of ``exprs`` in turn in ``scope`` (no aggregate
    allowed) meets, None when there is none; codes nothing."""
    saved = _throwaway_builder(p)
    try:
        return _clause_error(p, scope, exprs, False, False, True)
    finally:
        p.b = saved


def set_error(p, scope, table, sets):
    """The first error of an UPDATE's (or an upsert's) SET items, each in turn: its
    expression resolved in ``scope``, then its columns looked up in ``table``; None when
    there is none."""
    for item in sets:
        found = names_error(p, scope, [item.expr]) or columns_error(table, [item])
        if found is not None:
            return found
    return None


def set_where_error(p, scope, table, sets, where):
    """The first error of SET items ``sets`` (``set_error``), then of the WHERE clause
    ``where`` (or None), resolved in ``scope``; None when there is none."""
    return set_error(p, scope, table, sets) or (
        names_error(p, scope, [where]) if where is not None else None)


def columns_error(table, sets):
    """The first error looking up the columns of SET items ``sets`` in ``table``, else
    None."""
    from sqlengine.compiler.upsert import set_target
    for item in sets:
        for cname in item.columns:
            try:
                set_target(table, cname)
            except OperationalError as err:
                # (without its traceback: that holds this frame, whose caller's frame
                # keeps the error it returns, a reference cycle per failed statement)
                return err.with_traceback(None)
    return None


def _throwaway_builder(p):
    """Give ``p`` a new ProgramBuilder (numbering on from its own) for code that is not
    kept; returns the one to put back."""
    from sqlengine.compiler.builder import ProgramBuilder
    saved = p.b
    p.b = ProgramBuilder()
    p.b.n_mem = saved.n_mem
    p.b.n_cursor = saved.n_cursor
    return saved


def aggregate_call(p, e, into_windows=True):
    """The first aggregate function call of ``e`` outside its subqueries (and, unless
    ``into_windows``, outside its window calls), else None."""
    stack = [e]
    while stack:
        x = stack.pop()
        t = type(x)
        if t in _SUBQUERIES:
            continue
        if t is A.FunctionCall and x.over is not None and not into_windows:
            continue
        if t is A.FunctionCall and x.over is None and p.db.is_aggregate(
                x.name.lower(), 0 if x.star else len(x.args)):
            return x
        stack.extend(reversed(list(iter_children(x))))
    return None


def update_error(p, st, table, err):
    """The error SQLite reports for the UPDATE ``st`` of ``table`` whose compile raised
    ``err``. sqlite3Update takes the SET items in turn, resolving each expression and then
    looking its column up; then it resolves the WHERE clause (ORDER BY and LIMIT already
    folded into it); RETURNING comes after. With a FROM clause the SET expressions and the
    WHERE clause are left to the join's SELECT (its own first_error), after the columns
    and the RETURNING list. The first error met there, else ``err``."""
    if str(err).startswith(CODER_ERRORS) or getattr(table, "is_view", False):
        return err
    from sqlengine.compiler.attach import source_db
    from sqlengine.compiler.resolve import table_source
    src = table_source(st.table.alias or table.name, -1, table)
    src.db = source_db(p.db, table)
    scope = Scope([src])
    if st.from_ is None:
        found = set_where_error(p, scope, table, st.sets, st.where)
    else:
        found = columns_error(table, st.sets)
    if found is not None:
        return found
    if st.returning:
        found = returning_error(p, table, st.returning)
        if found is not None:
            return found
    return err


def returning_error(p, table, items):
    """The error resolving the RETURNING list ``items`` of a statement on ``table`` ends
    with, None when there is none: sqlite3ExpandReturning stops at a ``t.*``, noting its
    refusal; then the first error of the items before it (each in turn) replaces that."""
    from sqlengine.compiler.insert import _row_scope
    from sqlengine.compiler.returning import expand_items, item_error, wildcard_error
    scope = _row_scope(p, table, 0)
    saved = _throwaway_builder(p)
    try:
        exprs = expand_items(p, scope, items)
        for e in exprs:
            found = item_error(scope, e) or _clause_error(p, scope, [e], False, False, True)
            if found is not None:
                return found
    except OperationalError as found:
        return found.with_traceback(None)  # (see columns_error)
    finally:
        p.b = saved
    return wildcard_error(items)
