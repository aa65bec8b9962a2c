"""SQLite's tokenizer, in plain Python (the reference for the compiled ``_lexer.pyx``).

``next_token(sql, i)`` returns ``(kind, end)`` for the token that starts at offset ``i``:
``kind`` is a terminal name of ``grammar.lark`` (SQLite's TK_* names), ``"SPACE"`` for
white space and comments, or ``"ILLEGAL"`` for text SQLite does not recognise (the caller
reports ``unrecognized token``). Every rule follows SQLite's ``sqlite3GetToken``: the
same token boundaries, the same keywords, the same illegal tokens. ``tokens(sql)`` lists a
text's tokens without its white space; the helpers that turn a token's text into a value
(``dequote``, ``unescape_string``, ``leading_hex``) live here too.

This module never decides grammar questions (keyword fallback, window keywords): the
parser does that.
"""

from __future__ import annotations

# Every SQLite keyword, mapped to its token (several keywords share one token).
KEYWORDS = {
    "ABORT": "ABORT", "ACTION": "ACTION", "ADD": "ADD", "AFTER": "AFTER", "ALL": "ALL",
    "ALTER": "ALTER", "ALWAYS": "ALWAYS", "ANALYZE": "ANALYZE", "AND": "AND", "AS": "AS",
    "ASC": "ASC", "ATTACH": "ATTACH", "AUTOINCREMENT": "AUTOINCR", "BEFORE": "BEFORE",
    "BEGIN": "BEGIN", "BETWEEN": "BETWEEN", "BY": "BY", "CASCADE": "CASCADE", "CASE": "CASE",
    "CAST": "CAST", "CHECK": "CHECK", "COLLATE": "COLLATE", "COLUMN": "COLUMNKW",
    "COMMIT": "COMMIT", "CONFLICT": "CONFLICT", "CONSTRAINT": "CONSTRAINT",
    "CREATE": "CREATE", "CROSS": "JOIN_KW", "CURRENT": "CURRENT",
    "CURRENT_DATE": "CTIME_KW", "CURRENT_TIME": "CTIME_KW", "CURRENT_TIMESTAMP": "CTIME_KW",
    "DATABASE": "DATABASE", "DEFAULT": "DEFAULT", "DEFERRABLE": "DEFERRABLE",
    "DEFERRED": "DEFERRED", "DELETE": "DELETE", "DESC": "DESC", "DETACH": "DETACH",
    "DISTINCT": "DISTINCT", "DO": "DO", "DROP": "DROP", "EACH": "EACH", "ELSE": "ELSE",
    "END": "END", "ESCAPE": "ESCAPE", "EXCEPT": "EXCEPT", "EXCLUDE": "EXCLUDE",
    "EXCLUSIVE": "EXCLUSIVE", "EXISTS": "EXISTS", "EXPLAIN": "EXPLAIN", "FAIL": "FAIL",
    "FILTER": "FILTER", "FIRST": "FIRST", "FOLLOWING": "FOLLOWING", "FOR": "FOR",
    "FOREIGN": "FOREIGN", "FROM": "FROM", "FULL": "JOIN_KW", "GENERATED": "GENERATED",
    "GLOB": "LIKE_KW", "GROUP": "GROUP", "GROUPS": "GROUPS", "HAVING": "HAVING", "IF": "IF",
    "IGNORE": "IGNORE", "IMMEDIATE": "IMMEDIATE", "IN": "IN", "INDEX": "INDEX",
    "INDEXED": "INDEXED", "INITIALLY": "INITIALLY", "INNER": "JOIN_KW", "INSERT": "INSERT",
    "INSTEAD": "INSTEAD", "INTERSECT": "INTERSECT", "INTO": "INTO", "IS": "IS",
    "ISNULL": "ISNULL", "JOIN": "JOIN", "KEY": "KEY", "LAST": "LAST", "LEFT": "JOIN_KW",
    "LIKE": "LIKE_KW", "LIMIT": "LIMIT", "MATCH": "MATCH", "MATERIALIZED": "MATERIALIZED",
    "NATURAL": "JOIN_KW", "NO": "NO", "NOT": "NOT", "NOTHING": "NOTHING",
    "NOTNULL": "NOTNULL", "NULL": "NULL", "NULLS": "NULLS", "OF": "OF", "OFFSET": "OFFSET",
    "ON": "ON", "OR": "OR", "ORDER": "ORDER", "OTHERS": "OTHERS", "OUTER": "JOIN_KW",
    "OVER": "OVER", "PARTITION": "PARTITION", "PLAN": "PLAN", "PRAGMA": "PRAGMA",
    "PRECEDING": "PRECEDING", "PRIMARY": "PRIMARY", "QUERY": "QUERY", "RAISE": "RAISE",
    "RANGE": "RANGE", "RECURSIVE": "RECURSIVE", "REFERENCES": "REFERENCES",
    "REGEXP": "LIKE_KW", "REINDEX": "REINDEX", "RELEASE": "RELEASE", "RENAME": "RENAME",
    "REPLACE": "REPLACE", "RESTRICT": "RESTRICT", "RETURNING": "RETURNING",
    "RIGHT": "JOIN_KW", "ROLLBACK": "ROLLBACK", "ROW": "ROW", "ROWS": "ROWS",
    "SAVEPOINT": "SAVEPOINT", "SELECT": "SELECT", "SET": "SET", "TABLE": "TABLE",
    "TEMP": "TEMP", "TEMPORARY": "TEMP", "THEN": "THEN", "TIES": "TIES", "TO": "TO",
    "TRANSACTION": "TRANSACTION", "TRIGGER": "TRIGGER", "UNBOUNDED": "UNBOUNDED",
    "UNION": "UNION", "UNIQUE": "UNIQUE", "UPDATE": "UPDATE", "USING": "USING",
    "VACUUM": "VACUUM", "VALUES": "VALUES", "VIEW": "VIEW", "VIRTUAL": "VIRTUAL",
    "WHEN": "WHEN", "WHERE": "WHERE", "WINDOW": "WINDOW", "WITH": "WITH",
    "WITHOUT": "WITHOUT",
}

