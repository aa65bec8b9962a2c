"""The LALR(1) driver in plain Python: tokens in, ``sql.ast`` statements out.

It runs the tables of ``tables.py`` over the tokens of ``lexer.py`` and calls the
reductions of ``builder.py``; there is no parse tree. It reproduces the parts of SQLite's
``sqlite3RunParser`` that decide what is accepted and how errors are worded:

- white space and comments are skipped; an illegal token stops with
  ``unrecognized token: "<text>"``;
- at the end of input a zero-length SEMI is supplied (so the final ``;`` is optional),
  and a syntax error on a zero-length token is ``incomplete input``; any other is
  ``near "<token text>": syntax error``;
- a keyword that cannot be shifted where it stands becomes an identifier when SQLite's
  grammar lists it as %fallback ID; the ANY terminal takes any token where nothing else
  fits (%wildcard);
- the stack is as deep as SQLite's (``STACK_DEPTH``): the same nesting overflows;
- WINDOW, OVER and FILTER are keywords only in the contexts SQLite's tokenizer checks
  (``analyzeWindowKeyword`` and friends), identifiers elsewhere.

Only the first statement at or after ``start`` is parsed; text after its ``;`` is not
looked at. The compiled driver (``_parser.pyx``) must behave exactly like this one; this
module is its reference and the fallback when the extension is not built. It never
resolves names.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import OperationalError
from . import ast as A
from .builder import Builder, QName
from .lexer import next_token
from .tables import END, FALLBACK_ID, load_tables


@dataclass(slots=True)
class Parsed:
    """One parsed statement: ``stmt`` (the AST), ``text`` (its source from first to last
    token, without the ``;``), ``start`` (offset of its first token) and ``end`` (offset
    just past its terminating ``;``, or the end of input)."""

    stmt: A.Statement
    text: str
    start: int
    end: int


class _Program:
    """The tables flattened for the driver (built once)."""

    def __init__(self):
        t = load_tables()
        self.tables = t
        self.term_no = {n: i for i, n in enumerate(t.terminals)}
        self.action = t.action
        self.default = t.default
        self.accept = t.accept
        self.goto = t.goto
        self.end_no = self.term_no[END]
        self.id_no = self.term_no["ID"]
        self.any_no = self.term_no["ANY"]
        self.semi_no = self.term_no["SEMI"]
        self.fallback = {self.term_no[n] for n in FALLBACK_ID}
        start_nt = t.nonterminals.index("start")
        # Per rule: (origin, length, function or None, is_start)
        self.rules = []
        for origin, length, alias, name in t.rules:
            fn = getattr(Builder, alias, None) if alias else None
            if fn is None and not alias and length > 1:
                fn = getattr(Builder, name, None)
            if fn is None and (alias or length > 1):
                raise RuntimeError(f"grammar.lark: no reduction for {alias or name}")
            self.rules.append((origin, length, fn, origin == start_nt))


_PROGRAM: _Program | None = None


def program() -> _Program:
    global _PROGRAM
    if _PROGRAM is None:
        _PROGRAM = _Program()
    return _PROGRAM


# SQLite's parser stack holds 100 entries (YYSTACKDEPTH), its bottom one included; a
# statement nested deeper fails with "parser stack overflow".
STACK_DEPTH = 100

# Tokens that getToken() in SQLite's window-keyword analysis reports as TK_ID.
_ID_LIKE = FALLBACK_ID | {"ID", "STRING", "JOIN_KW", "WINDOW", "OVER"}


def _peek(sql: str, i: int) -> tuple[str, int]:
    """The kind and end of the next non-space token from ``i`` ("" at the end)."""
    n = len(sql)
    while i < n:
        kind, j = next_token(sql, i)
        if kind != "SPACE":
            return kind, j
        i = j
    return "", n


def _window_kind(kind: str, sql: str, end: int, last: str) -> str:
    if kind == "WINDOW":
        k1, j = _peek(sql, end)
        if k1 not in _ID_LIKE:
            return "ID"
        k2, _ = _peek(sql, j)
        return "WINDOW" if k2 == "AS" else "ID"
    if kind == "OVER":
        if last != "RP":
            return "ID"
        k1, _ = _peek(sql, end)
        return "OVER" if (k1 == "LP" or k1 in _ID_LIKE) else "ID"
    # FILTER
    if last != "RP":
        return "ID"
    k1, _ = _peek(sql, end)
    return "FILTER" if k1 == "LP" else "ID"


def token_value(kind: str, text: str):
    if kind == "ID":
        c = text[0]
        if c == '"':
            return QName(text[1:-1].replace('""', '"'))
        if c == "[":
            return text[1:-1]
        if c == "`":
            return text[1:-1].replace("``", "`")
        return text
    if kind == "STRING":
        return text[1:-1].replace("''", "'")
    if kind == "BLOB":
        return bytes.fromhex(text[2:-1])
    return text


def syntax_error(sql: str, s: int, e: int) -> OperationalError:
    if e <= s:
        return OperationalError("incomplete input")
    return OperationalError(f'near "{sql[s:e]}": syntax error')


def skip_blank(sql: str, pos: int) -> int:
    """Offset of the first token at or after ``pos`` that is not space, comment or ';'
    (``len(sql)`` when none)."""
    n = len(sql)
    while pos < n:
        kind, j = next_token(sql, pos)
        if kind != "SPACE" and kind != "SEMI":
            return pos
        pos = j
    return n


def parse_one(sql: str, start: int = 0) -> Parsed | None:  # noqa: C901 - the LALR loop
    """Parse the first statement at or after ``start``; None when none remains."""
    pos = skip_blank(sql, start)
    n = len(sql)
    if pos >= n:
        return None
    P = program()
    action, goto, rules = P.action, P.goto, P.rules  # noqa: F841
    term_no = P.term_no
    builder = Builder(sql, pos)
    states = [0]
    values: list = []
    starts: list[int] = []
    ends: list[int] = []
    stmt_start = pos
    last_end = pos
    last_kind = ""
    # Read the first token.
    kind, e = next_token(sql, pos)
    s = pos
    while True:
        # --- classify the current token (kind, s, e)
        if kind == "SPACE":
            s = e
            if s >= n:
                kind = "SEMI" if last_kind != "SEMI" else END
                e = s
            else:
                kind, e = next_token(sql, s)
            continue
        if kind == "ILLEGAL":
            raise OperationalError(f'unrecognized token: "{sql[s:e]}"')
        if kind == "WINDOW" or kind == "OVER" or kind == "FILTER":
            kind = _window_kind(kind, sql, e, last_kind)
        t = term_no[kind]
        # --- shift/reduce until the token is shifted
        while True:
            st = states[-1]
            acts = action[st]
            a = acts.get(t)
            if a is None:
                if t in P.fallback and P.id_no in acts:
                    t = P.id_no
                    kind = "ID"
                    a = acts[t]
                elif P.any_no in acts and t != P.end_no:
                    t = P.any_no
                    a = acts[t]
                else:
                    a = P.default[st]
                    if a is None:
                        raise syntax_error(sql, s, e)
            if a >= 0:
                break
            origin, length, fn, is_start = rules[-1 - a]
            if length:
                kids = values[-length:]
                rs = starts[-length]
                re_ = ends[-1]
                del values[-length:], starts[-length:], ends[-length:], states[-length:]
            else:
                kids = []
                rs = re_ = s
            if fn is None:
                v = kids[0] if length else None
            else:
                builder.lookahead = s - stmt_start
                v = fn(builder, kids, rs - stmt_start, re_ - stmt_start)
            if is_start:
                if builder.error is not None:
                    raise OperationalError(builder.error)
                return Parsed(v, sql[stmt_start:last_end], stmt_start, e if kind == END else s)
            if not length and len(states) >= STACK_DEPTH:
                raise OperationalError("parser stack overflow")
            states.append(goto[states[-1]][origin])
            values.append(v)
            starts.append(rs)
            ends.append(re_)
        # --- shift
        if builder.error is not None:
            raise OperationalError(builder.error)
        if len(states) >= STACK_DEPTH:
            raise OperationalError("parser stack overflow")
        states.append(a)
        values.append(token_value(kind, sql[s:e]))
        starts.append(s)
        ends.append(e)
        if kind == "SEMI":
            if a in P.accept:
                # The statement is complete: accept without reading further.
                end_at = e
                kind, s, e = END, end_at, end_at
                last_kind = "SEMI"
                continue
        elif kind != END:
            last_end = e
        last_kind = kind
        # --- next token
        s = e
        if s >= n:
            if last_kind == "SEMI":
                kind = END
            else:
                kind = "SEMI"
            e = s
        else:
            kind, e = next_token(sql, s)


def _free_nodes_fast() -> None:
    """The AST's node classes and ``Parsed`` freed by the compiled node deallocator
    (``_nodefree.pyx``) when it is built."""
    try:
        from . import _nodefree
    except ImportError:
        return
    _nodefree.install([c for c in vars(A).values()
                       if isinstance(c, type) and c.__module__ == A.__name__] + [Parsed])


def _use_compiled() -> str:
    """Switch ``parse_one`` to the compiled driver when it is built; returns which runs."""
    global parse_one
    try:
        from . import _parser
    except ImportError:
        return "python"
    from .lexer import KEYWORDS
    _parser.init(load_tables(), KEYWORDS, Builder, Parsed, QName, FALLBACK_ID)
    _free_nodes_fast()
    parse_one = _parser.parse_one
    return "cython"


python_parse_one = parse_one
DRIVER = _use_compiled()
