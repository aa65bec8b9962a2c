"""SELECT: FROM (tables, views, subqueries, joins), result columns, WHERE, GROUP BY /
HAVING with aggregates, DISTINCT, ORDER BY, LIMIT/OFFSET, compound selects, VALUES, and
the three kinds of subquery used inside expressions (scalar, IN, EXISTS).

Rows leave a SELECT through a ``Dest`` (the caller's result rows, a register for a scalar
subquery, an ephemeral table or index, or a callback that emits code for INSERT ... SELECT).
This module emits code through ``ProgramBuilder``; it never runs it.
"""

from __future__ import annotations

from sqlengine.compiler.alias import (Aliases, check_local_terms, link_subquery_scope,
                                      sees_outer_aliases)
from sqlengine.compiler.aggscope import attach as attach_aggregates
from sqlengine.compiler.attach import ROOT_SHIFT, table_db
from sqlengine.compiler.aggscope import FromLink
from sqlengine.compiler.aggscope import own as own_aggregates
from sqlengine.compiler.aggscope import resolved_aggregate
from sqlengine.compiler.expr import (aggs_in, bare_refs, code_column, code_expr, code_expr_reg,
                                     hex_noted, hex_quietly, if_false, term_number,
                                     uncollated, walk, walk_select)
from sqlengine.compiler import _codegen as _cg  # (C calls when compiled: select.pxd)
from sqlengine.compiler import _resolve as _res  # (the same)
from sqlengine.compiler._codegen import code_in_probe, emit_limited
from sqlengine.compiler._resolve import (COLUMN_NAMES, EARLY_NAMES, ResultInfo, replace_node,
                                         result_column)
from sqlengine.compiler.resolve import (ResolvedColumn, ColRef, CoroutineSource, Scope,
                                        Source, expr_affinity, expr_collation, expr_coll_seq,
                                        check_star_column, coroutine_place,
                                        subquery_rowid_null,
                                        table_source)
from sqlengine.compiler.walk import OPERANDS as _OPERANDS
from sqlengine.compiler.walk import expr_key, find_node
from sqlengine.compiler.window import compile_window_select, has_window
from sqlengine.compiler.flatjoin import flatten_join
from sqlengine.compiler.leftjoin import has_left_join, simplify_left_joins
from sqlengine.compiler.flatten import (ALL_COLUMNS, flatten_lone, unused_columns,
                                        without_outer_aggregates)
from sqlengine.compiler.nestedfrom import is_nested, nested_columns, set_nested, star_skips
from sqlengine.compiler import rightjoin, truefalse
from sqlengine.compiler.cte import bound_object
from sqlengine.compiler.group_order import distinct_is_group, order_is_group
from sqlengine.compiler.explain import eqp_close, eqp_line, eqp_open, eqp_set, select_id
from sqlengine.compiler.pushdown import and_terms, rowid_filtered
from sqlengine.compiler.plan_minmax import code_count, code_minmax
from sqlengine.compiler.plan_terms import column_of
from sqlengine.compiler.planner import TABLE_ROWS, check_indexed_by, log_est
from sqlengine.compiler.tablefunc import (bind_hidden, bound_terms, function_name,
                                          function_source, star_hidden, without_bound)
from sqlengine.compiler import _select as _sel  # (C calls when compiled: select.pxd)
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.sql.ast import (
    Binary, Collate, Column, Compound, FEAT_COLLATE, FEAT_FUNCTION, FEAT_WINDOW, FunctionCall,
    Join, Literal, ResultColumn, RowValue, Select, SelectCore, Star, SubqueryRef,
    TableFunctionRef, TableRef, Values)
from sqlengine.sql.limits import MAX_COLUMN
from sqlengine.vdbe import opcodes as O
from sqlengine.vdbe._functable import FunctionTable
from sqlengine.vdbe.opcodes import (
    AFF_BLOB, AFF_NONE, OP_Column, OP_Found, OP_Goto, OP_IdxDelete, OP_IdxInsert, OP_IfNot, OP_Insert,
    OP_Integer, OP_MakeRecord, OP_MustBeInt, OP_NewRowid, OP_Next, OP_Noop, OP_NotFound,
    OP_EndCoroutine, OP_InitCoroutine, OP_Null, OP_Once, OP_OpenEphemeral,
    OP_ResultRow, OP_Return, OP_Rewind, OP_RowData, OP_SCopy, OP_SorterCutoff,
    OP_SorterInsert, OP_SorterNext, OP_SorterOpen, OP_SorterSort)
from sqlengine.vdbe.sorter import SortSpec

# SQLITE_MAX_COLUMN: "too many columns in result set" beyond it

# ------------------------------------------------------------------------------------------
# Destinations
# ------------------------------------------------------------------------------------------

class Dest:
    """Where result rows go. ``emit(p, base, n)`` emits the code for one row in
    registers base..base+n-1."""

    stop_label = None

    def emit(self, p, base, n):
        raise NotImplementedError


class OutputDest(Dest):
    def emit(self, p, base, n):
        p.b.emit(OP_ResultRow, base, n)


class ScalarDest(Dest):
    """The first row of a subquery into ``width`` registers from ``target``, then stop."""

    def __init__(self, target, stop, width=1):
        self.target = target
        self.stop_label = stop
        self.width = width

    def emit(self, p, base, n):
        for i in range(min(n, self.width)):
            p.b.emit(OP_SCopy, base + i, self.target + i)
        p.b.emit(OP_Goto, 0, self.stop_label)


class ExistsDest(Dest):
    def __init__(self, target, stop):
        self.target = target
        self.stop_label = stop

    def emit(self, p, base, n):
        p.b.emit(OP_Integer, 1, self.target)
        p.b.emit(OP_Goto, 0, self.stop_label)


class SetDest(Dest):
    """Rows into an ephemeral index (IN sets, UNION, INTERSECT, EXCEPT)."""

    def __init__(self, cursor, aff=None, delete=False, keep_first=False):
        self.cursor = cursor
        self.aff = aff
        self.delete = delete
        self.keep_first = keep_first  # of equal rows the first stays (else the last)
        self.addrs = []  # MakeRecord instructions (an IN's affinity: _codegen.code_in_probe)

    def emit(self, p, base, n):
        b = p.b
        if self.delete:
            b.emit(OP_IdxDelete, self.cursor, base, n)
            return
        r = b.alloc_reg()
        self.addrs.append(b.emit(OP_MakeRecord, base, n, r, self.aff))
        skip = None
        if self.keep_first:
            skip = b.new_label()
            b.emit(OP_Found, self.cursor, skip, r, 0)
        b.emit(OP_IdxInsert, self.cursor, r)
        if skip is not None:
            b.resolve(skip)


class TableDest(Dest):
    """Rows into an ephemeral rowid table (FROM subqueries, UNION ALL parts); ``clear``
    names the columns that lose a JSON subtype on the way (``subtype.subquery_clears``).
    ``typed``: the rows are stored with their columns' affinities, as SQLite stores those
    of a FROM subquery, view or CTE it materializes (its MakeRecord takes the affinity
    string of the subquery's table, sqlite3TableAffinityStr); the affinities being known
    once the SELECT is coded, its MakeRecords are noted and ``set_affinity`` patches them;
    ``arms`` gets the affinities of each SELECT of a UNION ALL coded into it (SQLite
    flattens no compound whose SELECTs differ in one: ``_flattened``)."""

    def __init__(self, cursor, clear=None, typed=False):
        self.cursor = cursor
        self.clear = clear
        self.addrs = [] if typed else None
        self.arms = [] if typed else None

    def emit(self, p, base, n):
        b = p.b
        if self.clear is not None:
            from sqlengine.compiler.subtype import code_clear
            code_clear(p, base, n, self.clear)
        r = b.alloc_reg()
        rid = b.alloc_reg()
        a = b.emit(OP_MakeRecord, base, n, r)
        if self.addrs is not None:
            self.addrs.append(a)
        b.emit(OP_NewRowid, self.cursor, rid)
        b.emit(OP_Insert, self.cursor, r, rid)

    def set_affinity(self, p, affs):
        """Give the rows stored the column affinities ``affs`` (a typed TableDest)."""
        aff = table_affinity(affs)
        if aff is not None:
            ops = p.b.ops
            for a in self.addrs:
                ops[a][4] = aff


def table_affinity(affs):
    """SQLite's sqlite3TableAffinityStr for columns of affinities ``affs``, one letter a
    column (the VM reads one for each: SQLite's leaves out those of no affinity or BLOB at
    its end, which change nothing); None when no column has one that changes a value."""
    for a in affs:
        if a and a != AFF_NONE and a != AFF_BLOB:
            return "".join([a or AFF_NONE for a in affs])
    return None


class CoroutineDest(Dest):
    """Rows of a FROM subquery run as a co-routine (SQLite's SRT_Coroutine): each row is
    left in the registers of the first row coded (a later arm of a compound copies its
    row there), then Yield hands it to the loop reading the co-routine (its return
    address in ``reg``); ``clear``: as ``TableDest``'s."""

    def __init__(self, reg, clear=None):
        self.reg = reg
        self.clear = clear
        self.base = 0

    def emit(self, p, base, n):
        b = p.b
        if self.clear is not None:
            from sqlengine.compiler.subtype import code_clear
            code_clear(p, base, n, self.clear)
        if not self.base:
            self.base = base
        elif base != self.base:
            b.emit(O.OP_Copy, base, self.base, n - 1)
        b.emit(O.OP_Yield, self.reg, 0)

    def row_base(self, b, n):
        """The first register of the rows yielded (``n`` registers allocated when no
        row was coded: the loop's reads need some)."""
        if not self.base:
            self.base = b.alloc_reg(n)
        return self.base


class LimitedDest(Dest):
    """Rows to ``dest`` past the OFFSET counted down in ``oreg`` and under the LIMIT
    counted down in ``lreg`` (``_limit_regs``'s), jumping to ``end`` at its last row."""

    def __init__(self, dest, lreg, oreg, end):
        self.dest = None if type(dest) is OutputDest else dest
        self.lreg = lreg
        self.oreg = oreg
        self.end = end
        self.stop_label = dest.stop_label

    def emit(self, p, base, n):
        emit_limited(p.b, p, self.dest, base, n, self.lreg, self.oreg, self.end)


class CallbackDest(Dest):
    def __init__(self, fn):
        self.fn = fn

    def emit(self, p, base, n):
        self.fn(base, n)


# ------------------------------------------------------------------------------------------
# Entry points
# ------------------------------------------------------------------------------------------

def compile_select(p, sel: Select, dest: Dest, outer: Scope | None = None, corr=None) -> ResultInfo:
    """Emit the code of a whole SELECT; rows go to ``dest``."""
    with_, body, order_by, limit, offset = _sel.select_clauses(sel)
    if with_ is not None:
        from sqlengine.compiler.cte import pop_with, push_with
        token = push_with(p, with_, sel)
        try:
            return compile_select(p, Select(body, None, order_by, limit, offset, sel.pos),
                                  dest, outer, corr)
        finally:
            pop_with(p, token)
    tb = type(body)  # (no AST class has subclasses: a type test is isinstance's answer)
    if tb is Compound:
        return _compile_compound(p, sel, dest, outer, corr)
    if tb is Values:
        return _compile_values(p, body, sel, dest, outer, corr)
    # (the parser's features tell at once that most statements call no window function)
    if type(dest) is ExistsDest and (order_by or body.distinct) and not (
            body.features & FEAT_WINDOW and has_window(body, order_by)):
        sel, body = _exists_body(p, sel, outer)
        order_by, limit, offset = sel.order_by, sel.limit, sel.offset
    try:
        if body.features & FEAT_WINDOW and has_window(body, order_by):
            return compile_window_select(p, sel, dest, outer, corr)
        return _compile_core(p, body, order_by, limit, offset, dest, outer, corr)
    except OperationalError as err:  # (SQLite tells the first error its resolver meets)
        from sqlengine.compiler.resolve_order import first_error
        raise first_error(p, body, outer, corr, err, order_by, (limit, offset)) from None


