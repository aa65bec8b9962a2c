"""RETURNING on INSERT, UPDATE and DELETE.

As in SQLite, the rows are computed while the statement changes the table (from the row
as written, or as it was before a DELETE) and collected in an ephemeral table; they are
handed to the caller only after every change is made, so a caller that stops stepping
early still sees the whole statement applied. Result column names follow SELECT's rules.

The types of REAL columns follow SQLite 3.40, the stdlib sqlite3 this project is checked
against. The row an INSERT or UPDATE writes holds a whole number in a REAL column as an
"IntReal" (a real in arithmetic, an integer once stored), so an item that hands that
column back as it is (itself, or through COLLATE, unary +, CASE results and the functions
that return an argument unchanged: ``_IntReals``) returns an integer. And 3.40's resolver
leaves every column of the row with the column number 0, so an item that is a column or
the rowid (through COLLATE) gets the *first* column's affinity: a float when that column
is REAL; a scalar subquery item has the affinity of its last arm's first result, so the
same rule reaches a column there. A comparison (IN too) reads every column of the row, and
the rowid, with that affinity as well (``_first_affinity``), but BETWEEN's left operand
and CASE's operand with none: 3.40 copies those to a register first (``_without_affinity``). DELETE returns the row as read. An IntReal a subquery
passes on is made an integer too (through a FROM clause, a name its items do not have is
the row's), unless an arm may also return a whole float constant: a float here, where
SQLite returns the integer when the column's arm gives the value.

This module emits code; it never runs it.
"""

from __future__ import annotations

import dataclasses

from sqlengine.compiler.expr import code_expr
from sqlengine.compiler.generated import row_scope
from sqlengine.compiler.resolve import ColRef, ResolvedColumn, Scope, Source, table_source
from sqlengine.compiler.resolve_order import _COMPARISONS, returning_error
from sqlengine.compiler.select import _expand_columns, result_info_only
from sqlengine.compiler.walk import SUBQUERY_NODES, compound_cores, find_node, map_children
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O


class _Core:
    """The part of a SelectCore that ``_expand_columns`` reads."""

    def __init__(self, columns):
        self.columns = columns


class Returning:
    """Collects RETURNING rows of one statement on ``table``."""

    def __init__(self, p, table, items):
        self.p = p
        self.table = table
        self.items = items
        self.cursor = p.b.alloc_cursor()
        self.n = None
        p.b.emit(O.OP_OpenEphemeral, self.cursor, 0)
        if wildcard_error(items) is not None:  # (refused where SQLite resolves the list:
            self.names = self.decltypes = []    # emit_row, after the statement's clauses)
            p.returning = self
            return
        # the names, worked out once against a scope of the table's row
        scope = row_scope(p, table, 0)
        cols = _expand_columns(p, _Core(items), scope)
        self.names = [c[1] for c in cols]
        # SQLite names every rowid alias "rowid" here (when no column takes the name)
        for it in items:
            if isinstance(it, A.ResultColumn) and it.alias is None and isinstance(
                    it.expr, A.Column) and it.expr.name.lower() in ("oid", "_rowid_") \
                    and table.find_column(it.expr.name) < 0 and table.ipk < 0:
                for j, c in enumerate(cols):
                    if c[0] is it.expr:
                        self.names[j] = "rowid"
        self.decltypes = [c[2] for c in cols]
        p.returning = self

    def emit_row(self, base):
        """Code that adds one RETURNING row for the table row in registers base (rowid),
        base+1.. (columns)."""
        p = self.p
        b = p.b
        scope = _first_affinity(row_scope(p, self.table, base), self.table)
        self.row_scope = scope  # (select.convert_row_column converts its registers)
        if wildcard_error(self.items) is not None:
            raise returning_error(p, self.table, self.items)
        cols = _expand_columns(p, _Core(self.items), scope)
        n = len(cols)
        regs = b.alloc_reg(n)
        first_real = bool(self.table.columns) and \
            self.table.columns[0].affinity == O.AFF_REAL
        # (the row as read, or as given to a view's INSERT: no IntReal)
        deleting = isinstance(p.ast, A.Delete) or self.table.is_view and \
            isinstance(p.ast, A.Insert)
        int_reals = _IntReals(p, self.table, scope)
        for i, (e, _name, _decl) in enumerate(cols):
            if isinstance(e, A.FunctionCall) and p.db.is_aggregate(
                    e.name, 0 if e.star else len(e.args)) and e.over is None:
                raise OperationalError(f"misuse of aggregate function {e.name}()")
            _check_schema_names(scope, e)
            col, plain = _row_column(scope, e)
            sub, sub_real = _scalar_subquery(e)
            e = _without_affinity(scope, e)
            if not deleting:
                e = int_reals.passed(e)
            code_expr(p, scope, e, regs + i)
            if sub is not None and not deleting and _passes_real(p, self.table, scope, sub):
                b.emit(O.OP_Function, 0, regs + i, regs + i, _stored_int_real, 1)
            if (col is not None and plain or sub_real and _real_affinity(p, sub)) and first_real:
                b.emit(O.OP_RealAffinity, regs + i)
        rec = b.alloc_reg()
        rid = b.alloc_reg()
        b.emit(O.OP_MakeRecord, regs, n, rec)
        b.emit(O.OP_NewRowid, self.cursor, rid)
        b.emit(O.OP_Insert, self.cursor, rec, rid)
        self.n = n

    def finish(self):
        """Code that outputs the collected rows (at the end of the statement)."""
        b = self.p.b
        n = len(self.names)
        done = b.new_label()
        b.emit(O.OP_Rewind, self.cursor, done)
        top = b.addr()
        regs = b.alloc_reg(n)
        for i in range(n):
            b.emit(O.OP_Column, self.cursor, i, regs + i)
        b.emit(O.OP_ResultRow, regs, n)
        b.emit(O.OP_Next, self.cursor, top)
        b.resolve(done)


