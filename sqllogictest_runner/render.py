"""Render result values the way the reference runner (sqllogictest.c + slt_sqlite.c) does.

A query record names one type character per column; each value is turned into the text the
reference prints for it:

- SQL NULL is ``NULL`` whatever the type character.
- ``I``: ``sqlite3_column_int``: an INTEGER as is, a REAL truncated toward zero after being
  clamped to the 64-bit range, TEXT/BLOB by the longest leading integer prefix (after spaces
  and a sign; none gives 0, too many digits clamp); then wrapped to a signed 32-bit int.
- ``R``: ``sqlite3_column_double`` (TEXT/BLOB by the longest leading real prefix, else 0.0)
  printed as ``%.3f`` by SQLite's printf: round half up (SQLite adds 0.0005, and a tiny
  ``x*3e-16`` nudge below 2**36), at most 16 significant digits, then zeros.
- ``T``: the value's text: a REAL as SQLite renders it (``%!.15g``: ``1.0``, ``1.0e+20``),
  a BLOB as its raw bytes, cut at the first NUL (a C string); empty gives ``(empty)``; every
  byte outside ``' '``..``'~'`` becomes ``@``.

The input values are what a DB-API module returns: int, float, str, bytes, None. This module
only converts values; it never talks to an engine and never compares results.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from itertools import chain

__all__ = [
    "render_values",
    "render_column",
    "render_int",
    "render_real",
    "render_text",
    "real_to_text",
    "format_fixed3",
    "text_to_int64",
    "text_to_double",
]

_I64_MIN = -(1 << 63)
_I64_MAX = (1 << 63) - 1

# Bytes outside ' '..'~' print as '@' (what slt_sqlite.c does to sqlite3_column_text).
_AT_TABLE = bytes(b if 0x20 <= b <= 0x7E else 0x40 for b in range(256))

# sqlite3Isspace: space, \t, \n, \v, \f, \r.
_INT_PREFIX = re.compile(rb"[ \t\n\v\f\r]*([-+]?)([0-9]*)")
_INT_PREFIX_STR = re.compile(r"[ \t\n\v\f\r]*([-+]?)([0-9]*)")
_REAL_PREFIX = re.compile(
    rb"[ \t\n\v\f\r]*([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)"
)


def _as_bytes(v) -> bytes:
    if v.__class__ is bytes:
        return v
    if isinstance(v, str):
        return v.encode("utf-8", "surrogateescape")
    return bytes(v)


def text_to_int64(b) -> int:
    """sqlite3Atoi64 as sqlite3_column_int uses it: the leading integer, clamped to 64 bits.

    ``b`` is bytes or str (a str is matched as its UTF-8 bytes would be: only ASCII counts).
    """
    m = (_INT_PREFIX_STR if b.__class__ is str else _INT_PREFIX).match(b)
    digits = m.group(2)
    if not digits:
        return 0
    v = int(digits)
    if m.group(1) in ("-", b"-"):
        v = -v
    if v > _I64_MAX:
        return _I64_MAX
    if v < _I64_MIN:
        return _I64_MIN
    return v


def text_to_double(b: bytes) -> float:
    """sqlite3AtoF as sqlite3_column_double uses it: the longest leading real prefix, else 0."""
    m = _REAL_PREFIX.match(b)
    if m is None:
        return 0.0
    return float(m.group(1))


def _double_to_int64(x: float) -> int:
    # doubleToInt64 in vdbemem.c; a NaN converts as x86's cvttsd2si does (INT64_MIN).
    if x != x or x <= -9.223372036854775808e18:
        return _I64_MIN
    if x >= 9.223372036854775807e18:
        return _I64_MAX
    return int(x)


def _wrap32(v: int) -> str:
    if -2147483648 <= v <= 2147483647:
        return str(v)
    return str(((v + 2147483648) & 0xFFFFFFFF) - 2147483648)


def render_int(v) -> str:
    """Render one value for an ``I`` column."""
    t = v.__class__
    if t is int:
        if -2147483648 <= v <= 2147483647:
            return str(v)
        return _wrap32(max(_I64_MIN, min(_I64_MAX, v)))
    if t is float:
        if -2147483649.0 < v < 2147483648.0:  # (a NaN fails this test)
            return str(int(v))
        return _wrap32(_double_to_int64(v))
    if t is str:
        if not v or v[0].isalpha():  # no leading integer: 0
            return "0"
        return _wrap32(text_to_int64(v))
    if v is None:
        return "NULL"
    if isinstance(v, int):  # bool and other int subclasses
        return _wrap32(int(v))
    if isinstance(v, float):
        return _wrap32(_double_to_int64(float(v)))
    return _wrap32(text_to_int64(_as_bytes(v)))


# --- SQLite 3.40's printf for doubles ------------------------------------------------------
#
# SQLite formats a double with its own code (printf.c, etFLOAT/etGENERIC): it adds a rounder
# (0.5 in the last printed place; for %f also x*3e-16 when x < 2**36), normalises the value
# into [1,10) and peels digits off one by one, all in x87 80-bit long double. Python's
# correctly rounded formatting gives the same digits except when the exact value sits within
# a hair of a rounding tie; only those values take the exact emulation below.

_AR_ROUND = (5.0e-01, 5.0e-02, 5.0e-03, 5.0e-04, 5.0e-05, 5.0e-06, 5.0e-07, 5.0e-08, 5.0e-09,
             5.0e-10)


def _round_bits(q: Fraction, bits: int) -> Fraction:
    """Round q to ``bits`` significant bits, ties to even (x87 long double: 64, double: 53)."""
    if q == 0:
        return q
    neg = q < 0
    if neg:
        q = -q
    n, d = q.numerator, q.denominator
    e = n.bit_length() - d.bit_length()
    if (n << max(0, -e)) < (d << max(0, e)):
        e -= 1
    shift = bits - 1 - e
    m = round(q * (Fraction(1 << shift) if shift >= 0 else Fraction(1, 1 << -shift)))
    r = Fraction(m << -shift) if shift < 0 else Fraction(m, 1 << shift)
    return -r if neg else r


def _ld(q: Fraction) -> Fraction:
    return _round_bits(q, 64)


def _emulate_printf(x: float, generic: bool, precision: int, altform2: bool) -> str:
    """SQLite 3.40 printf of a finite double: ``%.{p}f`` or ``%!.{p}g``, digit for digit."""
    prefix = ""
    if x < 0.0:
        x = -x
        prefix = "-"
    if generic and precision > 0:
        precision -= 1
    idx = precision
    rounder = _AR_ROUND[idx % 10]
    while idx >= 10:
        rounder *= 1.0e-10
        idx -= 10
    rv = Fraction(x)
    if not generic:
        ex = (math.frexp(x)[1] - 1) if x >= 2.2250738585072014e-308 else -1023
        if precision + _c_div(ex, 3) < 15:
            rounder = float(_round_bits(Fraction(rounder) + _ld(rv * Fraction(3e-16)), 53))
        rv = _ld(rv + Fraction(rounder))
    exp = 0
    if rv > 0:
        scale = Fraction(1)
        for step, k in ((1e100, 100), (1e10, 10), (10.0, 1)):
            fs = Fraction(step)
            while rv >= _ld(fs * scale) and exp <= 350:
                scale = _ld(scale * fs)
                exp += k
        rv = _ld(rv / scale)
        while rv < Fraction(1e-8):
            rv = _ld(rv * Fraction(1e8))
            exp -= 8
        while rv < 1:
            rv = _ld(rv * 10)
            exp -= 1
        if exp > 350:
            return prefix + "Inf"
    if generic:
        rv = _ld(rv + Fraction(rounder))
        if rv >= 10:
            rv = _ld(rv * Fraction(0.1))
            exp += 1
        rtz = True
        if exp < -4 or exp > precision:
            use_exp = True
        else:
            use_exp = False
            precision -= exp
    else:
        rtz = altform2
        use_exp = False
    e2 = 0 if use_exp else exp
    nsd = 26 if altform2 else 16
    out = []

    def digit():
        nonlocal rv, nsd
        if nsd <= 0:
            return "0"
        nsd -= 1
        dg = int(rv)
        rv = _ld((rv - dg) * 10)
        return chr(48 + dg)

    if e2 < 0:
        out.append("0")
    else:
        while e2 >= 0:
            out.append(digit())
            e2 -= 1
    dp = precision > 0 or altform2
    if dp:
        out.append(".")
    e2 += 1
    while e2 < 0:
        out.append("0")
        precision -= 1
        e2 += 1
    while precision > 0:
        out.append(digit())
        precision -= 1
    s = "".join(out)
    if rtz and dp:
        s = s.rstrip("0")
        if s.endswith("."):
            s = s + "0" if altform2 else s[:-1]
    if use_exp:
        s += "e-" if exp < 0 else "e+"
        s += "%02d" % abs(exp)
    return prefix + s


def _c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _fixed3_sig16(a: float) -> str:
    """%.3f keeping at most 16 significant digits (rounded), padded with zeros."""
    mant, _, exp = ("%.15e" % a).partition("e")
    digits = mant.replace(".", "")
    e = int(exp)
    if e >= 15:
        return digits + "0" * (e - 15) + ".000"
    ipart = digits[: e + 1]
    frac = (digits[e + 1:] + "000")[:3]
    return ipart + "." + frac


def format_fixed3(x: float) -> str:
    """Format a double as the reference's ``%.3f`` (SQLite printf, 16 significant digits)."""
    if x != x:
        return "NaN"
    a = abs(x)  # -0.0 prints as 0.000: SQLite tests realvalue<0.0
    if a < 1e13:
        s6 = "%.6f" % a
        if 470 <= int(s6[-3:]) <= 530:
            return _emulate_printf(x, False, 3, False)
        s = "%.3f" % a
    elif a == math.inf:
        s = "Inf"
    else:
        s = _fixed3_sig16(a)
    return "-" + s if x < 0.0 else s


