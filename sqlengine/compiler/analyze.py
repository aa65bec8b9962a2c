"""ANALYZE: the code that gathers the statistics of ``sqlite_stat1``, as SQLite's analyze.c
does (without STAT4, as the sqlite3 it is compared with).

``ANALYZE``, ``ANALYZE main`` and ``ANALYZE [main.]table-or-index`` make
``sqlite_stat1(tbl,idx,stat)`` when the database has none, remove the rows they replace
(all of them, or those of the table or index named) and write one row per index that holds
entries: ``stat`` is the number of entries, then for each prefix of the key columns the
average number of entries per distinct prefix, rounded up (kept at 1 when it would round
up from at most 1.1), counted in index order with the index's collations and NULL equal
to NULL. A table with no index (or only partial ones) gets its row count with ``idx``
NULL; an empty table or index gets no row; ``sqlite_*`` tables and views get none. The
program then has the connection read the statistics again (SQLite's OP_LoadAnalysis,
``database.load_stats``), which the planner's estimates take from there
(``schema.apply_stats``, ``_loops.TableFacts``).

This module emits code; it never runs it.
"""

from __future__ import annotations

from sqlengine import schema as S
from sqlengine.compiler.ddl import _finish, _insert_schema_row, _open_schema
from sqlengine.compiler.planner import TABLE_ROWS as C_TABLE_ROWS
from sqlengine.compiler.planner import log_est
from sqlengine.compiler.where import index_key_info
from sqlengine.errors import OperationalError
from sqlengine.vdbe import opcodes as O

STAT1 = S.STAT1
STAT1_SQL = "CREATE TABLE sqlite_stat1(tbl,idx,stat)"


def compile_analyze(p, st) -> None:
    """Code for ANALYZE statement ``st``: the targets are found now (SQLite's errors:
    ``no such table: x``, ``unknown database x``), the rows written when it runs."""
    p.write = p.ddl = True
    tables, only, where = _targets(p, st)
    if tables is None:
        return
    cur = _open_stat_table(p, where)
    for table in tables:
        _analyze_table(p, cur, table, only)
    r = p.b.alloc_reg()
    p.b.emit(O.OP_Function, 0, r, r, _load_stats, 0)


def _load_stats(vm, args):
    vm.db.load_stats()


def compile_optimize(p, mask) -> None:
    """PRAGMA optimize with its ``mask`` (SQLite 3.40's: nothing without bit 0x02): ANALYZE
    each table of main whose index keys the planner weighed (``Table.stats_used``) when one
    of its indexes has no statistics, or when it holds 25 times the rows its statistics
    say (by OP_IfSmaller's rough count); with bit 0x01 only list those statements."""
    if not mask & 2:
        return
    b = p.b
    todo = []
    for t in dict.values(p.schema.tables):  # (a table not built yet was never planned)
        if type(t) is S.Table and t.stats_used:
            todo.append(t)
    if not todo:
        return
    todo = hash_order(p, todo)
    if not mask & 1:
        p.write = p.ddl = True
        cur = _open_stat_table(p, None) if p.schema.table(STAT1) is None else None
    for t in todo:
        skip = b.new_label()
        threshold = _reanalyze_threshold(t)
        if threshold:
            r = b.alloc_reg()
            b.emit(O.OP_Function, 0, r, r, _smaller(t.root, threshold), 0)
            b.emit(O.OP_If, r, skip)
        if mask & 1:
            r = b.alloc_reg()
            p.emit_constant(f'ANALYZE "main"."{t.name.replace(chr(34), chr(34) * 2)}"', r)
            b.emit(O.OP_ResultRow, r, 1)
        else:
            if cur is None:
                tcur = _open_stat_table(p, ("tbl", t.name))
            else:
                tcur = cur
            _analyze_table(p, tcur, t, None)
            if tcur is not cur:
                b.emit(O.OP_Close, tcur)
        b.resolve(skip)
    if not mask & 1:
        r = b.alloc_reg()
        b.emit(O.OP_Function, 0, r, r, _load_stats, 0)


def _reanalyze_threshold(table) -> int:
    """The LogEst of the row count from which PRAGMA optimize analyzes ``table`` again:
    0 (always) when an index of it has no statistics, else its count's plus 46 (25x)."""
    st = table.stat
    if st is None:
        return 0
    names = st.indexes
    for ix in table.indexes:
        if ix.name.lower() not in names:
            return 0
    return (C_TABLE_ROWS if st.n_row is None else log_est(st.n_row)) + 46


