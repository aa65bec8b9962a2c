"""Common table expressions: WITH, WITH RECURSIVE, and the MATERIALIZED hints.

A WITH clause pushes a frame of named CTEs on ``Parse.ctes``; a FROM item that names one
becomes a source read from an ephemeral table filled once per statement, like a view.
A recursive CTE (a compound whose right-hand arms read the CTE itself; the RECURSIVE
keyword is optional, as in SQLite) is computed with a queue, as SQLite does: the initial
arms fill the queue, then each queued row, in turn, becomes the only row of the recursive
reference while the recursive arms run, and every row they produce is queued and output.
UNION keeps a set of the rows seen; LIMIT and OFFSET of the CTE apply to its output.
Where SQLite materializes the CTE (MATERIALIZED, read twice, or not where it would run it as
a co-routine) the rows output are stored with its columns' affinities (select.TableDest),
the queue keeping them as they are.

This module emits code; it never runs it and never touches storage.
"""

from __future__ import annotations

from contextlib import contextmanager

from sqlengine.compiler._resolve import EARLY_NAMES
from sqlengine.compiler.attach import holder_name, table_db, view_db
from sqlengine.compiler.explain import eqp_close, eqp_open
from sqlengine.compiler.subtype import code_clear, recursive_clears
from sqlengine.compiler.walk import iter_children
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O
from sqlengine.vdbe.sorter import SortSpec


class CteEntry:
    __slots__ = ("name", "cte", "env", "recursive_source", "busy", "uses", "stored")

    def __init__(self, name, cte):
        self.name = name
        self.cte = cte
        self.env = None  # the frames visible inside its body
        self.recursive_source = None  # Source of the current row while the recursive arms compile
        self.busy = False
        self.uses = 1  # FROM items naming it in the statement (SQLite materializes at 2)
        # (program builder, Source) of each program where a reference stored it, filled
        # once (not reading an enclosing query's row): the later references read that
        # table (``_stored_again``)
        self.stored = None


def push_with(p, with_: A.With, owner=None):
    """Push the frame of a WITH clause; returns a token for ``pop_with``. ``owner`` is the
    statement the clause belongs to, where the references to each CTE are counted."""
    stack = getattr(p, "ctes", None)
    if stack is None:
        stack = []
        p.ctes = stack
    frame = {}
    for cte in with_.ctes:
        key = cte.name.lower()
        if key in frame:
            raise OperationalError(f"duplicate WITH table name: {cte.name}")
        e = CteEntry(cte.name, cte)
        if owner is not None:
            e.uses = sum(_references(c, key) for c in iter_children(owner)
                         if c is not with_) + sum(
                _references(c.select, key) for c in with_.ctes if c is not cte)
        frame[key] = e
        # the body sees the outer frames, the earlier CTEs of this WITH, and itself
        e.env = stack + [dict(frame)]
    stack.append(frame)
    return len(stack) - 1


def pop_with(p, token):
    del p.ctes[token:]


@contextmanager
def schema_scope(p, holder=None, kind="views"):
    """Hide the statement's WITH frames while the body of the view or trigger ``holder``
    compiles: such a body names the schema's tables and views, never a CTE of the statement
    that uses it; a table it names unqualified and misses is missed in the holder's
    database (``Parse.body_db``: attach.holder_name)."""
    saved = getattr(p, "ctes", None), p.body_db
    p.ctes = []
    if holder is not None:
        p.body_db = holder_name(p.db, p.schema, holder, kind)
    try:
        yield
    finally:
        p.ctes, p.body_db = saved


def missing_table(p, name, schema=None):
    """SQLite's error for a FROM item naming no table, view or CTE: the name as written,
    qualified by its schema, or else by the database of the view or trigger body it is in."""
    db_name = schema or p.body_db
    return OperationalError(f"no such table: {db_name}.{name}" if db_name else
                            f"no such table: {name}")


