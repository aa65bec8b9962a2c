# cython: language_level=3
"""The compiled core of name resolution (``compiler/resolve.py`` is the public module and
holds the documentation of the rules): FROM-clause sources, scopes and their column
lookup, resolved column references, and the affinity and collation of an expression
(SQLite's sqlite3ExprAffinity, sqlite3ExprCollSeq, sqlite3BinaryCompareCollSeq and the
EP_Collate test), which the expression coder asks for every comparison. Compiled because
every statement of the corpus is new and these run once or more per expression node. This
module emits no code and never touches storage.
"""

from cpython.long cimport PyLong_FromVoidPtr

from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe.opcodes import AFF_NONE, AFF_REAL

ROWID_NAMES = ("rowid", "oid", "_rowid_")


cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef *d_member
    ctypedef struct PyTypeObject:
        pass
    PyTypeObject PyMemberDescr_Type

cdef int _T_OBJECT_EX = 16  # (structmember.h: an object field, AttributeError when unset)


cdef Py_ssize_t slot_offset(cls, str name) except -1:
    """The offset of field ``name`` in an instance of the slotted class ``cls`` (see
    ``slot`` in _resolve.pxd)."""
    d = cls.__dict__[name]
    if type(d) is not <object>&PyMemberDescr_Type or \
            (<PyMemberDescrObject *>d).d_member.type != _T_OBJECT_EX:
        raise TypeError(f"{cls.__name__}.{name} is not a slot")
    return (<PyMemberDescrObject *>d).d_member.offset
cdef object _MISSING = object()  # (a dict.get default: no entry)


# ---- a copy of an AST node with some fields changed ---------------------------------------
from cpython.ref cimport Py_INCREF, Py_XDECREF

cdef dict _node_fields = {}  # AST class -> (offsets of its fields, {field name: offset})


cdef inline void _set_slot(object o, Py_ssize_t off, object v):
    cdef PyObject **p = <PyObject **>((<char *><PyObject *>o) + off)
    cdef PyObject *old = p[0]
    Py_INCREF(v)
    p[0] = <PyObject *>v
    Py_XDECREF(old)


cdef object _fields_of(cls):
    """(offsets, {name: offset}) of the fields of the slotted dataclass ``cls``; None when
    a copy of its slots would not be what ``dataclasses.replace`` makes (a field left out
    of ``__init__``, a ``__post_init__``)."""
    f = _node_fields.get(cls, _MISSING)
    if f is _MISSING:
        import dataclasses
        fields = dataclasses.fields(cls)
        if hasattr(cls, "__post_init__") or any(not x.init for x in fields):
            f = None
        else:
            offs = tuple([slot_offset(cls, x.name) for x in fields])
            f = (offs, {x.name: o for x, o in zip(fields, offs)})
        _node_fields[cls] = f
    return f


def replace_node(node, **changes):
    """``dataclasses.replace(node, **changes)`` for an AST node (sql/ast.py: slotted
    dataclasses) without the Python-level ``replace`` and ``__init__`` calls (about 10k
    instructions): a new node of its class whose slots are ``node``'s, then ``changes``."""
    cls = type(node)
    f = _fields_of(cls)
    if f is None:
        import dataclasses
        return dataclasses.replace(node, **changes)
    cdef dict by_name = (<tuple>f)[1]
    for name in changes:
        if name not in by_name:  # (dataclasses.replace's error: __init__'s)
            raise TypeError(f"{cls.__name__}.__init__() got an unexpected keyword "
                            f"argument '{name}'")
    new = cls.__new__(cls)
    cdef Py_ssize_t off
    for o in (<tuple>f)[0]:
        off = o
        _set_slot(new, off, slot(node, off))
    for name, v in changes.items():
        off = by_name[name]
        _set_slot(new, off, v)
    return new


cdef class Source:
    """One FROM item. ``table`` is a schema.Table for a real table (None for a subquery or
    view, whose rows sit in an ephemeral table); ``columns``, ``affs``, ``colls`` and
    ``decltypes`` describe its columns."""

    # (its fields are declared in _resolve.pxd)

    def __init__(self, name, cursor, columns, affs, colls, decltypes, table=None,
                 col_lower=None):
        _source_init(self, name, cursor, columns, affs, colls, decltypes, table, col_lower)

    def find(self, name):
        """Column number, -1 for the rowid, None when absent."""
        i = self.col_lower.get(lower_name(name))
        if i is not None:
            return i
        if self.has_rowid and self.is_table and lower_name(name) in ROWID_NAMES:
            return -1
        return None


cdef frozenset _NO_HIDDEN = frozenset()  # (a Source's ``hidden`` until a USING hides one)


cdef void _source_init(Source src, name, cursor, columns, affs, colls, decltypes, table,
                       col_lower) except *:
    """Source.__init__'s work, which ``table_source`` does without the call's argument
    parsing."""
    src.name = name
    src.table = table
    src.cursor = cursor
    src.columns = columns
    src.affs = affs
    src.colls = colls
    src.decltypes = decltypes
    src.ipk = table.ipk if table is not None else -1
    src.is_table = table is not None
    src.hidden = _NO_HIDDEN  # (the columns a USING hides: made on the first, select.py)
    src.left = False
    # a RIGHT or FULL JOIN brings this item (``right``; FULL sets ``left`` too), or
    # one is to its right (``ltorj``, SQLite's JT_LTORJ): see compiler/rightjoin.py
    src.right = False
    src.ltorj = False
    src.fj = None  # lower-case USING name -> the Source of its coalesce (CoalesceRef)
    src.index_cursor = -1
    # lower-case name -> column number (the first of a name); never changed, so a
    # table's Sources share one (table_source)
    src.col_lower = col_lower if col_lower is not None else _col_lower(columns)
    src.defaults = None
    src.join_on = None
    src.using_cols = None  # the USING (or NATURAL) names of the join bringing it
    # a parenthesized join read as a subquery (compiler/nestedfrom.py): per column,
    # (lower-case table, lower-case column) of the inner column it is, the table None
    # for a USING column of the join inside; ``noexpand``: the columns * leaves out
    src.enames = None
    src.noexpand = None
    src.nullable = False
    # SQLite's VisibleRowid: a rowid table answers rowid/oid/_rowid_; so does a FROM
    # subquery or view (``select.py`` sets it), whose rowid reads NULL when SQLite
    # would flatten it or run it as a co-routine (``rowid_null``), else the number of
    # its row in the ephemeral table that holds it, as SQLite's materialized copy does
    src.has_rowid = table is not None and not table.without_rowid
    src.rowid_null = False
    src.row_est = None  # LogEst of its rows when known (a subquery's constant LIMIT)
    # a FROM subquery that reads an enclosing query's row, filled again each time its
    # loop is reached (select._materialize): no automatic index is made over it
    src.refill = False
    # a stored FROM subquery's fill: (return register, first instruction) of the
    # subroutine that fills it, called when its loop is first reached
    # (select._materialize), None for any other source
    src.fill = None
    # the lower-case name of the database it belongs to, for a column written with
    # its schema (``main.t.a``): main for a table unless its builder says another
    # (a table of an attached database), "" for none (a subquery, a CTE), None for
    # any (not checked); a parenthesized join's is a list, the database of each of
    # its columns
    src.db = "main" if table is not None else ""