def _exists_body(p, sel, outer):
    """(``sel``, its core) without ORDER BY and DISTINCT, as SQLite codes the body of an
    EXISTS (IgnorableOrderby/IgnorableDistinct) once its names resolve: an ORDER BY's
    resolving error is still the statement's, its coder's and run-time errors never are."""
    if sel.order_by:
        from sqlengine.compiler.resolve_order import CODER_ERRORS
        try:
            result_info_only(p, sel, outer)
        except OperationalError as err:
            if not str(err).startswith(CODER_ERRORS + ("no such collation sequence: ",)):
                raise
    body = replace_node(sel.body, distinct=False)
    return Select(body, None, None, sel.limit, sel.offset, sel.pos), body


def result_info_only(p, sel: Select, outer=None, exists=False, naming=None) -> ResultInfo:
    """The result description of a SELECT without keeping its code (views, CREATE AS);
    ``exists``: compiled as the body of EXISTS (its result list uncoded); ``naming``: how
    its columns are named (``Parse.naming``; None: as the query around it names them)."""
    saved = p.b
    saved_naming = p.naming
    if naming is not None:
        p.naming = naming
    from sqlengine.compiler.builder import ProgramBuilder
    p.b = ProgramBuilder()
    p.b.n_mem = saved.n_mem
    p.b.n_cursor = saved.n_cursor
    try:
        if exists:
            stop = p.b.new_label()
            info = compile_select(p, sel, ExistsDest(p.b.alloc_reg(), stop), outer)
            p.b.resolve(stop)
        else:
            info = compile_select(p, sel, CallbackDest(lambda base, n: None), outer)
    finally:
        p.b = saved
        p.naming = saved_naming
    return info


def subquery_scope_for_affinity(scope, core):
    return None


# ------------------------------------------------------------------------------------------
# LIMIT / OFFSET
# ------------------------------------------------------------------------------------------

def _limit_regs(p, scope, limit, offset, end_label):
    b = p.b
    lreg = oreg = None
    if limit is not None:
        lreg = b.alloc_reg()
        code_expr(p, None, limit, lreg)
        b.emit(OP_MustBeInt, lreg, 0)
        b.emit(OP_IfNot, lreg, end_label, 0)
        if offset is not None:
            oreg = b.alloc_reg()
            code_expr(p, None, offset, oreg)
            b.emit(OP_MustBeInt, oreg, 0)
    return lreg, oreg


# ------------------------------------------------------------------------------------------
# FROM
# ------------------------------------------------------------------------------------------

def _flatten(f, out):
    if type(f) is Join:
        _flatten(f.left, out)
        out.append((f.right, f))
    else:
        out.append((f, None))
    return out


def _source_for(p, item, scope, outer=None, coroutine=False):
    """The Source of one FROM item; ``outer`` = (core, ORDER BY, LIMIT, only item, right
    of a LEFT JOIN) of the query reading it, for what SQLite's flattener would do;
    ``coroutine``: the item is where SQLite runs a subquery as a co-routine (the first,
    alone or followed by a LEFT or CROSS JOIN: ``resolve.coroutine_place``). The
    commonest item, a table named without a schema outside any WITH, is made by
    ``_select.plain_table_source``, or here in a view or trigger body, with INDEXED BY or
    of an attached database (the schema's table map read directly, as Schema.table does);
    any other (a view, a missing table, a schema table) by ``_any_source_for``; None for
    a bare name of a table-valued function (``FROM json_each``: build_from makes it)."""
    src = _sel.plain_table_source(p, item, False)  # (the commonest item: _select.pyx)
    if src is not None:
        return src
    if type(item) is TableRef and item.schema is None and not p.ctes:
        name = item.name
        lname = name.lower()
        if lname not in _TEMP_MASTER:
            t = p.schema.tables.get(lname)
            if t is not None:
                if p.body_db is not None and (
                        (t.root or 0) >> ROOT_SHIFT or p.body_db != "main"):
                    # (a view or trigger body: its own database's table, cte.bound_object)
                    t = bound_object(p, name)
                    if t is None:  # (a view of that name there, else "no such table")
                        return _any_source_for(p, item, scope, outer, coroutine)
                return _table_item_source(p, item, name, t)
    return _any_source_for(p, item, scope, outer, coroutine)


_TEMP_MASTER = ("sqlite_temp_master", "sqlite_temp_schema")


def _table_item_source(p, item, name, t):
    """The Source of FROM item ``item`` (named ``name``) reading the schema.Table ``t``."""
    if item.indexed_by is not None:
        check_indexed_by(item, t)
    cur = p.b.alloc_cursor()
    src = table_source(item.alias or name, cur, t)
    # (for ``aux.t.a``: the database it is in)
    root = t.root
    if root and root >> ROOT_SHIFT:  # (a table of an attached database: which)
        src.db = table_db(p.db, t)
    if p.flat_names:
        flat = p.flat_names.get(id(item))
        if flat is not None:  # the table of a flattened view or subquery
            p.eqp_names[cur] = flat
    return src


def _any_source_for(p, item, scope, outer, coroutine=False):
    def materialize(p, sel, name, col_names, plan_name, forced=False, naming=EARLY_NAMES,
                    reads_outer=True, names_as=None):
        """The source of ``sel``: a co-routine where ``coroutine`` allows it and the
        item is not ``forced`` to be stored (a MATERIALIZED CTE or one read twice),
        else the ephemeral table it is stored in."""
        clear = None
        typed = False  # (whether SQLite stores its rows with its columns' affinities)
        compound = False  # (a UNION ALL the flattener takes unless its arms' affinities differ)
        if outer is not None:
            from sqlengine.compiler.resolve import subquery_flattens
            from sqlengine.compiler.subtype import subquery_clears
            sel = _order_kept(p.db, sel, outer)
            flat = not forced and subquery_flattens(p.db, sel, *outer)
            clear = subquery_clears(p, sel, flat, outer[-1])
            plain = without_outer_aggregates(sel) if not flat and not forced else None
            # (aggregates of an enclosing query's leave it a plain one: aggscope.py)
            merged = flat or plain is not None and subquery_flattens(p.db, plain, *outer)
            if merged and type(sel.body) is A.SelectCore:
                unused = unused_columns(sel.body, col_names or names_as, outer[0], outer[1],
                                        p.uncoded_results.get(id(outer[0]))
                                        if p.uncoded_results else None)
                if unused or unused is ALL_COLUMNS:
                    if p.unused_values is None:
                        p.unused_values = {}
                    p.unused_values[id(sel.body)] = unused
            # flattened on the right of a LEFT JOIN, its own FROM item lands there too
            p.left_flat = flat and outer[-1]
            compound = merged and type(sel.body) is Compound
            typed = (not merged or compound) and (forced or not coroutine) and not \
                _merged_order(p.db, sel, outer)
        return _materialize(p, sel, name, col_names, plan_name, clear, naming,
                            scope if reads_outer else None, typed, compound,
                            coroutine and not forced)

    if isinstance(item, TableRef):
        name = item.name
        if item.schema is None and getattr(p, "ctes", None):
            from sqlengine.compiler.cte import cte_source, find_cte
            entry = find_cte(p, name)
            if entry is not None:
                if item.indexed_by is not None:  # (SQLite quotes the name here)
                    raise OperationalError(f'no such index: "{item.indexed_by}"')
                return cte_source(p, entry, item.alias, Source, materialize, outer,
                                  coroutine)
        if name.lower() in ("sqlite_temp_master", "sqlite_temp_schema") or (
                item.schema is not None and item.schema.lower() == "temp" and
                name.lower() in ("sqlite_master", "sqlite_schema")):
            from sqlengine.compiler.pragma import temp_schema_source
            src = temp_schema_source(p, item, Source)
            src.db = "temp"
            return src
        if item.schema is not None and item.schema.lower() not in ("main", "temp"):
            raise OperationalError(f"no such table: {item.schema}.{name}")
        t = bound_object(p, name, item.schema)
        if t is None and name.lower() in ("sqlite_master", "sqlite_temp_master",
                                          "sqlite_temp_schema"):
            t = p.schema.table("sqlite_schema")
        if t is not None:
            return _table_item_source(p, item, name, t)
        v = bound_object(p, name, item.schema, "views")
        if v is not None:
            check_indexed_by(item, v)
            stack = p.view_stack
            if stack is None:
                stack = p.view_stack = []
            if name.lower() in stack:
                raise OperationalError(f"view {name} is circularly defined")
            from sqlengine.compiler.cte import schema_scope
            stack.append(name.lower())
            try:
                with schema_scope(p, v):
                    src = materialize(p, v.select, item.alias or name, v.columns, v.name,
                                      naming=COLUMN_NAMES, reads_outer=False)
            finally:
                p.view_stack.pop()
            src.has_rowid = True  # (what it reads: see build_from)
            if p.db.attached:
                from sqlengine.compiler.attach import view_db
                src.db = view_db(p.db, v)
            else:
                src.db = "main"
            return src
        if item.schema is None and function_name(name):
            return None  # (build_from makes it)
        from sqlengine.compiler.cte import missing_table
        raise missing_table(p, name, item.schema)
    if isinstance(item, SubqueryRef):
        src = materialize(p, item.select, item.alias or "(subquery)", None,
                          item.alias or f"(subquery-{select_id(p, item.select)})")
        src.has_rowid = True  # (what it reads: see build_from)
        return src
    raise OperationalError("unsupported FROM item")  # (a function's: build_from)


def _materialize(p, sel, name, col_names, plan_name, clear=None, naming=EARLY_NAMES,
                 scope=None, typed=False, compound=False, coroutine=False):
    """A FROM item's SELECT run once into an ephemeral table, the source that reads it
    (the filling is a subroutine the loop over it calls when first reached, ``src.fill``:
    _where.fill_source), or with ``coroutine`` coded as a co-routine the loop over it resumes for each row
    (a ``CoroutineSource``: never stored, started by that loop only, so a query that
    takes few of its rows, or none, computes no more); ``plan_name`` names it on its
    MATERIALIZE or CO-ROUTINE line (its loop's line gives ``name``, or ``plan_name`` for
    an unnamed subquery); ``naming``: see ``Parse.naming``
    (COLUMN_NAMES for a view, whose columns SQLite names after resolving its body). ``scope``:
    that of the query whose FROM clause holds it, when it may read the queries around that
    one (not its sibling items, as SQLite resolves a FROM subquery with the outer name
    context); one that does is filled again each time its query runs. ``typed``: its rows
    are stored with its columns' affinities (see ``TableDest``), ``compound`` too: only if
    SQLite does not flatten the UNION ALL it is (``_flattened``)."""
    b = p.b
    cur = b.alloc_cursor()
    done = b.new_label()
    if coroutine:
        dest = CoroutineDest(b.alloc_reg(), clear)
        start = b.emit(OP_InitCoroutine, dest.reg, done, b.addr() + 1)
        line = eqp_open(p, f"CO-ROUTINE {plan_name}")
    else:  # (a subroutine, called where the loop over it begins: fill_source)
        dest = TableDest(cur, clear, typed)
        skip = b.new_label()
        b.emit(OP_Goto, 0, skip)
        ret = b.alloc_reg()
        start = b.emit(OP_Once, 0, done)
        b.emit(OP_OpenEphemeral, cur, 0)
        line = eqp_open(p, f"MATERIALIZE {plan_name}")
    saved, p.naming = p.naming, naming
    outer = scope.outer if scope is not None else None
    corr = FromLink([False]) if outer is not None else None
    try:
        if vars(p).get("hex_notes") and hex_noted(p):  # (statement.py's second compile)
            info = hex_quietly(p, compile_select, p, sel, dest, outer, corr)
        else:
            info = compile_select(p, sel, dest, outer, corr)
    finally:
        p.naming = saved
        eqp_close(p, line)
    if corr is not None and corr[0]:  # (it reads the enclosing query's row)
        if not coroutine:
            b.ops[start] = [OP_Noop, 0, 0, 0, None, 0, None]
        scope.mark_correlated(1)
    p.eqp_names[cur] = plan_name if name == "(subquery)" else name
    if coroutine:
        b.emit(OP_EndCoroutine, dest.reg)
        b.resolve(done)
    else:
        b.resolve(done)
        b.emit(OP_Return, ret)
        b.resolve(skip)
    check_collations(p, info)
    names = list(info.names)
    if col_names:
        if len(col_names) != len(names):
            raise OperationalError(
                f"expected {len(col_names)} columns for '{name}' but got {len(names)}")
        names = list(col_names)
    names = _dedupe(names)
    typ = view_types(info, col_names)
    if typed and not (compound and _flattened(dest.arms)):
        dest.set_affinity(p, typ.affs)
    if coroutine:
        src = coroutine_source(b, name, cur, names, typ, dest, start + 1)
    else:
        src = Source(name, cur, names, typ.affs, info.colls, typ.decltypes)
    src.refill = corr is not None and corr[0]
    if not coroutine:
        src.fill = (ret, start)
    src.row_est = _limit_est(sel.limit)
    if info.nested is not None:
        set_nested(src, info)
    return src


