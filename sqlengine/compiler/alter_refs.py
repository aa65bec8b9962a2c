"""RENAME COLUMN in a view or a trigger, driven by name resolution: the source offsets of
the identifiers of a view's SELECT (or a trigger's WHEN clause and steps) that resolve to
the renamed column of the renamed table, as SQLite's renameColumnFunc collects them
(``select t.a, u.a from t, u`` renames ``t.a`` alone).

The resolving here is SQLite's for the shapes it covers: each SELECT core's FROM items
(tables, views, FROM subqueries) form a scope, an unqualified name is looked up from the
innermost scope outwards, a qualified one by the item's alias or name.
A CTE is a FROM item of its own columns (a recursive one without a column list: those of
its first arm); an unqualified name of a NATURAL or USING column is its leftmost table's
(a USING list itself names nothing to rename); json_each, json_tree and the pragma_NAME
functions have their columns (hidden ones included); a view's are its column list's or
its SELECT's result names; a VALUES arm's are column1, column2, ...; a schema-qualified
name (``main.t.a``, ``FROM main.t``) is looked up in that database only.
``view_positions`` and ``trigger_positions`` return None for what they do not cover (a
FROM item that names no table, a view defined through itself); the caller then leaves
the object as it is and its test after the rename reports the error.

In the renamed table's own CREATE TABLE and CREATE INDEX statements (``own_positions``)
the column is named by its definition, the names of its expressions (CHECK, generated
columns, index expressions and WHERE) and column lists, and a REFERENCES to the table
itself; a type, a constraint's, collation's or function's name and another table's
REFERENCES columns keep a name that happens to be the column's.

RENAME TO (``table_positions``) goes by where each token of the table's name stands: a FROM
or JOIN item, the target of INSERT, UPDATE or DELETE, a REFERENCES clause, the ON of an
index or a trigger, a column's qualifier; a column, an alias or a CTE of that name keeps it.

This module only reads the AST and the tokens; it emits no code.
"""

from __future__ import annotations

from sqlengine.compiler.walk import compound_cores, iter_children
from sqlengine.sql import ast as A
from sqlengine.sql import parse_one
from sqlengine.sql.lexer import dequote, next_token, tokens


class _Unsupported(Exception):
    pass


def view_positions(schema, sql, table, old):
    """Offsets into ``sql`` (a CREATE VIEW) of the identifier tokens naming column
    ``old`` of table ``table`` (a schema Table), or None when the view's shape is not
    covered."""
    try:
        stmt = parse_one(sql).stmt
        hits: list[int] = []
        _select(schema, stmt.select, [], table, old.lower(), hits)
    except _Unsupported:
        return None
    return sorted({_name_token(sql, p, n) for p, n in hits} - {None})


def _name_token(sql, pos, dots):
    """The offset of the identifier after ``dots`` dots from ``pos`` (a Column's)."""
    i = pos
    seen = 0
    while i < len(sql):
        kind, end = next_token(sql, i)
        if kind == "DOT":
            seen += 1
        elif kind != "SPACE":
            if seen == dots:
                return i
        i = end
    return None


def _select(schema, sel, outer, table, old, hits, ctes=None):
    if sel.with_ is not None:
        ctes = _with(schema, sel.with_, table, old, hits, ctes)
    cores = compound_cores(sel.body)
    last = None
    chains = []
    for core in cores:
        scope = []
        if type(core) is A.Values:
            last = [scope] + outer
            chains.append(last)
            for row in core.rows:
                for e in row:
                    _expr(schema, e, last, table, old, hits, ctes)
            continue
        if core.from_ is not None:
            _sources(schema, core.from_, scope, table, old, hits, outer, ctes)
        chain = [scope] + outer
        for rc in core.columns:
            if type(rc) is A.ResultColumn:
                _expr(schema, rc.expr, chain, table, old, hits, ctes)
        for e in (core.where, core.having):
            if e is not None:
                _expr(schema, e, chain, table, old, hits, ctes)
        for e in core.group_by or ():
            _expr(schema, e, chain, table, old, hits, ctes)
        for _name, wdef in core.windows or ():
            _expr(schema, wdef, chain, table, old, hits, ctes)
        last = chain
        chains.append(chain)
    if len(cores) == 1:
        aliases = _aliases(cores[0], chains[0][0])
        for term in sel.order_by or ():
            e = _skip_collate(term.expr)
            if type(e) is A.Column and e.table is None and e.name.lower() in aliases:
                continue  # (a result column's alias, SQLite's resolveAsName: not renamed)
            _expr(schema, term, last, table, old, hits, ctes)
    else:
        _compound_order_by(schema, sel.order_by or (), cores, chains, table, old, hits, ctes)
    for e in (sel.limit, sel.offset):
        if e is not None:
            _expr(schema, e, last, table, old, hits, ctes)
    return last[0]  # (the FROM items of the first arm: the last core walked)


