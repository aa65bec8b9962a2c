"""SQLite's built-in aggregate functions: count, count(*), sum, total, avg, min, max,
group_concat (and string_agg, its 3.44 name).

Protocol (the VM's side): one instance per group (or per window partition), made as
``cls(ctx)`` where ``ctx`` is the function context of ``functions.py`` (min/max read
``ctx.collation`` once, at construction: the VM sets it first). Then

* ``step(*args)`` for each row (NULL handling is the aggregate's own business; DISTINCT is
  done by the VM before calling step). ``min``/``max`` return ``True`` from step when the
  row's value became the current best (the row whose other columns a bare column in
  ``SELECT max(x), y`` reports), ``False`` when SQLite would skip loading it.
* ``finalize()`` -> the result value (called once; may raise ``integer overflow``).
* for window frames: ``inverse(*args)`` removes a row previously stepped (oldest first) and
  ``value()`` gives the current result without ending the aggregate.

This module never reads registers or storage; values are plain Python SQL values.
"""

from __future__ import annotations

from collections import deque

from sqlengine.errors import OperationalError
from sqlengine.vdbe import _values as V

_MIN64 = -(2**63)
_MAX64 = 2**63 - 1


def _numeric_type(v):
    """sqlite3_value_numeric_type(): TEXT that looks like a number counts as that number."""
    if type(v) is str:
        return V.apply_numeric_affinity(v, False)
    return v


def _wrap64(i: int) -> int:
    i &= 0xFFFFFFFFFFFFFFFF
    return i - 0x10000000000000000 if i >= 0x8000000000000000 else i


def _bytes_of(v) -> bytes:
    """The bytes sqlite3_value_text() sees: a blob's own bytes, else UTF-8 text."""
    if type(v) is bytes:
        return v
    return V.to_blob(V.to_text(v))


def _real(r: float):
    """A REAL result: NaN (inf - inf) becomes NULL, as sqlite3_result_double does."""
    return None if r != r else r


class Count:
    """count(X) counts non-NULL X; count(*) (no argument) counts rows."""

    __slots__ = ("n",)

    def __init__(self, ctx=None):
        self.n = 0

    def step(self, *args):
        if not args or args[0] is not None:
            self.n += 1

    def inverse(self, *args):
        if not args or args[0] is not None:
            self.n -= 1

    def value(self):
        return self.n

    def finalize(self):
        return self.n


class Sum:
    """sum(X): INTEGER while every value is an integer (overflow is an error), REAL as soon
    as any non-integer is seen; NULL for no non-NULL input."""

    __slots__ = ("rsum", "isum", "cnt", "approx", "overflow")

    def __init__(self, ctx=None):
        self.rsum = 0.0
        self.isum = 0
        self.cnt = 0
        self.approx = False
        self.overflow = False

    def step(self, x=None, *rest):
        v = _numeric_type(x)
        if v is None:
            return
        self.cnt += 1
        if type(v) is int:
            self.rsum += float(v)
            if not (self.approx or self.overflow):
                s = self.isum + v
                if s < _MIN64 or s > _MAX64:
                    self.approx = self.overflow = True
                else:
                    self.isum = s
        else:
            self.rsum += V.to_real(v)
            self.approx = True

    def inverse(self, x=None, *rest):
        v = _numeric_type(x)
        if v is None:
            return
        self.cnt -= 1
        if type(v) is int and not self.approx:
            self.rsum -= float(v)
            self.isum = _wrap64(self.isum - v)  # SQLite subtracts without a check
        else:
            self.rsum -= V.to_real(v)

    def value(self):
        if self.cnt > 0:
            if self.overflow:
                raise OperationalError("integer overflow")
            if self.approx:
                return _real(self.rsum)
            return self.isum
        return None

    finalize = value


class Total(Sum):
    """total(X): always REAL, 0.0 for no input."""

    __slots__ = ()

    def value(self):
        return _real(self.rsum)

    finalize = value


class Avg(Sum):
    """avg(X): REAL average of the non-NULL values, NULL for none."""

    __slots__ = ()

    def value(self):
        if self.cnt > 0:
            return _real(self.rsum / float(self.cnt))
        return None

    finalize = value