def coroutine_source(b, name, cur, names, info, dest, entry):
    """The ``CoroutineSource`` of a co-routine starting at ``entry`` that yields its rows
    (columns ``names``, described by the ResultInfo ``info``) through ``dest``."""
    src = CoroutineSource(name, cur, names, info.affs, info.colls, info.decltypes)
    src.co_reg = dest.reg
    src.co_entry = entry
    src.co_base = dest.row_base(b, len(names))
    return src


def renamed_source(src, names):
    """``src`` with its columns named ``names`` (a CTE's column list)."""
    new = type(src)(src.name, src.cursor, names, src.affs, src.colls, src.decltypes)
    new.refill = src.refill
    new.fill = src.fill
    if type(src) is CoroutineSource:
        new.co_reg, new.co_entry, new.co_base = src.co_reg, src.co_entry, src.co_base
    return new


def view_types(info, columns):
    """The ResultInfo of a view's SELECT (``info``) that gives its columns their declared
    types and affinities: with a column list (``columns``), SQLite 3.40 takes them from
    the last SELECT of a compound (sqlite3ViewGetColumnNames hands the compound's
    rightmost SELECT to sqlite3SelectAddColumnTypeAndCollation), else from the first."""
    return info.rightmost() if columns else info


def _flattened(arms):
    """Whether SQLite 3.40 flattens a UNION ALL that ``resolve.subquery_flattens`` takes,
    whose SELECTs' result columns have the affinities ``arms``: not when a column's differ
    between two of them (flattenSubquery's restriction (17h),
    compoundHasDifferentAffinities: the affinity of such a column is the first SELECT's)."""
    first = arms[0]
    for affs in arms[1:]:
        if affs != first:
            return False
    return True


def _order_kept(db, sel, outer):
    """``sel``, a FROM item of the query of ``outer`` (see ``_source_for``), without its
    ORDER BY where SQLite leaves it out as doing nothing (sqlite3Select, before flattening:
    no LIMIT, the item in a join or under a query with an ORDER BY of its own, neither
    query's result hanging on the order of its rows, ``order_hangs``, and no aggregate
    subquery, which SQLite leaves whole). The order of its rows, which of equal rows a
    UNION keeps and whether a compound merges sorted SELECTs go with it."""
    if not sel.order_by or sel.limit is not None:
        return sel
    core, order_by, single = outer[0], outer[1], outer[3]
    if single and not order_by:
        return sel
    last = sel.body
    while type(last) is Compound:
        last = last.right
    if type(last) is SelectCore and (last.group_by or _calls_aggregate(db, last)):
        return sel
    if order_hangs(db, core, order_by):
        return sel
    return Select(sel.body, sel.with_, None, None, None, sel.pos)


def _merged_order(db, sel, outer):
    """Whether SQLite codes the compound ``sel``, a FROM item of the query of ``outer``
    (see ``_source_for``), as a merge of its sorted arms (multiSelectOrderBy), which
    stores its rows without their affinities: it has an ORDER BY that SQLite keeps, one
    with a LIMIT, or of a lone FROM item under a query without ORDER BY, or under a query
    whose result hangs on the order of its rows (``order_hangs``)."""
    if type(sel.body) is not Compound or not sel.order_by:
        return False
    core, order_by, single = outer[0], outer[1], outer[3]
    return sel.limit is not None or (single and not order_by) or order_hangs(
        db, core, order_by)


_ANY_ORDER = frozenset(("count", "min", "max"))


def order_hangs(db, core, order_by):
    """SQLite's SF_OrderByReqd of the query ``core`` (ORDER BY ``order_by``): it calls an
    aggregate function whose result may hang on the order of its rows (SQLite's
    SQLITE_FUNC_ANYORDER marks count, min and max only) or a window function."""
    def hangs(e):
        return type(e) is FunctionCall and (e.over is not None or (
            e.name.lower() not in _ANY_ORDER
            and db.is_aggregate(e.name, 0 if e.star else len(e.args))))
    return _calls(core, order_by, hangs)


def _calls_aggregate(db, core):
    """Whether the SELECT ``core`` calls an aggregate or window function."""
    def agg(e):
        return type(e) is FunctionCall and (e.over is not None or db.is_aggregate(
            e.name, 0 if e.star else len(e.args)))
    return _calls(core, None, agg)


def _calls(core, order_by, pred):
    """Whether a function call of the result columns, HAVING or ``order_by`` of ``core``
    satisfies ``pred``."""
    if not core.features & FEAT_FUNCTION and not order_by:
        return False
    exprs = [rc.expr for rc in core.columns if type(rc) is ResultColumn]
    if core.having is not None:
        exprs.append(core.having)
    if order_by:
        exprs += [o.expr for o in order_by]
    for e in exprs:
        if find_node(e, pred) is not None:
            return True
    return False


def _limit_est(limit):
    """The LogEst of the rows a LIMIT that is a positive integer literal lets through, as
    SQLite lowers a SELECT's nSelectRow to it (computeLimitRegisters); else None."""
    n = _fixed_limit(limit)
    if n is None:
        return None
    return min(TABLE_ROWS, log_est(n))


def check_collations(p, info):
    """Look up the collation of each column of a FROM subquery, view, CTE or CREATE TABLE
    AS (``info``: its ResultInfo), as SQLite's sqlite3SelectAddColumnTypeAndCollation
    does: an unknown one (``a COLLATE nosuch``) is the statement's error there, where a
    query's own result column, which compares nothing, never looks it up."""
    for c in info.colls:
        if c is not None:
            p.collation(c)


def _dedupe(names):
    """The column names of a FROM subquery made unique as SQLite's
    sqlite3ColumnsFromExprList makes them: a name already taken (case-insensitively)
    loses a ``:digits`` ending and gets ``:1``, ``:2``, ... until it is free (and
    before, one named true or false is ``columnN``, truefalse.columns_named's rule)."""
    taken = set()
    out = []
    for i, n in enumerate(names):
        if len(n) in (4, 5) and n.lower() in ("true", "false"):
            n = f"column{i + 1}"
        cnt = 0
        while n.lower() in taken:
            j = len(n) - 1
            while j > 0 and "0" <= n[j] <= "9":
                j -= 1
            if n and n[j] == ":":
                n = n[:j]
            cnt += 1
            n = f"{n}:{cnt}"
        taken.add(n.lower())
        out.append(n)
    return out


def _rowid_pushed(p, item, sel, terms, right_of_left):
    """``item`` with SQLite's push-down of the terms on its rowid (compiler/pushdown.py);
    a view is read as the subquery it stands for, under its name."""
    if isinstance(item, SubqueryRef):
        new = rowid_filtered(p.db, sel, item.alias, terms, right_of_left)
        return item if new is None else SubqueryRef(new, item.alias, item.pos)
    v = p.schema.views[item.name.lower()]
    if v.columns:
        return item
    new = rowid_filtered(p.db, sel, item.alias or item.name, terms, right_of_left)
    return item if new is None else SubqueryRef(new, item.alias or item.name, item.pos)


def _pushable_terms(core, join):
    """The terms SQLite would push into the FROM item ``join`` brings (the first item's
    ``join`` is None): its ON terms on the right of a LEFT JOIN, else the WHERE terms."""
    if join is not None and join.kind == "LEFT":
        return and_terms(join.on)
    return and_terms(core.where) + (and_terms(join.on) if join is not None else [])


def build_from(p, from_, scope, outer=None):
    """Make the sources of FROM; returns (sources, extra WHERE terms, {level: ON expr},
    the WHERE terms a table-valued function took as its arguments: None, or a set of
    their ids for ``tablefunc.without_bound``). ``outer`` = (core, ORDER BY, LIMIT) of the
    query (see ``_source_for``)."""
    sources = []
    extra = []
    left_on = {}
    # an ambiguous USING reference: SQLite goes on joining and tells the last one
    ambiguous = None
    left_flat = p.left_flat  # (see _source_for)
    if left_flat is not False:
        p.left_flat = False
    if from_ is None:
        return sources, extra, left_on, None
    if type(from_) is TableRef:  # (the commonest FROM, one table: _source_for's fast path)
        src = _sel.plain_table_source(p, from_, True)
        if src is not None:
            sources.append(src)
            scope.sources = sources
            return sources, extra, left_on, None
    items = _flatten(from_, [])
    last_right = rightjoin.last_right(items)
    # (the tables named plainly and joined without NATURAL, USING or an outer join that
    # start the FROM clause: made as this loop would, which goes on from the next item)
    start = _sel.plain_items(p, items, scope, sources, extra) if last_right < 0 else 0
    pending = None
    for item, join in items[start:] if start else items:
        level = len(sources)
        side = rightjoin.outer_side(join, level, last_right)
        ctx = None
        if outer is not None and type(item) is not TableFunctionRef:
            ctx = outer + (len(items) == 1, side or left_flat)
        rowid_null = None
        # (no co-routine on the left of a RIGHT JOIN: SQLite's JT_LTORJ test)
        coroutine = level == 0 and last_right < 0 and coroutine_place(
            items[1][1] if len(items) > 1 else None)
        if type(item) is SubqueryRef or (
                type(item) is TableRef and item.name.lower() in p.schema.views):
            sel = item.select if isinstance(item, SubqueryRef) else \
                p.schema.views[item.name.lower()].select
            rowid_null = side != "RIGHT" and subquery_rowid_null(p.db, sel, coroutine,
                                                                 bool(side))
            if not rowid_null and outer is not None and last_right < 0 and not (
                    isinstance(item, SubqueryRef) and is_nested(item.select.body)):
                item = _rowid_pushed(p, item, sel, _pushable_terms(outer[0], join),
                                     join is not None and join.kind == "LEFT")
        # (None: a table-valued function, called or named bare)
        src = None if type(item) is TableFunctionRef else _source_for(p, item, scope, ctx,
                                                                       coroutine)
        if src is None:
            if pending is None:
                pending = []
            src = function_source(p, item, scope, bound_terms(outer, join, side, items),
                                  pending, TableDest)
        if src.has_rowid and not src.is_table:  # a subquery or view: what its rowid reads
            src.rowid_null = rowid_null
        sources.append(src)
        scope.sources = sources
        src.ltorj = src.nullable = level < last_right
        if join is None:
            continue
        kind = join.kind
        src.left = kind in ("LEFT", "FULL")
        src.right = kind in ("RIGHT", "FULL")
        terms = []
        using = join.using
        if join.natural:
            if join.on is not None or join.using:
                raise OperationalError("a NATURAL join may not have an ON or USING clause")
            if ambiguous is not None:  # (SQLite stops at a NATURAL join after an error)
                raise ambiguous
            using = _natural_using(src, sources)
        if using:
            src.using_cols = {c.lower(): c for c in using}
            ambiguous = _using_terms(sources, using, scope, last_right >= 0, terms) or ambiguous
        if join.on is not None:
            terms.append(join.on)
        if not terms:
            continue
        conj = terms[0]
        for t in terms[1:]:
            conj = Binary("AND", conj, t)
        if src.left or src.right or src.ltorj:  # tested at its level (see rightjoin.py)
            left_on[level] = conj
        else:
            extra.append(conj)
        if src.left or src.right or last_right >= 0:
            src.join_on = conj  # (checked for tables to its right: where.where_begin)
    if ambiguous is not None:
        raise ambiguous
    if pending:  # (functions whose HIDDEN columns WHERE or ON terms may give)
        return bind_hidden(p, pending, scope, extra, left_on, outer)
    return sources, extra, left_on, None


