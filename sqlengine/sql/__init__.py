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

Results are cached by SQL text (a bounded LRU): the same ``Parsed`` object comes back for
the same text, so callers must treat the AST as immutable.
This package never resolves names and never touches storage.
"""

from __future__ import annotations

from .complete import complete_statement
from .parser import Parsed
from .parser import parse_one as _parse_one_uncached

__all__ = ["Parsed", "parse_one", "parse_all", "complete_statement", "clear_cache"]

# Small on purpose: the DB-API keeps its own statement cache, and holding the ASTs of a
# thousand distinct statements made every new parse slower (memory no longer reused warm);
# as large as database.py's program cache, whose look-ups start with a parse.
CACHE_SIZE = 16
# A plain dict in use order (least recently used first): cheaper per new statement than an
# OrderedDict (the corpus parses nearly every statement once). Keyed by the text alone
# when the parse starts at 0 (a str never equals a (text, start) tuple).
_cache: dict = {}


def parse_one(sql: str, start: int = 0) -> Parsed | None:
    key = sql if start == 0 else (sql, start)
    cache = _cache
    hit = cache.get(key)
    if hit is not None:
        try:  # (to the end: most recently used)
            del cache[key]
        except KeyError:  # evicted meanwhile by another thread
            pass
        cache[key] = hit
        return hit
    parsed = _parse_one_uncached(sql, start)
    if parsed is not None:
        cache[key] = parsed
        if len(cache) > CACHE_SIZE:
            try:
                del cache[next(iter(cache))]
            except (KeyError, RuntimeError, StopIteration):  # (another thread's doing)
                pass
    return parsed


def parse_all(sql: str) -> list[Parsed]:
    out = []
    pos = 0
    while True:
        p = parse_one(sql, pos)
        if p is None:
            return out
        out.append(p)
        pos = p.end


def clear_cache() -> None:
    _cache.clear()