def render_real(v) -> str:
    """Render one value for an ``R`` column."""
    t = v.__class__
    if t is float:
        if 0.0 < v < 1e9:
            f = v * 1000.0
            frac = f - int(f)
            if not (0.47 < frac < 0.53):
                return "%.3f" % v
        return format_fixed3(v)
    if v is None:
        return "NULL"
    if t is int or isinstance(v, int):
        return format_fixed3(float(v))
    if isinstance(v, float):
        return format_fixed3(float(v))
    return format_fixed3(text_to_double(_as_bytes(v)))


# --- text form --------------------------------------------------------------------------------


def real_to_text(x: float) -> str:
    """A REAL as SQLite converts it to text (``%!.15g``): ``1.0``, ``0.1``, ``1.0e+20``."""
    if x != x:
        return "NaN"
    if x == 0.0:
        return "0.0"
    if x == math.inf:
        return "Inf"
    if x == -math.inf:
        return "-Inf"
    e20 = "%.20e" % x
    k = 3 if x < 0.0 else 2  # the 16th significant digit
    tail = int(e20[k + 14:k + 17])
    # Scaling by the inexact double 1e100 moves SQLite's digits by up to ~0.05 of a unit.
    lo, hi = (490, 510) if -1e100 < x < 1e100 else (300, 700)
    if lo <= tail <= hi:
        return _emulate_printf(x, True, 15, True)
    s = "%.15g" % x
    mant, e, exp = s.partition("e")
    if "." not in mant:
        mant += ".0"
    return mant + e + exp