def _smaller(root, threshold):
    """OP_IfSmaller's test at run time: whether b-tree ``root`` is empty or holds fewer
    rows than LogEst ``threshold`` says."""
    def smaller(vm, args):
        n = vm.db.bt.row_count_est(root)
        return 1 if n == 0 or log_est(n) < threshold else 0
    return smaller


def _targets(p, st):
    """(tables to analyze, the one index or None, (column, value) of the sqlite_stat1
    rows they replace or None for all); (None, None, None) for nothing to do."""
    s = p.schema
    name, schema = st.name, st.schema
    if schema is not None and schema.lower() not in ("main", "temp"):
        raise OperationalError(f"unknown database {schema}")
    if name is None or schema is None and name.lower() == "main":
        return hash_order(p, list(s.tables.values())), None, None
    if schema is None and name.lower() == "temp":
        return None, None, None  # (the temp database is analyzed only when named)
    low = name.lower()
    ix = s.indexes.get(low)
    if ix is not None:
        return [s.tables[ix.table.lower()]], ix, ("idx", ix.name)
    table = s.tables.get(low)
    if table is None:
        view = s.views.get(low)
        if view is not None:
            return [], None, ("tbl", view.name)
        raise OperationalError(f"no such table: {name if schema is None else schema + '.' + name}")
    return [table], None, ("tbl", table.name)


def hash_order(p, tables) -> list:
    """``tables`` in the order SQLite walks its schema's table hash
    (``schema.table_hash_order``), the order its ANALYZE writes their rows in."""
    pos = {}
    for n in S.table_hash_order(getattr(p.db.bt, "main", p.db.bt)):
        pos.setdefault(n.lower(), len(pos))
    return sorted(tables, key=lambda t: pos.get(t.name.lower(), len(pos)))


def _open_stat_table(p, where) -> int:
    """Make sqlite_stat1 when there is none, else delete the rows being replaced; returns
    a write cursor on it (SQLite's openStatTable)."""
    b = p.b
    cur = b.alloc_cursor()
    stat = p.schema.table(STAT1)
    if stat is None:
        scur = _open_schema(p)
        root = b.alloc_reg()
        b.emit(O.OP_CreateBtree, 0, root, 1)
        _insert_schema_row(p, scur, "table", STAT1, STAT1, root, STAT1_SQL)
        _finish(p, 1, None, STAT1)
        b.emit(O.OP_OpenWrite, cur, root, 0, 3, O.OPFLAG_P2ISREG, comment=STAT1)
        return cur
    if where is None:
        b.emit(O.OP_Clear, stat.root, 0)
        b.emit(O.OP_OpenWrite, cur, stat.root, 0, 3, comment=STAT1)
        return cur
    b.emit(O.OP_OpenWrite, cur, stat.root, 0, 3, comment=STAT1)
    _delete_rows(p, cur, *where)
    return cur


def delete_stat_rows(p, col, value) -> None:
    """Code deleting the sqlite_stat1 rows whose ``col`` ("tbl" or "idx") is ``value``,
    when the database has the table (DROP TABLE and DROP INDEX: SQLite's
    sqlite3ClearStatTables)."""
    stat = p.schema.table(STAT1)
    if stat is None:
        return
    cur = p.b.alloc_cursor()
    p.b.emit(O.OP_OpenWrite, cur, stat.root, 0, 3, comment=STAT1)
    _delete_rows(p, cur, col, value)
    p.b.emit(O.OP_Close, cur)


def _delete_rows(p, cur, col, value) -> None:
    """``DELETE FROM sqlite_stat1 WHERE col = value`` over the write cursor ``cur``."""
    b = p.b
    v = b.alloc_reg()
    r = b.alloc_reg()
    p.emit_constant(value, v)
    done = b.new_label()
    b.emit(O.OP_Rewind, cur, done)
    top = b.addr()
    nxt = b.new_label()
    b.emit(O.OP_Column, cur, 0 if col == "tbl" else 1, r)
    b.emit(O.OP_Ne, v, nxt, r, None, O.CMP_JUMPIFNULL)
    b.emit(O.OP_Delete, cur, 0)
    b.resolve(nxt)
    b.emit(O.OP_Next, cur, top)
    b.resolve(done)


