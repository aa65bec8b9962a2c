"""The WHERE loop: nested loops over the FROM items, each reading its rows the way the
planner chose, testing every term at the outermost level where it can be tested, with
SQLite's LEFT JOIN handling (a match flag per level and a NULL row when nothing matched).

``where_begin(p, scope, where, left_on, extra_terms=(), core=None, order_by=None,
limit=None, open_cursors=True, minmax=False, group=False, distinct=None)`` opens the cursors and loops
over ``scope.sources`` and returns a ``WhereInfo``; the caller emits the body;
``where_end(p, info)`` closes the loops. ``where`` is the WHERE expression (or None),
``left_on`` maps a level to the ON expression of its LEFT JOIN; ``core`` (the SELECT being
coded, when there is one) tells which columns the statement reads, so that a covering index
can be preferred; ``order_by`` ([(expr, desc, nulls_first, collation)]) lets the plan weigh
a sort against an index that delivers the rows in order, and ``limit`` (a constant LIMIT,
or None) prices that sort as a top-N one. ``open_cursors=False``: the sources' table
cursors are open already (a one-pass DELETE or UPDATE loops over its write cursor).
``minmax`` marks the loops of a query whose one aggregate is min() or max(), which
sqlite3's plan calls searches (its WHERE_ORDERBY_MIN/MAX) even where they read every row.
``group``: ``order_by`` is a GROUP BY, whose terms any direction serves (SQLite's
WHERE_GROUPBY); 2: one whose ORDER BY is the same terms, in the directions ``order_by``
gives (WHERE_SORTBYGROUP: ``WhereInfo.sorted`` tells whether the loops give that order).
``distinct`` (as ``order_by``, all ascending): the result columns of a SELECT DISTINCT
that is no aggregate query; without ``order_by`` the plan weighs delivering equal rows
together (WHERE_DISTINCTBY), and ``WhereInfo.distinct`` tells what the loops do for it.

Each level is coded from the planner's ``Access``: a full scan, a rowid lookup or range, an
index seek on an equality prefix with an optional range (one loop per ``IN (list)`` among
the equalities), or an automatic index built once (SQLite's constructAutomaticIndex: the
rows passing the terms that read that table alone, a partial index, each entry the key,
then the table's columns, then the rowid); a FROM subquery run as a co-routine
(resolve.CoroutineSource) is started at its loop and each row taken with Yield, the
body's reads of its columns turned into copies of the registers it yields them in. The
terms a lookup enforces are not tested again (SQLite's disableTerm). Once the body is
coded, ``where_end`` drops the table lookup of an index loop whose every read of the table
the index answers (a covering index), checking the whole program so far, and keeps in an
automatic index the columns its loop reads, which then reads them there (SQLite's are
always covering).

The loops are coded once per statement of the corpus, so the code is compiled: it is in
``_where.pyx``, which this module re-exports with the cursor-opening helpers other
statements use. This module never decides what the body does, nor the plan.
"""

from __future__ import annotations

from sqlengine.compiler._levels import Level, WhereInfo  # noqa: F401  (re-exported)
from sqlengine.compiler._where import (  # noqa: F401  (the compiled core; re-exported)
    MAX_JOIN_TABLES, index_key_info, open_source_cursor, table_p4, where_begin, where_end)