cdef dict _col_lower(columns):
    cdef dict out = {}
    for i, c in enumerate(columns):
        out.setdefault(c.lower(), i)
    return out


def table_source(name, cursor, table):
    """The Source of a FROM item (or a statement's target) named ``name`` reading the
    schema.Table ``table`` through ``cursor``. Its column lists are built once per Table
    (``table.source_lists``) and shared by every Source of it: nothing changes them."""
    return _table_source(name, cursor, table)


cdef Source _table_source(name, cursor, table):
    cdef tuple lists = table.source_lists
    if lists is None:
        cols = table.columns
        names = [c.name for c in cols]
        lists = table.source_lists = (names, [c.affinity for c in cols],
                                      [c.collation for c in cols],
                                      [c.type_name for c in cols], _col_lower(names))
    cdef Source src = Source.__new__(Source)
    _source_init(src, name, cursor, lists[0], lists[1], lists[2], lists[3], table, lists[4])
    return src


class FirstItem(str):
    """A column qualifier that names the first FROM item of the scope it is looked up in,
    whatever that item's visible name (SQLite's TK_ROW: UPDATE ... FROM reads its target's
    row key so, where a FROM item may share the target's name). Equal only to itself, so it
    never meets a name as written; its text is the item's name, for messages."""

    __slots__ = ()

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def __hash__(self):
        return id(self) >> 4


class LastItem(FirstItem):
    """A FirstItem for the last FROM item (where UPDATE ... FROM puts its target when the
    FROM clause has a RIGHT or FULL JOIN)."""

    __slots__ = ()


cdef class ColRef:
    """A resolved column: source, column number (-1 = rowid), the scope that owns it."""

    # (its fields are declared in _resolve.pxd)

    def __init__(self, source, col, scope, depth):
        self.source = source
        self.col = col
        self.scope = scope
        self.depth = depth

    @property
    def key(self):
        src = self.source
        if type(src) is Source:  # (its field read directly)
            return ((<Source>src).cursor, self.col)
        return (src.cursor, self.col)

    def affinity(self):
        if self.col < 0:
            return "D"
        return self.source.affs[self.col]

    def collation(self):
        if self.col < 0:
            return None
        return self.source.colls[self.col]


_fj_cursor = [-2]


cdef class CoalesceRef(ColRef):
    """An unqualified USING column of a FULL JOIN: ``coalesce()`` of the columns ``alts``
    (SQLite's pFJMatch, left to right). Its ``source`` is a one-column stand-in (no
    affinity, no collation, a cursor number of its own that is never opened) so that
    the code keying columns by (cursor, column) treats it as one column."""

    # (its field is declared in _resolve.pxd)

    def __init__(self, source, scope, depth, alts):
        ColRef.__init__(self, source, 0, scope, depth)
        self.alts = alts


def _coalesce_ref(hits, scope, depth):
    """The CoalesceRef of the (source, column) matches ``hits`` of one USING name."""
    last, col = hits[-1]
    lname = last.columns[col].lower()
    if last.fj is None:
        last.fj = {}
    stand_in = last.fj.get(lname)
    if stand_in is None:
        _fj_cursor[0] -= 1
        stand_in = last.fj[lname] = Source(last.name, _fj_cursor[0], [last.columns[col]],
                                           [AFF_NONE], [None], [None])
    return CoalesceRef(stand_in, scope, depth,
                       [ColRef(s, c, scope, depth) for s, c in hits])


class ResolvedColumn:
    """An expression node the compiler makes itself (``*`` expansion, USING terms): a
    column already resolved to a ColRef."""

    __slots__ = ("ref", "pos")

    def __init__(self, ref):
        self.ref = ref
        self.pos = -1


class OuterAlias:
    """An expression node the compiler makes itself (``alias.py``): a reference, from a
    subquery, to a result alias of an enclosing query; ``expr`` is the aliased expression,
    resolved and coded in that query's ``scope``."""

    __slots__ = ("expr", "scope")

    def __init__(self, expr, scope):
        self.expr = expr
        self.scope = scope