def _skip_collate(e):
    while type(e) is A.Collate:
        e = e.expr
    return e


def _compound_order_by(schema, terms, cores, chains, table, old, hits, ctes):
    """The ORDER BY of a compound SELECT, as SQLite's resolveCompoundOrderBy matches it:
    arm by arm from the first, a name that is the arm's alias matches it (nothing to
    rename), a name that resolves to the column one of the arm's result columns reads
    matches that (and is renamed with it); a term no arm matches names nothing. A term
    other than a name is resolved in the first arm."""
    pending = []
    for term in terms:
        if type(_skip_collate(term.expr)) is A.Column:
            pending.append(term)
        else:
            _expr(schema, term, chains[-1], table, old, hits, ctes)
    for core, chain in zip(reversed(cores), reversed(chains)):
        if not pending:
            break
        if type(core) is not A.SelectCore:
            continue
        aliases = _aliases(core, chain[0])
        still = []
        for term in pending:
            e = _skip_collate(term.expr)
            if e.table is None and e.name.lower() in aliases:
                continue
            if _selects(core, chain, e):
                _column(e, chain, old, hits)
            else:
                still.append(term)
        pending = still


def _selects(core, chain, e):
    """Whether name ``e`` resolves (in ``chain``, the core's scopes) to a column one of the
    result columns of ``core`` reads (a ``*`` reads every column of its FROM items)."""
    item = _find(e, chain)
    if item is None or not any(x is item for x in chain[0]) or e.name.lower() not in item[2]:
        return False
    name = e.name.lower()
    for rc in core.columns:
        if type(rc) is A.Star:
            if rc.table is None or rc.table.lower() == item[0]:
                return True
        elif type(rc) is A.ResultColumn:
            x = _skip_collate(rc.expr)
            if type(x) is A.Column and x.name.lower() == name and _find(x, chain) is item:
                return True
    return False


def _aliases(core, scope):
    """The lower-case names an ORDER BY name of SELECT core ``core`` (whose FROM items are
    ``scope``) matches as SQLite's resolveAsName does: its AS names and the names a ``*``
    or ``t.*`` expands to."""
    if type(core) is not A.SelectCore:
        return ()
    out = set()
    for rc in core.columns:
        if type(rc) is A.ResultColumn:
            if rc.alias:
                out.add(rc.alias.lower())
        elif type(rc) is A.Star:
            q = rc.table.lower() if rc.table is not None else None
            for item in scope:
                if q is None or item[0] == q:
                    out |= item[2]
    return out


def _with(schema, with_, table, old, hits, ctes):
    """The CTE names (lower case -> their column names) seen under a WITH clause, its
    bodies resolved on the way: each CTE sees the ones before it (and, WITH RECURSIVE,
    itself)."""
    ctes = dict(ctes or {})
    for cte in with_.ctes:
        cols = {c.lower() for c in cte.columns} if cte.columns else None
        if with_.recursive:
            ctes[cte.name.lower()] = cols if cols is not None else \
                _first_arm_names(schema, cte.select, table, old, ctes)
        scope = _select(schema, cte.select, [], table, old, hits, ctes)
        ctes[cte.name.lower()] = cols if cte.columns else _result_names(cte.select, scope)
    return ctes


