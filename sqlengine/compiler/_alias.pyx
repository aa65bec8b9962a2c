# cython: language_level=3
"""The compiled alias rewrite: ``Aliases``, one query's rewrite of its clauses' result
alias references, which compiler/alias.py (the public module, whose docstring holds
SQLite's rules) exports and select.py asks for each clause of a query with aliases (most
queries of the corpus: compiled so that a clause that names no alias costs no Python
call). It rewrites expressions only; it never emits code.
"""

from sqlengine.compiler._resolve cimport Scope, slot, slot_offset
from sqlengine.compiler._resolve import rewrite_columns
from sqlengine.compiler.resolve import OuterAlias
from sqlengine.compiler.walk import find_node
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A

cdef object T_Column = A.Column
cdef object T_Compound = A.Compound
cdef object T_FunctionCall = A.FunctionCall
cdef object T_ResultColumn = A.ResultColumn
cdef object T_RowValue = A.RowValue
cdef object T_SelectCore = A.SelectCore
cdef object T_Subquery = A.Subquery
cdef object T_Values = A.Values
cdef Py_ssize_t F_COL_NAME = slot_offset(A.Column, "name")
cdef Py_ssize_t F_COL_TABLE = slot_offset(A.Column, "table")


cdef list _outer_levels(scope):
    """[(depth, scope)] of the enclosing queries with aliases that lookups from ``scope``
    see, innermost first."""
    cdef list levels = []
    s = scope
    depth = 0
    while s.outer is not None:
        seen = s.alias_outer
        s = s.outer
        depth += 1
        if seen and s.aliases:
            levels.append((depth, s))
    return levels


cdef class Aliases:
    """The alias rewrite of one query's clauses (see compiler/alias.py's docstring):
    ``local`` this query's aliases (lower-case name -> expression), ``levels`` the
    enclosing queries whose aliases its clauses see, ``names`` every such name."""

    cdef public object p, local, levels
    cdef public Scope scope
    cdef public set names

    def __init__(self, p, Scope scope):
        self.p = p
        self.scope = scope
        self.local = scope.aliases
        self.levels = _outer_levels(scope) if scope.outer is not None else ()
        cdef set names = set(self.local)
        for _d, s in self.levels:
            names.update(s.aliases)
        self.names = names

    cpdef result(self, e):
        """A result column (this query's aliases unseen, enclosing ones seen)."""
        return self._sub(e, False, True, False)

    cpdef clause(self, e):
        """WHERE, an ON clause or HAVING."""
        return self._sub(e, True, True, False)

    cpdef group_by(self, e):
        """A GROUP BY term (enclosing queries unseen)."""
        return self._sub(e, True, False, False)

    cpdef order_by(self, e):
        """An ORDER BY term that is not a bare name (enclosing queries unseen, a window
        alias allowed)."""
        return self._sub(e, True, False, True)

    cdef _sub(self, e, bint local, bint outer, bint win_ok):
        # (the walk hands ``_name`` only the unqualified names among ``self.names``)
        if type(e) is T_Column:  # (the commonest term, a name: answered without the walk)
            if slot(e, F_COL_TABLE) is not None or \
                    slot(e, F_COL_NAME).lower() not in self.names:
                return e
            return self._name(e, local, outer, win_ok)
        cdef _Namer fn = _Namer.__new__(_Namer)
        fn.a = self
        fn.local = local
        fn.outer = outer
        fn.win_ok = win_ok
        return rewrite_columns(e, fn, self._link if local and self.local else None,
                               self.names)

    cdef _name(self, e, bint local, bint outer, bint win_ok):
        name = slot(e, F_COL_NAME)
        lname = name.lower()
        scope = self.scope
        try:
            ref = scope.lookup(name, None)
        except OperationalError:
            return e  # (coding it raises the error)
        if ref is not None and ref.depth == 0:
            return e
        if local:
            x = self.local.get(lname)
            if x is not None:
                _check(name, x, win_ok)
                return x
        if not outer:
            return e
        for depth, s in self.levels:
            if ref is not None and depth >= ref.depth:
                break
            x = s.aliases.get(lname)
            if x is not None:
                _check(name, x, False)
                scope.mark_correlated(depth)  # a correlated reference, as a lookup marks it
                return OuterAlias(x, s)
        return e

    def _link(self, sel):
        """Mark the cores of subquery ``sel`` (met in a clause that sees this query's
        aliases) as seeing them (Parse.alias_links)."""
        links = self.p.alias_links
        if links is None:
            links = self.p.alias_links = {}
        body = sel.body
        stack = [body]
        while stack:
            b = stack.pop()
            if type(b) is T_Compound:
                stack.append(b.left)
                stack.append(b.right)
            else:
                links[id(b)] = (self.scope, b)


cdef class _Namer:
    """``Aliases._name`` with its three flags: what rewrite_columns calls per name."""

    cdef Aliases a
    cdef bint local, outer, win_ok

    def __call__(self, c):
        return self.a._name(c, self.local, self.outer, self.win_ok)


cdef _check(name, x, bint win_ok):
    """SQLite's refusals of an alias where it is met (lookupName)."""
    if not win_ok and find_node(x, _is_window_call) is not None:
        raise OperationalError(f"misuse of aliased window function {name}")
    if type(x) is T_RowValue or (type(x) is T_Subquery and _width(x) > 1):
        raise OperationalError("row value misused")


def _is_window_call(e) -> bool:
    return type(e) is T_FunctionCall and e.over is not None


cdef Py_ssize_t _width(sub) except -1:
    body = sub.select.body
    while type(body) is T_Compound:
        body = body.left
    if type(body) is T_SelectCore:
        for rc in body.columns:
            if type(rc) is not T_ResultColumn:
                return 0  # (a * : not known here)
        return len(body.columns)
    if type(body) is T_Values:
        return len(body.rows[0])
    return 1
