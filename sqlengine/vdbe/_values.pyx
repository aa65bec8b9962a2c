# cython: language_level=3
"""SQLite's value semantics: storage classes, affinity, comparison, arithmetic and casts.

Values are plain Python objects: ``None`` (NULL), ``int`` (64-bit INTEGER), ``float`` (REAL),
``str`` (TEXT) and ``bytes`` (BLOB). Every function here takes and returns such values and
reproduces SQLite 3.40's rules exactly (the stdlib ``sqlite3`` module is the oracle of the
tests in ``tests/vdbe/test_values*.py``). The VM loop cimports these functions (see
``_values.pxd``); plain Python code imports them normally.

Affinities are SQLite's one-letter codes: ``AFF_BLOB='A'``, ``AFF_TEXT='B'``,
``AFF_NUMERIC='C'``, ``AFF_INTEGER='D'``, ``AFF_REAL='E'``; ``AFF_NONE='@'`` (or ``None``)
means "no affinity" (an expression that is not a column, a CAST or a subquery column).

How the VM uses this module
---------------------------
* Storing into a column (OP_Affinity / MakeRecord): ``apply_affinity(v, column_affinity)``.
  This returns the *logical* value: a REAL-affinity column yields ``float`` for every number
  (SQLite stores integral reals of REAL columns as integers on disk, an optimisation the
  record layer may copy; reading such a column back goes through ``real_affinity``).
* Comparison operators ``= == <> != < <= > >= IS``: the compiler computes
  ``aff = comparison_affinity(affinity(lhs), affinity(rhs))`` (SQLite's
  sqlite3CompareAffinity) and the VM calls ``compare_with_affinity(a, b, aff, coll)``, which
  returns ``None`` when either side is NULL, else -1/0/1. ``IS``/``IS NOT`` and sorting use
  ``compare(a, b, coll)`` (a total order: NULL < numbers < TEXT < BLOB), after the same
  affinity conversion for IS (``compare_with_affinity`` with NULLs handled by the VM).
* Arithmetic ``+ - * / %``: ``add sub mul div rem`` (NULL in -> NULL; integer overflow -> REAL;
  division by zero -> NULL); unary minus is ``negate`` (SQLite computes ``0 - x``); unary
  plus is the identity. Bit operators: ``bit_and bit_or bit_not shift_left shift_right``.
  ``||`` is ``concat``. Truth of a value in WHERE/AND/OR/NOT/CASE: ``truth(v)`` -> 1, 0 or
  None; ``NOT`` is ``logical_not``.
* ``CAST(x AS type)``: ``cast(v, type_name)`` or ``cast_affinity(v, aff)``.

Collations are callables ``coll(a: str, b: str) -> int`` (see ``collations.py``); ``None``
means BINARY (memcmp of UTF-8, which is code-point order, i.e. Python's ``str`` order).

This module never touches storage, registers or the connection; it raises nothing but
errors from a user collation callable.
"""

from libc.math cimport isnan, isinf
from libc.string cimport memcpy
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cpython.long cimport PyLong_AsDouble
from cpython.unicode cimport PyUnicode_GET_LENGTH, PyUnicode_READ_CHAR

cdef extern from *:
    bint __builtin_saddll_overflow(long long a, long long b, long long *res) nogil
    bint __builtin_ssubll_overflow(long long a, long long b, long long *res) nogil
    bint __builtin_smulll_overflow(long long a, long long b, long long *res) nogil

AFF_NONE = '@'
AFF_BLOB = 'A'
AFF_TEXT = 'B'
AFF_NUMERIC = 'C'
AFF_INTEGER = 'D'
AFF_REAL = 'E'

SMALLEST_INT64 = -9223372036854775808
LARGEST_INT64 = 9223372036854775807

cdef long long _MAX64 = 9223372036854775807
cdef long long _MIN64 = -_MAX64 - 1
cdef object _PMIN64 = -9223372036854775808
cdef object _PMAX64 = 9223372036854775807


# ---------------------------------------------------------------------------------------------
# Text -> number (SQLite's sqlite3AtoF and sqlite3Atoi64)
# ---------------------------------------------------------------------------------------------

cdef inline bint _isspace(Py_UCS4 c):
    return c == 32 or (9 <= c <= 13)


cdef inline bint _isdigit(Py_UCS4 c):
    return 48 <= c <= 57


cdef str _as_str(object v):
    """The text of a TEXT or BLOB value for numeric parsing (BLOB bytes read as text)."""
    if type(v) is str:
        return <str>v
    if isinstance(v, str):
        return str(v)
    return bytes(v).decode('latin-1')


