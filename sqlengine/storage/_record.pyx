# cython: language_level=3
"""The record codec: SQLite's record format (a header of serial types, then the values), its
varints, and the comparison of index keys field by field under a KeyInfo.

A record is ``varint(header size) serial-type varints... value bytes...``. Serial types:

    0 NULL   1..6 big-endian signed int of 1,2,3,4,6,8 bytes   7 IEEE-754 double (big-endian)
    8 integer 0   9 integer 1   10,11 reserved   N>=12 even: BLOB of (N-12)/2 bytes
    N>=13 odd: TEXT of (N-13)/2 bytes (UTF-8 in this engine)

Text is decoded with ``errors='surrogateescape'`` so that invalid UTF-8 written by another
program survives a read/write round trip byte for byte (encode uses the same handler); the
stdlib sqlite3 module would refuse such a value at fetch time, SQLite itself keeps the bytes.

This module knows bytes and Python values only; it never touches pages, files or SQL, and it
never applies affinity (that is the VM's job before it calls ``encode_record``).
"""

from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_GET_LENGTH, PyUnicode_DATA, PyUnicode_DecodeUTF8
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy
from libc.stdint cimport int64_t, uint64_t, uint32_t

from sqlengine.storage._varint cimport (get_varint, varint_len, put_varint, serial_size,
                                      get_int, get_double)

from sqlengine.errors import DatabaseError, SQLITE_CORRUPT

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)


cdef object _corrupt():
    return DatabaseError("database disk image is malformed", code=SQLITE_CORRUPT)


# ---------------------------------------------------------------------------------------------
# varints: 1..9 bytes, big-endian 7 bits per byte with the high bit as "more"; the 9th byte
# carries a full 8 bits.

def varint_encode(v):
    """The varint bytes of an unsigned 64-bit value (negative values use two's complement)."""
    cdef unsigned char buf[10]
    cdef uint64_t u = <uint64_t>(<int64_t>v) if v < 0 else <uint64_t>v
    cdef int n = put_varint(buf, u)
    return PyBytes_FromStringAndSize(<char*>buf, n)


def varint_decode(const unsigned char[:] data not None, Py_ssize_t offset=0):
    """(value, length) of the varint at ``offset`` of ``data``; raises on truncation."""
    cdef uint64_t v
    if offset < 0 or offset >= data.shape[0]:
        raise _corrupt()
    cdef int n = get_varint(&data[offset], data.shape[0] - offset, &v)
    if n == 0:
        raise _corrupt()
    return v, n


# ---------------------------------------------------------------------------------------------
# serial types

cdef object decode_value(uint64_t t, const unsigned char* p, Py_ssize_t n):
    """The Python value of serial type t whose n bytes are at p."""
    if t >= 12:
        if t & 1:
            # decoded straight from the record (as bytes.decode, without the bytes object)
            return PyUnicode_DecodeUTF8(<char*>p, n, "surrogateescape")
        return PyBytes_FromStringAndSize(<const char*>p, n)
    if t == 0:
        return None
    if t == 8:
        return 0
    if t == 9:
        return 1
    if t == 7:
        return get_double(p)
    if t <= 6:
        return get_int(p, <int>n)
    raise _corrupt()


cdef tuple decode_record_at(const unsigned char* p, Py_ssize_t size):
    """The tuple of values of the record at p (size bytes)."""
    if size <= 0:
        raise _corrupt()
    cdef uint64_t hsz, t
    cdef int n = get_varint(p, size, &hsz)
    if n == 0 or hsz > <uint64_t>size or hsz < <uint64_t>n:
        raise _corrupt()
    cdef Py_ssize_t pos = n, body = <Py_ssize_t>hsz, sz
    out = []
    while pos < <Py_ssize_t>hsz:
        n = get_varint(p + pos, <Py_ssize_t>hsz - pos, &t)
        if n == 0 or t == 10 or t == 11:
            raise _corrupt()
        pos += n
        sz = serial_size(t)
        if body + sz > size:
            raise _corrupt()
        out.append(decode_value(t, p + body, sz))
        body += sz
    return tuple(out)


