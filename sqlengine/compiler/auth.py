"""The authorizer (sqlite3_set_authorizer): which actions a statement performs, asked of a
user callback while the statement is prepared.

``authorize(db, stmt, callback)`` walks a parsed statement in the order SQLite's parser,
name resolver and code generator reach the same places and calls
``callback(action, arg1, arg2, dbname, source)`` with SQLite's action codes and
arguments: SQLITE_SELECT per SELECT coded, SQLITE_READ per column reference of a table
(or view) and an empty column name for a table none of whose columns is read,
SQLITE_FUNCTION per function call, SQLITE_INSERT/UPDATE/DELETE, the CREATE_*/DROP_*
actions with the writes to sqlite_master SQLite makes for them, TRANSACTION, SAVEPOINT,
PRAGMA, ALTER_TABLE, REINDEX, ANALYZE, ATTACH/DETACH, RECURSIVE. ``source`` is the
innermost trigger, view or CTE being coded.

Answers: SQLITE_DENY stops the prepare (``not authorized``, ``access to t.c is
prohibited``, ``not authorized to use function: f``); SQLITE_IGNORE makes a column read
or a function call NULL, an UPDATE leave the column alone, a SELECT return no rows, and
INSERT/CREATE/DROP/PRAGMA/BEGIN... do nothing (``authorize`` then returns None). Those
effects are made by rewriting a private copy of the AST, so the compiler needs no hook
and a connection without an authorizer pays nothing.

This module only reads the schema and calls the callback; it never emits code and never
touches storage. Name resolution here is a close copy of SQLite's order of visits; a name
it cannot resolve is skipped (the compiler reports the error afterwards).
"""

from __future__ import annotations

import copy

from sqlengine.errors import SQLITE_AUTH, DatabaseError, OperationalError
from sqlengine.sql import ast as A

SQLITE_OK, SQLITE_DENY, SQLITE_IGNORE = 0, 1, 2

CREATE_INDEX = 1
CREATE_TABLE = 2
CREATE_TEMP_INDEX = 3
CREATE_TEMP_TABLE = 4
CREATE_TEMP_TRIGGER = 5
CREATE_TEMP_VIEW = 6
CREATE_TRIGGER = 7
CREATE_VIEW = 8
DELETE = 9
DROP_INDEX = 10
DROP_TABLE = 11
DROP_TEMP_INDEX = 12
DROP_TEMP_TABLE = 13
DROP_TEMP_TRIGGER = 14
DROP_TEMP_VIEW = 15
DROP_TRIGGER = 16
DROP_VIEW = 17
INSERT = 18
PRAGMA = 19
READ = 20
SELECT = 21
TRANSACTION = 22
UPDATE = 23
ATTACH = 24
DETACH = 25
ALTER_TABLE = 26
REINDEX = 27
ANALYZE = 28
FUNCTION = 31
SAVEPOINT = 32
RECURSIVE = 33

_ROWID = ("rowid", "oid", "_rowid_")
_MASTER_COLUMNS = ("type", "name", "tbl_name", "rootpage", "sql")


class _Ignore(Exception):
    """The statement is to do nothing (an IGNORE answer for its principal action)."""


def authorize(db, stmt, callback):
    """Ask ``callback`` about ``stmt``: a statement to compile (a rewritten copy when an
    answer was IGNORE), or None when the statement must do nothing. Raises the errors of
    a DENY answer."""
    stmt = copy.deepcopy(stmt)
    auth = _Auth(db, callback)
    inner = stmt.statement if isinstance(stmt, A.Explain) else stmt
    try:
        auth.statement(inner)
    except _Ignore:
        return None
    return stmt


# -------------------------------------------------------------------------------------------
# Name scopes


class _Source:
    """One FROM item as the resolver sees it."""

    __slots__ = ("match", "table", "report", "columns", "dbname", "used", "written",
                 "written_db", "sub", "hidden", "is_view", "ipk")

    def __init__(self, match, columns, table=None, report=None, dbname="main", sub=None):
        self.match = match  # the name a qualified reference uses (alias or table name)
        self.table = table  # schema.Table, or None (subquery, CTE)
        self.report = report  # the table name READ reports (None: no READ for its columns)
        self.columns = columns  # column names
        self.dbname = dbname
        self.used = False  # a column (not the INTEGER PRIMARY KEY) was referenced
        self.written = match
        self.written_db = None
        self.sub = sub  # the _SelInfo of a subquery, view or CTE
        self.hidden: set[str] = set()  # lower-case names the right side of USING hides
        self.is_view = False
        self.ipk = table.ipk if table is not None else -1

    def find(self, name):
        low = name.lower()
        for i, c in enumerate(self.columns):
            if c.lower() == low:
                return i
        if self.table is not None and low in _ROWID:
            return -1
        return None