def _first_arm_names(schema, sel, table, old, ctes):
    """The result names of the first arm of ``sel`` (a recursive CTE's body, which names
    its columns), resolved on their own (the names found there are found again when the
    whole body is)."""
    first = A.Select(compound_cores(sel.body)[-1], sel.with_)
    return _result_names(first, _select(schema, first, [], table, old, [], ctes))


def _result_names(sel, scope):
    """The lower-case column names of a SELECT (its first arm's, whose FROM items are
    ``scope``), a ``*`` expanded: an alias, a column's name, else the expression's text
    (SQLite's sqlite3ColumnsFromExprList); column1, column2, ... for VALUES."""
    cols = set()
    for core in compound_cores(sel.body)[-1:]:
        if type(core) is A.Values:
            return {f"column{i + 1}" for i in range(len(core.rows[0]))}
        for rc in core.columns:
            if type(rc) is A.Star:
                q = rc.table.lower() if isinstance(rc.table, str) else None
                if rc.table is not None and q is None:
                    raise _Unsupported
                for alias, _is_target, names, _db in scope:
                    if q is None or alias == q:
                        cols |= names
                continue
            if type(rc) is not A.ResultColumn:
                raise _Unsupported
            if rc.alias:
                cols.add(rc.alias.lower())
            elif type(rc.expr) is A.Column:
                cols.add(rc.expr.name.lower())
            elif rc.text:
                cols.add(rc.text.lower())
    return cols


def _sources(schema, item, scope, table, old, hits, outer, ctes=None):
    t = type(item)
    if t is A.Join:
        # (a USING list names no column to rename; an unqualified name of a NATURAL or
        # USING column is the leftmost item's, the first found)
        _sources(schema, item.left, scope, table, old, hits, outer, ctes)
        _sources(schema, item.right, scope, table, old, hits, outer, ctes)
        if item.on is not None:
            _expr(schema, item.on, [scope] + outer, table, old, hits, ctes)
    elif t is A.TableFunctionRef:
        cols = _function_columns(item.name.lower())
        for e in item.args:
            _expr(schema, e, [scope] + outer, table, old, hits, ctes)
        scope.append(((item.alias or item.name).lower(), False, cols, None))
    elif t is A.TableRef and item.schema is None and ctes and item.name.lower() in ctes:
        scope.append(((item.alias or item.name).lower(), False, ctes[item.name.lower()], None))
    elif t is A.TableRef:
        alias = (item.alias or item.name).lower()
        db, tab, view = _lookup(schema, item.schema, item.name.lower())
        if tab is not None:
            cols = {c.name.lower() for c in tab.columns}
            scope.append((alias, tab is table, cols, db))
        elif view is not None:
            scope.append((alias, False, _view_names(schema, view), db))
        elif item.name.lower().startswith("pragma_"):
            scope.append((alias, False, _function_columns(item.name.lower()), None))
        else:
            raise _Unsupported
    elif t is A.SubqueryRef:
        inner = _select(schema, item.select, [], table, old, hits, ctes)
        scope.append(((item.alias or "").lower(), False, _result_names(item.select, inner),
                      None))
    else:
        raise _Unsupported


def _lookup(schema, db, low):
    """(database, table, view) that FROM item ``db.low`` (``db`` None: unqualified) names
    in the merged schema (see compiler/attach.py), the table or the view None."""
    main = getattr(schema, "main", schema)
    if db is None:
        tab = schema.tables.get(low)
        view = schema.views.get(low) if tab is None else None
        obj = tab if tab is not None else view
        if obj is None:
            return None, None, None
        if main.tables.get(low) is obj or main.views.get(low) is obj:
            return "main", tab, view
        for key, other in (schema.tables if tab is not None else schema.views).items():
            if other is obj and key.endswith("." + low) and key.count(".") == 1:
                return key[:-len(low) - 1], tab, view
        return "main", tab, view
    db = db.lower()
    if db == "main":
        return "main", main.tables.get(low), main.views.get(low)
    key = f"{db}.{low}"
    return db, schema.tables.get(key), schema.views.get(key)