cdef tuple atof(str z):
    """Parse text like sqlite3AtoF: returns (rc, double).

    rc is 1 for a pure integer, 2 or 3 for a number with '.' or exponent (the whole text,
    leading/trailing spaces allowed), -1 when only a prefix (with '.' or exponent) is a
    number, 0 when the text is not a number (the double is still the value of the longest
    numeric prefix, 0.0 if none)."""
    cdef Py_ssize_t i = 0, n = len(z)
    cdef int sign = 1, esign = 1, e = 0, d = 0, eValid = 1, nDigit = 0, eType = 1
    cdef long long s = 0
    cdef long long lim = (_MAX64 - 9) // 10
    cdef Py_UCS4 c
    cdef long double scale = 1.0
    cdef double result
    while i < n and _isspace(z[i]):
        i += 1
    if i >= n:
        return (0, 0.0)
    c = z[i]
    if c == '-':
        sign = -1
        i += 1
    elif c == '+':
        i += 1
    while i < n and _isdigit(z[i]):
        s = s * 10 + (<int>z[i] - 48)
        i += 1
        nDigit += 1
        if s >= lim:
            while i < n and _isdigit(z[i]):
                i += 1
                d += 1
    if i < n and z[i] == '.':
        i += 1
        eType += 1
        while i < n and _isdigit(z[i]):
            if s < lim:
                s = s * 10 + (<int>z[i] - 48)
                d -= 1
                nDigit += 1
            i += 1
    if i < n and (z[i] == 'e' or z[i] == 'E'):
        i += 1
        eValid = 0
        eType += 1
        if i < n:
            c = z[i]
            if c == '-':
                esign = -1
                i += 1
            elif c == '+':
                i += 1
            while i < n and _isdigit(z[i]):
                e = (e * 10 + (<int>z[i] - 48)) if e < 10000 else 10000
                i += 1
                eValid = 1
    if eValid:
        while i < n and _isspace(z[i]):
            i += 1
    # sign * s * 10^(esign*e + d)
    e = e * esign + d
    if e < 0:
        esign = -1
        e = -e
    else:
        esign = 1
    if s == 0:
        result = -0.0 if sign < 0 else 0.0
    else:
        while e > 0:
            if esign > 0:
                if s >= _MAX64 // 10:
                    break
                s *= 10
            else:
                if s % 10 != 0:
                    break
                s //= 10
            e -= 1
        if sign < 0:
            s = -s
        if e == 0:
            result = <double>s
        elif e > 307:
            if e < 342:
                while e % 308:
                    scale *= 10.0
                    e -= 1
                if esign < 0:
                    result = <double>(s / scale)
                    result /= 1.0e308
                else:
                    result = <double>(s * scale)
                    result *= 1.0e308
            else:
                if esign < 0:
                    result = 0.0 * s
                else:
                    result = float('inf') * s
        else:
            while e % 22:
                scale *= 10.0
                e -= 1
            while e > 0:
                scale *= 1.0e22
                e -= 22
            if esign < 0:
                result = <double>(s / scale)
            else:
                result = <double>(s * scale)
    if i == n and nDigit > 0 and eValid and eType > 0:
        return (eType, result)
    if eType >= 2 and (eType == 3 or eValid) and nDigit > 0:
        return (-1, result)
    return (0, result)


cpdef tuple parse_real(object z):
    """sqlite3AtoF on a TEXT (or BLOB) value, for Python callers: (rc, double) where rc > 0
    means the whole text is a number (1 integer, 2/3 with '.' or exponent), -1 a number
    followed by other text, 0 not a number (the double is the numeric prefix's value)."""
    return atof(_as_str(z))


cpdef tuple parse_int64(object z):
    """sqlite3Atoi64 on a TEXT (or BLOB) value: (rc, int); rc 0 clean, 1 trailing text,
    2 overflow (clamped), 3 exactly 2**63, -1 no digits."""
    return atoi64(_as_str(z))


cdef tuple atoi64(str z):
    """Parse text like sqlite3Atoi64: returns (rc, int).

    rc: -1 no digits, 0 a clean integer that fits, 1 trailing non-space text, 2 overflow
    (value clamped), 3 exactly 9223372036854775808 (value clamped to the largest)."""
    cdef Py_ssize_t i = 0, n = len(z), start, j, ndig
    cdef bint neg = False
    cdef int rc
    while i < n and _isspace(z[i]):
        i += 1
    if i < n:
        if z[i] == '-':
            neg = True
            i += 1
        elif z[i] == '+':
            i += 1
    start = i
    while i < n and z[i] == '0':
        i += 1
    j = i
    while j < n and _isdigit(z[j]):
        j += 1
    ndig = j - i
    rc = 0
    if ndig == 0 and start == i:
        rc = -1
    elif j < n:
        while j < n:
            if not _isspace(z[j]):
                rc = 1
                break
            j += 1
    if ndig == 0:
        return (rc, 0)
    u = int(z[i:i + ndig])
    if ndig < 19 or u < 9223372036854775808:
        return (rc, -u if neg else u)
    if u > 9223372036854775808:
        return (2, _PMIN64 if neg else _PMAX64)
    if neg:
        return (rc, _PMIN64)
    return (3, _PMAX64)


