"""Helpers shared by the reliability tools: running SQL on an engine ``Database``, canonical
dumps of a database's content (through sqlengine or the stdlib sqlite3), and quick file
checks with sqlite3.

Never changes a database it is asked to inspect except through the engine under test.
"""

from __future__ import annotations

import os
import sqlite3
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def run(db, sql: str, params=()) -> list:
    """Run one statement on an engine Database and return its rows."""
    stmt, _ = db.prepare(sql)
    if stmt is None:
        return []
    try:
        for i, v in enumerate(params):
            stmt.bind(i + 1, v)
        rows = []
        while True:
            r = stmt.step()
            if r is None:
                return rows
            rows.append(tuple(r))
    finally:
        stmt.finalize()


def _dump_with(query) -> tuple:
    tables = query("select type, name, tbl_name, sql from sqlite_master order by name")
    out = [tuple(tables)]
    for typ, name, _tbl, _sql in tables:
        if typ == "table" and not name.startswith("sqlite_"):
            out.append((name, tuple(query(f'select * from "{name}" order by _rowid_'))))
    return tuple(out)


def engine_dump(db) -> tuple:
    """The schema and every table's rows (rowid order) as seen by an engine Database."""
    return _dump_with(lambda q: run(db, q))


def sqlite_dump(con: sqlite3.Connection) -> tuple:
    return _dump_with(lambda q: [tuple(r) for r in con.execute(q).fetchall()])


def sqlite_check_bytes(image: bytes):
    """(integrity_check rows, dump) of a database image according to the stdlib sqlite3."""
    con = sqlite3.connect(":memory:")
    try:
        if image:
            con.deserialize(image)
        ic = [r[0] for r in con.execute("pragma integrity_check").fetchall()]
        return ic, sqlite_dump(con)
    except sqlite3.Error as e:
        return [f"sqlite3 error: {e}"], None
    finally:
        con.close()