def _natural_using(src, sources):
    """The columns of ``src`` (the last of ``sources``) a NATURAL join joins on: those
    some source before it has (a table function's HIDDEN columns on neither side)."""
    using = []
    rhid = star_hidden(src)  # (HIDDEN columns match on neither side)
    for j, c in enumerate(src.columns):
        if j in rhid:
            continue
        for s in sources[:-1]:
            k = s.find(c)
            if k is not None and k >= 0 and k not in star_hidden(s):
                using.append(c)
                break
    return using


def _using_terms(sources, using, scope, any_right, terms):
    """Append to ``terms`` the equalities of the USING columns of the last of ``sources``
    with the sources before it (and hide its copies); returns the error of the last
    ambiguous reference (SQLite reports it once the joins are processed), or None."""
    src = sources[-1]
    ambiguous = None
    for cname in using:
        try:
            lhs = _using_left(sources[:-1], cname, scope, any_right)
        except OperationalError as err:
            ambiguous, lhs = err, None
            if src.find(cname) is not None:
                continue
        r = src.find(cname)
        if lhs is None or r is None or r < 0:
            raise OperationalError(
                f"cannot join using column {cname} - column not present in both tables")
        hidden = src.hidden
        if type(hidden) is not set:  # (every Source starts with one shared empty frozenset)
            hidden = src.hidden = set()
        hidden.add(r)
        terms.append(Binary("=", lhs, ResolvedColumn(ColRef(src, r, scope, 0))))
    return ambiguous


def _using_left(sources, cname, scope, any_right):
    """The left side of a USING term: the column of the first source that has it; with a
    RIGHT or FULL JOIN in the FROM clause, the coalesce() of every left source's (each
    after the first merged into it by USING, as SQLite's sqlite3ProcessJoin requires)."""
    hits = []
    for s in sources:
        j = s.find(cname)
        if j is None or j < 0:
            continue
        if not hits:
            if j in s.hidden:
                continue
        elif not any_right:
            break
        elif j not in s.hidden:
            raise OperationalError(f"ambiguous reference to {cname} in USING()")
        hits.append(ResolvedColumn(ColRef(s, j, scope, 0)))
    if len(hits) < 2:
        return hits[0] if hits else None
    return FunctionCall("coalesce", hits)


# ------------------------------------------------------------------------------------------
# Result columns
# ------------------------------------------------------------------------------------------

def _expand_columns(p, core, scope):
    """[(expr, name, decltype)] with * and t.* expanded."""
    columns = core.columns
    naming = p.naming
    # (None: a * over FROM items it does not expand, see _resolve._plain_stars)
    out = _res.result_columns(columns, scope, naming)
    if out is not None:
        return out
    out = []
    err = None  # (SQLite's selectExpander reports the last star naming no item)
    for rc in columns:
        if type(rc) is Star:
            if not scope.sources:
                err = ("no tables specified" if rc.table is None
                       else f"no such table: {rc.table}")
                continue
            twins = len({s.name.lower() for s in scope.sources}) < len(scope.sources)
            found = False
            for k, s in enumerate(scope.sources):
                nested = s.enames is not None
                if rc.table is not None and not nested and s.name.lower() != rc.table.lower():
                    continue
                found = found or not nested
                # (read once per item, not per column)
                hidden = s.hidden if rc.table is None else ()
                fhid = None if type(s) is Source else star_hidden(s)
                ltorj = s.ltorj
                decls = s.decltypes
                lone = nested and len(scope.sources) == 1 and rc.table is None
                for j, cname in enumerate(s.columns):
                    if nested:
                        if star_skips(s, j, rc.table):
                            continue
                        found = True
                    if hidden and j in hidden:
                        continue
                    if fhid and j in fhid:
                        continue
                    if twins and not nested:
                        check_star_column(scope.sources, s, j)
                    if ltorj and _later_using(scope.sources, k, cname):
                        out.append(_star_using_column(scope, cname))
                        continue
                    if lone:
                        # (SQLite expands a lone item's * unqualified: the names are
                        # looked up again, by the inner tables' column names)
                        out.append((Column(cname), cname, decls[j]))
                        continue
                    out.append((ResolvedColumn(ColRef(s, j, scope, 0)), cname, decls[j]))
            if not found:
                err = f"no such table: {rc.table}"
            continue
        out.append(result_column(rc, scope, naming))
    if err is not None:
        raise OperationalError(err)
    return out


def _later_using(sources, k, cname) -> bool:
    """Whether a FROM item after the ``k``-th joins with USING (or NATURAL) on ``cname``."""
    for s in sources[k + 1:]:
        j = s.find(cname)
        if j is not None and j in s.hidden:
            return True
    return False


def _star_using_column(scope, cname):
    """``*``'s column for a USING column of a later join, on a table left of a RIGHT or
    FULL JOIN: SQLite expands it unqualified, so it reads as the name does (the right
    table's column for a RIGHT JOIN, the coalesce of both sides for a FULL JOIN)."""
    ref = scope.lookup(cname, None)
    return Column(cname), cname, ref.source.decltypes[ref.col] if ref.col >= 0 else None


def _bind_words(core, order_by, extra, left_on, words, results=True):
    """The clauses of ``core`` (its result columns too with ``results``), ORDER BY and
    the ON terms with each TRUE/FALSE word in ``words`` made a column (truefalse.py)."""
    bind, bind_list = truefalse.bind, truefalse.bind_list
    changes = {}
    if results:
        columns = bind_list(core.columns, words)
        if columns is not core.columns:
            changes["columns"] = columns
    for name in ("where", "having"):
        x = getattr(core, name)
        y = bind(x, words)
        if y is not x:
            changes[name] = y
    group_by = bind_list(core.group_by, words)
    if group_by is not core.group_by:
        changes["group_by"] = group_by
    if core.windows:
        windows = [(n, bind(w, words)) for n, w in core.windows]
        if any(a[1] is not b[1] for a, b in zip(windows, core.windows)):
            changes["windows"] = windows
    if changes:
        core = replace_node(core, **changes)
    order_by = bind_list(order_by, words)
    if extra:
        extra = bind_list(extra, words)
    if left_on:
        left_on = {k: bind(x, words) for k, x in left_on.items()}
    return core, order_by, extra, left_on


def _resolve_aliases(names, core, cols, extra, left_on):
    """The clauses of ``core`` with their alias references rewritten (alias.py): the
    core, its result columns, the inner joins' ON terms and the LEFT JOINs' (HAVING is
    rewritten once the query is known to be an aggregate one, as SQLite checks that
    first)."""
    if names.levels:  # (only an enclosing query's aliases are seen from a result column)
        new = [(names.result(e), n, d) for e, n, d in cols]
        moved = {id(a[0]): b[0] for a, b in zip(cols, new) if a[0] is not b[0]}
        if moved:  # the aliases stand for the rewritten expressions
            aliases = names.scope.aliases
            for k, x in aliases.items():
                aliases[k] = moved.get(id(x), x)
        cols = new
    old_where = core.where
    where = names.clause(old_where) if old_where is not None else None
    old_group_by = group_by = core.group_by
    if group_by:
        new = [names.group_by(g) for g in group_by]
        for a, b in zip(new, group_by):
            if a is not b:
                group_by = new
                break
    if where is not old_where or group_by is not old_group_by:
        core = replace_node(core, where=where, group_by=group_by)
    if extra:
        extra = [names.clause(x) for x in extra]
    if left_on:
        left_on = {k: names.clause(x) for k, x in left_on.items()}
    return core, cols, extra, left_on


def _resolve_order_by(p, order_by, cols, scope, arms=None, names=None):
    """[(expr or None, result_index or None, desc, nulls_first, collation_name)];
    ``names``: the query's alias rewrite (alias.py) for the terms that are expressions;
    ``arms``: the ResultInfos of a compound's SELECTs, each term is matched against."""
    if order_by and len(order_by) > MAX_COLUMN:
        raise OperationalError("too many terms in ORDER BY clause")
    out = []
    for i, term in enumerate(order_by or ()):
        e = term.expr
        coll = None
        inner = e
        while isinstance(inner, Collate) and not inner.implicit:  # (a copy's: flatsubst.py)
            coll = inner.collation if coll is None else coll
            inner = inner.expr
        idx = None
        k = term_number(inner)
        if k is not None:
            if k < 1 or k > len(cols):
                raise OperationalError(
                    f"{_ordinal(i + 1)} ORDER BY term out of range - should be between 1 and {len(cols)}")
            idx = k - 1
        elif arms is not None:
            idx = next((j for j in (_arm_order_match(a, inner) for a in arms)
                        if j is not None), None)
            if idx is None:
                raise OperationalError(
                    f"{_ordinal(i + 1)} ORDER BY term does not match any column in the result set")
        elif isinstance(inner, Column) and inner.table is None:
            # an AS name is matched first, even where a FROM column has that name too
            # (SQLite's resolveAsName); else the result column that is that column
            idx = _alias_index(scope, cols, inner)
            for j, (ce, name, _d) in enumerate(cols):
                if idx is not None:
                    break
                if name.lower() == inner.name.lower() and _is_alias(p, ce, inner, scope):
                    idx = j
        if idx is None and names is not None:
            inner = names.order_by(inner)
        if coll is None:
            if idx is not None:
                coll = expr_collation(cols[idx][0], scope)
            else:
                coll = expr_collation(inner, scope)
        nulls_first = not term.desc
        if term.nulls is not None:
            nulls_first = term.nulls == "FIRST"
        out.append((None if idx is not None else inner, idx, term.desc, nulls_first, coll))
    return out


def _alias_index(scope, cols, e):
    """The result column the bare name ``e`` is the AS name of, or None."""
    if scope is None or type(e) is not Column or e.table is not None:
        return None
    aliased = scope.aliases.get(e.name.lower())
    if aliased is None:
        return None
    return next((j for j, c in enumerate(cols) if c[0] is aliased), None)


