"""SQLite's date and time functions: date, time, datetime, julianday, unixepoch, strftime,
timediff, with time values and modifiers exactly as SQLite 3.40's date.c interprets them.

A time value is a text (``YYYY-MM-DD``, ``YYYY-MM-DD HH:MM[:SS[.SSS]]`` with an optional
``T`` separator and ``[+-]HH:MM``/``Z`` time zone, ``HH:MM[:SS[.SSS]]``, ``now``, or a number
as text) or a number (a Julian day number, or with ``unixepoch``/``auto`` a Unix time).
Internally a moment is ``iJD``: milliseconds since the Julian epoch, as in SQLite, and the
calendar arithmetic uses SQLite's own formulas (C integer division and truncation), so
out-of-range days such as ``2023-02-31`` behave as in SQLite.

``now`` comes from ``ctx.now()`` (one value per statement); ``localtime``/``utc`` use the
process's time zone. Invalid input gives NULL, never an exception. Registered into the
function registry by ``register``.
"""

from __future__ import annotations

import math
import struct
import time

from sqlengine.vdbe import _values as V

_JD_MAX = 464269060799999
_UNIX_EPOCH_JD_MS = 210866760000000


def _cdiv(a: int, b: int) -> int:
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _cmod(a: int, b: int) -> int:
    return a - b * _cdiv(a, b)


def _f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


class _Err(Exception):
    pass


