"""Window functions: f(...) OVER (PARTITION BY ... ORDER BY ... frame), named windows and
FILTER, for row_number, rank, dense_rank, percent_rank, cume_dist, ntile, lag, lead,
first_value, last_value, nth_value and every aggregate.

A SELECT with window calls runs in two steps. The inner query (the original FROM, WHERE,
GROUP BY and HAVING) stores, for each row, the values the outer part needs: the plain
columns and aggregates used outside the window calls, and each call's arguments,
PARTITION BY, ORDER BY and FILTER values. When it is done, the window values are computed
over those rows (partitions sorted by their ORDER BY, frames ROWS/RANGE/GROUPS with
EXCLUDE), appended to each row, and the rows are put in the order of the last window, as
SQLite returns them. The outer query then reads that table: result columns, DISTINCT,
ORDER BY, LIMIT.

This module emits code and holds the run-time window computation (called through
``OP_Function``); it never touches storage.
"""

from __future__ import annotations

import dataclasses
import functools

from sqlengine.compiler.aggscope import no_hand_up
from sqlengine.compiler.alias import result_aliases, rewrite_columns, share_link
from sqlengine.compiler.cte import CteEntry, pop_with, push_with
from sqlengine.compiler.resolve import Source
from sqlengine.compiler.walk import find_node, iter_children
from sqlengine.compiler.window_args import (
    count_error, nth_value_index, ntile_buckets, offset_row)
from sqlengine.errors import Error, OperationalError
from sqlengine.sql import ast as A
from sqlengine.sql.ast import (
    Collate, Compound, Exists, FEATURES_UNKNOWN, FEAT_WINDOW, Frame, FrameBound,
    FunctionCall, InSelect, Literal, OrderingTerm, Param, ResultColumn, Select, SelectCore,
    Star, Subquery, TableRef, Unary)
from sqlengine.storage import compare_values
from sqlengine.vdbe._values import add, apply_numeric_affinity, div, mul, negate, sub, truth
from sqlengine.vdbe import opcodes as O
from sqlengine.vdbe.opcodes import AFF_BLOB, OP_OpenEphemeral

SRC = "__window"
_RANKING = frozenset({"row_number", "rank", "dense_rank", "percent_rank", "cume_dist",
                      "ntile", "lag", "lead", "first_value", "last_value", "nth_value"})
WINDOW_FUNCTIONS = _RANKING  # the functions that exist only as window functions


def has_window(core, order_by=None) -> bool:
    """Whether a result column of the SELECT core, or a term of its ``order_by``, calls a
    window function (subqueries aside). The parser's ``features`` tells at once when the
    statement has none."""
    if not isinstance(core, SelectCore) or not core.features & FEAT_WINDOW:
        return False
    for rc in core.columns:
        if isinstance(rc, ResultColumn) and find_node(rc.expr, _is_window_call) is not None:
            return True
    for t in order_by or ():
        if find_node(t.expr, _is_window_call) is not None:
            return True
    return False


def misuse_error(db, e) -> OperationalError:
    """The error of the window call ``e`` met where no window call is allowed (WHERE,
    HAVING, GROUP BY, a DML statement's expressions...), as SQLite's resolveExprStep words
    it: the function's look-up error (_lookup_error), else a misuse of a window
    function."""
    return _lookup_error(db.functions, db, e) or OperationalError(
        f"misuse of window function {e.name}()")


def window_call_error(p, e, defs=None):
    """The error of the window call ``e`` where window calls are allowed (a result
    column, an ORDER BY term), else None: the function's look-up error (_lookup_error),
    a window its OVER names (or builds on) that the WINDOW clause ``defs`` lacks (when
    given), a FILTER on a built-in window function."""
    err = _lookup_error(p.functions, p.db, e)
    if err is None and defs is not None:
        name = e.over if type(e.over) is str else e.over.base
        if name is not None and not any(n.lower() == name.lower() for n, _ in defs):
            err = OperationalError(f"no such window: {name}")
    if err is None and e.filter is not None and e.name.lower() in _RANKING:
        err = OperationalError("FILTER clause may only be used with aggregate window "
                               "functions")
    return err


def window_lookup_error(p, e):
    """The error looking up the function of the window call ``e`` (_lookup_error)."""
    return _lookup_error(p.functions, p.db, e)


def _lookup_error(functions, db, e):
    """The error SQLite's resolveExprStep gives a call ``e`` with OVER when looking its
    function up, else None. The definition of its number of arguments must be a window
    function or an aggregate with window methods ('f() may not be used as a window
    function' otherwise); with none of that count, another definition of the name
    decides the same way, and a window-capable one makes it 'wrong number of arguments
    to function f()'; an unknown name is 'no such function: f'."""
    name = e.name.lower()
    nargs = 0 if e.star else len(e.args)
    if name in _RANKING:
        return count_error(e)
    agg = functions.aggregate(name, nargs)
    if agg is not None or functions.scalar(name, nargs) is not None:
        if agg is not None and _window_capable(agg):
            return None
        return OperationalError(f"{e.name}() may not be used as a window function")
    if not db.function_exists(name):
        return OperationalError(f"no such function: {e.name}")
    # (SQLite's look-up with any count finds the scalar of a name that has both: max())
    if all(functions.scalar(name, n) is None for n in range(-1, 4)) and any(
            (a := functions.aggregate(name, n)) is not None and _window_capable(a)
            for n in range(-1, 4)):
        return OperationalError(f"wrong number of arguments to function {e.name}()")
    return OperationalError(f"{e.name}() may not be used as a window function")