cdef class Scope:
    # (its fields are declared in _resolve.pxd)

    def __init__(self, sources, outer=None, corr=None):
        _scope_init(self, sources, outer, corr)

    cpdef object lookup(self, name, table, pos=-1):
        # Keyed by the names as written (a differently spelled name gets its own entry,
        # resolved to the same ColRef), so that a hit costs no lower-casing; an unqualified
        # name by itself (no key tuple to build and hash). The entries hold for the
        # sources there were when they were made: a FROM clause still being built (its
        # ON clauses are looked up between its items) empties the cache as it grows.
        cdef Py_ssize_t n = len(self.sources)
        if n != self._cache_n:
            self._cache.clear()
            self._cache_n = n
        key = name if table is None else (name, table)
        ref = self._cache.get(key, _MISSING)
        if ref is _MISSING:  # (a miss is the common case: no KeyError raised for it)
            ref = self._cache[key] = self._lookup(name, table)
            return ref
        if ref is not None and ref.depth:
            self.mark_correlated(ref.depth)
        return ref

    def mark_correlated(self, depth):
        """Mark this scope and the ``depth - 1`` enclosing ones as reading a column of the
        scope ``depth`` levels out (the subqueries between are correlated)."""
        s = self
        for _ in range(depth):
            s.correlated = True
            s.corr[0] = True
            s = s.outer

    cdef tuple _names(self):
        """This scope's name index: lower-case name -> [(source, column)] in FROM order,
        and the sources with a visible rowid (FROM order). Built once per FROM list, so a
        lookup does not walk every source; hidden columns (the right side of USING/NATURAL)
        are dealt with at lookup time because they are marked while the FROM clause is
        still being built."""
        srcs = self.sources
        idx = self._index
        if idx is not None and self._index_of is srcs and self._index_len == len(srcs):
            return idx
        names = {}
        rowids = []
        nested = []
        for src in srcs:
            if src.enames is not None:
                nested.append(src)
                pairs = [(c, i) for i, (_t, c) in enumerate(src.enames)]
            else:
                pairs = src.col_lower.items()
            for c, i in pairs:
                hit = names.get(c)
                if hit is None:
                    names[c] = [(src, i)]
                else:
                    hit.append((src, i))
            if src.has_rowid and src.enames is None:  # (a nested one: only qualified)
                rowids.append(src)
        idx = self._index = (names, rowids, nested)
        self._index_of = srcs
        self._index_len = len(srcs)
        return idx

    cdef object _lookup(self, name, table):
        """SQLite's lookupName: the innermost scope with a match wins. Within a scope, the
        first source (FROM order, qualifier permitting) that has the column takes it; a
        second one is an error unless its column is merged by USING/NATURAL. When no
        column matches, a rowid name is the rowid of the one source with a visible rowid
        (qualifier permitting); with several it is no column at all."""
        cdef Scope scope
        cdef Source src
        cdef Py_ssize_t depth, n_rowid
        if type(table) is FirstItem or type(table) is LastItem:
            if not self.sources:
                return None
            src = self.sources[0 if type(table) is FirstItem else -1]
            i = src.find(name)
            return None if i is None else ColRef(src, i, self, 0)
        srcs = self.sources
        if table is None and len(srcs) == 1:
            # an unqualified name of the one plain FROM item (the common case): its own
            # name map answers, as the walk below would, at a fraction of the cost. Tried
            # as written first: a key of the map is lower-case, so a name written as one is
            # its own lower case (str.lower is idempotent)
            src = srcs[0]
            cl = src.col_lower
            if src.enames is None and type(cl) is dict:
                i = (<dict>cl).get(name)
                if i is None:
                    i = (<dict>cl).get(lower_name(name))
                if i is not None and not (src.hidden and i in src.hidden):
                    return _colref(src, i, self, 0)
        scope = self
        depth = 0
        lname = lower_name(name)
        ltable = lower_name(table) if table is not None else None
        # ``main.t.a``: only an item of that database can answer (SQLite's pSchema test)
        ldb = table.schema.lower() if type(table) is T_SchemaQualifier else None
        n_rowid = 0
        while scope is not None:
            srcs = scope.sources
            if len(srcs) == 1 and srcs[0].enames is None:
                # one plain FROM item (the common case): its own name map is the index
                src = srcs[0]
                i = src.col_lower.get(lname)
                cands = ((src, i),) if i is not None else None
                rowids = [src] if src.has_rowid else []
                nested = _NO_SOURCES
            else:
                names, rowids, nested = scope._names()
                cands = names.get(lname)
            hit = None
            fj = None
            done = None  # a nested source whose USING column matched (see nestedfrom.py)
            if cands:
                for m in cands:
                    src = m[0]
                    if src is done:
                        continue
                    if ldb is not None and not _in_db(src, m[1], ldb):
                        continue
                    if src.enames is not None:
                        if ltable is not None and src.enames[m[1]][0] != ltable:
                            continue
                    elif ltable is not None and lower_name(src.name) != ltable:
                        continue
                    if hit is None:
                        if ltable is None and m[1] in src.hidden and src.enames is None:
                            continue  # (cannot happen: USING hides the right side only)
                        hit = m
                    elif not _merged(src, m[1], lname):
                        shown = name if table is None else f"{table}.{name}"
                        raise OperationalError(f"ambiguous column name: {shown}")
                    elif ltable is None and src.right:
                        # a USING column of a RIGHT JOIN is its right table's, of a FULL
                        # JOIN the coalesce of both sides' (an INNER or LEFT JOIN's is
                        # the leftmost table's)
                        fj = (fj or [hit]) + [m] if src.left else None
                        hit = m
                    else:
                        continue
                    if src.enames is not None and src.enames[m[1]][0] is None:
                        done = src
            if hit is None and ltable is not None and nested and ldb is None:
                hit = _nested_by_alias(nested, lname, ltable)
            if fj is not None:
                if depth:
                    self.mark_correlated(depth)
                return _coalesce_ref(fj, scope, depth)
            if hit is None and (rowids or nested) and lname in ROWID_NAMES:
                if ltable is not None:
                    rowids = [s for s in rowids + [s for s in nested if s.has_rowid]
                              if lower_name(s.name) == ltable and
                              (ldb is None or _in_db(s, -1, ldb))]
                # SQLite counts the sources that could answer the rowid across every
                # scope searched so far (its cntTab is not reset per name context)
                if len(rowids) == 1 and n_rowid == 0:
                    hit = (rowids[0], -1)
                n_rowid += len(rowids)
            if hit is not None:
                if depth:
                    self.mark_correlated(depth)
                return _colref(hit[0], hit[1], scope, depth)
            scope = scope.outer
            depth += 1
        return None



cdef list _NO_SOURCES = []  # (never changed: read only by _lookup)


cdef void _scope_init(Scope self, sources, outer, corr) except *:
    """Scope.__init__'s work, which ``new_scope`` does without the call's argument
    parsing."""
    self.sources = sources
    self.outer = outer
    self.overrides = {}  # (cursor, col) or id(expr) -> register
    self.aliases = {}  # this query's result aliases: lower-case name -> expression
    self.alias_outer = False  # whether lookups from here see ``outer``'s aliases
    self.correlated = False
    # aggregate attribution (compiler/aggscope.py): whether the query is an aggregate
    # one, the calls its subqueries hand up (an OuterAggs), and, for a query that is
    # none, its WHERE and FROM (an aggregate there is a resolve-time misuse)
    self.agg_allowed = False
    self.agg_context = None
    self.in_where = None
    self.corr = corr if corr is not None else [False]
    self._cache = {}
    self._cache_n = -1  # (len(sources) the entries of _cache hold for: see lookup)
    self._index = None  # see _names
    self._index_of = None
    self._index_len = -1
    self.sub_affs = None  # id(scalar subquery) -> its column's affinity, once coded
    if len(_scopes) >= 4096:  # (scopes made outside a statement's compile)
        release_scopes()
    _scopes.append(self)


cpdef Scope new_scope(outer, corr):
    """``Scope([], outer, corr)``, a SELECT core's (select._compile_core), made without
    the constructor call's argument parsing."""
    cdef Scope s = Scope.__new__(Scope)
    _scope_init(s, [], outer, corr)
    return s


cpdef bint sees_words(scope) except -1:
    """Whether a FROM item seen from ``scope`` (its own and the enclosing queries') has a
    column named true or false: the test select makes of every query before it binds
    the TRUE/FALSE words (compiler/truefalse.py), whose common answer is no."""
    cdef Scope s
    cdef Source src
    while scope is not None:
        s = <Scope>scope
        for x in s.sources:
            src = <Source>x
            cl = src.col_lower
            if type(cl) is dict and ("true" in <dict>cl or "false" in <dict>cl):
                return True
        scope = s.outer
    return False