def _arm_order_match(info, e):
    """The result column of one SELECT of a compound that its ORDER BY term ``e`` (no
    COLLATE, not a number) names, or None (SQLite's resolveCompoundOrderBy for that
    SELECT): an AS name of it, else ``e`` resolved in it (its aliases seen) is one of its
    result expressions. A SELECT that kept no ``arm`` (a window query) matches a bare
    name with its columns' names."""
    if info.arm is None:
        if type(e) is Column and e.table is None:
            return next((j for j, nm in enumerate(info.names) if nm.lower() == e.name.lower()),
                        None)
        return None
    scope, cols, names = info.arm
    idx = _alias_index(scope, cols, e)
    if idx is not None:
        return idx
    try:
        term = names.order_by(e) if names is not None else e
    except OperationalError:
        return None
    key_of = column_key(scope)
    key = expr_key(term, key_of)
    if key is None:
        return None
    # (a result expression under COLLATE matches: sqlite3ExprCompare's answer 1)
    return next((j for j, c in enumerate(cols) if expr_key(uncollated(c[0]), key_of) == key),
                None)


def _is_alias(p, ce, col, scope):
    """An ORDER BY identifier matches a result column by alias (or by its name when the
    identifier is not a column of the FROM clause)."""
    if scope is None:
        return True
    try:
        ref = scope.lookup(col.name, None)
    except OperationalError:
        return True
    if ref is None:
        return True
    # the name is a real column too: it is the result column only if that column is it
    if isinstance(ce, Column):
        try:
            r2 = scope.lookup(ce.name, ce.table)
        except OperationalError:
            return False
        return r2 is not None and r2.source is ref.source and r2.col == ref.col
    if isinstance(ce, ResolvedColumn):
        return ce.ref.source is ref.source and ce.ref.col == ref.col
    return True


def _ordinal(n):
    if 10 <= n % 100 <= 20:
        suf = "th"
    else:
        suf = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suf}"


# ------------------------------------------------------------------------------------------
# One SELECT core
# ------------------------------------------------------------------------------------------

def _collect_aggs(p, exprs, refs=None):
    """The aggregate calls of ``exprs`` (pre-order, subqueries aside); an aggregate inside
    another's arguments is ``misuse of aggregate function``. When ``refs`` is a list, the
    same walk appends to it, in pre-order, what ``_collect_columns`` needs: the column
    references outside aggregates and the subqueries (Subquery, Exists, InSelect) met
    (the walk is compiled: ``expr.aggs_in``)."""
    functions = p.functions
    aggs = []
    found = refs if refs is not None else []
    memo = {}
    for e in exprs:
        if e is not None:
            aggs_in(e, functions, aggs, found, memo)
    return aggs


def _check_group_aggs(p, group_by, result_exprs):
    """SQLite's errors for aggregate calls in the GROUP BY terms ``group_by`` (numbers and
    aliases replaced by the result expressions ``result_exprs`` themselves). SQLite flags
    a term by what its resolver met in it: a term calling an aggregate in its own text, or
    that is a result column's number or alias, fails as "aggregate functions are not
    allowed in the GROUP BY clause"; one that reaches the aggregates of a result column
    only through a number or alias inside it (``2 COLLATE nocase``, ``c + 1``) is
    unflagged and fails when coded, "misuse of aggregate: f()" naming the last call coded."""
    unflagged = None
    own = None
    for g in group_by:
        aggs = _collect_aggs(p, [g])
        if not aggs:
            continue
        if own is None:
            own = {id(a) for a in _collect_aggs(p, result_exprs)}
        if any(g is x for x in result_exprs) or any(id(a) not in own for a in aggs):
            raise OperationalError("aggregate functions are not allowed in the GROUP BY clause")
        unflagged = aggs[-1]
    if unflagged is not None and not p.values_unused:  # (uncoded: no error)
        raise OperationalError(f"misuse of aggregate: {unflagged.name}()")


def _collect_columns(scope, exprs):
    """Columns of this scope read outside aggregates (kept per group), in the order a
    pre-order walk meets them (subqueries included)."""
    keys = {}
    try:
        for e in exprs:
            if e is not None:
                _columns_in(e, scope, keys)
    except RecursionError:  # a tree deeper than the stack: the generic walk
        keys = {}
        visit = _column_visitor(scope, keys)
        for e in exprs:
            walk(e, visit, into_subqueries=True)
    return list(keys.values())


def _bare_subquery(scope, keys, e):
    """The bare columns of a subquery met among the refs (_compile_aggregate)."""
    walk_select(e.select, _column_visitor(scope, keys))


def _columns_in(e, scope, keys):
    t = type(e)
    if t is Literal:
        return
    if t is Binary:
        _columns_in(e.left, scope, keys)
        _columns_in(e.right, scope, keys)
        return
    if t is Column or t is ResolvedColumn or t is FunctionCall and \
            id(e) in scope.overrides:
        _column_visitor(scope, keys)(e)
        return
    if t is A.Subquery or t is A.Exists or t is A.InSelect:
        if t is A.InSelect:
            _columns_in(e.expr, scope, keys)
        walk_select(e.select, _column_visitor(scope, keys))
        return
    f = _OPERANDS.get(t)
    if f is not None:
        for x in f(e):
            if x is not None:
                _columns_in(x, scope, keys)


def _column_visitor(scope, keys):
    def visit(x):
        if isinstance(x, FunctionCall) and id(x) in scope.overrides:
            return False
        if isinstance(x, ResolvedColumn):
            if x.ref.scope is scope:
                keys[x.ref.key] = x.ref
            return False
        if isinstance(x, Column):
            try:
                ref = scope.lookup(x.name, x.table)
            except OperationalError:
                return False
            if ref is not None and ref.scope is scope:
                keys[ref.key] = ref
            return False
        return None
    return visit


def _joins_subquery(f, views):
    """Whether the join ``f`` has a subquery item, or one naming a view of ``views``
    (flatjoin.flatten_join's first test, here compiled: most joins have neither)."""
    while True:
        item = f.right if type(f) is Join else f
        if type(item) is SubqueryRef or views and type(item) is TableRef and \
                item.name.lower() in views:
            return True
        if type(f) is not Join:
            return False
        f = f.left


def _compile_core(p, core, order_by, limit, offset, dest, outer, corr, compound_arm=False):
    b = p.b
    scope = _res.new_scope(outer, corr)
    if outer is not None:
        link_subquery_scope(p, scope, core)
    # the result columns SQLite never codes: all of an EXISTS subquery's (SRT_Exists), the
    # unused ones of a FROM subquery it flattens (flatten.unused_columns)
    unused = _ALL if type(dest) is ExistsDest else (
        p.unused_values.pop(id(core), None) if p.unused_values else None)
    f = core.from_
    if type(f) is Join and has_left_join(f):
        core = simplify_left_joins(p, core)  # (a LEFT JOIN its WHERE makes inner)
        f = core.from_
    if type(f) is SubqueryRef or type(f) is TableRef and p.schema.views:
        core, order_by = flatten_lone(p, core, order_by)  # (to merge?)
    elif type(f) is Join and _joins_subquery(f, p.schema.views):
        core, order_by = flatten_join(p, core, order_by)  # (in a join)
    if unused is not None:  # (what only they name of a FROM subquery: unused too)
        if p.uncoded_results is None:
            p.uncoded_results = {}
        p.uncoded_results[id(core)] = unused
    try:
        # (SQLite gives a scalar or EXISTS subquery a LIMIT 1 before flattening into it)
        sources, extra, left_on, bound = build_from(p, core.from_, scope, (
            core, order_by, limit if (limit is not None or type(dest) not in _LIMIT_ONE)
            else _ONE))
    finally:
        if unused is not None:
            del p.uncoded_results[id(core)]
    if bound is not None:  # (WHERE terms a table-valued function took)
        core = without_bound(core, bound)
    scope.sources = sources
    words = truefalse.visible(scope) if _res.sees_words(scope) else ()
    if words:  # (rare: a table with a column named true or false)
        core, order_by, extra, left_on = _bind_words(core, order_by, extra, left_on, words)
    nested = None
    columns = core.columns
    if len(columns) == 1 and type(columns[0]) is Star and is_nested(core):
        cols, *nested = nested_columns(scope)
    else:
        cols = _expand_columns(p, core, scope)
    if len(cols) > MAX_COLUMN:
        raise OperationalError("too many columns in result set")
    aliases = scope.aliases = _res.result_aliases(core.alias_columns or columns)
    if aliases and ("true" in aliases or "false" in aliases) and \
            truefalse.alias_words(aliases, words):
        core, order_by, extra, left_on = _bind_words(
            core, order_by, extra, left_on, truefalse.alias_words(aliases, words), False)
    # (read again when a rewrite makes a new core)
    where, group_terms, having, feats, distinct = _sel.core_clauses(core)
    if outer is not None and group_terms:
        check_local_terms(p, scope, None, group_terms)
    names_rw = None
    if (aliases and (where is not None or group_terms or having is not None
                     or order_by or extra or left_on)) or (
            outer is not None and sees_outer_aliases(scope)):
        names_rw = Aliases(p, scope)
        core, cols, extra, left_on = _resolve_aliases(names_rw, core, cols, extra, left_on)
        where, group_terms, having, feats, distinct = _sel.core_clauses(core)
    result_exprs = [c[0] for c in cols]
    n_res = len(result_exprs)
    if order_by:
        obt = _resolve_order_by(p, order_by, cols, scope, names=names_rw)
        order_exprs = [o[0] for o in obt if o[0] is not None]
    else:
        obt, order_exprs = [], []
    group_by = None
    if group_terms:
        if len(group_terms) > MAX_COLUMN:
            raise OperationalError("too many terms in GROUP BY clause")
        group_by = []
        for g in group_terms:
            inner = g
            while isinstance(inner, Collate) and not inner.implicit:
                inner = inner.expr
            k = term_number(inner)
            if k is not None:
                if k < 1 or k > n_res:
                    raise OperationalError(
                        f"{_ordinal(len(group_by) + 1)} GROUP BY term out of range - should be between 1 and {n_res}")
                # (the column's expression, under the term's outermost COLLATE if any)
                x = result_exprs[k - 1]
                group_by.append(x if inner is g else Collate(x, g.collation, g.pos))
            else:
                group_by.append(g)
    # The parser tells when the core holds no function call at all (then no aggregate);
    # ORDER BY lies outside the core and is always looked at.
    # The same walk gathers the column references an aggregate query keeps per group.
    refs = None
    if feats & FEAT_FUNCTION or group_by is not None:
        refs = []
        # (each clause's calls that belong further out leave, and those its subqueries
        # hand up come in: compiler/aggscope.py)
        aggs = attach_aggregates(p, scope, _collect_aggs(p, result_exprs, refs), refs)
        if group_by and feats & FEAT_FUNCTION and _collect_aggs(p, group_by):
            _check_group_aggs(p, group_by, result_exprs)
    else:
        aggs = []
    if having is not None:
        # (SQLite: the result columns or GROUP BY make the query an aggregate one)
        if group_by is None and not resolved_aggregate(scope, aggs):
            raise OperationalError("HAVING clause on a non-aggregate query")
        if names_rw is not None:
            having = names_rw.clause(having)
        n_refs = len(refs)
        aggs += attach_aggregates(p, scope, _collect_aggs(p, [having], refs), refs, n_refs)
    if order_exprs:
        n_refs = len(refs) if refs is not None else 0
        order_aggs = _collect_aggs(p, order_exprs, refs)
        if aggs or group_by is not None:
            order_aggs = attach_aggregates(p, scope, order_aggs, refs, n_refs)
        elif order_aggs:
            order_aggs = own_aggregates(scope, order_aggs)
        if order_aggs and not aggs and group_by is None and sources:
            # an aggregate in ORDER BY does not make a query over a FROM clause an
            # aggregate one (SQLite keeps such a query without FROM to its one row)
            raise OperationalError(f"misuse of aggregate: {order_aggs[0].name}()")
        aggs += order_aggs
    is_agg = bool(aggs) or group_by is not None
    as_distinct = False  # (a GROUP BY made of the DISTINCT)
    if distinct and not is_agg and obt and distinct_is_group(order_by, obt, result_exprs,
                                                             column_key(scope)):
        # SELECT DISTINCT x ... ORDER BY x runs as ... GROUP BY x ORDER BY x (group_order.py)
        group_by = list(result_exprs)
        is_agg = True
        distinct = False
        as_distinct = True
    if outer is not None and order_by:
        check_local_terms(p, scope, order_by, None)
    scope.agg_allowed = is_agg
    if not is_agg and feats & FEAT_FUNCTION:
        scope.in_where = [where, core.from_]  # (a misuse there is a resolve error)
    info = _res.result_info(cols, scope, feats & FEAT_COLLATE)
    if compound_arm:
        info.arm = (scope, cols, names_rw)
    if nested is not None:
        info.nested = nested

    end = b.new_label()
    if limit is not None:
        lreg, oreg = _limit_regs(p, scope, limit, offset, end)
    else:
        lreg = oreg = None

    # The final stage: DISTINCT, then ORDER BY sorter or straight to dest (LIMIT/OFFSET).
    distinct_cur = None
    if distinct:
        distinct_cur = b.alloc_cursor()
        distinct_spec = SortSpec(n_res, [p.collation(c) for c in info.colls])
        distinct_addr = b.emit(OP_OpenEphemeral, distinct_cur, n_res, 0, distinct_spec)
    sorter = None
    if obt:
        sorter = b.alloc_cursor()
        spec = SortSpec(len(obt), [p.collation(o[4]) for o in obt], [o[2] for o in obt],
                        [o[3] for o in obt])
        if lreg is not None:
            spec.limit_regs = (lreg, oreg or 0)  # top-N: keep LIMIT+OFFSET rows (sorter.py)
        sorter_addr = b.emit(OP_SorterOpen, sorter, len(obt) + n_res, 0, spec)

    distinct_said = []  # the EXPLAIN QUERY PLAN line for DISTINCT, once

    out_dest = None if type(dest) is OutputDest else dest  # (None: a ResultRow)

    n_ordered = 0
    if not is_agg:
        plan_ob = [
            (o[0] if o[0] is not None else result_exprs[o[1]], o[2], o[3], o[4]) for o in obt]
        plan_d = None
        if distinct_cur is not None:  # (the loops may bring equal rows together)
            plan_d = [(_no_collate(e), False, True, c) for e, c in zip(result_exprs, info.colls)]
        if extra:
            where = _and_all(where, extra)
        w = _sel.where_loops(p, scope, where, left_on, core, plan_ob,
                             _fixed_limit(limit) if plan_ob or plan_d else None, plan_d)
        if distinct_cur is not None and w.distinct:
            if w.distinct == 2:  # no two rows can be equal: no test
                b.ops[distinct_addr] = [OP_Noop, 0, 0, 0, None, 0, None]
                distinct_cur = None
            else:  # equal rows come together: each compared with the one before
                flag = b.alloc_reg(1)
                b.ops[distinct_addr] = [OP_Integer, 0, flag, 0, None, 0, None]
                distinct_cur = (flag, b.alloc_reg(n_res), distinct_spec)
        n_ordered = w.n_ordered
        if sorter is not None and n_ordered == len(obt):
            # the loops deliver the rows in ORDER BY order: no sort (and LIMIT stops the
            # loops early)
            b.ops[sorter_addr] = [OP_Noop, 0, 0, 0, None, 0, None]
            sorter = None
        if sorter is not None and lreg is not None and distinct_cur is None:
            _emit_topn_row(p, scope, obt, result_exprs, unused, sorter)
        else:
            _cg.emit_result_row(b, p, scope,
                                _cg.code_result_columns(b, p, scope, result_exprs, unused,
                                                        _ALL),
                                n_res, distinct_cur, distinct_said, sorter, obt, out_dest,
                                lreg, oreg, end)
        _sel.where_close(p, w)
    else:
        rows = _cg.result_rows(b, p, scope, result_exprs, unused, _ALL, distinct_cur,
                               distinct_said, sorter, obt, out_dest, lreg, oreg, end)
        sort_desc = order_is_group(order_by, obt, group_by, result_exprs, column_key(scope)) \
            if group_by and sorter is not None else None
        if _compile_aggregate(p, core, scope, extra, left_on, aggs, group_by, having,
                              result_exprs, order_exprs, rows, refs, sort_desc,
                              as_distinct):
            # the groups come in ORDER BY order (group_order.py): no sort
            b.ops[sorter_addr] = [OP_Noop, 0, 0, 0, None, 0, None]
            sorter = None

    if sorter is not None:
        eqp_line(p, _EQP_RIGHT_PART if n_ordered else _EQP_ORDER_BY)
        done = b.new_label()
        b.emit(OP_SorterSort, sorter, done)
        top = b.addr()
        out = b.alloc_reg(max(n_res, 1))
        for i in range(n_res):
            b.emit(OP_Column, sorter, len(obt) + i, out + i)
        emit_limited(b, p, out_dest, out, n_res, lreg, oreg, end)
        b.emit(OP_SorterNext, sorter, top)
        b.resolve(done)
    b.resolve(end)
    if scope.sub_affs is not None:
        _subquery_affinities(info, cols, scope)
    return info


