"""The compiled entries select.py calls once per SELECT core, where a Python call's
argument parsing would cost more than the work: the WHERE loop coder opened and closed
through its C entries (``_where.c_where_begin`` / ``c_where_end``, which take the builder
and the flags as C arguments; ``where.where_begin`` is a Python function with eleven
parameters and keywords), a Select's and a SelectCore's clauses read from their slots, and the Source of the
commonest FROM items, tables named plainly (``plain_table_source``, ``plain_items``: the
Parse's fields read as C fields).

select.py's augmenting .pxd cimports this module, so compiled select.py calls these as C
functions; select.py run from its source calls the same functions through Python. This
module emits no code of its own and holds no state.
"""

from sqlengine.compiler._levels cimport WhereInfo
from sqlengine.compiler._resolve cimport Scope, _table_source, slot, slot_offset
from sqlengine.compiler._where cimport c_where_begin, c_where_end
from sqlengine.compiler.context cimport Parse
from sqlengine.sql import ast as A

cdef object T_Select = A.Select
cdef Py_ssize_t F_SEL_WITH = slot_offset(A.Select, "with_")
cdef Py_ssize_t F_SEL_BODY = slot_offset(A.Select, "body")
cdef Py_ssize_t F_SEL_ORDER = slot_offset(A.Select, "order_by")
cdef Py_ssize_t F_SEL_LIMIT = slot_offset(A.Select, "limit")
cdef Py_ssize_t F_SEL_OFFSET = slot_offset(A.Select, "offset")


cpdef WhereInfo where_loops(Parse p, Scope scope, where, left_on, core, order_by, limit,
                            distinct):
    """``where.where_begin(p, scope, where, left_on, (), core, order_by, limit,
    distinct=distinct)``: the loops of a non-aggregate SELECT core."""
    return c_where_begin(p, p.b, scope, where, left_on, (), core, order_by, limit, True,
                         False, 0, distinct)


cpdef int where_close(Parse p, WhereInfo info) except -1:
    """``where.where_end(p, info)``."""
    return c_where_end(p, p.b, info)


cpdef tuple select_clauses(sel):
    """(WITH, body, ORDER BY, LIMIT, OFFSET) of the Select ``sel``."""
    if type(sel) is T_Select:
        return (slot(sel, F_SEL_WITH), slot(sel, F_SEL_BODY), slot(sel, F_SEL_ORDER),
                slot(sel, F_SEL_LIMIT), slot(sel, F_SEL_OFFSET))
    return sel.with_, sel.body, sel.order_by, sel.limit, sel.offset


cdef object T_SelectCore = A.SelectCore
cdef Py_ssize_t F_CORE_WHERE = slot_offset(A.SelectCore, "where")
cdef Py_ssize_t F_CORE_GROUP = slot_offset(A.SelectCore, "group_by")
cdef Py_ssize_t F_CORE_HAVING = slot_offset(A.SelectCore, "having")
cdef Py_ssize_t F_CORE_FEATURES = slot_offset(A.SelectCore, "features")
cdef Py_ssize_t F_CORE_DISTINCT = slot_offset(A.SelectCore, "distinct")


cpdef tuple core_clauses(core):
    """(WHERE, GROUP BY, HAVING, features, DISTINCT) of the SelectCore ``core``."""
    if type(core) is T_SelectCore:
        return (slot(core, F_CORE_WHERE), slot(core, F_CORE_GROUP),
                slot(core, F_CORE_HAVING), slot(core, F_CORE_FEATURES),
                slot(core, F_CORE_DISTINCT))
    return core.where, core.group_by, core.having, core.features, core.distinct


cdef object T_TableRef = A.TableRef
cdef Py_ssize_t F_TR_NAME = slot_offset(A.TableRef, "name")
cdef Py_ssize_t F_TR_SCHEMA = slot_offset(A.TableRef, "schema")
cdef Py_ssize_t F_TR_ALIAS = slot_offset(A.TableRef, "alias")
cdef Py_ssize_t F_TR_INDEXED_BY = slot_offset(A.TableRef, "indexed_by")
cdef frozenset _TEMP_MASTER = frozenset(("sqlite_temp_master", "sqlite_temp_schema"))
cdef object _Table = None  # schema.Table and attach.ROOT_SHIFT, read at the first use
cdef object _ROOT_SHIFT = None


