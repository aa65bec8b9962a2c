"""encode_record byte for byte against a plain reference encoder written from the file
format's record description (header-size varint, serial-type varints, big-endian bodies):
every value kind, records beyond the encoder's on-stack field count, str subclasses,
non-ASCII and surrogate-escaped text, bytes-like values, and the errors."""

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sqlengine.storage import decode_record, encode_record


def _varint(v):
    v &= (1 << 64) - 1
    if v > 0x00FFFFFFFFFFFFFF:
        out = [v & 0xFF]
        v >>= 8
        for _ in range(8):
            out.append((v & 0x7F) | 0x80)
            v >>= 7
        return bytes(reversed(out))
    out = [v & 0x7F]
    v >>= 7
    while v:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    return bytes(reversed(out))


def _reference(values):
    types, body = [], b""
    for v in values:
        if v is None:
            types.append(0)
        elif isinstance(v, int):
            v = int(v)
            if v in (0, 1):
                types.append(8 + v)
                continue
            for t, n in ((1, 1), (2, 2), (3, 3), (4, 4), (5, 6), (6, 8)):
                if -(1 << (8 * n - 1)) <= v < (1 << (8 * n - 1)):
                    types.append(t)
                    body += v.to_bytes(n, "big", signed=True)
                    break
        elif isinstance(v, float):
            types.append(7)
            body += struct.pack(">d", v)
        elif isinstance(v, str):
            b = str(v).encode("utf-8", "surrogateescape")
            types.append(13 + 2 * len(b))
            body += b
        else:
            b = bytes(v)
            types.append(12 + 2 * len(b))
            body += b
    hdr = b"".join(_varint(t) for t in types)
    n = 1
    while len(_varint(len(hdr) + n)) != n:
        n += 1
    return _varint(len(hdr) + n) + hdr + body


class Json(str):
    """A str subclass (as the JSON functions return): stored as its plain text."""


values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.sampled_from([0, 1, -1, 127, 128, -128, -129, 2**23 - 1, 2**23, 2**31, -(2**31) - 1,
                     2**47 - 1, 2**47, 2**63 - 1, -(2**63)]),
    st.floats(allow_nan=False),
    st.text(max_size=30),
    st.text(alphabet="\u00e9\u4e2d\U0001f600az", max_size=10),
    st.binary(max_size=30),
    st.binary(max_size=10).map(bytearray),
    st.binary(max_size=10).map(memoryview),
    st.text(max_size=10).map(Json),
)


@settings(max_examples=300)
@given(st.lists(values, max_size=80))
def test_matches_reference_encoder(vals):
    rec = encode_record(vals)
    assert type(rec) is bytes
    assert rec == _reference(vals)
    assert rec == encode_record(tuple(vals)) == encode_record(iter(vals))


def test_surrogate_escaped_text_and_long_records():
    vals = ["a\udcff b", "\udc80"] + [b"x" * i for i in range(100)] + ["\u00e9" * 70]
    rec = encode_record(vals)
    assert rec == _reference(vals)
    assert decode_record(rec) == tuple(bytes(v) if isinstance(v, bytes) else v for v in vals)


@pytest.mark.parametrize("bad, exc", [
    ([1, 2**63], OverflowError), ([-(2**63) - 1], OverflowError), (["a", object()], TypeError),
    ([1.5] * 40 + [{}], TypeError),
])
def test_errors(bad, exc):
    with pytest.raises(exc):
        encode_record(bad)
