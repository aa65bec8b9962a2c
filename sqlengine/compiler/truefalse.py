"""TRUE and FALSE written as words: a column where one of that name is visible.

SQLite reads an unquoted TRUE or FALSE as a name (its TK_ID) and makes it the constant 1
or 0 (TK_TRUEFALSE) only when no column of that name answers it (lookupName's last
resort, beside the double-quoted string's). The parser makes the constant, a Literal
with ``word`` set; this module turns such a Literal into a Column where a column
``true`` or ``false`` is visible from its query: a FROM item's (of the query or of an
enclosing one), a DML statement's table (its SET, WHERE and RETURNING, a CHECK
constraint's, a generated column's), and in WHERE, GROUP BY, HAVING and ORDER BY also
the query's result alias of that name (``select 5 as true ... where true``). A FROM
subquery, view or CTE never shows such a column: SQLite names it ``columnN``
(``columns_named``), so only tables do, and the common case costs a few dict lookups.

``x IS [NOT] TRUE/FALSE``, which the parser makes a truth test (a CASE keeping the
comparison in its ``truth``), is that plain IS where the word names a visible column.

A word keeps being the constant, as in SQLite, in a result column that names no such
column, in a DEFAULT, and as an ORDER BY or GROUP BY term it is never a column number.

This module rewrites expressions only (copy on write: the parsed statement is never
changed); it never emits code.
"""

from __future__ import annotations

import dataclasses

from sqlengine.compiler.walk import SUBQUERY_NODES, map_children
from sqlengine.sql import ast as A

WORDS = ("true", "false")


def columns_named(names):
    """The column names of a FROM subquery, view or CTE as SQLite's
    sqlite3ColumnsFromExprList gives them before it makes them unique: one named
    ``true`` or ``false`` (any case) is ``columnN`` instead, N its 1-based position."""
    for i, n in enumerate(names):
        if len(n) in (4, 5) and n.lower() in WORDS:
            names = list(names)
            for j in range(i, len(names)):
                if names[j].lower() in WORDS:
                    names[j] = f"column{j + 1}"
            return names
    return names


def visible(scope) -> tuple:
    """The words of WORDS that name a column of a FROM item seen from ``scope`` (its own
    items and those of the enclosing queries)."""
    out = ()
    s = scope
    while s is not None:
        for src in s.sources:
            cl = src.col_lower
            for w in WORDS:
                if w in cl and w not in out:
                    out += (w,)
        s = s.outer
    return out


def alias_words(aliases, seen) -> tuple:
    """The words of WORDS that are result aliases (``aliases``: lower-case name ->
    expression) and not already in ``seen``."""
    return tuple(w for w in WORDS if w in aliases and w not in seen)


def bind(e, words):
    """``e`` with each TRUE/FALSE word whose name is in ``words`` made a Column of that
    name, outside subqueries (they bind their own when compiled): copy on write."""
    t = type(e)
    if t is A.Literal:
        if e.word and WORDS[0 if e.value else 1] in words:
            return A.Column(WORDS[0 if e.value else 1], pos=e.pos)
        return e
    if t is A.Case and e.truth is not None:
        op, left, right = e.truth
        if WORDS[0 if right.value else 1] in words:  # x IS [NOT] <the column>
            return A.Binary(op, bind(left, words), bind(right, words), e.pos)
    if e is None or t is A.Column or isinstance(e, SUBQUERY_NODES):
        return e
    return map_children(e, lambda x: bind(x, words))


def bind_list(items, words):
    """``bind`` over a list (the list itself when nothing changed)."""
    if not items:
        return items
    out = [bind(x, words) for x in items]
    return items if all(a is b for a, b in zip(out, items)) else out


def table_words(table) -> tuple:
    """The words of WORDS that name a column of the schema table ``table`` (none for a
    view: its columns of those names are columnN)."""
    ci = getattr(table, "col_index", None)
    if not ci:
        return ()
    for w in WORDS:  # (most tables have none: no tuple made then)
        if w in ci:
            return tuple(w for w in WORDS if w in ci)
    return ()


def bind_for_table(e, table):
    """``e`` (a CHECK constraint's or generated column's expression) with its words bound
    to the columns of ``table``."""
    words = table_words(table)
    return bind(e, words) if words else e


def bind_dml(st, table):
    """The UPDATE, DELETE or INSERT ``st`` with the words of its clauses that see the
    columns of its table ``table`` bound to them: SET, WHERE, ORDER BY, RETURNING and
    an upsert's (not an INSERT's rows, nor an UPDATE's FROM items)."""
    words = table_words(table)
    if not words:
        return st
    changes = {}
    for name in ("sets", "where", "returning", "order_by", "upserts"):
        x = getattr(st, name, None)
        if x is None:
            continue
        y = bind_list(x, words) if type(x) is list else bind(x, words)
        if y is not x:
            changes[name] = y
    return dataclasses.replace(st, **changes) if changes else st