class DateTime:
    __slots__ = ("iJD", "Y", "M", "D", "h", "m", "s", "tz", "validJD", "validYMD", "validHMS",
                 "validTZ", "rawS", "isError", "tzSet")

    def __init__(self):
        self.iJD = 0
        self.Y = self.M = self.D = 0
        self.h = self.m = 0
        self.s = 0.0
        self.tz = 0
        self.validJD = self.validYMD = self.validHMS = self.validTZ = False
        self.rawS = self.isError = self.tzSet = False

    def copy(self) -> DateTime:
        d = DateTime()
        for k in self.__slots__:
            setattr(d, k, getattr(self, k))
        return d

    # -- conversions -----------------------------------------------------------------------
    def compute_jd(self) -> None:
        if self.validJD:
            return
        if self.validYMD:
            Y, M, D = self.Y, self.M, self.D
        else:
            Y, M, D = 2000, 1, 1
        if Y < -4713 or Y > 9999 or self.rawS:
            self.error()
            return
        if M <= 2:
            Y -= 1
            M += 12
        A = _cdiv(Y, 100)
        B = 2 - A + _cdiv(A, 4)
        X1 = _cdiv(36525 * (Y + 4716), 100)
        X2 = _cdiv(306001 * (M + 1), 10000)
        self.iJD = int((X1 + X2 + D + B - 1524.5) * 86400000)
        self.validJD = True
        if self.validHMS:
            self.iJD += self.h * 3600000 + self.m * 60000 + int(self.s * 1000 + 0.5)
            if self.validTZ:
                self.iJD -= self.tz * 60000
                self.validYMD = self.validHMS = self.validTZ = False

    def error(self) -> None:
        for k in self.__slots__:
            setattr(self, k, 0 if k in ("iJD", "Y", "M", "D", "h", "m", "tz") else False)
        self.s = 0.0
        self.isError = True

    def compute_ymd(self) -> None:
        if self.validYMD:
            return
        if not self.validJD:
            self.Y, self.M, self.D = 2000, 1, 1
        elif not (0 <= self.iJD <= _JD_MAX):
            self.error()
            return
        else:
            Z = int((self.iJD + 43200000) // 86400000)
            A = int((Z - 1867216.25) / 36524.25)
            A = Z + 1 + A - _cdiv(A, 4)
            B = A + 1524
            C = int((B - 122.1) / 365.25)
            D = _cdiv(36525 * (C & 32767), 100)
            E = int((B - D) / 30.6001)
            X1 = int(30.6001 * E)
            self.D = B - D - X1
            self.M = E - 1 if E < 14 else E - 13
            self.Y = C - 4716 if self.M > 2 else C - 4715
        self.validYMD = True

    def compute_hms(self) -> None:
        if self.validHMS:
            return
        self.compute_jd()
        s = int(_cmod(self.iJD + 43200000, 86400000))
        fs = s / 1000.0
        s = int(fs)
        fs -= s
        self.h = _cdiv(s, 3600)
        s -= self.h * 3600
        self.m = _cdiv(s, 60)
        fs += s - self.m * 60
        self.s = fs
        self.rawS = False
        self.validHMS = True

    def compute_ymd_hms(self) -> None:
        self.compute_ymd()
        self.compute_hms()

    def clear_ymd_hms_tz(self) -> None:
        self.validYMD = self.validHMS = self.validTZ = False


# -- parsing ---------------------------------------------------------------------------------

def _isspace(c: str) -> bool:
    return c in " \t\n\v\f\r"


def _get_digits(z: str, i: int, specs) -> list | None:
    """SQLite's getDigits: specs is a list of (ndigits, min, max, next separator or '')."""
    out = []
    for n, lo, hi, nxt in specs:
        val = 0
        for _ in range(n):
            if i >= len(z) or not ("0" <= z[i] <= "9"):
                return out
            val = val * 10 + ord(z[i]) - 48
            i += 1
        if val < lo or val > hi or (nxt and (i >= len(z) or z[i] != nxt)):
            return out
        out.append(val)
        i += 1
    return out


def _parse_timezone(z: str, i: int, p: DateTime) -> bool:
    """True on error."""
    n = len(z)
    while i < n and _isspace(z[i]):
        i += 1
    p.tz = 0
    if i >= n:
        return False
    c = z[i]
    if c == "-":
        sgn = -1
    elif c == "+":
        sgn = 1
    elif c in "Zz":
        i += 1
        while i < n and _isspace(z[i]):
            i += 1
        p.tzSet = True  # (a time with a zone is UTC already: "utc" leaves it)
        return i < n
    else:
        return True
    i += 1
    d = _get_digits(z, i, [(2, 0, 14, ":"), (2, 0, 59, "")])
    if len(d) != 2:
        return True
    i += 5
    p.tz = sgn * (d[1] + d[0] * 60)
    while i < n and _isspace(z[i]):
        i += 1
    p.tzSet = True
    return i < n


def _parse_hms(z: str, i: int, p: DateTime) -> bool:
    """True on error."""
    d = _get_digits(z, i, [(2, 0, 24, ":"), (2, 0, 59, "")])
    if len(d) != 2:
        return True
    h, m = d
    i += 5
    ms = 0.0
    n = len(z)
    if i < n and z[i] == ":":
        i += 1
        d = _get_digits(z, i, [(2, 0, 59, "")])
        if len(d) != 1:
            return True
        s = d[0]
        i += 2
        if i + 1 < n and z[i] == "." and "0" <= z[i + 1] <= "9":
            scale = 1.0
            i += 1
            while i < n and "0" <= z[i] <= "9":
                ms = ms * 10.0 + (ord(z[i]) - 48)
                scale *= 10.0
                i += 1
            ms /= scale
    else:
        s = 0
    p.validJD = False
    p.rawS = False
    p.validHMS = True
    p.h = h
    p.m = m
    p.s = s + ms
    if _parse_timezone(z, i, p):
        return True
    p.validTZ = p.tz != 0
    return False


def _parse_ymd(z: str, p: DateTime) -> bool:
    """True on error."""
    i = 0
    neg = False
    if z[:1] == "-":
        i = 1
        neg = True
    d = _get_digits(z, i, [(4, 0, 9999, "-"), (2, 1, 12, "-"), (2, 1, 31, "")])
    if len(d) != 3:
        return True
    i += 10
    n = len(z)
    while i < n and (_isspace(z[i]) or z[i] == "T"):
        i += 1
    if not _parse_hms(z, i, p):
        pass
    elif i >= n:
        p.validHMS = False
    else:
        return True
    p.validJD = False
    p.validYMD = True
    p.Y = -d[0] if neg else d[0]
    p.M = d[1]
    p.D = d[2]
    if p.validTZ:
        p.compute_jd()
    return False


def _set_raw_number(p: DateTime, r: float) -> None:
    p.s = r
    p.rawS = True
    if 0.0 <= r < 5373484.5:
        p.iJD = int(r * 86400000.0 + 0.5)
        p.validJD = True


def _set_now(ctx, p: DateTime) -> None:
    t = ctx.now() if ctx is not None else time.time()
    p.iJD = int(t * 1000) + _UNIX_EPOCH_JD_MS
    p.validJD = True


def _parse_date_or_time(ctx, z: str, p: DateTime) -> bool:
    k = z.find("\0")
    if k >= 0:
        z = z[:k]
    if not _parse_ymd(z, p):
        return False
    p.__init__()
    if not _parse_hms(z, 0, p):
        return False
    p.__init__()
    if z.lower() == "now":
        _set_now(ctx, p)
        return False
    rc, r = _atof(z)
    if rc > 0:
        _set_raw_number(p, r)
        return False
    return True


def _atof(z: str):
    return V.parse_real(z)


def _to_localtime(p: DateTime) -> None:
    """SQLite's toLocaltime(): reinterpret the UTC moment as local time (years outside
    1970..2037 are mapped into that range for the C library, then mapped back)."""
    p.compute_jd()
    if p.iJD < 2108667600 * 100000 or p.iJD > 2130141456 * 100000:
        x = p.copy()
        x.compute_ymd_hms()
        year_diff = (2000 + _cmod(x.Y, 4)) - x.Y
        x.Y += year_diff
        x.validJD = False
        x.compute_jd()
        t = _cdiv(x.iJD, 1000) - 21086676 * 10000
    else:
        year_diff = 0
        t = _cdiv(p.iJD, 1000) - 21086676 * 10000
    try:
        lt = time.localtime(t)
    except (OverflowError, OSError, ValueError) as e:
        raise _Err("local time unavailable") from e
    p.Y = lt.tm_year - year_diff
    p.M = lt.tm_mon
    p.D = lt.tm_mday
    p.h = lt.tm_hour
    p.m = lt.tm_min
    p.s = lt.tm_sec + _cmod(p.iJD, 1000) * 0.001
    p.validYMD = p.validHMS = True
    p.validJD = p.rawS = p.validTZ = p.isError = False


_XFORM = [
    ("second", _f32(4.6427e14), 1.0),
    ("minute", _f32(7.7379e12), 60.0),
    ("hour", _f32(1.2897e11), 3600.0),
    ("day", _f32(5373485.0), 86400.0),
    ("month", _f32(176546.0), 2592000.0),
    ("year", _f32(14713.0), 31536000.0),
]


def _parse_modifier(ctx, z: str, p: DateTime, idx: int) -> bool:
    """Apply one modifier; True on error."""
    k = z.find("\0")
    if k >= 0:
        z = z[:k]
    if not z:
        return True
    lz = z.lower()
    c = lz[0]
    if c == "a":
        if lz == "auto":
            if idx > 1:
                return True
            if not p.rawS or p.validJD:
                p.rawS = False
                return False
            if -21086676 * 10000 <= p.s <= 25340230 * 10000 + 799:
                r = p.s * 1000.0 + 210866760000000.0
                p.clear_ymd_hms_tz()
                p.iJD = int(r + 0.5)
                p.validJD = True
                p.rawS = False
                return False
        return True
    if c == "j":
        if lz == "julianday":
            if idx > 1:
                return True
            if p.validJD and p.rawS:
                p.rawS = False
                return False
        return True
    if c == "l":
        if lz == "localtime":
            _to_localtime(p)
            return False
        return True
    if c == "u":
        if lz == "unixepoch" and p.rawS:
            if idx > 1:
                return True
            r = p.s * 1000.0 + 210866760000000.0
            if 0.0 <= r < 464269060800000.0:
                p.clear_ymd_hms_tz()
                p.iJD = int(r + 0.5)
                p.validJD = True
                p.rawS = False
                return False
            return True
        if lz == "utc":
            if not p.tzSet:
                p.compute_jd()
                guess = orig = p.iJD
                err = 0
                cnt = 0
                while True:
                    guess -= err
                    new = DateTime()
                    new.iJD = guess
                    new.validJD = True
                    _to_localtime(new)
                    new.compute_jd()
                    err = new.iJD - orig
                    if not err or cnt >= 3:
                        break
                    cnt += 1
                p.__init__()
                p.iJD = guess
                p.validJD = True
                p.tzSet = True
            return False
        return True
    if c == "w":
        if lz.startswith("weekday "):
            rc, r = _atof(z[8:])
            if rc > 0 and r == int(r) and 0 <= r < 7:
                n = int(r)
                p.compute_ymd_hms()
                p.validTZ = False
                p.validJD = False
                p.compute_jd()
                Z = _cmod(_cdiv(p.iJD + 129600000, 86400000), 7)
                if Z > n:
                    Z -= 7
                p.iJD += (n - Z) * 86400000
                p.clear_ymd_hms_tz()
                return False
        return True
    if c == "s":
        if not lz.startswith("start of "):
            return True
        if not p.validJD and not p.validYMD and not p.validHMS:
            return True
        rest = lz[9:]
        p.compute_ymd()
        p.validHMS = True
        p.h = p.m = 0
        p.s = 0.0
        p.rawS = False
        p.validTZ = False
        p.validJD = False
        if rest == "month":
            p.D = 1
            return False
        if rest == "year":
            p.M = 1
            p.D = 1
            return False
        return rest != "day"
    if c in "+-0123456789":
        n = 1
        while n < len(z) and z[n] != ":" and not _isspace(z[n]):
            n += 1
        rc, r = _atof(z[:n])
        if rc <= 0:
            return True
        if n < len(z) and z[n] == ":":
            z2 = z if "0" <= z[0] <= "9" else z[1:]
            tx = DateTime()
            if _parse_hms(z2, 0, tx):
                return True
            tx.compute_jd()
            tx.iJD -= 43200000
            day = _cdiv(tx.iJD, 86400000)
            tx.iJD -= day * 86400000
            if z[0] == "-":
                tx.iJD = -tx.iJD
            p.compute_jd()
            p.clear_ymd_hms_tz()
            p.iJD += tx.iJD
            return False
        rest = z[n:].lstrip(" \t\n\v\f\r")
        k = rest.find("\0")
        if k >= 0:
            rest = rest[:k]
        ln = len(rest.encode("utf-8"))
        if ln > 10 or ln < 3:
            return True
        if rest[-1:].lower() == "s":
            rest = rest[:-1]
        p.compute_jd()
        rounder = -0.5 if r < 0 else 0.5
        err = True
        for i, (name, limit, xform) in enumerate(_XFORM):
            if rest.lower() == name and -limit < r < limit:
                if i == 4:
                    p.compute_ymd_hms()
                    p.M += int(r)
                    x = _cdiv(p.M - 1, 12) if p.M > 0 else _cdiv(p.M - 12, 12)
                    p.Y += x
                    p.M -= x * 12
                    p.validJD = False
                    r -= int(r)
                elif i == 5:
                    y = int(r)
                    p.compute_ymd_hms()
                    p.Y += y
                    p.validJD = False
                    r -= int(r)
                p.compute_jd()
                p.iJD += int(r * 1000.0 * xform + rounder)
                err = False
                break
        p.clear_ymd_hms_tz()
        return err
    return True


def is_date(ctx, args) -> DateTime | None:
    """SQLite's isDate(): the moment described by a time value and modifiers, or None."""
    p = DateTime()
    try:
        if not args:
            _set_now(ctx, p)
        else:
            v = args[0]
            t = type(v)
            if t is int or t is float or t is bool:
                _set_raw_number(p, float(v))
            else:
                z = V.to_text(v)
                if z is None or _parse_date_or_time(ctx, z, p):
                    return None
            for i in range(1, len(args)):
                m = args[i]
                if m is None:
                    return None
                z = V.to_text(m)
                if _parse_modifier(ctx, z, p, i):
                    return None
        p.compute_jd()
    except _Err as e:
        from sqlengine.errors import OperationalError

        raise OperationalError(str(e)) from None
    if p.isError or not (0 <= p.iJD <= _JD_MAX):
        return None
    return p


# -- output ------------------------------------------------------------------------------------

def _ymd_text(p: DateTime) -> str:
    y = abs(p.Y)
    s = "%04d-%02d-%02d" % (y % 10000, p.M, p.D)
    return "-" + s if p.Y < 0 else s


def f_julianday(ctx, *args):
    p = is_date(ctx, args)
    return None if p is None else p.iJD / 86400000.0


def f_unixepoch(ctx, *args):
    p = is_date(ctx, args)
    return None if p is None else _cdiv(p.iJD, 1000) - 21086676 * 10000


def f_datetime(ctx, *args):
    p = is_date(ctx, args)
    if p is None:
        return None
    p.compute_ymd_hms()
    return "%s %02d:%02d:%02d" % (_ymd_text(p), p.h, p.m, int(p.s))


def f_date(ctx, *args):
    p = is_date(ctx, args)
    if p is None:
        return None
    p.compute_ymd()
    return _ymd_text(p)


def f_time(ctx, *args):
    p = is_date(ctx, args)
    if p is None:
        return None
    p.compute_hms()
    return "%02d:%02d:%02d" % (p.h, p.m, int(p.s))


_STRFTIME_OK = set("dfHjJmMsSwWY%")


def f_strftime(ctx, *args):
    if not args:
        return None
    fmt = V.to_text(args[0])
    if fmt is None:
        return None
    k = fmt.find("\0")
    if k >= 0:
        fmt = fmt[:k]
    i = 0
    while i < len(fmt):
        if fmt[i] == "%":
            if i + 1 >= len(fmt) or fmt[i + 1] not in _STRFTIME_OK:
                return None
            i += 1
        i += 1
    p = is_date(ctx, args[1:])
    if p is None:
        return None
    p.compute_jd()
    p.compute_ymd_hms()
    out = []
    i = 0
    while i < len(fmt):
        ch = fmt[i]
        if ch != "%":
            out.append(ch)
            i += 1
            continue
        i += 1
        c = fmt[i]
        i += 1
        if c == "d":
            out.append("%02d" % p.D)
        elif c == "f":
            s = p.s
            if s > 59.999:
                s = 59.999
            t = V.render_real(s, 3, "f")
            out.append(t.rjust(6, "0") if not t.startswith("-") else t)
        elif c == "H":
            out.append("%02d" % p.h)
        elif c in "Wj":
            y = p.copy()
            y.validJD = False
            y.M = 1
            y.D = 1
            y.compute_jd()
            nday = _cdiv(p.iJD - y.iJD + 43200000, 86400000)
            if c == "W":
                wd = _cmod(_cdiv(p.iJD + 43200000, 86400000), 7)
                out.append("%02d" % _cdiv(nday + 7 - wd, 7))
            else:
                out.append("%03d" % (nday + 1))
        elif c == "J":
            out.append(V.render_real(p.iJD / 86400000.0, 16, "g"))
        elif c == "m":
            out.append("%02d" % p.M)
        elif c == "M":
            out.append("%02d" % p.m)
        elif c == "s":
            out.append(str(_cdiv(p.iJD, 1000) - 21086676 * 10000))
        elif c == "S":
            out.append("%02d" % int(p.s))
        elif c == "w":
            out.append(str(_cmod(_cdiv(p.iJD + 129600000, 86400000), 7)))
        elif c == "Y":
            out.append("%04d" % p.Y)
        else:
            out.append("%")
    return "".join(out)


def f_timediff(ctx, a, b):
    """timediff(A, B) (SQLite 3.43): the time from B to A as '(+|-)YYYY-MM-DD HH:MM:SS.SSS'."""
    d1 = is_date(ctx, (a,))
    d2 = is_date(ctx, (b,))
    if d1 is None or d2 is None:
        return None
    d1.compute_ymd_hms()
    d2.compute_ymd_hms()
    if d1.iJD >= d2.iJD:
        sign = "+"
        Y = d1.Y - d2.Y
        if Y:
            d2.Y = d1.Y
            d2.validJD = False
            d2.compute_jd()
        M = d1.M - d2.M
        if M < 0:
            Y -= 1
            M += 12
        if M:
            d2.M = d1.M
            d2.validJD = False
            d2.compute_jd()
        while d1.iJD < d2.iJD:
            M -= 1
            if M < 0:
                M = 11
                Y -= 1
            d2.M -= 1
            if d2.M < 1:
                d2.M = 12
                d2.Y -= 1
            d2.validJD = False
            d2.compute_jd()
        diff = d1.iJD - d2.iJD
    else:
        sign = "-"
        Y = d2.Y - d1.Y
        if Y:
            d2.Y = d1.Y
            d2.validJD = False
            d2.compute_jd()
        M = d2.M - d1.M
        if M < 0:
            Y -= 1
            M += 12
        if M:
            d2.M = d1.M
            d2.validJD = False
            d2.compute_jd()
        while d1.iJD > d2.iJD:
            M -= 1
            if M < 0:
                M = 11
                Y -= 1
            d2.M += 1
            if d2.M > 12:
                d2.M = 1
                d2.Y += 1
            d2.validJD = False
            d2.compute_jd()
        diff = d2.iJD - d1.iJD
    r = DateTime()
    r.iJD = diff + 148699540800000
    r.validJD = True
    r.compute_ymd_hms()
    return "%s%04d-%02d-%02d %02d:%02d:%06.3f" % (sign, Y, M, r.D - 1, r.h, r.m,
                                                  math.floor(r.s * 1000) / 1000)


def register(registry) -> None:
    from sqlengine.vdbe.functions import FuncDef

    for name, fn in (("julianday", f_julianday), ("unixepoch", f_unixepoch),
                     ("datetime", f_datetime), ("date", f_date), ("time", f_time),
                     ("strftime", f_strftime)):
        registry.add(FuncDef(name, -1, fn))
    registry.add(FuncDef("timediff", 2, f_timediff))
    for name, fmt in (("current_time", "time"), ("current_date", "date"),
                      ("current_timestamp", "datetime")):
        fn = {"time": f_time, "date": f_date, "datetime": f_datetime}[fmt]
        registry.add(FuncDef(name, 0, fn, deterministic=False))
