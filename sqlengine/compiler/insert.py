"""INSERT and REPLACE, and the row-writing code UPDATE shares: column defaults, affinity,
NOT NULL / CHECK / PRIMARY KEY / UNIQUE constraints with their conflict actions (ABORT,
FAIL, ROLLBACK, IGNORE, REPLACE), index maintenance, INTEGER PRIMARY KEY as the rowid,
and the firing of triggers around each row.

A row being written sits in registers ``base`` (the rowid) and ``base+1 ..`` (the columns),
SQLite's layout for NEW and OLD. The INTEGER PRIMARY KEY column's own register is never
written and stays NULL, as the record stores that column (every read of it takes the
rowid in ``base``), so the record is made from the row's registers in place.

A WITHOUT ROWID table has no rowid: its b-tree is its PRIMARY KEY index (an Index with
``is_pk`` whose root is the table's), so the row is written and deleted as that index's
entry (its record: the key columns, then the other columns), and the "rowid" register of
an existing row holds its row key, the tuple of its PRIMARY KEY values that the VM's
Rowid/IdxRowid give and SeekRowid/NotExists seek by (``base`` is NULL for a new row).
This module emits code; it never runs it.
"""

from __future__ import annotations

from sqlengine.compiler import autoinc, returning, truefalse, upsert
from sqlengine.compiler.cte import bound_object, missing_table, push_with
from sqlengine.compiler.expr import code_expr, if_false, if_true
from sqlengine.compiler.fkey import code_statement_start, key_error
from sqlengine.compiler.generated import code_generated, code_read_row, has_generated, \
    record_registers, table_facts
from sqlengine.compiler.generated import row_scope as _row_scope
from sqlengine.compiler.partial import code_partial_flag, partial_flag
from sqlengine.compiler.resolve import Scope
from sqlengine.compiler.resolve_order import names_error, returning_error, values_error
from sqlengine.compiler.select import TableDest, compile_select, result_info_only
from sqlengine.compiler.walk import SUBQUERY_NODES, find_node
from sqlengine.compiler.strict import code_type_checks
from sqlengine.compiler.trigger import code_triggers, compile_view_insert, has_timing, \
    has_triggers, replace_fires_triggers
from sqlengine.compiler.where import index_key_info, table_p4
from sqlengine.errors import (SQLITE_CONSTRAINT_CHECK, SQLITE_CONSTRAINT_NOTNULL,
    SQLITE_CONSTRAINT_PRIMARYKEY, SQLITE_CONSTRAINT_ROWID, SQLITE_CONSTRAINT_UNIQUE,
    OperationalError)
from sqlengine.schema import record_tail
from sqlengine.sql.ast import Insert, Values
from sqlengine.vdbe.opcodes import (AFF_BLOB, OE_ABORT, OE_IGNORE, OE_REPLACE, ON_CONFLICT,
    OPFLAG_LASTROWID, OPFLAG_NCHANGE, OPFLAG_NESTED, OP_AddChanges, OP_Affinity, OP_Column,
    OP_Delete, OP_Eq, OP_Gosub, OP_Goto, OP_Halt, OP_HaltIfNull, OP_IdxDelete, OP_IdxInsert,
    OP_IdxRowid, OP_IfNot, OP_Insert, OP_Integer, OP_IsNull, OP_MakeRecord, OP_MustBeInt,
    OP_NewRowid, OP_Next, OP_NoConflict, OP_NotExists, OP_NotNull, OP_Null,
    OP_OpenEphemeral, OP_OpenWrite, OP_Return, OP_Rewind, OP_SCopy)


def table_for_write(p, name, schema_name=None):
    if schema_name is not None and schema_name.lower() not in ("main", "temp"):
        raise OperationalError(f"no such table: {schema_name}.{name}")
    t = bound_object(p, name, schema_name)
    if t is None:
        v = bound_object(p, name, schema_name, "views")
        if v is not None:
            return v
        raise missing_table(p, name, schema_name)
    if t.name.lower() == "sqlite_schema" and not p.db.writable_schema:
        raise OperationalError(f"table {name} may not be modified")
    return t