SPACES = " \t\n\f\r\v"
DIGITS = "0123456789"
HEXDIGITS = "0123456789abcdefABCDEF"


def leading_hex(text: str, start: int = 0) -> str:
    """The hex digits ``text`` holds from offset ``start`` on, up to the first other
    character ("" when there is none): the digits of a ``0x`` number some reader scans."""
    j, n = start, len(text)
    while j < n and text[j] in HEXDIGITS:
        j += 1
    return text[start:j]


def is_id_char(c: str) -> bool:
    """SQLite's IdChar: letters, digits, ``_``, ``$`` and every non-ASCII character."""
    return c.isascii() and (c.isalnum() or c == "_" or c == "$") or not c.isascii()


def _id_start(c: str) -> bool:
    return (c.isascii() and (c.isalpha() or c == "_")) or not c.isascii()


def next_token(sql: str, i: int) -> tuple[str, int]:  # noqa: C901 - one switch, as in SQLite
    """The kind and end offset of the token starting at ``sql[i]`` (``i < len(sql)``)."""
    n = len(sql)
    c = sql[i]
    if c in SPACES:
        j = i + 1
        while j < n and sql[j] in SPACES:
            j += 1
        return "SPACE", j
    if c == "-":
        if i + 1 < n and sql[i + 1] == "-":
            j = sql.find("\n", i + 2)
            return "SPACE", (n if j < 0 else j + 1)
        if i + 1 < n and sql[i + 1] == ">":
            return "PTR", (i + 3 if i + 2 < n and sql[i + 2] == ">" else i + 2)
        return "MINUS", i + 1
    if c == "(":
        return "LP", i + 1
    if c == ")":
        return "RP", i + 1
    if c == ";":
        return "SEMI", i + 1
    if c == "+":
        return "PLUS", i + 1
    if c == "*":
        return "STAR", i + 1
    if c == "/":
        if i + 1 < n and sql[i + 1] == "*":
            j = sql.find("*/", i + 2)
            return "SPACE", (n if j < 0 else j + 2)
        return "SLASH", i + 1
    if c == "%":
        return "REM", i + 1
    if c == "=":
        return "EQ", (i + 2 if i + 1 < n and sql[i + 1] == "=" else i + 1)
    if c == "<":
        d = sql[i + 1] if i + 1 < n else ""
        if d == "=":
            return "LE", i + 2
        if d == ">":
            return "NE", i + 2
        if d == "<":
            return "LSHIFT", i + 2
        return "LT", i + 1
    if c == ">":
        d = sql[i + 1] if i + 1 < n else ""
        if d == "=":
            return "GE", i + 2
        if d == ">":
            return "RSHIFT", i + 2
        return "GT", i + 1
    if c == "!":
        if i + 1 < n and sql[i + 1] == "=":
            return "NE", i + 2
        return "ILLEGAL", i + 1
    if c == "|":
        if i + 1 < n and sql[i + 1] == "|":
            return "CONCAT", i + 2
        return "BITOR", i + 1
    if c == ",":
        return "COMMA", i + 1
    if c == "&":
        return "BITAND", i + 1
    if c == "~":
        return "BITNOT", i + 1
    if c == "'" or c == '"' or c == "`":
        j = i + 1
        while True:
            j = sql.find(c, j)
            if j < 0:
                return "ILLEGAL", n
            if j + 1 < n and sql[j + 1] == c:
                j += 2
                continue
            return ("STRING" if c == "'" else "ID"), j + 1
    if c == ".":
        if i + 1 < n and sql[i + 1] in DIGITS:
            return _number(sql, i)
        return "DOT", i + 1
    if c in DIGITS:
        return _number(sql, i)
    if c == "[":
        j = sql.find("]", i + 1)
        return ("ILLEGAL", n) if j < 0 else ("ID", j + 1)
    if c == "?":
        j = i + 1
        while j < n and sql[j] in DIGITS:
            j += 1
        return "VARIABLE", j
    if c in "$@:#":
        return _variable(sql, i)
    if (c == "x" or c == "X") and i + 1 < n and sql[i + 1] == "'":
        j = i + 2
        while j < n and sql[j] in HEXDIGITS:
            j += 1
        if j >= n or sql[j] != "'" or (j - i) % 2:
            while j < n and sql[j] != "'":
                j += 1
            return "ILLEGAL", (j + 1 if j < n else n)
        return "BLOB", j + 1
    if _id_start(c):
        j = i + 1
        while j < n and is_id_char(sql[j]):
            j += 1
        word = sql[i:j]
        # Keywords are ASCII, matched without regard to ASCII case only ("ſelect" is a name).
        return (KEYWORDS.get(word.upper(), "ID") if word.isascii() else "ID"), j
    return "ILLEGAL", i + 1