def _analyze_table(p, cur, table, only) -> None:
    """The sqlite_stat1 rows of one table (of index ``only`` alone when given): SQLite's
    analyzeOneTable."""
    if table.name.lower().startswith("sqlite_"):
        return  # (no statistics of system tables)
    b = p.b
    row = b.alloc_reg(3)  # tbl, idx, stat: the record written
    p.emit_constant(table.name, row)
    need_count = True
    for ix in reversed(table.indexes):  # (SQLite's list: the newest first)
        if only is not None and ix is not only:
            continue
        if ix.where is None:
            need_count = False
        _analyze_index(p, cur, table, ix, row)
    if only is None and need_count:
        tcur = b.alloc_cursor()
        b.emit(O.OP_OpenRead, tcur, table.root, 0, len(table.columns))
        b.emit(O.OP_Count, tcur, row + 2)
        skip = b.new_label()
        b.emit(O.OP_IfNot, row + 2, skip)
        b.emit(O.OP_Null, 0, row + 1)
        _insert_row(b, cur, row)
        b.resolve(skip)
        b.emit(O.OP_Close, tcur)


def _insert_row(b, cur, row) -> None:
    rec = b.alloc_reg()
    rid = b.alloc_reg()
    b.emit(O.OP_MakeRecord, row, 3, rec, "BBB")
    b.emit(O.OP_NewRowid, cur, rid)
    b.emit(O.OP_Insert, cur, rec, rid)


def _tested_columns(table, ix) -> int:
    """How many leading columns of ``ix`` are compared with the previous entry's (SQLite's
    nColTest): after them every entry is taken as distinct."""
    n_key = len(ix.columns)
    if table.without_rowid and ix.is_pk:
        return n_key - 1
    pk = S.pk_index(table) if table.without_rowid else None
    if ix.unique and all(c >= 0 and (table.columns[c].notnull or pk is not None and
                                     c in pk.columns) for c in ix.columns):
        return n_key - 1  # (uniqNotNull: no two entries share a key)
    n_col = n_key + (len(S.record_tail(table, ix)) if pk is not None else 1)
    return min(n_col - 1, n_key)


def _analyze_index(p, cur, table, ix, row) -> None:
    """Count the entries of ``ix`` and the distinct values of each prefix of its key, in
    index order, and write its row (SQLite's stat_init / stat_push / stat_get loop)."""
    b = p.b
    n_key = len(ix.columns)
    n_test = _tested_columns(table, ix)
    p.emit_constant(table.name if table.without_rowid and ix.is_pk else ix.name, row + 1)
    icur = b.alloc_cursor()
    b.emit(O.OP_OpenRead, icur, ix.root, 0, index_key_info(p, ix, table))
    end = b.new_label()
    b.emit(O.OP_Rewind, icur, end)
    counts = b.alloc_reg(1 + n_key)  # entries, then distinct prefixes of each length
    one = b.alloc_reg()
    b.emit(O.OP_Integer, 1, one)
    for k in range(1 + n_key):
        b.emit(O.OP_Integer, 0, counts + k)
    prev = b.alloc_reg(n_test)
    tmp = b.alloc_reg()
    changed = [b.new_label() for _ in range(n_test)]
    tested = b.new_label()
    b.emit(O.OP_Goto, 0, changed[0] if n_test else tested)  # (the first entry: all new)
    top = b.addr()
    for k in range(n_test):
        coll = ix.collations[k] or (table.columns[ix.columns[k]].collation
                                    if ix.columns[k] >= 0 else None)
        b.emit(O.OP_Column, icur, k, tmp)
        b.emit(O.OP_Ne, tmp, changed[k], prev + k, p.coll_func(coll), O.CMP_NULLEQ)
    b.emit(O.OP_Goto, 0, tested)
    for k in range(n_test):  # the first column that differs, and every one after it
        b.resolve(changed[k])
        b.emit(O.OP_Add, one, counts + 1 + k, counts + 1 + k)
        b.emit(O.OP_Column, icur, k, prev + k)
    b.resolve(tested)
    for k in range(n_test, n_key):
        b.emit(O.OP_Add, one, counts + 1 + k, counts + 1 + k)
    b.emit(O.OP_Add, one, counts, counts)
    b.emit(O.OP_Next, icur, top)
    b.emit(O.OP_Function, 0, counts, row + 2, _stat_text, 1 + n_key)
    _insert_row(b, cur, row)
    b.resolve(end)
    b.emit(O.OP_Close, icur)


def _stat_text(vm, args):
    """The ``stat`` text of an index from its entry count and distinct prefix counts
    (SQLite's stat_get): the count, then per prefix K/D rounded up, 1 when K/D <= 1.1."""
    n = args[0]
    out = [str(n)]
    for d in args[1:]:
        v = (n + d - 1) // d
        if v == 2 and n * 10 <= d * 11:
            v = 1
        out.append(str(v))
    return " ".join(out)