def decode_record(data):
    """The tuple of Python values of a record (bytes-like)."""
    cdef const unsigned char[:] mv = data
    if mv.shape[0] == 0:
        raise _corrupt()
    return decode_record_at(&mv[0], mv.shape[0])


def record_field_count(data):
    """The number of fields in a record."""
    cdef const unsigned char[:] mv = data
    cdef Py_ssize_t size = mv.shape[0]
    if size == 0:
        raise _corrupt()
    cdef const unsigned char* p = &mv[0]
    cdef uint64_t hsz, t
    cdef int n = get_varint(p, size, &hsz)
    if n == 0 or hsz > <uint64_t>size or hsz < <uint64_t>n:
        raise _corrupt()
    cdef Py_ssize_t pos = n
    cdef int count = 0
    while pos < <Py_ssize_t>hsz:
        n = get_varint(p + pos, <Py_ssize_t>hsz - pos, &t)
        if n == 0:
            raise _corrupt()
        pos += n
        count += 1
    return count


cdef object decode_column_or(const unsigned char* p, Py_ssize_t size, Py_ssize_t i,
                             object dflt):
    """Field i (>= 0) of the record at p; ``dflt`` past the last field (the default of a
    column added by ALTER TABLE ADD COLUMN)."""
    if size <= 0:
        raise _corrupt()
    cdef uint64_t hsz, t
    cdef int n = get_varint(p, size, &hsz)
    if n == 0 or hsz > <uint64_t>size or hsz < <uint64_t>n:
        raise _corrupt()
    cdef Py_ssize_t pos = n, body = <Py_ssize_t>hsz, sz
    cdef Py_ssize_t k = 0
    while pos < <Py_ssize_t>hsz:
        n = get_varint(p + pos, <Py_ssize_t>hsz - pos, &t)
        if n == 0 or t == 10 or t == 11:
            raise _corrupt()
        pos += n
        sz = serial_size(t)
        if body + sz > size:
            raise _corrupt()
        if k == i:
            return decode_value(t, p + body, sz)
        body += sz
        k += 1
    return dflt


cdef object decode_column_at(const unsigned char* p, Py_ssize_t size, Py_ssize_t i):
    """Field i (>= 0) of the record at p; None past the last field."""
    return decode_column_or(p, size, i, None)


cdef object decode_last_at(const unsigned char* p, Py_ssize_t size):
    """The rowid ending the index record at p, read as sqlite3VdbeIdxRowid reads it: its
    serial type is the varint at the header's last byte (an integer type, else corrupt),
    its value the last bytes of the record. On a well-formed record that is its last
    field; on a damaged one it is the value sqlite3 reads."""
    cdef uint64_t hsz, t
    cdef Py_ssize_t sz
    if size <= 0:
        raise _corrupt()
    cdef int n = get_varint(p, size, &hsz)
    if n == 0 or hsz < 3 or hsz > <uint64_t>size:
        raise _corrupt()
    n = get_varint(p + hsz - 1, size - <Py_ssize_t>hsz + 1, &t)
    if n == 0 or t < 1 or t > 9 or t == 7:
        raise _corrupt()
    sz = serial_size(t)
    if size < <Py_ssize_t>hsz + sz:
        raise _corrupt()
    return decode_value(t, p + size - sz, sz)


def decode_column(data, Py_ssize_t i):
    """The value of field ``i`` of a record (negative i counts from the end); None when the
    record has fewer fields (SQLite's rule for columns added by ALTER TABLE ADD COLUMN)."""
    cdef const unsigned char[:] mv = data
    if mv.shape[0] == 0:
        raise _corrupt()
    if i < 0:
        i += record_field_count(data)
        if i < 0:
            return None
    return decode_column_at(&mv[0], mv.shape[0], i)


# ---------------------------------------------------------------------------------------------
# encoding

cdef inline bytes _text_bytes(str s):
    try:
        return s.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return s.encode("utf-8", "surrogatepass")