class _Scope:
    def __init__(self, sources, outer=None, aliases=None):
        self.sources = sources
        self.outer = outer
        self.aliases = aliases or {}


class _SelInfo:
    """What the code generator will meet for one SELECT (or one compound arm)."""

    __slots__ = ("ctx", "arms", "sources", "subs", "recursive", "select", "core", "window")

    def __init__(self, ctx):
        self.ctx = ctx
        self.arms: list[_SelInfo] = []  # a compound: its arms, left to right
        self.sources: list[_Source] = []
        self.subs: list[_SelInfo] = []  # subqueries in expressions, in coding order
        self.recursive = False
        self.window = False  # a window function: SQLite codes the query as a subquery
        self.select = None  # the A.Select (to empty it on IGNORE)
        self.core = None


# -------------------------------------------------------------------------------------------


class _Auth:
    def __init__(self, db, callback):
        self.db = db
        self.schema = db.schema
        self.cb = callback
        self.ctx = None  # innermost trigger / view / CTE name
        self.ctes: list[dict] = []
        self.trigger_stack: list[str] = []
        self.trigger = None  # (Table, trigger name) while inside a trigger body
        self.n_ignored = 0
        self.cte_active: set[str] = set()
        self.view_active: set[str] = set()  # views being expanded (a circular one stops)

    # ---- the callback ----------------------------------------------------------------------
    def check(self, action, a1=None, a2=None, dbname=None) -> bool:
        """True when the answer is IGNORE; raises on DENY."""
        rc = self.cb(action, a1, a2, dbname, self.ctx)
        if rc == SQLITE_DENY:
            raise DatabaseError("not authorized", code=SQLITE_AUTH)
        if rc not in (SQLITE_OK, SQLITE_IGNORE):
            raise DatabaseError("authorizer malfunction", code=SQLITE_AUTH)
        return rc == SQLITE_IGNORE

    def read(self, table, column, dbname="main") -> bool:
        rc = self.cb(READ, table, column, dbname, self.ctx)
        if rc == SQLITE_IGNORE:
            self.n_ignored += 1
        if rc == SQLITE_DENY:
            if dbname != "main" or any(att.name != "temp"
                                       for att in getattr(self.db, "attached", ())):
                table = f"{dbname}.{table}"  # SQLite names the schema once several exist
            raise DatabaseError(f"access to {table}.{column} is prohibited", code=SQLITE_AUTH)
        if rc not in (SQLITE_OK, SQLITE_IGNORE):
            raise DatabaseError("authorizer malfunction", code=SQLITE_AUTH)
        return rc == SQLITE_IGNORE

    def function(self, name) -> bool:
        rc = self.cb(FUNCTION, None, name, None, self.ctx)
        if rc == SQLITE_DENY:
            raise OperationalError(f"not authorized to use function: {name}")
        return rc == SQLITE_IGNORE

    def principal(self, action, a1=None, a2=None, dbname=None):
        if self.check(action, a1, a2, dbname):
            raise _Ignore()

    # ---- statements --------------------------------------------------------------------------
    def statement(self, s):
        t = type(s)
        if t is A.Select:
            self.top_select(s)
        elif t is A.Insert:
            self.insert(s)
        elif t is A.Update:
            self.update(s)
        elif t is A.Delete:
            self.delete(s)
        elif t is A.Begin:
            self.principal(TRANSACTION, "BEGIN")
        elif t is A.Commit:
            self.principal(TRANSACTION, "COMMIT")
        elif t is A.Rollback:
            if s.savepoint is not None:
                self.principal(SAVEPOINT, "ROLLBACK", s.savepoint)
            else:
                self.principal(TRANSACTION, "ROLLBACK")
        elif t is A.Savepoint:
            self.principal(SAVEPOINT, "BEGIN", s.name)
        elif t is A.Release:
            self.principal(SAVEPOINT, "RELEASE", s.name)
        elif t is A.Pragma:
            self.principal(PRAGMA, s.name, _pragma_arg(s.value), s.schema)
        elif t is A.CreateTable:
            self.create_table(s)
        elif t is A.CreateView:
            self.create_view(s)
        elif t is A.CreateIndex:
            self.create_index(s)
        elif t is A.CreateTrigger:
            self.create_trigger(s)
        elif t is A.Drop:
            self.drop(s)
        elif t is A.AlterTable:
            self.principal(ALTER_TABLE, s.schema or "main", s.table)
        elif t is A.Reindex:
            self.reindex(s)
        elif t is A.Analyze:
            self.analyze(s)
        elif t is A.Attach:
            self.principal(ATTACH, _pragma_arg(s.expr))
        elif t is A.Detach:
            self.principal(DETACH, s.schema)

    # ---- SELECT ------------------------------------------------------------------------------
    def top_select(self, sel, outer=None):
        """A SELECT coded as a statement of its own (top level, INSERT's source, trigger
        body): SQLite checks SELECT before resolving it."""
        if self.check(SELECT):
            _empty(sel)
            return
        info = self.resolve_select(sel, outer)
        self.code_after_check(info)

    def resolve_select(self, sel, outer, ctx=None) -> _SelInfo:
        """Resolve every name of ``sel`` (calls READ/FUNCTION); the _SelInfo for coding."""
        saved = self.ctx
        if ctx is not None:
            self.ctx = ctx
        pushed = False
        try:
            if sel.with_ is not None:
                self.ctes.append({c.name.lower(): (c, sel.with_.recursive)
                                  for c in sel.with_.ctes})
                pushed = True
            info = _SelInfo(self.ctx)
            info.select = sel
            body = sel.body
            if isinstance(body, A.Compound):
                arms = []
                while isinstance(body, A.Compound):
                    arms.append(body.right)
                    body = body.left
                arms.append(body)
                # SQLite resolves a compound from its last arm to its first
                resolved = [self.resolve_core(arm, outer, None) for arm in arms]
                info.arms = list(reversed(resolved))
            else:
                sub = self.resolve_core(body, outer, sel.order_by)
                info.sources, info.subs, info.core = sub.sources, sub.subs, sub.core
                info.window = sub.window
            return info
        finally:
            if pushed:
                self.ctes.pop()
            self.ctx = saved

    def resolve_core(self, core, outer, order_by) -> _SelInfo:
        info = _SelInfo(self.ctx)
        info.core = core
        if isinstance(core, A.Values):
            scope = _Scope([], outer)
            for row in core.rows:
                for i, e in enumerate(row):
                    row[i] = self.expr(e, scope, info)
            return info
        sources: list[_Source] = []
        if core.from_ is not None:
            core.from_ = self.from_item(core.from_, sources, outer, info)
        info.sources = sources
        aliases = {}
        scope = _Scope(sources, outer, aliases)
        cols = []
        for rc in core.columns:
            if isinstance(rc, A.Star):
                cols.extend(self.star(rc, sources))
                continue
            rc.expr = self.expr(rc.expr, scope, info)
            if rc.alias:
                aliases[rc.alias.lower()] = rc.expr
            cols.append(rc)
        core.columns = cols
        if core.having is not None:
            core.having = self.expr(core.having, scope, info)
        if core.where is not None:
            core.where = self.expr(core.where, scope, info)
        for on_holder in _join_ons(core.from_):
            on_holder.on = self.expr(on_holder.on, scope, info)
        if order_by:
            for term in order_by:
                if not _is_alias_or_number(term.expr, aliases):
                    term.expr = self.expr(term.expr, scope, info)
        if core.group_by:
            for i, e in enumerate(core.group_by):
                if not _is_alias_or_number(e, aliases):
                    core.group_by[i] = self.expr(e, scope, info)
        return info

    def from_item(self, f, sources, outer, info):
        t = type(f)
        if t is A.Join:
            f.left = self.from_item(f.left, sources, outer, info)
            start = len(sources)
            f.right = self.from_item(f.right, sources, outer, info)
            shared = []
            if f.using:
                shared = [u.lower() for u in f.using]
            elif f.natural:
                left = {c.lower() for s in sources[:start] for c in s.columns}
                shared = [c.lower() for s in sources[start:] for c in s.columns
                          if c.lower() in left]
            for s in sources[start:]:
                s.hidden.update(shared)
            return f
        if t is A.SubqueryRef:
            sub = self.resolve_select(f.select, None)
            sources.append(_Source(f.alias or "", _result_names(f.select), sub=sub))
            return f
        if t is A.TableFunctionRef:
            sources.append(_Source(f.alias or f.name, []))
            return f
        if t is not A.TableRef:
            return f
        name = f.name
        low = name.lower()
        if f.schema is None:
            for frame in reversed(self.ctes):
                hit = frame.get(low)
                if hit is not None and not (low in self.cte_active and not hit[1]):
                    cte, recursive = hit
                    sources.append(self.cte_source(cte, recursive, f))
                    return f
        qualifier = (f.schema or "").lower()
        key = low if qualifier in ("", "main", "temp") else f"{qualifier}.{low}"
        obj = self.schema.tables.get(key)
        if obj is None and low in ("sqlite_master", "sqlite_temp_master", "sqlite_temp_schema"):
            obj = self.schema.tables.get("sqlite_schema")
        dbname = "temp" if qualifier == "temp" or "temp_" in low else (
            qualifier if key != low else _db_of_table(self.db, low))
        if obj is not None:
            report = "sqlite_temp_master" if "temp" in low else (
                "sqlite_master" if low.startswith("sqlite_") and obj.root == 1 else obj.name)
            src = _Source(f.alias or name, [c.name for c in obj.columns], obj, report, dbname)
            src.written, src.written_db = name, f.schema
            sources.append(src)
            return f
        view = self.schema.views.get(key)
        if view is not None and key in self.view_active:
            # a view reading itself: the compile reports "view v is circularly defined"
            sources.append(_Source(f.alias or name, _view_columns(view)))
            return f
        if view is not None:
            before = self.n_ignored
            sub = self.view_info(view)
            src = _Source(f.alias or name, _view_columns(view), None, view.name, dbname, sub)
            src.is_view = True
            sources.append(src)
            if self.n_ignored != before and not view.columns:
                # a read inside the view was ignored: code the rewritten copy instead
                return A.SubqueryRef(sub.select, f.alias or view.name, f.pos)
            return f
        sources.append(_Source(f.alias or name, []))
        return f

    def cte_source(self, cte, recursive, ref):
        low = cte.name.lower()
        names = list(cte.columns or _result_names(cte.select))
        if low in self.cte_active:  # the recursive reference inside its own body
            return _Source(ref.alias or cte.name, names)
        sel = copy.deepcopy(cte.select)
        saved = self.ctx
        self.ctx = cte.name
        self.cte_active.add(low)
        try:
            sub = self.resolve_recursive(cte, sel) if recursive else \
                self.resolve_select(sel, None)
        finally:
            self.cte_active.discard(low)
            self.ctx = saved
        sub.ctx = cte.name
        return _Source(ref.alias or cte.name, names, sub=sub)

    def resolve_recursive(self, cte, sel):
        info = self.resolve_select(sel, None)
        body = sel.body
        if isinstance(body, A.Compound) and _refers_to(body.right, cte.name):
            info.recursive = True
        return info

    def view_info(self, view):
        sel = copy.deepcopy(view.select)
        saved_ctes, self.ctes = self.ctes, []
        low = view.name.lower()
        self.view_active.add(low)
        try:
            info = self.resolve_select(sel, None, ctx=view.name)
        finally:
            self.ctes = saved_ctes
            self.view_active.discard(low)
        info.ctx = view.name
        return info

    def star(self, st, sources):
        """Report the reads of a ``*``; expand it only when a column read is ignored."""
        out = []
        any_ignored = False
        for s in sources:
            if st.table is not None and s.match.lower() != st.table.lower():
                continue
            if not s.columns or not s.match:
                s.used = True
                return [st]  # a source this module cannot list: leave '*' to the compiler
            if s.report is None:
                s.used = True
            for c in s.columns:
                if st.table is None and c.lower() in s.hidden:
                    continue
                ignored = s.report is not None and self.column_read(s, s.find(c))
                any_ignored = any_ignored or ignored
                if ignored:
                    out.append(A.ResultColumn(A.Literal(None), c, c))
                else:
                    out.append(A.ResultColumn(A.Column(c, s.match), None, c))
        if not any_ignored:
            return [st]
        return out

    def column_read(self, src, i) -> bool:
        """Report the read of column ``i`` (-1 = rowid) of ``src``; True = IGNORE."""
        t = src.table
        if i is None:
            return False
        if i < 0 or (t is not None and i == t.ipk):
            if t is not None and t.ipk >= 0:
                name = t.columns[t.ipk].name
            else:
                name = "ROWID"
        else:
            name = src.columns[i]
            src.used = True
        return self.read(src.report, name, src.dbname)

    # ---- expressions ---------------------------------------------------------------------------
    def expr(self, e, scope, info):
        """Resolve ``e``; the expression to keep (a NULL literal where IGNORE said so)."""
        if e is None:
            return None
        t = type(e)
        if t is A.Column:
            return self.column(e, scope)
        if t is A.FunctionCall:
            if self.function(e.name):
                return A.Literal(None, e.pos)
            self.expr_list(e.args, scope, info)
            if e.filter is not None:
                e.filter = self.expr(e.filter, scope, info)
            if e.over is not None:
                info.window = True
            if isinstance(e.over, A.WindowDef):
                self.expr_list(e.over.partition_by, scope, info)
                self.expr_list(e.over.order_by, scope, info)
            if e.order_by:
                self.expr_list(e.order_by, scope, info)
            return e
        elif t in (A.Subquery, A.Exists, A.InSelect):
            sub = self.resolve_select(e.select, scope)
            if not (t is A.InSelect and self.in_uses_btree(e, scope)):
                info.subs.append(sub)
        elif t is A.Like:
            if self.function(e.op.lower().split()[-1]):
                return A.Literal(None, e.pos)
        elif t in (A.Literal, A.Param, A.CurrentTime):
            return e
        for name in e.__slots__:
            if name in ("select", "pos"):
                continue
            v = getattr(e, name)
            if _is_node(v):
                setattr(e, name, self.expr(v, scope, info))
            elif isinstance(v, list):
                self.expr_list(v, scope, info)
        return e

    def expr_list(self, items, scope, info):
        for i, v in enumerate(items):
            if _is_node(v):
                items[i] = self.expr(v, scope, info)
            elif isinstance(v, tuple):
                items[i] = tuple(self.expr(x, scope, info) if _is_node(x) else x for x in v)
            elif isinstance(v, A.OrderingTerm):
                v.expr = self.expr(v.expr, scope, info)

    def column(self, e, scope):
        tab = e.table
        if tab is not None and self.trigger is not None and tab.lower() in ("new", "old"):
            table, _ = self.trigger
            if getattr(table, "is_view", False):  # INSTEAD OF trigger: the view's columns
                src = _Source(tab, _view_columns(table), None, table.name)
            else:
                src = _Source(tab, [c.name for c in table.columns], table, table.name)
            i = src.find(e.name)
            if i is None:
                return e
            return A.Literal(None, e.pos) if self.column_read(src, i) else e
        s = scope
        while s is not None:
            for src in s.sources:
                if tab is not None and src.match.lower() != tab.lower():
                    continue
                i = src.find(e.name)
                if i is None:
                    continue
                if src.report is None:
                    if i >= 0:
                        src.used = True
                    return e
                return A.Literal(None, e.pos) if self.column_read(src, i) else e
            s = s.outer
        return e

    def in_uses_btree(self, e, scope):
        """x IN (SELECT col FROM table): SQLite searches the table's (or an index's)
        b-tree directly when col is the rowid, or an index's first column of an affinity
        the comparison allows; no SELECT is coded for it then."""
        sel = e.select
        core = sel.body
        if not isinstance(core, A.SelectCore) or sel.with_ or sel.limit is not None or \
                sel.order_by or core.where is not None or core.group_by or core.distinct or \
                len(core.columns) != 1 or not isinstance(core.from_, A.TableRef):
            return False
        rc = core.columns[0]
        if not isinstance(rc, A.ResultColumn) or not isinstance(rc.expr, A.Column):
            return False
        table = self.schema.tables.get(core.from_.name.lower())
        if table is None:
            return False
        i = table.find_column(rc.expr.name)
        if i < 0:
            return rc.expr.name.lower() in _ROWID
        if i == table.ipk:
            return True
        if not any(ix.columns and ix.columns[0] == i for ix in table.indexes):
            return False
        aff = _compare_affinity(self.affinity_of(e.expr, scope), table.columns[i].affinity)
        col_aff = table.columns[i].affinity
        if aff < "A":
            return True
        if aff == "B":
            return col_aff == "B"
        return col_aff >= "C"

    def affinity_of(self, e, scope):
        if not isinstance(e, A.Column):
            return "@"
        s = scope
        while s is not None:
            for src in s.sources:
                if e.table is not None and src.match.lower() != e.table.lower():
                    continue
                i = src.find(e.name)
                if i is None:
                    continue
                if src.table is None:
                    return "@"
                return "D" if i < 0 else src.table.columns[i].affinity
            s = s.outer
        return "@"

    # ---- coding ----------------------------------------------------------------------------------
    def code_select(self, info, flattened=False):
        """The code generator meets a nested SELECT: SELECT check, then its own reads
        (a subquery SQLite flattens into its parent leaves its empty reads to it)."""
        saved = self.ctx
        self.ctx = info.ctx
        try:
            if self.check(SELECT):
                if info.select is not None:
                    _empty(info.select)
                return
            self.code_after_check(info, flattened)
        finally:
            self.ctx = saved

    def code_after_check(self, info, flattened=False):
        saved = self.ctx
        self.ctx = info.ctx
        try:
            if info.arms:
                if info.recursive:
                    self.check(RECURSIVE)
                for arm in info.arms:
                    self.code_select(arm)
                return
            for src in info.sources:
                if src.sub is not None:
                    self.code_select(src.sub, _flattenable(src.sub))
            if not flattened:
                for table_src in _flattened_tables(info.sources):
                    if not table_src.used:  # a table none of whose columns is read
                        self.check(READ, table_src.written, "", table_src.written_db)
            for sub in info.subs:
                self.code_select(sub)
            if info.window:
                self.check(SELECT)
        finally:
            self.ctx = saved

    # ---- INSERT / UPDATE / DELETE ------------------------------------------------------------
    def _table(self, name, schema=None):
        qualifier = (schema or "").lower()
        key = name.lower() if qualifier in ("", "main", "temp") else f"{qualifier}.{name.lower()}"
        obj = self.schema.tables.get(key)
        if obj is None:
            obj = self.schema.views.get(key)
        return obj

    def _dbname(self, name, schema):
        qualifier = (schema or "").lower()
        if qualifier:
            return qualifier
        return _db_of_table(self.db, name.lower())

    def insert(self, s):
        table = self._table(s.table, s.schema)
        if table is None:
            return
        self.principal(INSERT, table.name, None, self._dbname(s.table, s.schema))
        if s.source is not None:
            body = s.source.body
            if isinstance(body, A.Values) and len(body.rows) == 1:
                scope = _Scope([])
                info = _SelInfo(self.ctx)
                for i, e in enumerate(body.rows[0]):
                    body.rows[0][i] = self.expr(e, scope, info)
                for sub in info.subs:
                    self.code_select(sub)
            else:
                self.top_select(s.source)
        if s.upserts and not getattr(table, "is_view", False):
            src = _Source(s.alias or table.name, [c.name for c in table.columns], table,
                          table.name)
            scope = _Scope([src])
            for up in s.upserts:
                info = _SelInfo(self.ctx)
                for ic in up.target or ():
                    ic.expr = self.expr(ic.expr, scope, info)
                if up.sets:
                    self.update_sets(table, up.sets, scope, info)
                if up.where is not None:
                    up.where = self.expr(up.where, scope, info)
        self.returning(s.returning, table, s.alias)
        self.fire_triggers(table, "INSERT", None)

    def update_sets(self, table, sets, scope, info, dbname="main"):
        keep = []
        for sc in sets:
            sc.expr = self.expr(sc.expr, scope, info)
            ignored = False
            for col in sc.columns:
                j = table.find_column(col)
                if j < 0 and col.lower() in _ROWID:
                    name = "ROWID"
                elif j < 0:
                    name = col
                else:
                    name = table.columns[j].name
                if self.check(UPDATE, table.name, name, dbname):
                    ignored = True
            if not ignored or len(sc.columns) > 1:
                keep.append(sc)
        if not keep and sets:
            keep = [A.SetClause([c], A.Column(c)) for c in sets[0].columns]
        sets[:] = keep

    def update(self, s):
        table = self._table(s.table.name, s.table.schema)
        if table is None:
            return
        dbname = self._dbname(s.table.name, s.table.schema)
        is_view = getattr(table, "is_view", False)
        if is_view:
            src = _Source(s.table.alias or table.name, _view_columns(table), None, table.name)
        else:
            src = _Source(s.table.alias or table.name, [c.name for c in table.columns], table,
                          table.name)
        src.dbname = dbname
        sources = [src]
        info = _SelInfo(self.ctx)
        if s.from_ is not None:
            s.from_ = self.from_item(s.from_, sources, None, info)
        scope = _Scope(sources)
        if not is_view:
            self.update_sets(table, s.sets, scope, info, dbname)
        if s.where is not None:
            s.where = self.expr(s.where, scope, info)
        for term in s.order_by or ():
            term.expr = self.expr(term.expr, scope, info)
        for sub in info.subs:
            self.code_select(sub)
        self.returning(s.returning, table, s.table.alias)
        cols = {c.lower() for sc in s.sets for c in sc.columns}
        self.fire_triggers(table, "UPDATE", cols)

    def delete(self, s):
        table = self._table(s.table.name, s.table.schema)
        if table is None:
            return
        dbname = self._dbname(s.table.name, s.table.schema)
        self.check(DELETE, table.name, None, dbname)
        cols = _view_columns(table) if getattr(table, "is_view", False) else \
            [c.name for c in table.columns]
        src = _Source(s.table.alias or table.name, cols,
                      None if getattr(table, "is_view", False) else table, table.name, dbname)
        scope = _Scope([src])
        info = _SelInfo(self.ctx)
        if s.where is not None:
            s.where = self.expr(s.where, scope, info)
        for term in s.order_by or ():
            term.expr = self.expr(term.expr, scope, info)
        for sub in info.subs:
            self.code_select(sub)
        self.returning(s.returning, table, s.table.alias)
        self.fire_triggers(table, "DELETE", None)

    def returning(self, items, table, alias):
        if not items or getattr(table, "is_view", False):
            return
        src = _Source(alias or table.name, [c.name for c in table.columns], table, table.name)
        scope = _Scope([src])
        info = _SelInfo(self.ctx)
        out = []
        for rc in items:
            if isinstance(rc, A.Star):
                out.extend(self.star(rc, [src]))
            else:
                rc.expr = self.expr(rc.expr, scope, info)
                out.append(rc)
        items[:] = out
        for sub in info.subs:
            self.code_select(sub)

    def fire_triggers(self, table, event, columns):
        for trig in list(self.schema.triggers.values()):
            if trig.table.lower() != table.name.lower() or trig.event != event:
                continue
            if columns is not None and trig.update_columns and \
                    not any(c.lower() in columns for c in trig.update_columns):
                continue
            if trig.name in self.trigger_stack or len(self.trigger_stack) > 20:
                continue
            self.code_trigger(trig, table)

    def code_trigger(self, trig, table):
        saved = (self.ctx, self.trigger, self.ctes)
        self.ctx = trig.name
        self.trigger = (table, trig.name)
        self.ctes = []
        self.trigger_stack.append(trig.name)
        try:
            body = copy.deepcopy(trig.body)
            if trig.when is not None:
                self.expr(copy.deepcopy(trig.when), _Scope([]), _SelInfo(self.ctx))
            for st in body:
                try:
                    self.statement(st)
                except _Ignore:
                    pass
        finally:
            self.trigger_stack.pop()
            self.ctx, self.trigger, self.ctes = saved

    # ---- DDL -----------------------------------------------------------------------------------
    def _master(self, temp):
        return ("sqlite_temp_master", "temp") if temp else ("sqlite_master", "main")

    def _master_insert(self, temp, action, a1, a2=None, as_select=None):
        master, dbname = self._master(temp)
        self.principal(INSERT, master, None, dbname)
        self.principal(action, a1, a2, dbname)
        if as_select is not None:  # CREATE TABLE AS: its columns first, then its code
            info = self.resolve_select(as_select, None)
            self.code_select(info)
        for col in _MASTER_COLUMNS:
            self.principal(UPDATE, master, col, dbname)
        self.read(master, "ROWID", dbname)

    def create_table(self, s):
        temp = s.temp or (s.schema or "").lower() == "temp"
        self._master_insert(temp, CREATE_TEMP_TABLE if temp else CREATE_TABLE, s.name,
                            as_select=s.as_select)

    def create_view(self, s):
        temp = s.temp or (s.schema or "").lower() == "temp"
        self._master_insert(temp, CREATE_TEMP_VIEW if temp else CREATE_VIEW, s.name)

    def create_index(self, s):
        table = self.schema.tables.get(s.table.lower())
        master, dbname = self._master(False)
        self.principal(INSERT, master, None, dbname)
        self.principal(CREATE_INDEX, s.name, table.name if table else s.table, dbname)
        if table is not None:
            src = _Source(table.name, [c.name for c in table.columns], table, table.name)
            scope = _Scope([src])
            info = _SelInfo(self.ctx)
            if s.where is not None:  # a partial index: its WHERE is resolved first
                self.expr(copy.deepcopy(s.where), scope, info)
            for ic in s.columns:
                self.expr(copy.deepcopy(ic.expr), scope, info)
        self.principal(INSERT, master, None, dbname)
        self.principal(REINDEX, s.name, None, dbname)

    def create_trigger(self, s):
        temp = s.temp or (s.schema or "").lower() == "temp"
        master, dbname = self._master(temp)
        table = self._table(s.table)
        self.principal(CREATE_TEMP_TRIGGER if temp else CREATE_TRIGGER, s.name,
                       table.name if table is not None else s.table, dbname)
        self.principal(INSERT, master, None, dbname)
        self.principal(INSERT, master, None, dbname)

    def drop(self, s):
        kind = s.kind.upper()
        low = s.name.lower()
        master, dbname = self._master(False)
        if kind == "TRIGGER":
            trig = self.schema.triggers.get(low)
            if trig is None:
                return
            self.principal(DROP_TRIGGER, trig.name, self._table(trig.table).name
                           if self._table(trig.table) is not None else trig.table, dbname)
            self.principal(DELETE, master, None, dbname)
            self.principal(DELETE, master, None, dbname)
            self.read(master, "name", dbname)
            self.read(master, "type", dbname)
            return
        if kind == "INDEX":
            index = self.schema.indexes.get(low)
            if index is None:
                return
            self.principal(DELETE, master, None, dbname)
            self.principal(DROP_INDEX, index.name, self._table(index.table).name
                           if self._table(index.table) is not None else index.table, dbname)
            self.principal(DELETE, master, None, dbname)
            self.read(master, "name", dbname)
            self.read(master, "type", dbname)
            self.principal(UPDATE, master, "rootpage", dbname)
            self.read(master, "rootpage", dbname)
            return
        obj = self.schema.views.get(low) if kind == "VIEW" else self.schema.tables.get(low)
        if obj is None:
            return
        self.principal(DELETE, master, None, dbname)
        self.principal(DROP_VIEW if kind == "VIEW" else DROP_TABLE, obj.name, None, dbname)
        self.principal(DELETE, obj.name, None, dbname)
        self.principal(DELETE, master, None, dbname)
        self.read(master, "tbl_name", dbname)
        self.read(master, "type", dbname)
        if kind != "VIEW":
            for _ in range(1 + len(obj.indexes)):  # one per b-tree dropped
                self.principal(UPDATE, master, "rootpage", dbname)
                self.read(master, "rootpage", dbname)

    def reindex(self, s):
        if s.name is None:
            names = [ix.name for ix in self.schema.indexes.values()]
        else:
            low = s.name.lower()
            if low in self.schema.indexes:
                names = [self.schema.indexes[low].name]
            else:
                names = [ix.name for ix in self.schema.indexes.values()
                         if ix.table.lower() == low]
        for name in names:
            self.principal(REINDEX, name, None, "main")

    def analyze(self, s):
        for table in self.schema.tables.values():
            if not table.name.lower().startswith("sqlite_"):
                self.principal(ANALYZE, table.name, None, "main")


