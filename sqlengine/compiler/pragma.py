"""PRAGMA statements: the few the engine answers (schema introspection, cookies, a handful
of flags), each compiled to constant rows or a cookie write. Unknown pragmas do nothing,
as in SQLite. This module never runs code.
"""

from __future__ import annotations

from sqlengine.vdbe import opcodes as O
from sqlengine.sql import ast as A


def _value(v):
    if isinstance(v, A.Literal):
        return v.value
    if isinstance(v, A.Column):
        return v.name
    if isinstance(v, A.Unary) and v.op == "-" and isinstance(v.operand, A.Literal):
        return -v.operand.value
    return None


def _rows(p, names, rows):
    b = p.b
    n = len(names)
    for row in rows:
        base = b.alloc_reg(n)
        for i, v in enumerate(row):
            p.emit_constant(v, base + i)
        b.emit(O.OP_ResultRow, base, n)
    return names


def compile_pragma(p, st: A.Pragma):
    name = st.name.lower()
    val = _value(st.value) if st.value is not None else None
    s = p.schema
    b = p.b
    if name == "table_info" or name == "table_xinfo":
        t = s.table(str(val)) if val is not None else None
        rows = []
        if t is not None:
            pk_order = {}
            for spec in t.unique_specs:
                if spec[5]:
                    for k, c in enumerate(spec[0]):
                        pk_order[c] = k + 1
            if t.ipk >= 0:
                pk_order[t.ipk] = 1
            for i, c in enumerate(t.columns):
                dflt = None
                if c.default is not None:
                    dflt = _default_text(c.default)
                rows.append((i, c.name, c.type_name or "", 1 if c.notnull else 0, dflt,
                             pk_order.get(i, 0)))
        return _rows(p, ["cid", "name", "type", "notnull", "dflt_value", "pk"], rows)
    if name == "index_list":
        t = s.table(str(val)) if val is not None else None
        rows = []
        if t is not None:
            for i, idx in enumerate(reversed(t.indexes)):
                origin = "pk" if idx.is_pk else ("u" if idx.auto else "c")
                rows.append((i, idx.name, 1 if idx.unique else 0, origin, 0))
        return _rows(p, ["seq", "name", "unique", "origin", "partial"], rows)
    if name == "index_info":
        idx = s.indexes.get(str(val).lower()) if val is not None else None
        rows = []
        if idx is not None:
            t = s.table(idx.table)
            for k, c in enumerate(idx.columns):
                rows.append((k, c, t.columns[c].name))
        return _rows(p, ["seqno", "cid", "name"], rows)
    if name in ("integrity_check", "quick_check"):
        return _rows(p, [name], [("ok",)])
    if name in ("user_version", "schema_version", "application_id"):
        meta = {"schema_version": 1, "user_version": 6, "application_id": 8}[name]
        if st.value is not None:
            p.write = True
            b.emit(O.OP_Transaction, 0, 1)
            b.emit(O.OP_SetCookie, 0, meta, int(val or 0))
            return []
        b.emit(O.OP_Transaction, 0, 0)
        r = b.alloc_reg()
        b.emit(O.OP_ReadCookie, 0, r, meta)
        b.emit(O.OP_ResultRow, r, 1)
        return [name]
    if name == "case_sensitive_like" and val is not None:
        p.db.case_sensitive_like = str(val).lower() in ("1", "on", "true", "yes")
        return []
    if name == "ignore_check_constraints" and val is not None:
        p.db.ignore_check_constraints = str(val).lower() in ("1", "on", "true", "yes")
        return []
    if name == "writable_schema" and val is not None:
        p.db.writable_schema = str(val).lower() in ("1", "on", "true", "yes")
        return []
    return []


def _default_text(e):
    if isinstance(e, A.Literal):
        v = e.value
        if v is None:
            return "NULL"
        if isinstance(v, str):
            return "'" + v.replace("'", "''") + "'"
        return str(v)
    return None