cdef ColRef _colref(source, col, scope, depth):
    """``ColRef(source, col, scope, depth)`` without the call of its ``__init__``."""
    cdef ColRef r = ColRef.__new__(ColRef)
    r.source = source
    r.col = col
    r.scope = scope
    r.depth = depth
    return r


cdef bint _in_db(src, col, ldb):
    """Whether column ``col`` of ``src`` may be named with the database ``ldb``: the
    item's own database, or for a parenthesized join that of the inner table the column
    comes from (its USING columns, and a nested join's rowid, belong to none)."""
    if src.enames is None:
        return src.db is None or src.db == ldb
    inner = src.db  # (nestedfrom.nested_columns: the database of each column)
    if type(inner) is not list or col < 0:
        return False
    return inner[col] == ldb


def _merged(src, col, lname):
    """Whether a second match of a name in ``src`` is the same column merged by USING
    (or NATURAL) rather than an ambiguity: for a nested source (a parenthesized join),
    any of its columns of that name once its join has the name in USING."""
    if src.enames is None:
        return col in src.hidden
    return src.using_cols is not None and lname in src.using_cols


def _nested_by_alias(nested, lname, ltable):
    """``alias.column`` of a parenthesized join with an alias: its column of that name as
    the subquery names it (``a:1`` for a second ``a``), when no inner table matched."""
    for src in nested:
        if lower_name(src.name) == ltable:
            i = src.col_lower.get(lname)
            if i is not None:
                return (src, i)
    return None


cdef object T_Column = A.Column
cdef object T_Collate = A.Collate
cdef object T_Cast = A.Cast
cdef object T_Unary = A.Unary
cdef object T_Binary = A.Binary
cdef object T_RowValue = A.RowValue
cdef object T_Subquery = A.Subquery
cdef object T_Like = A.Like
cdef object T_Between = A.Between
cdef object T_InList = A.InList
cdef object T_InSelect = A.InSelect
cdef object T_InTable = A.InTable
cdef object T_IsNull = A.IsNull
cdef object T_Case = A.Case
cdef object T_FunctionCall = A.FunctionCall
cdef object T_ResolvedColumn = ResolvedColumn
cdef object T_OuterAlias = OuterAlias
cdef object T_Scope = Scope
cdef object T_SchemaQualifier = A.SchemaQualifier

# fields of the common nodes, read without an attribute lookup (slot, _resolve.pxd)
cdef Py_ssize_t F_COL_NAME = slot_offset(A.Column, "name")
cdef Py_ssize_t F_COL_TABLE = slot_offset(A.Column, "table")
cdef Py_ssize_t F_BIN_LEFT = slot_offset(A.Binary, "left")
cdef Py_ssize_t F_BIN_RIGHT = slot_offset(A.Binary, "right")
cdef Py_ssize_t F_UN_OP = slot_offset(A.Unary, "op")
cdef Py_ssize_t F_UN_OPERAND = slot_offset(A.Unary, "operand")
cdef Py_ssize_t F_COLLATE_EXPR = slot_offset(A.Collate, "expr")
cdef Py_ssize_t F_COLLATE_NAME = slot_offset(A.Collate, "collation")
cdef Py_ssize_t F_COLLATE_IMPLICIT = slot_offset(A.Collate, "implicit")
cdef Py_ssize_t F_CAST_EXPR = slot_offset(A.Cast, "expr")
cdef Py_ssize_t F_ISNULL_EXPR = slot_offset(A.IsNull, "expr")
cdef Py_ssize_t F_BTW_EXPR = slot_offset(A.Between, "expr")
cdef Py_ssize_t F_BTW_LOW = slot_offset(A.Between, "low")
cdef Py_ssize_t F_BTW_HIGH = slot_offset(A.Between, "high")
cdef Py_ssize_t F_RC_REF = slot_offset(ResolvedColumn, "ref")
cdef Py_ssize_t F_FC_ARGS = slot_offset(A.FunctionCall, "args")
cdef Py_ssize_t F_CASE_OPERAND = slot_offset(A.Case, "operand")
cdef Py_ssize_t F_CASE_WHENS = slot_offset(A.Case, "whens")
cdef Py_ssize_t F_CASE_ELSE = slot_offset(A.Case, "else_")
cdef Py_ssize_t F_INL_EXPR = slot_offset(A.InList, "expr")
cdef Py_ssize_t F_INL_ITEMS = slot_offset(A.InList, "items")


cdef object lookup_name(scope, name, table):
    """``scope.lookup(name, table)``, answered from the Scope's cache when it holds the
    name and no correlation has to be recorded (else by the Scope itself)."""
    cdef Scope s
    if type(scope) is T_Scope:
        s = <Scope>scope
        if len(s.sources) == s._cache_n:
            ref = s._cache.get(name if table is None else (name, table), _MISSING)
            if ref is None or (ref is not _MISSING and not (<ColRef>ref).depth):
                return ref
        return s.lookup(name, table)
    return scope.lookup(name, table)


cpdef str expr_affinity(e, scope):
    """sqlite3ExprAffinity: the affinity of an expression (``@`` when it has none)."""
    t = type(e)
    while t is T_Collate:
        e = slot(e, F_COLLATE_EXPR)
        t = type(e)
    if t is T_Column:
        if scope is None:
            return AFF_NONE
        try:
            ref = lookup_name(scope, slot(e, F_COL_NAME), slot(e, F_COL_TABLE))
        except OperationalError:
            return AFF_NONE
        if ref is None:
            return AFF_NONE
        return "D" if (<ColRef>ref).col < 0 else \
            (<Source>(<ColRef>ref).source).affs[(<ColRef>ref).col]
    if t is T_ResolvedColumn:
        ref = slot(e, F_RC_REF)
        if type(ref) is not ColRef:  # (a CoalesceRef or a stand-in: its own answer)
            return ref.affinity()
        if (<ColRef>ref).col < 0:
            return "D"
        src = (<ColRef>ref).source
        affs = (<Source>src).affs if type(src) is Source else src.affs
        return affs[(<ColRef>ref).col]
    if t is T_OuterAlias:
        return expr_affinity(e.expr, e.scope)
    if t is T_Cast:
        from sqlengine.schema import affinity_of_type
        return affinity_of_type(e.type_name)
    if t is T_Subquery:
        subs = scope.sub_affs if scope is not None else None  # (None: none coded yet)
        aff = subs.get(id(e)) if subs is not None else None
        if aff is not None:
            return aff
        body = e.select.body  # a compound's rightmost SELECT (SQLite's x.pSelect)
        while isinstance(body, A.Compound):
            body = body.right
        if isinstance(body, A.SelectCore) and body.columns and isinstance(body.columns[0], A.ResultColumn):
            from sqlengine.compiler.select import subquery_scope_for_affinity
            sub = subquery_scope_for_affinity(scope, body)
            return expr_affinity(body.columns[0].expr, sub)
        return AFF_NONE
    return AFF_NONE


