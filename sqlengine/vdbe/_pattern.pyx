# cython: language_level=3
"""LIKE and GLOB matching in compiled code: SQLite's patternCompare() over code points.

A pattern is compiled once into a ``Pattern`` (its code points up to the first NUL, plus the
compare settings: the multi- and one-character wildcards, the escape or set character,
case folding) and cached by (pattern, escape, case folding, LIKE/GLOB). Matching walks the
pattern and the subject text's code points directly (no copy of the subject), with SQLite's
rules, including its pruning return "no match in spite of wildcards" that keeps the worst
case near N*M:

* LIKE: ``%`` any run, ``_`` one character, the ESCAPE character makes the next pattern
  character literal (an escape at the end of the pattern matches nothing; an escape equal
  to ``%`` or ``_`` takes that wildcard's meaning away); ASCII letters compare
  case-insensitively unless ``PRAGMA case_sensitive_like`` is on; other letters exactly.
* GLOB: ``*``, ``?``, ``[...]`` sets (``[^...]`` inverts, ``a-z`` ranges, ``]`` first in
  the set is literal, ``-`` last is literal, an unterminated set matches nothing); case
  sensitive.
* Texts end at their first NUL character, as C strings do.

``PatternCall`` is the P4 callable of OP_Function for the built-in like() and glob(): it
keeps the compiled pattern of its last call, so a constant pattern is compiled once per
statement, and hands every case it does not cover (NULL, numbers, blobs, ESCAPE values that
need checking, over-long patterns) to the plain Python function of ``functions.py``.
This module never raises except through that Python function and never touches storage.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc

from sqlengine.vdbe._scalar cimport ScalarBase

cdef extern from "Python.h":
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil

# code points as plain unsigned integers (Cython treats Py_UCS4 as a character type)
ctypedef unsigned int u32

# patternCompare() results
cdef enum:
    MATCH = 0
    NOMATCH = 1
    NOWILDCARDMATCH = 2

# A pattern longer than this (in characters) may exceed SQLITE_LIMIT_LIKE_PATTERN_LENGTH
# (50,000 bytes of UTF-8) and goes through the Python function, which checks the limit.
cdef Py_ssize_t FAST_PATTERN_CHARS = 12500

cdef struct CompareInfo:
    u32 match_all    # '%' or '*' (0 when the ESCAPE character took it)
    u32 match_one    # '_' or '?' (0 when the ESCAPE character took it)
    u32 match_other  # the ESCAPE character (LIKE, 0 for none) or '[' (GLOB)
    bint match_set       # GLOB: match_other opens a set
    bint nocase          # fold ASCII letters


cdef struct Subject:
    int kind
    void* data
    Py_ssize_t n


cdef inline u32 _at(const Subject* s, Py_ssize_t i) noexcept nogil:
    """The code point at i, 0 past the end (an embedded NUL also reads as the end)."""
    if i >= s.n:
        return 0
    return <u32> PyUnicode_READ(s.kind, s.data, i)


cdef inline u32 _lower(u32 c) noexcept nogil:
    return c + 32 if 65 <= c <= 90 else c


cdef inline u32 _upper(u32 c) noexcept nogil:
    return c - 32 if 97 <= c <= 122 else c


cdef int _compare(const u32* zp, const Subject* s, Py_ssize_t si,
                  const CompareInfo* info) noexcept nogil:
    """SQLite's patternCompare(): the pattern from zp (0-terminated) against the subject
    from si. Returns MATCH, NOMATCH or NOWILDCARDMATCH."""
    cdef u32 c, c2, cx, prior_c
    cdef const u32* escaped = NULL
    cdef int r, seen, invert
    while True:
        c = zp[0]
        if c == 0:
            break
        zp += 1
        if c == info.match_all:
            # Skip further '*' and, consuming one subject character each, '?'.
            while True:
                c = zp[0]
                if c != 0:
                    zp += 1
                if c == info.match_all and c != 0:
                    continue
                if c == info.match_one and c != 0:
                    if _at(s, si) == 0:
                        return NOWILDCARDMATCH
                    si += 1
                    continue
                break
            if c == 0:
                return MATCH
            if c == info.match_other:
                if not info.match_set:
                    c = zp[0]
                    if c == 0:
                        return NOWILDCARDMATCH
                    zp += 1
                else:
                    # "[...]" right after "*": try every position.
                    while _at(s, si) != 0:
                        r = _compare(zp - 1, s, si, info)
                        if r != NOMATCH:
                            return r
                        si += 1
                    return NOWILDCARDMATCH
            # c is the first pattern character after the '*': look for it in the subject,
            # and continue the match after each occurrence.
            if c < 0x80:
                if info.nocase:
                    cx = _upper(c)
                    c = _lower(c)
                else:
                    cx = c
                while True:
                    c2 = _at(s, si)
                    if c2 == 0:
                        break
                    si += 1
                    if c2 == c or c2 == cx:
                        r = _compare(zp, s, si, info)
                        if r != NOMATCH:
                            return r
            else:
                while True:
                    c2 = _at(s, si)
                    if c2 == 0:
                        break
                    si += 1
                    if c2 == c:
                        r = _compare(zp, s, si, info)
                        if r != NOMATCH:
                            return r
            return NOWILDCARDMATCH
        if c == info.match_other:
            if not info.match_set:
                c = zp[0]
                if c == 0:
                    return NOMATCH
                zp += 1
                escaped = zp
            else:
                prior_c = 0
                seen = 0
                invert = 0
                c = _at(s, si)
                if c == 0:
                    return NOMATCH
                si += 1
                c2 = zp[0]
                if c2 != 0:
                    zp += 1
                if c2 == 94:  # '^'
                    invert = 1
                    c2 = zp[0]
                    if c2 != 0:
                        zp += 1
                if c2 == 93:  # ']' first in the set is literal
                    if c == 93:
                        seen = 1
                    c2 = zp[0]
                    if c2 != 0:
                        zp += 1
                while c2 != 0 and c2 != 93:
                    if c2 == 45 and zp[0] != 93 and zp[0] != 0 and prior_c > 0:  # a range
                        c2 = zp[0]
                        zp += 1
                        if prior_c <= c <= c2:
                            seen = 1
                        prior_c = 0
                    else:
                        if c == c2:
                            seen = 1
                        prior_c = c2
                    c2 = zp[0]
                    if c2 != 0:
                        zp += 1
                if c2 == 0 or (seen ^ invert) == 0:
                    return NOMATCH
                continue
        c2 = _at(s, si)
        if c2 != 0:
            si += 1
        if c == c2:
            continue
        if info.nocase and c < 0x80 and c2 < 0x80 and _lower(c) == _lower(c2):
            continue
        if c == info.match_one and zp != escaped and c2 != 0:
            continue
        return NOMATCH
    return MATCH if _at(s, si) == 0 else NOMATCH


cdef class Pattern:
    """One compiled LIKE or GLOB pattern."""

    cdef u32* z
    cdef CompareInfo info
    cdef readonly object source

    def __cinit__(self, str pattern, bint glob, escape=None, bint nocase=False):
        cdef Py_ssize_t n = PyUnicode_GET_LENGTH(pattern)
        cdef Py_ssize_t i
        cdef int kind = PyUnicode_KIND(pattern)
        cdef void* data = PyUnicode_DATA(pattern)
        cdef u32 e = 0
        self.source = pattern
        self.z = <u32*> PyMem_Malloc((n + 1) * sizeof(u32))
        if self.z == NULL:
            raise MemoryError()
        for i in range(n):
            self.z[i] = <u32> PyUnicode_READ(kind, data, i)
            if self.z[i] == 0:
                break
        self.z[n] = 0
        if glob:
            self.info.match_all = 42  # '*'
            self.info.match_one = 63  # '?'
            self.info.match_other = 91  # '['
            self.info.match_set = True
            self.info.nocase = False
        else:
            self.info.match_all = 37  # '%'
            self.info.match_one = 95  # '_'
            self.info.match_set = False
            self.info.nocase = nocase
            if escape is not None:  # one character, or a code point (see f_like)
                e = escape if type(escape) is int else ord(escape)
                if e == self.info.match_all:
                    self.info.match_all = 0
                if e == self.info.match_one:
                    self.info.match_one = 0
            self.info.match_other = e

    def __dealloc__(self):
        PyMem_Free(self.z)

    cdef inline bint matches(self, str s):
        cdef Subject subj
        subj.kind = PyUnicode_KIND(s)
        subj.data = PyUnicode_DATA(s)
        subj.n = PyUnicode_GET_LENGTH(s)
        return _compare(self.z, &subj, 0, &self.info) == MATCH

    def match(self, str s):
        """True when the text ``s`` matches."""
        return self.matches(s)


cdef dict _cache = {}
cdef Py_ssize_t CACHE_LIMIT = 512


cdef Pattern _compiled(str pattern, bint glob, escape, bint nocase):
    key = (pattern, glob, escape, nocase)
    cdef Pattern p = _cache.get(key)
    if p is None:
        if len(_cache) >= CACHE_LIMIT:
            _cache.clear()
        p = Pattern(pattern, glob, escape, nocase)
        _cache[key] = p
    return p


def like(str pattern, str s, escape=None, bint case_sensitive=False):
    """``s LIKE pattern [ESCAPE escape]`` for two texts; ``escape`` is one character or
    None."""
    return _compiled(pattern, False, escape, not case_sensitive).matches(s)


def glob(str pattern, str s):
    """``s GLOB pattern`` for two texts."""
    return _compiled(pattern, True, None, False).matches(s)


cdef class PatternCall(ScalarBase):
    """P4 of OP_Function for the built-in like() (2 or 3 arguments) and glob().

    ``call(vm, args)`` as the VM calls every scalar function, and ``call_mem`` with the
    arguments in the VM's registers; ``fdef`` is the function's FuncDef and
    ``func(ctx, *args)`` the Python function that covers every case this fast path leaves
    out. ``db_flags`` is the connection's attribute dict, read per call for
    ``case_sensitive_like`` (the PRAGMA may change between calls).
    """

    cdef readonly object fdef
    cdef readonly object ctx
    cdef readonly object explain
    cdef readonly object coll
    cdef readonly bint needs_collation
    cdef bint glob
    cdef object func
    cdef dict db_flags
    cdef object last_pattern
    cdef object last_escape
    cdef bint last_nocase
    cdef Pattern last

    def __init__(self, fdef, ctx, bint glob, dict db_flags=None):
        self.fdef = fdef
        self.ctx = ctx
        self.func = fdef.func
        self.explain = f"{fdef.name}({fdef.nargs})"
        self.coll = None
        self.needs_collation = False
        self.glob = glob
        self.db_flags = db_flags
        self.last = None

    def with_collation(self, coll):
        return self

    cdef bint _nocase(self):
        if self.glob:
            return False
        if self.db_flags is not None:
            return not self.db_flags.get("case_sensitive_like", False)
        return not self.ctx.case_sensitive_like

    def __call__(self, vm, args):
        return self.call_mem(vm, args if type(args) is list else list(args), 0, len(args))

    cdef object call_mem(self, object vm, list mem, Py_ssize_t base, Py_ssize_t n):
        cdef bint nocase
        cdef Pattern p
        pattern = mem[base]
        if n >= 2 and type(pattern) is str and type(mem[base + 1]) is str \
                and PyUnicode_GET_LENGTH(pattern) < FAST_PATTERN_CHARS:
            escape = None
            if n == 3:
                escape = mem[base + 2]
                if type(escape) is not str or PyUnicode_GET_LENGTH(escape) != 1 \
                        or escape == "\0":
                    return self.func(self.ctx, *mem[base:base + n])
            nocase = self._nocase()
            p = self.last
            if p is None or not (pattern is self.last_pattern or pattern == self.last_pattern) \
                    or nocase != self.last_nocase or escape != self.last_escape:
                p = _compiled(pattern, self.glob, escape, nocase)
                self.last = p
                self.last_pattern = pattern
                self.last_escape = escape
                self.last_nocase = nocase
            return 1 if p.matches(mem[base + 1]) else 0
        return self.func(self.ctx, *mem[base:base + n])