def _is_window_call(e) -> bool:
    return type(e) is FunctionCall and e.over is not None


def _window_def(core, over):
    named = {}
    for n, w in core.windows or []:  # (a definition may build on an earlier one)
        named[n.lower()] = _chained(w, named) if w.base is not None and \
            w.base.lower() in named else w
    if isinstance(over, str):
        w = named.get(over.lower())
        if w is None:
            raise OperationalError(f"no such window: {over}")
        return _chained(w, named) if w.base is not None else w
    if over.base is not None:
        return _chained(over, named)
    return over


def _chained(w, named):
    """Window ``w`` built on its base window (SQLite's sqlite3WindowChain): the base's
    PARTITION BY and ORDER BY, ``w``'s frame; it may add an ORDER BY the base lacks, but
    not a PARTITION BY, and the base may have no frame of its own."""
    base = named.get(w.base.lower())
    if base is None:
        raise OperationalError(f"no such window: {w.base}")
    what = "PARTITION clause" if w.partition_by else "ORDER BY clause" if \
        base.order_by and w.order_by else "frame specification" if \
        base.frame is not None else None
    if what is not None:
        raise OperationalError(f"cannot override {what} of window: {w.base}")
    return A.WindowDef(None, base.partition_by, w.order_by or base.order_by, w.frame)


class _Rewriter:
    """Replaces slots (plain columns, aggregate calls) and window calls by columns of the
    intermediate table, collecting the inner query's result expressions."""

    def __init__(self, p, core):
        self.p = p
        self.core = core
        self.inner = []  # expressions of the inner query
        self.keys = {}
        self.windows = []  # (call, WindowDef, arg columns, partition cols, order, filter col)

    def slot(self, e):
        k = repr(e)
        if k not in self.keys:
            self.keys[k] = len(self.inner)
            self.inner.append(e)
        return A.Column(f"__c{self.keys[k]}", SRC)

    def column(self, e):
        i = len(self.inner)
        self.inner.append(e)
        return i

    def rewrite(self, e):
        if e is None:
            return None
        if isinstance(e, FunctionCall) and e.over is not None:
            return self._window(e)
        if isinstance(e, A.Column):
            return self.slot(e)
        if isinstance(e, FunctionCall) and e.over is None and self.p.functions.is_aggregate(
                e.name, 0 if e.star else len(e.args)):
            _no_window_inside(self.p, [*e.args, e.filter])
            return self.slot(e)
        if isinstance(e, (Subquery, Exists, InSelect)) and _may_correlate(e):
            # a subquery that may read this query's row runs in the inner query, per row;
            # an aggregate of this query's columns in it is never collected (SQLite's
            # window rewrite leaves it out: "misuse of aggregate", compiler/aggscope.py)
            no_hand_up(self.p).add(id(e))
            return self.slot(e)
        if isinstance(e, (Subquery, Exists, InSelect, Literal, Param)):
            return e
        if dataclasses.is_dataclass(e):
            changes = {}
            for f in dataclasses.fields(e):
                v = getattr(e, f.name)
                if isinstance(v, list):
                    changes[f.name] = [tuple(self.rewrite(y) for y in x) if isinstance(x, tuple)
                                       else self.rewrite(x) if _is_expr(x) else x for x in v]
                elif _is_expr(v):
                    changes[f.name] = self.rewrite(v)
            return dataclasses.replace(e, **changes)
        return e

    def _window(self, e):
        err = window_call_error(self.p, e, self.core.windows or ())
        if err is not None:
            raise err
        w = _window_def(self.core, e.over)
        name = e.name.lower()
        nargs = 0 if e.star else len(e.args)
        _no_window_inside(self.p, [*e.args, e.filter, *w.partition_by] +
                          [t.expr for t in w.order_by])
        agg = None if name in _RANKING else self.p.functions.aggregate(e.name, nargs)
        args = [self.column(a) for a in e.args]
        parts = [self.column(x) for x in w.partition_by]
        order = [(self.column(t.expr), t.desc, t.nulls) for t in w.order_by]
        filt = self.column(e.filter) if e.filter is not None else None
        _check_frame(w, name)
        self.windows.append((e, name, agg, w, args, parts, order, filt))
        return A.Column(f"__w{len(self.windows) - 1}", SRC)


def _no_window_inside(p, exprs):
    """Raise SQLite's error for a window call among ``exprs`` (an aggregate's arguments
    and FILTER, a window call's, its PARTITION BY and ORDER BY: resolveExprStep allows
    none there), naming the last one met."""
    calls = []
    for x in exprs:
        if x is not None:
            _window_calls(x, calls)
    if calls:
        raise misuse_error(p.db, calls[-1])


def _may_correlate(e) -> bool:
    """Whether a subquery may be computed per row of the inner query: it names a column
    (perhaps of this query), gives one value (a scalar subquery of one column) and holds
    no window call of this query (an IN's left side)."""
    if isinstance(e, InSelect) and find_node(e.expr, _is_window_call) is not None:
        return False
    if isinstance(e, Subquery):
        body = e.select.body
        while isinstance(body, Compound):
            body = body.left
        if not isinstance(body, SelectCore) or len(body.columns) != 1 or \
                isinstance(body.columns[0], Star):
            return False
    return find_node(e, lambda x: type(x) is A.Column, stop=()) is not None