def _subquery_affinities(info, cols, scope):
    """Give the result columns of ``info`` that are scalar subqueries their affinity (that
    of the subquery's column, known once it is coded: ``code_scalar_subquery``), as SQLite's
    sqlite3ExprAffinity gives it a TK_SELECT; ``cols``: the result columns, ``scope``:
    theirs."""
    affs = info.affs
    for i, c in enumerate(cols):
        if type(_no_collate(c[0])) is A.Subquery:
            affs[i] = expr_affinity(c[0], scope)


def _no_collate(e):
    """``e`` without its COLLATE operators (a DISTINCT term's collation is the result
    column's)."""
    while type(e) is Collate:
        e = e.expr
    return e


_ALL = ALL_COLUMNS  # (``unused``: every result column)
_LIMIT_ONE = (ScalarDest, ExistsDest)
_ONE = A.Literal(1)
_EQP_ORDER_BY = "USE TEMP B-TREE FOR ORDER BY"
_EQP_RIGHT_PART = "USE TEMP B-TREE FOR RIGHT PART OF ORDER BY"


def _emit_topn_row(p, scope, obt, result_exprs, unused, sorter):
    """A row for a top-N sorter (ORDER BY ... LIMIT), coded as SQLite's pushOntoSorter
    codes it: the sort keys first, then the cutoff test, and only for a row that may be
    kept the other result columns (a result column that is a sort key is copied from it,
    not computed twice)."""
    b = p.b
    n_res = len(result_exprs)
    blk = b.alloc_reg(len(obt) + n_res)
    key_of = {}
    for k, (oe, idx, _d, _nf, _c) in enumerate(obt):
        if idx is not None:
            _code_result(p, scope, result_exprs, unused, idx, blk + k)
            key_of.setdefault(idx, k)
        else:
            code_expr(p, scope, oe, blk + k)
    skip = b.new_label()
    b.emit(OP_SorterCutoff, sorter, skip, blk)
    base = blk + len(obt)
    for i in range(n_res):
        if i in key_of:
            b.emit(OP_SCopy, blk + key_of[i], base + i)
        else:
            _code_result(p, scope, result_exprs, unused, i, base + i)
    rec = b.alloc_reg()
    b.emit(OP_MakeRecord, blk, len(obt) + n_res, rec)
    b.emit(OP_SorterInsert, sorter, rec)
    b.resolve(skip)


def _code_result(p, scope, result_exprs, unused, i, target):
    """Result column ``i`` into ``target``; one of ``unused`` (``_ALL``: every one) as a
    value SQLite never codes (Parse.values_unused)."""
    if unused is None or unused is not _ALL and i not in unused:
        code_expr(p, scope, result_exprs[i], target)
        return
    saved = p.values_unused
    p.values_unused = True
    try:
        code_expr(p, scope, result_exprs[i], target)
    finally:
        p.values_unused = saved


def _fixed_limit(limit):
    """The value of a LIMIT that is a positive integer literal (SQLite's SF_FixedLimit),
    else None."""
    if type(limit) is Literal and type(limit.value) is int and limit.value > 0:
        return limit.value
    return None


def _hint(core):
    """The single FROM item of ``core`` when it carries INDEXED BY / NOT INDEXED."""
    f = core.from_
    if isinstance(f, TableRef) and (f.not_indexed or f.indexed_by):
        return f
    return None


def _minmax_by_index(p, scope, aggs, acc, bare, bare_regs, rows, hint=None):
    """min(x) / max(x) (``aggs``: its calls, all the same) of a whole table read from one
    end of an index on x (or of the table for the rowid), the ``bare`` columns from that
    row into ``bare_regs``; False when none answers it (nothing emitted then)."""
    agg = aggs[0]
    src = scope.sources[0]
    col = column_of(scope, agg.args[0], src)
    load_row = None
    if bare:
        def load_row(found):
            if not found:
                p.b.emit(OP_Null, 0, bare_regs, bare_regs + len(bare) - 1)
                return
            for k, ref in enumerate(bare):
                code_column(p, ref, bare_regs + k)
    if col is None or not code_minmax(p, src, col, agg.name.lower() == "max", acc, hint,
                                      load_row, [ref.col for ref in bare]):
        return False
    for a in aggs:
        scope.overrides[id(a)] = acc
    for k, ref in enumerate(bare):
        scope.overrides[ref.key] = bare_regs + k
    rows.emit()
    scope.overrides.clear()
    return True


def _and_all(where, extra):
    e = where
    for x in extra:
        e = x if e is None else Binary("AND", e, x)
    return e


def column_key(scope):
    """The ``column_key`` of ``walk.expr_key`` for expressions of ``scope``: a column by
    what it resolves to."""
    def key(e):
        t = type(e)
        if t is ResolvedColumn:
            return ("col", id(e.ref.source), e.ref.col)
        if t is not Column:
            return None
        try:
            ref = scope.lookup(e.name, e.table)
        except OperationalError:
            ref = None
        if ref is None:  # decided when coded (a string, an error)
            return ("name", e.name.lower(), (e.table or "").lower(), e.quoted)
        return ("col", id(ref.source), ref.col)
    return key


def _merge_aggs(scope, aggs):
    """The distinct aggregate calls of ``aggs`` (SQLite keeps one accumulator for calls
    sqlite3ExprCompare finds the same, and steps them once per row) and, per call, the
    index of its accumulator among them."""
    if len(aggs) < 2:
        return aggs, [0] * len(aggs)
    # (a key holds the call's case-folded name: only calls of a name met twice may share
    # one, so the others are not keyed)
    names = [a.name.lower() for a in aggs]
    shared = {n for n in names if names.count(n) > 1}
    if not shared:
        return aggs, list(range(len(aggs)))
    key_of = column_key(scope)
    uniq, slot, seen = [], [], {}
    for i, a in enumerate(aggs):
        k = expr_key(a, key_of) if names[i] in shared else None
        j = seen.get(k) if k is not None else None
        if j is None:
            j = len(uniq)
            uniq.append(a)
            if k is not None:
                seen[k] = j
        slot.append(j)
    return uniq, slot


