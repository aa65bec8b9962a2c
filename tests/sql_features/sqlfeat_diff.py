"""Differential runner for the feature scripts: each statement of a script runs on the
stdlib ``sqlite3`` and on ``sqlengine`` (fresh in-memory connections, autocommit), and the
outcomes must be equal: the rows with each value's Python type, or the exception class and
message. This module only compares; it never decides what the right answer is.

Script format (``scripts/*.sql``): SQL statements, each ended by ``;`` (split with
``sqlite3.complete_statement``); ``--`` comments are ignored. A line ``-- unordered`` just
before a statement compares its rows as a multiset.
"""

from __future__ import annotations

import sqlite3

import sqlengine


def split_script(text: str):
    """[(statement, unordered)] of a script."""
    out = []
    buf = []
    unordered = False
    for line in text.splitlines():
        s = line.strip()
        if not buf and (not s or s.startswith("--")):
            if s.lower() == "-- unordered":
                unordered = True
            continue
        buf.append(line)
        stmt = "\n".join(buf)
        if sqlite3.complete_statement(stmt):
            out.append((stmt.strip(), unordered))
            buf = []
            unordered = False
    if buf and "\n".join(buf).strip():
        out.append(("\n".join(buf).strip(), unordered))
    return out


def outcome(conn, sql: str, unordered: bool):
    try:
        cur = conn.execute(sql)
        rows = [tuple((type(v).__name__, v) for v in r) for r in cur.fetchall()]
        names = [d[0] for d in cur.description] if cur.description else None
    except Exception as e:  # noqa: BLE001 - the class itself is compared
        return ("error", type(e).__name__, str(e))
    if unordered:
        rows = sorted(rows, key=repr)
    return ("rows", names, rows)


def run_pair(statements, connect_args=(":memory:",)):
    """Run statements on both engines; return (count, [mismatch descriptions])."""
    a = sqlite3.connect(*connect_args, isolation_level=None)
    b = sqlengine.connect(*connect_args, isolation_level=None)
    mismatches = []
    try:
        for sql, unordered in statements:
            x = outcome(a, sql, unordered)
            y = outcome(b, sql, unordered)
            if x != y:
                mismatches.append(f"{sql}\n  sqlite3:   {x!r}\n  sqlengine: {y!r}")
    finally:
        a.close()
        b.close()
    return len(statements), mismatches