cdef enum:
    ENC_NONE = 0        # no body bytes (NULL, integers 0 and 1)
    ENC_INT = 1         # an integer of enc_len bytes
    ENC_REAL = 2
    ENC_ASCII = 3       # an ASCII str: its characters are its UTF-8 bytes
    ENC_BYTES = 4       # bytes (the value itself, or its encoding kept in ``held``)

DEF ENC_STACK = 32      # fields encoded without a heap allocation


cdef struct EncField:
    uint64_t t          # serial type
    int kind
    Py_ssize_t n        # body bytes
    int64_t iv
    double dv


cpdef bytes encode_record(object values):
    """The record bytes of a sequence of Python values (None, int, float, str, bytes-like).
    Integers must fit in 64 bits; bool is an integer. Two passes over the values: the
    serial types and sizes, then the header and the body written into the result."""
    cdef tuple vals = values if type(values) is tuple else tuple(values)
    cdef Py_ssize_t n = len(vals), i, hdr = 0, body = 0, pos, hsz
    cdef EncField stack[ENC_STACK]
    cdef EncField* f = stack
    cdef EncField* e
    cdef list held = None      # bytes objects the body is copied from (encodings, copies)
    cdef int64_t iv
    cdef uint64_t u
    cdef int hn, j
    cdef object v
    cdef bytes b, out
    cdef unsigned char* o
    if n > ENC_STACK:
        f = <EncField*>malloc(n * sizeof(EncField))
        if f == NULL:
            raise MemoryError()
    try:
        for i in range(n):
            v = vals[i]
            e = &f[i]
            e.n = 0
            e.kind = ENC_NONE
            if v is None:
                e.t = 0
            elif type(v) is int or (type(v) is not float and isinstance(v, int)):
                if v > 9223372036854775807 or v < -9223372036854775808:
                    raise OverflowError("integer out of 64-bit range")
                iv = v
                if iv == 0:
                    e.t = 8
                elif iv == 1:
                    e.t = 9
                else:
                    e.kind = ENC_INT
                    e.iv = iv
                    if -128 <= iv <= 127:
                        e.t = 1; e.n = 1
                    elif -32768 <= iv <= 32767:
                        e.t = 2; e.n = 2
                    elif -8388608 <= iv <= 8388607:
                        e.t = 3; e.n = 3
                    elif -2147483648 <= iv <= 2147483647:
                        e.t = 4; e.n = 4
                    elif -140737488355328 <= iv <= 140737488355327:
                        e.t = 5; e.n = 6
                    else:
                        e.t = 6; e.n = 8
            elif isinstance(v, float):
                e.kind = ENC_REAL
                e.dv = v
                e.t = 7
                e.n = 8
            elif isinstance(v, str):
                # a str subclass (JSON text) is stored as its plain text
                if type(v) is not str:
                    v = str(v)
                if PyUnicode_IS_ASCII(v):
                    e.kind = ENC_ASCII
                    e.n = PyUnicode_GET_LENGTH(v)
                else:
                    v = _text_bytes(v)
                    e.kind = ENC_BYTES
                    e.n = PyBytes_GET_SIZE(v)
                e.t = 13 + 2 * <uint64_t>e.n
            elif isinstance(v, (bytes, bytearray, memoryview)):
                if type(v) is not bytes:
                    v = bytes(v)
                e.kind = ENC_BYTES
                e.n = PyBytes_GET_SIZE(v)
                e.t = 12 + 2 * <uint64_t>e.n
            else:
                raise TypeError(f"cannot store a value of type {type(v).__name__}")
            if v is not vals[i]:
                if held is None:
                    held = [None] * n
                held[i] = v
            hdr += varint_len(e.t)
            body += e.n
        # the header size includes its own varint
        hn = 1
        while varint_len(<uint64_t>(hdr + hn)) != hn:
            hn += 1
        hsz = hdr + hn
        out = PyBytes_FromStringAndSize(NULL, hsz + body)
        o = <unsigned char*>PyBytes_AS_STRING(out)
        pos = put_varint(o, <uint64_t>hsz)
        for i in range(n):
            pos += put_varint(o + pos, f[i].t)
        for i in range(n):
            e = &f[i]
            if e.kind == ENC_NONE:
                continue
            if e.kind == ENC_INT:
                u = <uint64_t>e.iv
                for j in range(<int>e.n - 1, -1, -1):
                    o[pos + j] = <unsigned char>(u & 0xFF)
                    u >>= 8
            elif e.kind == ENC_REAL:
                memcpy(&u, &e.dv, 8)
                for j in range(7, -1, -1):
                    o[pos + j] = <unsigned char>(u & 0xFF)
                    u >>= 8
            else:
                v = held[i] if held is not None and held[i] is not None else vals[i]
                if e.kind == ENC_ASCII:
                    memcpy(o + pos, PyUnicode_DATA(v), e.n)
                else:
                    memcpy(o + pos, PyBytes_AS_STRING(v), e.n)
            pos += e.n
        return out
    finally:
        if f != stack:
            free(f)


