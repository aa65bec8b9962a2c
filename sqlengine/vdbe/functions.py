"""SQLite's built-in SQL functions and the function registry the compiler and the VM share.

The registry
------------
Each function is a ``FuncDef``: ``name`` (lower case), ``nargs`` (-1 = any number),
``func``, ``deterministic``, ``needs_collation`` and ``kind`` (``'scalar'``,
``'aggregate'`` or ``'window'``). SQLite resolves a call by name and argument count: an
exact ``nargs`` match wins over a variadic one. ``find_function(name, nargs)`` returns the
``FuncDef`` or ``None``; ``function_exists(name)`` tells the compiler which message to give:
``no such function: NAME`` or ``wrong number of arguments to function NAME()``. A
connection keeps its own ``FunctionRegistry`` (built-ins + user functions; a user function
of the same name and argument count replaces the built-in, as in SQLite).

Calling convention (scalar functions)
-------------------------------------
``fdef.func(ctx, *args)``: ``args`` are plain SQL values (None, int, float, str, bytes) and
the result is one too. ``ctx`` is the statement's *function context*, an object the VM
provides (``FunctionContext`` below is a complete default implementation the VM may use or
subclass). The functions read these attributes of it, at call time:

* ``ctx.collation`` -- the collation comparator for functions with ``needs_collation``
  (scalar min/max, nullif): the VM sets it to the collation of the call (SQLite takes the
  collation of the left-most argument that has one; None = BINARY) before calling.
* ``ctx.last_insert_rowid``, ``ctx.changes``, ``ctx.total_changes`` -- ints (properties
  are fine) for last_insert_rowid(), changes(), total_changes().
* ``ctx.now()`` -- the statement's current time as a Unix timestamp (float seconds, UTC),
  the same value for every call within one statement (SQLite's rule for 'now'); the
  default implementation caches the first reading until ``ctx.reset_now()``, which the VM
  calls when a statement starts.
* ``ctx.random_bytes(n)`` -- ``n`` random bytes (random(), randomblob()).
* ``ctx.case_sensitive_like`` -- bool, PRAGMA case_sensitive_like.

Aggregates: ``fdef.func`` is a class; the VM creates one instance per group with
``cls(ctx)`` and calls ``step(*args)``, then ``finalize()`` (see ``aggregates.py``; window
use adds ``inverse(*args)`` and ``value()``). DISTINCT is the VM's job.

Operators and table-valued functions: ``a -> b`` and ``a ->> b`` are the 2-argument
functions named ``'->'`` and ``'->>'``. JSON results are ``func_json.JsonText`` (a str
subclass standing for SQLite's JSON subtype). ``json_each``/``json_tree`` are not in the
registry: ``func_json.json_each(x[, path])`` / ``json_tree`` return their rows as tuples in
``func_json.JSON_EACH_COLUMNS`` order (the last two columns, json and root, are HIDDEN).
``coalesce``/``ifnull``/``iif`` are here for completeness; the compiler may short-circuit
them. ``likelihood``'s constant-argument check belongs to the compiler.

Errors are ``sqlengine.errors`` exceptions carrying SQLite's message (``integer overflow``,
``string or blob too big``...). This module never touches registers, cursors or storage.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import struct
from collections.abc import Callable
from dataclasses import dataclass

from sqlengine.errors import SQLITE_TOOBIG, DataError, Error, OperationalError
from sqlengine.vdbe import _values as V
from sqlengine.vdbe.func_pattern import glob as _glob
from sqlengine.vdbe.func_pattern import like as _like
from sqlengine.vdbe.func_printf import MAX_LENGTH, sqlite_printf

SQLITE_VERSION = "3.40.1"
SQLITE_SOURCE_ID = "2022-12-28 14:03:47 df5c253c0b3dd24916e4ec7cf77d3db5294cc9fd45ae7b9c5e82ad8197f3alt1"
LIKE_PATTERN_LIMIT = 50000  # SQLITE_LIMIT_LIKE_PATTERN_LENGTH


@dataclass(slots=True)
class FuncDef:
    name: str
    nargs: int
    func: Callable
    deterministic: bool = True
    needs_collation: bool = False
    kind: str = "scalar"


class FunctionContext:
    """A default function context (see the module docstring); the VM may use it as is."""

    collation = None
    last_insert_rowid = 0
    changes = 0
    total_changes = 0
    case_sensitive_like = False

    def __init__(self) -> None:
        self._now: float | None = None

    def now(self) -> float:
        if self._now is None:
            import time

            self._now = time.time()
        return self._now

    def reset_now(self) -> None:
        """Forget the statement time (call between statements)."""
        self._now = None

    def random_bytes(self, n: int) -> bytes:
        return os.urandom(n)


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def value_int32(v) -> int:
    """sqlite3_value_int(): the 64-bit value truncated to a C int."""
    i = V.to_int(v) & 0xFFFFFFFF
    return i - 0x100000000 if i >= 0x80000000 else i


def _text(v):
    """sqlite3_value_text(): None for NULL (JSON text as a plain str)."""
    if type(v) is str or v is None:
        return v
    if isinstance(v, str):
        return str(v)
    return V.to_text(v)


def _cstr(s: str) -> str:
    """A text as C code sees it: up to the first NUL."""
    k = s.find("\0")
    return s if k < 0 else s[:k]


def _too_big():
    return DataError("string or blob too big", code=SQLITE_TOOBIG)


# ---------------------------------------------------------------------------------------------
# core scalar functions
# ---------------------------------------------------------------------------------------------


def f_abs(ctx, x):
    if x is None:
        return None
    if type(x) is int:
        if x == -9223372036854775808:
            raise OperationalError("integer overflow")
        return -x if x < 0 else x
    r = V.to_real(x)
    return -r if r < 0 else r


def f_coalesce(ctx, *args):
    for a in args:
        if a is not None:
            return a
    return None


def f_ifnull(ctx, x, y):
    return y if x is None else x


def f_iif(ctx, c, x, y):
    return x if V.truth(c) else y


def f_nullif(ctx, x, y):
    if x is not None and y is not None and V.compare(x, y, ctx.collation) == 0:
        return None
    return x


def f_length(ctx, x):
    if x is None:
        return None
    t = type(x)
    if t is bytes:
        return len(x)
    if t is not str:
        x = _text(x)
    k = x.find("\0")
    if k >= 0:
        x = x[:k]
    if x.isascii() or not V.has_escapes(x):
        return len(x)
    return _utf8_char_count(V.text_bytes(x))


def _utf8_char_count(z: bytes) -> int:
    """length() of text bytes ``z`` that are not all UTF-8, counted as SQLite's lengthFunc
    counts them: a byte from 0xC0 up starts a character that takes the continuation bytes
    (0x80..0xBF) after it; any other byte is a character of its own."""
    n = i = 0
    end = len(z)
    while i < end:
        c = z[i]
        i += 1
        n += 1
        if c >= 0xC0:
            while i < end and z[i] & 0xC0 == 0x80:
                i += 1
    return n


# The value bits a UTF-8 lead byte from 0xC0 up gives, by byte - 0xC0 (SQLite's
# sqlite3Utf8Trans1: a byte of a sequence longer than four gives the low bits of its count).
_UTF8_LEAD = bytes(list(range(32)) + list(range(16)) + list(range(8)) + [0, 1, 2, 3, 0, 1, 0, 0])


def _utf8_read(z: bytes) -> int:
    """The first character of text bytes ``z`` as SQLite's sqlite3Utf8Read reads it (the
    lead byte's bits, then six bits of each continuation byte after it; a result below
    0x80 from a lead byte, a surrogate, or U+FFFE/U+FFFF is U+FFFD)."""
    c = z[0]
    if c < 0xC0:
        return c
    c = _UTF8_LEAD[c - 0xC0]
    i = 1
    while i < len(z) and z[i] & 0xC0 == 0x80:
        c = (c << 6) + (z[i] & 0x3F)
        i += 1
    if c < 0x80 or c & 0xFFFFF800 == 0xD800 or c & 0xFFFFFFFE == 0xFFFE:
        return 0xFFFD
    return c


def f_octet_length(ctx, x):
    if x is None:
        return None
    if type(x) is bytes:
        return len(x)
    return V.utf8_length(_text(x))


def f_lower(ctx, x):
    t = _text(x)
    return None if t is None else t.translate(_ASCII_LOWER)


def f_upper(ctx, x):
    t = _text(x)
    return None if t is None else t.translate(_ASCII_UPPER)


def _substr(x, y, z, argc):
    if y is None or (argc == 3 and z is None):
        return None
    if x is None:
        return None
    p1 = value_int32(y)
    isblob = type(x) is bytes
    if isblob:
        if not x:
            return None  # an empty blob has no data pointer: NULL
        data = x
        length = len(data)
    else:
        data = _cstr(_text(x))
        length = len(data)
    neg_p2 = False
    if argc == 3:
        p2 = value_int32(z)
        if p2 < 0:
            p2 = -p2
            neg_p2 = True
    else:
        p2 = MAX_LENGTH
    if p1 < 0:
        p1 += length
        if p1 < 0:
            p2 += p1
            if p2 < 0:
                p2 = 0
            p1 = 0
    elif p1 > 0:
        p1 -= 1
    elif p2 > 0:
        p2 -= 1
    if neg_p2:
        p1 -= p2
        if p1 < 0:
            p2 += p1
            p1 = 0
    return data[p1:p1 + p2]


def f_substr2(ctx, x, y):
    return _substr(x, y, None, 2)


def f_substr3(ctx, x, y, z):
    return _substr(x, y, z, 3)


def _trim(x, chars, left, right):
    t = _text(x)
    if t is None:
        return None
    if chars is None:
        return None
    if chars == "":
        return t
    if left:
        t = t.lstrip(chars)
    if right:
        t = t.rstrip(chars)
    return t


def f_trim(ctx, x, y=" "):
    return _trim(x, _cstr(_text(y)) if y is not None else None, True, True)


def f_ltrim(ctx, x, y=" "):
    return _trim(x, _cstr(_text(y)) if y is not None else None, True, False)


def f_rtrim(ctx, x, y=" "):
    return _trim(x, _cstr(_text(y)) if y is not None else None, False, True)


def f_replace(ctx, x, y, z):
    s = _text(x)
    if s is None:
        return None
    pat = _text(y)
    if pat is None:
        return None
    if pat == "" or pat[0] == "\0":
        return V.to_text(x) if type(x) is bytes else x
    rep = _text(z)
    if rep is None:
        return None
    out = s.replace(pat, rep)
    if len(out) > MAX_LENGTH:
        raise _too_big()
    return out


def f_instr(ctx, x, y):
    if x is None or y is None:
        return None
    if type(x) is bytes and type(y) is bytes:
        if len(y) == 0:
            return 1
        return x.find(y) + 1
    if type(x) is bytes or type(y) is bytes:
        return _instr_utf8(V.to_blob(x), V.to_blob(y))
    hs = x if type(x) is str else V.to_text(x)
    nd = y if type(y) is str else V.to_text(y)
    if nd == "":
        return 1
    return hs.find(nd) + 1


def _instr_utf8(hs, nd):
    """instr() of a text and a blob: SQLite reads the blob's bytes as text unchanged and
    compares bytes only where a character starts (never inside a UTF-8 sequence),
    counting the characters passed (the first byte always starts one); so a blob may match the leading bytes of one."""
    if len(nd) == 0:
        return 1
    at = hs.find(nd)
    if at == 0:
        return 1
    while at > 0:
        if (hs[at] & 0xC0) != 0x80:
            return 2 + sum(1 for b in hs[1:at] if (b & 0xC0) != 0x80)
        at = hs.find(nd, at + 1)
    return 0


def _round(x, y, has_y):
    n = 0
    if has_y:
        if y is None:
            return None
        n = value_int32(y)
        if n > 30:
            n = 30
        if n < 0:
            n = 0
    if x is None:
        return None
    r = V.to_real(x)
    if r < -4503599627370496.0 or r > 4503599627370496.0:
        return r
    if n == 0:
        return float(int(r + (-0.5 if r < 0 else 0.5)))
    s = V.render_real(r, n, "f")
    return V.to_real(s)


def f_round1(ctx, x):
    return _round(x, None, False)


def f_round2(ctx, x, y):
    return _round(x, y, True)


def f_typeof(ctx, x):
    return V.typeof(x)


def f_hex(ctx, x):
    if x is None:
        return ""
    b = x if type(x) is bytes else V.to_blob(x)
    if 2 * len(b) > MAX_LENGTH:
        raise _too_big()
    return b.hex().upper()


def quote_value(x) -> str:
    """SQLite's quote(): a SQL literal for the value."""
    t = type(x)
    if x is None:
        return "NULL"
    if t is int or t is bool:
        return str(int(x))
    if t is float:
        s = V.real_to_text(x)
        if V.to_real(s) != x and x == x:
            s = V.render_real(x, 20, "e", False, True, "")
        return s
    if isinstance(x, str):  # (JSON text too)
        return "'" + _cstr(x).replace("'", "''") + "'"
    return "X'" + bytes(x).hex().upper() + "'"


