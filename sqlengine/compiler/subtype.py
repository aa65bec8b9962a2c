"""Value subtypes at the edge of a program.

SQLite's JSON functions mark their text results with a subtype that only other functions
see; the application gets plain TEXT. Here such values are ``func_json.JsonText`` objects
(a ``str`` subclass). ``mark_result_rows`` flags (P5=1) every ``ResultRow`` of a program
that calls a JSON function, so that the VM hands those rows out as plain ``str``; programs
without JSON functions keep the unconverted fast path. This module edits the emitted
instructions of one program; it never runs code.
"""

from __future__ import annotations

import weakref

from sqlengine.vdbe import opcodes as O

_CALL_OPS = frozenset((O.OP_Function, O.OP_AggStep, O.OP_AggFinal))


def _is_json_call(p4) -> bool:
    fdef = getattr(p4, "fdef", None)
    if fdef is None:
        return False
    name = getattr(fdef, "name", "")
    return name.startswith("json") or name in ("->", "->>")


_schema_json: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _schema_mentions_json(schema) -> bool:
    """True when a view or table definition names a JSON function or operator (a view or
    a generated column can call one that the statement's text does not show)."""
    hit = _schema_json.get(schema)
    version = getattr(schema, "version", 0)
    if hit is not None and hit[0] == version:
        return hit[1]
    flag = False
    for objs in (getattr(schema, "views", {}), getattr(schema, "tables", {})):
        for o in objs.values():
            text = (getattr(o, "sql", None) or "").lower()
            if "json" in text or "->" in text:
                flag = True
                break
    try:
        _schema_json[schema] = (version, flag)
    except TypeError:  # not weak-referenceable: no cache
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
