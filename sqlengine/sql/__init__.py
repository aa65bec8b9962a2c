"""The SQL front end: lark grammar, compiled lexer and LALR driver, AST, statement splitter.

Interface (the contract with the compiler and ``database.py``):

    parse_one(sql, start=0) -> Parsed | None
        Parses the first statement at or after offset ``start``. None when only blanks,
        comments and semicolons remain. ``Parsed.stmt`` is the AST (``sql.ast``),
        ``Parsed.text`` the statement's own source text (first token to last token, no
        trailing ``;``), ``Parsed.start`` its offset, ``Parsed.end`` the offset just past
        its terminating ``;`` (or the end of input).
    parse_all(sql) -> list[Parsed]
    complete_statement(sql) -> bool     (as sqlite3_complete)

Errors raise ``sqlengine.errors.OperationalError`` worded as SQLite words them:
``near "FROM": syntax error``, ``incomplete input``, ``unrecognized token: "'abc"``.

Results are cached by SQL text (a bounded LRU, ``cache.py``): the same ``Parsed`` object
comes back for the same text, so callers must treat the AST as immutable.
This package never resolves names and never touches storage.
"""

from __future__ import annotations

from .cache import CACHE_SIZE, _cache  # noqa: F401 - (the cache itself, for tests)
from .cache import clear_cache, parse_all, parse_one
from .complete import complete_statement
from .parser import Parsed

__all__ = ["Parsed", "parse_one", "parse_all", "complete_statement", "clear_cache"]