def bound_object(p, name, schema=None, kind="tables"):
    """The table (``kind="views"``: the view) that ``[schema.]name`` names in the body of
    a view or trigger of database ``p.body_db``: SQLite binds every name of a main (or
    attached) body to the body's database (sqlite3FixSrcList), so a temp table hiding a
    main one is not what a main view reads, nor one only temp has (then None: "no such
    table: main.t"); also ``main.t`` written in a body. Outside a body, and for an
    unqualified name in a temp one, the merged schema's bare name (temp first)."""
    db = schema or p.body_db
    objs = getattr(p.schema, kind)
    if db is None:
        return objs.get(name.lower())
    db = db.lower()
    own = objs.get(f"{db}.{name.lower()}")
    if own is not None:
        return own
    obj = objs.get(name.lower())
    if obj is None:
        return None
    return obj if (table_db(p.db, obj) if kind == "tables" else view_db(p.db, obj)) == db \
        else None


def find_cte(p, name: str):
    stack = getattr(p, "ctes", None)
    if not stack:
        return None
    key = name.lower()
    for frame in reversed(stack):
        e = frame.get(key)
        if e is not None:
            return e
    return None


def _current_row_class(Source):
    class CurrentRow(Source):
        """The one-row table of a recursive CTE's current row: its content changes on
        every pass, so no automatic index may be built over it once."""
        changes_per_run = True
    return CurrentRow


def _references(node, name: str) -> int:
    """How many FROM items in ``node`` name ``name`` (not looking into nested WITHs that
    shadow it)."""
    n = 0
    if isinstance(node, A.TableRef):
        return 1 if node.schema is None and node.name.lower() == name else 0
    if isinstance(node, A.Select) and node.with_ is not None:
        if any(c.name.lower() == name for c in node.with_.ctes):
            return 0
    for child in iter_children(node):
        n += _references(child, name)
    return n


def _from_references(core, name: str) -> int:
    """References to ``name`` directly in the FROM clause of an arm (not in subqueries)."""
    if not isinstance(core, A.SelectCore) or core.from_ is None:
        return 0
    n = 0
    stack = [core.from_]
    while stack:
        f = stack.pop()
        if isinstance(f, A.Join):
            stack.append(f.left)
            stack.append(f.right)
        elif isinstance(f, A.TableRef) and f.schema is None and f.name.lower() == name:
            n += 1
    return n


def _arms(body, out):
    if isinstance(body, A.Compound):
        _arms(body.left, out)
        out.append((body.op, body.right))
    else:
        out.append((None, body))
    return out


def cte_source(p, entry: CteEntry, alias, Source, materialize, outer=None, coroutine=False):
    """The FROM source of a reference to CTE ``entry``; ``outer`` and ``coroutine``: the
    context of the query reading it (select._source_for's)."""
    if entry.recursive_source is not None:
        src = entry.recursive_source
        _CurrentRow = _current_row_class(Source)
        if entry.busy:
            raise OperationalError(f"multiple references to recursive table: {entry.name}")
        entry.busy = True
        p.eqp_names[src.cursor] = alias or entry.name
        return _CurrentRow(alias or entry.name, src.cursor, list(src.columns), src.affs,
                           src.colls, src.decltypes)
    if entry.busy:
        raise OperationalError(f"circular reference: {entry.name}")
    cte = entry.cte
    name = entry.name.lower()
    saved = p.ctes
    p.ctes = entry.env
    entry.busy = True
    try:
        sel = cte.select
        arms = _arms(sel.body, [])
        # SQLite flattens a CTE like a subquery, or runs it as a co-routine, unless
        # MATERIALIZED, or not NOT MATERIALIZED and read more than once
        forced = cte.materialized is True or (cte.materialized is None and entry.uses > 1)
        if _references(sel, name) and len(arms) > 1 and any(
                _from_references(arm, name) for _op, arm in arms):
            # (materialized, its rows are stored with its columns' affinities)
            typed = outer is not None and (forced or not coroutine)
            src = _recursive(p, entry, sel, arms, alias, Source, coroutine and not forced,
                             typed)
        elif forced and _stored_in(entry, p.b) is not None:
            src = _stored_again(p, _stored_in(entry, p.b), alias or entry.name, Source)
        else:
            src = materialize(p, sel, alias or entry.name, None, entry.name, forced=forced,
                              names_as=cte.columns)
            if cte.columns:
                if len(cte.columns) != len(src.columns):
                    raise OperationalError(f"table {entry.name} has {len(src.columns)} "
                                           f"values for {len(cte.columns)} columns")
                from sqlengine.compiler.select import _dedupe, renamed_source
                src = renamed_source(src, _dedupe(list(cte.columns)))
            if forced and src.fill is not None and not src.refill:
                if entry.stored is None:
                    entry.stored = []
                entry.stored.append((p.b, src))
    finally:
        entry.busy = False
        p.ctes = saved
    return src


