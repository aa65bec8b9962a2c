"""The record codec against SQLite's own records (read back through sqlite3)."""

import sqlite3
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sqlengine.storage import (KeyInfo, compare_record, compare_values, decode_column,
                               decode_record, encode_record, record_field_count)
from sqlengine.storage._record import varint_decode, varint_encode

values = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
    st.text(),
    st.binary(),
)


@given(st.lists(values, max_size=20))
def test_round_trip(vals):
    rec = encode_record(vals)
    assert decode_record(rec) == tuple(vals)
    assert record_field_count(rec) == len(vals)
    for i, v in enumerate(vals):
        assert decode_column(rec, i) == v
    assert decode_column(rec, len(vals)) is None


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_varint_round_trip(v):
    b = varint_encode(v)
    assert 1 <= len(b) <= 9
    assert varint_decode(b) == (v, len(b))


def test_serial_types_are_smallest():
    # header byte after the header-size byte is the serial type
    assert encode_record([0])[1] == 8
    assert encode_record([1])[1] == 9
    assert encode_record([2])[1] == 1
    assert encode_record([-129])[1] == 2
    assert encode_record([2**23])[1] == 4
    assert encode_record([2**40])[1] == 5
    assert encode_record([2**47])[1] == 6
    assert encode_record([1.5]) == bytes([2, 7]) + struct.pack(">d", 1.5)
    assert encode_record(["ab"]) == bytes([2, 17]) + b"ab"
    assert encode_record([b"ab"]) == bytes([2, 16]) + b"ab"


def test_long_header_size_varint():
    vals = ["x"] * 200
    rec = encode_record(vals)
    assert decode_record(rec) == tuple(vals)


def test_matches_sqlite_ordering():
    """Sorting with compare_values gives sqlite3's ORDER BY order."""
    import functools
    vals = [None, 1, 2.5, -3, 2**62, 2**62 + 0.0, "a", "B", "", b"", b"\x00", 1.0, 9007199254740993,
            9007199254740992.0, "é", "z"]
    con = sqlite3.connect(":memory:")
    con.execute("create table t(v)")
    con.executemany("insert into t values(?)", [(v,) for v in vals])
    exp = [r[0] for r in con.execute("select v from t order by v")]
    for a, b in zip(exp, exp[1:]):
        assert compare_values(a, b) <= 0, (a, b)
    got = sorted(vals, key=functools.cmp_to_key(compare_values))
    assert all(compare_values(x, y) == 0 for x, y in zip(got, exp))
    for a in vals:
        for b in vals:
            (lt,) = con.execute("select ? < ?", (a, b)).fetchone()
            if lt is not None:
                assert (compare_values(a, b) < 0) == bool(lt), (a, b)


def test_prefix_compare_and_desc():
    rec = encode_record([5, "abc", 3])
    assert compare_record(rec, (5,)) == 0
    assert compare_record(rec, (5, "abd")) == -1
    assert compare_record(rec, (4, "zzz")) == 1
    ki = KeyInfo(3, [None, None, None], [True, False, False])
    assert compare_record(rec, (4,), ki) == -1
    nocase = KeyInfo(2, [None, lambda a, b: (a.lower() > b.lower()) - (a.lower() < b.lower())])
    assert compare_record(rec, (5, "ABC"), nocase) == 0


def test_int_real_exact_compare():
    big = 2**63 - 1
    assert compare_values(big, float(2**63)) == -1
    assert compare_values(2**53 + 1, float(2**53)) == 1
    assert compare_values(-(2**63), -9.3e18) == 1


def test_invalid_utf8_round_trips():
    raw = bytes([2, 13 + 2 * 3]) + b"a\xffb"
    v = decode_record(raw)[0]
    assert isinstance(v, str)
    assert encode_record([v]) == raw


@pytest.mark.parametrize("bad", [b"", b"\x05\x01", b"\x02\x1f", bytes([2, 10]), b"\x81"])
def test_malformed_records_raise(bad):
    from sqlengine.errors import DatabaseError
    with pytest.raises(DatabaseError):
        decode_record(bad)


@given(st.lists(values, min_size=1, max_size=4), st.lists(values, min_size=1, max_size=4),
       st.lists(st.booleans(), min_size=4, max_size=4))
def test_record_vs_record_matches_record_vs_tuple(a, b, desc):
    from sqlengine.storage._record import compare_two_records
    ki = KeyInfo(4, None, desc)
    ra, rb = encode_record(a), encode_record(b)
    n = min(len(a), len(b))
    assert compare_two_records(ra, rb, ki) == compare_record(ra, tuple(b[:n]), ki)


NOCASE = KeyInfo(4, [lambda a, b: (a.lower() > b.lower()) - (a.lower() < b.lower())] * 4)


@given(st.lists(values, min_size=1, max_size=4), st.lists(values, min_size=1, max_size=4),
       st.lists(st.booleans(), min_size=4, max_size=4))
def test_unpacked_probe_compares_as_bytes(a, b, desc):
    """The b-tree search's compare of a cell with its unpacked probe orders as the compare of
    the two records (each key kind: BINARY with DESC fields, NOCASE)."""
    from sqlengine.storage._record import compare_two_records, compare_unpacked_record
    ra, rb = encode_record(a), encode_record(b)
    for ki in (KeyInfo(4, None, desc), NOCASE):
        assert compare_unpacked_record(ra, rb, ki) == compare_two_records(ra, rb, ki)
        assert compare_unpacked_record(rb, ra, ki) == compare_two_records(rb, ra, ki)


def test_unpacked_probe_integers_of_every_width():
    """Integer fields of each serial width (1..6, and the 0/1 types) against each other."""
    from sqlengine.storage._record import compare_two_records, compare_unpacked_record
    ints = [0, 1, -1, 127, -128, 128, 2**15, -(2**15) - 1, 2**23, 2**31 - 1, -(2**31),
            2**40, -(2**47), 2**62, 2**63 - 1, -(2**63), 2.5, -0.0, None, "1", b"1"]
    for x in ints:
        for y in ints:
            ra, rb = encode_record([x, 7]), encode_record([y, 7])
            assert compare_unpacked_record(ra, rb) == compare_two_records(ra, rb), (x, y)


def test_unpacked_probe_limits():
    """A record of more fields than an unpacked probe holds, or a malformed one, is not
    unpacked (the search compares it as bytes); a malformed cell raises as before."""
    from sqlengine.errors import DatabaseError
    from sqlengine.storage._record import compare_unpacked_record
    with pytest.raises(ValueError):
        compare_unpacked_record(encode_record([1]), encode_record(list(range(33))))
    with pytest.raises(ValueError):
        compare_unpacked_record(encode_record([1]), bytes([2, 10]))
    assert compare_unpacked_record(encode_record([0]), encode_record(list(range(32)))) == 0
    with pytest.raises(DatabaseError):
        compare_unpacked_record(bytes([2, 10, 0]), encode_record([1, 2]))