_VIEWS_SEEN: list = []  # (the views whose names are being read: a cycle is not covered)


def _view_names(schema, view):
    """The lower-case column names of ``view``: its column list's, else its SELECT's."""
    if view.columns:
        return {c.lower() for c in view.columns}
    if any(v is view for v in _VIEWS_SEEN):
        raise _Unsupported
    _VIEWS_SEEN.append(view)
    try:
        return _result_names(view.select, _select(schema, view.select, [], None, "", []))
    finally:
        _VIEWS_SEEN.pop()


def _function_columns(low):
    """The column names (hidden ones included) of table-valued function ``low``."""
    if low in ("json_each", "json_tree"):
        from sqlengine.vdbe.func_json import JSON_EACH_COLUMNS
        return frozenset(JSON_EACH_COLUMNS)
    from sqlengine.compiler.pragma import function_columns
    cols = function_columns(low[7:]) if low.startswith("pragma_") else None
    if cols is None:
        raise _Unsupported
    return frozenset(cols)


def _expr(schema, e, chain, table, old, hits, ctes=None):
    t = type(e)
    if t is A.Column:
        _column(e, chain, old, hits)
        return
    if t is A.Select:
        _select(schema, e, chain, table, old, hits, ctes)
        return
    for c in iter_children(e):
        _expr(schema, c, chain, table, old, hits, ctes)


def _column(e, chain, old, hits):
    item = _find(e, chain)
    if item is not None and item[1] and e.name.lower() == old:
        hits.append((e.pos, 0 if e.table is None else 1 if e.schema is None else 2))


def _find(e, chain):
    """The FROM item (a scope entry) column name ``e`` resolves to in ``chain``: a
    qualified one's by its alias (and database), an unqualified one's the first of the
    innermost scope that has the column; None."""
    if e.table is not None:
        q = e.table.lower()
        db = e.schema.lower() if e.schema is not None else None
        for scope in chain:
            for item in scope:
                if item[0] == q and (db is None or db == item[3]):
                    return item
        return None
    name = e.name.lower()
    for scope in chain:
        for item in scope:
            if name in item[2]:
                return item
    return None


# ---- triggers ---------------------------------------------------------------------------

_NAME_END = frozenset(("COMMA", "SEMI", "WHERE", "FROM", "RETURNING", "ORDER", "LIMIT", "ON"))


def trigger_positions(schema, sql, table, old):
    """Offsets into ``sql`` (a CREATE TRIGGER) of the identifier tokens naming column
    ``old`` of table ``table``, as SQLite's renameResolveTrigger finds them: NEW.x and
    OLD.x and the UPDATE OF list when the trigger is on ``table``; in each step, the names
    that resolve to the column (an unqualified one to the step's target first) and, when
    the step's target is ``table``, its INSERT column list, its SET columns and those of
    an upsert's DO UPDATE (``excluded.x`` too). None when the trigger's shape is not
    covered."""
    try:
        stmt = parse_one(sql).stmt
        toks = tokens(sql)
        hits: list[tuple[int, int]] = []
        names: list[int] = []
        on = schema.table(stmt.table)
        mine = on is table
        # NEW and OLD: only qualified names reach them (no columns for a bare name)
        pseudo = [("new", mine, frozenset(), None), ("old", mine, frozenset(), None)]
        if mine and stmt.update_columns:
            k = _token_at(toks, stmt.pos)
            while toks[k][0] != "OF":
                k += 1
            names += _name_list(sql, toks, k + 1, old)
        if stmt.when is not None:
            _expr(schema, stmt.when, [pseudo], table, old, hits)
        for step in stmt.body:
            _step(schema, sql, toks, step, pseudo, table, old, hits, names)
    except _Unsupported:
        return None
    return sorted({_name_token(sql, p, n) for p, n in hits} - {None} | set(names))