# -------------------------------------------------------------------------------------------
# helpers


def _is_node(v):
    return v is not None and hasattr(v, "__slots__") and type(v).__module__ == A.__name__ \
        and not isinstance(v, (A.Select, A.OrderingTerm, A.WindowDef, A.Frame, A.FrameBound))


def _compare_affinity(a1, a2):
    """sqlite3CompareAffinity of two operand affinities ('@' none, 'A' blob ... 'E' real)."""
    if a1 > "@" and a2 > "@":
        return "C" if a1 >= "C" or a2 >= "C" else "A"
    return a2 if a1 <= "@" else a1


def _db_of_table(db, low):
    """The schema an unqualified table name reaches: temp, main, then attached files."""
    attached = getattr(db, "attached", None)
    if not attached:
        return "main"
    main = getattr(db.schema, "main", db.schema)
    for att in attached:
        if att.name == "temp" and low in att.db.schema.tables:
            return "temp"
    if low in main.tables or low in main.views:
        return "main"
    for att in attached:
        if low in att.db.schema.tables or low in att.db.schema.views:
            return att.name
    return "main"


def _pragma_arg(v):
    if v is None:
        return None
    if isinstance(v, A.Literal):
        return v.value if isinstance(v.value, str) else str(v.value)
    if isinstance(v, A.Column):
        return v.name
    if isinstance(v, A.Unary) and isinstance(v.operand, A.Literal):
        return v.op + str(v.operand.value)
    return None