cpdef expr_collation(e, scope):
    """sqlite3ExprCollSeq: the collation name an expression carries (None = BINARY)."""
    return expr_coll_seq(e, scope)[1]


cdef tuple _NO_COLL = (False, None)


cpdef tuple expr_coll_seq(e, scope):
    """sqlite3ExprCollSeq, telling "no collation" from BINARY: ``(True, name)`` when ``e``
    carries a collation (name None for BINARY), ``(False, None)`` when it has none.

    A column (of a table, view or subquery; not the rowid) always has one, its declared
    collation or BINARY; CAST and unary + pass it through; a COLLATE clause names one; any
    other expression has one only when an operand holds an explicit COLLATE (SQLite's
    EP_Collate), taken from the left operand first, then the right or the arguments."""
    c = _coll_seq(e, scope)
    if c is _NO_SEQ:
        return _NO_COLL
    return True, c


# _coll_seq's answer for an expression that carries no collation (None is BINARY)
cdef object _NO_SEQ = object()


cdef object _coll_seq(e, scope):
    """``expr_coll_seq`` without its tuple: the collation name (None: BINARY), or _NO_SEQ
    when ``e`` carries none."""
    cdef list rest
    while True:
        t = type(e)
        if t is T_Column:
            ref = _try_lookup(e, scope)
            if ref is None or (<ColRef>ref).col < 0:
                return _NO_SEQ
            return (<Source>(<ColRef>ref).source).colls[(<ColRef>ref).col]
        if t is T_Collate:
            return slot(e, F_COLLATE_NAME)
        if t is T_ResolvedColumn:
            return _ref_coll(slot(e, F_RC_REF))
        if t is T_OuterAlias:
            return _coll_seq(e.expr, e.scope)
        if t is T_Cast:
            e = slot(e, F_CAST_EXPR)
            continue
        if t is T_Unary and slot(e, F_UN_OP) == "+":
            e = slot(e, F_UN_OPERAND)
            continue
        if t is T_RowValue and e.items:
            e = e.items[0]
            continue
        if not has_explicit_collate(e):  # (an operand-less node included)
            return _NO_SEQ
        left, rest = collate_operands(e)
        if left is not None and has_explicit_collate(left):
            e = left
            continue
        e = None
        for x in rest:
            if x is not None and has_explicit_collate(x):
                e = x
                break
        if e is None:
            return _NO_SEQ


cdef object _ref_coll(ref):
    """``_coll_seq`` of a ResolvedColumn's ``ref`` (a ColRef's fields read directly)."""
    if type(ref) is ColRef:
        if (<ColRef>ref).col < 0:
            return _NO_SEQ
        return (<ColRef>ref).source.colls[(<ColRef>ref).col]
    if ref.col < 0:
        return _NO_SEQ
    return ref.collation()


cdef object _implicit_coll(e, scope):
    """``_coll_seq`` of an expression known to hold no explicit COLLATE clause: only a
    column or an implicit COLLATE (under CAST, unary + or a row value's first item)
    carries a collation then."""
    while True:
        t = type(e)
        if t is T_Column or t is T_ResolvedColumn or t is T_OuterAlias:
            return _coll_seq(e, scope)
        if t is T_Collate:
            return slot(e, F_COLLATE_NAME)
        if t is T_Cast:
            e = slot(e, F_CAST_EXPR)
        elif t is T_Unary and slot(e, F_UN_OP) == "+":
            e = slot(e, F_UN_OPERAND)
        elif t is T_RowValue and e.items:
            e = e.items[0]
        else:
            return _NO_SEQ


cpdef tuple result_coll_seq(e, scope, bint any_collate):
    """``expr_coll_seq`` of a result column or GROUP BY term. When the parser saw no
    COLLATE in the core (``any_collate`` False), only a column (under CAST, unary + or a
    row value's first item) can carry one, so other expressions are not searched for an
    explicit COLLATE."""
    if any_collate:
        return expr_coll_seq(e, scope)
    while True:
        t = type(e)
        if t is T_Cast:
            e = e.expr
        elif t is T_Unary and slot(e, F_UN_OP) == "+":
            e = slot(e, F_UN_OPERAND)
        elif t is T_RowValue and e.items:
            e = e.items[0]
        else:
            break
    if t is T_Column or t is T_ResolvedColumn:
        return expr_coll_seq(e, scope)
    return _NO_COLL


cdef object _try_lookup(e, scope):
    if scope is None:
        return None
    try:
        return lookup_name(scope, slot(e, F_COL_NAME), slot(e, F_COL_TABLE))
    except OperationalError:
        return None


cpdef tuple collate_operands(e):
    """SQLite's pLeft and (pRight or x.pList) of an expression node, for the COLLATE walk."""
    t = type(e)
    if t is T_Binary:
        return e.left, [e.right]
    if t is T_Unary:
        return e.operand, []
    if t is T_Like:  # a function call like(pattern, x [, escape])
        return None, [e.right, e.left, e.escape]
    if t is T_Between:
        return e.expr, [e.low, e.high]
    if t is T_InList:
        return e.expr, list(e.items)
    if t is T_InSelect or t is T_InTable or t is T_IsNull:
        return e.expr, []
    if t is T_Case:
        return e.operand, [x for w in e.whens for x in w] + [e.else_]
    if t is T_FunctionCall:
        return None, list(e.args or ())
    if t is T_RowValue:
        return None, list(e.items)
    if t is T_Cast or t is T_Collate:
        return e.expr, []
    return None, []


cpdef comparison_collation(left, right, scope):
    """sqlite3BinaryCompareCollSeq: the collation of a binary comparison (None = BINARY):
    an explicit COLLATE on the left, else one on the right, else the left operand's
    collation (a column's, BINARY included), else the right operand's."""
    if has_explicit_collate(left):
        c = _coll_seq(left, scope)
    elif right is not None and has_explicit_collate(right):
        c = _coll_seq(right, scope)
    else:  # (neither side holds a COLLATE: only a column's collation can apply)
        c = _implicit_coll(left, scope)
        if c is _NO_SEQ and right is not None:
            c = _implicit_coll(right, scope)
    return None if c is _NO_SEQ else c


