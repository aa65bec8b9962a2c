"""The reference's own conversions, by calling the SQLite C library through ctypes.

sqlite3_column_int / sqlite3_column_double / sqlite3_column_text on a bound value, and
sqlite3_snprintf("%.3f"), exactly as slt_sqlite.c calls them. Test helper only.
"""

import ctypes
import ctypes.util
import sqlite3

_path = ctypes.util.find_library("sqlite3") or "libsqlite3.so.0"
lib = ctypes.CDLL(_path)
lib.sqlite3_libversion.restype = ctypes.c_char_p
VERSION = lib.sqlite3_libversion().decode()
lib.sqlite3_column_int.restype = ctypes.c_int
lib.sqlite3_column_double.restype = ctypes.c_double
lib.sqlite3_column_text.restype = ctypes.c_void_p
lib.sqlite3_column_bytes.restype = ctypes.c_int
lib.sqlite3_bind_int64.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_longlong]
lib.sqlite3_bind_double.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_double]
lib.sqlite3_bind_text.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                  ctypes.c_void_p]
lib.sqlite3_bind_blob.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                  ctypes.c_void_p]
_TRANSIENT = ctypes.c_void_p(-1)

_db = ctypes.c_void_p()
assert lib.sqlite3_open(b":memory:", ctypes.byref(_db)) == 0


def _stmt(value):
    st = ctypes.c_void_p()
    assert lib.sqlite3_prepare_v2(_db, b"SELECT ?", -1, ctypes.byref(st), None) == 0
    if value is None:
        lib.sqlite3_bind_null(st, 1)
    elif isinstance(value, int):
        lib.sqlite3_bind_int64(st, 1, value)
    elif isinstance(value, float):
        lib.sqlite3_bind_double(st, 1, value)
    elif isinstance(value, str):
        b = value.encode("utf-8")
        lib.sqlite3_bind_text(st, 1, b, len(b), _TRANSIENT)
    else:
        lib.sqlite3_bind_blob(st, 1, bytes(value), len(value), _TRANSIENT)
    assert lib.sqlite3_step(st) == 100  # SQLITE_ROW
    return st


def column_int(value) -> int:
    st = _stmt(value)
    try:
        return lib.sqlite3_column_int(st, 0)
    finally:
        lib.sqlite3_finalize(st)


def column_double(value) -> float:
    st = _stmt(value)
    try:
        return lib.sqlite3_column_double(st, 0)
    finally:
        lib.sqlite3_finalize(st)


def printf_fixed3(x: float) -> str:
    buf = ctypes.create_string_buffer(400)
    lib.sqlite3_snprintf(400, buf, b"%.3f", ctypes.c_double(x))
    return buf.value.decode()


def real_as_text(x: float) -> str:
    return sqlite3.connect(":memory:").execute("SELECT CAST(? AS TEXT)", (x,)).fetchone()[0]