def f_quote(ctx, x):
    if type(x) is bytes and 2 * len(x) + 3 > MAX_LENGTH:
        raise _too_big()
    return quote_value(x)


def f_char(ctx, *args):
    out = []
    for a in args:
        c = V.to_int(a)
        if c < 0 or c > 0x10FFFF:
            c = 0xFFFD
        if 0xD800 <= c <= 0xDFFF:  # (SQLite writes its 3 bytes, not UTF-8: held as escapes)
            out.append(V.text_of_bytes(chr(c).encode("utf-8", "surrogatepass")))
        else:
            out.append(chr(c))
    return "".join(out)


def f_unicode(ctx, x):
    t = _text(x)
    if not t or t[0] == "\0":
        return None
    c = ord(t[0])
    if 0xDC80 <= c <= 0xDCFF:  # (bytes that are not UTF-8: see _values.text_bytes)
        return _utf8_read(V.text_bytes(_cstr(t)))
    return c


# soundex() codes of the letters A..Z (SQLite's iCode table; a letter coded 0 separates
# runs of equal codes)
_SOUNDEX = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "01230120022455012623010202"))


def f_soundex(ctx, x):
    """soundex(X) as SQLite's (SQLITE_SOUNDEX build): over the UTF-8 bytes, from the first
    ASCII letter; a byte beyond ASCII is coded as its low 7 bits, as in its C code;
    "?000" when there is no letter."""
    z = V.text_bytes(_cstr(_text(x) or ""))
    i = 0
    while i < len(z) and not (65 <= z[i] <= 90 or 97 <= z[i] <= 122):
        i += 1
    if i == len(z):
        return "?000"

    def code(byte):
        ch = chr(byte & 0x7F).upper()
        return int(_SOUNDEX.get(ch, "0"))
    out = [chr(z[i]).upper()]
    prev = code(z[i])
    while len(out) < 4 and i < len(z):
        c = code(z[i])
        if c > 0:
            if c != prev:
                prev = c
                out.append(str(c))
        else:
            prev = 0
        i += 1
    return "".join(out).ljust(4, "0")