# Node types that have no operands, so never hold a COLLATE clause (a subquery's own
# clauses do not count: SQLite's EP_Collate does not cross a subquery).
cdef frozenset _NO_OPERANDS = frozenset((A.Column, A.Literal, A.Param, ResolvedColumn,
                                         A.CurrentTime, A.Subquery, A.Exists, A.Raise,
                                         type(None)))
NO_OPERANDS = _NO_OPERANDS

# has_explicit_collate's answers for large expressions: address of the node -> (node,
# answer). The node is kept so that its address cannot be reused while the entry lives;
# the AST is never changed after parsing, so an answer stays true. Cleared when it grows
# (and by each new Parse).
cdef dict _explicit_memo = {}

# An expression of up to this many compound nodes is walked without the memo (no entry
# to make or find); a larger one keeps the answers of its large subexpressions, so that
# the test repeated at each comparison inside it cannot turn quadratic.
cdef Py_ssize_t _SMALL_WALK = 16


cpdef bint has_explicit_collate(e) except -1:
    """SQLite's EP_Collate: ``e`` or an operand of it (not inside a subquery) is a
    COLLATE clause (not an implicit one, which also hides what is under it)."""
    cdef Py_ssize_t budget = _SMALL_WALK, n = 0
    cdef int r
    t = type(e)
    if t is T_Column or t is T_Literal:
        return False
    if t is T_Collate:
        return not slot(e, F_COLLATE_IMPLICIT)
    r = _explicit_walk(e, &budget, False)
    if r >= 0:
        return r
    return _explicit_walk(e, &n, True)


cdef int _explicit_walk(e, Py_ssize_t *count, bint memo) except -2:
    """has_explicit_collate of ``e`` (1 or 0). Without ``memo``: a plain walk that gives
    up (-1) past ``count[0]`` compound nodes (counted down). With it: ``count[0]`` is
    increased by the compound nodes walked, and the answer of a subexpression of more than
    _SMALL_WALK of them (or one that holds a COLLATE) is kept in _explicit_memo, and a kept
    one read back (counting as large)."""
    cdef int r = 0
    cdef Py_ssize_t n = 1
    t = type(e)
    if t is T_Column or t is T_Literal:
        return 0
    if t is T_Collate:
        return 0 if slot(e, F_COLLATE_IMPLICIT) else 1
    if t is not T_Binary and t is not T_Unary and t in _NO_OPERANDS:  # (None included)
        return 0
    if memo:
        key = PyLong_FromVoidPtr(<void *>e)
        hit = _explicit_memo.get(key)
        if hit is not None and (<tuple>hit)[0] is e:
            count[0] += _SMALL_WALK + 1
            return 1 if (<tuple>hit)[1] else 0
    else:
        count[0] -= 1
        if count[0] < 0:
            return -1
        n = 0  # (unused: the budget is counted down in count itself)
    cdef Py_ssize_t *sub = &n if memo else count
    # the operands collate_operands gives (SQLite's pLeft, pRight, x.pList), read from
    # the slots of the common kinds
    if t is T_Binary:
        r = _explicit_walk(slot(e, F_BIN_LEFT), sub, memo)
        if r == 0:
            r = _explicit_walk(slot(e, F_BIN_RIGHT), sub, memo)
    elif t is T_Unary:
        r = _explicit_walk(slot(e, F_UN_OPERAND), sub, memo)
    elif t is T_Cast:
        r = _explicit_walk(slot(e, F_CAST_EXPR), sub, memo)
    elif t is T_IsNull:
        r = _explicit_walk(slot(e, F_ISNULL_EXPR), sub, memo)
    elif t is T_Between:
        r = _explicit_walk(slot(e, F_BTW_EXPR), sub, memo)
        if r == 0:
            r = _explicit_walk(slot(e, F_BTW_LOW), sub, memo)
            if r == 0:
                r = _explicit_walk(slot(e, F_BTW_HIGH), sub, memo)
    elif t is T_FunctionCall:
        args = slot(e, F_FC_ARGS)
        if args:
            for x in args:
                r = _explicit_walk(x, sub, memo)
                if r != 0:
                    break
    elif t is T_Case:
        r = _explicit_walk(slot(e, F_CASE_OPERAND), sub, memo)
        if r == 0:
            for w in slot(e, F_CASE_WHENS):  # (WHEN, THEN) pairs
                r = _explicit_walk(w[0], sub, memo)
                if r == 0:
                    r = _explicit_walk(w[1], sub, memo)
                if r != 0:
                    break
            if r == 0:
                r = _explicit_walk(slot(e, F_CASE_ELSE), sub, memo)
    elif t is T_InList:
        r = _explicit_walk(slot(e, F_INL_EXPR), sub, memo)
        if r == 0:
            for x in slot(e, F_INL_ITEMS):
                r = _explicit_walk(x, sub, memo)
                if r != 0:
                    break
    else:  # (the rarer kinds)
        left, rest = collate_operands(e)
        r = _explicit_walk(left, sub, memo)
        if r == 0:
            for x in <list>rest:
                r = _explicit_walk(x, sub, memo)
                if r != 0:
                    break
    if memo:
        count[0] += n
        if r or n > _SMALL_WALK:
            if len(_explicit_memo) > 20000:
                _explicit_memo.clear()
            _explicit_memo[key] = (e, r != 0)
    return r


cpdef int clear_caches() except -1:
    """Forget the per-node answers kept for the statement being compiled."""
    _explicit_memo.clear()
    return 0


# The Scopes made since the last release. A Scope's lookup cache holds the ColRefs it
# found, and a ColRef found in that Scope points back to it: a reference cycle that only
# the cyclic garbage collector would free, with the Sources and everything else the
# Scope reaches. Emptying the caches once the statement is compiled lets reference
# counting free them (the collector's runs cost about a tenth of the corpus's compile).
cdef list _scopes = []


cpdef int release_scopes() except -1:
    """Empty the lookup caches of the Scopes made since the last call (a cache only: a
    later lookup finds the same column again)."""
    for s in _scopes:
        (<Scope>s)._cache.clear()
    _scopes.clear()
    return 0


def real_affinity(aff):
    return aff == AFF_REAL


# ---- the alias rewrite's walk (compiler/alias.py) ------------------------------------------
cdef object T_Literal = A.Literal
cdef object T_Exists = A.Exists
cdef Py_ssize_t F_BIN_OP = slot_offset(A.Binary, "op")
cdef Py_ssize_t F_BIN_POS = slot_offset(A.Binary, "pos")
cdef Py_ssize_t F_UN_POS = slot_offset(A.Unary, "pos")
cdef object _replace = None  # dataclasses.replace
cdef object _child_fields = None  # walk.child_fields