def _step(schema, sql, toks, step, pseudo, table, old, hits, names):
    t = type(step)
    if t is A.Select:
        _select(schema, step, [pseudo], table, old, hits)
        return
    if getattr(step, "with_", None) is not None or getattr(step, "returning", None) or \
            getattr(step, "order_by", None) or getattr(step, "limit", None) is not None:
        raise _Unsupported
    scope: list = []
    if t is A.Insert:
        ref = A.TableRef(step.table, step.schema, step.alias)
        _sources(schema, ref, scope, table, old, hits, [pseudo])
        mine = scope[0][1]
        k = _token_at(toks, step.pos)
        if mine and step.columns:
            while toks[k][0] != "INTO":
                k += 1
            k += 2  # (the table's name)
            if toks[k][0] == "DOT":
                k += 2
            if toks[k][0] == "AS":
                k += 2
            names += _name_list(sql, toks, k + 1, old)
        src = step.source
        if src is not None:
            if type(src.body) is A.Values:
                if src.order_by or src.limit is not None or src.with_ is not None:
                    raise _Unsupported
                for row in src.body.rows:
                    for e in row:
                        _expr(schema, e, [pseudo], table, old, hits)
            else:
                _select(schema, src, [pseudo], table, old, hits)
        chain = [scope, pseudo]
        for u in step.upserts:
            for ic in u.target or ():
                _expr(schema, ic.expr, chain, table, old, hits)
            if u.target_where is not None:
                _expr(schema, u.target_where, chain, table, old, hits)
            if u.sets is None:
                continue
            excluded = [("excluded", mine, frozenset(), None)] + scope
            for s in u.sets:
                _expr(schema, s.expr, [excluded, pseudo], table, old, hits)
            if u.where is not None:
                _expr(schema, u.where, [excluded, pseudo], table, old, hits)
            if mine:
                while not (toks[k][0] == "SET" and toks[k - 1][0] == "UPDATE"
                           and toks[k - 2][0] == "DO"):
                    k += 1
                names += _set_names(sql, toks, k + 1, old)
                k += 1
        return
    _sources(schema, step.table, scope, table, old, hits, [pseudo])
    mine = scope[0][1]
    if t is A.Update:
        if step.from_ is not None:
            _sources(schema, step.from_, scope, table, old, hits, [pseudo])
        for s in step.sets:
            _expr(schema, s.expr, [scope, pseudo], table, old, hits)
        if mine:
            k = _token_at(toks, step.pos)
            while toks[k][0] != "SET":
                k += 1
            names += _set_names(sql, toks, k + 1, old)
    elif t is not A.Delete:
        raise _Unsupported
    if step.where is not None:
        _expr(schema, step.where, [scope, pseudo], table, old, hits)


def _token_at(toks, pos):
    for k, tok in enumerate(toks):
        if tok[1] >= pos:
            return k
    raise _Unsupported


def _is_old(sql, tok, old) -> bool:
    kind, a, e = tok
    text = sql[a:e]
    if kind != "ID" and not text[:1].isalpha():
        return False
    return (dequote(text) if text[:1] in "\"[`" else text).lower() == old


def _name_list(sql, toks, k, old):
    """The offsets of the names equal to ``old`` in the comma-separated list of names
    starting at token ``k`` (ended by the first other token)."""
    out = []
    while k < len(toks):
        if _is_old(sql, toks[k], old):
            out.append(toks[k][1])
        if k + 1 >= len(toks) or toks[k + 1][0] != "COMMA":
            break
        k += 2
    return out


def _set_names(sql, toks, k, old):
    """The offsets of the SET columns equal to ``old`` in the SET list starting at token
    ``k`` (``c = expr`` or ``(c1, c2) = expr`` items)."""
    out = []
    while k < len(toks):
        if toks[k][0] == "LP":
            k += 1
            while toks[k][0] != "RP":
                if _is_old(sql, toks[k], old):
                    out.append(toks[k][1])
                k += 1
        elif _is_old(sql, toks[k], old):
            out.append(toks[k][1])
        k += 2  # (the name or the closing parenthesis, then "=")
        depth = 0
        while k < len(toks):
            kind = toks[k][0]
            if kind == "LP":
                depth += 1
            elif kind == "RP":
                depth -= 1
            elif depth == 0 and kind in _NAME_END:
                break
            k += 1
        if k >= len(toks) or toks[k][0] != "COMMA":
            break
        k += 1
    return out


