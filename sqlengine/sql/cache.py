"""The parse cache: ``parse_one`` by SQL text, a bounded LRU in front of the parser.

The same ``Parsed`` object comes back for the same text (and start), so callers must treat
the AST as immutable. Every statement prepared passes through here once, so the module is
compiled (build.py's PY_COMPILED; the source runs as it is when not built): the look-up,
the store and the eviction are then C calls, not a Python frame's bytecode. It never
parses by itself (``parser.parse_one`` does) and never looks at what it keeps.
"""

from __future__ import annotations

from .parser import Parsed
from .parser import parse_one as _parse_one_uncached

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
            for oldest in cache:  # (the first key: a loop over the dict, no iterator made)
                try:
                    del cache[oldest]
                except KeyError:  # (another thread's doing)
                    pass
                break
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
