"""Name resolution: FROM-clause sources, scopes, column lookup, ``*`` expansion, aliases.

A ``Scope`` is one SELECT's name context: its sources (tables, views and subqueries of the
FROM clause, each with a cursor), the scope around it (for correlated references) and the
registers that stand for columns and aggregates once rows have left their cursors (the
output phase of an aggregate query). Lookups follow SQLite's rules and raise its errors:
``no such column: x``, ``ambiguous column name: x``. This module emits no code beyond
what a lookup returns; it never touches storage.
"""

from __future__ import annotations

from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe.opcodes import AFF_NONE, AFF_REAL

ROWID_NAMES = ("rowid", "oid", "_rowid_")


class Source:
    """One FROM item. ``table`` is a schema.Table for a real table (None for a subquery or
    view, whose rows sit in an ephemeral table); ``columns``, ``affs``, ``colls`` and
    ``decltypes`` describe its columns."""

    __slots__ = ("name", "table", "cursor", "columns", "affs", "colls", "decltypes", "ipk",
                 "hidden", "left", "index_cursor", "col_lower", "defaults", "is_table",
                 "join_on", "using_cols", "nullable")

    def __init__(self, name, cursor, columns, affs, colls, decltypes, table=None):
        self.name = name
        self.table = table
        self.cursor = cursor
        self.columns = columns
        self.affs = affs
        self.colls = colls
        self.decltypes = decltypes
        self.ipk = table.ipk if table is not None else -1
        self.is_table = table is not None
        self.hidden: set[int] = set()
        self.left = False
        self.index_cursor = -1
        self.col_lower: dict[str, int] = {}
        for i, c in enumerate(columns):
            self.col_lower.setdefault(c.lower(), i)
        self.defaults = None
        self.join_on = None
        self.using_cols = None
        self.nullable = False

    def find(self, name: str) -> int:
        """Column number, -1 for the rowid, None when absent."""
        i = self.col_lower.get(name.lower())
        if i is not None:
            return i
        if self.is_table and name.lower() in ROWID_NAMES and not self.table.without_rowid:
            return -1
        return None


class ColRef:
    """A resolved column: source, column number (-1 = rowid), the scope that owns it."""

    __slots__ = ("source", "col", "scope", "depth")

    def __init__(self, source, col, scope, depth):
        self.source = source
        self.col = col
        self.scope = scope
        self.depth = depth

    @property
    def key(self):
        return (self.source.cursor, self.col)

    def affinity(self):
        if self.col < 0:
            return "D"
        return self.source.affs[self.col]

    def collation(self):
        if self.col < 0:
            return None
        return self.source.colls[self.col]


class ResolvedColumn:
    """An expression node the compiler makes itself (``*`` expansion, USING terms): a
    column already resolved to a ColRef."""

    __slots__ = ("ref", "pos")

    def __init__(self, ref):
        self.ref = ref
        self.pos = -1


class Scope:
    def __init__(self, sources, outer=None, corr=None):
        self.sources: list[Source] = sources
        self.outer: Scope | None = outer
        self.overrides: dict = {}  # (cursor, col) or id(expr) -> register
        self.aliases: dict[str, A.Expr] = {}
        self.correlated = False
        self.agg_allowed = False
        self.agg_context = None  # set while collecting aggregates
        self.in_where = False
        self.corr = corr if corr is not None else [False]
        self._cache: dict = {}

    def lookup(self, name: str, table: str | None, pos=-1) -> ColRef | None:
        key = (name.lower(), table.lower() if table is not None else None, len(self.sources))
        cache = self._cache
        if key in cache:
            ref = cache[key]
            if ref is not None and ref.depth:
                s = self
                for _ in range(ref.depth):
                    s.correlated = True
                    s.corr[0] = True
                    s = s.outer
            return ref
        ref = self._lookup(name, table)
        cache[key] = ref
        return ref

    def _lookup(self, name: str, table: str | None) -> ColRef | None:
        scope = self
        depth = 0
        while scope is not None:
            matches = []
            for src in scope.sources:
                if table is not None and src.name.lower() != table.lower():
                    continue
                i = src.find(name)
                if i is None:
                    continue
                if table is None and i >= 0 and i in src.hidden:
                    continue
                matches.append((src, i))
            if len(matches) > 1 and table is None:
                # rowid names and USING columns are not ambiguous in every case SQLite allows;
                # a column that is present in several sources is.
                if all(m[1] == -1 for m in matches):
                    raise OperationalError(f"ambiguous column name: {name}")
                raise OperationalError(f"ambiguous column name: {name}")
            if matches:
                src, i = matches[0]
                if depth:
                    s = self
                    for _ in range(depth):
                        s.correlated = True
                        s.corr[0] = True
                        s = s.outer
                return ColRef(src, i, scope, depth)
            scope = scope.outer
            depth += 1
        return None


