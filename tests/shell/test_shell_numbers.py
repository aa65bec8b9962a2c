"""The shell's readers of numbers and escapes in dot-command arguments (integerValue and
resolve_backslashes of SQLite's shell), and the hex-digit scan they share with PRAGMA's
sqlite3GetInt32 (``sql.lexer.leading_hex``)."""

import pytest

from sqlengine.compiler.pragma_settings import get_int32
from sqlengine.shell.commands import integer_value, resolve_backslashes
from sqlengine.sql.lexer import leading_hex


@pytest.mark.parametrize("text,value", [
    ("0x1F", 31), ("0X1f", 31), ("-0x10", -16), ("+0xff", 255), ("0xg", 0), ("0x", 0),
    ("0x1fz", 31), (" 12 ", 12), ("12KiB", 12288), ("3mb", 3_000_000), ("2G", 2_000_000_000),
    ("7x", 7), ("", 0), ("abc", 0), ("-5", -5),
])
def test_integer_value(text, value):
    assert integer_value(text) == value


@pytest.mark.parametrize("text,out", [
    (r"a\x41b", "aAb"), (r"\x4142", "A42"), (r"\x4", "\x04"), (r"\xg", r"\xg"),
    (r"\x", r"\x"), (r"\t\x7e", "\t~"),
])
def test_resolve_backslashes_hex(text, out):
    assert resolve_backslashes(text) == out


@pytest.mark.parametrize("text,value", [
    ("0x10", 16), ("0xFFFFFFFF", -1), ("0x000000010", 16), ("0x100000000", None), ("0x", None),
    ("0xz", None), ("12abc", 12), ("-2147483648", -2147483648), ("2147483648", None),
])
def test_get_int32(text, value):
    assert get_int32(text) == value


def test_leading_hex():
    assert leading_hex("0x1aG2", 2) == "1a"
    assert leading_hex("ff") == "ff"
    assert leading_hex("xyz") == ""
    assert leading_hex("12", 5) == ""