def _window_capable(agg) -> bool:
    """Whether an aggregate may take an OVER clause: the built-ins may, and so may a user
    aggregate unless its factory says it has no window methods (``window`` False: the
    DB-API's ``create_aggregate``, as opposed to ``create_window_function``)."""
    factory = getattr(agg.new(), "cls", None)  # a user aggregate's factory (no user code ran)
    return getattr(factory, "window", True)


def _is_expr(v):
    return dataclasses.is_dataclass(v) and not isinstance(v, (A.WindowDef, OrderingTerm,
                                                               Frame, FrameBound))


def _check_frame(w, name):
    fr = w.frame
    if fr is None:
        return
    if fr.units.upper() == "RANGE":
        for bd in (fr.start, fr.end):
            if bd is not None and bd.offset is not None and len(w.order_by) != 1:
                raise OperationalError(
                    "RANGE with offset PRECEDING/FOLLOWING requires one ORDER BY expression")


def compile_window_select(p, sel, dest, outer, corr):
    """Emit a SELECT whose core has window calls; returns its ResultInfo."""
    core = sel.body
    rw = _Rewriter(p, core)
    n_star_items = 0
    out_cols = []
    star_items = []
    for rc in core.columns:
        if isinstance(rc, Star):
            star_items.append(rc)
            n_star_items += 1
            out_cols.append(rc)
            continue
        name = rc.alias
        if name is None:
            name = rc.expr.name if isinstance(rc.expr, A.Column) else (rc.text or "?")
        out_cols.append(ResultColumn(rw.rewrite(rc.expr), name, rc.text))
    aliases = result_aliases(core.columns)
    order_by = None
    if sel.order_by:
        order_by = []
        for t in sel.order_by:
            e = t.expr
            while isinstance(e, Collate):
                e = e.expr
            if isinstance(e, A.Column) and e.table is None and e.name.lower() in aliases:
                order_by.append(t)  # (matched with the alias by the outer query)
            elif isinstance(e, Literal) and isinstance(e.value, int):
                order_by.append(t)
            else:
                e = _order_aliases(p, core, t.expr, aliases)
                order_by.append(dataclasses.replace(t, expr=rw.rewrite(e)))
    _aggregate_misuse(p, core, sel.order_by)
    # the inner query: star items first, then every needed expression
    inner_cols = list(star_items) + [ResultColumn(e, f"__c{i}") for i, e in
                                     enumerate(rw.inner)]
    group_by, misuse = core.group_by, None
    if group_by and any(term_number(uncollated(g)) is not None for g in group_by):
        group_by, misuse = _numbered_group_by(p, core, sel.order_by)
    # (its columns come from ORDER BY too: what the parser saw of the core does not hold)
    # (its WHERE, GROUP BY and HAVING see the aliases of the query's own result columns)
    inner = Select(body=dataclasses.replace(core, columns=inner_cols, windows=None,
                                              distinct=False, features=FEATURES_UNKNOWN,
                                              alias_columns=core.columns, group_by=group_by))
    share_link(p, core, inner.body)
    b = p.b
    cur = b.alloc_cursor()
    b.emit(OP_OpenEphemeral, cur, 0)
    try:
        info = _select.compile_select(p, inner, _select.TableDest(cur), outer, corr)
    except OperationalError as err:  # (a resolve error of the inner query comes first)
        from sqlengine.compiler.resolve_order import CODER_ERRORS
        if misuse is None or not str(err).startswith(CODER_ERRORS):
            raise
        raise misuse from None
    if misuse is not None:
        raise misuse
    n_total = len(info.names)
    n_star = n_total - len(rw.inner)
    specs = _runtime_specs(p, rw, n_star, info.colls)
    out = b.alloc_reg()
    b.emit(O.OP_Function, 0, out, out,
           lambda vm, a, cur=cur, specs=specs: _compute(vm, cur, specs), 0)
    names = []
    affs = []
    colls = []
    decls = []
    for k in range(n_star):
        names.append(f"__s{k}")
        affs.append(info.affs[k])
        colls.append(info.colls[k])
        decls.append(info.decltypes[k])
    for i in range(len(rw.inner)):
        names.append(f"__c{i}")
        affs.append(info.affs[n_star + i])
        colls.append(info.colls[n_star + i])
        decls.append(info.decltypes[n_star + i])
    for j in range(len(rw.windows)):
        names.append(f"__w{j}")
        affs.append(AFF_BLOB)
        colls.append(None)
        decls.append(None)
    src = Source(SRC, cur, names, affs, colls, decls)
    # the outer query: the star items become the stored star columns
    final_cols = []
    k = 0
    star_names = info.names[:n_star]
    for rc in out_cols:
        if isinstance(rc, Star):
            # each star item's share of the stored columns, in order
            count = _star_width(p, core, rc, n_star, len(star_items))
            for _ in range(count):
                final_cols.append(ResultColumn(A.Column(f"__s{k}", SRC), star_names[k]))
                k += 1
        else:
            final_cols.append(rc)
    outer_core = SelectCore(columns=final_cols, distinct=core.distinct,
                              from_=TableRef(SRC))
    outer_sel = Select(body=outer_core, order_by=order_by, limit=sel.limit,
                         offset=sel.offset)
    share_link(p, core, outer_core)
    entry = CteEntry(SRC, None)
    entry.recursive_source = src
    token = push_with(p, A.With([]))
    p.ctes[-1][SRC.lower()] = entry
    try:
        res = _select.compile_select(p, outer_sel, dest, outer, corr)
    finally:
        pop_with(p, token)
    # names and declared types as the plain query would give them
    for i, rc in enumerate(final_cols):
        if isinstance(rc.expr, A.Column) and rc.expr.name.startswith("__s"):
            res.decltypes[i] = info.decltypes[int(rc.expr.name[3:])]
    return res


