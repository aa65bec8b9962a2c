"""SQLite's math functions (SQLITE_ENABLE_MATH_FUNCTIONS): acos ... trunc, log, pi, pow, mod.

Rules (func.c): an argument must be a number or text that looks like one (else NULL); the
result is REAL, computed with the C library (domain errors give NaN, which SQLite returns as
NULL; poles and overflow give +-Inf); ceil/ceiling/floor/trunc return INTEGER arguments
unchanged; log(X) is the base-10 logarithm, ln(X) the natural one, log(B, X) the base-B one
(NULL for X <= 0 or B <= 1).

Registered into the function registry by ``register``; this module never raises.
"""

from __future__ import annotations

import math

from sqlengine.vdbe import _values as V


def _num(v):
    """sqlite3_value_numeric_type() then the value: an int, a float, or None."""
    if type(v) is str:
        v = V.apply_numeric_affinity(v, False)
    t = type(v)
    if t is float:
        return None if v != v else v  # NaN is never an SQL value; treat it as NULL
    if t is int:
        return v
    if t is bool:
        return int(v)
    return None


def _result(r: float):
    return None if r != r else r


def _c1(fn, x: float) -> float:
    """A C math function on a double: NaN for domain errors, +-Inf for poles/overflow."""
    try:
        return fn(x)
    except OverflowError:
        if fn in (math.exp, math.cosh):
            return math.inf
        return math.copysign(math.inf, x)
    except ValueError:
        if fn is math.atanh and abs(x) == 1.0:
            return math.copysign(math.inf, x)
        return math.nan


def _c_pow(x: float, y: float) -> float:
    try:
        return math.pow(x, y)
    except OverflowError:
        if x < 0 and y == math.floor(y) and math.fmod(y, 2.0) != 0:
            return -math.inf
        return math.inf
    except ValueError:
        if x == 0.0 and y < 0:
            if y == math.floor(y) and math.fmod(y, 2.0) != 0:
                return math.copysign(math.inf, x)
            return math.inf
        return math.nan


def _c_fmod(x: float, y: float) -> float:
    try:
        return math.fmod(x, y)
    except ValueError:
        return math.nan


def _deg_to_rad(x: float) -> float:
    return x * (math.pi / 180.0)


def _rad_to_deg(x: float) -> float:
    return x * (180.0 / math.pi)


def _math1(fn):
    def f(ctx, x):
        v = _num(x)
        if v is None:
            return None
        return _result(_c1(fn, float(v)))

    return f


def _math2(fn):
    def f(ctx, x, y):
        a = _num(x)
        b = _num(y)
        if a is None or b is None:
            return None
        return _result(fn(float(a), float(b)))

    return f


def _ceiling(fn):
    def f(ctx, x):
        v = _num(x)
        if v is None:
            return None
        if type(v) is int:
            return v
        if math.isinf(v):
            return v
        return float(fn(v))

    return f


def _trunc(x: float) -> float:
    return math.copysign(float(math.trunc(x)), x) if x == x else x


def _ceil(x: float) -> float:
    r = float(math.ceil(x))
    return math.copysign(r, x) if r == 0.0 else r


def _floor(x: float) -> float:
    return x if x == 0.0 else float(math.floor(x))


# SQLite 3.40 computes log10() and log2() as ln(x) / M_LN10 and ln(x) / M_LN2, which
# differs from C's log10()/log2() in the last bit for about half of all values
_LN10 = math.log(10.0)
_LN2 = math.log(2.0)


def f_log(ctx, *args):
    v = _num(args[0])
    if v is None:
        return None
    x = float(v)
    if x <= 0.0:
        return None
    if len(args) == 2:
        b = math.log(x)
        if b <= 0.0:
            return None
        # SQLite checks the type of the first argument twice; the second is read as a double
        x = V.to_real(args[1]) if args[1] is not None else 0.0
        if x <= 0.0:
            return None
        return _result(math.log(x) / b)
    return _result(math.log(x) / _LN10)


def f_ln(ctx, x):
    v = _num(x)
    if v is None or float(v) <= 0.0:
        return None
    return _result(math.log(float(v)))


def f_log2(ctx, x):
    v = _num(x)
    if v is None or float(v) <= 0.0:
        return None
    return _result(math.log(float(v)) / _LN2)


def f_pi(ctx):
    return math.pi


def f_sign(ctx, x):
    """sign(X): -1, 0 or +1 (INTEGER) for a number or numeric text, else NULL."""
    v = _num(x)
    if v is None:
        return None
    return -1 if v < 0 else 1 if v > 0 else 0


FUNCS1 = {
    "acos": math.acos, "asin": math.asin, "atan": math.atan, "acosh": math.acosh,
    "asinh": math.asinh, "atanh": math.atanh, "cos": math.cos, "sin": math.sin,
    "tan": math.tan, "cosh": math.cosh, "sinh": math.sinh, "tanh": math.tanh,
    "exp": math.exp, "sqrt": math.sqrt, "degrees": _rad_to_deg, "radians": _deg_to_rad,
}


def register(registry) -> None:
    from sqlengine.vdbe.functions import FuncDef

    for name, fn in FUNCS1.items():
        registry.add(FuncDef(name, 1, _math1(fn)))
    registry.add(FuncDef("ceil", 1, _ceiling(_ceil)))
    registry.add(FuncDef("ceiling", 1, _ceiling(_ceil)))
    registry.add(FuncDef("floor", 1, _ceiling(_floor)))
    registry.add(FuncDef("trunc", 1, _ceiling(_trunc)))
    registry.add(FuncDef("log", 1, f_log))
    registry.add(FuncDef("log", 2, f_log))
    registry.add(FuncDef("log10", 1, f_log))
    registry.add(FuncDef("ln", 1, f_ln))
    registry.add(FuncDef("log2", 1, f_log2))
    registry.add(FuncDef("pi", 0, f_pi))
    registry.add(FuncDef("sign", 1, f_sign))
    registry.add(FuncDef("pow", 2, _math2(_c_pow)))
    registry.add(FuncDef("power", 2, _math2(_c_pow)))
    registry.add(FuncDef("atan2", 2, _math2(math.atan2)))
    registry.add(FuncDef("mod", 2, _math2(_c_fmod)))