def _compile_aggregate(p, core, scope, extra, left_on, aggs, group_by, having, result_exprs,
                       order_exprs, rows, refs=None, sort_desc=None, as_distinct=False):
    """An aggregate query: its accumulators (``defs``, one per distinct call), the columns
    it keeps per group, then a count(*) or min()/max() of a whole table answered without
    a scan, else the loops and result rows ``_codegen.code_aggregate`` codes. True when
    the groups come in the order of an ORDER BY that is the GROUP BY (``sort_desc``, its
    directions: group_order.py), whose sorter the rows then skip; ``as_distinct``: the
    GROUP BY is a rewritten DISTINCT's."""
    b = p.b
    overrides = scope.overrides
    defs = []
    uniq, slot = _merge_aggs(scope, aggs) if len(aggs) > 1 else (aggs, _SLOT_0)
    functions = p.functions
    # (the connection's table is asked by C calls; a stand-in, alter_check's, by its method)
    table = functions if type(functions) is FunctionTable else None
    for a in uniq:
        nargs = 0 if a.star else len(a.args)
        distinct = a.distinct
        if distinct and nargs != 1:
            raise OperationalError("DISTINCT aggregates must have exactly one argument")
        if table is not None:
            f = table.aggregate(a.name, nargs)
        else:
            f = functions.aggregate(a.name, nargs)
        if f is None:
            raise OperationalError(f"wrong number of arguments to function {a.name}()")
        if f.needs_collation and nargs:
            c = expr_collation(a.args[0], scope)
            if c is not None:
                f = f.with_collation(p.coll_func(c))
        if distinct:
            c = p.collation(expr_collation(a.args[0], scope))
            if c is not None and c.key is not None:
                f = f.with_distinct_norms([c.key])
        defs.append((a, f, nargs))
    acc = 0
    if defs:
        acc = b.alloc_reg(len(defs))
        for i, a in enumerate(aggs):
            overrides[id(a)] = acc + slot[i]
    # columns to keep per group (read outside aggregates); registered after aggregates so
    # that columns inside aggregate arguments are not collected: from what _collect_aggs
    # gathered in refs (its walk stopped at the same calls), else by a walk of the clauses
    if refs is not None and not (refs and refs[0] is None):
        keys = {}
        bare_refs(scope, refs, keys, _bare_subquery)
        bare = list(keys.values())
    else:
        bare = _collect_columns(scope, list(result_exprs) + (
            [having] if having is not None else []) + list(order_exprs))
    bare_regs = b.alloc_reg(len(bare)) if bare else 0
    agg_overrides = dict(overrides) if overrides else {}
    for a in aggs:  # (a call an alias brings into HAVING or ORDER BY is met twice)
        overrides.pop(id(a), None)

    where = core.where
    if (not group_by and len(defs) == 1 and where is None and not extra
            and len(scope.sources) == 1 and scope.sources[0].is_table):
        # (one call over a whole table: the two shortcuts)
        call = defs[0][0]
        if call.star and call.filter is None and not bare:
            # count(*) of a whole table: a b-tree counts its cells, no row is read
            r = b.alloc_reg()
            code_count(p, scope.sources[0], r, _hint(core))
            for a in aggs:
                scope.overrides[id(a)] = r
            skip = b.new_label()
            if having is not None:
                if_false(p, scope, having, skip, True)
            rows.emit()
            b.resolve(skip)
            scope.overrides.clear()
            return
        if (defs[0][2] == 1 and call.filter is None and call.name.lower() in ("min", "max")
                and having is None and _minmax_by_index(
                    p, scope, aggs, acc, bare, bare_regs, rows, _hint(core))):
            return
    return _cg.code_aggregate(b, p, scope, core,
                              _and_all(where, extra) if extra else where, left_on, defs,
                              group_by, having, rows, agg_overrides, bare, bare_regs, acc,
                              sort_desc, as_distinct)


_SLOT_0 = (0,)  # (the accumulator of a lone call)


# ------------------------------------------------------------------------------------------
# VALUES and compound selects
# ------------------------------------------------------------------------------------------

def _compile_values(p, body, sel, dest, outer, corr):
    b = p.b
    n = len(body.rows[0])
    if n > MAX_COLUMN:
        raise OperationalError("too many columns in result set")
    names = [f"column{i + 1}" for i in range(n)]
    if len(body.rows) == 1 and not sel.order_by and sel.limit is None and \
            _collect_aggs(p, body.rows[0]):
        # (a one-row VALUES is a SELECT of its terms in SQLite 3.40: an aggregate query)
        core = SelectCore([ResultColumn(e, names[i]) for i, e in enumerate(body.rows[0])])
        return _compile_core(p, core, None, None, None, dest, outer, corr)
    scope = Scope([], outer, corr)
    for row in body.rows:
        if len(row) != n:  # (reported once the rows' names are resolved, as SQLite does)
            from sqlengine.compiler.resolve_order import values_error
            raise values_error(p, scope, body.rows, OperationalError(
                "all VALUES must have the same number of terms"))
    if sel.order_by or sel.limit is not None:
        wrapped = Select(SelectCore([Star()], from_=SubqueryRef(Select(body))),
                           order_by=sel.order_by, limit=sel.limit, offset=sel.offset)
        return compile_select(p, wrapped, dest, outer, corr)
    rows = body.rows
    if outer is not None:
        link_subquery_scope(p, scope, body)
        if sees_outer_aliases(scope):  # (an enclosing query's aliases: see alias.py)
            aliases = Aliases(p, scope)
            rows = [[aliases.result(e) for e in row] for row in rows]
    k = len(rows)
    eqp_line(p, "SCAN CONSTANT ROW" if k == 1 else f"SCAN {k} CONSTANT ROWS")
    try:
        for row in rows:
            base = b.alloc_reg(n)
            for i, e in enumerate(row):
                code_expr(p, scope, e, base + i)
            dest.emit(p, base, n)
    except OperationalError as err:
        if k == 1:
            raise
        from sqlengine.compiler.resolve_order import values_error
        raise values_error(p, scope, body.rows, err) from None
    info = _row_info(names, rows[0], scope)
    if len(rows) > 1:
        info.last = _row_info(names, rows[-1], scope)
    # (a compound's ORDER BY matches a VALUES by its expressions: its names are no AS names)
    info.arm = (scope, [(e, None, None) for e in rows[0]], None)
    return info


def _row_info(names, row, scope):
    affs = [expr_affinity(e, scope) for e in row]
    seqs = [expr_coll_seq(e, scope) for e in row]
    return ResultInfo(names, [None] * len(row), affs, [cs[1] for cs in seqs],
                      [cs[0] for cs in seqs])


def last_result_exprs(sel):
    """The result expressions of the rightmost SELECT of ``sel`` (the last row of a
    VALUES), where SQLite looks for an explicit COLLATE; None for ``*``."""
    body = sel.body
    while isinstance(body, Compound):
        body = body.right
    if isinstance(body, Values):
        return list(body.rows[-1])
    if not isinstance(body, SelectCore):
        return None
    exprs = []
    for c in body.columns:
        if not isinstance(c, ResultColumn):
            return None
        exprs.append(c.expr)
    return exprs


def _arms(body, out):
    if isinstance(body, Compound):
        _arms(body.left, out)
        out.append((body.op, body.right))
    else:
        out.append((None, body))
    return out


_EQP_ARM = {"UNION ALL": "UNION ALL", "UNION": "UNION USING TEMP B-TREE",
            "EXCEPT": "EXCEPT USING TEMP B-TREE", "INTERSECT": "INTERSECT USING TEMP B-TREE"}


def _compile_arm(p, arm, dest, outer, corr, op=None):
    """One arm of a compound, its plan nested under a line naming it (the left-most, or
    the operator that combines it with the rows before it)."""
    if vars(p).get("hex_notes") and hex_noted(p):  # (as in _materialize)
        return hex_quietly(p, _compile_arm, p, arm, dest, outer, corr, op)
    line = eqp_open(p, _EQP_ARM[op] if op is not None else "LEFT-MOST SUBQUERY")
    try:
        return _code_arm(p, arm, dest, outer, corr)
    finally:
        eqp_close(p, line)


def _code_arm(p, arm, dest, outer, corr):
    if isinstance(arm, Values):
        return _compile_values(p, arm, Select(arm), dest, outer, corr)
    if has_window(arm):
        # a window function in any arm: that arm alone runs in the two window steps
        return compile_window_select(p, Select(arm), dest, outer, corr)
    return _compile_core(p, arm, None, None, None, dest, outer, corr, compound_arm=True)


def _compile_compound(p, sel, dest, outer, corr):
    line = eqp_open(p, "COMPOUND QUERY")
    try:
        return _code_compound(p, sel, dest, outer, corr, line)
    except OperationalError as err:  # (SQLite resolves the right-most arm first)
        from sqlengine.compiler.resolve_order import compound_error
        raise compound_error(p, sel, _arms(sel.body, []), outer, err) from None
    finally:
        eqp_close(p, line)


