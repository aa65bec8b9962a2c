"""When a SELECT's ORDER BY asks for the order its GROUP BY already makes (SQLite's
orderByGrp in sqlite3Select): the ORDER BY has as many terms as the GROUP BY, each the
same expression (sqlite3ExprCompare: columns by what they resolve to, an explicit COLLATE
only against the same one) with its NULLs where its direction puts them. The GROUP BY's
sorter then sorts in the ORDER BY's directions, or the loops deliver the groups in them
(WHERE_SORTBYGROUP), and the ORDER BY needs no sorter of its own.

A SELECT DISTINCT that is no aggregate query and whose ORDER BY is its result columns, in
order and ascending, runs as SQLite runs it: as a GROUP BY of those columns (one sorter or
index then serves both; its plan line says DISTINCT).

This module only compares the resolved terms; it emits no code (``_codegen.code_aggregate``
sorts the groups, ``select._compile_core`` drops the ORDER BY sorter).
"""

from __future__ import annotations

from sqlengine.compiler.walk import expr_key
from sqlengine.sql.ast import Collate


def _strip(e):
    """(``e`` without its COLLATE operators, the outermost one's name in lower case or
    None)."""
    name = None
    while type(e) is Collate:
        if name is None:
            name = e.collation.lower()
        e = e.expr
    return e, name


def _same(a, b, key_of) -> bool:
    """Whether sqlite3ExprCompare finds ``a`` and ``b`` the same (an explicit COLLATE
    counts, its name in any case)."""
    a, ca = _strip(a)
    b, cb = _strip(b)
    if ca != cb:
        return False
    k = expr_key(a, key_of)
    return k is not None and k == expr_key(b, key_of)


def _term_is(term, o, e, result_exprs, key_of) -> bool:
    """Whether the ORDER BY term ``term`` (resolved as ``o``, select._resolve_order_by's
    tuple) is the expression ``e``: a term naming a result column is that column's
    expression, under the term's own COLLATE if it has one (as SQLite's resolveAlias
    keeps it)."""
    x = result_exprs[o[1]] if o[1] is not None else o[0]
    coll = _strip(term.expr)[1]
    return _same(Collate(x, coll) if coll is not None else x, e, key_of)


def order_is_group(order_by, obt, group_by, result_exprs, key_of):
    """The directions (True: DESC) of an ORDER BY that is the GROUP BY ``group_by``'s
    terms in order (``order_by`` the AST terms, ``obt`` as select._resolve_order_by
    resolves them, ``key_of`` select.column_key's function), or None when it is not."""
    if len(obt) != len(group_by):
        return None
    out = []
    for term, o, g in zip(order_by, obt, group_by):
        desc = bool(o[2])
        if o[3] != (not desc):  # NULLS LAST ascending, NULLS FIRST descending
            return None
        if not _term_is(term, o, g, result_exprs, key_of):
            return None
        out.append(desc)
    return out


def distinct_is_group(order_by, obt, result_exprs, key_of) -> bool:
    """Whether a SELECT DISTINCT's ORDER BY is its result columns in order, all
    ascending with NULLs first (SQLite then makes the DISTINCT a GROUP BY of them)."""
    dirs = order_is_group(order_by, obt, result_exprs, result_exprs, key_of)
    return dirs is not None and not any(dirs)