def _numbered_group_by(p, core, order_by):
    """The GROUP BY of the window query ``core`` with its column numbers made the inner
    query's (whose result columns are others: the star items' columns keep their places,
    a number of another column becomes its expression, under the term's COLLATE), and the
    error SQLite reports once every term resolved, None if none: for a number naming a
    column that calls an aggregate, "aggregate functions are not allowed in the GROUP BY
    clause" (under a COLLATE its coder's "misuse of aggregate" instead, select.py), else
    for one naming a column with a window call "misuse of window function f()" (the last
    call met). The ORDER BY's numbers are checked first, as SQLite resolves it first."""
    widths = [_star_width(p, core, rc, 0, 2) if isinstance(rc, Star) else None
              for rc in core.columns]
    n_res = sum(1 if w is None else w for w in widths)
    for i, t in enumerate(order_by or ()):
        k = term_number(uncollated(t.expr))
        if k is not None and not 1 <= k <= n_res:
            raise OperationalError(f"{_select._ordinal(i + 1)} ORDER BY term out of range - "
                                   f"should be between 1 and {n_res}")
    out = []
    agg_misuse = win_misuse = None
    for g in core.group_by:
        inner = uncollated(g)
        k = term_number(inner)
        if k is None:
            out.append(g)
            continue
        if not 1 <= k <= n_res:
            raise OperationalError(f"{_select._ordinal(len(out) + 1)} GROUP BY term out of range - "
                                   f"should be between 1 and {n_res}")
        at = n_star = 0
        for rc, w in zip(core.columns, widths):
            if w is not None and k <= at + w:  # (a star item's column)
                x = Literal(n_star + k - at)
                break
            if w is None and k == at + 1:
                x = rc.expr
                calls = _window_calls(x, [])
                if calls:
                    if inner is g and _calls_aggregate(p, x):
                        agg_misuse = OperationalError(
                            "aggregate functions are not allowed in the GROUP BY clause")
                    win_misuse = OperationalError(
                        f"misuse of window function {calls[-1].name}()")
                    x = Literal(None)
                break
            at += 1 if w is None else w
            n_star += w or 0
        out.append(x if inner is g else dataclasses.replace(g, expr=x))
    return out, agg_misuse or win_misuse


def _window_calls(e, out):
    """The window calls of ``e`` in pre-order, subqueries aside, appended to ``out``."""
    if _is_window_call(e):
        out.append(e)
    if not isinstance(e, (Subquery, Exists, InSelect)):
        for c in iter_children(e):
            _window_calls(c, out)
    return out


def _calls_aggregate(p, e) -> bool:
    """Whether ``e`` calls an aggregate (not as a window function), subqueries aside."""
    return find_node(e, lambda x: type(x) is FunctionCall and x.over is None and
                     p.functions.is_aggregate(x.name, 0 if x.star else len(x.args))) is not None


def _aggregate_misuse(p, core, order_by):
    """The errors SQLite gives a window query without GROUP BY whose result columns call
    no aggregate: a HAVING clause (window calls' own aggregates do not count there:
    resolveSelectStep), an aggregate call in ORDER BY when none in the result columns
    makes the query an aggregate one ('misuse of aggregate', its coder's)."""
    from sqlengine.compiler.resolve_order import aggregate_call
    if core.group_by:
        return
    results = [rc.expr for rc in core.columns if type(rc) is ResultColumn]
    if core.having is not None:
        if not any(aggregate_call(p, e, False) is not None for e in results):
            raise OperationalError("HAVING clause on a non-aggregate query")
        return
    if any(aggregate_call(p, e) is not None for e in results):
        return
    for t in order_by or ():
        call = aggregate_call(p, t.expr)
        if call is not None:
            raise OperationalError(f"misuse of aggregate: {call.name}()")


def _order_aliases(p, core, e, aliases):
    """An ORDER BY expression of a window query with the AS names in it that are no
    column of its FROM clause replaced by what they stand for (alias.py's rule: the
    inner query, whose result columns are not the query's own, cannot apply it)."""
    if not aliases:
        return e

    def name(c):
        x = aliases.get(c.name.lower()) if c.table is None else None
        if x is None or _from_column(p, core, c):
            return c
        return x
    return rewrite_columns(e, name)


def _from_column(p, core, c) -> bool:
    """Whether the bare name ``c`` is a column (or rowid) of ``core``'s FROM clause (a
    throw-away compile of SELECT c FROM ...; enclosing queries unseen, as by ORDER BY)."""
    probe = Select(body=SelectCore(columns=[ResultColumn(c)], from_=core.from_))
    try:
        _select.result_info_only(p, probe)
    except OperationalError as err:
        return str(err) != f"no such column: {c.name}"  # (another error: the query's own)
    return True