def _stored_in(entry, b):
    """The Source that stored CTE ``entry`` in the program ``b`` builds, or None."""
    if entry.stored is not None:
        for holder, src in entry.stored:
            if holder is b:
                return src
    return None


def _stored_again(p, first, name, Source):
    """A later reference (named ``name``) to a CTE stored once by the reference whose
    Source is ``first``: SQLite fills it now, before this query's loops (its subroutine
    fills it once: a Gosub after the first does nothing), and reads the same rows through
    a cursor of its own (OpenDup); no MATERIALIZE plan line."""
    b = p.b
    cur = b.alloc_cursor()
    b.emit(O.OP_Gosub, first.fill[0], first.fill[1])
    b.emit(O.OP_OpenDup, cur, first.cursor)
    src = Source(name, cur, list(first.columns), first.affs, first.colls, first.decltypes)
    src.row_est = first.row_est
    src.enames, src.noexpand = first.enames, first.noexpand
    p.eqp_names[cur] = name
    return src


def _recursive(p, entry, sel, arms, alias, Source, coroutine=False, typed=False):
    """The source of recursive CTE ``entry`` (``sel``, its ``arms``): SQLite's queue
    (generateWithRecursiveQuery). Each row taken from the queue is output (OFFSET and
    LIMIT count these), then the recursive arms run on it and queue what they make. The
    rows output are stored in an ephemeral table, or with ``coroutine`` yielded one at a
    time to the loop reading the CTE (so an unbounded recursion read under a LIMIT
    ends, as in SQLite); ``typed``: stored with its columns' affinities (see
    select.TableDest)."""
    from sqlengine.compiler.expr import code_expr
    from sqlengine.compiler.select import (CallbackDest, CoroutineDest, _dedupe,
                                           check_collations, compile_select,
                                           coroutine_source, table_affinity)
    b = p.b
    name = entry.name.lower()
    first_rec = next(k for k, (_op, arm) in enumerate(arms) if _from_references(arm, name))
    if first_rec == 0:
        raise OperationalError(f"circular reference: {entry.name}")
    for _op, arm in arms[:first_rec]:
        if _references(arm, name):
            raise OperationalError(f"circular reference: {entry.name}")
    for _op, arm in arms[first_rec:]:
        if isinstance(arm, A.SelectCore):
            if _from_references(arm, name) > 1:
                raise OperationalError(
                    f"multiple references to recursive table: {entry.name}")
            if _references(arm, name) != _from_references(arm, name):
                raise OperationalError(f"recursive reference in a subquery: {entry.name}")
            if arm.group_by or _has_aggregate(p, arm):
                raise OperationalError("recursive aggregate queries not supported")
    from sqlengine.compiler.window import has_window
    if has_window(arms[-1][1]):  # SQLite looks at the last arm only
        raise OperationalError("cannot use window functions in recursive queries")
    rec_op = arms[first_rec][0]
    if rec_op not in ("UNION", "UNION ALL"):
        raise OperationalError(f"circular reference: {entry.name}")
    distinct = rec_op == "UNION"
    order = _queue_order(sel.order_by, arms, entry) if sel.order_by else None
    # the initial select: the arms before the first recursive one
    body = arms[0][1]
    for op, arm in arms[1:first_rec]:
        body = A.Compound(body, op, arm)
    init_sel = A.Select(body=body)

    out_cur = b.alloc_cursor()
    queue = b.alloc_cursor()
    current = b.alloc_cursor()
    seen = b.alloc_cursor() if distinct else None
    past = b.new_label()  # (after the code: where its Once or InitCoroutine goes)
    done = b.new_label()
    dest = None
    if coroutine:
        dest = CoroutineDest(b.alloc_reg())
        start = b.emit(O.OP_InitCoroutine, dest.reg, past, b.addr() + 1)
    else:
        b.emit(O.OP_Once, 0, past)
        b.emit(O.OP_OpenEphemeral, out_cur, 0)
    queue_open = b.emit(O.OP_OpenEphemeral, queue, 0)
    b.emit(O.OP_OpenEphemeral, current, 0)
    seen_open = b.emit(O.OP_Noop) if distinct else None
    lreg = oreg = None
    if sel.limit is not None:
        lreg = b.alloc_reg()
        code_expr(p, None, sel.limit, lreg)
        b.emit(O.OP_MustBeInt, lreg, 0)
        b.emit(O.OP_IfNot, lreg, done, 0)
        if sel.offset is not None:
            oreg = b.alloc_reg()
            code_expr(p, None, sel.offset, oreg)
            b.emit(O.OP_MustBeInt, oreg, 0)
    state = {"n": None}

    def add_row(base, n):
        if state["n"] is None:
            state["n"] = n
        elif n != state["n"]:
            raise OperationalError(
                f"SELECTs to the left and right of {rec_op} do not have the same number "
                "of result columns")
        code_clear(p, base, n, recursive_clears(p))
        skip = b.new_label()
        rec = b.alloc_reg()
        if distinct:
            b.emit(O.OP_Found, seen, skip, base, n)
            b.emit(O.OP_MakeRecord, base, n, rec)
            b.emit(O.OP_IdxInsert, seen, rec)
        if order is not None:  # (a priority queue: the ORDER BY values, a sequence, the row)
            nk = len(order)
            key = b.alloc_reg(nk + 1 + n)
            for k, (idx, _desc, _nf, _coll) in enumerate(order):
                if idx >= n:
                    raise OperationalError(f"{_nth(k + 1)} ORDER BY term out of range - "
                                           f"should be between 1 and {n}")
                b.emit(O.OP_SCopy, base + idx, key + k)
            b.emit(O.OP_Sequence, queue, key + nk)
            b.emit(O.OP_Copy, base, key + nk + 1, n - 1)
            b.emit(O.OP_MakeRecord, key, nk + 1 + n, rec)
            b.emit(O.OP_IdxInsert, queue, rec)
        else:
            rid = b.alloc_reg()
            b.emit(O.OP_MakeRecord, base, n, rec)
            b.emit(O.OP_NewRowid, queue, rid)
            b.emit(O.OP_Insert, queue, rec, rid)
        b.resolve(skip)

    line = eqp_open(p, f"{'CO-ROUTINE' if coroutine else 'MATERIALIZE'} {entry.name}")
    setup = eqp_open(p, "SETUP")
    saved, p.naming = p.naming, EARLY_NAMES  # (named as a FROM subquery's columns)
    try:
        info = compile_select(p, init_sel, CallbackDest(add_row), None)
    finally:
        p.naming = saved
    check_collations(p, info)
    eqp_close(p, setup)
    ncols = len(info.names)
    names = list(info.names)
    if entry.cte.columns:
        if len(entry.cte.columns) != ncols:
            raise OperationalError(
                f"table {entry.name} has {ncols} values for {len(entry.cte.columns)} columns")
        names = list(entry.cte.columns)
    names = _dedupe(names)
    if distinct:
        b.ops[seen_open] = [O.OP_OpenEphemeral, seen, ncols, 0,
                            SortSpec(ncols, [p.collation(c) for c in info.colls]), 0, None]
    # the loop over the queue
    if order is not None:
        nk = len(order)
        b.ops[queue_open] = [O.OP_OpenEphemeral, queue, nk + 1 + ncols, 0, SortSpec(
            nk + 1, [p.collation(c) if c else None for _i, _d, _n, c in order] + [None],
            [d for _i, d, _n, _c in order] + [False],
            [nf for _i, _d, nf, _c in order] + [True]), 0, None]
    if order is not None:  # (each turn takes the queue's first entry)
        top = b.addr()
        b.emit(O.OP_Rewind, queue, done)
    else:
        b.emit(O.OP_Rewind, queue, done)
        top = b.addr()
    cols = b.alloc_reg(ncols)
    shift = 0 if order is None else len(order) + 1
    for i in range(ncols):
        b.emit(O.OP_Column, queue, shift + i, cols + i)
    rec = b.alloc_reg()
    b.emit(O.OP_MakeRecord, cols, ncols, rec)
    if order is not None:  # the row leaves the queue
        b.emit(O.OP_Delete, queue, 0)
    out_done = b.new_label()  # the row is output (OFFSET and LIMIT count it)
    if oreg is not None:
        b.emit(O.OP_IfPos, oreg, out_done, 1)
    if dest is not None:
        dest.emit(p, cols, ncols)
    else:
        orid = b.alloc_reg()
        out = rec
        aff = table_affinity(info.affs) if typed else None
        if aff is not None:  # (the row goes on to the recursive step as it is)
            out = b.alloc_reg()
            b.emit(O.OP_MakeRecord, cols, ncols, out, aff)
        b.emit(O.OP_NewRowid, out_cur, orid)
        b.emit(O.OP_Insert, out_cur, out, orid)
    if lreg is not None:
        b.emit(O.OP_DecrJumpZero, lreg, done)
    b.resolve(out_done)
    b.emit(O.OP_ResetSorter, current)
    rid = b.alloc_reg()
    b.emit(O.OP_NewRowid, current, rid)
    b.emit(O.OP_Insert, current, rec, rid)
    entry.recursive_source = Source(entry.name, current, names, info.affs, info.colls,
                                    info.decltypes)
    step = eqp_open(p, "RECURSIVE STEP")
    try:
        for _op, arm in arms[first_rec:]:
            entry.busy = False
            compile_select(p, A.Select(body=arm), CallbackDest(add_row), None)
    finally:
        entry.recursive_source = None
        entry.busy = True
        eqp_close(p, step)
        eqp_close(p, line)
    p.eqp_names[out_cur] = alias or entry.name
    if order is not None:
        b.emit(O.OP_Goto, 0, top)
    else:
        b.emit(O.OP_Next, queue, top)
    b.resolve(done)
    if dest is not None:
        b.emit(O.OP_EndCoroutine, dest.reg)
    b.resolve(past)
    if dest is not None:
        return coroutine_source(b, alias or entry.name, out_cur, names, info, dest, start + 1)
    return Source(alias or entry.name, out_cur, names, info.affs, info.colls,
                  info.decltypes)