cpdef object plain_table_source(Parse p, item, bint lone):
    """The Source of the FROM item ``item`` when it is the commonest kind, a table of the
    main (or temp) database named without a schema, outside any WITH and any view or
    trigger body, without INDEXED BY (select.build_from's and _source_for's fast path;
    _source_for makes every other kind); else None, found before its cursor is allocated.
    With ``lone`` (a FROM clause of that one item, select.build_from) a name that is a
    view's is None too."""
    global _Table, _ROOT_SHIFT
    if type(item) is not T_TableRef or slot(item, F_TR_SCHEMA) is not None \
            or slot(item, F_TR_INDEXED_BY) is not None:
        return None
    if p.ctes or p.body_db is not None:
        return None
    name = slot(item, F_TR_NAME)
    if _Table is None:
        from sqlengine.schema import Table
        from sqlengine.compiler.attach import ROOT_SHIFT
        _Table, _ROOT_SHIFT = Table, ROOT_SHIFT
    schema = p.schema
    tables = schema.tables
    # the map's keys are lower-case: a name written so finds its table as written, and is
    # its own lower case (most are; the others are lowered first)
    t = dict.get(tables, name) if isinstance(tables, dict) else None
    lname = name if type(t) is _Table else name.lower()
    if len(lname) == 18 and lname in _TEMP_MASTER:  # (both names have 18 characters)
        return None
    cdef dict views
    if lone:
        views = schema.views
        if lname in views:
            return None
    if type(t) is not _Table:  # (none, or a placeholder the map builds when read)
        t = tables.get(lname)
        if t is None:
            return None
    root = t.root
    if root and root >> _ROOT_SHIFT:  # (a table of an attached database)
        return None
    cur = p.b.alloc_cursor()
    alias = slot(item, F_TR_ALIAS)
    src = _table_source(alias or name, cur, t)
    flat_names = p.flat_names
    if flat_names:
        flat = flat_names.get(id(item))
        if flat is not None:  # the table of a flattened view or subquery
            p.eqp_names[cur] = flat
    return src


cdef object T_Join = A.Join
cdef Py_ssize_t F_JOIN_KIND = slot_offset(A.Join, "kind")
cdef Py_ssize_t F_JOIN_NATURAL = slot_offset(A.Join, "natural")
cdef Py_ssize_t F_JOIN_ON = slot_offset(A.Join, "on")
cdef Py_ssize_t F_JOIN_USING = slot_offset(A.Join, "using")


cpdef Py_ssize_t plain_items(Parse p, list items, Scope scope, list sources,
                             list extra) except -1:
    """How many of the FROM ``items`` ([(item, Join or None)] in FROM order, no RIGHT or
    FULL JOIN among them), from the first, are tables ``plain_table_source`` makes (no
    view) brought by a comma, INNER or CROSS JOIN without NATURAL or USING; their Sources
    are appended to ``sources`` (``scope.sources``) and their ON terms to ``extra``, as
    select.build_from's loop would, which goes on from the first other item."""
    cdef Py_ssize_t k = 0
    for pair in items:
        item = (<tuple>pair)[0]
        join = (<tuple>pair)[1]
        if join is not None:
            if type(join) is not T_Join:
                break
            kind = slot(join, F_JOIN_KIND)
            if not (kind == "," or kind == "INNER" or kind == "CROSS") \
                    or slot(join, F_JOIN_NATURAL) or slot(join, F_JOIN_USING):
                break
        found = plain_table_source(p, item, True)
        if found is None:
            break
        sources.append(found)  # (its ltorj, nullable, left and right: False, as made)
        scope.sources = sources
        if join is not None:
            on = slot(join, F_JOIN_ON)
            if on is not None:
                extra.append(on)
        k += 1
    return k