def f_random(ctx):
    return struct.unpack("<q", ctx.random_bytes(8))[0]


def f_randomblob(ctx, n):
    k = V.to_int(n)
    if k < 1:
        k = 1
    if k > MAX_LENGTH:
        raise _too_big()
    return ctx.random_bytes(k)


def f_zeroblob(ctx, n):
    k = V.to_int(n)
    if k < 0:
        k = 0
    if k > MAX_LENGTH:
        raise _too_big()
    return bytes(k)


def f_printf(ctx, *args):
    if not args:
        return None
    return sqlite_printf(args[0], args[1:])


def _pattern_too_complex(p: str) -> bool:
    return len(p) > LIKE_PATTERN_LIMIT // 4 and \
        len(p.encode("utf-8", "replace")) > LIKE_PATTERN_LIMIT


# sqlite3Utf8Trans1: the value bits of a UTF-8 lead byte 0xc0..0xff
_UTF8_LEAD = bytes(list(range(32)) + list(range(16)) + list(range(8)) + [0, 1, 2, 3, 0, 1, 0, 0])


def _escape_char(v):
    """The ESCAPE operand as likeFunc() reads it: None for NULL, else its one character
    (a str, or for a blob whose UTF-8 is invalid the code point SQLite's lenient decoder
    reads, as an int); 'ESCAPE expression must be a single character' otherwise."""
    if type(v) is bytes:
        z = v.split(b"\0", 1)[0]
        n = 0
        i = 0
        while i < len(z):  # sqlite3Utf8CharLen(): SQLITE_SKIP_UTF8 steps
            i += 1
            if z[i - 1] >= 0xC0:
                while i < len(z) and z[i] & 0xC0 == 0x80:
                    i += 1
            n += 1
        if n != 1:
            raise OperationalError("ESCAPE expression must be a single character")
        c = z[0]
        if c >= 0xC0:  # sqlite3Utf8Read()
            c = _UTF8_LEAD[c - 0xC0]
            for b in z[1:]:
                c = ((c << 6) + (b & 0x3F)) & 0xFFFFFFFF
            if c < 0x80 or c & 0xFFFFF800 == 0xD800 or c & 0xFFFFFFFE == 0xFFFE:
                c = 0xFFFD
        return chr(c) if c <= 0x10FFFF else c
    e = _text(v)
    if e is None:
        return None
    e = _cstr(e)
    if len(e) != 1:
        raise OperationalError("ESCAPE expression must be a single character")
    return e


