"""EXPLAIN QUERY PLAN: a description of how a compiled program reads each table
(``SCAN t`` / ``SEARCH t USING INDEX i (a=?)`` / ``SEARCH t USING INTEGER PRIMARY KEY
(rowid=?)``), in sqlite3's words. The WHERE loop code leaves one marker (a Noop whose P4 is
the line) per loop it opens; a program without markers is described from its open and
seek instructions. It never runs the program.
"""

from __future__ import annotations

from sqlengine.vdbe import opcodes as O


def query_plan(db, stmt):
    prog = stmt.prog
    from sqlengine.compiler.where import EQP_PREFIX
    rows = []
    n = len(EQP_PREFIX)
    for i in range(len(prog)):
        if prog.opcodes[i] == O.OP_Noop:
            p4 = prog.p4[i]
            if type(p4) is str and p4.startswith(EQP_PREFIX):
                rows.append((len(rows) + 2, 0, 0, p4[n:]))
    if rows:
        return rows
    return _from_seeks(db, prog)


def _from_seeks(db, prog):
    roots = {}
    for t in db.schema.tables.values():
        roots[t.root] = ("table", t.name)
        for i in t.indexes:
            roots[i.root] = ("index", i.name, t.name)
    cur_kind = {}
    order = []
    for i in range(len(prog)):
        if prog.opcodes[i] == O.OP_OpenRead:
            k = roots.get(prog.p2[i])
            if k is not None:
                cur_kind[prog.p1[i]] = k
    by_table: dict = {}
    for i in range(len(prog)):
        op = prog.opcodes[i]
        c = prog.p1[i]
        k = cur_kind.get(c)
        if k is None:
            continue
        if op in (O.OP_SeekGE, O.OP_SeekGT, O.OP_SeekLE, O.OP_SeekLT, O.OP_Rewind,
                  O.OP_SeekRowid):
            if k[0] == "index":
                key = (k[2], c)
                if key not in by_table:
                    order.append(key)
                by_table[key] = f"SEARCH {k[2]} USING INDEX {k[1]}"
                continue
            key = (k[1], c)
            if op == O.OP_SeekRowid and i > 0 and prog.opcodes[i - 1] == O.OP_IdxRowid:
                continue  # positioned by an index lookup: reported with the index
            if key in by_table:
                continue
            order.append(key)
            by_table[key] = (f"SCAN {k[1]}" if op == O.OP_Rewind else
                             f"SEARCH {k[1]} USING INTEGER PRIMARY KEY (rowid=?)")
    rows = []
    seen_tables = set()
    for key in order:
        name = key[0]
        if name in seen_tables and by_table[key].startswith("SCAN"):
            continue
        seen_tables.add(name)
        rows.append((len(rows) + 2, 0, 0, by_table[key]))
    return rows