def _code_compound(p, sel, dest, outer, corr, line):
    b = p.b
    arms = _arms(sel.body, [])
    ops = [op for op, _ in arms[1:]]
    only_all = all(op == "UNION ALL" for op in ops)
    if only_all and not sel.order_by:
        info = None
        typed = dest.arms if type(dest) is TableDest else None  # (see TableDest)
        # each arm's rows go out as they come, counted against the LIMIT and OFFSET (as
        # SQLite's multiSelect does: one that reads an unbounded co-routine ends)
        end = b.new_label()
        if sel.limit is not None:
            dest = LimitedDest(dest, *_limit_regs(p, None, sel.limit, sel.offset, end), end)
        for _op, arm in arms:
            i2 = _compile_arm(p, arm, dest, outer, corr, _op)
            if typed is not None:
                typed.append(i2.affs)
            if info is None:
                info = i2
            elif len(i2.names) != len(info.names):
                raise _arity_error(_op)
        b.resolve(end)
        info.last = i2.rightmost()
        return info
    # Accumulate into a transient store, then read it out in order.
    cur = b.alloc_cursor()
    first_op = ops[0]
    info = None
    store_is_index = False
    # with ORDER BY, SQLite merges sorted arms and keeps the first of equal rows, but for
    # an ORDER BY naming a collation (convertCompoundSelectToSubquery: the compound is
    # deduplicated as without ORDER BY, then sorted)
    first = bool(sel.order_by) and not any(
        _res.has_explicit_collate(o.expr) for o in sel.order_by)
    # (then the arms whose rows go into the compound's set, each up to the last UNION,
    # EXCEPT or INTERSECT, drop their DISTINCT: SQLite's IgnorableDistinct)
    last_set = -1 if first else max(
        (k for k, (op, _) in enumerate(arms) if k and op != "UNION ALL"), default=-1)
    for k, (op, arm) in enumerate(arms):
        if k <= last_set and type(arm) is SelectCore and arm.distinct:
            arm = replace_node(arm, distinct=False)
        if k == 0:
            # compile into a temporary destination decided by the next op
            as_index = first_op != "UNION ALL"
            open_addr = b.emit(OP_Noop)
            d = SetDest(cur, keep_first=first) if as_index else TableDest(cur)
            info = _compile_arm(p, arm, d, outer, corr)
            n = len(info.names)
            # one key description for every store; its collations are settled once all the
            # arms are known (multiSelectCollSeq: the first arm whose column has one)
            spec = SortSpec(n, [p.collation(c) for c in info.colls])
            infos = [info]
            ins = [OP_OpenEphemeral, cur, n, 0, spec if as_index else None, 0, None]
            b.ops[open_addr] = ins
            store_is_index = as_index
            continue
        if op == "UNION ALL":
            if store_is_index:
                cur = _convert_store(p, cur, n, to_index=False, info=info, spec=spec)
                store_is_index = False
            i2 = _compile_arm(p, arm, TableDest(cur), outer, corr, op)
        elif op == "UNION":
            if not store_is_index:
                cur = _convert_store(p, cur, n, to_index=True, info=info, spec=spec,
                                     keep_first=first)
                store_is_index = True
            if first:
                # SQLite's merge keeps, of equal rows, the first of the later arm: collect
                # this arm on its own, then let its rows replace the store's
                tmp = b.alloc_cursor()
                b.emit(OP_OpenEphemeral, tmp, n, 0, spec)
                i2 = _compile_arm(p, arm, SetDest(tmp, keep_first=True), outer, corr, op)
                done = b.new_label()
                b.emit(OP_Rewind, tmp, done)
                top = b.addr()
                rec = b.alloc_reg()
                b.emit(OP_RowData, tmp, rec)
                b.emit(OP_IdxInsert, cur, rec)
                b.emit(OP_Next, tmp, top)
                b.resolve(done)
            else:
                i2 = _compile_arm(p, arm, SetDest(cur), outer, corr, op)
        elif op == "EXCEPT":
            if not store_is_index:
                cur = _convert_store(p, cur, n, to_index=True, info=info, spec=spec,
                                     keep_first=first)
                store_is_index = True
            i2 = _compile_arm(p, arm, SetDest(cur, delete=True), outer, corr, op)
        else:  # INTERSECT
            if not store_is_index:
                cur = _convert_store(p, cur, n, to_index=True, info=info, spec=spec,
                                     keep_first=first)
                store_is_index = True
            other = b.alloc_cursor()
            b.emit(OP_OpenEphemeral, other, n, 0, spec)
            i2 = _compile_arm(p, arm, SetDest(other), outer, corr, op)
            new = b.alloc_cursor()
            b.emit(OP_OpenEphemeral, new, n, 0, spec)
            done = b.new_label()
            b.emit(OP_Rewind, cur, done)
            top = b.addr()
            rec = b.alloc_reg()
            nxt = b.new_label()
            b.emit(OP_RowData, cur, rec)
            b.emit(OP_NotFound, other, nxt, rec, 0)
            b.emit(OP_IdxInsert, new, rec)
            b.resolve(nxt)
            b.emit(OP_Next, cur, top)
            b.resolve(done)
            cur = new
        if len(i2.names) != n:
            raise _arity_error(op)
        infos.append(i2)
    colls = [next((i.colls[k] for i in infos if i.has_coll is None or i.has_coll[k]), None)
             for k in range(n)]
    spec.colls[:] = [p.collation(c) for c in colls]
    info.last = infos[-1].rightmost()
    # read out
    eqp_close(p, line)  # (the sort of the combined rows is the compound's sibling)
    scope = None
    cols = [(Column(nm), nm, None) for nm in info.names]
    obt = _resolve_order_by(p, sel.order_by, cols, scope, arms=infos) if sel.order_by else []
    end = b.new_label()
    lreg, oreg = _limit_regs(p, scope, sel.limit, sel.offset, end)
    out = b.alloc_reg(n)
    if obt:
        srt = b.alloc_cursor()
        ocolls = [p.collation(o[4] if o[4] is not None else colls[o[1]]) for o in obt]
        ospec = SortSpec(len(obt), ocolls, [o[2] for o in obt], [o[3] for o in obt])
        b.emit(OP_SorterOpen, srt, len(obt) + n, 0, ospec)
        eqp_line(p, _EQP_ORDER_BY)
        done = b.new_label()
        b.emit(OP_Rewind, cur, done)
        top = b.addr()
        blk = b.alloc_reg(len(obt) + n)
        for k, o in enumerate(obt):
            b.emit(OP_Column, cur, o[1], blk + k)
        for i in range(n):
            b.emit(OP_Column, cur, i, blk + len(obt) + i)
        rec = b.alloc_reg()
        b.emit(OP_MakeRecord, blk, len(obt) + n, rec)
        b.emit(OP_SorterInsert, srt, rec)
        b.emit(OP_Next, cur, top)
        b.resolve(done)
        done2 = b.new_label()
        b.emit(OP_SorterSort, srt, done2)
        top2 = b.addr()
        for i in range(n):
            b.emit(OP_Column, srt, len(obt) + i, out + i)
        emit_limited(b, p, None if type(dest) is OutputDest else dest, out, n, lreg, oreg, end)
        b.emit(OP_SorterNext, srt, top2)
        b.resolve(done2)
    else:
        done = b.new_label()
        b.emit(OP_Rewind, cur, done)
        top = b.addr()
        for i in range(n):
            b.emit(OP_Column, cur, i, out + i)
        emit_limited(b, p, None if type(dest) is OutputDest else dest, out, n, lreg, oreg, end)
        b.emit(OP_Next, cur, top)
        b.resolve(done)
    b.resolve(end)
    return info


def _arity_error(op):
    return OperationalError(
        f"SELECTs to the left and right of {op} do not have the same number of result columns")


def _convert_store(p, cur, n, to_index, info, spec=None, keep_first=False):
    """Copy the rows of transient store ``cur`` into a new one of the other kind."""
    b = p.b
    new = b.alloc_cursor()
    if to_index:
        if spec is None:
            spec = SortSpec(n, [p.collation(c) for c in info.colls])
        b.emit(OP_OpenEphemeral, new, n, 0, spec)
    else:
        b.emit(OP_OpenEphemeral, new, n)
    done = b.new_label()
    b.emit(OP_Rewind, cur, done)
    top = b.addr()
    rec = b.alloc_reg()
    b.emit(OP_RowData, cur, rec)
    if to_index:
        skip = b.new_label()
        if keep_first:
            b.emit(OP_Found, new, skip, rec, 0)
        b.emit(OP_IdxInsert, new, rec)
        b.resolve(skip)
    else:
        rid = b.alloc_reg()
        b.emit(OP_NewRowid, new, rid)
        b.emit(OP_Insert, new, rec, rid)
    b.emit(OP_Next, cur, top)
    b.resolve(done)
    return new


# ------------------------------------------------------------------------------------------
# Subqueries in expressions
# ------------------------------------------------------------------------------------------

def _sub_columns(sel):
    body = sel.body
    while isinstance(body, Compound):
        body = body.left
    if isinstance(body, Values):
        return len(body.rows[0])
    n = 0
    for c in body.columns:
        if isinstance(c, Star):
            return -1
        n += 1
    return n


def _open_subquery_line(p, sel, kind):
    """The plan line of an expression's subquery (``kind``: SCALAR or LIST), its code
    nested under it; the text says CORRELATED once ``_close_subquery_line`` knows."""
    if not p.eqp:
        return eqp_open(p, ""), kind, 0
    n = select_id(p, sel)
    return eqp_open(p, f"{kind} SUBQUERY {n}"), kind, n


def _close_subquery_line(p, token, correlated):
    line, kind, n = token
    eqp_close(p, line)
    if correlated and p.eqp:
        eqp_set(p, line[0], f"CORRELATED {kind} SUBQUERY {n}")


def code_scalar_subquery(p, scope, e, target):
    reg, info = _code_subquery(p, scope, e, 1)
    aff = info.rightmost().affs[0]
    if scope is not None and aff:  # its column's affinity, for comparisons
        subs = scope.sub_affs
        if subs is None:  # (made on its first entry)
            subs = scope.sub_affs = {}
        subs[id(e)] = aff
    p.b.emit(OP_SCopy, reg, target)


def code_subquery_row(p, scope, e):
    """A subquery used as a row value: its first row into one register per column (NULLs
    when it has none), run once unless correlated. Returns (first register, ResultInfo)."""
    n = _sub_columns(e.select)
    if n < 0:
        n = len(result_info_only(p, e.select, scope).names)
    return _code_subquery(p, scope, e, n)


def _code_subquery(p, scope, e, width):
    b = p.b
    reg = b.alloc_reg(width)
    after = b.new_label()
    once_addr = b.emit(OP_Once, 0, after)
    b.emit(OP_Null, 0, reg, reg + width - 1)
    stop = b.new_label()
    corr = [False]
    line = _open_subquery_line(p, e.select, "SCALAR")
    try:
        info = compile_select(p, e.select, ScalarDest(reg, stop, width), scope, corr)
    except OperationalError as err:
        from sqlengine.compiler.resolve_order import subquery_size_error
        raise subquery_size_error(p, scope, e.select, 1, err) from None
    _close_subquery_line(p, line, corr[0])
    if len(info.names) != width:
        raise OperationalError(f"sub-select returns {len(info.names)} columns - expected 1")
    b.resolve(stop)
    b.resolve(after)
    if corr[0]:
        b.ops[once_addr][0] = OP_Noop
    return reg, info


def code_exists(p, scope, e, target):
    b = p.b
    reg = b.alloc_reg()
    after = b.new_label()
    once_addr = b.emit(OP_Once, 0, after)
    b.emit(OP_Integer, 0, reg)
    stop = b.new_label()
    corr = [False]
    line = _open_subquery_line(p, e.select, "SCALAR")
    compile_select(p, e.select, ExistsDest(reg, stop), scope, corr)
    _close_subquery_line(p, line, corr[0])
    b.resolve(stop)
    b.resolve(after)
    if corr[0]:
        b.ops[once_addr][0] = OP_Noop
    b.emit(OP_SCopy, reg, target)


def code_in_subquery(p, scope, e, target, sel=None):
    b = p.b
    sel = sel if sel is not None else e.select
    lhs = e.expr
    lhs_regs = None
    if isinstance(lhs, A.Subquery) and _sub_columns(lhs.select) != 1:
        from sqlengine.compiler.rowvalue import Vector
        v = Vector(p, scope, lhs)  # a row of several columns (run before the set is built)
        if len(v) == 1:
            lhs_items = [lhs]
        else:
            lhs_items, lhs_regs = v.items, v.regs
    else:
        lhs_items = lhs.items if isinstance(lhs, RowValue) else [lhs]
    n = len(lhs_items)
    # affinity and collation of each comparison: lhs item vs the subquery's column
    cur = b.alloc_cursor()
    after = b.new_label()
    once_addr = b.emit(OP_Once, 0, after)
    open_addr = b.emit(OP_Noop)
    corr = [False]
    dest = SetDest(cur, None)
    line = _open_subquery_line(p, sel, "LIST")
    try:
        info = compile_select(p, sel, dest, scope, corr)
    except OperationalError as err:
        from sqlengine.compiler.resolve_order import subquery_size_error
        raise subquery_size_error(p, scope, sel, n, err) from None
    _close_subquery_line(p, line, corr[0])
    if len(info.names) != n:
        raise OperationalError(f"sub-select returns {len(info.names)} columns - expected {n}")
    # the comparisons are with the rightmost SELECT's columns; then the probe
    code_in_probe(p, scope, lhs_items, lhs_regs, info.rightmost(), last_result_exprs(sel), dest,
                  cur, once_addr, open_addr, after, corr[0], e.negated, target)


def convert_row_column(p, scope, item, aff):
    """The affinity ``aff`` of an IN (a subquery's, a table's, a list's SQLite probes as
    an ephemeral table) applied in place to the register of the RETURNING row's column
    ``item`` (through COLLATE) too: 3.40 codes the row's columns as the registers
    themselves (TK_REGISTER), so its OP_Affinity on the left operand converts the row for
    what is coded after the IN (a later item sees '6' as 6). Not for a REAL column (its
    IntReal stays a real there) nor a vector's items (copied first)."""
    while type(item) is A.Collate:
        item = item.expr
    if type(item) is not A.Column or aff in "@A":
        return
    try:
        ref = scope.lookup(item.name, item.table)
    except OperationalError:
        return
    if ref is None or ref.col < 0 or ref.scope is not getattr(p.returning, "row_scope", None):
        return
    table = ref.source.table
    if table is not None and table.columns[ref.col].affinity == "E":
        return
    reg = ref.scope.overrides.get((-1, ref.col))
    if reg is not None:
        p.b.emit(O.OP_Affinity, reg, 1, 0, aff)


def code_in_table(p, scope, e, target):
    sel = Select(SelectCore([Star()], from_=TableRef(e.name, e.schema)))
    code_in_subquery(p, scope, A.InSelect(e.expr, sel, e.negated), target, sel)


__all__ = ["compile_select", "OutputDest", "ScalarDest", "ExistsDest", "SetDest", "TableDest",
           "CallbackDest", "ResultInfo", "walk_select", "code_expr_reg"]
