"""UPSERT: INSERT ... ON CONFLICT (target) [WHERE] DO NOTHING | DO UPDATE SET ... [WHERE].

Before the ordinary constraint checks of each inserted row, the uniqueness constraints
named by the ON CONFLICT clauses (in order; a clause without a target covers them all) are
probed with the proposed row. A conflict on one of them takes that clause's action:
DO NOTHING skips the row; DO UPDATE updates the existing row, with ``excluded.*`` naming
the proposed row and the table's own columns the existing one, going through the usual
UPDATE checks, index maintenance, triggers and RETURNING. Any other conflict is handled
by the statement's normal conflict resolution, as in SQLite.

This module emits code; it never runs it.
"""

from __future__ import annotations

from sqlengine.compiler import insert as _insert  # (which imports this module)
from sqlengine.compiler.attach import source_db
from sqlengine.compiler.expr import code_expr, if_false
from sqlengine.compiler.exprindex import same_expr
from sqlengine.compiler.generated import code_read_row
from sqlengine.compiler.resolve import Scope, Source, table_source
from sqlengine.compiler.fkey import update_keys_required
from sqlengine.compiler.resolve_order import names_error, set_error
from sqlengine.compiler.setrow import set_exprs
from sqlengine.compiler.trigger import code_triggers, has_timing, has_triggers
from sqlengine.errors import OperationalError
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O

EXCLUDED_CURSOR = -2


def _target_columns(table, target):
    cols = []
    for ic in target:
        e = ic.expr
        while isinstance(e, A.Collate):
            e = e.expr
        if not isinstance(e, A.Column) or e.table is not None:
            return None
        i = table.find_column(e.name)
        if i < 0:
            if e.name.lower() in ("rowid", "oid", "_rowid_") and not table.without_rowid:
                i = table.ipk if table.ipk >= 0 else -1
            else:
                raise OperationalError(f"no such column: {e.name}")
        cols.append(i)
    return cols


def _target_index(table, u):
    """The unique index whose columns are, in some order, the target's terms, each term
    with a COLLATE naming that column's collation in the index, and whose WHERE clause,
    if it has one, is the target's (SQLite's sqlite3UpsertAnalyzeTarget), or None."""
    src = Source(table.name, EXCLUDED_CURSOR - 1, [c.name for c in table.columns],
                 [c.affinity for c in table.columns], [c.collation for c in table.columns],
                 [c.type_name for c in table.columns], table=table)
    scope = Scope([src])
    terms = []
    for ic in u.target:
        e = ic.expr
        coll = ic.collation or (e.collation if isinstance(e, A.Collate) else None)
        while isinstance(e, A.Collate):
            e = e.expr
        terms.append((e, coll))
    for idx in table.indexes:
        if not idx.unique or len(idx.columns) != len(terms):
            continue
        if idx.where is not None and (u.target_where is None or not same_expr(
                scope, src, u.target_where, idx.where)):
            continue
        left = list(terms)
        for k, col in enumerate(idx.columns):
            want = idx.exprs[k] if col < -1 else A.Column(table.columns[col].name)
            own = _index_collation(table, idx, k)
            hit = next((t for t in left if (t[1] is None or t[1].lower() == own) and
                        same_expr(scope, src, t[0], want)), None)
            if hit is None:
                break
            left.remove(hit)
        else:
            return idx
    return None


def _index_collation(table, idx, k):
    """The lower-case name of the collation of column ``k`` of index ``idx``."""
    coll = idx.collations[k] if idx.collations and k < len(idx.collations) else None
    if coll is None and idx.exprs is not None and idx.columns[k] < -1:
        e = idx.exprs[k]
        coll = e.collation if isinstance(e, A.Collate) else None
    if coll is None and idx.columns[k] >= 0:
        coll = table.columns[idx.columns[k]].collation
    return (coll or "binary").lower()


