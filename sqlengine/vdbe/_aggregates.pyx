# cython: language_level=3
"""SQLite's built-in aggregates compiled: count, sum, total, avg, min, max, group_concat.

Each class keeps the Python protocol of ``aggregates.py`` (``cls(ctx)``, ``step(*args)``,
``finalize()``, and for window frames ``inverse(*args)``, ``value()``, ``track_window()``
on min/max) and adds ``step_mem(mem, base, n)``, which the VM's AggStep calls directly with
the argument registers ``mem[base:base + n]`` (no argument list, no Python call). The
semantics are SQLite 3.40's: sum is INTEGER while every input is an integer and raises
"integer overflow" past 64 bits, REAL (plain double accumulation) as soon as a non-integer
is seen; total() and avg() are REAL; NaN results become NULL.

This module never reads registers other than the ones it is given, never touches storage.
"""

from collections import deque

from cpython.long cimport PyLong_AsLongLongAndOverflow
from libc.stdint cimport int64_t

from sqlengine.errors import OperationalError
from sqlengine.vdbe._values import too_big
from sqlengine.vdbe._values cimport (apply_numeric_affinity, compare, text_bytes, to_real, to_text,
                                     to_blob)

cdef int64_t _MAX64 = 9223372036854775807
cdef int64_t _MIN64 = -_MAX64 - 1


cdef inline object _real(double r):
    """A REAL result: NaN (inf - inf) becomes NULL, as sqlite3_result_double does."""
    if r != r:
        return None
    return r


cdef inline object _numeric_type(object v):
    """sqlite3_value_numeric_type(): TEXT that looks like a number counts as that number."""
    if type(v) is str:
        return apply_numeric_affinity(v, False)
    return v


cdef inline bytes _bytes_of(object v):
    """The bytes sqlite3_value_text() sees: a blob's own bytes, else UTF-8 text."""
    if type(v) is bytes:
        return <bytes>v
    return bytes(to_blob(to_text(v)))


cdef inline int64_t _wrap_sub(int64_t a, int64_t b) noexcept:
    return <int64_t>(<unsigned long long>a - <unsigned long long>b)


cdef class AggBase:
    """The compiled aggregates' common base: the VM's fast entry point."""

    cdef object step_mem(self, list mem, Py_ssize_t base, int n):
        return self.step(*mem[base:base + n])

    def step(self, *args):
        raise NotImplementedError


cdef class Count(AggBase):
    """count(X) counts non-NULL X; count(*) (no argument) counts rows."""

    cdef public int64_t n

    def __init__(self, ctx=None):
        self.n = 0

    cdef object step_mem(self, list mem, Py_ssize_t base, int n):
        if n == 0 or mem[base] is not None:
            self.n += 1
        return None

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


cdef class Sum(AggBase):
    """sum(X): INTEGER while every value is an integer (overflow is an error), REAL as soon
    as any non-integer is seen; NULL for no non-NULL input."""

    cdef public double rsum
    cdef public int64_t isum
    cdef public int64_t cnt
    cdef public bint approx
    cdef public bint overflow

    def __init__(self, ctx=None):
        self.rsum = 0.0
        self.isum = 0
        self.cnt = 0
        self.approx = False
        self.overflow = False

    cdef inline int _add(self, object x) except -1:
        cdef int ovf = 0
        cdef long long iv
        cdef object v = x
        if v is None:
            return 0
        if type(v) is str:
            v = apply_numeric_affinity(v, False)
        self.cnt += 1
        if type(v) is int:
            iv = PyLong_AsLongLongAndOverflow(v, &ovf)
            if ovf:
                # not a 64-bit SQL value (cannot come from storage); exact Python fallback
                self.rsum += float(v)
                self.approx = self.overflow = True
                return 0
            self.rsum += <double>iv
            if not (self.approx or self.overflow):
                if (iv > 0 and self.isum > _MAX64 - iv) or (iv < 0 and self.isum < _MIN64 - iv):
                    self.approx = True
                    self.overflow = True
                else:
                    self.isum += iv
        elif type(v) is float:
            self.rsum += <double>v
            self.approx = True
        else:
            self.rsum += to_real(v)
            self.approx = True
        return 0

    cdef object step_mem(self, list mem, Py_ssize_t base, int n):
        if n:
            self._add(mem[base])
        return None

    def step(self, x=None, *rest):
        self._add(x)

    def inverse(self, x=None, *rest):
        cdef object v = _numeric_type(x)
        if v is None:
            return
        self.cnt -= 1
        if type(v) is int and not self.approx:
            self.rsum -= float(v)
            self.isum = _wrap_sub(self.isum, v)  # SQLite subtracts without a check
        else:
            self.rsum -= to_real(v)

    def value(self):
        if self.cnt > 0:
            if self.overflow:
                raise OperationalError("integer overflow")
            if self.approx:
                return _real(self.rsum)
            return self.isum
        return None

    def finalize(self):
        return self.value()


cdef class Total(Sum):
    """total(X): always REAL, 0.0 for no input."""

    def value(self):
        return _real(self.rsum)

    def finalize(self):
        return _real(self.rsum)