class Min:
    """min(X): the smallest non-NULL value (ties keep the first), by the call's collation."""

    __slots__ = ("best", "has", "coll", "items")
    _MAX = False

    def __init__(self, ctx=None):
        self.best = None
        self.has = False
        self.coll = getattr(ctx, "collation", None)
        self.items = None

    def step(self, x=None, *rest):
        if self.items is not None:
            if x is not None:
                self.items.append(x)
                self._recompute()
            return True
        if x is None:
            return not self.has
        if self.has:
            c = V.compare(self.best, x, self.coll)
            if (self._MAX and c < 0) or (not self._MAX and c > 0):
                self.best = x
                return True
            return False
        self.best = x
        self.has = True
        return True

    def inverse(self, x=None, *rest):
        # A window frame lost its oldest row: recompute from the rows still in it.
        if self.items is None:
            raise OperationalError("min/max inverse without window tracking")
        if x is not None:
            self.items.popleft()
        self._recompute()

    def _recompute(self):
        # SQLite keeps a window's min/max in an ephemeral index; among equal values the
        # later row wins.
        self.has = False
        self.best = None
        for v in self.items:
            if not self.has:
                self.best = v
                self.has = True
            else:
                c = V.compare(self.best, v, self.coll)
                if (self._MAX and c <= 0) or (not self._MAX and c >= 0):
                    self.best = v

    def track_window(self):
        """Called by the VM before the first step when the aggregate runs over a window
        frame (enables ``inverse``)."""
        self.items = deque()

    def value(self):
        return self.best if self.has else None

    finalize = value


class Max(Min):
    """max(X): the largest non-NULL value (ties keep the first)."""

    __slots__ = ()
    _MAX = True


class GroupConcat:
    """group_concat(X[, SEP]): the non-NULL values as text, separated by ',' or by the SEP
    of each later row (a NULL SEP adds nothing); NULL when there is no non-NULL value.

    The window inverse reproduces SQLite 3.40 exactly, quirks included: it cuts the first
    value plus the separator that followed it off the front of the accumulated UTF-8 text,
    and when the text becomes empty the next value is again a "first" value (no separator).
    """

    __slots__ = ("buf", "started", "allocated", "first_sep_len", "sep_lengths", "naccum")

    def __init__(self, ctx=None):
        self.buf = b""
        self.started = False  # SQLite: str.mxAlloc != 0
        self.allocated = False  # SQLite: str.zText != 0
        self.first_sep_len = 0
        self.sep_lengths = None
        self.naccum = 0

    def step(self, x=None, *sep):
        if x is None:
            return
        first = not self.started
        self.started = True
        self.allocated = True
        if not sep:
            if not first:
                self.buf += b","
            else:
                self.first_sep_len = 1
        elif not first:
            s = sep[0]
            sb = None if s is None else _bytes_of(s)
            nsep = 0
            if sb is not None:
                self.buf += sb
                nsep = len(sb)
            if nsep != self.first_sep_len or self.sep_lengths is not None:
                lst = self.sep_lengths
                if lst is None:
                    lst = [self.first_sep_len] * max(self.naccum - 1, 0)
                while len(lst) < self.naccum:
                    lst.append(0)
                del lst[self.naccum:]
                if self.naccum > 0:
                    lst[self.naccum - 1] = nsep
                self.sep_lengths = lst
        else:
            s = sep[0]
            self.first_sep_len = 0 if s is None else len(_bytes_of(s))
        self.naccum += 1
        self.buf += _bytes_of(x)

    def inverse(self, x=None, *sep):
        if x is None:
            return
        nvs = len(_bytes_of(x))
        self.naccum -= 1
        if self.sep_lengths is not None:
            if self.naccum > 0 and self.sep_lengths:
                nvs += self.sep_lengths.pop(0)
        else:
            nvs += self.first_sep_len
        self.buf = b"" if nvs >= len(self.buf) else self.buf[nvs:]
        if not self.buf:
            self.started = False
            self.sep_lengths = None

    def finalize(self):
        if not self.allocated:
            return None
        return self.buf.decode("utf-8", "replace")

    def value(self):
        # sqlite3_str_value() gives NULL for an empty accumulator (finalize gives '').
        if not self.buf:
            return None
        return self.buf.decode("utf-8", "replace")


AGGREGATES = {
    ("count", 0): Count,
    ("count", 1): Count,
    ("sum", 1): Sum,
    ("total", 1): Total,
    ("avg", 1): Avg,
    ("min", 1): Min,
    ("max", 1): Max,
    ("group_concat", 1): GroupConcat,
    ("group_concat", 2): GroupConcat,
    ("string_agg", 2): GroupConcat,
}


def register(registry) -> None:
    """Add the aggregates to a ``functions.FunctionRegistry``."""
    from sqlengine.vdbe.functions import FuncDef

    for (name, nargs), cls in AGGREGATES.items():
        registry.add(FuncDef(name, nargs, cls, True, name in ("min", "max"), "aggregate"))