def rewrite_columns(e, fn, on_subquery=None, names=None):
    """``e`` with each column reference ``c`` outside subqueries replaced by ``fn(c)``
    (copy on write: unchanged parts are shared); ``on_subquery(select)`` is called for
    each subquery met (the left side of an IN is rewritten too). With ``names`` (a set of
    lower-case names), ``fn`` sees only the references without a table qualifier whose
    lower-case name is in it; the others stay as they are."""
    global _replace, _child_fields
    if _replace is None:
        import dataclasses
        from sqlengine.compiler.walk import child_fields
        _replace = dataclasses.replace
        _child_fields = child_fields
    return _rewrite(e, fn, on_subquery, names)


cdef object _rewrite(object e, object fn, object on_subquery, object names):
    t = type(e)
    if t is T_Column:
        if names is not None and (slot(e, F_COL_TABLE) is not None
                                  or lower_name(slot(e, F_COL_NAME)) not in names):
            return e
        return fn(e)
    if t is T_Literal:
        return e
    if t is T_Binary:  # (the commonest nodes, without the generic field walk)
        l0 = slot(e, F_BIN_LEFT)
        r0 = slot(e, F_BIN_RIGHT)
        left = _rewrite(l0, fn, on_subquery, names)
        right = _rewrite(r0, fn, on_subquery, names)
        if left is l0 and right is r0:
            return e
        return T_Binary(slot(e, F_BIN_OP), left, right, slot(e, F_BIN_POS))
    if t is T_Unary:
        o = slot(e, F_UN_OPERAND)
        x = _rewrite(o, fn, on_subquery, names)
        return e if x is o else T_Unary(slot(e, F_UN_OP), x, slot(e, F_UN_POS))
    if t is T_Subquery or t is T_Exists or t is T_InSelect:
        if on_subquery is not None:
            on_subquery(e.select)
        if t is T_InSelect:
            o = e.expr
            x = _rewrite(o, fn, on_subquery, names)
            if x is not o:
                return _replace(e, expr=x)
        return e
    changes = None
    for name in _child_fields(t):
        v = getattr(e, name)
        if v is None:
            continue
        if type(v) is list:
            nv = [_rewrite_tuple(x, fn, on_subquery, names) if type(x) is tuple
                  else _rewrite(x, fn, on_subquery, names) for x in v]
            if any([a is not b for a, b in zip(nv, v)]):
                if changes is None:
                    changes = {}
                changes[name] = nv
        else:
            nv = _rewrite(v, fn, on_subquery, names)
            if nv is not v:
                if changes is None:
                    changes = {}
                changes[name] = nv
    return _replace(e, **changes) if changes else e


cdef tuple _rewrite_tuple(tuple x, object fn, object on_subquery, object names):
    """``_rewrite`` of each item of a tuple in a node's list field (a CASE's WHEN/THEN
    pair): ``x`` itself when none changed, so an unchanged CASE is not rebuilt."""
    out = tuple([_rewrite(y, fn, on_subquery, names) for y in x])
    for a, b in zip(out, x):
        if a is not b:
            return out
    return x


# ---- a SELECT's result columns (compiler/select.py) ----------------------------------------
cdef object T_CoalesceRef = CoalesceRef
cdef object T_ResultColumn = A.ResultColumn
cdef Py_ssize_t F_RC_EXPR = slot_offset(A.ResultColumn, "expr")
cdef Py_ssize_t F_RC_ALIAS = slot_offset(A.ResultColumn, "alias")
cdef Py_ssize_t F_RC_TEXT = slot_offset(A.ResultColumn, "text")
cdef Py_ssize_t F_COL_QUOTED = slot_offset(A.Column, "quoted")


cpdef dict result_aliases(columns):
    """The AS names of ``columns`` (a SELECT's result columns): lower-case name ->
    expression (the first of a name)."""
    cdef dict out = {}
    for rc in columns:
        if type(rc) is T_ResultColumn:
            alias = slot(rc, F_RC_ALIAS)
            if alias:
                name = lower_name(alias)
                if name not in out:
                    out[name] = slot(rc, F_RC_EXPR)
    return out


# How a SELECT's result columns are named (Parse.naming): as a statement's result
# (cursor.description: an expression by its text), as a FROM subquery's or CTE's columns
# (SQLite names those before its names resolve: a name as written), or as a view's or
# CREATE TABLE AS's (after they resolve). Both of the last skip COLLATE (and, resolved,
# likely/unlikely/likelihood) before taking a column's name: sqlite3ColumnsFromExprList's
# sqlite3ExprSkipCollateAndLikely.
RESULT_NAMES = 0
EARLY_NAMES = 1
COLUMN_NAMES = 2
cdef frozenset _UNLIKELY_ARITY = frozenset({("likely", 1), ("unlikely", 1), ("likelihood", 2)})


cdef object _named_part(e, bint resolved):
    """``e`` without its COLLATE operators and, when ``resolved``, its likely(),
    unlikely() and likelihood() calls (SQLite's EP_Unlikely, set as names resolve): the
    part whose name a subquery's, view's or CREATE AS's column takes."""
    while True:
        t = type(e)
        if t is T_Collate:
            e = slot(e, F_COLLATE_EXPR)
        elif resolved and t is T_FunctionCall and \
                (e.name.lower(), len(e.args)) in _UNLIKELY_ARITY:
            e = e.args[0]
        else:
            return e


cpdef tuple result_column(rc, scope, int naming):
    """(expression, name, declared type) of the result column ``rc`` (a ResultColumn, not
    a *): its alias, else for a column of this query's FROM items the column's name (as
    written when ``naming`` is EARLY_NAMES: a FROM subquery or CTE body; under COLLATE
    too unless RESULT_NAMES, see ``_named_part``), else its text as written; a plain
    column's declared type (a rowid's: INTEGER, SQLite's columnType). A name that does
    not resolve is left to the coder."""
    cdef ColRef ref = None
    cdef Source src
    cdef bint early = naming == EARLY_NAMES
    if type(rc) is T_ResultColumn:
        e = slot(rc, F_RC_EXPR)
        name = slot(rc, F_RC_ALIAS)
    else:
        e = rc.expr
        name = rc.alias
    decl = None
    col = e
    if naming and name is None and type(e) is not T_Column:
        col = _named_part(e, naming == COLUMN_NAMES)
    if type(col) is T_Column:
        cname = slot(col, F_COL_NAME)
        table = slot(col, F_COL_TABLE)
        try:
            r = lookup_name(scope, cname, table)
        except OperationalError:
            r = None
        if r is not None:
            ref = r
        if ref is not None and ref.depth == 0:
            src = ref.source
            if type(ref) is T_CoalesceRef:  # (an expression: named as written)
                name = name or cname
            elif ref.col >= 0:
                if col is e:
                    decl = src.decltypes[ref.col]
                if name is None and not early:
                    name = src.columns[ref.col]
            else:  # (the rowid: the INTEGER PRIMARY KEY's declared type, else INTEGER)
                if col is e:
                    decl = "INTEGER" if src.ipk < 0 else src.decltypes[src.ipk]
                if name is None and not early:  # (early: the name as written)
                    name = "rowid" if src.ipk < 0 else src.columns[src.ipk]
        if name is None and (ref is not None or not slot(col, F_COL_QUOTED)
                             or table is not None or early):
            name = cname
    if name is None:  # an expression, or a double-quoted string: its text as written
        text = slot(rc, F_RC_TEXT) if type(rc) is T_ResultColumn else rc.text
        name = text or "?"
    return (e, name, decl)