def f_like(ctx, pattern, s, *esc):
    """like(PATTERN, STRING[, ESCAPE]) = STRING LIKE PATTERN. Like the oracle's build
    (SQLITE_LIKE_DOESNT_MATCH_BLOBS), a BLOB operand never matches."""
    if type(pattern) is bytes or type(s) is bytes:
        return 0
    if not esc and type(pattern) is str and type(s) is str and len(pattern) < 12500:
        return 1 if _like(pattern, s, None, ctx.case_sensitive_like) else 0
    zb = _text(pattern)
    za = _text(s)
    if zb is not None and _pattern_too_complex(zb):
        raise OperationalError("LIKE or GLOB pattern too complex")
    escape = None
    if esc:
        escape = _escape_char(esc[0])
        if escape is None:
            return None
    if za is None or zb is None:
        return None
    return 1 if _like(zb, za, escape, bool(ctx.case_sensitive_like)) else 0


def f_glob(ctx, pattern, s):
    """glob(PATTERN, STRING) = STRING GLOB PATTERN (a BLOB operand never matches)."""
    if type(pattern) is bytes or type(s) is bytes:
        return 0
    zb = _text(pattern)
    za = _text(s)
    if zb is not None and _pattern_too_complex(zb):
        raise OperationalError("LIKE or GLOB pattern too complex")
    if za is None or zb is None:
        return None
    return 1 if _glob(zb, za) else 0