def _first_affinity(scope, table):
    """``scope`` (the row's) with every column of the row taking the first column's
    affinity, as SQLite 3.40's resolver leaves them in RETURNING (the column number of
    each is 0): a comparison applies that affinity (``d = '1'`` is true for d = 1 when the
    first column is INTEGER)."""
    if not table.columns:
        return scope
    src = table_source(table.name, -1, table)
    src.affs = [table.columns[0].affinity] * len(src.affs)
    out = Scope([src])
    out.overrides.update(scope.overrides)
    return out


def _without_affinity(scope, e):
    """``e`` with the row's columns that 3.40 reads through a copy of their register made
    unary-plus (no affinity): the left operand of BETWEEN and the operand of CASE x WHEN
    (its exprToRegister leaves the copy neither a column nor an affinity); and the rowid
    compared (or the left of IN) read as a column of the first column's affinity."""
    rowid = []

    def as_column(x):
        inner, _had = _unwrapped_collate(x)
        if type(inner) is not A.Column or _row_column(scope, inner)[0] != -1:
            return x
        if not rowid:
            rowid.append(_rowid_column(scope))
        return rowid[0] if inner is x else dataclasses.replace(x, expr=rowid[0])

    def bare(x):
        inner, _plain = _unwrapped_collate(x)
        if _row_column(scope, inner)[0] is None:
            return x
        plus = A.Unary("+", inner)
        return plus if inner is x else dataclasses.replace(x, expr=plus)

    def walk(x):
        t = type(x)
        if t in SUBQUERY_NODES:
            return x
        x = map_children(x, walk)
        if t is A.Between:
            y = bare(x.expr)
            return x if y is x.expr else dataclasses.replace(x, expr=y)
        if t is A.Case and x.operand is not None:
            y = bare(x.operand)
            return x if y is x.operand else dataclasses.replace(x, operand=y)
        if t is A.Binary and x.op.upper() in _COMPARISONS:
            left, right = as_column(x.left), as_column(x.right)
            if left is not x.left or right is not x.right:
                return dataclasses.replace(x, left=left, right=right)
        elif t is A.InList or t is A.InSelect or t is A.InTable:
            y = as_column(x.expr)
            return x if y is x.expr else dataclasses.replace(x, expr=y)
        return x
    return walk(e)


def _rowid_column(scope):
    """A node reading the row's rowid as a column of the first column's affinity."""
    src = scope.sources[0]
    one = Source("rowid", -5, ["rowid"], [src.affs[0]], [None], [None])
    inner = Scope([one])
    inner.overrides[(-5, 0)] = scope.overrides[(-1, -1)]
    return ResolvedColumn(ColRef(one, 0, inner, 0))


