# cython: language_level=3
"""The compiled recogniser behind ``schema_fast``: one pass over the bytes of a CREATE TABLE
or CREATE INDEX text, by tokens, deciding whether it has one of the plain forms that
``schema_fast``'s docstring describes (a cold open checks every CREATE text of the file, so
this runs once per table and index at open).

Tokens: words (``[A-Za-z_][A-Za-z0-9_]*``; one followed by ``$`` is not plain), runs of
digits, ``( ) , + -``; whitespace is `` \\t\\n\\v\\f\\r``; anything else (quotes, comments,
dots, non-ASCII text) makes the text not plain. A name or type word must not be an SQL
keyword; keywords appear only in their places. This module never builds schema objects
and never raises.
"""

from sqlengine.sql.lexer import KEYWORDS

cdef frozenset _KEYWORDS = frozenset(KEYWORDS)

cdef enum:
    T_END, T_WORD, T_NUM, T_LP, T_RP, T_COMMA, T_SIGN, T_BAD


cdef inline bint _space(unsigned char c) noexcept:
    return c == 32 or 9 <= c <= 13


cdef inline bint _alpha(unsigned char c) noexcept:
    return (65 <= c <= 90) or (97 <= c <= 122) or c == 95


cdef inline bint _digit(unsigned char c) noexcept:
    return 48 <= c <= 57


cdef class _Lex:
    cdef bytes data
    cdef const unsigned char* s
    cdef Py_ssize_t n, pos, start
    cdef int kind
    cdef bint ws        # whitespace before the current token
    cdef str word       # the current word, upper-cased

    def __cinit__(self, bytes data):
        self.data = data
        self.s = data
        self.n = len(data)
        self.pos = 0
        self.advance()

    cdef int advance(self) except -1:
        cdef Py_ssize_t i = self.pos, j
        cdef unsigned char c
        self.ws = False
        while i < self.n and _space(self.s[i]):
            i += 1
            self.ws = True
        self.start = i
        self.word = None
        if i >= self.n:
            self.kind = T_END
            self.pos = i
            return 0
        c = self.s[i]
        j = i + 1
        if _alpha(c):
            while j < self.n and (_alpha(self.s[j]) or _digit(self.s[j])):
                j += 1
            if j < self.n and self.s[j] == 36:  # '$'
                self.kind = T_BAD
            else:
                self.kind = T_WORD
                self.word = self.data[i:j].decode("ascii").upper()
        elif _digit(c):
            while j < self.n and _digit(self.s[j]):
                j += 1
            self.kind = T_NUM
        elif c == 40:
            self.kind = T_LP
        elif c == 41:
            self.kind = T_RP
        elif c == 44:
            self.kind = T_COMMA
        elif c == 43 or c == 45:
            self.kind = T_SIGN
        else:
            self.kind = T_BAD
        self.pos = j
        return 0

    cdef bint keyword(self, str kw) except -1:
        """The current token is the keyword ``kw``: step past it."""
        if self.kind == T_WORD and self.word == kw:
            self.advance()
            return True
        return False

    cdef str name(self):
        """The current token as a name (a word that is no keyword), stepped past; None
        when it is not one."""
        cdef str w
        if self.kind != T_WORD or self.word in _KEYWORDS:
            return None
        w = self.word
        self.advance()
        return w

    cdef bint number(self) except -1:
        """``[+-] digits`` (whitespace allowed after the sign)."""
        if self.kind == T_SIGN:
            self.advance()
        if self.kind != T_NUM:
            return False
        self.advance()
        return True


cdef _Lex _start(str sql):
    """The lexer past ``CREATE``, or None when the text is not ASCII or does not start
    with ``CREATE`` (no leading blanks: the schema stores the text from its keyword)."""
    if not sql.isascii():
        return None
    lex = _Lex(sql.encode("ascii"))
    if lex.ws or not lex.keyword("CREATE"):
        return None
    return lex


cdef bint _type(_Lex lex) except -1:
    """An optional type after a column name: type words, then ``(n)`` or ``(n, m)``."""
    if lex.name() is None:
        return True     # (a word that is a keyword is left to the constraints)
    while lex.name() is not None:
        pass
    if lex.kind == T_LP:
        lex.advance()
        if not lex.number():
            return False
        if lex.kind == T_COMMA:
            lex.advance()
            if not lex.number():
                return False
        if lex.kind != T_RP:
            return False
        lex.advance()
    return True


cdef int _constraints(_Lex lex) except -2:
    """The column constraints PRIMARY KEY [ASC|DESC], NOT NULL, UNIQUE, each after
    whitespace; how many PRIMARY KEYs, or -1 when a constraint is malformed."""
    cdef int pk = 0
    while lex.kind == T_WORD and lex.ws:
        if lex.keyword("PRIMARY"):
            if not lex.keyword("KEY"):
                return -1
            if not lex.keyword("ASC"):
                lex.keyword("DESC")
            pk += 1
        elif lex.keyword("NOT"):
            if not lex.keyword("NULL"):
                return -1
        elif not lex.keyword("UNIQUE"):
            break
    return pk


def plain_table(str sql):
    """The upper-case column names of a plain CREATE TABLE text, or None."""
    cdef _Lex lex = _start(sql)
    cdef int pk = 0, k
    cdef list names = []
    if lex is None or not lex.keyword("TABLE") or lex.name() is None or lex.kind != T_LP:
        return None
    while True:
        lex.advance()       # past '(' or ','
        col = lex.name()
        if col is None or not _type(lex):
            return None
        k = _constraints(lex)
        if k < 0:
            return None
        pk += k
        names.append(col)
        if lex.kind == T_RP:
            break
        if lex.kind != T_COMMA:
            return None
    lex.advance()
    if lex.kind != T_END or pk > 1:
        return None
    out = frozenset(names)
    return out if len(out) == len(names) else None


def plain_index(str sql):
    """(upper-case table name, upper-case column names) of a plain CREATE INDEX text."""
    cdef _Lex lex = _start(sql)
    cdef list names = []
    if lex is None:
        return None
    lex.keyword("UNIQUE")
    if not lex.keyword("INDEX") or lex.name() is None or not lex.keyword("ON"):
        return None
    table = lex.name()
    if table is None or lex.kind != T_LP:
        return None
    while True:
        lex.advance()       # past '(' or ','
        col = lex.name()
        if col is None:
            return None
        if not lex.keyword("ASC"):
            lex.keyword("DESC")
        names.append(col)
        if lex.kind == T_RP:
            break
        if lex.kind != T_COMMA:
            return None
    lex.advance()
    if lex.kind != T_END:
        return None
    return table, frozenset(names)