cdef class Avg(Sum):
    """avg(X): REAL average of the non-NULL values, NULL for none."""

    def value(self):
        if self.cnt > 0:
            return _real(self.rsum / <double>self.cnt)
        return None

    def finalize(self):
        return self.value()


cdef class Min(AggBase):
    """min(X): the smallest non-NULL value (ties keep the first), by the call's collation."""

    cdef public object best
    cdef public bint has
    cdef public object coll
    cdef public object items
    cdef bint is_max

    def __init__(self, ctx=None):
        self.best = None
        self.has = False
        self.coll = getattr(ctx, "collation", None)
        self.items = None
        self.is_max = False

    cdef object _step1(self, object x):
        cdef int c
        if self.items is not None:
            if x is not None:
                self.items.append(x)
                self._recompute()
            return True
        if x is None:
            return not self.has
        if self.has:
            c = compare(self.best, x, self.coll)
            if (self.is_max and c < 0) or (not self.is_max and c > 0):
                self.best = x
                return True
            return False
        self.best = x
        self.has = True
        return True

    cdef object step_mem(self, list mem, Py_ssize_t base, int n):
        return self._step1(mem[base] if n else None)

    def step(self, x=None, *rest):
        return self._step1(x)

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
        cdef int c
        self.has = False
        self.best = None
        for v in self.items:
            if not self.has:
                self.best = v
                self.has = True
            else:
                c = compare(self.best, v, self.coll)
                if (self.is_max and c <= 0) or (not self.is_max and c >= 0):
                    self.best = v

    def track_window(self):
        """Called before the first step when the aggregate runs over a window frame
        (enables ``inverse``)."""
        self.items = deque()

    def value(self):
        return self.best if self.has else None

    def finalize(self):
        return self.best if self.has else None


cdef class Max(Min):
    """max(X): the largest non-NULL value (ties keep the first)."""

    def __init__(self, ctx=None):
        Min.__init__(self, ctx)
        self.is_max = True


cdef Py_ssize_t MAX_LENGTH = 1_000_000_000  # SQLITE_LIMIT_LENGTH (as func_printf's)


cdef class GroupConcat(AggBase):
    """group_concat(X[, SEP]): the non-NULL values as text, separated by ',' or by the SEP
    of each later row (a NULL SEP adds nothing); NULL when there is no non-NULL value.

    The window inverse reproduces SQLite 3.40 exactly, quirks included: it cuts the first
    value plus the separator that followed it off the front of the accumulated UTF-8 text,
    and when the text becomes empty the next value is again a "first" value (no separator).
    """

    cdef public bytearray buf
    cdef public bint started      # SQLite: str.mxAlloc != 0
    cdef public bint allocated    # SQLite: str.zText != 0
    cdef public Py_ssize_t first_sep_len
    cdef public object sep_lengths
    cdef public Py_ssize_t naccum

    def __init__(self, ctx=None):
        self.buf = bytearray()
        self.started = False
        self.allocated = False
        self.first_sep_len = 0
        self.sep_lengths = None
        self.naccum = 0

    cdef object _step(self, object x, bint has_sep, object s):
        cdef bint first
        cdef Py_ssize_t nsep
        cdef list lst
        if x is None:
            return None
        first = not self.started
        self.started = True
        self.allocated = True
        if not has_sep:
            if not first:
                self.buf += b","
            else:
                self.first_sep_len = 1
        elif not first:
            nsep = 0
            if s is not None:
                sb = _bytes_of(s)
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
            self.first_sep_len = 0 if s is None else len(_bytes_of(s))
        self.naccum += 1
        if type(x) is str:
            self.buf += text_bytes(<str>x)
        else:
            self.buf += _bytes_of(x)
        if len(self.buf) > MAX_LENGTH:  # (SQLite's StrAccum: SQLITE_TOOBIG)
            raise too_big()
        return None

    cdef object step_mem(self, list mem, Py_ssize_t base, int n):
        if n == 0:
            return None
        return self._step(mem[base], n > 1, mem[base + 1] if n > 1 else None)

    def step(self, x=None, *sep):
        return self._step(x, len(sep) > 0, sep[0] if sep else None)

    def inverse(self, x=None, *sep):
        if x is None:
            return
        cdef Py_ssize_t nvs = len(_bytes_of(x))
        self.naccum -= 1
        if self.sep_lengths is not None:
            if self.naccum > 0 and self.sep_lengths:
                nvs += self.sep_lengths.pop(0)
        else:
            nvs += self.first_sep_len
        if nvs >= len(self.buf):
            self.buf = bytearray()
        else:
            del self.buf[:nvs]
        if not self.buf:
            self.started = False
            self.sep_lengths = None

    def finalize(self):
        if not self.allocated:
            return None
        return self.buf.decode("utf-8", "surrogateescape")

    def value(self):
        # sqlite3_str_value() gives NULL for an empty accumulator (finalize gives '').
        if not self.buf:
            return None
        return self.buf.decode("utf-8", "surrogateescape")
