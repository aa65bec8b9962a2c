"""LIKE and GLOB pattern matching with SQLite's rules (its patternCompare()).

LIKE: ``%`` matches any run of characters, ``_`` one character, an optional ESCAPE character
makes the next pattern character literal (an escape at the end of the pattern matches
nothing); letters compare case-insensitively for ASCII only (unless
``case_sensitive_like``). If the escape character is ``%`` or ``_`` that wildcard loses its
meaning. GLOB: ``*``, ``?`` and ``[...]`` sets (``[^...]`` inverts, ``a-z`` ranges, a ``]``
first in the set is literal, an unterminated set matches nothing), case-sensitive.
Strings and patterns end at their first NUL character, as in C.

Patterns are compiled once into token lists and cached; this module never raises except
through the callers' argument checks.
"""

from __future__ import annotations

import re
from functools import lru_cache

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

# token kinds
_ANY = 0  # % or *
_ONE = 1  # _ or ?
_LIT = 2  # literal character (already folded for LIKE)
_SET = 3  # [...] : (invert, chars frozenset, ranges tuple)
_FAIL = 4  # an unterminated set: matches nothing


@lru_cache(maxsize=4096)
def _compile_like(pattern: str, escape: str | None, nocase: bool) -> tuple:
    match_all = "%" if escape != "%" else None
    match_one = "_" if escape != "_" else None
    toks: list = []
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        i += 1
        if c == match_all:
            if not toks or toks[-1][0] != _ANY:
                toks.append((_ANY,))
        elif c == match_one:
            toks.append((_ONE,))
        elif escape is not None and c == escape:
            if i >= n:
                toks.append((_FAIL,))
                break
            c = pattern[i]
            i += 1
            toks.append((_LIT, c.translate(_ASCII_LOWER) if nocase else c))
        else:
            toks.append((_LIT, c.translate(_ASCII_LOWER) if nocase else c))
    return tuple(toks)


@lru_cache(maxsize=4096)
def _compile_glob(pattern: str) -> tuple:
    toks: list = []
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        i += 1
        if c == "*":
            if not toks or toks[-1][0] != _ANY:
                toks.append((_ANY,))
        elif c == "?":
            toks.append((_ONE,))
        elif c == "[":
            invert = False
            chars = set()
            ranges = []
            if i < n and pattern[i] == "^":
                invert = True
                i += 1
            if i < n and pattern[i] == "]":
                chars.add("]")
                i += 1
            prior = None
            closed = False
            while i < n:
                c2 = pattern[i]
                i += 1
                if c2 == "]":
                    closed = True
                    break
                if c2 == "-" and i < n and pattern[i] != "]" and prior is not None:
                    hi = pattern[i]
                    i += 1
                    ranges.append((prior, hi))
                    prior = None
                else:
                    chars.add(c2)
                    prior = c2
            if not closed:
                toks.append((_FAIL,))
                break
            toks.append((_SET, invert, frozenset(chars), tuple(ranges)))
        else:
            toks.append((_LIT, c))
    return tuple(toks)


def _tok_match(tok, ch: str) -> bool:
    kind = tok[0]
    if kind == _ONE:
        return True
    if kind == _LIT:
        return tok[1] == ch
    if kind == _SET:
        seen = ch in tok[2] or any(lo <= ch <= hi for lo, hi in tok[3])
        return seen != tok[1]
    return False


def _match(toks: tuple, s: str) -> bool:
    """Greedy matching with backtracking to the last wildcard (correct for patterns whose
    only multi-character token is ANY)."""
    ti = 0
    si = 0
    nt = len(toks)
    ns = len(s)
    star_ti = -1
    star_si = 0
    while True:
        if ti < nt:
            tok = toks[ti]
            if tok[0] == _ANY:
                star_ti = ti
                star_si = si
                ti += 1
                continue
            if tok[0] == _FAIL:
                return False
            if si < ns and _tok_match(tok, s[si]):
                ti += 1
                si += 1
                continue
        elif si == ns:
            return True
        if star_ti < 0 or star_si >= ns:
            return False
        star_si += 1
        si = star_si
        ti = star_ti + 1


def _class_char(c: str) -> str:
    return "\\" + c if c in "\\]^-[" else c


def _regex(toks: tuple, nocase: bool = False):
    """A compiled regular expression equivalent to a token list, or None when the pattern
    has more than two multi-character wildcards (a regex could then backtrack badly;
    ``_match`` is linear-ish and used instead)."""
    if sum(1 for t in toks if t[0] == _ANY) > 2:
        return None
    parts = []
    for t in toks:
        k = t[0]
        if k == _ANY:
            parts.append(".*")
        elif k == _ONE:
            parts.append(".")
        elif k == _LIT:
            parts.append(re.escape(t[1]))
        elif k == _SET:
            invert, chars, ranges = t[1], t[2], t[3]
            body = "".join(_class_char(c) for c in sorted(chars))
            body += "".join(_class_char(lo) + "-" + _class_char(hi) for lo, hi in ranges
                            if lo <= hi)
            if not body:
                parts.append("." if invert else "(?!)")
            else:
                parts.append("[" + ("^" if invert else "") + body + "]")
        else:  # _FAIL
            parts.append("(?!)")
    # ASCII-only case folding is exactly re.IGNORECASE under re.ASCII
    flags = re.DOTALL | (re.IGNORECASE | re.ASCII if nocase else 0)
    return re.compile("".join(parts), flags).fullmatch


@lru_cache(maxsize=4096)
def _like_matcher(pattern: str, escape: str | None, nocase: bool):
    toks = _compile_like(pattern, escape, nocase)
    return _regex(toks, nocase), toks


@lru_cache(maxsize=4096)
def _glob_matcher(pattern: str):
    toks = _compile_glob(pattern)
    return _regex(toks), toks


def _cut_nul(s: str) -> str:
    k = s.find("\0")
    return s if k < 0 else s[:k]


def like(pattern: str, s: str, escape: str | None = None, case_sensitive: bool = False) -> bool:
    """``s LIKE pattern [ESCAPE escape]`` for two texts."""
    if "\0" in pattern:
        pattern = _cut_nul(pattern)
    if "\0" in s:
        s = _cut_nul(s)
    nocase = not case_sensitive
    rx, toks = _like_matcher(pattern, escape, nocase)
    if rx is not None:
        return rx(s) is not None
    if nocase:
        s = s.translate(_ASCII_LOWER)
    return _match(toks, s)


def glob(pattern: str, s: str) -> bool:
    """``s GLOB pattern`` for two texts."""
    if "\0" in pattern:
        pattern = _cut_nul(pattern)
    if "\0" in s:
        s = _cut_nul(s)
    rx, toks = _glob_matcher(pattern)
    if rx is not None:
        return rx(s) is not None
    return _match(toks, s)
