"""Collating sequences: SQLite's built-in BINARY, NOCASE and RTRIM, and a registry that a
connection extends with user collations (``Connection.create_collation``).

A collation is a callable ``coll(a: str, b: str) -> int`` (negative, zero, positive), the
shape ``_values.compare`` takes. BINARY is represented by ``None`` in the VM's hot path
(``compare(a, b, None)`` compares code points, which is the memcmp order of UTF-8); the
``binary`` callable exists for code that needs a function. Collations only ever see TEXT
operands: numbers and blobs are ordered before any collation is consulted.

This module never converts values and never touches the connection.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlengine.errors import OperationalError

Collation = Callable[[str, str], int]

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def binary(a: str, b: str) -> int:
    """memcmp() of the UTF-8 encodings (= code point order)."""
    return (a > b) - (a < b)


def nocase_key(s: str) -> str:
    """The key NOCASE compares: only the 26 ASCII upper-case letters are folded."""
    return s.translate(_ASCII_LOWER)


def nocase(a: str, b: str) -> int:
    """BINARY after folding ASCII A-Z to lower case (SQLite's sqlite3StrICmp). An ASCII
    text is folded by ``str.lower`` (which changes only A-Z there, and costs far less
    than ``translate``'s look-up per character)."""
    if a.isascii() and b.isascii():
        a = a.lower()
        b = b.lower()
    else:
        a = a.translate(_ASCII_LOWER)
        b = b.translate(_ASCII_LOWER)
    return (a > b) - (a < b)


def rtrim(a: str, b: str) -> int:
    """BINARY ignoring trailing spaces (U+0020 only)."""
    a = a.rstrip(" ")
    b = b.rstrip(" ")
    return (a > b) - (a < b)


BUILTIN: dict[str, Collation | None] = {"BINARY": None, "NOCASE": nocase, "RTRIM": rtrim}


class CollationRegistry:
    """The collations of one connection: the built-ins plus user ones. Names are
    case-insensitive (ASCII). ``get`` returns the comparator for ``_values.compare``
    (``None`` for BINARY)."""

    def __init__(self) -> None:
        self._user: dict[str, Collation] = {}
        self._names: dict[str, str] = {}  # key -> the name as first registered

    def register(self, name: str, fn: Collation | None) -> None:
        """Add or replace a user collation; ``fn=None`` removes it (as in sqlite3)."""
        key = name.upper()
        if fn is None:
            self._user.pop(key, None)
            self._names.pop(key, None)
        else:
            self._user[key] = fn
            self._names.setdefault(key, name)

    def listed(self) -> list[str]:
        """PRAGMA collation_list's names: the user collations, the latest first, then
        RTRIM, NOCASE, BINARY (the order of SQLite's collation hash)."""
        return list(reversed(self._names.values())) + ["RTRIM", "NOCASE", "BINARY"]

    def has_user(self) -> bool:
        """Whether a user collation is registered."""
        return bool(self._user)

    def exists(self, name: str) -> bool:
        key = name.upper()
        return key in self._user or key in BUILTIN

    def get(self, name: str | None) -> Collation | None:
        """The comparator for ``name`` (None or 'BINARY' -> None). Raises SQLite's
        ``no such collation sequence: NAME`` for an unknown name."""
        if name is None:
            return None
        key = name.upper()
        fn = self._user.get(key)
        if fn is not None:
            return _user_collation(fn)
        if key in BUILTIN:
            return BUILTIN[key]
        raise OperationalError(f"no such collation sequence: {name}")


def _user_collation(fn: Collation) -> Collation:
    """Wrap a user comparator as the stdlib sqlite3 calls it: a result that is not an
    integer counts as "equal" (0); an exception propagates to the statement's caller."""

    def call(a: str, b: str) -> int:
        r = fn(a, b)
        if not isinstance(r, int):
            return 0
        return (r > 0) - (r < 0)

    call.__wrapped__ = fn  # type: ignore[attr-defined]
    return call
