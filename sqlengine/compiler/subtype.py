"""Value subtypes at the edge of a program.

SQLite's JSON functions mark their text results with a subtype that only other functions
see; the application gets plain TEXT. Here such values are ``func_json.JsonText`` objects
(a ``str`` subclass). ``mark_result_rows`` flags (P5=1) every ``ResultRow`` of a program
that calls a JSON function, so that the VM hands those rows out as plain ``str``; programs
without JSON functions keep the unconverted fast path. This module edits the emitted
instructions of one program; it never runs code.
"""

from __future__ import annotations

from sqlengine.vdbe import opcodes as O

_CALL_OPS = frozenset((O.OP_Function, O.OP_AggStep, O.OP_AggFinal))


def _is_json_call(p4) -> bool:
    fdef = getattr(p4, "fdef", None)
    if fdef is None:
        return False
    name = getattr(fdef, "name", "")
    return name.startswith("json") or name in ("->", "->>")


def mark_result_rows(ops, sql: str = "") -> None:
    """Set P5=1 on the ResultRow instructions of ``ops`` (the builder's list) when the
    program calls a JSON function (or its text names one: window functions are called
    from a helper the instructions do not show)."""
    low = sql.lower()
    if "json" not in low and "->" not in low and not any(
            ins[0] in _CALL_OPS and _is_json_call(ins[4]) for ins in ops):
        return
    for ins in ops:
        if ins[0] == O.OP_ResultRow:
            ins[5] = 1