# ---------------------------------------------------------------------------------------------
# comparison: SQLite's record compare. NULL < numbers < TEXT < BLOB; numbers compare by value
# (an integer and a real compare exactly); TEXT by the field's collation (None = BINARY =
# memcmp of UTF-8, which orders by code point); BLOB by memcmp then length.

cdef class KeyInfo:
    """How an index key compares: n_fields, per-field collation (None = BINARY or a callable
    cmp(a: str, b: str) -> int) and per-field DESC flag (list of bools)."""

    def __init__(self, n_fields=0, collations=None, desc=None):
        self.n_fields = n_fields
        self.collations = list(collations) if collations else []
        self.desc = [bool(d) for d in desc] if desc else []
        self.ncoll = len(self.collations)
        self.ndesc = len(self.desc)
        self.all_binary = all(c is None for c in self.collations)
        self.any_desc = any(self.desc)

    def __repr__(self):
        return f"KeyInfo({self.n_fields}, {self.collations!r}, {self.desc!r})"


cdef inline int _type_class(object v):
    # 0 NULL, 1 numeric, 2 text, 3 blob
    if v is None:
        return 0
    if isinstance(v, (int, float)):
        return 1
    if isinstance(v, str):
        return 2
    return 3


cdef inline int _cmp_int_double(int64_t i, double r) noexcept:
    if r != r:  # NaN sorts as if NULL in SQLite; treat the number as greater
        return 1
    return int_real_compare(i, r)


cdef inline int _cmp_bytes(const unsigned char* a, Py_ssize_t na, const unsigned char* b,
                           Py_ssize_t nb) noexcept:
    cdef Py_ssize_t n = na if na < nb else nb
    cdef int c = memcmp(a, b, n) if n > 0 else 0
    if c != 0:
        return -1 if c < 0 else 1
    if na < nb:
        return -1
    if na > nb:
        return 1
    return 0


cdef class PreparedKey:
    """A key tuple pre-digested for repeated comparison against records: each field's class
    and, for text and blobs, its bytes (UTF-8 for text)."""

    def __init__(self, tuple values):
        self.values = values
        self.n = len(values)
        self.cls = []
        self.raw = []
        for v in values:
            c = _type_class(v)
            self.cls.append(c)
            if c == 2:
                self.raw.append(_text_bytes(v if type(v) is str else str(v)))
            elif c == 3:
                self.raw.append(bytes(v))
            else:
                self.raw.append(v)


cpdef PreparedKey prepare_key(tuple values):
    return PreparedKey(values)


