"""The build options sqlengine reports as SQLite's ``PRAGMA compile_options``,
``pragma_compile_options``, ``sqlite_compileoption_used(X)`` and
``sqlite_compileoption_get(N)`` report theirs.

Each option is one that is true of this engine, in SQLite's name (without the ``SQLITE_``
prefix) and format (``NAME`` or ``NAME=VALUE``), sorted by name as SQLite lists them. Every
limit is read from the constant the engine enforces, never restated here. This module only
describes the engine; it never runs code or touches storage.
"""

from __future__ import annotations

from sqlengine.compiler.attach import MAX_ATTACHED
from sqlengine.sql import limits
from sqlengine.storage import format as fmt
from sqlengine.storage.pager import DEFAULT_CACHE_SIZE
from sqlengine.vdbe import functions as F
from sqlengine.vdbe._values import to_int

# SQLITE_THREADSAFE=1 (serialized): a connection may be shared between threads, which is
# what the DB-API module's threadsafety = 3 says (dbapi_threads serializes each call).
THREADSAFE = 1

_LIMITS = {
    "DEFAULT_CACHE_SIZE": DEFAULT_CACHE_SIZE,
    "DEFAULT_PAGE_SIZE": fmt.DEFAULT_PAGE_SIZE,
    "MAX_ATTACHED": MAX_ATTACHED,
    "MAX_COLUMN": limits.MAX_COLUMN,
    "MAX_COMPOUND_SELECT": limits.MAX_COMPOUND_SELECT,
    "MAX_EXPR_DEPTH": limits.MAX_EXPR_DEPTH,
    "MAX_FUNCTION_ARG": limits.MAX_FUNCTION_ARG,
    "MAX_LENGTH": F.MAX_LENGTH,
    "MAX_LIKE_PATTERN_LENGTH": F.LIKE_PATTERN_LIMIT,
    "MAX_PAGE_SIZE": fmt.MAX_PAGE_SIZE,
    "MAX_VARIABLE_NUMBER": limits.MAX_VARIABLE_NUMBER,
    "THREADSAFE": THREADSAFE,
}

# Features this engine has: math functions (vdbe/func_math), DELETE/UPDATE ... ORDER BY
# ... LIMIT, LIKE never matching a BLOB (functions.f_like), soundex() (functions.f_soundex).
_FEATURES = ("ENABLE_MATH_FUNCTIONS", "ENABLE_UPDATE_DELETE_LIMIT", "LIKE_DOESNT_MATCH_BLOBS",
             "SOUNDEX")

OPTIONS = tuple(sorted([f"{k}={v}" for k, v in _LIMITS.items()] + list(_FEATURES)))


def option_used(name) -> int:
    """sqlite3_compileoption_used: whether ``name`` (an optional ``SQLITE_`` prefix in any
    case) is an option, or an option's ``NAME`` before its ``=VALUE``; case-insensitive."""
    text = name if isinstance(name, str) else str(name)
    if text[:7].upper() == "SQLITE_":
        text = text[7:]
    n = len(text)
    text = text.upper()
    for opt in OPTIONS:
        if opt[:n].upper() == text and (len(opt) == n or opt[n] == "="):
            return 1
    return 0


def f_compileoption_used(ctx, x):
    if x is None:
        return None
    if isinstance(x, bytes):
        x = x.decode("utf-8", "replace")
    return option_used(x)


def f_compileoption_get(ctx, n):
    i = to_int(n) if n is not None else 0
    return OPTIONS[i] if 0 <= i < len(OPTIONS) else None


def register_functions() -> None:
    """Add sqlite_compileoption_used/get to the built-in functions (the compiler does, once,
    before any statement: the function table lives below the compiler, the list here)."""
    F._add("sqlite_compileoption_used", 1, f_compileoption_used, deterministic=False)
    F._add("sqlite_compileoption_get", 1, f_compileoption_get, deterministic=False)