def f_min(ctx, *args):
    coll = ctx.collation
    best = args[0]
    if best is None:
        return None
    for a in args[1:]:
        if a is None:
            return None
        if V.compare(best, a, coll) >= 0:
            best = a
    return best


def f_max(ctx, *args):
    coll = ctx.collation
    best = args[0]
    if best is None:
        return None
    for a in args[1:]:
        if a is None:
            return None
        if V.compare(best, a, coll) < 0:
            best = a
    return best


def f_last_insert_rowid(ctx):
    return ctx.last_insert_rowid


def f_changes(ctx):
    return ctx.changes


def f_total_changes(ctx):
    return ctx.total_changes


def f_sqlite_version(ctx):
    return SQLITE_VERSION


def f_sqlite_source_id(ctx):
    return SQLITE_SOURCE_ID


def f_identity(ctx, x):
    return x


def f_likelihood(ctx, x, y):
    return x


def f_concat(ctx, *args):
    return "".join(_text(a) for a in args if a is not None)


def f_concat_ws(ctx, sep, *args):
    if sep is None:
        return None
    return _text(sep).join(_text(a) for a in args if a is not None)


def f_unhex(ctx, x, *ignore_arg):
    if x is None or (ignore_arg and ignore_arg[0] is None):
        return None
    ignore = ignore_arg[0] if ignore_arg else None
    s = _text(x)
    ig = "" if ignore is None else _text(ignore)
    out = bytearray()
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c in ig and not _ishex(c):  # hex digits in Y are not ignored (documented)
            i += 1
            continue
        if i + 1 >= n or not _ishex(c) or not _ishex(s[i + 1]):
            return None
        out.append(int(s[i:i + 2], 16))
        i += 2
    return bytes(out)


def _ishex(c: str) -> bool:
    return c in "0123456789abcdefABCDEF"


# ---------------------------------------------------------------------------------------------
# registry
# ---------------------------------------------------------------------------------------------