def _star_width(p, core, star, n_star, n_items):
    if n_items == 1:
        return n_star
    probe = Select(body=dataclasses.replace(core, columns=[star], windows=None,
                                              distinct=False, group_by=None, having=None))
    return len(_select.result_info_only(p, probe).names)


def _runtime_specs(p, rw, n_star, colls):
    """What ``_compute`` needs per window call; PARTITION BY and ORDER BY values compare
    under the collation of their expression (``colls``: the inner query's columns')."""
    specs = []
    for (e, name, agg, w, args, parts, order, filt) in rw.windows:
        fr = w.frame
        frame = None
        offset_error = None
        if fr is not None:
            # an EXCLUDE clause, even NO OTHERS, makes SQLite rescan each frame
            units = fr.units.upper()
            try:
                frame = (units, _bound(fr.start, units, "starting"),
                         _bound(fr.end, units, "ending") if fr.end else ("CURRENT ROW", None),
                         fr.exclude.upper() if fr.exclude else None)
            except _OffsetError as err:  # raised when rows come, as SQLite's check runs
                offset_error = str(err)
                frame = (units, ("UNBOUNDED PRECEDING", None), ("CURRENT ROW", None), None)
        const_args = []
        if agg is not None and agg.needs_collation and args and colls[n_star + args[0]]:
            # min()/max() compare under their argument's collation
            agg = agg.with_collation(p.coll_func(colls[n_star + args[0]]))
        specs.append(dict(
            offset_error=offset_error,
            pass_key=_pass_key(name, w, frame),
            name=name, agg=agg, args=[n_star + a for a in args],
            parts=[n_star + x for x in parts],
            order=[(n_star + c, d, nl) for c, d, nl in order],
            part_colls=[p.coll_func(colls[n_star + x]) for x in parts],
            order_colls=[p.coll_func(colls[n_star + c]) for c, _d, _nl in order],
            filt=None if filt is None else n_star + filt, frame=frame,
            star=e.star, const_args=const_args))
    return specs


# the frames SQLite gives these functions whatever their OVER clause says
_FIXED_FRAMES = {
    "row_number": ("ROWS", "UNBOUNDED PRECEDING", "CURRENT ROW"),
    "dense_rank": ("RANGE", "UNBOUNDED PRECEDING", "CURRENT ROW"),
    "rank": ("RANGE", "UNBOUNDED PRECEDING", "CURRENT ROW"),
    "percent_rank": ("GROUPS", "CURRENT ROW", "UNBOUNDED FOLLOWING"),
    "cume_dist": ("GROUPS", "FOLLOWING", "UNBOUNDED FOLLOWING"),
    "ntile": ("ROWS", "CURRENT ROW", "UNBOUNDED FOLLOWING"),
    "lead": ("ROWS", "UNBOUNDED PRECEDING", "UNBOUNDED FOLLOWING"),
    "lag": ("ROWS", "UNBOUNDED PRECEDING", "CURRENT ROW"),
}


def _pass_key(name, w, frame):
    """Calls with equal keys are computed in one pass over one sort, as SQLite groups the
    windows that compare equal: the same PARTITION BY, ORDER BY and frame (the frame as
    SQLite fixes it for the ranking functions; FILTER does not count)."""
    if name in _FIXED_FRAMES:
        units, start, end = _FIXED_FRAMES[name]
        shape = (units, (start, None), (end, None), None)
    elif frame is None:
        shape = ("RANGE", ("UNBOUNDED PRECEDING", None), ("CURRENT ROW", None), None)
    else:
        shape = frame
    return (_shape(w.partition_by), _shape(w.order_by), repr(shape))


def _shape(e):
    """An expression as a comparable value: its structure without source positions, names
    of columns in lower case."""
    if isinstance(e, A.Column):
        return ("Column", e.name.lower(), (e.table or "").lower(), (e.schema or "").lower())
    if dataclasses.is_dataclass(e):
        return (type(e).__name__,) + tuple(_shape(getattr(e, f.name))
                                           for f in dataclasses.fields(e) if f.name != "pos")
    if isinstance(e, (list, tuple)):
        return tuple(_shape(x) for x in e)
    return e


def _bound(bd, units, side):
    kind = bd.kind.upper()
    off = None
    if bd.offset is not None:
        off = _checked_offset(_const(bd.offset), units, side)
    return (kind, off)


class _OffsetError(OperationalError):
    """A frame offset SQLite rejects, once the window has rows to compute."""


def _checked_offset(v, units, side):
    """A frame offset as SQLite's windowCheckValue takes it: numeric affinity first; ROWS
    and GROUPS want a non-negative integer (OP_MustBeInt), RANGE a non-negative number
    (no text, blob or NULL)."""
    v = apply_numeric_affinity(v, True) if isinstance(v, str) else v
    if units == "RANGE":
        if type(v) not in (int, float) or v < 0:
            raise _OffsetError(f"frame {side} offset must be a non-negative number")
        return v
    if type(v) is float and v == int(v):
        v = int(v)
    if type(v) is not int or v < 0:
        raise _OffsetError(f"frame {side} offset must be a non-negative integer")
    return v