def _unwrapped_collate(e):
    """(``e`` without the COLLATE around it, whether there was one)."""
    had = False
    while type(e) is A.Collate:
        e, had = e.expr, True
    return e, had


def expand_items(p, scope, items):
    """The expressions of the RETURNING list ``items`` in ``scope`` (the row's), its *
    expanded, as sqlite3ExpandReturning makes them: it stops at a ``t.*`` (its error),
    keeping the items before it."""
    for k, it in enumerate(items):
        if isinstance(it, A.Star) and it.table is not None:
            items = items[:k]
            break
    return [c[0] for c in _expand_columns(p, _Core(items), scope)]


def item_error(scope, e):
    """The error of a column of RETURNING item ``e`` named with a schema, else None."""
    try:
        _check_schema_names(scope, e)
    except OperationalError as err:
        return err
    return None


def wildcard_error(items):
    """SQLite's refusal of ``t.*`` (before any name of the list is resolved), or None."""
    if any(isinstance(it, A.Star) and it.table is not None for it in items):
        return OperationalError('RETURNING may not use "TABLE.*" wildcards')
    return None


def _check_schema_names(scope, e):
    """SQLite's error for the first column of item ``e`` (outside its subqueries) that is
    named with a schema (``main.t.a``: the row RETURNING reads belongs to none) or does not
    resolve."""

    def bad(x):
        if type(x) is not A.Column:
            return False
        if x.schema is not None:
            return True
        try:
            return scope.lookup(x.name, x.table) is None and x.table is not None
        except OperationalError:
            return True
    c = find_node(e, bad)
    if c is not None and c.schema is not None:
        raise OperationalError(f"no such column: {c.table}.{c.name}")


def _unwrapped(e):
    """(``e`` without the COLLATE and unary + around it; whether only COLLATE was: a
    unary + drops the affinity)."""
    plain = True
    while True:
        t = type(e)
        if t is A.Collate:
            e = e.expr
        elif t is A.Unary and e.op == "+":
            e = e.operand
            plain = False
        else:
            return e, plain


def _row_column(scope, e):
    """(column number, -1 for the rowid, or None; whether only COLLATE wraps it) of a
    RETURNING item that is a column of the row (through COLLATE and unary +)."""
    e, plain = _unwrapped(e)
    t = type(e)
    if t is ResolvedColumn:
        return e.ref.col, plain
    if t is A.Column and e.schema is None:
        try:
            ref = scope.lookup(e.name, e.table)
        except Exception:  # noqa: BLE001 - (its coding reports the error)
            return None, False
        if ref is not None:
            return ref.col, plain
    return None, False


def _scalar_subquery(e):
    """(the scalar subquery a RETURNING item is, through COLLATE and unary +, or None;
    whether the item has its affinity: only COLLATE between)."""
    e, keeps = _unwrapped(e)
    return (e, keeps) if type(e) is A.Subquery else (None, False)


class _FromColumn:
    """A column of a subquery's FROM items standing in a first result expression: not
    the row's (``_first_expr``)."""

    __slots__ = ()


def _first_expr(core, p):
    """The first result expression of a core whose names are the row's, else None: a
    core without FROM, or one with a FROM clause, each column there that names a FROM
    item's column made a ``_FromColumn`` (None when the expression has a subquery, whose
    names this does not follow)."""
    if type(core) is not A.SelectCore or not core.columns:
        return None
    rc = core.columns[0]
    if type(rc) is not A.ResultColumn:
        return None
    if core.from_ is None:
        return rc.expr
    if find_node(rc.expr, lambda x: type(x) in SUBQUERY_NODES, ()) is not None:
        return None
    names = _from_names(p, core.from_)
    return None if names is None else _shadowed(rc.expr, *names)


def _from_names(p, from_):
    """(qualifiers, column names) the FROM clause ``from_`` makes visible, lower-cased;
    None when they are not known here."""
    quals = set()
    stack = [from_]
    while stack:
        item = stack.pop()
        t = type(item)
        if t is A.Join:
            if item.natural or item.using:
                return None
            stack += [item.left, item.right]
        elif t is A.TableRef:
            quals.add((item.alias or item.name).lower())
        elif t is A.SubqueryRef and item.alias:
            quals.add(item.alias.lower())
        elif t is not A.SubqueryRef:
            return None
    try:
        info = result_info_only(p, A.Select(A.SelectCore([A.Star()], from_=from_)))
    except OperationalError:
        return None
    return quals, {n.lower() for n in info.names}