def open_write_cursors(p, table):
    """OpenWrite on the table and every index; returns (table cursor, [index cursors])."""
    b = p.b
    tcur = b.alloc_cursor()
    b.emit(OP_OpenWrite, tcur, table.root, 0, table_p4(p, table), comment=table.name)
    icurs = []
    for idx in table.indexes:
        c = b.alloc_cursor()
        b.emit(OP_OpenWrite, c, idx.root, 0, index_key_info(p, idx, table), comment=idx.name)
        icurs.append(c)
    return tcur, icurs


def table_affinity(table):
    return table_facts(table)[1]


def conflict_action(stmt_action, constraint_action):
    """The action for one constraint: the statement's OR clause wins, then the
    constraint's own ON CONFLICT, then ABORT."""
    if stmt_action:
        return ON_CONFLICT[stmt_action.upper()]
    if constraint_action:  # (as written in the schema: any case)
        return ON_CONFLICT[constraint_action.upper()]
    return OE_ABORT


def _idx_desc(table, idx):
    if idx.exprs is not None:
        return f"index '{idx.name}'"
    return ", ".join(f"{table.name}.{table.columns[c].name}" for c in idx.columns)


def key_len(table, idx):
    """The number of fields of an index record: the key columns then the rowid, or for a
    WITHOUT ROWID table the key columns then the rest of its record (``record_tail``)."""
    if table.without_rowid:
        return len(idx.columns) + len(record_tail(table, idx))
    return len(idx.columns) + 1


def index_key(p, table, idx, base, rowid_reg):
    """Registers holding the index record (``key_len`` fields: the key columns then the
    rowid, or the WITHOUT ROWID tail) of the row at ``base``."""
    b = p.b
    n = len(idx.columns)
    if table.without_rowid:
        tail = [c for c, _coll, _d in record_tail(table, idx)]
    else:
        tail = None
    key = b.alloc_reg(n + (len(tail) if tail is not None else 1))
    for k, col in enumerate(idx.columns):
        if col == table.ipk:
            b.emit(OP_SCopy, rowid_reg, key + k)
        elif col < -1:  # an expression of the row
            code_expr(p, _row_scope(p, table, base), idx.exprs[k], key + k)
        else:
            b.emit(OP_SCopy, base + 1 + col, key + k)
    if tail is None:
        b.emit(OP_SCopy, rowid_reg, key + n)
    else:
        for j, col in enumerate(tail):
            b.emit(OP_SCopy, base + 1 + col, key + n + j)
    return key


def code_delete_keys(p, table, icurs, regs, rowid_reg, only=None):
    """Delete the index entries of the row at ``regs`` (for a WITHOUT ROWID table this
    includes its own key's entry, i.e. the row itself); ``only``: the positions in
    ``table.indexes`` of the indexes to change (None: all)."""
    b = p.b
    for k, (idx, c) in enumerate(zip(table.indexes, icurs)):
        if only is not None and k not in only:
            continue
        key = index_key(p, table, idx, regs, rowid_reg)
        if table.without_rowid and idx.is_pk:
            b.emit(OP_IdxDelete, c, key, len(idx.columns))  # the key is unique
        else:
            b.emit(OP_IdxDelete, c, key, key_len(table, idx))


def _change_flag(p, count):
    """The P5 flag counting a row written or deleted (``count``: not a REPLACE deletion):
    in changes() at the top level, in total_changes only inside a trigger (SQLite adds a
    trigger program's changes to the total when it ends)."""
    if not count:
        return 0
    return OPFLAG_NESTED if p.nested else OPFLAG_NCHANGE


def _code_add_change(p, count):
    if count:
        p.b.emit(OP_AddChanges, 1, 1 if p.nested else 0)