cdef inline bint _same_as_int(double r, object i):
    """sqlite3RealSameAsInt."""
    return r == 0.0 or (float(i) == r and -2251799813685248 <= i < 2251799813685248)


cdef inline object _c_double_to_i64(double r):
    """The (i64) cast of C on x86-64: out of range (and NaN) -> the smallest integer."""
    if isnan(r) or r >= 9223372036854775808.0 or r < -9223372036854775808.0:
        return _PMIN64
    return int(r)


cpdef long long double_to_int64(double r):
    """SQLite's doubleToInt64: truncation toward zero, clamped to the 64-bit range."""
    if r <= -9223372036854775808.0:
        return _MIN64
    if r >= 9223372036854775807.0:
        return _MAX64
    if isnan(r):
        return _MIN64
    return <long long>r


# ---------------------------------------------------------------------------------------------
# Affinity
# ---------------------------------------------------------------------------------------------

cdef dict _DECLTYPE_AFF = {}   # declared type text -> its affinity (affinity_of_decltype)
DEF DECLTYPE_AFF_MAX = 512     # entries kept before the memo starts again


cpdef str affinity_of_decltype(object decltype):
    """The column affinity of a declared type (datatype3.html section 3.1). Type texts are
    memoized (a CAST in a loop asks for the same one at every row)."""
    cdef object aff
    if type(decltype) is str:
        aff = _DECLTYPE_AFF.get(decltype)
        if aff is not None:
            return <str>aff
        aff = _affinity_of_type_text(decltype)
        if len(_DECLTYPE_AFF) >= DECLTYPE_AFF_MAX:
            _DECLTYPE_AFF.clear()
        _DECLTYPE_AFF[decltype] = aff
        return <str>aff
    return _affinity_of_type_text(decltype)


cdef str _affinity_of_type_text(object decltype):
    """affinity_of_decltype's rules, without the memo."""
    if not decltype:
        return AFF_BLOB
    t = decltype.upper()
    if 'INT' in t:
        return AFF_INTEGER
    if 'CHAR' in t or 'CLOB' in t or 'TEXT' in t:
        return AFF_TEXT
    if 'BLOB' in t:
        return AFF_BLOB
    if 'REAL' in t or 'FLOA' in t or 'DOUB' in t:
        return AFF_REAL
    return AFF_NUMERIC


cpdef object integer_affinity(double r):
    """sqlite3VdbeIntegerAffinity: a REAL that is exactly an integer strictly inside the
    64-bit range becomes that INTEGER; anything else stays REAL."""
    cdef long long ix = double_to_int64(r)
    if r == <double>ix and ix > _MIN64 and ix < _MAX64:
        return ix
    return r


cpdef object apply_numeric_affinity(object v, bint try_for_int=False):
    """SQLite's applyNumericAffinity on a TEXT value: text that is entirely a number (spaces
    around allowed) becomes INTEGER or REAL; with ``try_for_int`` an integral REAL becomes
    INTEGER. Other values are returned unchanged."""
    if type(v) is not str:
        if not isinstance(v, str):
            return v
    z = str(v)
    rc, r = atof(z)
    if rc <= 0:
        return v
    if rc == 1:
        irc, iv = atoi64(z)
        if irc == 0:
            return iv
        ii = _c_double_to_i64(r)
        if _same_as_int(r, ii):
            return ii
    if try_for_int:
        return integer_affinity(r)
    return r


cpdef object real_affinity(object v):
    """OP_RealAffinity: an INTEGER read from a REAL column becomes a REAL."""
    if type(v) is int:
        return float(v)
    return v


cdef inline Py_UCS4 _aff_char(object aff):
    """The letter of an affinity given as a one-character text ('A'..'E', '@'), else 0:
    compared as a C character, not through the module's AFF_* names."""
    if isinstance(aff, str) and PyUnicode_GET_LENGTH(aff) == 1:
        return PyUnicode_READ_CHAR(aff, 0)
    return 0


DEF CH_TEXT = 66      # 'B'
DEF CH_NUMERIC = 67   # 'C'
DEF CH_INTEGER = 68   # 'D'
DEF CH_REAL = 69      # 'E'


cpdef object apply_affinity(object v, object aff):
    """The value ``v`` takes when stored in a column of affinity ``aff``."""
    cdef type t = type(v)
    cdef Py_UCS4 a
    if v is None or aff is None:
        return v
    a = _aff_char(aff)
    if a == CH_NUMERIC or a == CH_INTEGER:
        if t is int:
            return v
        if t is not str and isinstance(v, str):
            t = str
        if t is str:
            return apply_numeric_affinity(v, True)
        if t is float:
            return integer_affinity(v)
        return v
    if t is not str and isinstance(v, str):
        t = str
    if a == CH_REAL:
        if t is str:
            v = apply_numeric_affinity(v, True)
            t = type(v)
        if t is int or t is bool:
            return float(v)
        return v
    if a == CH_TEXT:
        if t is int or t is float or t is bool:
            return to_text(v)
        return v
    return v


