"""A parenthesized join as a FROM item that is not the first one, or has an alias or an
ON/USING clause of its own (``t1 JOIN (t2 JOIN t3 ON ...) ON ...``): SQLite's parser
makes it the subquery ``SELECT * FROM t2 JOIN t3 ON ...`` (flagged SF_NestedFrom, here
``Star.nested``), and that subquery keeps the inner tables' names visible outside it:

- its ``*`` expands every column of every inner table, in FROM order, the right side of
  a USING join too; before the tables left of a USING (or NATURAL) join it puts that
  join's unqualified USING columns (read as an unqualified name reads them: the left
  table's, the right one's for a RIGHT JOIN, coalesce() of both for FULL);
- each column remembers which inner table's column it is (SQLite's ENAME_TAB span
  ``schema.table.column``), so that ``t2.x`` outside names it; an unqualified ``x``
  matches every column of that inner name, a USING column first and alone, any other
  second match being ambiguous unless the outer join merges ``x`` by USING;
- the columns a USING merges (both copies) are left out of the outer query's ``*``
  (COLFLAG_NOEXPAND), not out of ``t2.*``, which takes the columns of inner table t2;
- a table-valued function's HIDDEN columns are not among its columns (SQLite's ``*``
  of the subquery leaves them out);
- an unqualified rowid never names the subquery's (``alias.rowid`` does), and
  ``alias.*`` of an aliased one matches no column (SQLite 3.40 matches ``alias.*``
  against the inner tables' names).

The subquery itself is materialized as any FROM subquery (select.py); this module only
describes its columns and the outer ``*``'s view of them. It emits no code.
"""

from __future__ import annotations

from sqlengine.compiler.resolve import ColRef, ResolvedColumn, check_star_column
from sqlengine.sql import ast as A
from sqlengine.sql.ast import Column, SelectCore


def is_nested(core) -> bool:
    """Whether ``core`` is the ``SELECT *`` a parenthesized join stands for."""
    if type(core) is not SelectCore:
        return False
    cols = core.columns
    return len(cols) == 1 and type(cols[0]) is A.Star and cols[0].nested


def nested_columns(scope):
    """The result columns of a nested ``SELECT *`` over the sources of ``scope``:
    ([(expr, name, decltype)], enames, noexpand, dbs), see the module docstring; ``dbs``:
    the database of each column's inner table (None for a USING column), for
    ``main.t.a``."""
    from sqlengine.compiler.tablefunc import star_hidden
    from sqlengine.errors import OperationalError
    srcs = scope.sources
    if not srcs:
        raise OperationalError("no tables specified")
    twins = len({s.name.lower() for s in srcs}) < len(srcs)
    cols, enames, noexpand, dbs = [], [], set(), []
    for k, s in enumerate(srcs):
        nxt = srcs[k + 1].using_cols if k + 1 < len(srcs) else None
        for lname, uname in (nxt or {}).items():
            noexpand.add(len(cols))  # (a second one of that name: SQLite's bUsingTerm)
            ref = scope.lookup(uname, None)
            decl = ref.source.decltypes[ref.col] if ref is not None and ref.col >= 0 else None
            cols.append((Column(uname), uname, decl))
            enames.append((None, lname))
            dbs.append(None)
        fhid = star_hidden(s)
        for j, cname in enumerate(s.columns):
            if j in fhid:
                continue
            if twins and s.enames is None:
                check_star_column(srcs, s, j)
            lname = cname.lower()
            if ((s.using_cols is not None and lname in s.using_cols)
                    or (nxt is not None and lname in nxt)
                    or (s.noexpand is not None and j in s.noexpand)):
                noexpand.add(len(cols))
            cols.append((ResolvedColumn(ColRef(s, j, scope, 0)), cname, s.decltypes[j]))
            enames.append(s.enames[j] if s.enames is not None else (s.name.lower(), lname))
            dbs.append(s.db[j] if type(s.db) is list else s.db)
    _first_using_only(cols, enames, noexpand)
    return cols, enames, noexpand, dbs


def _first_using_only(cols, enames, noexpand):
    """Of several USING columns of one name, only the first is shown by the outer ``*``
    (the later ones collide with it by name: SQLite marks them COLFLAG_NOEXPAND)."""
    seen = set()
    for i, (t, c) in enumerate(enames):
        if t is None:
            if c in seen:
                noexpand.add(i)
            else:
                noexpand.discard(i)
                seen.add(c)


def set_nested(src, info):
    """Give the Source of a materialized nested subquery its inner names."""
    src.enames, src.noexpand, src.db = info.nested[0], info.nested[1], info.nested[2]


def star_skips(s, j, table) -> bool:
    """Whether the outer ``*`` (``table`` None) or ``table.*`` leaves out column ``j`` of
    the nested source ``s``."""
    if table is None:
        return j in s.noexpand
    return s.enames[j][0] != table.lower()
