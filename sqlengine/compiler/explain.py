"""EXPLAIN QUERY PLAN: a description of how a compiled program reads each table
(``SCAN t`` / ``SEARCH t USING INDEX i (a=?)`` / ``SEARCH t USING INTEGER PRIMARY KEY``),
read back from the program's open and seek instructions. It never runs the program.
"""

from __future__ import annotations

from sqlengine.vdbe import opcodes as O


def query_plan(db, stmt):
    prog = stmt.prog
    rows = []
    roots = {}
    for t in db.schema.tables.values():
        roots[t.root] = ("table", t.name)
        for i in t.indexes:
            roots[i.root] = ("index", i.name, t.name)
    seek_ops = {O.OP_SeekGE, O.OP_SeekGT, O.OP_SeekLE, O.OP_SeekLT, O.OP_SeekRowid}
    cur_kind = {}
    for i in range(len(prog)):
        op = prog.opcodes[i]
        if op == O.OP_OpenRead:
            cur_kind[prog.p1[i]] = roots.get(prog.p2[i])
    seen = set()
    for i in range(len(prog)):
        op = prog.opcodes[i]
        if op in seek_ops or op == O.OP_Rewind:
            k = cur_kind.get(prog.p1[i])
            if k is None or prog.p1[i] in seen:
                continue
            seen.add(prog.p1[i])
            if k[0] == "index":
                rows.append((len(rows) + 2, 0, 0, f"SEARCH {k[2]} USING INDEX {k[1]}"))
            elif op == O.OP_Rewind:
                rows.append((len(rows) + 2, 0, 0, f"SCAN {k[1]}"))
            else:
                rows.append((len(rows) + 2, 0, 0,
                             f"SEARCH {k[1]} USING INTEGER PRIMARY KEY (rowid=?)"))
    return rows