cdef inline bint _is_numeric_aff(object aff):
    cdef Py_UCS4 a = _aff_char(aff)
    return a == CH_NUMERIC or a == CH_INTEGER or a == CH_REAL


cpdef str comparison_affinity(object aff1, object aff2):
    """sqlite3CompareAffinity for two operands of a comparison, given the affinity of each
    operand expression (None or '@' for an expression without affinity): 'C' (NUMERIC) when
    both have one and either is numeric, 'A' (no conversion) when both have a non-numeric
    one, else the single affinity present ('@' when neither has one)."""
    has1 = aff1 is not None and aff1 != AFF_NONE
    has2 = aff2 is not None and aff2 != AFF_NONE
    if has1 and has2:
        if _is_numeric_aff(aff1) or _is_numeric_aff(aff2):
            return AFF_NUMERIC
        return AFF_BLOB
    if has1:
        return aff1
    if has2:
        return aff2
    return AFF_NONE


# ---------------------------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------------------------

cdef inline int _class(object v):
    cdef type t = type(v)
    if v is None:
        return 0
    if t is int or t is float or t is bool:
        return 1
    if t is str or isinstance(v, str):
        return 2
    return 3


cpdef int compare(object a, object b, object coll=None) except? -2:
    """Total order of SQLite (sqlite3MemCompare): NULL < INTEGER/REAL (compared exactly) <
    TEXT (by ``coll``, None = BINARY) < BLOB (memcmp). Returns -1, 0 or 1; NULL == NULL."""
    cdef type ta = type(a), tb = type(b)
    cdef int ca, cb, r
    cdef long long x, y
    cdef double dx, dy
    if ta is int and tb is int:
        x = a
        y = b
        return (x > y) - (x < y)
    if ta is float and tb is float:
        dx = a
        dy = b
        return (dx > dy) - (dx < dy)
    if ta is str and tb is str:
        if coll is None:
            return (a > b) - (a < b)
        r = coll(a, b)
        return (r > 0) - (r < 0)
    if int_real_order(a, b, &r):
        return r
    ca = _class(a)
    cb = _class(b)
    if ca != cb:
        return -1 if ca < cb else 1
    if ca == 0:
        return 0
    if ca == 1:
        return (a > b) - (a < b)
    if ca == 3:
        a = bytes(a)
        b = bytes(b)
    elif ca == 2 and coll is not None:
        r = coll(a, b)
        return (r > 0) - (r < 0)
    return (a > b) - (a < b)


cpdef object compare_with_affinity(object a, object b, object aff, object coll=None):
    """A comparison operator's three-way result: None if either operand is NULL, else
    -1/0/1 after SQLite's affinity conversion for ``aff`` (from ``comparison_affinity``):
    with a numeric affinity, TEXT operands that look like numbers become numbers; with TEXT
    affinity, numeric operands become text."""
    if a is None or b is None:
        return None
    if aff is not None:
        if _is_numeric_aff(aff):
            if isinstance(a, str):
                a = apply_numeric_affinity(a, False)
            if isinstance(b, str):
                b = apply_numeric_affinity(b, False)
        elif _aff_char(aff) == CH_TEXT:
            if _class(a) == 1:
                a = to_text(a)
            if _class(b) == 1:
                b = to_text(b)
    return compare(a, b, coll)


# ---------------------------------------------------------------------------------------------
# Arithmetic
# ---------------------------------------------------------------------------------------------

cpdef object numeric_value(object v):
    """The number a value stands for in arithmetic (SQLite's numericType): TEXT/BLOB give the
    value of their longest numeric prefix, as INTEGER when that prefix is an integer (or
    there is none: 0), else REAL. NULL stays NULL."""
    cdef type t = type(v)
    if t is int or t is float or v is None:
        return v
    if t is bool:
        return int(v)
    z = _as_str(v)
    rc, r = atof(z)
    if rc <= 0:
        if rc == 0:
            irc, iv = atoi64(z)
            if irc <= 1:
                return iv
        return r
    if rc == 1:
        irc, iv = atoi64(z)
        if irc == 0:
            return iv
    return r


cdef inline bint _as_doubles(object a, object b, double* x, double* y):
    """Both operands INTEGER or REAL: their values as doubles (an INTEGER converted as
    float() converts it) and True; else False. Arithmetic's path for a REAL operand."""
    cdef type ta = type(a), tb = type(b)
    if ta is float:
        x[0] = PyFloat_AS_DOUBLE(a)
    elif ta is int:
        x[0] = PyLong_AsDouble(a)
    else:
        return False
    if tb is float:
        y[0] = PyFloat_AS_DOUBLE(b)
    elif tb is int:
        y[0] = PyLong_AsDouble(b)
    else:
        return False
    return True