cdef int _cmp_field(uint64_t t, const unsigned char* p, Py_ssize_t sz, int kc, object kv,
                    object kraw, object coll) except -2:
    """Compare record field (serial type t, bytes at p) with key value (class kc). -1/0/1."""
    cdef int rc_cls
    cdef int64_t iv
    cdef double dv
    cdef bytes kb
    if t == 0:
        rc_cls = 0
    elif t <= 9:
        rc_cls = 1
    elif t & 1:
        rc_cls = 2
    else:
        rc_cls = 3
    if rc_cls != kc:
        return -1 if rc_cls < kc else 1
    if rc_cls == 0:
        return 0
    if rc_cls == 1:
        if t == 7:
            dv = get_double(p)
            if isinstance(kv, float):
                if dv < <double>kv:
                    return -1
                if dv > <double>kv:
                    return 1
                return 0
            if -9223372036854775808 <= kv <= 9223372036854775807:
                return -_cmp_int_double(<int64_t>kv, dv)
            return -1 if dv < kv else (1 if dv > kv else 0)
        if t == 8:
            iv = 0
        elif t == 9:
            iv = 1
        else:
            iv = get_int(p, <int>sz)
        if isinstance(kv, float):
            return _cmp_int_double(iv, <double>kv)
        if -9223372036854775808 <= kv <= 9223372036854775807:
            if iv < <int64_t>kv:
                return -1
            if iv > <int64_t>kv:
                return 1
            return 0
        return -1 if iv < kv else 1
    kb = <bytes>kraw
    if rc_cls == 2 and coll is not None:
        a = (<bytes>PyBytes_FromStringAndSize(<const char*>p, sz)).decode(
            "utf-8", "surrogateescape")
        c = coll(a, kv)
        return -1 if c < 0 else (1 if c > 0 else 0)
    return _cmp_bytes(p, sz, <const unsigned char*>PyBytes_AS_STRING(kb), PyBytes_GET_SIZE(kb))


cdef int compare_record_key(const unsigned char* p, Py_ssize_t size, PreparedKey key,
                            KeyInfo ki) except -2:
    """Compare the first len(key) fields of the record at p with the key. -1/0/1 (the record
    relative to the key); a record with fewer fields than the key compares equal on the
    fields it has (SQLite compares only the common prefix)."""
    cdef uint64_t hsz, t
    cdef int n, i = 0, c
    cdef Py_ssize_t pos, body, sz
    n = get_varint(p, size, &hsz)
    if n == 0 or hsz > <uint64_t>size or hsz < <uint64_t>n:
        raise _corrupt()
    pos = n
    body = <Py_ssize_t>hsz
    while i < key.n and pos < <Py_ssize_t>hsz:
        n = get_varint(p + pos, <Py_ssize_t>hsz - pos, &t)
        if n == 0 or t == 10 or t == 11:
            raise _corrupt()
        pos += n
        sz = serial_size(t)
        if body + sz > size:
            raise _corrupt()
        c = _cmp_field(t, p + body, sz, <int>key.cls[i], key.values[i], key.raw[i],
                       ki.collations[i] if i < ki.ncoll else None)
        if c != 0:
            if i < ki.ndesc and ki.desc[i]:
                return -c
            return c
        body += sz
        i += 1
    return 0


cdef inline int _class_of(uint64_t t) noexcept:
    if t == 0:
        return 0
    if t <= 9:
        return 1
    return 2 if (t & 1) else 3


cdef inline int _cmp_numbers(uint64_t t1, const unsigned char* p1, Py_ssize_t n1,
                             uint64_t t2, const unsigned char* p2, Py_ssize_t n2) noexcept:
    """Compare two numeric record fields (serial types 1..9) exactly. -1/0/1."""
    cdef int64_t i1 = 0, i2 = 0
    cdef double d1, d2
    if t1 == 7 and t2 == 7:
        d1 = get_double(p1)
        d2 = get_double(p2)
        return -1 if d1 < d2 else (1 if d1 > d2 else 0)
    if t1 != 7:
        i1 = 0 if t1 == 8 else (1 if t1 == 9 else get_int(p1, <int>n1))
    if t2 != 7:
        i2 = 0 if t2 == 8 else (1 if t2 == 9 else get_int(p2, <int>n2))
    if t1 == 7:
        return -_cmp_int_double(i2, get_double(p1))
    if t2 == 7:
        return _cmp_int_double(i1, get_double(p2))
    return -1 if i1 < i2 else (1 if i1 > i2 else 0)


cdef int _cmp_collated(const unsigned char* p1, Py_ssize_t n1, const unsigned char* p2,
                       Py_ssize_t n2, object coll) except -2:
    """Compare two TEXT record fields under a collation function. -1/0/1."""
    a = (<bytes>PyBytes_FromStringAndSize(<const char*>p1, n1)).decode(
        "utf-8", "surrogateescape")
    b = (<bytes>PyBytes_FromStringAndSize(<const char*>p2, n2)).decode(
        "utf-8", "surrogateescape")
    c = coll(a, b)
    return -1 if c < 0 else (1 if c > 0 else 0)