def resolve_targets(p, table, upserts):
    """For each clause: the list of constraints it covers, each "rowid" or an Index. Each
    target's terms and WHERE clause are resolved first (SQLite's
    sqlite3UpsertAnalyzeTarget), their first error raised."""
    out = []
    for k, u in enumerate(upserts):
        if u.target is not None:
            _raise_target_error(p, table, u)
        if u.target is None:
            if k != len(upserts) - 1:
                raise OperationalError(
                    "ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint")
            cons = []
            if table.ipk >= 0 or not table.without_rowid:
                cons.append("rowid")
            cons.extend(i for i in table.indexes if i.unique)
            out.append(cons)
            continue
        cols = _target_columns(table, u.target)
        found = None
        if cols is not None and (sorted(cols) == [table.ipk] or cols == [-1]) and \
                not u.target[0].collation and not isinstance(u.target[0].expr, A.Collate) \
                and not table.without_rowid:
            found = "rowid"  # (a term with COLLATE is not the rowid)
        else:
            found = _target_index(table, u)
        if found is None:
            raise OperationalError(_which_clause(k, upserts) + "ON CONFLICT clause does not "
                                   "match any PRIMARY KEY or UNIQUE constraint")
        out.append([found])
    return out


def _which_clause(k, upserts):
    """"" for a lone clause, else the ordinal of clause ``k`` and a space ("2nd "), as
    sqlite3UpsertAnalyzeTarget names the clause that matches no constraint."""
    if len(upserts) == 1:
        return ""
    from sqlengine.compiler.select import _ordinal
    return _ordinal(k + 1) + " "


def _raise_target_error(p, table, u):
    """Raise the first error resolving the conflict target of clause ``u`` (its terms,
    then its WHERE clause) against ``table``, if there is one."""
    src = table_source(table.name, -1, table)
    src.db = source_db(p.db, table)
    terms = [ic.expr for ic in u.target]
    found = names_error(p, Scope([src]), terms + (
        [u.target_where] if u.target_where is not None else []))
    if found is not None:
        raise found