# ---- the renamed table's own CREATE TABLE and CREATE INDEX -------------------------------

_ITEM_CONSTRAINTS = frozenset(("PRIMARY", "UNIQUE", "CHECK", "FOREIGN"))


def own_positions(sql, table_name, old):
    """Offsets into ``sql`` (the CREATE TABLE of the renamed table, or one of its CREATE
    INDEX statements) of the tokens naming its column ``old``: a column definition's name,
    a name in a CHECK, generated-column or index expression or in a PRIMARY KEY, UNIQUE,
    index or FOREIGN KEY column list, the parent columns of a REFERENCES to the table
    itself; never a type, a constraint's or collation's name, a function's name or
    another table's REFERENCES columns (SQLite's renameColumnFunc)."""
    stmt = parse_one(sql).stmt
    hits: list[tuple[int, int]] = []
    low = old.lower()

    def walk(e):
        if e is None:
            return
        if type(e) is A.Column:
            if e.name.lower() == low:
                hits.append((e.pos, 0 if e.table is None else 1 if e.schema is None else 2))
            return
        for c in iter_children(e):
            walk(c)
    if type(stmt) is A.CreateIndex:
        for ic in stmt.columns:
            walk(ic.expr)
        walk(stmt.where)
        return sorted({_name_token(sql, p, n) for p, n in hits} - {None})
    for cd in stmt.columns:
        for cc in cd.constraints:
            walk(cc.expr)
    for tc in stmt.constraints or ():
        walk(tc.expr)
        for ic in tc.columns or ():
            walk(ic.expr)
    out = {_name_token(sql, p, n) for p, n in hits} - {None}
    return sorted(out | set(_definition_names(sql, table_name, low)))


def _definition_names(sql, table_name, low):
    """The offsets of the tokens naming column ``low`` that no expression holds in a CREATE
    TABLE: each column definition's name, a FOREIGN KEY's own columns and the columns of a
    REFERENCES to the table itself."""
    toks = tokens(sql)
    n = len(toks)
    k = next((i for i, t in enumerate(toks) if t[0] == "LP"), n)
    out = []
    while k < n and toks[k][0] in ("LP", "COMMA"):
        k += 1  # (the first token of a definition)
        j = k + 2 if toks[k][0] == "CONSTRAINT" else k
        if j < n and toks[j][0] not in _ITEM_CONSTRAINTS and _is_old(sql, toks[k], low):
            out.append(toks[k][1])
        depth = 0
        while k < n and not (depth == 0 and toks[k][0] in ("COMMA", "RP")):
            kind = toks[k][0]
            if kind == "LP":
                depth += 1
            elif kind == "RP":
                depth -= 1
            elif kind == "FOREIGN" and k + 2 < n and toks[k + 2][0] == "LP":
                k += 3
                while k < n and toks[k][0] != "RP":
                    if _is_old(sql, toks[k], low):
                        out.append(toks[k][1])
                    k += 1
                k += 1
                continue
            elif kind == "REFERENCES" and k + 2 < n and toks[k + 2][0] == "LP":
                parent = sql[toks[k + 1][1]:toks[k + 1][2]]
                parent = dequote(parent) if parent[:1] in "\"[`'" else parent
                k += 3
                while k < n and toks[k][0] != "RP":
                    if parent.lower() == table_name.lower() and _is_old(sql, toks[k], low):
                        out.append(toks[k][1])
                    k += 1
                k += 1
                continue
            k += 1
    return out


# ---- RENAME TO --------------------------------------------------------------------------

