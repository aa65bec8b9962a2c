"""Value subtypes at the edges of a program and of a FROM subquery.

SQLite's JSON functions mark their text results with a subtype that only other functions
see; the application gets plain TEXT. Here such values are ``func_json.JsonText`` objects
(a ``str`` subclass). ``mark_result_rows`` flags (P5=1) every ``ResultRow`` of a program
that calls a JSON function, so that the VM hands those rows out as plain ``str``; programs
without JSON functions keep the unconverted fast path.

A value read out of a FROM subquery, view or CTE loses its subtype in SQLite 3.40 in most
cases (``subquery_clears`` says which columns); the rows written to the subquery's
ephemeral table then go through ``OP_ClrSubtype``.

This module edits or plans the emitted instructions of one program; it never runs code.
"""

from __future__ import annotations

from sqlengine.compiler.walk import compound_cores
from sqlengine.sql import ast as A
from sqlengine.vdbe import opcodes as O

_CALL_OPS = frozenset((O.OP_Function, O.OP_AggStep, O.OP_AggFinal))


def _is_json_call(p4) -> bool:
    fdef = getattr(p4, "fdef", None)
    if fdef is None:
        return False
    name = getattr(fdef, "name", "")
    return name.startswith("json") or name in ("->", "->>")


def _schema_mentions_json(schema) -> bool:
    """True when a view, table or trigger definition names a JSON function or operator (a
    view, a generated column or a trigger can call one that the statement's text does not
    show). The answer is kept on the schema object for its version."""
    hit = getattr(schema, "_mentions_json", None)
    version = getattr(schema, "version", 0)
    if hit is not None and hit[0] == version:
        return hit[1]
    flag = False
    for objs in (getattr(schema, "views", {}), getattr(schema, "tables", {}),
                 getattr(schema, "triggers", {})):
        for o in objs.values():
            text = (getattr(o, "sql", None) or "").lower()
            if "json" in text or "->" in text:
                flag = True
                break
    try:
        schema._mentions_json = (version, flag)
    except AttributeError:  # (an object with fixed attributes: no cache)
        pass
    return flag


def mark_result_rows(ops, sql: str = "", schema=None) -> None:
    """Set P5=1 on the ResultRow instructions of ``ops`` (the builder's list) when the
    program calls a JSON function: at once when its text names one (window functions are
    called from a helper the instructions do not show), else when the schema could bring
    one in (``schema`` None: always looked for) and an instruction calls one."""
    low = sql.lower()
    if "json" not in low and "->" not in low:
        if schema is not None and not _schema_mentions_json(schema):
            return
        if not any(ins[0] in _CALL_OPS and _is_json_call(ins[4]) for ins in ops):
            return
    for ins in ops:
        if ins[0] == O.OP_ResultRow:
            ins[5] = 1


def _may_carry_json(p) -> bool:
    """Whether the statement ``p`` compiles can make a JSON value at all (its text or
    the schema names a JSON function); answered once per statement."""
    seen = getattr(p, "json_seen", None)
    if seen is None:
        sql = p.sql or ""
        seen = p.json_seen = ("json" in sql.lower() or "->" in sql
                              or _schema_mentions_json(p.schema))
    return seen


def _is_call(e) -> bool:
    """SQLite's TK_FUNCTION (the -> and ->> operators are functions there), also under one
    COLLATE."""
    if type(e) is A.Collate:
        e = e.expr
    return type(e) is A.FunctionCall or (type(e) is A.Binary and e.op in ("->", "->>"))


def subquery_clears(p, sel, flattens: bool, right_of_left: bool):
    """The result columns of FROM subquery ``sel`` whose JSON subtype SQLite 3.40 clears
    on their way into the outer query: "all" of one it does not flatten (a co-routine
    copies them with OP_Copy P5=2, a materialized copy keeps no subtype); of a flattened
    one, each column that is a function call, which the flattener wraps in a COLLATE
    coded as OP_ClrSubtype, except on the right of a LEFT JOIN (there the wrapper is
    IF_NULL_ROW). Positions count from the first column, negative ones from the last
    (the columns after a ``*``). None when nothing is cleared, also when nothing in the
    statement or its schema makes JSON."""
    if not _may_carry_json(p):
        return None
    if not flattens:
        return "all"
    if right_of_left:
        return None
    out = set()
    for core in compound_cores(sel.body):
        cols = core.columns
        stars = [i for i, rc in enumerate(cols) if type(rc) is A.Star]
        for i, rc in enumerate(cols):
            if type(rc) is not A.ResultColumn or not _is_call(rc.expr):
                continue
            if not stars or i < stars[0]:
                out.add(i)
            elif i > stars[-1]:
                out.add(i - len(cols))
    return sorted(out) or None


def code_clear(p, base, n, clear) -> None:
    """Emit OP_ClrSubtype for the columns ``clear`` (as ``subquery_clears`` answers) of
    the row in registers base..base+n-1."""
    if clear is None:
        return
    for i in (range(n) if clear == "all" else clear):
        p.b.emit(O.OP_ClrSubtype, base + (i if i >= 0 else n + i))


def recursive_clears(p):
    """What the rows of a recursive CTE clear: all their columns (its queue is a table,
    as SQLite's), when the statement can make JSON at all."""
    return "all" if _may_carry_json(p) else None
