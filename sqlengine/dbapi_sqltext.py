"""Light scanning of SQL text for the DB-API layer: blanks and comments, the first keyword,
and parameter positions (to expand a traced statement).

The DB-API decides a few things from the raw text exactly as the stdlib module does (the
implicit BEGIN looks at the first keyword; "one statement at a time" looks at what follows
the statement). This module never parses SQL: the grammar lives in ``sqlengine.sql``.
"""

from __future__ import annotations

import re

from sqlengine.dbapi_types import real_to_text

_BLANKS = " \t\n\f\r"
_IDENT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")


def skip_blanks(sql: str, pos: int = 0) -> int:
    """Offset of the first character at/after ``pos`` that is not a blank or a comment."""
    n = len(sql)
    while pos < n:
        ch = sql[pos]
        if ch in _BLANKS:
            pos += 1
        elif sql.startswith("--", pos):
            end = sql.find("\n", pos)
            pos = n if end == -1 else end + 1
        elif sql.startswith("/*", pos):
            end = sql.find("*/", pos + 2)
            pos = n if end == -1 else end + 2
        else:
            break
    return pos


_ASCII_WORD = re.compile(r"[A-Za-z_]*")


def first_keyword(sql: str) -> str:
    """The first word of the statement, upper-cased ('' when it does not start with one)."""
    pos = skip_blanks(sql) if sql[:1] in _BLANKS or sql[:1] in "-/" else 0
    end = _ASCII_WORD.match(sql, pos).end()
    if end < len(sql) and sql[end].isalpha():  # a word going on with non-ASCII letters
        while end < len(sql) and (sql[end].isalpha() or sql[end] == "_"):
            end += 1
    return sql[pos:end].upper()


def _skip_quoted(sql: str, pos: int, close: str) -> int:
    """Offset after a quoted token starting at ``pos`` (doubled quotes stay inside)."""
    n = len(sql)
    pos += 1
    while pos < n:
        if sql[pos] == close:
            if close != "]" and pos + 1 < n and sql[pos + 1] == close:
                pos += 2
                continue
            return pos + 1
        pos += 1
    return n


def parameter_tokens(sql: str):
    """Yield (start, end, token) for each parameter (?, ?NNN, :name, @name, $name)."""
    pos = 0
    n = len(sql)
    while pos < n:
        ch = sql[pos]
        if ch in "'\"`":
            pos = _skip_quoted(sql, pos, ch)
        elif ch == "[":
            pos = _skip_quoted(sql, pos, "]")
        elif ch == "-" and sql.startswith("--", pos) or ch == "/" and sql.startswith("/*", pos):
            pos = skip_blanks(sql, pos)
        elif ch == "?":
            end = pos + 1
            while end < n and sql[end].isdigit():
                end += 1
            yield pos, end, sql[pos:end]
            pos = end
        elif ch in ":@$" and pos + 1 < n and sql[pos + 1] in _IDENT_CHARS:
            end = pos + 1
            while end < n and (sql[end] in _IDENT_CHARS or not sql[end].isascii()):
                end += 1
            yield pos, end, sql[pos:end]
            pos = end
        elif ch in _IDENT_CHARS or not ch.isascii():
            end = pos + 1
            while end < n and (sql[end] in _IDENT_CHARS or not sql[end].isascii()):
                end += 1
            pos = end
        else:
            pos += 1


def expanded_literal(value) -> str:
    """A bound value as sqlite3_expanded_sql writes it."""
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return real_to_text(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return "x'" + bytes(value).hex() + "'"


def expand_sql(text: str, values, names) -> str:
    """``text`` with each parameter replaced by its bound value (sqlite3_expanded_sql)."""
    if not values:
        return text
    out = []
    last = 0
    highest = 0
    for start, end, token in parameter_tokens(text):
        if token == "?":
            index = highest + 1
        elif token[0] == "?":
            index = int(token[1:])
        else:
            try:
                index = names.index(token) + 1
            except ValueError:
                continue
        highest = max(highest, index)
        if 0 < index <= len(values):
            out.append(text[last:start])
            out.append(expanded_literal(values[index - 1]))
            last = end
    out.append(text[last:])
    return "".join(out)
