"""SQLite's printf()/format() SQL function: its own printf dialect, byte for byte.

Conversions: %d %i %u %x %X %o %p (integers, SQLite's 64-bit value of the argument),
%r (ordinal: 1st, 2nd), %f %e %E %g %G (SQLite's long-double digit generation, in
``_values.render_real``), %s %z (text), %c (first character, repeated ``precision`` times),
%q %Q %w (SQL quoting), %n (nothing), %%. Flags ``- + space # 0 , !``; width and
precision as digits or ``*`` (taken from the arguments). Width and precision count bytes of
UTF-8 for text, characters with the ``!`` flag. A conversion SQLite does not know ends the
output (and the result is NULL if nothing was produced); so does an output over SQLite's
length limit. Missing arguments read as NULL (0, 0.0 or '').

This module only formats; it never touches the connection.
"""

from __future__ import annotations

from sqlengine.vdbe import _values as V

MAX_LENGTH = 1_000_000_000  # SQLITE_LIMIT_LENGTH

# conversion -> (kind, base, signed, digits, alternate prefix)
_INT_CONV = {
    "d": (10, True, "0123456789", ""),
    "i": (10, True, "0123456789", ""),
    "r": (10, True, "0123456789", ""),
    "u": (10, False, "0123456789", ""),
    "x": (16, False, "0123456789abcdef", "0x"),
    "X": (16, False, "0123456789ABCDEF", "0X"),
    "p": (16, False, "0123456789ABCDEF", "0x"),
    "o": (8, False, "01234567", "0"),
}
_FLOAT_CONV = {"f": "f", "e": "e", "E": "e", "g": "g", "G": "g"}


class _TooBig(Exception):
    pass


class _Args:
    __slots__ = ("args", "i")

    def __init__(self, args):
        self.args = args
        self.i = 0

    def next(self):
        if self.i < len(self.args):
            v = self.args[self.i]
            self.i += 1
            return v
        return None

    def int(self) -> int:
        v = self.next()
        return 0 if v is None else V.to_int(v)

    def cint(self) -> int:
        """The argument as a C int (for '*' widths and precisions)."""
        i = self.int() & 0xFFFFFFFF
        return i - 0x100000000 if i >= 0x80000000 else i

    def real(self) -> float:
        v = self.next()
        return 0.0 if v is None else V.to_real(v)

    def text(self) -> bytes | None:
        v = self.next()
        if v is None:
            return None
        b = V.to_blob(v) if not isinstance(v, bytes) else v
        nul = b.find(b"\0")
        return b if nul < 0 else b[:nul]


def _utf8_prefix_len(b: bytes, nchars: int) -> int:
    """Bytes taken by the first ``nchars`` UTF-8 characters of ``b``."""
    i = 0
    n = len(b)
    while nchars > 0 and i < n:
        i += 1
        while i < n and (b[i] & 0xC0) == 0x80:
            i += 1
        nchars -= 1
    return i


def _continuation_bytes(b: bytes) -> int:
    return sum(1 for x in b if (x & 0xC0) == 0x80)


def sqlite_printf(fmt, args) -> str | None:
    """printf(FORMAT, ...) as SQLite computes it; ``fmt`` is any SQL value."""
    if fmt is None:
        return None
    f = V.to_blob(fmt) if not isinstance(fmt, bytes) else fmt
    nul = f.find(b"\0")
    if nul >= 0:
        f = f[:nul]
    try:
        out = _format(f, _Args(args))
    except _TooBig:
        return None
    if out is None:
        return None
    return V.text_of_bytes(out)