def _empty(sel):
    """Make a SELECT return no rows (its authorizer answered IGNORE)."""
    sel.limit = A.Literal(0)
    sel.offset = None


def _is_alias_or_number(e, aliases):
    from sqlengine.compiler.expr import term_number
    if term_number(e) is not None:
        return True
    return isinstance(e, A.Column) and e.table is None and e.name.lower() in aliases


def _join_ons(f):
    if isinstance(f, A.Join):
        yield from _join_ons(f.left)
        if f.on is not None:
            yield f
        yield from _join_ons(f.right)


def _result_names(sel):
    body = sel.body
    while isinstance(body, A.Compound):
        body = body.left
    if isinstance(body, A.Values):
        return [f"column{i + 1}" for i in range(len(body.rows[0]) if body.rows else 0)]
    names = []
    for rc in body.columns:
        if isinstance(rc, A.Star):
            continue
        if rc.alias:
            names.append(rc.alias)
        elif isinstance(rc.expr, A.Column):
            names.append(rc.expr.name)
        else:
            names.append(rc.text)
    return names


def _view_columns(view):
    if getattr(view, "columns", None):
        return list(view.columns)
    return _result_names(view.select)


def _refers_to(core, name):
    f = getattr(core, "from_", None)
    stack = [f]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Join):
            stack += [x.left, x.right]
        elif isinstance(x, A.TableRef) and x.name.lower() == name.lower():
            return True
    return False


def _flattened_tables(sources):
    """The table sources whose empty-read SQLite reports: this SELECT's tables, and those
    of simple subqueries (which SQLite flattens into it) when none of their columns is used."""
    for src in sources:
        if src.table is not None:
            yield src
        elif src.sub is not None and _flattenable(src.sub):
            for inner in _flattened_tables(src.sub.sources):
                if not src.used:
                    inner.used = False
                yield inner


def _flattenable(info):
    core = info.core
    sel = info.select
    if info.arms or not isinstance(core, A.SelectCore) or core.distinct or core.group_by:
        return False
    if sel is not None and (sel.limit is not None or sel.order_by):
        return False
    return not any(isinstance(rc, A.ResultColumn) and isinstance(rc.expr, A.FunctionCall)
                   for rc in core.columns)

