"""Recognises the plain CREATE TABLE and CREATE INDEX texts of ``sqlite_schema``, whose
schema objects can be built later, on first use, without changing what opening the
database reports.

Opening a database builds its schema from every CREATE statement stored in the file; most
of a cold open's time is parsing those statements and building their tables. SQLite reports
a damaged statement when the schema is loaded, so a table may only be built lazily when
its text is known to parse and build without error. This module decides that for the plain
forms most schemas consist of, by one pass over each statement::

    CREATE TABLE name(col [type words[(n[, m])]] [PRIMARY KEY [ASC|DESC] | NOT NULL
                      | UNIQUE]..., ...)
    CREATE [UNIQUE] INDEX name ON table(col [ASC|DESC], ...)

with plain ASCII identifiers that are not SQL keywords, at most one PRIMARY KEY, no
duplicate column names, and (for an index) only columns of its table. Anything else (quoted
names, comments, AUTOINCREMENT, defaults, checks, collations, foreign keys, conflict
clauses, table constraints, WITHOUT ROWID, expressions, partial indexes) is not plain, and
the caller parses it at once as before. The recogniser is compiled
(``sql/_plain.pyx``: one pass by tokens; a cold open runs it on every CREATE text). This
module never builds schema objects, never reads storage and never raises.
"""

from __future__ import annotations

from sqlengine.sql._plain import plain_index, plain_table

__all__ = ["plain_index", "plain_table"]
