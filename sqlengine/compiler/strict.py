"""STRICT tables: the declared types a STRICT table accepts, and the type checks on the
values it stores (after the column's affinity is applied, as SQLite does).

Errors are SQLite's: ``missing datatype for t.a``, ``unknown datatype for t.a: "VARCHAR"``
when the table is created, ``cannot store TEXT value in INT column t.a`` (an
IntegrityError) when a row is written. This module emits code; it never runs it.
"""

from __future__ import annotations

from sqlengine.errors import IntegrityError, OperationalError
from sqlengine.sql import parse_one
from sqlengine.vdbe.opcodes import OP_Function

STRICT_TYPES = ("INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY")
_TYPE_NAME = {int: "INT", float: "REAL", str: "TEXT", bytes: "BLOB"}


def check_create(st) -> None:
    """Validate the column types of CREATE TABLE ... STRICT."""
    if not getattr(st, "strict", False):
        return
    for cd in st.columns:
        if not cd.type_name:
            raise OperationalError(f"missing datatype for {st.name}.{cd.name}")
        if cd.type_name.upper() not in STRICT_TYPES:
            raise OperationalError(
                f'unknown datatype for {st.name}.{cd.name}: "{cd.type_name}"')


_strict: dict = {}  # CREATE TABLE text -> whether it makes a STRICT table


def is_strict(table) -> bool:
    """Whether ``table`` is STRICT, known from its CREATE text (remembered per text: every
    INSERT and UPDATE asks)."""
    sql = table.sql
    if not sql:
        return False
    hit = _strict.get(sql)
    if hit is None:
        # (the table's CREATE text spells STRICT, in some case, when it is one)
        hit = False
        if "strict" in sql.lower():
            parsed = parse_one(sql)
            hit = bool(parsed is not None and getattr(parsed.stmt, "strict", False))
        if len(_strict) > 256:
            _strict.clear()
        _strict[sql] = hit
    return hit


def _accepts(decl: str, v) -> bool:
    if v is None or decl == "ANY":
        return True
    t = type(v)
    if decl in ("INT", "INTEGER"):
        return t is int
    if decl == "REAL":
        return t is float or t is int
    if decl == "TEXT":
        return isinstance(v, str)
    return t is bytes or isinstance(v, (bytes, bytearray))


def code_type_checks(p, table, base) -> None:
    """Code that fails the statement when a value of the row at ``base`` does not fit its
    column's declared type."""
    if not is_strict(table):
        return
    b = p.b
    for i, c in enumerate(table.columns):
        decl = (c.type_name or "ANY").upper()
        if decl == "ANY" or c.generated is not None:
            continue  # (SQLite 3.40 checks no generated column, STORED ones included)

        def check(vm, args, decl=decl, where=f"{table.name}.{c.name}"):
            v = args[0]
            if not _accepts(decl, v):
                kind = "TEXT" if isinstance(v, str) else _TYPE_NAME.get(type(v), "BLOB")
                raise IntegrityError(f"cannot store {kind} value in {decl} column {where}")
            return None
        out = b.alloc_reg()
        b.emit(OP_Function, 0, base + 1 + i, out, check, 1)