def _shadowed(e, quals, cols):
    """``e`` with each column that names one of the FROM items' a ``_FromColumn``."""
    if type(e) is A.Column:
        if e.schema is not None or (e.table.lower() in quals if e.table is not None
                                    else e.name.lower() in cols):
            return _FromColumn()
        return e
    return map_children(e, lambda x: _shadowed(x, quals, cols))


def _real_affinity(p, sub) -> bool:
    """Whether SQLite 3.40's ExprAffinity of the scalar subquery ``sub`` of a RETURNING item
    is the first column's (its last arm's first result is a column of the row, the row's
    columns all taking that affinity, through COLLATE and subqueries like it)."""
    e = _first_expr(compound_cores(sub.select.body)[0], p)
    while True:
        t = type(e)
        if t is A.Collate:
            e = e.expr
        elif t is A.Subquery:
            e = _first_expr(compound_cores(e.select.body)[0], p)
        else:
            return t is A.Column


def _passes_real(p, table, scope, sub) -> bool:
    """Whether every value the scalar subquery ``sub`` may return is a REAL column of the
    row as it is (or a constant no IntReal could be: not a whole float), through the
    subqueries without FROM of its arms: SQLite returns the row's IntReal, an integer once
    stored, where the row here holds a float (``_stored_int_real`` makes it one)."""
    found = False
    stack = [sub]
    while stack:
        e = stack.pop()
        t = type(e)
        if t is A.Collate:
            stack.append(e.expr)
        elif t is A.Unary and e.op == "+":
            stack.append(e.operand)
        elif t is A.Subquery:
            for core in compound_cores(e.select.body):
                x = _first_expr(core, p)
                if x is None:
                    return False
                stack.append(x)
        elif t is A.Case:
            stack += [r for _w, r in e.whens]
            if e.else_ is not None:
                stack.append(e.else_)
        elif t is A.FunctionCall and e.name.lower() in _PASS_ARGS and e.over is None and \
                e.filter is None and not e.distinct and not e.star and not (
                    e.name.lower() in ("max", "min") and len(e.args) < 2):
            which = _PASS_ARGS[e.name.lower()]
            stack += [a for k, a in enumerate(e.args) if which is None or k in which]
        elif t is A.Literal:
            if type(e.value) is float and _stored_int_real(None, (e.value,)) is not e.value:
                return False  # (a whole float constant: it would read as the column's)
        elif t is A.Column:
            col, _plain = _row_column(scope, e)
            if col is None or col < 0 or table.columns[col].affinity != O.AFF_REAL:
                return False
            found = True
        else:
            return False
    return found


# the functions that return one of their arguments as it is (by argument position; None:
# any of them), through which a REAL column's IntReal reaches the RETURNING row
_PASS_ARGS = {"coalesce": None, "ifnull": None, "max": None, "min": None, "nullif": (0,),
              "likely": (0,), "unlikely": (0,), "likelihood": (0,), "iif": (1, 2),
              "if": (1, 2)}