def _const(e):
    """The value of a frame offset: a literal, or +, -, * and / over literals; NULL for
    any other expression, as SQLite's parser puts NULL in place of an offset that is not
    constant (sqlite3WindowOffsetExpr: a column, a function call, a subquery), which its
    run-time check then refuses."""
    if isinstance(e, Literal):
        return e.value
    if isinstance(e, Unary) and e.op in ("-", "+"):
        v = _const(e.operand)
        return negate(v) if e.op == "-" else v
    if isinstance(e, A.Binary) and e.op in _ARITHMETIC:
        return _ARITHMETIC[e.op](_const(e.left), _const(e.right))
    return None


_ARITHMETIC = {"+": add, "-": sub, "*": mul, "/": div}


# ------------------------------------------------------------------------------------------
# Run time
# ------------------------------------------------------------------------------------------



def _sort_key(order, colls=None):
    """A sort key over rows for ``order`` [(column, desc, nulls)], the i-th column
    compared under ``colls[i]`` (None: BINARY)."""
    colls = colls or [None] * len(order)

    def cmp(r1, r2):
        for (col, desc, nulls), coll in zip(order, colls):
            a, b = r1[col], r2[col]
            if a is None or b is None:
                if a is None and b is None:
                    continue
                first = (nulls or ("LAST" if desc else "FIRST")).upper() == "FIRST"
                c = -1 if a is None else 1
                return c if first else -c
            c = compare_values(a, b, coll)
            if c:
                return -c if desc else c
        return 0
    return functools.cmp_to_key(cmp)


def _sorted(indexes, rows, order, colls):
    """``indexes`` sorted (stably) by their rows' ``order`` [(column, desc, nulls)]. Under
    BINARY a key per column does it, one stable sort per column from the last: NULL, then
    numbers, text and blobs, as SQLite orders them (Python compares int with float, str by
    code point and bytes as memcmp does); a collation needs the comparison function."""
    if any(coll is not None for coll in colls):
        kf = _sort_key(order, colls)
        return sorted(indexes, key=lambda i: kf(rows[i]))
    out = list(indexes)
    for col, desc, nulls in reversed(order):
        nulls_first = (nulls or ("LAST" if desc else "FIRST")).upper() == "FIRST"
        null_key = (0, 0) if nulls_first != desc else (4, 0)

        def key(i, col=col, null_key=null_key):
            v = rows[i][col]
            if v is None:
                return null_key
            t = type(v)
            if t is int or t is float:
                return (1, v)
            return (2, v) if isinstance(v, str) else (3, v)
        out.sort(key=key, reverse=desc)
    return out


def _take_rows(vm, cur):
    """The intermediate table's rows (as lists) and what ``_put_rows`` needs to store them
    back: None for the VM's in-memory table, or (its b-tree cursor, rowids) for a table the
    VM moved to a temporary b-tree past its memory budget (read back whole: the frames
    need every row of a partition)."""
    c = vm.cursors[cur]
    rows = getattr(c.data, "rows", None)
    if isinstance(rows, list):
        return [list(r) for r in rows], None
    from sqlengine.storage._record import decode_record
    bt = c.bt
    rows = []
    rowids = []
    ok = bt.first()
    while ok:
        rowids.append(bt.rowid)
        rows.append(list(decode_record(bt.payload())))
        ok = bt.next()
    return rows, (bt, rowids)


def _put_rows(vm, cur, rows, spilled):
    """The rows with their window values, in their final order, back in the table."""
    if spilled is None:
        vm.cursors[cur].data.rows[:] = [tuple(r) for r in rows]
        return
    from sqlengine.storage._record import encode_record
    bt, rowids = spilled
    for rowid, row in zip(rowids, rows):
        bt.insert(rowid, encode_record(tuple(row)))


def _compute(vm, cur, specs):
    rows, spilled = _take_rows(vm, cur)
    n = len(rows)
    bad = next((sp["offset_error"] for sp in specs if sp["offset_error"]), None) if n else None
    if bad is not None:
        raise OperationalError(bad)
    # SQLite computes the last window first: each pass sorts the rows as the one before it
    # left them (ties keep that order), and the rows come out in the first window's order
    order_in = list(range(n))
    results = [None] * len(specs)
    passes = {}
    for number, spec in enumerate(specs):
        passes.setdefault(spec["pass_key"], []).append(number)
    for numbers in reversed(list(passes.values())):
        spec = specs[numbers[0]]
        parts = spec["parts"]
        order = spec["order"]
        part_colls = spec["part_colls"]
        keyspec = [(c, False, None) for c in parts] + order
        srt = _sorted(order_in, rows, keyspec, part_colls + spec["order_colls"])
        bounds = []
        start = 0
        while start < n:
            end = start + 1
            while end < n and all(compare_values(rows[srt[end]][c], rows[srt[start]][c], coll)
                                  == 0 and (rows[srt[end]][c] is None) ==
                                  (rows[srt[start]][c] is None)
                                  for c, coll in zip(parts, part_colls)):
                end += 1
            bounds.append((start, end))
            start = end
        for number in numbers:
            values = [None] * n
            for start, end in bounds:
                _partition(rows, srt[start:end], specs[number], values)
            results[number] = values
        order_in = srt
    for values in results:  # the window columns, in the order of the calls
        for i in range(n):
            rows[i].append(values[i])
    _put_rows(vm, cur, [rows[i] for i in order_in], spilled)
    return None