def code_delete_row(p, table, tcur, icurs, rowid_reg, count=False, no_seek=None):
    """Delete the row ``rowid_reg`` (the table cursor must be on it) and its index entries
    (``count``: a row the statement deletes, not one REPLACE removes). ``no_seek``:
    (position in ``table.indexes``, cursor) of an index whose entry for the row is the
    one under that cursor (the loop walks that index): it is deleted there, after the
    row, by Delete instead of IdxDelete's seek (SQLite's iIdxNoSeek). Only the columns the
    other indexes' keys take are read from the row."""
    b = p.b
    if table.indexes:
        n = len(table.columns)
        regs = b.alloc_reg(n + 1)
        b.emit(OP_SCopy, rowid_reg, regs)
        skip = -1 if no_seek is None else no_seek[0]
        code_read_row(p, table, tcur, regs, _key_columns(table, skip))
        only = None if skip < 0 else [k for k in range(len(table.indexes)) if k != skip]
        code_delete_keys(p, table, icurs, regs, rowid_reg, only)
    if table.without_rowid:  # the row went with its key's entry
        _code_add_change(p, count)
        return
    b.emit(OP_Delete, tcur, 0, 0, table.name, _change_flag(p, count))
    if no_seek is not None:
        b.emit(OP_Delete, no_seek[1], 0, 0)


def _code_replace_delete(p, table, tcur, icurs, rowid_reg):
    """Delete the row a REPLACE conflict resolution removes (the table cursor on it). Its
    DELETE triggers fire if and only if recursive_triggers is on (SQLite's
    sqlite3GenerateConstraintChecks: then sqlite3GenerateRowDelete): BEFORE ones with the
    row as OLD, the row sought again (they may have deleted it; a RAISE(IGNORE) keeps
    it), then the AFTER ones; the deletion is not counted by changes() either way."""
    if not replace_fires_triggers(p, table):
        code_delete_row(p, table, tcur, icurs, rowid_reg)
        return
    b = p.b
    old = b.alloc_reg(len(table.columns) + 1)
    b.emit(OP_SCopy, rowid_reg, old)
    code_read_row(p, table, tcur, old)
    done = b.new_label()
    code_triggers(p, table, "DELETE", "BEFORE", None, old, done)
    b.emit(OP_NotExists, tcur, done, rowid_reg)
    code_delete_row(p, table, tcur, icurs, rowid_reg)
    code_triggers(p, table, "DELETE", "AFTER", None, old, done)
    b.resolve(done)


def _key_columns(table, skip):
    """The columns the keys of the table's indexes (but index ``skip``) are made of, as a
    set for code_read_row; None (the whole row) when the table has generated columns or
    an index on an expression."""
    if table.storage is not None:
        return None
    want = set()
    for k, idx in enumerate(table.indexes):
        if k == skip:
            continue
        for c in idx.columns:
            if c < 0:
                return None
            want.add(c)
        if table.without_rowid:
            for c, _coll, _d in record_tail(table, idx):
                want.add(c)
    return want