cdef inline bint _fits(object i):
    return -9223372036854775808 <= i <= 9223372036854775807


cdef inline object _real_result(double r):
    if isnan(r):
        return None
    return r


cpdef object add(object a, object b):
    """a + b."""
    cdef long long x, y, res
    cdef double dx, dy
    if type(a) is int and type(b) is int:
        x = a
        y = b
        if not __builtin_saddll_overflow(x, y, &res):
            return res
        return _real_result(<double>x + <double>y)
    if _as_doubles(a, b, &dx, &dy):
        return _real_result(dx + dy)
    if a is None or b is None:
        return None
    a = numeric_value(a)
    b = numeric_value(b)
    if type(a) is int and type(b) is int:
        return add(a, b)
    return _real_result(<double>float(a) + <double>float(b))


cpdef object sub(object a, object b):
    """a - b."""
    cdef long long x, y, res
    cdef double dx, dy
    if type(a) is int and type(b) is int:
        x = a
        y = b
        if not __builtin_ssubll_overflow(x, y, &res):
            return res
        return _real_result(<double>x - <double>y)
    if _as_doubles(a, b, &dx, &dy):
        return _real_result(dx - dy)
    if a is None or b is None:
        return None
    a = numeric_value(a)
    b = numeric_value(b)
    if type(a) is int and type(b) is int:
        return sub(a, b)
    return _real_result(<double>float(a) - <double>float(b))


cpdef object mul(object a, object b):
    """a * b."""
    cdef long long x, y, res
    cdef double dx, dy
    if type(a) is int and type(b) is int:
        x = a
        y = b
        if not __builtin_smulll_overflow(x, y, &res):
            return res
        return _real_result(<double>x * <double>y)
    if _as_doubles(a, b, &dx, &dy):
        return _real_result(dx * dy)
    if a is None or b is None:
        return None
    a = numeric_value(a)
    b = numeric_value(b)
    if type(a) is int and type(b) is int:
        return mul(a, b)
    return _real_result(<double>float(a) * <double>float(b))


cpdef object div(object a, object b):
    """a / b: integer division truncates toward zero; division by zero is NULL."""
    cdef double rb, ra
    if a is None or b is None:
        return None
    if (type(a) is float or type(b) is float) and _as_doubles(a, b, &ra, &rb):
        if rb == 0.0:
            return None
        return _real_result(ra / rb)
    if type(a) is not int or type(b) is not int:
        a = numeric_value(a)
        b = numeric_value(b)
    if type(a) is int and type(b) is int:
        if b == 0:
            return None
        if b == -1 and a == _PMIN64:
            return 9223372036854775808.0
        q = abs(a) // abs(b)
        return -q if (a < 0) != (b < 0) else q
    rb = float(b)
    if rb == 0.0:
        return None
    return _real_result(<double>float(a) / rb)


cdef inline object _c_rem(object x, object y):
    r = abs(x) % abs(y)
    return -r if x < 0 else r


cpdef object rem(object a, object b):
    """a % b: the remainder of the integer values (sign of a); REAL if either operand is
    REAL; NULL when the divisor's integer value is 0."""
    if a is None or b is None:
        return None
    na = a
    nb = b
    if type(a) is not int or type(b) is not int:
        na = numeric_value(a)
        nb = numeric_value(b)
    if type(na) is int and type(nb) is int:
        if nb == 0:
            return None
        if nb == -1:
            return 0
        return _c_rem(na, nb)
    ia = to_int(a)
    ib = to_int(b)
    if ib == 0:
        return None
    if ib == -1:
        ib = 1
    return float(_c_rem(ia, ib))


cpdef object negate(object a):
    """Unary minus (SQLite evaluates 0 - a)."""
    if type(a) is int:
        if a == _PMIN64:
            return 9223372036854775808.0
        return -a
    if type(a) is float:
        return -a
    return sub(0, a)


cdef inline object _wrap64(object u):
    u &= 0xFFFFFFFFFFFFFFFF
    if u >= 9223372036854775808:
        u -= 18446744073709551616
    return u


cpdef object bit_and(object a, object b):
    """a & b on the 64-bit integer values."""
    if a is None or b is None:
        return None
    return to_int(a) & to_int(b)


cpdef object bit_or(object a, object b):
    """a | b on the 64-bit integer values."""
    if a is None or b is None:
        return None
    return to_int(a) | to_int(b)


cpdef object bit_not(object a):
    """~a on the 64-bit integer value."""
    if a is None:
        return None
    return ~to_int(a)