def _queue_order(order_by, arms, entry):
    """The ORDER BY of a recursive CTE, which orders its queue (SQLite's priority queue):
    [(result column number, desc, nulls first, collation name)]; each term a column
    number or the name (an alias) of a result column of an arm."""
    from sqlengine.compiler.expr import term_number
    out = []
    for k, term in enumerate(order_by):
        e = term.expr
        coll = None
        while isinstance(e, A.Collate):
            coll = e.collation if coll is None else coll
            e = e.expr
        idx = None
        number = term_number(e)
        if number is not None:
            if number < 1:
                raise OperationalError(f"{_nth(k + 1)} ORDER BY term out of range - should be "
                                       f"between 1 and {_width(arms)}")
            idx = number - 1
        elif type(e) is A.Column and e.table is None:
            for _op, arm in arms:
                for j, rc in enumerate(getattr(arm, "columns", ())):
                    name = rc.alias if type(rc) is A.ResultColumn and rc.alias else \
                        rc.expr.name if type(rc) is A.ResultColumn and \
                        type(rc.expr) is A.Column else None
                    if name is not None and name.lower() == e.name.lower():
                        idx = j
                        break
                if idx is not None:
                    break
        if idx is None:
            raise OperationalError(
                f"{_nth(k + 1)} ORDER BY term does not match any column in the result set")
        nulls = getattr(term, "nulls", None)
        nulls_first = (not term.desc) if nulls is None else str(nulls).upper() == "FIRST"
        out.append((idx, term.desc, nulls_first, coll))
    return out


def _width(arms):
    return len(getattr(arms[0][1], "columns", ()) or ())


def _nth(n):
    from sqlengine.compiler.select import _ordinal
    return _ordinal(n)


def _has_aggregate(p, core):
    from sqlengine.compiler.expr import is_aggregate_call
    found = []

    def visit(x):
        if isinstance(x, A.FunctionCall) and x.over is None:
            try:
                if is_aggregate_call(p, x):
                    found.append(x)
            except Exception:  # noqa: BLE001 - unknown functions are reported later
                pass
        if isinstance(x, (A.Subquery, A.Exists, A.InSelect)):
            return
        for y in iter_children(x):
            visit(y)
    for rc in core.columns:
        visit(rc)
    if core.having is not None:
        visit(core.having)
    return bool(found)