def code_write_row(p, table, tcur, icurs, base, or_action, skip_label, old_rowid=None,
                   same_rowid=False, only=None):
    """Constraint checks, index maintenance and the table write for the row in ``base``.
    ``old_rowid`` is set for UPDATE (the row being replaced); ``same_rowid`` when the
    UPDATE assigns neither the rowid nor the INTEGER PRIMARY KEY (no rowid check);
    ``only``: the positions in ``table.indexes`` of the indexes the row changes (None:
    all; the others keep their entries and need no check). Returns the index keys (None
    for an index left alone) for code_finish_row."""
    b = p.b
    n = len(table.columns)
    rowid = base
    # affinity
    _t, aff, gen = table_facts(table)
    if aff.lstrip("@A"):  # (some column has an affinity other than none or BLOB)
        b.emit(OP_Affinity, base + 1, n, 0, aff)
    if gen:
        code_generated(p, table, base)
    # NOT NULL
    for i, c in enumerate(table.columns):
        if not c.notnull or i == table.ipk:
            continue
        act = conflict_action(or_action, c.notnull_conflict)
        msg = f"NOT NULL constraint failed: {table.name}.{c.name}"
        if act == OE_IGNORE:
            b.emit(OP_IsNull, base + 1 + i, skip_label)
        elif act == OE_REPLACE and c.default is not None:
            ok = b.new_label()
            b.emit(OP_NotNull, base + 1 + i, ok)
            code_expr(p, None, c.default, base + 1 + i)
            b.emit(OP_Affinity, base + 1 + i, 1, 0, c.affinity)
            b.resolve(ok)
        else:
            if act == OE_REPLACE:
                act = OE_ABORT
            b.emit(OP_HaltIfNull, SQLITE_CONSTRAINT_NOTNULL, act, base + 1 + i, msg)
    code_type_checks(p, table, base)
    # CHECK
    if table.checks and not p.db.ignore_check_constraints:
        scope = _row_scope(p, table, base)
        for name, expr in table.checks:
            ok = b.new_label()
            if_true(p, scope, truefalse.bind_for_table(expr, table), ok, True)
            act = conflict_action(or_action, None)
            if act == OE_IGNORE:
                b.emit(OP_Goto, 0, skip_label)
            else:
                label = name if name else _expr_text(p, expr, table)
                b.emit(OP_Halt, SQLITE_CONSTRAINT_CHECK, act if act != OE_REPLACE else OE_ABORT,
                       0, f"CHECK constraint failed: {label}")
            b.resolve(ok)
    # rowid uniqueness (a WITHOUT ROWID table's key is checked as its index below)
    if not table.without_rowid and (old_rowid is None or table.ipk >= 0) and not same_rowid:
        ok = b.new_label()
        if old_rowid is not None:
            b.emit(OP_Eq, old_rowid, ok, rowid, None, 0)
        act = conflict_action(or_action, table.pk_conflict)
        b.emit(OP_NotExists, tcur, ok, rowid)
        if act == OE_IGNORE:
            b.emit(OP_Goto, 0, skip_label)
        elif act == OE_REPLACE:
            _code_replace_delete(p, table, tcur, icurs, rowid)
        else:
            col = table.columns[table.ipk].name if table.ipk >= 0 else "rowid"
            b.emit(OP_Halt, SQLITE_CONSTRAINT_PRIMARYKEY if table.ipk >= 0 else SQLITE_CONSTRAINT_ROWID,
                   act, 0, f"UNIQUE constraint failed: {table.name}.{col}")
        b.resolve(ok)
    # unique indexes, checked in sqlite3's order (check_order)
    keys = []
    pflags = []
    for k, idx in enumerate(table.indexes):
        if only is not None and k not in only:
            keys.append(None)
            pflags.append(None)
            continue
        key = index_key(p, table, idx, base, rowid)
        keys.append(key)
        pflag = None
        if idx.where is not None:
            pflag = code_partial_flag(p, table, idx, base, key)
        pflags.append(pflag)
    for k in check_order(table):
        idx = table.indexes[k]
        c = icurs[k]
        key = keys[k]
        pflag = pflags[k]
        if not idx.unique or key is None:
            continue
        ncol = len(idx.columns)
        ok = b.new_label()
        if pflag is not None:
            b.emit(OP_IfNot, pflag, ok, 0)
        b.emit(OP_NoConflict, c, ok, key, ncol)
        other = b.alloc_reg()
        b.emit(OP_IdxRowid, c, other)
        if old_rowid is not None:
            b.emit(OP_Eq, old_rowid, ok, other, None, 0)
        act = conflict_action(or_action, idx.conflict)
        if act == OE_IGNORE:
            b.emit(OP_Goto, 0, skip_label)
        elif act == OE_REPLACE:
            b.emit(OP_NotExists, tcur, ok, other)
            _code_replace_delete(p, table, tcur, icurs, other)
        else:
            code = SQLITE_CONSTRAINT_PRIMARYKEY if idx.is_pk else SQLITE_CONSTRAINT_UNIQUE
            b.emit(OP_Halt, code, act, 0, f"UNIQUE constraint failed: {_idx_desc(table, idx)}")
        b.resolve(ok)
    return keys