def _peer_groups(rows, part, order, colls=None):
    """Group numbers (0-based) of the rows of a sorted partition by ORDER BY peers."""
    groups = []
    g = 0
    key = _sort_key(order, colls)
    for k, i in enumerate(part):
        if k and (not order or key(rows[i]) != key(rows[part[k - 1]])):
            g += 1
        groups.append(g)
    if not order:
        groups = [0] * len(part)
    return groups


def _partition(rows, part, spec, values):
    name = spec["name"]
    order = spec["order"]
    m = len(part)
    groups = _peer_groups(rows, part, order, spec["order_colls"])
    if name == "row_number":
        for k, i in enumerate(part):
            values[i] = k + 1
        return
    if name in ("rank", "dense_rank", "percent_rank", "cume_dist"):
        first_of = {}
        last_of = {}
        for k, g in enumerate(groups):
            first_of.setdefault(g, k)
            last_of[g] = k
        for k, i in enumerate(part):
            g = groups[k]
            if name == "rank":
                values[i] = first_of[g] + 1
            elif name == "dense_rank":
                values[i] = g + 1
            elif name == "percent_rank":
                values[i] = (first_of[g] / (m - 1)) if m > 1 else 0.0
            else:
                values[i] = (last_of[g] + 1) / m
        return
    args = spec["args"]
    if name == "ntile":
        if not m:
            return
        nt = ntile_buckets(rows[part[0]][args[0]])
        size, extra = divmod(m, nt)
        k = 0
        bucket = 1
        while k < m:
            width = size + (1 if bucket <= extra else 0)
            for _ in range(width):
                if k < m:
                    values[part[k]] = bucket
                    k += 1
            bucket += 1
        return
    if name in ("lag", "lead"):
        for k, i in enumerate(part):
            off = rows[i][args[1]] if len(args) > 1 else 1
            default = rows[i][args[2]] if len(args) > 2 else None
            j = offset_row(k, off, name == "lead")
            # (lag reads no further ahead than the next row: SQLite's cache holds no more)
            top = m if name == "lead" else min(m, k + 2)
            values[i] = rows[part[j]][args[0]] if j is not None and 0 <= j < top else default
        return
    # frame-based: first_value, last_value, nth_value, aggregates
    if spec["agg"] is not None:
        _aggregate_partition(rows, part, groups, spec, values)
        return
    los, his = _frame_bounds(rows, part, groups, spec)
    excluding = spec["frame"] is not None and spec["frame"][3] is not None
    for k, i in enumerate(part):
        lo, hi = los[k], his[k]
        if excluding:
            frame = _excluded(range(lo, hi + 1), k, groups, spec["frame"][3])
        else:
            frame = range(lo, hi + 1)
        if name == "first_value":
            values[i] = rows[part[frame[0]]][args[0]] if frame else None
        elif name == "last_value":
            values[i] = rows[part[frame[-1]]][args[0]] if frame else None
        elif excluding:  # (SQLite steps the frame's rows: no row, no check of N)
            nth = nth_value_index(rows[i][args[1]]) if frame else 0
            values[i] = rows[part[frame[nth - 1]]][args[0]] if 0 < nth <= len(frame) else None
        else:
            nth = nth_value_index(rows[i][args[1]])
            values[i] = rows[part[frame[nth - 1]]][args[0]] if nth <= len(frame) else None

def _aggregate_partition(rows, part, groups, spec, values):
    """An aggregate over the frames of one sorted partition, driven as SQLite drives it.

    Without EXCLUDE, one aggregate instance serves the whole partition: a row is stepped
    when it enters the frame and inverted when it leaves (oldest first), value() gives each
    row's result (once per peer group for RANGE and GROUPS frames, whose peers share one
    frame) and finalize() ends the partition, its result and errors dropped. With an
    EXCLUDE clause SQLite rescans every frame: a new instance per row, stepped over the
    frame's rows, whose finalize() is the row's value. FILTER skips a row both ways."""
    agg = spec["agg"]
    args = spec["args"]
    filt = spec["filt"]
    frame = spec["frame"]
    los, his = _frame_bounds(rows, part, groups, spec)
    m = len(part)
    if frame is not None and frame[3] is not None:
        exclude = frame[3]
        for k in range(m):
            state = agg.new()
            for x in _excluded(range(los[k], his[k] + 1), k, groups, exclude):
                row = rows[part[x]]
                if filt is None or truth(row[filt]):
                    agg.step(state, [row[a] for a in args])
            values[part[k]] = agg.final(state)
        return
    state = agg.new()
    track = getattr(state, "track_window", None)
    if track is not None and frame is not None and frame[1][0] != "UNBOUNDED PRECEDING":
        track()  # min/max keep the frame's values to survive inverse(), as SQLite does
    else:
        track = None
    step = state.step
    inverse = state.inverse
    per_peer_group = frame is None or frame[0] != "ROWS"
    start = end = 0  # rows part[start:end] have been stepped and not inverted
    value = None
    for k in range(m):
        if per_peer_group and k and groups[k] == groups[k - 1]:
            values[part[k]] = value
            continue
        lo, hi = min(los[k], m), his[k]
        if lo < start or (hi < end - 1 and start < end):
            # a frame that moved back (not met in practice): start over from its first row
            _final_quietly(state)
            state = agg.new()
            if track is not None:
                state.track_window()
            step = state.step
            inverse = state.inverse
            start = end = lo
        # SQLite's order: rows leave before new ones enter, but the last row stepped
        # stays until the next one has entered
        while start < lo and start < end - 1:
            row = rows[part[start]]
            if filt is None or truth(row[filt]):
                inverse(*[row[a] for a in args])
            start += 1
        while end <= hi or start < lo:
            if end < m and (end <= hi or start >= end):
                row = rows[part[end]]
                if filt is None or truth(row[filt]):
                    step(*[row[a] for a in args])
                end += 1
            while start < lo and start < end and (start < end - 1 or end > hi):
                row = rows[part[start]]
                if filt is None or truth(row[filt]):
                    inverse(*[row[a] for a in args])
                start += 1
        value = state.value()
        values[part[k]] = value
    _final_quietly(state)


