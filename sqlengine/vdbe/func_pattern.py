"""LIKE and GLOB pattern matching with SQLite's rules (its patternCompare()), for Python
callers; the matching itself is compiled code in ``_pattern.pyx``.

LIKE: ``%`` matches any run of characters, ``_`` one character, an optional ESCAPE character
makes the next pattern character literal (an escape at the end of the pattern matches
nothing); letters compare case-insensitively for ASCII only (unless
``case_sensitive_like``). If the escape character is ``%`` or ``_`` that wildcard loses its
meaning. GLOB: ``*``, ``?`` and ``[...]`` sets (``[^...]`` inverts, ``a-z`` ranges, a ``]``
first in the set is literal, an unterminated set matches nothing), case-sensitive.
Strings and patterns end at their first NUL character, as in C.

Patterns are compiled once and cached (by pattern, escape and case folding). The SQL-level
rules (NULLs, numbers converted to text, BLOBs never matching, the ESCAPE checks, the
pattern length limit) belong to ``functions.f_like``/``f_glob``; ``PatternCall`` is the
VM's fast path for the built-in functions. This module never raises for two texts.
"""

from __future__ import annotations

from sqlengine.vdbe._pattern import Pattern, PatternCall
from sqlengine.vdbe._pattern import glob as _glob
from sqlengine.vdbe._pattern import like as _like

__all__ = ["Pattern", "PatternCall", "like", "glob"]


def like(pattern: str, s: str, escape: str | None = None, case_sensitive: bool = False) -> bool:
    """``s LIKE pattern [ESCAPE escape]`` for two texts (``escape``: one character)."""
    return _like(pattern, s, escape, case_sensitive)


def glob(pattern: str, s: str) -> bool:
    """``s GLOB pattern`` for two texts."""
    return _glob(pattern, s)