def check_order(table) -> list:
    """The positions in ``table.indexes`` (creation order) in the order sqlite3 checks
    their constraints: its list of a table's indexes, where each new index goes first,
    except that one whose own conflict action is REPLACE goes after the last of the
    others (sqlite3CreateIndex), so that REPLACE deletions come last."""
    order: list = []
    for k, idx in enumerate(table.indexes):
        if (idx.conflict or "").upper() != "REPLACE" or not order or \
                (table.indexes[order[0]].conflict or "").upper() == "REPLACE":
            order.insert(0, k)
            continue
        j = 0
        while j + 1 < len(order) and \
                (table.indexes[order[j + 1]].conflict or "").upper() != "REPLACE":
            j += 1
        order.insert(j + 1, k)
    return order


def code_finish_row(p, table, tcur, icurs, base, keys, old_rowid=None, count=True):
    """Write the new index entries (of the indexes with a key) and the record."""
    b = p.b
    for idx, c, key in zip(table.indexes, icurs, keys):
        if key is None:
            continue
        pflag = partial_flag(p, key)
        skip = None
        if pflag is not None:
            skip = b.new_label()
            b.emit(OP_IfNot, pflag, skip, 0)
        rec = b.alloc_reg()
        b.emit(OP_MakeRecord, key, key_len(table, idx), rec)
        b.emit(OP_IdxInsert, c, rec)
        if skip is not None:
            b.resolve(skip)
    if table.without_rowid:  # the record went in as its key's entry
        _code_add_change(p, count)
        return
    first, nreg = record_registers(p, table, base)
    rec = b.alloc_reg()
    b.emit(OP_MakeRecord, first, nreg, rec)
    flags = _change_flag(p, count)
    if old_rowid is None and p.nested == 0:
        flags |= OPFLAG_LASTROWID
    b.emit(OP_Insert, tcur, rec, base, table.name, flags)


def _code_generated_early(p, table, base):
    """The generated columns for BEFORE triggers and the upsert: computed from the
    regular columns with their affinity (the write recomputes them)."""
    b = p.b
    aff = "".join(AFF_BLOB if c.generated is not None else c.affinity
                  for c in table.columns)
    if any(a not in "@A" for a in aff):
        b.emit(OP_Affinity, base + 1, len(table.columns), 0, aff)
    code_generated(p, table, base)


def _expr_text(p, expr, table=None):
    text = getattr(expr, "_text", None)
    if text is None and table is not None and table.sql:
        from sqlengine.compiler.pragma import clause_spans
        spans = clause_spans(table.sql, "CHECK")
        k = next((i for i, c in enumerate(table.checks) if c[1] is expr), -1)
        if 0 <= k < len(spans):
            text = spans[k]
    return text or "?"


def _multi_write(table, st, trig, key_given=True) -> bool:
    """SQLite's isMultiWrite of an INSERT (``trig``: the table has an INSERT trigger):
    a source other than one VALUES row (or DEFAULT VALUES), a trigger, or a REPLACE
    conflict action (of the rowid only when ``key_given``: the row names its rowid; its
    deletions come before the later checks). An INSERT that is none of these, without
    RETURNING or upsert, writes one row and nothing can fail after its first write (its
    program needs no statement journal): every constraint check of such a row is coded
    before the index and table writes (code_write_row, then code_finish_row)."""
    src = st.source
    if src is not None and not (isinstance(src.body, Values) and len(src.body.rows) == 1
                                and not src.order_by and src.limit is None):
        return True
    if trig:
        return True
    if (key_given or table.without_rowid) and \
            conflict_action(st.or_action, table.pk_conflict) == OE_REPLACE:
        return True
    for ix in table.indexes:
        if conflict_action(st.or_action, ix.conflict) == OE_REPLACE:
            return True
    return False


# ------------------------------------------------------------------------------------------