def _number(sql: str, i: int) -> tuple[str, int]:
    n = len(sql)
    if sql[i] == "0" and i + 2 < n and sql[i + 1] in "xX" and sql[i + 2] in HEXDIGITS:
        j = i + 3
        while j < n and sql[j] in HEXDIGITS:
            j += 1
        return "INTEGER", j
    kind = "INTEGER"
    j = i
    while j < n and sql[j] in DIGITS:
        j += 1
    if j < n and sql[j] == ".":
        kind = "FLOAT"
        j += 1
        while j < n and sql[j] in DIGITS:
            j += 1
    if j < n and sql[j] in "eE" and (
        (j + 1 < n and sql[j + 1] in DIGITS)
        or (j + 2 < n and sql[j + 1] in "+-" and sql[j + 2] in DIGITS)
    ):
        kind = "FLOAT"
        j += 2
        while j < n and sql[j] in DIGITS:
            j += 1
    while j < n and is_id_char(sql[j]):
        kind = "ILLEGAL"
        j += 1
    return kind, j


def _variable(sql: str, i: int) -> tuple[str, int]:
    n = len(sql)
    named = 0
    kind = "VARIABLE"
    j = i + 1
    while j < n:
        c = sql[j]
        if is_id_char(c):
            named += 1
        elif c == "(" and named > 0:
            j += 1
            while j < n and sql[j] not in SPACES and sql[j] != ")":
                j += 1
            if j < n and sql[j] == ")":
                j += 1
            else:
                kind = "ILLEGAL"
            break
        elif c == ":" and j + 1 < n and sql[j + 1] == ":":
            j += 1
        else:
            break
        j += 1
    if named == 0:
        kind = "ILLEGAL"
    return kind, j


def tokens(sql: str) -> list[tuple[str, int, int]]:
    """The ``(kind, start, end)`` of every token of ``sql`` but white space and comments."""
    out = []
    i = 0
    while i < len(sql):
        kind, end = next_token(sql, i)
        if kind != "SPACE":
            out.append((kind, i, end))
        i = end
    return out


def dequote(text: str) -> str:
    """The name an identifier token stands for: quotes removed, doubled quotes undone."""
    c = text[0]
    if c == '"' or c == "`":
        return text[1:-1].replace(c + c, c)
    if c == "[":
        return text[1:-1]
    if c == "'":
        return text[1:-1].replace("''", "'")
    return text


def unescape_string(text: str) -> str:
    """The value of a string literal token ``'...'``."""
    return text[1:-1].replace("''", "'")
