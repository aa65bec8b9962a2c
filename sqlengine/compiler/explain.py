"""EXPLAIN QUERY PLAN: a description of how a compiled program reads each table
(``SCAN t`` / ``SEARCH t USING INDEX i (a=?)`` / ``SEARCH t USING INTEGER PRIMARY KEY
(rowid=?)``), its subqueries (``SCALAR SUBQUERY 1``, ``LIST SUBQUERY 2``,
``MATERIALIZE (subquery-3)``), compounds and temporary b-trees, in sqlite3's words and
nesting.

When a statement is compiled for EXPLAIN QUERY PLAN (``Parse.eqp``), the code generators
leave one marker per line, where they emit the code the line describes: a Noop whose P1 is the line's id (its own address, as SQLite's OP_Explain),
P2 the id of the line it is nested under (0 at the top) and P4 the text. ``eqp_line``
adds a line under the current parent, ``eqp_open``/``eqp_close`` bracket the code of a
line that has lines under it. Subqueries are numbered as SQLite's parser numbers its
SELECTs (``select_id``). Any other compile leaves no marker (as SQLite emits OP_Explain
only under EXPLAIN QUERY PLAN), and its generators skip building the lines' texts. A
program without markers is described from its open and seek
instructions. This module never runs a program.
"""

from __future__ import annotations

from sqlengine.compiler.walk import iter_children
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O

EQP_PREFIX = "eqp:"


def eqp_line(p, text: str) -> int:
    """A plan line under the current parent; returns its address (to patch its text), or
    -1 when the statement is not compiled for EXPLAIN QUERY PLAN."""
    if not p.eqp:
        return -1
    b = p.b
    addr = b.addr()
    return b.emit(O.OP_Noop, addr, p.eqp_parent, 0, EQP_PREFIX + text)


def eqp_open(p, text: str):
    """A plan line the lines emitted until ``eqp_close(p, token)`` are nested under;
    returns the token (the line's address and the parent to restore)."""
    addr = eqp_line(p, text)
    saved = p.eqp_parent
    p.eqp_parent = addr
    return addr, saved


def eqp_close(p, token) -> None:
    p.eqp_parent = token[1]


def eqp_set(p, addr: int, text: str) -> None:
    """Change the text of the line at ``addr`` (known only once its code is emitted)."""
    if addr < 0:
        return
    p.b.ops[addr][4] = EQP_PREFIX + text


def select_id(p, sel) -> int:
    """The number SQLite's parser gives the SELECT ``sel`` (``SCALAR SUBQUERY n``,
    ``(subquery-n)``): each SELECT core and each VALUES row is numbered when the parser
    has read the whole of it, so in source order, inner ones before the one holding them,
    a compound by its last arm. A SELECT the compiler made up gets the next number."""
    ids = getattr(p, "sel_ids", None)
    if ids is None:
        ids = p.sel_ids = _number_selects(getattr(p, "ast", None))
    arm = sel.body
    while type(arm) is A.Compound:
        arm = arm.right
    n = ids.get(id(arm))
    if n is None:
        n = ids[id(arm)] = ids["next"] = ids["next"] + 1
    return n


def _number_selects(root) -> dict:
    n = _SelectNumbers()
    if root is not None:
        n.visit(root)
    return n.ids


class _SelectNumbers:
    """The walk of ``_number_selects`` (methods, not closures calling each other: those
    would be a reference cycle per statement, freed only by the cyclic collector)."""

    __slots__ = ("ids",)

    def __init__(self):
        self.ids = {"next": 0}

    def number(self, node):
        ids = self.ids
        ids["next"] += 1
        ids[id(node)] = ids["next"]

    def arm(self, node, tail):
        ids = self.ids
        if type(node) is A.Values:
            for row in node.rows:
                for e in row:
                    self.visit(e)
                ids["next"] += 1
            for t in tail:
                self.visit(t)
            ids[id(node)] = ids["next"]
            return
        for c in iter_children(node):
            self.visit(c)
        for t in tail:
            self.visit(t)
        self.number(node)

    def select(self, sel):
        if sel.with_ is not None:
            self.visit(sel.with_)
        arms = []
        body = sel.body
        while type(body) is A.Compound:
            arms.append(body.right)
            body = body.left
        arms.append(body)
        arms.reverse()
        for a in arms[:-1]:
            self.arm(a, ())
        tail = list(sel.order_by or ()) + [x for x in (sel.limit, sel.offset) if x is not None]
        self.arm(arms[-1], tail)

    def visit(self, node):
        if type(node) is A.Select:
            self.select(node)
            return
        for c in iter_children(node):
            self.visit(c)


def query_plan(db, stmt):
    prog = stmt.prog
    rows = []
    n = len(EQP_PREFIX)
    for i in range(len(prog)):
        if prog.opcodes[i] == O.OP_Noop:
            p4 = prog.p4[i]
            if type(p4) is str and p4.startswith(EQP_PREFIX):
                rows.append((prog.p1[i], prog.p2[i], 0, p4[n:]))
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
