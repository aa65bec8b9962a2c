"""``complete_statement``: SQLite's ``sqlite3_complete`` (complete.c), token by token.

True when the text ends with a ``;`` that closes a statement: semicolons inside string
literals, quoted identifiers, comments and ``CREATE TRIGGER ... END`` bodies do not
count. It is a small state machine over a coarse tokenisation, deliberately not the
parser: it must answer for incomplete text without raising. Never raises, never parses.
"""

from __future__ import annotations

from .lexer import is_id_char

_SEMI, _WS, _OTHER, _EXPLAIN, _CREATE, _TEMP, _TRIGGER, _END = range(8)

# State transitions, as in complete.c: rows are states, columns the token classes above.
_TRANS = (
    (1, 0, 2, 3, 4, 2, 2, 2),  # 0 INVALID
    (1, 1, 2, 3, 4, 2, 2, 2),  # 1 START
    (1, 2, 2, 2, 2, 2, 2, 2),  # 2 NORMAL
    (1, 3, 3, 2, 4, 2, 2, 2),  # 3 EXPLAIN
    (1, 4, 2, 2, 2, 4, 5, 2),  # 4 CREATE
    (6, 5, 5, 5, 5, 5, 5, 5),  # 5 TRIGGER
    (6, 6, 5, 5, 5, 5, 5, 7),  # 6 SEMI
    (1, 7, 5, 5, 5, 5, 5, 5),  # 7 END
)

_WORDS = {"create": _CREATE, "trigger": _TRIGGER, "temp": _TEMP, "temporary": _TEMP,
          "end": _END, "explain": _EXPLAIN}


def complete_statement(sql: str) -> bool:
    state = 0
    i = 0
    n = len(sql)
    while i < n:
        c = sql[i]
        if c == ";":
            token = _SEMI
            i += 1
        elif c in " \r\t\n\f\v":
            token = _WS
            i += 1
        elif c == "/":
            if i + 1 >= n or sql[i + 1] != "*":
                token = _OTHER
                i += 1
            else:
                j = sql.find("*/", i + 2)
                if j < 0:
                    return False
                token = _WS
                i = j + 2
        elif c == "-":
            if i + 1 >= n or sql[i + 1] != "-":
                token = _OTHER
                i += 1
            else:
                j = sql.find("\n", i + 2)
                if j < 0:
                    return state == 1
                token = _WS
                i = j + 1
        elif c == "[":
            j = sql.find("]", i + 1)
            if j < 0:
                return False
            token = _OTHER
            i = j + 1
        elif c in "`\"'":
            j = sql.find(c, i + 1)
            if j < 0:
                return False
            token = _OTHER
            i = j + 1
        elif is_id_char(c):
            j = i + 1
            while j < n and is_id_char(sql[j]):
                j += 1
            token = _WORDS.get(sql[i:j].lower(), _OTHER)
            i = j
        else:
            token = _OTHER
            i += 1
        state = _TRANS[state][token]
    return state == 1