def no_such_column(name, table=None):
    if table:
        return OperationalError(f"no such column: {table}.{name}")
    return OperationalError(f"no such column: {name}")


def expr_affinity(e, scope: Scope | None) -> str:
    """sqlite3ExprAffinity: the affinity of an expression (``@`` when it has none)."""
    while isinstance(e, A.Collate):
        e = e.expr
    if isinstance(e, ResolvedColumn):
        return e.ref.affinity()
    if isinstance(e, A.Column):
        if scope is None:
            return AFF_NONE
        try:
            ref = scope.lookup(e.name, e.table)
        except OperationalError:
            return AFF_NONE
        if ref is None:
            return AFF_NONE
        return ref.affinity()
    if isinstance(e, A.Cast):
        from sqlengine.schema import affinity_of_type
        return affinity_of_type(e.type_name)
    if isinstance(e, A.Subquery):
        body = e.select.body
        while isinstance(body, A.Compound):
            body = body.left
        if isinstance(body, A.SelectCore) and body.columns and isinstance(body.columns[0], A.ResultColumn):
            from sqlengine.compiler.select import subquery_scope_for_affinity
            sub = subquery_scope_for_affinity(scope, body)
            return expr_affinity(body.columns[0].expr, sub)
        return AFF_NONE
    return AFF_NONE


def expr_collation(e, scope: Scope | None):
    """sqlite3ExprCollSeq: the collation name an expression carries (None = BINARY)."""
    if isinstance(e, A.Collate):
        return e.collation
    if isinstance(e, ResolvedColumn):
        return e.ref.collation()
    if isinstance(e, A.Column) and scope is not None:
        try:
            ref = scope.lookup(e.name, e.table)
        except OperationalError:
            return None
        if ref is not None:
            return ref.collation()
        return None
    if isinstance(e, (A.Binary,)) and e.op in ("||",):
        return None
    if isinstance(e, A.Unary) and e.op == "+":
        return expr_collation(e.operand, scope)
    if isinstance(e, A.Binary) and e.op not in ("AND", "OR", "=", "!=", "<", "<=", ">", ">=",
                                                "IS", "IS NOT"):
        c = expr_collation(e.left, scope)
        if c is None:
            c = expr_collation(e.right, scope)
        return c
    if isinstance(e, A.Subquery):
        return None
    return None


def comparison_collation(left, right, scope):
    """The collation of a binary comparison: left's explicit, right's explicit, left's
    column collation, right's column collation."""
    if _has_explicit_collate(left):
        return expr_collation(left, scope)
    if _has_explicit_collate(right):
        return expr_collation(right, scope)
    c = expr_collation(left, scope)
    if c is None:
        c = expr_collation(right, scope)
    return c


def _has_explicit_collate(e):
    while True:
        if isinstance(e, A.Collate):
            return True
        if isinstance(e, A.Unary) and e.op == "+":
            e = e.operand
            continue
        if isinstance(e, A.Binary) and e.op not in ("AND", "OR", "=", "!=", "<", "<=", ">",
                                                    ">=", "IS", "IS NOT"):
            return _has_explicit_collate(e.left) or _has_explicit_collate(e.right)
        return False


def real_affinity(aff):
    return aff == AFF_REAL