def compile_insert(p, st: Insert):
    b = p.b
    code_statement_start(p)  # foreign-key marks are per run of a statement
    if st.with_ is not None:
        push_with(p, st.with_, st)  # visible for the rest of this statement
    table = table_for_write(p, st.table, st.schema)
    st = truefalse.bind_dml(st, table)
    p.write = True
    if getattr(table, "is_view", False):
        return compile_view_insert(p, st, table)
    rt = returning.start(p, table, st.returning)
    ai = autoinc.begin(p, table)
    n = len(table.columns)
    gen = has_generated(table)
    # the column mapping: for each table column, the position in the source row or None
    if st.source is None:
        pos = [None] * n
        rowid_pos = None
        n_src = 0
    elif st.columns is not None:
        pos = [None] * n
        rowid_pos = None
        for j, cname in enumerate(st.columns):
            i = table.find_column(cname)
            if i < 0:
                if cname.lower() in ("rowid", "oid", "_rowid_") and not table.without_rowid:
                    if table.ipk >= 0:
                        pos[table.ipk] = j
                    else:
                        rowid_pos = j
                    continue
                raise OperationalError(f"table {table.name} has no column named {cname}")
            if table.columns[i].generated is not None:
                raise OperationalError(
                    f'cannot INSERT into generated column "{table.columns[i].name}"')
            if pos[i] is None or i == table.ipk:  # SQLite: a column named twice takes
                pos[i] = j                        # its first value, the rowid its last
        n_src = len(st.columns)
    elif gen:
        pos = [None] * n
        rowid_pos = None
        n_src = 0
        for i, c in enumerate(table.columns):
            if c.generated is None:
                pos[i] = n_src
                n_src += 1
    else:
        pos = list(range(n))
        rowid_pos = None
        n_src = n
    trig = has_triggers(table, "INSERT", p)
    if p.nested == 0 and not st.returning and not st.upserts and \
            not _multi_write(table, st, trig):
        p.one_row_write = True
    tcur, icurs = open_write_cursors(p, table)
    try:
        us = upsert.begin(p, table, st, tcur, icurs)
    except OperationalError as err:
        raise _source_error(p, table, st, n_src) or err from None
    base = b.alloc_reg(n + 1)
    skip = b.new_label()
    rowid_given = rowid_pos is not None or table.ipk >= 0 and pos[table.ipk] is not None
    src = st.source
    if src is None or _one_values_row(src):
        # one row: its values are coded straight into the row's registers
        values_scope = Scope([])
        row = [] if src is None else _checked_row(table, st, src.body.rows[0], n_src, p)

        def value(j, target):
            code_expr(p, values_scope, row[j], b.alloc_reg() if target is None else target)
        _code_row_values(p, table, pos, rowid_pos, base, n_src, value)
        _code_insert_row(p, st, table, tcur, icurs, base, rowid_given, gen, us, ai, rt, skip,
                         trig)
        b.resolve(skip)
    else:
        _code_source_rows(p, st, table, tcur, icurs, base, pos, rowid_pos, n_src, gen, us,
                          ai, rt, skip, rowid_given, trig)
    if ai is not None:
        ai.finish()
    if rt is not None:
        rt.finish()
    return None


def _one_values_row(src) -> bool:
    return isinstance(src.body, Values) and len(src.body.rows) == 1 and \
        not src.order_by and src.limit is None


def _checked_row(table, st, row, n_src, p=None):
    """A VALUES row, once its width is checked against the columns it fills (``p``
    given: the only row, whose names SQLite resolves first)."""
    if len(row) != n_src:
        if p is not None:
            found = names_error(p, Scope([]), row)
            if found is not None:
                raise found
        raise _count_error(table, st, len(row), n_src)
    return row


def _count_error(table, st, n, n_src):
    """SQLite's error for an INSERT source of ``n`` values where ``n_src`` are taken."""
    if st.columns is not None:
        return OperationalError(f"{n} values for {n_src} columns")
    return OperationalError(f"table {table.name} has {n_src} columns but "
                            f"{n} values were supplied")


def _source_error(p, table, st, n_src):
    """The first error of the INSERT's source (its names, then its number of values) that
    SQLite reports before it looks at the ON CONFLICT targets, else None."""
    src = st.source
    if src is None:
        return None
    if _one_values_row(src):
        try:
            _checked_row(table, st, src.body.rows[0], n_src, p)
        except OperationalError as found:
            return found
        return names_error(p, Scope([]), src.body.rows[0])
    try:
        n = len(result_info_only(p, src).names)
    except OperationalError as found:
        return found
    return _count_error(table, st, n, n_src) if n != n_src else None