def _format(f: bytes, ap: _Args) -> bytes | None:
    out: list[bytes] = []
    total = 0
    produced = False
    i = 0
    n = len(f)
    while i < n:
        j = f.find(b"%", i)
        if j < 0:
            out.append(f[i:])
            produced = True
            break
        if j > i:
            out.append(f[i:j])
            produced = True
        i = j + 1
        if i >= n:
            out.append(b"%")
            produced = True
            break
        # flags
        leftjustify = False
        prefix = b""
        alternate = False
        altform2 = False
        zeropad = False
        thousand = False
        while i < n:
            c = f[i]
            if c == 0x2D:
                leftjustify = True
            elif c == 0x2B:
                prefix = b"+"
            elif c == 0x20:
                prefix = b" "
            elif c == 0x23:
                alternate = True
            elif c == 0x21:
                altform2 = True
            elif c == 0x30:
                zeropad = True
            elif c == 0x2C:
                thousand = True
            else:
                break
            i += 1
        # width
        width = 0
        if i < n and f[i] == 0x2A:
            width = ap.cint()
            if width < 0:
                leftjustify = True
                width = -width if width >= -2147483647 else 0
            i += 1
        else:
            while i < n and 0x30 <= f[i] <= 0x39:
                width = width * 10 + f[i] - 0x30
                i += 1
            width &= 0x7FFFFFFF
        # precision
        precision = -1
        if i < n and f[i] == 0x2E:
            i += 1
            if i < n and f[i] == 0x2A:
                precision = ap.cint()
                if precision < 0:
                    precision = -precision if precision >= -2147483647 else -1
                i += 1
            else:
                precision = 0
                while i < n and 0x30 <= f[i] <= 0x39:
                    precision = precision * 10 + f[i] - 0x30
                    i += 1
                precision &= 0x7FFFFFFF
        # length modifiers
        if i < n and f[i] == 0x6C:
            i += 1
            if i < n and f[i] == 0x6C:
                i += 1
        if i >= n:
            break
        conv = chr(f[i])
        i += 1
        if width >= MAX_LENGTH and conv != "n":  # %n ignores its width
            raise _TooBig
        if conv in _INT_CONV and precision + 10 + (precision // 3 if thousand else 0) > MAX_LENGTH:
            raise _TooBig  # SQLite cannot allocate the conversion buffer
        body = _convert(conv, ap, width, precision, leftjustify, prefix, alternate, altform2,
                        zeropad, thousand)
        if body is None:
            break  # unknown conversion: SQLite stops here
        text, width = body
        produced = True
        pad = width - len(text)
        if pad > 0:
            text = text + b" " * pad if leftjustify else b" " * pad + text
        out.append(text)
        total += len(text)
        if total >= MAX_LENGTH:
            raise _TooBig
    if not produced:
        return None
    return b"".join(out)


def _convert(conv, ap, width, precision, leftjustify, prefix, alternate, altform2, zeropad,
             thousand):
    """One conversion: (bytes, effective width) or None for an unknown conversion."""
    if conv in _INT_CONV:
        base, signed, digits, altprefix = _INT_CONV[conv]
        v = ap.int()
        if signed:
            if v < 0:
                value = -v
                sign = b"-"
            else:
                value = v
                sign = prefix
        else:
            value = v & 0xFFFFFFFFFFFFFFFF
            sign = b""
        if value == 0:
            alternate = False
        if zeropad and precision < width - (1 if sign else 0):
            precision = width - (1 if sign else 0)
        suffix = ""
        if conv == "r":
            x = value % 10
            if x >= 4 or (value // 10) % 10 == 1:
                x = 0
            suffix = "thstndrd"[x * 2:x * 2 + 2]
        s = []
        while True:
            s.append(digits[value % base])
            value //= base
            if value == 0:
                break
        ds = "".join(reversed(s))
        if precision > len(ds) + len(suffix):  # SQLite counts the ordinal suffix here
            ds = "0" * (precision - len(ds) - len(suffix)) + ds
        if thousand and conv in "diu":
            nn = (len(ds) - 1) // 3
            if nn > 0:
                head = len(ds) - nn * 3
                parts = [ds[:head]] + [ds[k:k + 3] for k in range(head, len(ds), 3)]
                ds = ",".join(parts)
        res = sign + (altprefix.encode() if alternate and altprefix else b"") + ds.encode()
        return res + suffix.encode(), width
    if conv in _FLOAT_CONV:
        r = ap.real()
        kind = _FLOAT_CONV[conv]
        if precision > 100000000:
            precision = 100000000
        s = V.render_real(r, precision, kind, alternate, altform2, prefix.decode())
        if conv in "EG":
            s = s.replace("e", "E")
        b = s.encode()
        if zeropad and not leftjustify and len(b) < width and "Inf" not in s and s != "NaN":
            npad = width - len(b)
            k = 1 if (s[:1] in "-+ ") else 0
            b = b[:k] + b"0" * npad + b[k:]
        return b, width
    if conv in "sz":
        t = ap.text()
        if t is None:
            t = b""
        if precision >= 0:
            if altform2:
                t = t[:_utf8_prefix_len(t, precision)]
            else:
                t = t[:precision]
        if altform2 and width > 0:
            width += _continuation_bytes(t)
        return t, width
    if conv == "c":
        t = ap.text()
        if t:
            k = 1
            if (t[0] & 0xC0) == 0xC0:
                while k < 4 and k < len(t) and (t[k] & 0xC0) == 0x80:
                    k += 1
            ch = t[:k]
        else:
            ch = b"\0"
        if precision <= 1:
            return ch, width + _continuation_bytes(ch)
        width -= precision - 1
        lead = b""
        if width > 1 and not leftjustify:
            lead = b" " * (width - 1)
            width = 0
        text = lead + ch * precision
        pad = width + _continuation_bytes(ch) - len(ch)
        if pad > 0 and leftjustify:
            text += b" " * pad
        return text, 0
    if conv in "qQw":
        q = b'"' if conv == "w" else b"'"
        t = ap.text()
        isnull = t is None
        if isnull:
            t = b"NULL" if conv == "Q" else b"(NULL)"
        if precision >= 0:
            t = t[:_utf8_prefix_len(t, precision)] if altform2 else t[:precision]
        body = t.replace(q, q + q)
        if conv == "Q" and not isnull:
            body = q + body + q
        if altform2 and width > 0:
            width += _continuation_bytes(body)
        return body, width
    if conv == "n":
        return b"", 0
    if conv == "%":
        return b"%", width
    return None