class FunctionRegistry:
    """Functions by (lower-case name, nargs). ``parent`` supplies the built-ins."""

    def __init__(self, parent: FunctionRegistry | None = None) -> None:
        self._defs: dict[str, dict[int, FuncDef]] = {}
        self.parent = parent

    def add(self, fdef: FuncDef) -> None:
        self._defs.setdefault(fdef.name.lower(), {})[fdef.nargs] = fdef

    def remove(self, name: str, nargs: int) -> None:
        d = self._defs.get(name.lower())
        if d:
            d.pop(nargs, None)

    def register_user_function(self, name: str, nargs: int, fn: Callable,
                               deterministic: bool = False) -> None:
        """A scalar function from ``Connection.create_function``: ``fn(*args)`` gets no
        context; exceptions and results are handled as the stdlib sqlite3 module does
        (``user-defined function raised exception``). ``fn=None`` removes it."""
        if fn is None:
            self.remove(name, nargs)
            return

        def call(ctx, *args):
            try:
                r = fn(*args)
            except Error:
                raise  # already an engine error (e.g. from the DB-API layer's own wrapper)
            except Exception:
                raise OperationalError("user-defined function raised exception") from None
            return user_result(r, "user-defined function raised exception")

        self.add(FuncDef(name.lower(), nargs, call, deterministic))

    def register_user_aggregate(self, name: str, nargs: int, cls) -> None:
        """An aggregate from ``Connection.create_aggregate`` (or a window aggregate from
        ``create_window_function``): ``cls()`` with step/finalize (and value/inverse),
        wrapped so that its errors read as the stdlib's. ``cls=None`` removes it."""
        if cls is None:
            self.remove(name, nargs)
            return
        self.add(FuncDef(name.lower(), nargs, lambda ctx: UserAggregate(cls), False,
                         kind="aggregate"))

    def find(self, name: str, nargs: int) -> FuncDef | None:
        key = name.lower()
        reg: FunctionRegistry | None = self
        while reg is not None:
            d = reg._defs.get(key)
            if d:
                f = d.get(nargs)
                if f is not None:
                    return f
                f = d.get(-1)
                if f is not None:
                    return f
            reg = reg.parent
        return None

    def exists(self, name: str) -> bool:
        key = name.lower()
        reg: FunctionRegistry | None = self
        while reg is not None:
            if reg._defs.get(key):
                return True
            reg = reg.parent
        return False

    def names(self) -> set[str]:
        out: set[str] = set()
        reg: FunctionRegistry | None = self
        while reg is not None:
            out.update(k for k, v in reg._defs.items() if v)
            reg = reg.parent
        return out


def user_result(r, message: str):
    """Convert a user function's Python result to an SQL value as the stdlib does."""
    t = type(r)
    if r is None or t is str or t is bytes:
        return r
    if t is int or t is bool or isinstance(r, int):
        r = int(r)
        if not -9223372036854775808 <= r <= 9223372036854775807:
            raise DataError("string or blob too big", code=SQLITE_TOOBIG)
        return r
    if isinstance(r, float):
        r = float(r)
        return None if r != r else r
    if isinstance(r, str):
        return str(r)
    if isinstance(r, (bytearray, memoryview)):
        return bytes(r)
    raise OperationalError(message)


class UserAggregate:
    """A user aggregate instance behind the built-in aggregate protocol."""

    __slots__ = ("cls", "obj")

    def __init__(self, cls):
        self.cls = cls
        self.obj = None

    def _get(self):
        if self.obj is None:
            try:
                self.obj = self.cls()
            except Error:
                raise
            except Exception:
                raise OperationalError(
                    "user-defined aggregate's '__init__' method raised error") from None
        return self.obj

    def _call(self, method: str, *args):
        obj = self._get()
        try:
            return getattr(obj, method)(*args)
        except Error:
            raise
        except Exception:
            raise OperationalError(
                f"user-defined aggregate's '{method}' method raised error") from None

    def step(self, *args):
        self._call("step", *args)

    def inverse(self, *args):
        self._call("inverse", *args)

    def value(self):
        return user_result(self._call("value"),
                           "user-defined aggregate's 'value' method raised error")

    def finalize(self):
        return user_result(self._call("finalize"),
                           "user-defined aggregate's 'finalize' method raised error")


BUILTINS = FunctionRegistry()


def _add(name, nargs, func, deterministic=True, needs_collation=False, kind="scalar"):
    BUILTINS.add(FuncDef(name, nargs, func, deterministic, needs_collation, kind))