def _code_row_values(p, table, pos, rowid_pos, base, n_src, value):
    """The registers of a new row: ``value(j, target)`` codes the source's value ``j``
    (in the source's order; None as ``target`` for a value no column takes), the rowid
    into ``base`` (NULL when none is given), a column not given gets its default.
    Generated columns and the INTEGER PRIMARY KEY's own register are left alone."""
    b = p.b
    target = [None] * n_src
    for i, j in enumerate(pos):
        if j is not None:
            target[j] = base if i == table.ipk else base + 1 + i
    if rowid_pos is not None:
        target[rowid_pos] = base
    for j in range(n_src):
        value(j, target[j])
    for i, c in enumerate(table.columns):
        if pos[i] is not None or i == table.ipk or c.generated is not None:
            continue
        if c.default is not None:
            code_expr(p, None, c.default, base + 1 + i)
        else:
            b.emit(OP_Null, 0, base + 1 + i)
    if base not in target:
        b.emit(OP_Null, 0, base)


def _code_source_rows(p, st, table, tcur, icurs, base, pos, rowid_pos, n_src, gen, us, ai,
                      rt, skip, rowid_given, trig):
    """Several rows (a VALUES list, a SELECT): each is coded into ``n_src`` source
    registers, then a subroutine inserts it."""
    b = p.b
    src = st.source
    src_regs = b.alloc_reg(max(n_src, 1))
    ret = b.alloc_reg()
    row_sub = b.new_label()
    end = b.new_label()
    if isinstance(src.body, Values) and not src.order_by and src.limit is None and \
            not _values_query(src.body):
        values_scope = Scope([])
        try:
            for row in src.body.rows:
                for j, e in enumerate(_checked_row(table, st, row, n_src)):
                    # an empty scope, not None: a scalar subquery's column affinity is
                    # looked up through it (repro subquery_affinity_in_insert_values)
                    code_expr(p, values_scope, e, src_regs + j)
                b.emit(OP_Gosub, ret, row_sub)
        except OperationalError as err:
            # (SQLite resolves the rows as a compound SELECT, then counts the values)
            raise values_error(p, values_scope, src.body.rows, err) from None
    else:
        # INSERT ... SELECT, or VALUES rows holding a subquery: materialise first (the
        # select may read the target table: SQLite's useTempTable, so a later row's
        # subquery does not see the earlier rows)
        eph = b.alloc_cursor()
        b.emit(OP_OpenEphemeral, eph, n_src)
        info = compile_select(p, src, TableDest(eph))
        if len(info.names) != n_src:
            if st.columns is not None:
                raise OperationalError(f"{len(info.names)} values for {n_src} columns")
            raise OperationalError(f"table {table.name} has {n_src} columns but "
                                   f"{len(info.names)} values were supplied")
        done = b.new_label()
        b.emit(OP_Rewind, eph, done)
        top = b.addr()
        for j in range(n_src):
            b.emit(OP_Column, eph, j, src_regs + j)
        b.emit(OP_Gosub, ret, row_sub)
        b.emit(OP_Next, eph, top)
        b.resolve(done)
    b.emit(OP_Goto, 0, end)
    b.resolve(row_sub)
    def value(j, target):
        if target is not None:
            b.emit(OP_SCopy, src_regs + j, target)
    _code_row_values(p, table, pos, rowid_pos, base, n_src, value)
    _code_insert_row(p, st, table, tcur, icurs, base, rowid_given, gen, us, ai, rt, skip, trig)
    b.resolve(skip)
    b.emit(OP_Return, ret)
    b.resolve(end)


def _values_query(values) -> bool:
    """Whether a VALUES list holds a subquery in one of its rows."""
    return any(find_node(e, _is_query, ()) is not None for row in values.rows for e in row)


def _is_query(e) -> bool:
    return isinstance(e, SUBQUERY_NODES)