def _final_quietly(state):
    try:
        state.finalize()
    except Error:
        pass  # SQLite ignores the result (and an error) of the partition's final call


def _frame_bounds(rows, part, groups, spec):
    """Per position k of the sorted partition, the frame's first and last positions before
    EXCLUDE (empty when first > last). Both never decrease as k grows."""
    m = len(part)
    frame = spec["frame"]
    order = spec["order"]
    gfirst = []
    glast = []
    for k, g in enumerate(groups):
        if g == len(gfirst):
            gfirst.append(k)
            glast.append(k)
        else:
            glast[g] = k
    if frame is None:
        if not order:
            return [0] * m, [m - 1] * m
        return [0] * m, [glast[g] for g in groups]
    units, start, end, _exclude = frame
    ngroups = len(gfirst)
    los = []
    his = []
    ranger = None
    if units == "RANGE" and order and any(b[1] is not None for b in (start, end)):
        ranger = _RangeFinder(rows, part, order[0], spec["order_colls"][0])
    for k in range(m):
        g = groups[k]
        bounds = []
        for (kind, off), is_start in ((start, True), (end, False)):
            if kind == "UNBOUNDED PRECEDING":
                pos = 0
            elif kind == "UNBOUNDED FOLLOWING":
                pos = m - 1
            elif units == "ROWS":
                pos = k if kind == "CURRENT ROW" else k - off if kind == "PRECEDING" \
                    else k + off
            elif units == "GROUPS":
                t = g if kind == "CURRENT ROW" else g - off if kind == "PRECEDING" \
                    else g + off
                if t < 0:
                    pos = 0 if is_start else -1
                elif t >= ngroups:
                    pos = m if is_start else m - 1
                else:
                    pos = gfirst[t] if is_start else glast[t]
            elif kind == "CURRENT ROW" or ranger is None:
                pos = gfirst[g] if is_start else glast[g]
            else:
                pos = ranger.position(k, kind, off, is_start, gfirst[g], glast[g])
            bounds.append(pos)
        los.append(max(bounds[0], 0))
        his.append(min(bounds[1], m - 1))
    return los, his


class _RangeFinder:
    """RANGE <offset> PRECEDING/FOLLOWING bounds found by walking the partition's ORDER BY
    values in sort order (each bound's test is monotone, and so are the bounds): a number moves by
    the offset, text and blobs, which cannot, bound at their own value, and NULLs sit where
    the sort puts them (a NULL row's frame is its NULL peers). Values compare as SQLite's
    ORDER BY does, under its collation."""

    def __init__(self, rows, part, order_term, coll):
        col, self.desc, nulls = order_term
        self.nulls_first = (nulls or ("LAST" if self.desc else "FIRST")).upper() == "FIRST"
        self.coll = coll
        self.vals = [rows[i][col] for i in part]
        self.last = {}

    def _past(self, w, target, or_equal):
        """Whether ``w`` sorts after ``target`` (or equal to it, with ``or_equal``)."""
        if w is None:
            return not self.nulls_first
        c = compare_values(w, target, self.coll)
        if self.desc:
            c = -c
        return c >= 0 if or_equal else c > 0

    def position(self, k, kind, off, is_start, peer_first, peer_last):
        v = self.vals[k]
        if v is None:
            return peer_first if is_start else peer_last
        if isinstance(v, (int, float)):
            target = v - off if (kind == "PRECEDING") != self.desc else v + off
        else:
            target = v
        vals = self.vals
        # start: the first row at or past the target; end: the last row not past it. The
        # targets grow with k in sort order, so each search goes on from the last answer.
        key = (kind, is_start)
        x = self.last.get(key, 0)
        past = self._past
        m = len(vals)
        while x < m and not past(vals[x], target, is_start):
            x += 1
        self.last[key] = x
        return x if is_start else x - 1


def _excluded(positions, k, groups, exclude):
    """The frame's positions less those its EXCLUDE clause removes."""
    if exclude == "CURRENT ROW":
        return [x for x in positions if x != k]
    if exclude == "GROUP":
        return [x for x in positions if groups[x] != groups[k]]
    if exclude == "TIES":
        return [x for x in positions if x == k or groups[x] != groups[k]]
    return list(positions)


# select.py imports this module: bound once this one is complete, its functions read as
# attributes (an import inside the functions ran once or more per window query).
from sqlengine.compiler import select as _select  # noqa: E402
from sqlengine.compiler.expr import term_number, uncollated  # noqa: E402