cdef object _shift(object a, object b, bint left):
    if a is None or b is None:
        return None
    ia = to_int(a)
    ib = to_int(b)
    if ib == 0:
        return ia
    if ib < 0:
        left = not left
        ib = -ib if ib > -64 else 64
    if ib >= 64:
        return 0 if (ia >= 0 or left) else -1
    if left:
        return _wrap64(ia << ib)
    return ia >> ib


cpdef object shift_left(object a, object b):
    """a << b: 64-bit wrap-around; a negative count shifts the other way; counts >= 64
    give 0 (or -1 for a right shift of a negative number)."""
    return _shift(a, b, True)


cpdef object shift_right(object a, object b):
    """a >> b: arithmetic shift (see shift_left for the count rules)."""
    return _shift(a, b, False)


cdef Py_ssize_t MAX_LENGTH = 1_000_000_000  # SQLITE_LIMIT_LENGTH (as func_printf's)


cpdef object concat(object a, object b):
    """a || b: NULL if either is NULL, else the concatenated text; "string or blob too
    big" past SQLITE_LIMIT_LENGTH bytes, as SQLite's OP_Concat."""
    if a is None or b is None:
        return None
    if type(a) is bytes and type(b) is bytes:
        if len(<bytes>a) + len(<bytes>b) > MAX_LENGTH:
            raise too_big()
        return to_text(a + b)
    if type(a) is not str:
        a = to_text(a)
    if type(b) is not str:
        b = to_text(b)
    r = a + b
    if PyUnicode_GET_LENGTH(r) > MAX_LENGTH // 4 and utf8_length(r) > MAX_LENGTH:
        raise too_big()
    return r


def too_big():
    """The error of a string or blob longer than SQLITE_LIMIT_LENGTH bytes."""
    from sqlengine.errors import SQLITE_TOOBIG, DataError
    return DataError("string or blob too big", code=SQLITE_TOOBIG)


def utf8_length(str s):
    """The length of ``s`` in UTF-8 bytes (of the bytes it stands for: see text_bytes)."""
    return len(s) if s.isascii() else len(text_bytes(s))


cpdef bytes text_bytes(str s):
    """The bytes of TEXT value ``s``. TEXT is bytes in SQLite, not always valid UTF-8 (a
    CAST of a blob, a file another program wrote, char() of a surrogate): this engine holds
    it as the ``str`` those bytes decode to with errors="surrogateescape" (text_of_bytes),
    each byte no UTF-8 character takes becoming one of U+DC80..U+DCFF, so the bytes come
    back here whole, as SQLite keeps them. A lone surrogate outside that range (not made
    by text_of_bytes) is written as SQLite writes a code point, three bytes."""
    try:
        return s.encode("utf-8")
    except UnicodeEncodeError:
        pass
    try:
        return s.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return s.encode("utf-8", "surrogatepass")


cpdef str text_of_bytes(object b):
    """The TEXT value of bytes ``b`` (SQLite's text of a blob: the same bytes), as held
    here: decoded as UTF-8, a byte no character takes kept as a surrogate escape (see
    text_bytes)."""
    return bytes(b).decode("utf-8", "surrogateescape")


def has_escapes(str s):
    """Whether TEXT ``s`` holds bytes that are not UTF-8 (surrogate escapes, see
    text_bytes)."""
    if s.isascii():
        return False
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


cpdef object truth(object v):
    """The truth value of ``v`` as a condition: 1, 0, or None for NULL. Text and blobs are
    true when the numeric value of their longest numeric prefix is non-zero."""
    cdef type t = type(v)
    if v is None:
        return None
    if t is int or t is bool:
        return 1 if v else 0
    if t is float:
        return 1 if v != 0.0 else 0
    return 1 if to_real(v) != 0.0 else 0


cpdef object logical_not(object v):
    """NOT v (three-valued)."""
    r = truth(v)
    if r is None:
        return None
    return 1 - r


# ---------------------------------------------------------------------------------------------
# Conversions and CAST
# ---------------------------------------------------------------------------------------------

cdef inline unsigned long long _double_bits(double d):
    cdef unsigned long long u
    memcpy(&u, &d, sizeof(u))
    return u


cdef double[10] _AR_ROUND
_AR_ROUND[:] = [5.0e-01, 5.0e-02, 5.0e-03, 5.0e-04, 5.0e-05,
                5.0e-06, 5.0e-07, 5.0e-08, 5.0e-09, 5.0e-10]