class Upsert:
    def __init__(self, p, table, upserts, tcur, icurs):
        self.p = p
        self.table = table
        self.upserts = upserts
        self.targets = resolve_targets(p, table, upserts)
        self.tcur = tcur
        self.icurs = icurs
        self.multi_write = False  # (a DO UPDATE that failed made the INSERT a multi-write)

    def _resolve_error(self, u, scope):
        """The first error of DO UPDATE ``u``'s SET items, each in turn, then of its WHERE
        clause, as SQLite resolves them, or None. Past its SET items, sqlite3Update began
        its write, one of several when it codes triggers or foreign keys (the INSERT's
        checks then code all): ``multi_write``."""
        table = self.table
        found = set_error(self.p, scope, table, u.sets)
        if found is not None:
            return found
        cols = {c.lower() for s in u.sets for c in s.columns}
        self.multi_write = has_triggers(table, "UPDATE", self.p) or \
            update_keys_required(self.p, table, cols)
        return names_error(self.p, scope, [u.where]) if u.where is not None else None

    def code_checks(self, base, rowid_given, skip_label):
        """Probe the targeted constraints with the row at ``base``; on a conflict take the
        clause's action and continue at ``skip_label``. The rowid is a constraint only
        when the INSERT gives it (``rowid_given``: SQLite's pkChng); a clause that no
        probed constraint leads to is not coded at all, so its errors never show."""
        p = self.p
        b = p.b
        table = self.table
        n = len(table.columns)
        aff = _insert.table_affinity(table)
        if any(a not in "@A" for a in aff):
            b.emit(O.OP_Affinity, base + 1, n, 0, aff)
        done = b.new_label()
        actions = []
        seen = set()
        for u, cons in zip(self.upserts, self.targets):
            action = b.new_label()
            other = b.alloc_reg()
            probed = False
            for c in cons:
                key_id = "rowid" if c == "rowid" else c.name
                if key_id in seen or c == "rowid" and not rowid_given:
                    continue
                seen.add(key_id)
                probed = True
                ok = b.new_label()
                if c == "rowid":
                    b.emit(O.OP_NotExists, self.tcur, ok, base)
                    b.emit(O.OP_SCopy, base, other)
                else:
                    icur = self.icurs[self.table.indexes.index(c)]
                    key = _insert.index_key(p, table, c, base, base)
                    b.emit(O.OP_NoConflict, icur, ok, key, len(c.columns))
                    b.emit(O.OP_IdxRowid, icur, other)
                b.emit(O.OP_Goto, 0, action)
                b.resolve(ok)
            if probed:
                actions.append((u, action, other))
        b.emit(O.OP_Goto, 0, done)
        for u, action, other in actions:
            b.resolve(action)
            if u.sets is None:
                b.emit(O.OP_Goto, 0, skip_label)
            else:
                self._code_update(u, base, other, skip_label)
        b.resolve(done)

    def _code_update(self, u, excluded, rowid_reg, skip_label):
        table = self.table
        tcur = self.tcur
        n = len(table.columns)
        cols = [c.name for c in table.columns]
        affs = [c.affinity for c in table.columns]
        colls = [c.collation for c in table.columns]
        decls = [c.type_name for c in table.columns]

        def make_scope(old):
            # unqualified names are the table's; excluded.* is found one level out
            tsrc = Source(table.name, tcur, cols, affs, colls, decls, table=table)
            xsrc = Source("excluded", EXCLUDED_CURSOR, cols, affs, colls, decls, table=table)
            tsrc.db = source_db(self.p.db, table)
            xsrc.db = ""  # (``main.excluded.x`` names no column)
            xscope = Scope([xsrc])
            scope = Scope([tsrc], outer=xscope)
            for i in range(n):
                ipk = i == table.ipk  # the rowid stands for it
                scope.overrides[(tcur, i)] = old if ipk else old + 1 + i
                xscope.overrides[(EXCLUDED_CURSOR, i)] = excluded if ipk else excluded + 1 + i
            scope.overrides[(tcur, -1)] = old
            xscope.overrides[(EXCLUDED_CURSOR, -1)] = excluded
            return scope

        try:
            assigns = set_assignments(table, u.sets)
            code_update_row(self.p, table, tcur, self.icurs, rowid_reg, assigns,
                            make_scope, u.where, skip_label, "ABORT")
        except OperationalError as err:
            raise self._resolve_error(u, make_scope(0)) or err from None
        self.p.b.emit(O.OP_Goto, 0, skip_label)


def set_assignments(table, sets):
    """{column number (-1 = rowid): expression} of SET clauses (the last one of a column
    wins)."""
    return dict(set_items(table, sets))


def set_items(table, sets):
    """[(column number (-1 = rowid), expression)] of SET clauses, in their order."""
    out = []
    for s in sets:
        out += [(set_target(table, cname), e) for cname, e in zip(s.columns, set_exprs(s))]
    return out


def set_target(table, cname) -> int:
    """The column number (-1 the rowid) a SET clause names ``cname`` of ``table``; raises
    SQLite's error for a missing or generated column."""
    i = table.find_column(cname)
    if i < 0:
        if cname.lower() in ("rowid", "oid", "_rowid_") and not table.without_rowid:
            return -1
        raise OperationalError(f"no such column: {cname}")
    if table.columns[i].generated is not None:
        raise OperationalError(f'cannot UPDATE generated column "{table.columns[i].name}"')
    return i