def _code_insert_row(p, st, table, tcur, icurs, base, rowid_given, gen, us, ai, rt, skip,
                     trig):
    """The new row at ``base`` (its rowid NULL when it gets a new one; ``rowid_given``:
    the INSERT gives one, by its INTEGER PRIMARY KEY or a rowid name): the rowid, BEFORE
    triggers, the upsert, constraint checks, the writes, RETURNING and AFTER triggers;
    ``skip`` abandons the row; ``trig``: the table has INSERT triggers (else none fires)."""
    b = p.b
    before = trig and not table.without_rowid and has_timing(p, table, "INSERT", "BEFORE")
    if before:
        # a BEFORE trigger sees NEW.rowid -1 where the row gets a new one: SQLite
        # allocates it after the triggers ran (they may insert rows themselves)
        given = b.alloc_reg()
        b.emit(OP_SCopy, base, given)
        known = b.new_label()
        b.emit(OP_NotNull, base, known)
        b.emit(OP_Integer, -1, base)
        b.resolve(known)
        b.emit(OP_MustBeInt, base, 0)
        if gen and (us is not None or table.triggers):
            _code_generated_early(p, table, base)
        code_triggers(p, table, "INSERT", "BEFORE", base, None, skip, or_action=st.or_action)
        b.emit(OP_SCopy, given, base)
    if not table.without_rowid:
        have = b.new_label()
        b.emit(OP_NotNull, base, have)
        if ai is not None:
            ai.check_room(tcur)
        b.emit(OP_NewRowid, tcur, base)
        if ai is not None:
            ai.adjust_new_rowid(base)
        b.resolve(have)
        if rowid_given or before:  # (else the rowid is NewRowid's: an unused integer)
            b.emit(OP_MustBeInt, base, 0)
        if ai is not None:
            ai.note_rowid(base)
    if not before:
        if gen and (us is not None or table.triggers):
            _code_generated_early(p, table, base)
        if trig:
            code_triggers(p, table, "INSERT", "BEFORE", base, None, skip, or_action=st.or_action)
    if us is not None:
        try:
            us.code_checks(base, rowid_given, skip)
        except OperationalError as err:
            # (SQLite codes a DO UPDATE inside the row's checks and goes on: the error of
            # the RETURNING list, resolved later, replaces its error, and so does the
            # INSERT's own foreign-key error, coded after it: its parser keeps the last)
            raise _upsert_error(p, table, st, rt, rowid_given, us.multi_write,
                                trig) or err from None
    keys = code_write_row(p, table, tcur, icurs, base, st.or_action, skip,
                          same_rowid=not rowid_given)
    code_finish_row(p, table, tcur, icurs, base, keys)
    if rt is not None:
        rt.emit_row(base)
    if trig:
        code_triggers(p, table, "INSERT", "AFTER", base, None, skip, or_action=st.or_action,
                      single_row=rt is None and not _multi_write(table, st, any(
                          tr.event == "INSERT" for tr in table.triggers), rowid_given))


def _upsert_error(p, table, st, rt, rowid_given, multi, trig):
    """The error that replaces a DO UPDATE's: the RETURNING list's, else (with INSERT
    triggers or foreign keys, ``trig``) the INSERT's foreign keys' (_key_error_after_upsert);
    None when there is none."""
    found = returning_error(p, table, st.returning) if rt is not None else None
    if found is None and trig:
        found = _key_error_after_upsert(p, table, st, rt, rowid_given, multi)
    return found


def _key_error_after_upsert(p, table, st, rt, rowid_given, multi):
    """The error the foreign keys of the INSERT ``st`` (with RETURNING ``rt``) raise when
    coded (code_triggers' AFTER INSERT look-ups), else None; ``multi``: its DO UPDATE
    made it a multi-write."""
    if not getattr(p.db, "foreign_keys", 0) or getattr(p, "no_user_triggers", False):
        return None
    single = rt is None and p.nested == 0 and not multi and not _multi_write(
        table, st, any(tr.event == "INSERT" for tr in table.triggers), rowid_given)
    msg = key_error(p, table, "INSERT", None, single)
    return OperationalError(msg) if msg is not None else None


__all__ = ["compile_insert", "code_write_row", "code_finish_row", "code_delete_row",
           "open_write_cursors", "table_for_write", "if_false"]