# a table's name follows these (INSERT INTO t, DELETE FROM t, CREATE INDEX i ON t, ...)
_TABLE_AFTER = frozenset(("FROM", "JOIN", "INTO", "TABLE", "REFERENCES", "EXISTS", "UPDATE"))
# these end a FROM clause at their depth
_CLAUSE = frozenset(("WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "WINDOW", "SET", "VALUES",
                     "SELECT", "RETURNING", "SEMI", "UNION", "EXCEPT", "INTERSECT", "BEGIN",
                     "WHEN"))
_OR_ACTIONS = frozenset(("REPLACE", "IGNORE", "ABORT", "FAIL", "ROLLBACK"))


def table_positions(sql, old):
    """Offsets into ``sql`` (any CREATE statement) of the tokens that name table ``old``
    where SQLite's RENAME TO renames it: a table's name in FROM and JOIN items, after
    INTO, UPDATE, DELETE FROM, REFERENCES, CREATE TABLE and the ON of an index or a
    trigger, and a column's qualifier ``old.x`` (unless some FROM item is aliased
    ``old``); never a column, an alias or a function named like it."""
    toks = tokens(sql)
    low = old.lower()
    mine = [k for k in range(len(toks)) if _is_old(sql, toks[k], low)]
    if not mine:
        return []
    states = _from_states(toks)
    cte = next((k for k in mine if _names_cte(toks, k)), len(toks))
    # (after a WITH clause's "old AS (...)", an unqualified old is the CTE)
    table = {k for k in mine if _table_slot(toks, states, k) and
             (k < cte or toks[k - 1][0] == "DOT")}
    aliased = any(toks[k - 1][0] == "AS" and states[k - 1] == "from" or
                  toks[k - 1][0] == "ID" and k - 1 in table
                  for k in mine if k > 0 and k not in table)
    out = set()
    for k in mine:
        if k in table:
            out.add(toks[k][1])
        elif not aliased and k < cte and k + 1 < len(toks) and toks[k + 1][0] == "DOT" and \
                k + 2 < len(toks) and toks[k + 2][0] != "LP":
            out.add(toks[k][1])  # (a qualifier: old.x or main.old.x)
    return sorted(out)


def _from_states(toks):
    """For each token, the state of its parenthesis level before it: "from" inside a FROM
    clause (where a comma or JOIN starts an item), "on" in a join's ON expression, else
    None."""
    stack = [None]
    out = []
    for kind, _a, _e in toks:
        out.append(stack[-1])
        if kind == "LP":
            stack.append(None)
        elif kind == "RP":
            if len(stack) > 1:
                stack.pop()
        elif kind == "FROM":
            stack[-1] = "from"
        elif kind in _CLAUSE:
            stack[-1] = None
        elif kind == "ON" and stack[-1] is not None:
            stack[-1] = "on"
        elif kind in ("JOIN", "COMMA") and stack[-1] == "on":
            stack[-1] = "from"
    return out


def _table_slot(toks, states, k):
    """Whether token ``k`` stands where a table's name does."""
    j = k - 1
    if j >= 1 and toks[j][0] == "DOT":
        j -= 2  # (schema.table)
    if j < 0:
        return False
    kind = toks[j][0]
    if kind in _TABLE_AFTER:
        return True
    if kind == "COMMA":
        return states[j] is not None
    if kind == "ON":
        return states[j] is None  # (a trigger's or an index's, not a join's)
    if kind in _OR_ACTIONS:
        return j >= 2 and toks[j - 1][0] == "OR" and toks[j - 2][0] == "UPDATE"
    return False


def _names_cte(toks, k):
    """Whether token ``k`` is the name of a common table expression: ``name AS (``,
    ``name AS [NOT] MATERIALIZED (`` or ``name(columns) AS (``."""
    j = k + 1
    if j < len(toks) and toks[j][0] == "LP":
        while j < len(toks) and toks[j][0] != "RP":
            j += 1
        j += 1
    return j + 1 < len(toks) and toks[j][0] == "AS" and \
        toks[j + 1][0] in ("LP", "MATERIALIZED", "NOT")