class _IntReals:
    """Rewrites a RETURNING item so that each REAL column of the row it hands back as it is
    (itself, or through COLLATE, unary +, CASE results and the functions of _PASS_ARGS)
    reads that column as its record stores it (``_stored_int_real``), the column's value
    anywhere else (an operand, a condition) staying the REAL one."""

    def __init__(self, p, table, scope):
        self.p = p
        self.table = table
        self.scope = scope
        self.regs = {}  # column number -> register of its stored form
        self.conv = None

    def passed(self, e, shadow=None):
        """``e`` with each REAL column of the row it may hand back as it is read in its
        stored form (through the arms of scalar subqueries too, where ``shadow``, the
        (qualifiers, column names) of their FROM items, hides the row's names)."""
        t = type(e)
        if t is A.Collate:
            x = self.passed(e.expr, shadow)
            return e if x is e.expr else dataclasses.replace(e, expr=x)
        if t is A.Unary and e.op == "+":
            x = self.passed(e.operand, shadow)
            return e if x is e.operand else dataclasses.replace(e, operand=x)
        if t is A.Subquery:
            body = self._passed_body(e.select.body, shadow)
            if body is e.select.body:
                return e
            return dataclasses.replace(e, select=dataclasses.replace(e.select, body=body))
        if t is A.Case:
            whens = [(w, self.passed(r, shadow)) for w, r in e.whens]
            other = self.passed(e.else_, shadow) if e.else_ is not None else None
            if all(a[1] is b[1] for a, b in zip(whens, e.whens)) and other is e.else_:
                return e
            return dataclasses.replace(e, whens=whens, else_=other)
        if t is A.FunctionCall:
            name = e.name.lower()
            if name not in _PASS_ARGS or e.over is not None or e.filter is not None or \
                    e.distinct or e.star or (name in ("max", "min") and len(e.args) < 2):
                return e
            which = _PASS_ARGS[name]
            args = [self.passed(a, shadow) if which is None or k in which else a
                    for k, a in enumerate(e.args)]
            if all(a is b for a, b in zip(args, e.args)):
                return e
            return dataclasses.replace(e, args=args)
        if shadow is not None and t is A.Column and type(_shadowed(e, *shadow)) is _FromColumn:
            return e
        col, _plain = _row_column(self.scope, e) if t is A.Column or \
            t is ResolvedColumn else (None, False)
        if col is None or col < 0 or self.table.columns[col].affinity != O.AFF_REAL:
            return e
        if shadow is None:
            return self._stored(col)
        # (in a subquery: the column named too, so that its lookup marks the subquery
        # correlated, run again for each row; coalesce() hands the stored form on)
        return A.FunctionCall("coalesce", [self._stored(col), e])

    def _passed_body(self, body, shadow):
        """A subquery's compound ``body`` with ``passed`` applied to each arm's first
        result (an arm whose FROM items' names are not known here is left as it is):
        the arm that gives the value hands the row's IntReal on, as in SQLite."""
        if type(body) is A.Compound:
            left = self._passed_body(body.left, shadow)
            right = self._passed_body(body.right, shadow)
            if left is body.left and right is body.right:
                return body
            return dataclasses.replace(body, left=left, right=right)
        if type(body) is not A.SelectCore or not body.columns or \
                type(body.columns[0]) is not A.ResultColumn:
            return body
        rc = body.columns[0]
        if body.from_ is not None and find_node(
                rc.expr, lambda x: type(x) in SUBQUERY_NODES, ()) is not None:
            return body  # (as _first_expr: a subquery there is not followed)
        names = (set(), set()) if body.from_ is None else _from_names(self.p, body.from_)
        if names is None:
            return body
        if shadow is not None:
            names = (names[0] | shadow[0], names[1] | shadow[1])
        x = self.passed(rc.expr, names)
        if x is rc.expr:
            return body
        return dataclasses.replace(body, columns=[dataclasses.replace(rc, expr=x)]
                                   + list(body.columns[1:]))

    def _stored(self, col):
        """A node reading column ``col`` of the row in its stored form."""
        b = self.p.b
        if self.conv is None:
            self.conv = Scope([table_source(self.table.name, -3, self.table)])
        r = self.regs.get(col)
        if r is None:
            r = self.regs[col] = b.alloc_reg()
            src = self.scope.overrides[(-1, col)]
            b.emit(O.OP_Function, 0, src, r, _stored_int_real, 1)
            self.conv.overrides[(-3, col)] = r
        return ResolvedColumn(ColRef(self.conv.sources[0], col, self.conv, 0))


_INT_REAL_MIN = -(1 << 47)
_INT_REAL_MAX = (1 << 47) - 1


def _stored_int_real(vm, args):
    """A REAL column's value as a record stores it: a whole number that fits in six bytes
    (SQLite's MEM_IntReal) is an integer."""
    v = args[0]
    if type(v) is float and v.is_integer() and _INT_REAL_MIN <= v <= _INT_REAL_MAX:
        return int(v)
    return v


def start(p, table, items):
    """Begin RETURNING for a statement on ``table`` (None when there is no clause)."""
    if not items:
        return None
    return Returning(p, table, items)