cdef inline int _cmp_serial(uint64_t t1, const unsigned char* p1, Py_ssize_t n1,
                            uint64_t t2, const unsigned char* p2, Py_ssize_t n2,
                            KeyInfo ki, int i) except -2:
    """Compare two record fields given by serial type and bytes, as key field i of ``ki``
    (its collation applies to two TEXT values). -1/0/1."""
    cdef int c1 = _class_of(t1), c2 = _class_of(t2)
    if c1 != c2:
        return -1 if c1 < c2 else 1
    if c1 == 0:
        return 0
    if c1 == 1:
        return _cmp_numbers(t1, p1, n1, t2, p2, n2)
    if c1 == 2 and not ki.all_binary and i < ki.ncoll:
        coll = ki.collations[i]
        if coll is not None:
            return _cmp_collated(p1, n1, p2, n2, coll)
    return _cmp_bytes(p1, n1, p2, n2)


cdef inline int _key_order(int c, KeyInfo ki, int i):
    """The order c of key field i, reversed when that field is DESC."""
    if ki.any_desc and i < ki.ndesc and ki.desc[i]:
        return -c
    return c


cdef int compare_records(const unsigned char* a, Py_ssize_t na, const unsigned char* b,
                         Py_ssize_t nb, KeyInfo ki) except -2:
    """Compare two records field by field over their common fields (SQLite's record
    compare without default_rc): -1/0/1."""
    cdef uint64_t ha, hb, ta, tb
    cdef int n, i = 0, c
    cdef Py_ssize_t pa, pb, ba, bb, sa, sb
    n = get_varint(a, na, &ha)
    if n == 0 or ha > <uint64_t>na or ha < <uint64_t>n:
        raise _corrupt()
    pa = n
    ba = <Py_ssize_t>ha
    n = get_varint(b, nb, &hb)
    if n == 0 or hb > <uint64_t>nb or hb < <uint64_t>n:
        raise _corrupt()
    pb = n
    bb = <Py_ssize_t>hb
    while pa < <Py_ssize_t>ha and pb < <Py_ssize_t>hb:
        n = get_varint(a + pa, <Py_ssize_t>ha - pa, &ta)
        if n == 0 or ta == 10 or ta == 11:
            raise _corrupt()
        pa += n
        n = get_varint(b + pb, <Py_ssize_t>hb - pb, &tb)
        if n == 0 or tb == 10 or tb == 11:
            raise _corrupt()
        pb += n
        sa = serial_size(ta)
        sb = serial_size(tb)
        if ba + sa > na or bb + sb > nb:
            raise _corrupt()
        c = _cmp_serial(ta, a + ba, sa, tb, b + bb, sb, ki, i)
        if c != 0:
            return _key_order(c, ki, i)
        ba += sa
        bb += sb
        i += 1
    return 0


cdef bint unpack_record(const unsigned char* p, Py_ssize_t size, Unpacked* u) noexcept:
    """Parse the header of the record at p into ``u`` (which then points into p): True, or
    False when the record has more than UNPACKED_MAX fields or is malformed anywhere (the
    caller compares it as bytes then, with compare_records and its errors)."""
    cdef uint64_t h, t
    cdef int n, k = 0
    cdef Py_ssize_t pos, body, sz
    if size <= 0:
        return False
    n = get_varint(p, size, &h)
    if n == 0 or h > <uint64_t>size or h < <uint64_t>n:
        return False
    pos = n
    body = <Py_ssize_t>h
    while pos < <Py_ssize_t>h:
        if k == UNPACKED_MAX:
            return False
        n = get_varint(p + pos, <Py_ssize_t>h - pos, &t)
        if n == 0 or t == 10 or t == 11:
            return False
        pos += n
        sz = serial_size(t)
        if body + sz > size:
            return False
        u.t[k] = t
        u.off[k] = body
        body += sz
        k += 1
    u.p = p
    u.n = k
    return True