def code_update_row(p, table, tcur, icurs, rowid_reg, assigns, make_scope, where,
                    skip_label, or_action):
    """Update the row whose rowid is in ``rowid_reg``: ``assigns`` maps a column number
    (-1 rowid) to an expression, evaluated in ``make_scope(old)`` (old = registers of the
    row as it is), or to a register already holding the value. ``where`` false skips the
    row. Checks, index maintenance, triggers and RETURNING as UPDATE does."""
    b = p.b
    n = len(table.columns)
    old = b.alloc_reg(n + 1)
    new = b.alloc_reg(n + 1)
    b.emit(O.OP_SCopy, rowid_reg, old)
    b.emit(O.OP_NotExists, tcur, skip_label, old)
    code_read_row(p, table, tcur, old)
    scope = make_scope(old) if make_scope is not None else None
    if where is not None:
        if_false(p, scope, where, skip_label, True)

    def value(e, target):
        if isinstance(e, int):
            b.emit(O.OP_SCopy, e, target)
        else:
            code_expr(p, scope, e, target)
    names = code_new_row(p, table, assigns, old, new, value)
    code_triggers(p, table, "UPDATE", "BEFORE", new, old, skip_label, names)
    now = code_after_before_triggers(p, table, tcur, assigns, old, new, skip_label)
    keys = _insert.code_write_row(p, table, tcur, icurs, new, or_action, skip_label, old_rowid=old)
    _insert.code_delete_keys(p, table, icurs, now, old)
    same = b.new_label()
    b.emit(O.OP_Eq, old, same, new, None, 0)
    b.emit(O.OP_NotExists, tcur, same, old)
    b.emit(O.OP_Delete, tcur, 0)
    b.resolve(same)
    _insert.code_finish_row(p, table, tcur, icurs, new, keys, old_rowid=old)
    rt = getattr(p, "returning", None)
    if rt is not None:
        rt.emit_row(new)
    code_triggers(p, table, "UPDATE", "AFTER", new, old, skip_label, names)


def begin(p, table, st, tcur, icurs):
    """Upsert handling for an INSERT (None when it has no ON CONFLICT clause)."""
    if not st.upserts:
        return None
    return Upsert(p, table, st.upserts, tcur, icurs)


def code_new_row(p, table, assigns, old, new, value) -> set:
    """The registers of an updated row at ``new`` from the row at ``old``: assigned columns
    (column number, -1 the rowid) coded by ``value(expr, target)``, the others copied, the
    rowid made an integer, generated columns computed early when triggers will read them.
    Returns the lower-case names of the assigned columns (for UPDATE OF triggers)."""
    b = p.b
    for i in range(len(table.columns)):
        if i in assigns:
            value(assigns[i], new if i == table.ipk else new + 1 + i)
        elif i != table.ipk:
            b.emit(O.OP_SCopy, old + 1 + i, new + 1 + i)
    if table.ipk >= 0 and table.ipk in assigns:
        b.emit(O.OP_MustBeInt, new, 0)
    elif -1 in assigns:
        value(assigns[-1], new)
        b.emit(O.OP_MustBeInt, new, 0)
    else:
        b.emit(O.OP_SCopy, old, new)
    if table.triggers:
        _insert._code_generated_early(p, table, new)
    return {table.columns[i].name.lower() for i in assigns if i >= 0}


def code_after_before_triggers(p, table, tcur, assigns, old, new, skip_label):
    """After an UPDATE's BEFORE triggers: the cursor back on the row (``skip_label`` when
    they deleted it), and the columns the UPDATE does not assign read again from it
    (the triggers may have changed them), as SQLite does. Returns the registers of the
    row as it now is (``old`` when no BEFORE trigger ran), whose index entries are the
    ones to replace (SQLite's sqlite3GenerateRowIndexDelete reads them from the cursor):
    a trigger that changed an indexed column left its own entries."""
    if not table.triggers:
        return old
    b = p.b
    b.emit(O.OP_NotExists, tcur, skip_label, old)
    if not has_timing(p, table, "UPDATE", "BEFORE"):
        return old
    now = b.alloc_reg(len(table.columns) + 1)
    b.emit(O.OP_SCopy, old, now)
    code_read_row(p, table, tcur, now)
    for i, c in enumerate(table.columns):
        if i in assigns or i == table.ipk or c.generated is not None:
            continue
        b.emit(O.OP_SCopy, now + 1 + i, new + 1 + i)
    return now