def _register_core() -> None:
    _add("abs", 1, f_abs)
    _add("coalesce", -1, _coalesce_checked)
    _add("ifnull", 2, f_ifnull)
    _add("iif", 3, f_iif)
    _add("nullif", 2, f_nullif, needs_collation=True)
    _add("length", 1, f_length)
    _add("octet_length", 1, f_octet_length)
    _add("lower", 1, f_lower)
    _add("upper", 1, f_upper)
    for nm in ("substr", "substring"):
        _add(nm, 2, f_substr2)
        _add(nm, 3, f_substr3)
    _add("trim", 1, f_trim)
    _add("trim", 2, f_trim)
    _add("ltrim", 1, f_ltrim)
    _add("ltrim", 2, f_ltrim)
    _add("rtrim", 1, f_rtrim)
    _add("rtrim", 2, f_rtrim)
    _add("replace", 3, f_replace)
    _add("instr", 2, f_instr)
    _add("round", 1, f_round1)
    _add("round", 2, f_round2)
    _add("typeof", 1, f_typeof)
    _add("hex", 1, f_hex)
    _add("unhex", 1, f_unhex)
    _add("unhex", 2, f_unhex)
    _add("quote", 1, f_quote)
    _add("char", -1, f_char)
    _add("unicode", 1, f_unicode)
    _add("soundex", 1, f_soundex)
    _add("random", 0, f_random, deterministic=False)
    _add("randomblob", 1, f_randomblob, deterministic=False)
    _add("zeroblob", 1, f_zeroblob)
    _add("printf", -1, f_printf)
    _add("format", -1, f_printf)
    _add("like", 2, f_like)
    _add("like", 3, f_like)
    _add("glob", 2, f_glob)
    _add("min", -1, _min_checked, needs_collation=True)
    _add("max", -1, _max_checked, needs_collation=True)
    _add("last_insert_rowid", 0, f_last_insert_rowid, deterministic=False)
    _add("changes", 0, f_changes, deterministic=False)
    _add("total_changes", 0, f_total_changes, deterministic=False)
    _add("sqlite_version", 0, f_sqlite_version, deterministic=False)
    _add("sqlite_source_id", 0, f_sqlite_source_id, deterministic=False)
    _add("likely", 1, f_identity)
    _add("unlikely", 1, f_identity)
    _add("likelihood", 2, f_likelihood)
    _add("concat", -1, f_concat)
    _add("concat_ws", -1, f_concat_ws)


def _coalesce_checked(ctx, *args):
    return f_coalesce(ctx, *args)


def _min_checked(ctx, *args):
    return f_min(ctx, *args)


def _max_checked(ctx, *args):
    return f_max(ctx, *args)


# Functions whose variadic form has a minimum argument count (SQLite registers them that
# way: coalesce needs 2, scalar min/max 2 (1 argument is the aggregate), concat 1,
# concat_ws 2, char/printf/format 0 (printf() is NULL).
MIN_ARGS = {"coalesce": 2, "min": 2, "max": 2, "concat": 1, "concat_ws": 2}


def find_function(name: str, nargs: int, registry: FunctionRegistry | None = None):
    """The FuncDef SQLite would call for ``name(<nargs arguments>)``, or None.

    Use ``function_exists(name)`` to choose between ``no such function: NAME`` and
    ``wrong number of arguments to function NAME()`` when this returns None."""
    reg = BUILTINS if registry is None else registry
    key = name.lower()
    if key in ("min", "max") and nargs == 1:
        return reg.find(key, 1) if _has_exact(reg, key, 1) else None
    f = reg.find(key, nargs)
    if f is None:
        return None
    if f.nargs == -1 and nargs < MIN_ARGS.get(key, 0) and f.func in _BUILTIN_FUNCS:
        return None
    return f


def _has_exact(reg: FunctionRegistry, key: str, nargs: int) -> bool:
    r: FunctionRegistry | None = reg
    while r is not None:
        d = r._defs.get(key)
        if d and nargs in d:
            return True
        r = r.parent
    return False


def function_exists(name: str, registry: FunctionRegistry | None = None) -> bool:
    """True when some function (any argument count) is called ``name``."""
    reg = BUILTINS if registry is None else registry
    return reg.exists(name)


_register_core()
_BUILTIN_FUNCS = {f_concat, f_concat_ws, _coalesce_checked, _min_checked, _max_checked}


def _load_more() -> None:
    """Register the aggregates and the function families of the func_* modules."""
    from sqlengine.vdbe import aggregates

    aggregates.register(BUILTINS)
    for modname in ("func_math", "func_datetime", "func_json"):
        if importlib.util.find_spec(f"sqlengine.vdbe.{modname}") is None:
            continue
        importlib.import_module(f"sqlengine.vdbe.{modname}").register(BUILTINS)


_load_more()