cdef int compare_unpacked(const unsigned char* a, Py_ssize_t na, const Unpacked* u,
                          KeyInfo ki) except -2:
    """compare_records(a, b) for the record b unpacked in ``u``: the same order and the same
    errors (b is well formed), b's header not parsed again. A number against a number (the
    usual index key: INTEGER and REAL columns) is compared without a call."""
    cdef uint64_t ha, ta, tb
    cdef int n, i = 0, c
    cdef Py_ssize_t pa, ba, sa
    cdef int64_t x, y
    n = get_varint(a, na, &ha)
    if n == 0 or ha > <uint64_t>na or ha < <uint64_t>n:
        raise _corrupt()
    pa = n
    ba = <Py_ssize_t>ha
    while pa < <Py_ssize_t>ha and i < u.n:
        ta = a[pa]
        if ta < 0x80:
            pa += 1
        else:
            n = get_varint(a + pa, <Py_ssize_t>ha - pa, &ta)
            if n == 0:
                raise _corrupt()
            pa += n
        if ta == 10 or ta == 11:
            raise _corrupt()
        sa = serial_size(ta)
        if ba + sa > na:
            raise _corrupt()
        tb = u.t[i]
        if 1 <= ta <= 6 and 1 <= tb <= 6:
            x = get_int(a + ba, <int>sa)
            y = get_int(u.p + u.off[i], <int>serial_size(tb))
            c = -1 if x < y else (1 if x > y else 0)
        elif 1 <= ta <= 9 and 1 <= tb <= 9:
            # two numbers (a REAL, or the 0/1 types, on either side): no call either
            c = _cmp_numbers(ta, a + ba, sa, tb, u.p + u.off[i], serial_size(tb))
        else:
            c = _cmp_serial(ta, a + ba, sa, tb, u.p + u.off[i], serial_size(tb), ki, i)
        if c != 0:
            return _key_order(c, ki, i)
        ba += sa
        i += 1
    return 0


def compare_record(record, key, KeyInfo key_info=None):
    """Compare the prefix of a record (bytes) with a key tuple: -1, 0 or 1."""
    cdef const unsigned char[:] mv = record
    if mv.shape[0] == 0:
        raise _corrupt()
    if key_info is None:
        key_info = KeyInfo(len(key))
    pk = key if isinstance(key, PreparedKey) else PreparedKey(tuple(key))
    return compare_record_key(&mv[0], mv.shape[0], pk, key_info)


def compare_two_records(a, b, KeyInfo key_info=None):
    """Compare two records (bytes) over their common fields: -1, 0 or 1."""
    cdef const unsigned char[:] ma = a
    cdef const unsigned char[:] mb = b
    if ma.shape[0] == 0 or mb.shape[0] == 0:
        raise _corrupt()
    if key_info is None:
        key_info = KeyInfo(0)
    return compare_records(&ma[0], ma.shape[0], &mb[0], mb.shape[0], key_info)


def compare_unpacked_record(a, b, KeyInfo key_info=None):
    """compare_two_records(a, b) with b unpacked first, as a b-tree search compares its probe
    (compare_unpacked); ValueError when b cannot be unpacked (more than UNPACKED_MAX fields,
    or malformed: the search compares such a probe as bytes)."""
    cdef const unsigned char[:] ma = a
    cdef Unpacked u
    if ma.shape[0] == 0:
        raise _corrupt()
    if not unpack_record(<const unsigned char*>PyBytes_AS_STRING(b), PyBytes_GET_SIZE(b), &u):
        raise ValueError("record not unpacked")
    if key_info is None:
        key_info = KeyInfo(0)
    return compare_unpacked(&ma[0], ma.shape[0], &u, key_info)


def compare_values(a, b, coll=None):
    """SQLite's ordering of two Python values (NULL < numbers < TEXT < BLOB): -1, 0 or 1."""
    rec = encode_record((a,))
    return compare_record(rec, (b,), KeyInfo(1, [coll], [False]))