def _bytes_text(b: bytes) -> str:
    z = b.find(b"\x00")
    if z >= 0:
        b = b[:z]
    if not b:
        return "(empty)"
    return b.translate(_AT_TABLE).decode("ascii")


def render_text(v) -> str:
    """Render one value for a ``T`` column."""
    t = v.__class__
    if t is str:
        if v.isascii() and v.isprintable():
            return v if v else "(empty)"
        return _bytes_text(v.encode("utf-8", "surrogateescape"))
    if v is None:
        return "NULL"
    if t is int:
        return str(v)
    if t is float:
        return real_to_text(v)
    if t is bytes or isinstance(v, (bytes, bytearray, memoryview)):
        return _bytes_text(bytes(v))
    if isinstance(v, int):
        return str(int(v))
    if isinstance(v, float):
        return real_to_text(float(v))
    return _bytes_text(str(v).encode("utf-8", "surrogateescape"))


_RENDERERS = {"I": render_int, "R": render_real, "T": render_text}

# The text of the integers met most often, so that most I values cost one dict lookup.
# (A float that equals one of these keys renders the same way: 3.0 -> "3".)
_INT_TEXT = {i: str(i) for i in range(-10000, 100001)}
_int_text = _INT_TEXT.get


def render_column(col, t: str) -> list[str]:
    """Render a sequence of values of one column (type character ``t``)."""
    if t == "I":
        out = list(map(_int_text, col))
        if None in out:
            out = [s if s is not None else render_int(v) for s, v in zip(out, col)]
        return out
    if t == "T":
        try:
            joined = "".join(col)
        except TypeError:
            pass
        else:
            if joined.isascii() and joined.isprintable() and "" not in col:
                return list(col)
        return list(map(render_text, col))
    return list(map(_RENDERERS[t], col))


def render_values(rows, types: str, sort: str = "nosort") -> list[str]:
    """Render ``rows`` (sequences of len(types) values) into the flat list of their texts,
    row after row, sorted as ``sort`` says (``rowsort``: rows compared column by column as
    strings; ``valuesort``: every value on its own)."""
    if not rows:
        return []
    if len(types) == 1:
        vals = render_column([r[0] for r in rows], types)
        if sort != "nosort":
            vals.sort()
        return vals
    rcols = [render_column(c, t) for c, t in zip(zip(*rows), types)]
    if sort == "rowsort":
        rrows = list(zip(*rcols))
        rrows.sort()
        return list(chain.from_iterable(rrows))
    vals = list(chain.from_iterable(zip(*rcols)))
    if sort == "valuesort":
        vals.sort()
    return vals