cpdef str render_real(double value, int precision, str xtype, bint alternate=False,
                      bint altform2=False, str prefix=''):
    """SQLite's printf conversion of a double for %f ('f'), %e ('e') and %g ('g'), with its
    long-double digit generation (16 significant digits, 26 with the '!' flag ``altform2``).
    ``alternate`` is the '#' flag, ``prefix`` the '+' or ' ' flag. Width and padding are the
    caller's business. NaN renders as 'NaN', infinities as 'Inf'/'-Inf' (with prefix)."""
    cdef long double realvalue = value
    cdef long double scale
    cdef double rounder
    cdef int idx, exp, e2, nsd, ex
    cdef bint flag_rtz, flag_dp
    cdef int xt = 1 if xtype == 'f' else (2 if xtype == 'e' else 3)
    cdef char sbuf[160]
    cdef char *buf = sbuf
    cdef Py_ssize_t need
    cdef char *heap = NULL
    cdef char pch = 0
    if precision < 0:
        precision = 6
    if isnan(value):
        return 'NaN'
    if prefix:
        pch = ord(prefix[0])
    if realvalue < 0.0:
        realvalue = -realvalue
        pch = 45  # '-'
    if xt == 3 and precision > 0:
        precision -= 1
    idx = precision & 0xfff
    rounder = _AR_ROUND[idx % 10]
    while idx >= 10:
        rounder *= 1.0e-10
        idx -= 10
    if xt == 1:
        ex = -1023 + <int>((_double_bits(value) >> 52) & 0x7ff)
        if precision + (ex // 3 if ex >= 0 else -((-ex) // 3)) < 15:
            rounder += realvalue * 3e-16
        realvalue += rounder
    exp = 0
    if realvalue > 0.0:
        scale = 1.0
        while realvalue >= 1e100 * scale and exp <= 350:
            scale *= 1e100
            exp += 100
        while realvalue >= 1e10 * scale and exp <= 350:
            scale *= 1e10
            exp += 10
        while realvalue >= 10.0 * scale and exp <= 350:
            scale *= 10.0
            exp += 1
        realvalue /= scale
        while realvalue < 1e-8:
            realvalue *= 1e8
            exp -= 8
        while realvalue < 1.0:
            realvalue *= 10.0
            exp -= 1
        if exp > 350:
            return (chr(pch) if pch else '') + 'Inf'
    if xt != 1:
        realvalue += rounder
        if realvalue >= 10.0:
            realvalue *= 0.1
            exp += 1
    if xt == 3:
        flag_rtz = not alternate
        if exp < -4 or exp > precision:
            xt = 2
        else:
            precision = precision - exp
            xt = 1
    else:
        flag_rtz = altform2
    e2 = 0 if xt == 2 else exp
    nsd = 16 + (10 if altform2 else 0)
    flag_dp = precision > 0 or alternate or altform2
    need = (e2 if e2 > 0 else 0) + precision + 16
    if need > 150:
        heap = <char*>PyMem_Malloc(need)
        if heap == NULL:
            raise MemoryError()
        buf = heap
    try:
        return _render_digits(buf, pch, realvalue, precision, exp, e2, nsd, xt, flag_dp,
                              flag_rtz, altform2)
    finally:
        if heap != NULL:
            PyMem_Free(heap)


cdef str _render_digits(char *buf, char pch, long double realvalue, int precision, int exp,
                        int e2, int nsd, int xt, bint flag_dp, bint flag_rtz, bint altform2):
    cdef Py_ssize_t n = 0
    cdef int digit
    if pch:
        buf[n] = pch
        n += 1
    if e2 < 0:
        buf[n] = 48
        n += 1
    else:
        while e2 >= 0:
            if nsd > 0:
                nsd -= 1
                digit = <int>realvalue
                realvalue = (realvalue - digit) * 10.0
                buf[n] = 48 + digit
            else:
                buf[n] = 48
            n += 1
            e2 -= 1
    if flag_dp:
        buf[n] = 46  # '.'
        n += 1
    e2 += 1
    while e2 < 0:
        buf[n] = 48
        n += 1
        precision -= 1
        e2 += 1
    while precision > 0:
        precision -= 1
        if nsd > 0:
            nsd -= 1
            digit = <int>realvalue
            realvalue = (realvalue - digit) * 10.0
            buf[n] = 48 + digit
        else:
            buf[n] = 48
        n += 1
    if flag_rtz and flag_dp:
        while n > 0 and buf[n - 1] == 48:
            n -= 1
        if n > 0 and buf[n - 1] == 46:
            if altform2:
                buf[n] = 48
                n += 1
            else:
                n -= 1
    if xt == 2:
        buf[n] = 101  # 'e'
        n += 1
        if exp < 0:
            buf[n] = 45
            exp = -exp
        else:
            buf[n] = 43
        n += 1
        if exp >= 100:
            buf[n] = 48 + exp // 100
            n += 1
            exp %= 100
        buf[n] = 48 + exp // 10
        buf[n + 1] = 48 + exp % 10
        n += 2
    return buf[:n].decode('ascii')


cpdef str real_to_text(double r):
    """SQLite's rendering of a REAL as text (printf "%!.15g"): 15 significant digits and
    always a decimal point: 1.0, 0.1, 1.0e+20, 1.0e-05, Inf, -Inf; -0.0 renders as 0.0."""
    return render_real(r, 15, 'g', False, True, '')


cpdef object to_text(object v):
    """The TEXT form of a value (sqlite3_value_text): numbers rendered as SQLite does,
    a BLOB's bytes as they are (text_of_bytes), NULL -> None."""
    cdef type t = type(v)
    if t is str or v is None:
        return v
    if t is int:
        return str(v)
    if t is float:
        return real_to_text(v)
    if t is bool:
        return '1' if v else '0'
    if isinstance(v, str):
        return v
    return text_of_bytes(v)


cpdef object to_blob(object v):
    """The BLOB form of a value (sqlite3_value_blob): text encoded as UTF-8, numbers as the
    UTF-8 of their text, NULL -> None."""
    cdef type t = type(v)
    if t is bytes or v is None:
        return v
    if t is str:
        return text_bytes(<str>v)
    if t is int or t is float or t is bool:
        return to_text(v).encode('ascii')
    if isinstance(v, str):
        return text_bytes(str(v))
    return bytes(v)


cpdef long long to_int(object v) except? -1:
    """The 64-bit integer value (sqlite3VdbeIntValue): REAL truncated and clamped, TEXT/BLOB
    by their longest integer prefix (clamped), NULL -> 0."""
    cdef type t = type(v)
    if t is int or t is bool:
        return v
    if t is float:
        return double_to_int64(v)
    if v is None:
        return 0
    return atoi64(_as_str(v))[1]


cpdef double to_real(object v) except? -1.0:
    """The REAL value (sqlite3VdbeRealValue): TEXT/BLOB by their longest numeric prefix,
    NULL -> 0.0."""
    cdef type t = type(v)
    if t is float:
        return v
    if t is int or t is bool:
        return float(v)
    if v is None:
        return 0.0
    return atof(_as_str(v))[1]


cpdef object to_numeric(object v):
    """CAST(v AS NUMERIC) (sqlite3VdbeMemNumerify): INTEGER when the text is an integer that
    fits, or its value is integral and small (|x| < 2**51) or zero; else REAL."""
    cdef type t = type(v)
    if t is int or t is float or v is None:
        return v
    if t is bool:
        return int(v)
    z = _as_str(v)
    rc, r = atof(z)
    if rc == 0 or rc == 1:
        irc, iv = atoi64(z)
        if irc <= 1:
            return iv
    ii = _c_double_to_i64(r)
    if _same_as_int(r, ii):
        return ii
    return r


cpdef object cast_affinity(object v, object aff):
    """CAST(v AS <type of affinity aff>)."""
    if v is None:
        return None
    if aff == AFF_INTEGER:
        return to_int(v)
    if aff == AFF_REAL:
        return to_real(v)
    if aff == AFF_NUMERIC:
        return to_numeric(v)
    if aff == AFF_TEXT:
        return to_text(v)
    return to_blob(v)


cpdef object cast(object v, object type_name):
    """CAST(v AS type_name), the type's affinity chosen by the declared-type rules."""
    return cast_affinity(v, affinity_of_decltype(type_name))


cpdef str typeof(object v):
    """typeof(v): 'null', 'integer', 'real', 'text' or 'blob'."""
    cdef type t = type(v)
    if v is None:
        return 'null'
    if t is int or t is bool:
        return 'integer'
    if t is float:
        return 'real'
    if t is str or isinstance(v, str):
        return 'text'
    return 'blob'


def plain_bindings(object values, Py_ssize_t n):
    """The bound-parameter list ``[None, v1, ..., vn]`` (index i is ?i) of a tuple or list
    of exactly ``n`` plain values (None, int, float, str, bytes), checked as sqlite3 binds
    them: an int beyond 64 bits raises OverflowError, a str that cannot be UTF-8 (a lone
    surrogate) UnicodeEncodeError; a NaN binds NULL, as sqlite3_bind_double stores it. None
    when ``values`` is not such a sequence or holds a value of another type (the caller
    then binds one by one)."""
    cdef type t = type(values)
    cdef list out
    cdef Py_ssize_t i
    cdef int overflow
    cdef object v
    if t is not tuple and t is not list:
        return None
    if len(values) != n:
        return None
    out = [None] * (n + 1)
    for i in range(n):
        v = values[i]
        t = type(v)
        if t is int:
            PyLong_AsLongLongAndOverflow(v, &overflow)
            if overflow:
                raise OverflowError("Python int too large to convert to SQLite INTEGER")
        elif t is str:
            if not (<str>v).isascii():
                (<str>v).encode("utf-8")
        elif t is float:
            if v != v:  # (NaN)
                v = None
        elif v is not None and t is not bytes:
            return None
        out[i + 1] = v
    return out