cdef object T_Star = A.Star
cdef Py_ssize_t F_STAR_TABLE = slot_offset(A.Star, "table")
cdef Py_ssize_t F_RC_POS = slot_offset(ResolvedColumn, "pos")
cdef object _NO_POS = -1


cdef extern from *:
    """
    static PyObject *sqlengine_alloc_object(PyObject *t) {
        return ((PyTypeObject *)t)->tp_alloc((PyTypeObject *)t, 0);
    }
    """
    object _alloc_object "sqlengine_alloc_object"(object t)


cdef object _resolved_column(Source src, Py_ssize_t col, scope):
    """``ResolvedColumn(ColRef(src, col, scope, 0))`` without the calls of their
    ``__init__`` (a ResolvedColumn is a slotted class: its two slots set directly)."""
    rc = _alloc_object(T_ResolvedColumn)
    _set_slot(rc, F_RC_REF, _colref(src, col, scope, 0))
    _set_slot(rc, F_RC_POS, _NO_POS)
    return rc


cdef bint _plain_stars(Scope scope) except -1:
    """Whether ``*`` and ``t.*`` over ``scope``'s FROM items are their columns in order,
    less those a USING hides (``_expand_star``): every item a plain Source (no
    table-valued function's HIDDEN columns), none a parenthesized join (nestedfrom.py),
    none on the left of a RIGHT JOIN (a later USING column is read unqualified), no two
    of the same name (resolve.check_star_column), and at least one (else SQLite's "no
    tables specified"). select._expand_columns expands the others."""
    cdef list sources = scope.sources
    cdef Py_ssize_t n = len(sources), i, k
    cdef Source s
    if not n:
        return False
    cdef list names = [None] * n
    for i in range(n):
        if type(sources[i]) is not Source:
            return False
        s = <Source>sources[i]
        if s.enames is not None or s.ltorj:
            return False
        names[i] = lower_name(s.name)
        for k in range(i):
            if names[k] == names[i]:
                return False
    return True


cdef str _expand_star(star, Scope scope, list out):
    """Append to ``out`` the (expression, name, declared type) of each column ``star``
    (``*`` or ``t.*``) stands for, over FROM items ``_plain_stars`` accepted; returns the
    error of a ``t.*`` naming no item, else None."""
    table = slot(star, F_STAR_TABLE)
    ltable = lower_name(table) if table is not None else None
    cdef bint found = False
    cdef Source s
    cdef Py_ssize_t j
    for s in scope.sources:
        if ltable is not None and lower_name(s.name) != ltable:
            continue
        found = True
        # (the columns a USING hides, from * only)
        hidden = s.hidden if ltable is None and s.hidden else None
        columns = s.columns
        decls = s.decltypes
        for j in range(len(columns)):
            if hidden is not None and j in hidden:
                continue
            out.append((_resolved_column(s, j, scope), columns[j], decls[j]))
    return None if found else f"no such table: {table}"


cpdef list result_columns(columns, scope, int naming):
    """``result_column`` of each of ``columns`` (a SELECT's result list), a ``*`` or
    ``t.*`` expanded into its columns; None when one of them is a star over FROM items
    ``_plain_stars`` refuses (select._expand_columns expands those)."""
    cdef bint stars = False
    for rc in columns:
        if type(rc) is T_Star:
            stars = True
            break
    if stars and (type(scope) is not T_Scope or not _plain_stars(<Scope>scope)):
        return None
    cdef list out = []
    err = None  # (SQLite's selectExpander reports the last star naming no item)
    for rc in columns:
        if type(rc) is T_Star:
            err = _expand_star(rc, <Scope>scope, out) or err
        else:
            out.append(result_column(rc, scope, naming))
    if err is not None:
        raise OperationalError(err)
    return out


cdef class ResultInfo:
    """What a SELECT returns: names, declared types, affinities, collations per column.
    ``has_coll[i]`` tells whether column i carries a collation at all (a column reference or
    an explicit COLLATE; BINARY counts), which a compound SELECT needs (None: all do).
    ``last``: for a compound, the ResultInfo of its rightmost SELECT (of a VALUES of several
    rows, its last row), where SQLite's IN and scalar subqueries read a column's affinity
    and collation (x.pSelect->pEList); None when that is this one. ``arm``: for a SELECT
    of a compound, (its scope, its result columns, its alias rewrite or None), which the
    compound's ORDER BY terms are matched against. ``nested``: (enames, noexpand) of a
    parenthesized join's subquery. (A cdef class, declared in _resolve.pxd: one is made
    per SELECT compiled.)"""

    def __init__(self, names, decltypes, affs, colls, has_coll=None):
        self.names = names
        self.decltypes = decltypes
        self.affs = affs
        self.colls = colls
        self.has_coll = has_coll

    def rightmost(self):
        return self.last if self.last is not None else self


cpdef ResultInfo result_info(cols, scope, bint any_collate):
    """The ResultInfo of the result columns ``cols`` ([(expression, name, declared
    type)]), each column's affinity found before its collation."""
    cdef Py_ssize_t n = len(cols), i = 0
    # (made at their length: a store per column, no append)
    cdef list names = [None] * n, decls = [None] * n, affs = [None] * n
    cdef list colls = [None] * n, has_coll = [None] * n
    cdef tuple seq
    cdef ResultInfo info = ResultInfo.__new__(ResultInfo)
    for c in cols:
        e, name, decl = c
        names[i] = name
        decls[i] = decl
        affs[i] = expr_affinity(e, scope)
        seq = result_coll_seq(e, scope, any_collate)
        colls[i] = seq[1]
        has_coll[i] = seq[0]
        i += 1
    info.names = names
    info.decltypes = decls
    info.affs = affs
    info.colls = colls
    info.has_coll = has_coll
    return info
