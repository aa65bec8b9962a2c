"""Value rendering (I, R, T, NULL) checked against SQLite's own C functions via ctypes."""

import math
import random
import struct
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import sqlite_oracle as oracle  # noqa: E402

from sqllogictest_runner.render import (  # noqa: E402
    format_fixed3,
    real_to_text,
    render_int,
    render_real,
    render_text,
    render_values,
)

INT_CASES = [0, 1, -1, 2147483647, 2147483648, -2147483648, -2147483649, 4294967297,
             2**62 + 12345, -(2**63), 2**63 - 1, 2.0, 2.9, -2.9, 1e300, -1e300, 9.3e18,
             -9.3e18, 4294967296.7, "12", " 12abc", "\t\n-7x", "+5", "abc", "", "1e5", "0x10",
             "99999999999999999999", "-99999999999999999999", "00042", "  ", "- 5",
             "9223372036854775808", "-9223372036854775808", b"42", b"-42z", b"", b"\x00 7"]


@pytest.mark.parametrize("v", INT_CASES, ids=repr)
def test_I_is_sqlite3_column_int(v):
    assert render_int(v) == str(oracle.column_int(v))


REAL_TEXT_CASES = ["3.5e2x", "  -1.25", ".5", "5.", "1e", "1e+", "e5", "abc", "", "-", "+.e1",
                   "1.5E-3zz", "12345678901234567890", b"2.25", b"", "\x0c7"]


@pytest.mark.parametrize("v", REAL_TEXT_CASES + [3, -(2**63), 2**53 + 1], ids=repr)
def test_R_conversion_is_sqlite3_column_double(v):
    assert render_real(v) == format_fixed3(oracle.column_double(v))


def _doubles(n, seed):
    rnd = random.Random(seed)
    out = [0.0, -0.0, 0.0005, 0.0625, -0.0625, 2.0005, 0.0001, -0.0001, 1.0005, 0.9995,
           68719476736.0625, 497627834591.0625, 999999999999.9995, 1e-300, 5e-324]
    while len(out) < n:
        k = rnd.random()
        if k < 0.3:
            v = rnd.randint(-10**7, 10**7) / rnd.choice([2, 4, 8, 16, 32, 64, 1000, 2000, 16000, 3, 7])
        elif k < 0.5:
            v = rnd.uniform(-1e12, 1e12)
        elif k < 0.7:
            v = struct.unpack("d", struct.pack("Q", rnd.getrandbits(64)))[0]
        else:
            v = rnd.uniform(-1, 1) * 10 ** rnd.randint(-8, 12)
        if math.isfinite(v):
            out.append(v)
    return out


def test_R_below_1e13_is_sqlite_printf():
    for v in _doubles(20000, 7):
        if abs(v) < 1e13:
            assert format_fixed3(v) == oracle.printf_fixed3(v), v


@pytest.mark.parametrize("v, text", [
    (-(2.0**63), "-9223372036854776000.000"),   # FORMAT.md: at most 16 significant digits
    (2.0**63, "9223372036854776000.000"),
    (-1.8446744073709552e19, "-18446744073709550000.000"),
    (1e20, "100000000000000000000.000"),
    (123456789012345.678, "123456789012345.700"),
    (12345678901234.5, "12345678901234.500"),
    (math.inf, "Inf"), (-math.inf, "-Inf"),
])
def test_R_keeps_16_significant_digits(v, text):
    assert format_fixed3(v) == text


def test_T_of_real_is_sqlite_text():
    vals = _doubles(5000, 11) + [1.0, 0.1, 1e20, 1e15, 1e14, 123456789012345.678, -0.5,
                                  9.995323324070165e+263, 1e-5, 1.5e-7, 100.0]
    for v in vals:
        assert real_to_text(v) == oracle.real_as_text(v), v


@pytest.mark.parametrize("v, text", [
    ("abc", "abc"), ("", "(empty)"), ("a\tb", "a@b"), ("\x7f", "@"), ("é", "@@"),
    ("ab\x00cd", "ab"), ("\x00x", "(empty)"), (b"A\x01B", "A@B"), (b"", "(empty)"),
    (b"\x00", "(empty)"), (5, "5"), (-2**63, "-9223372036854775808"), (1.0, "1.0"),
    (1e20, "1.0e+20"), (0.1, "0.1"), (-0.0, "0.0"), (" x ", " x "), ("~ ", "~ "),
])
def test_T_rendering(v, text):
    assert render_text(v) == text


@pytest.mark.parametrize("t", "IRT")
def test_NULL_whatever_the_type(t):
    assert render_values([(None,)], t) == ["NULL"]


def test_render_values_sorts():
    rows = [(10, "b"), (9, "a"), (10, "a")]
    assert render_values(rows, "IT") == ["10", "b", "9", "a", "10", "a"]
    # rowsort compares rendered strings: "10" < "9"
    assert render_values(rows, "IT", "rowsort") == ["10", "a", "10", "b", "9", "a"]
    assert render_values(rows, "IT", "valuesort") == ["10", "10", "9", "a", "a", "b"]
    assert render_values([(3,), (20,), (1,)], "I", "rowsort") == ["1", "20", "3"]


def test_render_values_mixed_column_falls_back_per_value():
    rows = [(1,), (2.5,), ("7z",), (None,), (2**40,), (b"3",)]
    assert render_values(rows, "I") == ["1", "2", "7", "NULL", "0", "3"]
    assert render_values([("a",), (None,), ("",), (1.5,)], "T") == ["a", "NULL", "(empty)", "1.5"]
