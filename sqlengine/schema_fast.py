"""Recognises the plain CREATE TABLE and CREATE INDEX texts of ``sqlite_schema``, whose
schema objects can be built later, on first use, without changing what opening the
database reports.

Opening a database builds its schema from every CREATE statement stored in the file; most
of a cold open's time is parsing those statements and building their tables. SQLite reports
a damaged statement when the schema is loaded, so a table may only be built lazily when
its text is known to parse and build without error. This module decides that for the plain
forms most schemas consist of, with one compiled regular expression per statement::

    CREATE TABLE name(col [type words[(n[, m])]] [PRIMARY KEY [ASC|DESC] | NOT NULL
                      | UNIQUE]..., ...)
    CREATE [UNIQUE] INDEX name ON table(col [ASC|DESC], ...)

with plain ASCII identifiers that are not SQL keywords, at most one PRIMARY KEY, no
duplicate column names, and (for an index) only columns of its table. Anything else (quoted
names, comments, AUTOINCREMENT, defaults, checks, collations, foreign keys, conflict
clauses, table constraints, WITHOUT ROWID, expressions, partial indexes) is not plain, and
the caller parses it at once as before. This module never builds schema objects, never
reads storage and never raises.
"""

from __future__ import annotations

import re

from sqlengine.sql.lexer import KEYWORDS

_SP = r"[ \t\n\f\r\v]"
_ID = r"[A-Za-z_][A-Za-z0-9_]*"
_END = r"(?![A-Za-z0-9_$])"
_WORDS = re.compile(r"[A-Z_][A-Z0-9_$]*")  # over the upper-cased text

# Keywords in their places; every other word is a name or a type word and must not be a
# keyword (checked on the whole text's words, which the structure's lookaheads make exact:
# a name or type word can never be one of the structural keywords either).
_TABLE_KW = ("CREATE", "TABLE", "PRIMARY", "KEY", "ASC", "DESC", "NOT", "NULL", "UNIQUE")
_INDEX_KW = ("CREATE", "UNIQUE", "INDEX", "ON", "ASC", "DESC")
_TABLE_OTHER_KW = frozenset(KEYWORDS) - frozenset(_TABLE_KW)
_INDEX_OTHER_KW = frozenset(KEYWORDS) - frozenset(_INDEX_KW)


def _name(kws) -> str:
    return rf"(?!(?:{'|'.join(kws)}){_END}){_ID}(?![$])"


_TNAME = _name(_TABLE_KW)
_NUM = rf"[+-]?{_SP}*[0-9]+"
_TYPE = rf"{_TNAME}(?:{_SP}+{_TNAME})*(?:{_SP}*\({_SP}*{_NUM}{_SP}*(?:,{_SP}*{_NUM}{_SP}*)?\))?"
_CONS = rf"{_SP}+(?:PRIMARY{_SP}+KEY(?:{_SP}+(?:ASC|DESC))?|NOT{_SP}+NULL|UNIQUE){_END}"
_COLUMN = rf"{_SP}*{_TNAME}(?:{_SP}+{_TYPE})?(?:{_CONS})*{_SP}*"

_TABLE = re.compile(
    rf"CREATE{_SP}+TABLE{_SP}+{_TNAME}{_SP}*(\(){_COLUMN}(?:,{_COLUMN})*\){_SP}*", re.I)
# the column names: the identifier after the opening parenthesis and after each comma
# that separates columns (a comma inside a type's parentheses precedes a number)
_COLUMN_NAMES = re.compile(rf"[(,]{_SP}*({_ID})")

_INAME = _name(_INDEX_KW)
_TERM = rf"{_SP}*{_INAME}(?:{_SP}+(?:ASC|DESC){_END})?{_SP}*"
_INDEX = re.compile(
    rf"CREATE{_SP}+(?:UNIQUE{_SP}+)?INDEX{_SP}+{_INAME}{_SP}+ON{_SP}+({_INAME}){_SP}*"
    rf"(\(){_TERM}(?:,{_TERM})*\){_SP}*", re.I)


def plain_table(sql: str) -> frozenset | None:
    """The upper-case column names of a plain CREATE TABLE text, or None."""
    m = _TABLE.fullmatch(sql)
    if m is None:
        return None
    upper = sql.upper()
    words = _WORDS.findall(upper)
    if not _TABLE_OTHER_KW.isdisjoint(words) or words.count("PRIMARY") > 1:
        return None
    names = _COLUMN_NAMES.findall(upper, m.start(1))
    low = frozenset(names)  # (upper case serves as well as lower: ASCII names only)
    if len(low) != len(names):
        return None
    return low


def plain_index(sql: str) -> tuple[str, frozenset] | None:
    """(upper-case table name, upper-case column names) of a plain CREATE INDEX text."""
    m = _INDEX.fullmatch(sql)
    if m is None:
        return None
    upper = sql.upper()
    if not _INDEX_OTHER_KW.isdisjoint(_WORDS.findall(upper)):
        return None
    return m.group(1).upper(), frozenset(_COLUMN_NAMES.findall(upper, m.start(2)))
