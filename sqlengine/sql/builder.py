"""The reductions of the SQL grammar: one method per aliased alternative of grammar.lark.

The LALR driver (parser.py or _parser.pyx) calls ``Builder.<alias>(kids, start, end)``
when it reduces an alternative: ``kids`` are the values of the alternative's symbols in
order (a token's value is its source text, except ID: the dequoted name, ``QName`` when
double-quoted; STRING: the unescaped text; BLOB: bytes), ``start``/``end`` the offsets
spanned in the statement text. The methods build ``sql.ast`` nodes directly; no parse
tree exists. Syntax errors that SQLite raises from inside its own reductions ("unknown
join type", "ORDER BY clause should come after UNION not before", ...) are recorded
with ``fail`` and raised by the driver, at the point SQLite would report them.

The compiled driver (_parser.pyx) performs the commonest reductions itself (integer,
binary, unary, column, rcol, oneselect, ... : see FAST_ALIASES there) and must build
exactly what the methods here build; tests/sql/test_drivers.py holds them equal.

This module never resolves names and never evaluates anything beyond literal values.
"""

from __future__ import annotations

import dataclasses

from . import ast as A
from . import limits

MAX_INT64 = (1 << 63) - 1
MAX_VARIABLE_NUMBER = limits.MAX_VARIABLE_NUMBER
MAX_COLUMN = limits.MAX_COLUMN
MAX_FUNCTION_ARG = limits.MAX_FUNCTION_ARG


class _NewColumn:
    __slots__ = ("name", "type_name", "generated", "has_default", "pk")

    def __init__(self, name, type_name):
        self.name = name
        self.type_name = type_name
        self.generated = False
        self.has_default = False
        self.pk = False


class _NewTable:
    """The checks SQLite makes while it parses CREATE TABLE (sqlite3AddColumn,
    sqlite3AddPrimaryKey, sqlite3AddDefaultValue, sqlite3AddGenerated) need the columns
    seen so far; nothing else of the schema."""

    __slots__ = ("name", "columns", "has_pk")

    def __init__(self, name):
        self.name = name
        self.columns = []
        self.has_pk = False


def _strip_generated_always(type_name: str) -> str | None:
    """sqlite3AddColumn drops a trailing "GENERATED ALWAYS" from the type (those words
    are read as type words before ``AS (expr)``)."""
    t = type_name
    if len(t) >= 16 and t[-6:].lower() == "always":
        t = t[:-6].rstrip(" \t\n\f\r\v")
        if len(t) >= 9 and t[-9:].lower() == "generated":
            t = t[:-9].rstrip(" \t\n\f\r\v")
    return t or None


def _is_integer_type(type_name) -> bool:
    if type_name is None:
        return False
    t = type_name
    if len(t) >= 2 and t[0] in "\"'`[" and t[-1] in "\"'`]":
        t = t[1:-1]
    return t.isascii() and t.upper() == "INTEGER"


def _is_constant_or_function(e) -> bool:
    """sqlite3ExprIsConstantOrFunction: no column, parameter, subquery or window call."""
    t = type(e)
    if t is A.Literal or t is A.CurrentTime:
        return True
    if t is A.Column or t is A.Param or t is A.Subquery or t is A.Exists \
            or t is A.InSelect or t is A.InTable:
        return False
    if t is A.FunctionCall:
        if e.over is not None:
            return False
        return all(_is_constant_or_function(a) for a in e.args) and \
            (e.filter is None or _is_constant_or_function(e.filter))
    if t is A.Unary:
        return _is_constant_or_function(e.operand)
    if t is A.Binary or t is A.Like:
        return _is_constant_or_function(e.left) and _is_constant_or_function(e.right) and \
            (t is A.Binary or e.escape is None or _is_constant_or_function(e.escape))
    if t is A.Between:
        return all(_is_constant_or_function(x) for x in (e.expr, e.low, e.high))
    if t is A.InList:
        return _is_constant_or_function(e.expr) and all(map(_is_constant_or_function, e.items))
    if t is A.RowValue:
        return all(map(_is_constant_or_function, e.items))
    if t is A.IsNull or t is A.Cast or t is A.Collate:
        return _is_constant_or_function(e.expr)
    if t is A.Case:
        parts = [e.operand, e.else_] + [x for w in e.whens for x in w]
        return all(_is_constant_or_function(x) for x in parts if x is not None)
    return True


class QName(str):
    """A name that was written in double quotes (it may fall back to a string literal)."""

    __slots__ = ()


def _upper_words(kids) -> str:
    return " ".join(k.upper() for k in kids if k is not None)


def integer_value(text: str):
    """The value of an INTEGER token as SQLite reads it: hex is 64-bit two's complement,
    decimal beyond 64 bits becomes a float."""
    if text[:2] in ("0x", "0X"):
        v = int(text, 16)
        if v >= 1 << 64:
            return None
        return v - (1 << 64) if v > MAX_INT64 else v
    if len(text) > 19 and len(text.lstrip("0")) > 19:
        return float(text)       # beyond 64 bits (and beyond Python's int-string limit)
    v = int(text)
    return v if v <= MAX_INT64 else float(text)


def float_value(text: str) -> float:
    try:
        return float(text)
    except ValueError:  # "5." and ".5" are fine for float(); keep a guard anyway
        return float(text + "0")


_JOIN_BITS = {"NATURAL": 1, "LEFT": 2 | 8, "RIGHT": 4 | 8, "FULL": 2 | 4 | 8, "OUTER": 8,
              "INNER": 16, "CROSS": 16 | 32}


def join_kind(words: list[str]) -> tuple[str, bool] | None:
    """The Join.kind and natural flag for the words before JOIN, as sqlite3JoinType
    (None for an unknown join type)."""
    bits = 0
    for w in words:
        b = _JOIN_BITS.get(w.upper()) if w.isascii() else None
        if b is None:
            bits = -1
            break
        bits |= b
    if bits < 0 or (bits & (16 | 8)) == (16 | 8) or (bits & (8 | 2 | 4)) == 8:
        return None
    natural = bool(bits & 1)
    if bits & 2 and bits & 4:
        kind = "FULL"
    elif bits & 2:
        kind = "LEFT"
    elif bits & 4:
        kind = "RIGHT"
    elif bits & 32:
        kind = "CROSS"
    else:
        kind = "INNER"
    return kind, natural


class _Tail:
    """ORDER BY / LIMIT written after one SELECT core (before it joins a compound)."""

    __slots__ = ("order_by", "limit", "offset")

    def __init__(self, order_by, limit, offset):
        self.order_by = order_by
        self.limit = limit
        self.offset = offset


class Builder:
    """Reduction callbacks. ``sql`` is the text being parsed and ``base`` the offset of
    the statement's first token in it: the offsets the driver passes (``start``, ``end``,
    ``lookahead``, the offset of the lookahead token at the time of the reduction) and the
    ``pos`` of every node are relative to the statement, as ``Parsed.text`` starts."""

    # (the compiled driver makes a Builder by storing these slots, in this order, as
    # __init__ does: _parser.node_fields)
    __slots__ = ("sql", "base", "lookahead", "error", "new_table", "features")

    def __init__(self, sql: str = "", base: int = 0):
        self.sql = sql
        self.base = base
        self.lookahead = 0
        self.error = None
        self.new_table = None  # what SQLite's parser knows of a table being created
        self.features = 0  # ast.FEAT_* bits of the nodes built so far (SelectCore.features)

    def fail(self, message: str) -> None:
        """Record an error found inside a reduction. As in SQLite, the parse goes on to
        the end of the current token (a syntax error there replaces the message); the
        driver raises it once the token is consumed."""
        self.error = message

    # ---------------------------------------------------------------- generic helpers
    def true(self, k, s, e):
        return True

    def false(self, k, s, e):
        return False

    def empty_list(self, k, s, e):
        return []

    def list1(self, k, s, e):
        return [k[0]]

    def list_append(self, k, s, e):
        lst = k[0]
        lst.append(k[-1])
        return lst

    def list_append_skip1(self, k, s, e):  # list item SEMI
        lst = k[0]
        lst.append(k[1])
        return lst

    def second(self, k, s, e):
        return k[1]

    def third(self, k, s, e):
        return k[2]

    def fourth(self, k, s, e):
        return k[3]

    def words(self, k, s, e):
        return _upper_words(k)

    def second_upper(self, k, s, e):
        return k[1].upper()

    def name_string(self, k, s, e):
        return k[0]

    # ---------------------------------------------------------------- statements
    def finish(self, k, s, e):
        if e - s >= limits.MIN_TEXT_FOR_DEPTH and \
                limits.expr_too_deep(k[0], limits.MAX_EXPR_DEPTH):
            self.fail(f"Expression tree is too large (maximum depth {limits.MAX_EXPR_DEPTH})")
        return k[0]

    def explain(self, k, s, e):
        return A.Explain(k[1], k[0], s)

    def begin(self, k, s, e):
        return A.Begin(k[1].upper() if k[1] else None, s)

    def commit(self, k, s, e):
        return A.Commit(s)

    def rollback(self, k, s, e):
        return A.Rollback(None, s)

    def rollback_to(self, k, s, e):
        return A.Rollback(k[4], s)

    def trans_named(self, k, s, e):
        return k[1]

    def savepoint(self, k, s, e):
        return A.Savepoint(k[1], s)

    def release(self, k, s, e):
        return A.Release(k[2], s)

    # ---------------------------------------------------------------- CREATE TABLE
    def create_table_head(self, k, s, e):
        name, schema = (k[5], k[4]) if k[5] is not None else (k[4], None)
        if k[1] and schema is not None and schema.lower() == "main":
            # sqlite3StartTable stops here, so none of the column checks follow.
            self.fail("temporary table name must be unqualified")
        else:
            self.new_table = _NewTable(str(name))
        return A.CreateTable(name, schema=schema, temp=bool(k[1]), if_not_exists=bool(k[3]),
                             pos=s)

    def create_table(self, k, s, e):
        node, args = k
        if isinstance(args, A.Select):
            node.as_select = args
            return node
        columns, constraints, options = args
        node.columns = columns
        node.constraints = _table_constraints(constraints)
        for option in options:
            if option == "WITHOUT ROWID":
                node.without_rowid = True
            elif option == "STRICT":
                node.strict = True
        return node

    def ct_columns(self, k, s, e):
        return (k[1], k[2], k[4])

    def ct_as(self, k, s, e):
        return k[1]

    def table_option_without(self, k, s, e):
        if k[1].lower() == "rowid":
            return "WITHOUT ROWID"
        self.fail(f"unknown table option: {self._last_token_text(s, e)}")
        return None

    def table_option_name(self, k, s, e):
        if k[0].lower() == "strict":
            return "STRICT"
        self.fail(f"unknown table option: {self.sql[self.base + s:self.base + e]}")
        return None

    def _token_texts(self, s, e):
        """The source texts of the tokens of the span s..e (for error messages)."""
        from .lexer import next_token
        i, end = self.base + s, self.base + e
        out = []
        while i < end:
            kind, j = next_token(self.sql, i)
            if kind != "SPACE":
                out.append(self.sql[i:j])
            i = j
        return out

    def _last_token_text(self, s, e):
        texts = self._token_texts(s, e)
        return texts[-1] if texts else ""

    def columnname(self, k, s, e):
        name, type_name = str(k[0]), k[1]
        if type_name is not None:
            type_name = _strip_generated_always(type_name)
        nt = self.new_table
        if nt is not None:
            if len(nt.columns) + 1 > MAX_COLUMN:
                self.fail(f"too many columns on {nt.name}")
            elif any(c.name.lower() == name.lower() for c in nt.columns if c.name.isascii()) \
                    or any(c.name == name for c in nt.columns):
                self.fail(f"duplicate column name: {name}")
            else:
                nt.columns.append(_NewColumn(name, type_name))
        return A.ColumnDef(name, type_name)

    def _default(self, expr):
        col = self.new_table.columns[-1] if self.new_table and self.new_table.columns else None
        if col is not None:
            if not _is_constant_or_function(expr):
                self.fail(f"default value of column [{col.name}] is not constant")
            elif col.generated:
                self.fail("cannot use DEFAULT on a generated column")
            else:
                col.has_default = True
        return A.ColumnConstraint("DEFAULT", expr=expr)

    def _generated(self, cons, kind):
        col = self.new_table.columns[-1] if self.new_table and self.new_table.columns else None
        if col is not None:
            if col.has_default or kind not in (None, "stored", "virtual"):
                self.fail(f'error in generated column "{col.name}"')
            else:
                col.generated = True
                if col.pk:
                    self.fail("generated columns cannot be part of the PRIMARY KEY")
        elif kind not in (None, "stored", "virtual"):
            self.fail('error in generated column ""')
        return cons

    def _primary_key(self, columns, autoinc, desc, terms=None):
        nt = self.new_table
        if nt is None:
            return
        if nt.has_pk is None:  # ALTER TABLE ADD COLUMN: the table's own key is unknown
            nt.has_pk = False
        elif nt.has_pk:
            self.fail(f'table "{nt.name}" has more than one primary key')
            return
        nt.has_pk = True
        col = None
        if columns is None:
            if nt.columns:
                col = nt.columns[-1]
                self._part_of_pk(col)
            nterms = 1
        else:
            nterms = len(columns)
            for ic in columns:
                e = ic.expr
                if type(e) is A.Literal and type(e.value) is str:
                    name = e.value
                elif type(e) is A.Column and e.table is None:
                    name = e.name
                else:
                    continue
                for c in nt.columns:
                    if c.name.lower() == name.lower():
                        col = c
                        self._part_of_pk(c)
                        break
        if nterms == 1 and col is not None and _is_integer_type(col.type_name) and not desc:
            if terms:
                self._explicit_nulls(terms, in_create_index=False)
            return
        if autoinc:
            self.fail("AUTOINCREMENT is only allowed on an INTEGER PRIMARY KEY")
        elif terms:
            self._explicit_nulls(terms)

    def _explicit_nulls(self, terms, in_create_index=True):
        """sqlite3HasExplicitNulls: NULLS FIRST/LAST has no place in an index. Inside
        sqlite3CreateIndex it is not reached when an error is already recorded."""
        if in_create_index and self.error is not None:
            return False
        for t in terms:
            if t.nulls is not None:
                self.fail(f"unsupported use of NULLS {t.nulls}")
                return True
        return False

    def _part_of_pk(self, col):
        col.pk = True
        if col.generated:
            self.fail("generated columns cannot be part of the PRIMARY KEY")

    def columnlist1(self, k, s, e):
        col = k[0]
        col.constraints = _column_constraints(self, k[1], col.name)
        return [col]

    def columnlist_append(self, k, s, e):
        col = k[2]
        col.constraints = _column_constraints(self, k[3], col.name)
        k[0].append(col)
        return k[0]

    def typetoken_none(self, k, s, e):
        return None

    def typetoken(self, k, s, e):
        return self.sql[self.base + s:self.base + e]

    def typename(self, k, s, e):
        return k[0]

    def cons_name(self, k, s, e):
        return ("NAME", k[1])

    def ccons_default(self, k, s, e):
        return self._default(k[2])

    def ccons_default_paren(self, k, s, e):
        return self._default(k[2])

    def ccons_default_plus(self, k, s, e):
        return self._default(A.Unary("+", k[3], k[3].pos))

    def ccons_default_minus(self, k, s, e):
        return self._default(_negate(k[3], k[3].pos, self.sql, self.base))

    def ccons_default_id(self, k, s, e):
        name = k[2]
        low = name.lower()
        if not isinstance(name, QName) and low in ("true", "false"):
            value = A.Literal(1 if low == "true" else 0, s)
        else:
            value = A.Literal(str(name), s)
        return self._default(value)

    def ccons_null(self, k, s, e):
        return A.ColumnConstraint("NULL", conflict=k[1])

    def ccons_notnull(self, k, s, e):
        return A.ColumnConstraint("NOT NULL", conflict=k[2])

    def ccons_pk(self, k, s, e):
        self._primary_key(None, bool(k[4]), bool(k[2]))
        return A.ColumnConstraint("PRIMARY KEY", desc=bool(k[2]), conflict=k[3],
                                  autoincrement=bool(k[4]))

    def ccons_unique(self, k, s, e):
        return A.ColumnConstraint("UNIQUE", conflict=k[1])

    def ccons_check(self, k, s, e):
        return A.ColumnConstraint("CHECK", expr=k[2])

    def ccons_references(self, k, s, e):
        nt = self.new_table
        if nt is not None and nt.columns and k[2] is not None and len(k[2]) != 1:
            table = self._token_texts(s, e)[1]
            self.fail(f"foreign key on {nt.columns[-1].name} should reference only one "
                      f"column of table {table}")
        return A.ColumnConstraint("REFERENCES", foreign_key=_foreign_key(k[1], k[2], k[3]))

    def ccons_defer(self, k, s, e):
        return ("DEFER", k[0])

    def ccons_collate(self, k, s, e):
        return A.ColumnConstraint("COLLATE", collation=k[1])

    def ccons_generated(self, k, s, e):
        return self._generated(*k[3])

    def ccons_generated_short(self, k, s, e):
        return self._generated(*k[1])

    def generated(self, k, s, e):
        return (A.ColumnConstraint("GENERATED", expr=k[1]), None)

    def generated_kind(self, k, s, e):
        kind = k[3].lower()
        return (A.ColumnConstraint("GENERATED", expr=k[1], stored=kind == "stored"), kind)

    def refarg_match(self, k, s, e):
        return ("MATCH", k[1])

    def refarg_insert(self, k, s, e):
        return ("INSERT", k[2])

    def refarg_on(self, k, s, e):
        return (k[1].upper(), k[2])

    def not_deferrable(self, k, s, e):
        return False

    def deferrable(self, k, s, e):
        return k[1] == "DEFERRED"

    def initially(self, k, s, e):
        return k[1].upper()

    def conslist_append(self, k, s, e):
        k[0].append(k[2])
        return k[0]

    def tcons_pk(self, k, s, e):
        columns = _indexed_columns(k[3])
        self._primary_key(columns, bool(k[4]), False, k[3])
        return A.TableConstraint("PRIMARY KEY", columns=columns, conflict=k[6])

    def tcons_unique(self, k, s, e):
        if self.new_table is not None:
            self._explicit_nulls(k[2])
        return A.TableConstraint("UNIQUE", columns=_indexed_columns(k[2]), conflict=k[4])

    def tcons_check(self, k, s, e):
        return A.TableConstraint("CHECK", expr=k[2], conflict=k[4])

    def tcons_fk(self, k, s, e):
        nt = self.new_table
        if nt is not None:  # sqlite3CreateForeignKey
            if k[7] is not None and len(k[7]) != len(k[3]):
                self.fail("number of columns in foreign key does not match the number of "
                          "columns in the referenced table")
            else:
                names = {c.name.lower() for c in nt.columns if c.name.isascii()}
                exact = {c.name for c in nt.columns}
                for c in k[3]:
                    n = c.expr.name
                    if n not in exact and not (n.isascii() and n.lower() in names):
                        self.fail(f'unknown column "{n}" in foreign key definition')
                        break
        fk = _foreign_key(k[6], k[7], k[8])
        if k[9] is not None:
            fk.deferred = k[9]
        return A.TableConstraint("FOREIGN KEY", fk_columns=[c.expr.name for c in k[3]],
                                 foreign_key=fk)

    # ---------------------------------------------------------------- DROP / VIEW / INDEX
    def drop(self, k, s, e):
        schema, name = k[3]
        return A.Drop(k[1].upper(), name, schema, bool(k[2]), s)

    def fullname1(self, k, s, e):
        return (None, k[0])

    def fullname2(self, k, s, e):
        return (k[0], k[2])

    def create_view(self, k, s, e):
        name, schema = (k[5], k[4]) if k[5] is not None else (k[4], None)
        cols = [c.expr.name for c in k[6]] if k[6] is not None else None
        return A.CreateView(name, k[8], cols, schema, bool(k[1]), bool(k[3]), s)

    def create_index(self, k, s, e):
        self._explicit_nulls(k[9])
        name, schema = (k[5], k[4]) if k[5] is not None else (k[4], None)
        return A.CreateIndex(name, k[7], _indexed_columns(k[9]), schema, bool(k[1]),
                             bool(k[3]), k[11], s)

    def eiditem(self, k, s, e):
        # A name list (CTE, view, foreign key) takes no COLLATE, ASC or DESC; SQLite's
        # parser says so (except when it reads a stored schema).
        if k[1] is not None or k[2] is not None:
            from .lexer import next_token
            at = self.base + s
            _, end = next_token(self.sql, at)
            self.fail(f'syntax error after column name "{self.sql[at:end]}"')
        return A.IndexedColumn(A.Column(str(k[0])), k[1], bool(k[2]))

    # ---------------------------------------------------------------- SELECT
    def select_plain(self, k, s, e):
        return self._make_select(k[0], None, s)

    def select_with(self, k, s, e):
        return self._make_select(k[2], A.With(k[1], False), s)

    def select_with_recursive(self, k, s, e):
        return self._make_select(k[3], A.With(k[2], True), s)

    def _make_select(self, body_tail, with_, s):
        if len(body_tail) > 2:
            # As parserDoubleLinkSelect: the core nearest the end that has ORDER BY or
            # LIMIT before a compound operator is the one reported.
            for tail, op in reversed(body_tail[2]):
                if tail is not None:
                    what = "ORDER BY" if tail.order_by is not None else "LIMIT"
                    self.fail(f"{what} clause should come after {op} not before")
                    break
        terms, skip = limits.compound_terms(body_tail[0])
        if not skip and terms > limits.MAX_COMPOUND_SELECT:
            self.fail("too many terms in compound SELECT")
        return _make_select(body_tail, with_, s)

    def compound(self, k, s, e):
        # (body, tail of the last core, [(tail, following op) of the earlier cores])
        left, op, right = k
        lbody, ltail = left[0], left[1]
        prior = left[2] if len(left) > 2 else []
        prior.append((ltail, op))
        rbody, rtail = right
        return (A.Compound(lbody, op, rbody), rtail, prior)

    def oneselect(self, k, s, e):
        core = A.SelectCore(k[2], bool(k[1]), k[3], k[4], k[5], k[6], None, s, self.features)
        return (core, _tail(k[7], k[8]))

    def oneselect_window(self, k, s, e):
        core = A.SelectCore(k[2], bool(k[1]), k[3], k[4], k[5], k[6], k[7], s, self.features)
        return (core, _tail(k[8], k[9]))

    def oneselect_values(self, k, s, e):
        return (k[0], None)

    def values1(self, k, s, e):
        return A.Values([k[2]], s)

    def values_append(self, k, s, e):
        v = k[0]
        v.rows.append(k[3])
        return v

    def scanpt(self, k, s, e):
        return self.lookahead

    def sclp(self, k, s, e):
        return k[0]

    def rcol(self, k, s, e):
        lst, start, expr, end, alias = k
        text = self.sql[self.base + start:self.base + end].rstrip(" \t\n\f\r\v")
        lst.append(A.ResultColumn(expr, alias, text))
        return lst

    def rstar(self, k, s, e):
        k[0].append(A.Star(None, k[1]))
        return k[0]

    def rstar_table(self, k, s, e):
        k[0].append(A.Star(str(k[2]), k[1]))
        return k[0]

    # FROM
    def stl_prefix(self, k, s, e):
        return (k[0], k[1])

    def _join(self, prefix, item, on_using, s):
        on, using = on_using
        if prefix is None:
            if on is not None:
                self.fail("a JOIN clause is required before ON")
            if using is not None:
                self.fail("a JOIN clause is required before USING")
            return item
        left, (kind, natural) = prefix
        return A.Join(left, item, kind, natural, on, using, s)

    def from_table(self, k, s, e):
        prefix, n1, n2, alias, on_using = k
        name, schema = (n2, n1) if n2 is not None else (n1, None)
        pos = s if prefix is None else self._item_pos(k)
        return self._join(prefix, A.TableRef(name, schema, alias, pos=pos), on_using, s)

    def from_table_indexed(self, k, s, e):
        prefix, n1, n2, alias, idx, on_using = k
        name, schema = (n2, n1) if n2 is not None else (n1, None)
        ref = A.TableRef(name, schema, alias, pos=s)
        if idx is False:
            ref.not_indexed = True
        else:
            ref.indexed_by = idx
        return self._join(prefix, ref, on_using, s)

    def from_function(self, k, s, e):
        prefix, n1, n2, _lp, args, _rp, alias, on_using = k
        name, schema = (n2, n1) if n2 is not None else (n1, None)
        ref = A.TableFunctionRef(name, args, schema, alias, s)
        return self._join(prefix, ref, on_using, s)

    def from_subquery(self, k, s, e):
        prefix, _lp, sel, _rp, alias, on_using = k
        return self._join(prefix, A.SubqueryRef(sel, alias, s), on_using, s)

    def from_parens(self, k, s, e):
        """``( seltablist )`` as a FROM item, as SQLite's parser takes it: first, bare,
        its items join the FROM list as they are; one item becomes that item under the
        alias written after the parentheses (its own alias and INDEXED BY are dropped);
        a join becomes a subquery ``SELECT *`` over it (compiler/nestedfrom.py)."""
        prefix, _lp, inner, _rp, alias, on_using = k
        if prefix is None and alias is None and on_using == (None, None):
            return inner
        if type(inner) is A.TableRef:
            inner = A.TableRef(inner.name, inner.schema, alias, pos=inner.pos)
        elif type(inner) is not A.Join:
            inner = dataclasses.replace(inner, alias=alias)
        else:
            sel = A.Select(A.SelectCore([A.Star(None, s, nested=True)], from_=inner, pos=s,
                                        features=self.features), pos=s)
            inner = A.SubqueryRef(sel, alias, s)
        return self._join(prefix, inner, on_using, s)

    def _item_pos(self, k):
        return -1

    def indexed_by(self, k, s, e):
        return k[2]

    def not_indexed(self, k, s, e):
        return False

    def joinop_comma(self, k, s, e):
        return (",", False)

    def joinop_join(self, k, s, e):
        return ("INNER", False)

    def joinop_kw(self, k, s, e):
        words = list(k[:-1])
        kind = join_kind(words)
        if kind is None:
            self.fail("unknown join type: " + " ".join(self._token_texts(s, e)[:-1]))
            return ("INNER", False)
        return kind

    def on_expr(self, k, s, e):
        return (k[1], None)

    def using(self, k, s, e):
        return (None, k[2])

    def on_none(self, k, s, e):
        return (None, None)

    def xfullname(self, k, s, e):
        return A.TableRef(k[0], pos=s)

    def xfullname_schema(self, k, s, e):
        return A.TableRef(k[2], k[0], pos=s)

    def xfullname_schema_alias(self, k, s, e):
        return A.TableRef(k[2], k[0], k[4], pos=s)

    def xfullname_alias(self, k, s, e):
        return A.TableRef(k[0], None, k[2], pos=s)

    def sortlist1(self, k, s, e):
        return [A.OrderingTerm(k[0], bool(k[1]), k[2])]

    def sortlist_append(self, k, s, e):
        k[0].append(A.OrderingTerm(k[2], bool(k[3]), k[4]))
        return k[0]

    def limit(self, k, s, e):
        return (k[1], None)

    def limit_offset(self, k, s, e):
        return (k[1], k[3])

    def limit_comma(self, k, s, e):
        return (k[3], k[1])

    # WITH
    def wqitem(self, k, s, e):
        cols = [c.expr.name for c in k[1]] if k[1] is not None else None
        return A.CommonTableExpr(k[0], k[4], cols, k[2])

    def materialized_none(self, k, s, e):
        return None

    def with_(self, k, s, e):
        return A.With(k[1], False)

    def with_recursive(self, k, s, e):
        return A.With(k[2], True)

    # ---------------------------------------------------------------- DML
    def delete(self, k, s, e):
        with_, _d, _f, ref, idx, (where, ret), order, lim = k
        _apply_index(ref, idx)
        limit, offset = lim if lim else (None, None)
        return A.Delete(ref, where, ret, order, limit, offset, with_, s)

    def update(self, k, s, e):
        with_, _u, orconf, ref, idx, _set, sets, from_, (where, ret), order, lim = k
        _apply_index(ref, idx)
        limit, offset = lim if lim else (None, None)
        return A.Update(ref, sets, orconf.upper() if orconf else None, from_, where, ret,
                        order, limit, offset, with_, s)

    def where_ret_none(self, k, s, e):
        return (None, None)

    def where_ret(self, k, s, e):
        return (k[1], None)

    def ret_only(self, k, s, e):
        return (None, k[1])

    def where_ret_returning(self, k, s, e):
        return (k[1], k[3])

    def setlist1(self, k, s, e):
        return [A.SetClause([k[0]], k[2])]

    def setlist1_multi(self, k, s, e):
        return [self._vector_set(k[1], k[4])]

    def setlist_append(self, k, s, e):
        k[0].append(A.SetClause([k[2]], k[4]))
        return k[0]

    def setlist_append_multi(self, k, s, e):
        k[0].append(self._vector_set(k[3], k[6]))
        return k[0]

    def _vector_set(self, columns, expr):
        """``(c1, c2) = expr``: a row value's size (or a scalar's, 1) must be the number of
        columns, as SQLite's sqlite3ExprListAppendVector says (a subquery's is checked
        when it is coded)."""
        if type(expr) is A.Subquery:
            return A.SetClause(columns, expr, True)
        n = len(expr.items) if type(expr) is A.RowValue else 1
        if n != len(columns):
            self.fail(f"{len(columns)} columns assigned {n} values")
        return A.SetClause(columns, expr)

    def replace(self, k, s, e):
        return "REPLACE"

    def insert(self, k, s, e):
        with_, orconf, _into, ref, cols, sel, (upserts, ret) = k
        return A.Insert(ref.name, sel, ref.schema, ref.alias, cols,
                        orconf.upper() if orconf else None, upserts, ret, with_, s)

    def insert_default(self, k, s, e):
        with_, orconf, _into, ref, cols, _d, _v, ret = k
        return A.Insert(ref.name, None, ref.schema, ref.alias, cols,
                        orconf.upper() if orconf else None, [], ret, with_, s)

    def upsert_none(self, k, s, e):
        return ([], None)

    def upsert_returning(self, k, s, e):
        return ([], k[1])

    def upsert_target_update(self, k, s, e):
        ups, ret = k[11]
        u = A.Upsert(_indexed_columns(k[3]), k[5], k[9], k[10])
        return ([u] + ups, ret)

    def upsert_target_nothing(self, k, s, e):
        ups, ret = k[8]
        return ([A.Upsert(_indexed_columns(k[3]), k[5])] + ups, ret)

    def upsert_nothing(self, k, s, e):
        return ([A.Upsert()], k[4])

    def upsert_update(self, k, s, e):
        return ([A.Upsert(None, None, k[5], k[6])], k[7])

    # ---------------------------------------------------------------- expressions
    def paren(self, k, s, e):
        return k[1]

    def column(self, k, s, e):
        name = k[0]
        if type(name) is QName:
            return A.Column(str(name), quoted=True, pos=s)
        low = name.lower()
        if low == "true":
            return A.Literal(1, s, True)
        if low == "false":
            return A.Literal(0, s, True)
        return A.Column(name, pos=s)

    def column2(self, k, s, e):
        return A.Column(str(k[2]), str(k[0]), pos=s)

    def column3(self, k, s, e):
        schema = str(k[0])
        return A.Column(str(k[4]), A.SchemaQualifier(str(k[2]), schema), schema, pos=s)

    def variable(self, k, s, e):
        text = k[0]
        if text[0] == "?" and len(text) > 1 and (
                len(text[1:].lstrip("0")) > 12
                or not 1 <= int(text[1:].lstrip("0") or "0") <= MAX_VARIABLE_NUMBER):
            self.fail(f"variable number must be between ?1 and ?{MAX_VARIABLE_NUMBER}")
        elif text[0] == "#" and "0" <= text[1] <= "9":
            # #NNN names a register in SQLite's nested parses only: a syntax error here
            self.fail(f'near "{text}": syntax error')
        return A.Param(text, s)

    def collate(self, k, s, e):
        self.features |= A.FEAT_COLLATE
        return A.Collate(k[0], str(k[2]), s)

    def cast(self, k, s, e):
        return A.Cast(k[2], k[4] or "", s)

    def function(self, k, s, e):
        if len(k[3]) > MAX_FUNCTION_ARG:
            self.fail(f"too many arguments on function {k[0]}")
        self.features |= A.FEAT_FUNCTION
        return A.FunctionCall(str(k[0]), k[3], bool(k[2]), pos=s)

    def function_star(self, k, s, e):
        self.features |= A.FEAT_FUNCTION
        return A.FunctionCall(str(k[0]), [], star=True, pos=s)

    def function_over(self, k, s, e):
        f = self.function(k, s, e)
        f.filter, f.over = k[5]
        if f.over is not None:
            self.features |= A.FEAT_WINDOW
        if f.distinct and f.over is not None:
            self.fail("DISTINCT is not supported for window functions")
        return f

    def function_star_over(self, k, s, e):
        f = A.FunctionCall(str(k[0]), [], star=True, pos=s)
        f.filter, f.over = k[4]
        self.features |= A.FEAT_FUNCTION if f.over is None else A.FEAT_FUNCTION | A.FEAT_WINDOW
        return f

    def row_value(self, k, s, e):
        items = k[1]
        items.append(k[3])
        return A.RowValue(items, s)

    _OPS = {"==": "=", "<>": "!="}

    def binary(self, k, s, e):
        op = k[1]
        op = self._OPS.get(op, op.upper())
        return A.Binary(op, k[0], k[2], s)

    def like(self, k, s, e):
        op, neg = k[1]
        return A.Like(op, k[0], k[2], None, neg, s)

    def like_escape(self, k, s, e):
        op, neg = k[1]
        return A.Like(op, k[0], k[2], k[4], neg, s)

    def likeop(self, k, s, e):
        return (k[0].upper(), False)

    def likeop_not(self, k, s, e):
        return (k[1].upper(), True)

    def isnull(self, k, s, e):
        return A.IsNull(k[0], False, s)

    def notnull(self, k, s, e):
        return A.IsNull(k[0], True, s)

    def is_(self, k, s, e):
        return truth_test("IS", k[0], k[-1], s, self.sql, self.base) or A.Binary(
            "IS", k[0], k[-1], s)

    def is_not(self, k, s, e):
        return truth_test("IS NOT", k[0], k[-1], s, self.sql, self.base) or A.Binary(
            "IS NOT", k[0], k[-1], s)

    def unary(self, k, s, e):
        return A.Unary(k[0].upper(), k[1], s)

    def unary_plus(self, k, s, e):
        # its own rule only to carry SQLite's [BITNOT] precedence: "+ 99 / 13" is (+99)/13
        return A.Unary("+", k[1], s)

    def unary_minus(self, k, s, e):
        return _negate(k[1], s, self.sql, self.base)

    def between(self, k, s, e):
        return A.Between(k[0], k[2], k[4], k[1], s)

    def in_list(self, k, s, e):
        if not k[3]:
            # As SQLite's parser: "x IN ()" is false and "x NOT IN ()" true, whatever x
            # is (x is dropped: not evaluated, not even resolved).
            return A.Literal(1 if k[1] else 0, s)
        return A.InList(k[0], k[3], k[1], s)

    def in_select(self, k, s, e):
        return A.InSelect(k[0], k[3], k[1], s)

    def in_table(self, k, s, e):
        expr, neg, n1, n2, args = k
        name, schema = (n2, n1) if n2 is not None else (n1, None)
        return A.InTable(expr, name, schema, args, neg, s)

    def subquery(self, k, s, e):
        return A.Subquery(k[1], s)

    def exists(self, k, s, e):
        return A.Exists(k[2], s)

    def case(self, k, s, e):
        return A.Case(k[1], k[2], k[3], s)

    def case1(self, k, s, e):
        return [(k[1], k[3])]

    def case_append(self, k, s, e):
        k[0].append((k[2], k[4]))
        return k[0]

    def raise_ignore(self, k, s, e):
        return A.Raise("IGNORE", None, s)

    def raise_(self, k, s, e):
        return A.Raise(k[2].upper(), A.Literal(str(k[4]), s), s)

    def null(self, k, s, e):
        return A.Literal(None, s)

    def float_(self, k, s, e):
        return A.Literal(float_value(k[0]), s)

    def blob(self, k, s, e):
        return A.Literal(k[0], s)

    def string(self, k, s, e):
        return A.Literal(k[0], s)

    def integer(self, k, s, e):
        v = integer_value(k[0])
        if v is None:  # SQLite reports this when it codes the literal, not while parsing
            v = int(k[0], 16)
        return A.Literal(v, s)

    def ctime(self, k, s, e):
        return A.CurrentTime(k[0].upper(), s)

    def num(self, k, s, e):
        return k[0]

    def num_plus(self, k, s, e):
        return "+" + k[1]

    def num_minus(self, k, s, e):
        return "-" + k[1]

    # windows
    def windowdefn(self, k, s, e):
        return (str(k[0]), k[3])

    def window_partition(self, k, s, e):
        return A.WindowDef(None, k[2], k[3] or [], k[4])

    def window_base_partition(self, k, s, e):
        return A.WindowDef(str(k[0]), k[3], k[4] or [], k[5])

    def window_order(self, k, s, e):
        return A.WindowDef(None, [], k[2], k[3])

    def window_base_order(self, k, s, e):
        return A.WindowDef(str(k[0]), [], k[3], k[4])

    def window_frame(self, k, s, e):
        return A.WindowDef(None, [], [], k[0])

    def window_base_frame(self, k, s, e):
        return A.WindowDef(str(k[0]), [], [], k[1])

    def frame(self, k, s, e):
        self._check_bounds(k[1].kind, "CURRENT ROW")
        return A.Frame(k[0], k[1], None, k[2])

    def frame_between(self, k, s, e):
        self._check_bounds(k[2].kind, k[4].kind)
        return A.Frame(k[0], k[2], k[4], k[5])

    def _check_bounds(self, start, end):
        """A frame may not end before it starts (SQLite's sqlite3WindowAlloc, as it
        parses)."""
        start, end = start.upper(), end.upper()
        if start == "CURRENT ROW" and end == "PRECEDING" or \
                start == "FOLLOWING" and end in ("PRECEDING", "CURRENT ROW"):
            self.fail("unsupported frame specification")

    def bound_unbounded(self, k, s, e):
        return A.FrameBound(_upper_words(k))

    def bound_expr(self, k, s, e):
        return A.FrameBound(k[1].upper(), k[0])

    def bound_current(self, k, s, e):
        return A.FrameBound("CURRENT ROW")

    def filter_over(self, k, s, e):
        return (k[0], k[1])

    def over_only(self, k, s, e):
        return (None, k[0])

    def filter_only(self, k, s, e):
        return (k[0], None)

    def over_name(self, k, s, e):
        return str(k[1])

    # ---------------------------------------------------------------- administration
    def vacuum(self, k, s, e):
        return A.Vacuum(None, k[1], s)

    def vacuum_schema(self, k, s, e):
        return A.Vacuum(str(k[1]), k[2], s)

    def pragma(self, k, s, e):
        name, schema = (k[2], k[1]) if k[2] is not None else (k[1], None)
        return A.Pragma(name, schema, None, s)

    def pragma_eq(self, k, s, e):
        node = self.pragma(k, s, e)
        node.value = self.pragma_value(k[4], s)
        return node

    pragma_call = pragma_eq

    def pragma_value(self, value, s):
        if isinstance(value, str):
            text = value.lstrip("+-")
            num = float_value(text) if ("." in text or "e" in text.lower()) and text[:2].lower() != "0x" else integer_value(text)
            return A.Literal(-num if value.startswith("-") else num, s)
        return value

    def nmnum_name(self, k, s, e):
        if self.sql[self.base + s] == "'":
            return A.Literal(str(k[0]), s)
        return A.Column(str(k[0]), pos=s)

    def plus_num(self, k, s, e):
        return k[0]

    def reindex(self, k, s, e):
        return A.Reindex(None, None, s)

    def reindex_name(self, k, s, e):
        name, schema = (k[2], k[1]) if k[2] is not None else (k[1], None)
        return A.Reindex(name, schema, s)

    def analyze(self, k, s, e):
        return A.Analyze(None, None, s)

    def analyze_name(self, k, s, e):
        name, schema = (k[2], k[1]) if k[2] is not None else (k[1], None)
        return A.Analyze(name, schema, s)

    def attach(self, k, s, e):
        return A.Attach(k[2], k[4], k[5], s)

    def detach(self, k, s, e):
        expr = k[2]
        if isinstance(expr, A.Column) and expr.table is None:
            schema = expr.name
        elif isinstance(expr, A.Literal) and isinstance(expr.value, str):
            schema = expr.value
        else:
            schema = ""
        return A.Detach(schema, s, expr)

    def alter_rename(self, k, s, e):
        schema, name = k[2]
        return A.AlterTable(name, "RENAME TABLE", schema, new_name=k[5], pos=s)

    def add_column_fullname(self, k, s, e):
        # The column checks of CREATE TABLE apply to the added column too (SQLite parses
        # it into a copy of the table; its other columns are the compiler's business).
        self.new_table = _NewTable(str(k[0][1]))
        self.new_table.has_pk = None  # unknown: "more than one primary key" not judged
        return k[0]

    def alter_add(self, k, s, e):
        schema, name = k[2]
        col = k[5]
        col.constraints = _column_constraints(self, k[6], col.name)
        return A.AlterTable(name, "ADD COLUMN", schema, column_def=col, pos=s)

    def alter_drop(self, k, s, e):
        schema, name = k[2]
        return A.AlterTable(name, "DROP COLUMN", schema, column=k[5], pos=s)

    def alter_rename_column(self, k, s, e):
        schema, name = k[2]
        return A.AlterTable(name, "RENAME COLUMN", schema, new_name=k[7], column=k[5], pos=s)

    # ---------------------------------------------------------------- triggers
    def create_trigger(self, k, s, e):
        node = k[1]
        node.body = k[3]
        node.pos = s
        return node

    def trigger_decl(self, k, s, e):
        name, schema = (k[4], k[3]) if k[4] is not None else (k[3], None)
        if k[0] and schema is not None:
            self.fail("temporary trigger may not have qualified name")
        event, cols = k[6]
        tschema, table = k[8]
        if tschema is not None and schema is None:
            schema = tschema
        return A.CreateTrigger(name, table, k[5], event, [], cols, schema, bool(k[0]),
                               bool(k[2]), bool(k[9]), k[10])

    def trigger_time_default(self, k, s, e):
        return "BEFORE"

    def trigger_event(self, k, s, e):
        return (k[0].upper(), None)

    def trigger_event_of(self, k, s, e):
        return ("UPDATE", k[2])

    def trnm_qualified(self, k, s, e):
        self.fail("qualified table names are not allowed on INSERT, UPDATE, "
                  "and DELETE statements within triggers")
        return k[2]

    def tridxby_indexed(self, k, s, e):
        self.fail("the INDEXED BY clause is not allowed on UPDATE or DELETE "
                  "statements within triggers")

    def tridxby_not(self, k, s, e):
        self.fail("the NOT INDEXED clause is not allowed on UPDATE or DELETE "
                  "statements within triggers")

    def trigger_update(self, k, s, e):
        _u, orconf, name, _idx, _set, sets, from_, where = k
        return A.Update(A.TableRef(name), sets, orconf.upper() if orconf else None, from_,
                        where, pos=s)

    def trigger_insert(self, k, s, e):
        orconf, _into, name, cols, sel, (upserts, ret) = k
        return A.Insert(name, sel, None, None, cols, orconf.upper() if orconf else None,
                        upserts, ret, pos=s)

    def trigger_delete(self, k, s, e):
        return A.Delete(A.TableRef(k[2]), k[4], pos=s)

    # ---------------------------------------------------------------- virtual tables
    def create_vtab(self, k, s, e):
        name, schema = (k[5], k[4]) if k[5] is not None else (k[4], None)
        return A.CreateVirtualTable(name, str(k[7]), [], schema, bool(k[3]), s)

    def create_vtab_noargs(self, k, s, e):
        return k[0]

    def create_vtab_args(self, k, s, e):
        node = k[0]
        node.args = [a for a in k[2] if a is not None]
        return node

    def vtabarg_empty(self, k, s, e):
        return None

    def vtabarg(self, k, s, e):
        return self.sql[self.base + s:self.base + e]

    def vtabargtokens(self, k, s, e):
        return None

    vtabargtoken = anylist = vtabargtokens


# ------------------------------------------------------------------------ helpers


def _tail(order_by, lim):
    if order_by is None and lim is None:
        return None
    limit, offset = lim if lim else (None, None)
    return _Tail(order_by, limit, offset)


def _make_select(body_tail, with_, s):
    body, tail = body_tail[0], body_tail[1]
    if tail is None:
        return A.Select(body, with_, pos=s)
    return A.Select(body, with_, tail.order_by, tail.limit, tail.offset, s)


def _negate(operand, s, sql, base):
    """Unary minus; ``-9223372036854775808`` folds into the smallest 64-bit integer."""
    if (type(operand) is A.Literal and type(operand.value) is float
            and operand.value == 9223372036854775808.0 and operand.pos >= 0):
        i = operand.pos + base
        j = i
        while j < len(sql) and sql[j].isdigit():
            j += 1
        if sql[i:j].lstrip("0") == "9223372036854775808" and (j >= len(sql) or sql[j] not in ".eE"):
            return A.Literal(-(1 << 63), s)
    return A.Unary("-", operand, s)


def truth_test(op, left, right, s, sql, base):
    """``x IS [NOT] TRUE`` / ``x IS [NOT] FALSE`` (also written IS [NOT] DISTINCT FROM):
    SQLite's truth test (its TK_TRUTH), which takes x as a boolean, so ``2 IS TRUE`` is 1
    where ``2 IS 1`` is 0. Made the CASE that gives the same answers, NULL included:
    ``CASE WHEN x THEN 1 ELSE 0 END`` for IS TRUE, ``WHEN NOT x`` for IS FALSE, the two
    results swapped for IS NOT. ``right`` is such a keyword when it is the literal 1 or 0
    that the word TRUE or FALSE made (its text starts with that letter; a parenthesized
    one counts, as in SQLite; ``+TRUE`` does not). None when it is not: a plain IS. The
    CASE keeps (op, left, right) in ``truth``: the compiler makes it that IS again where a
    column of the word's name is visible (compiler/truefalse.py)."""
    if type(right) is not A.Literal or right.pos < 0 or type(right.value) is not int:
        return None
    value = right.value
    if value != 0 and value != 1:
        return None
    word = "true" if value else "false"
    at = base + right.pos
    if sql[at:at + len(word)].lower() != word:
        return None
    test = left if value else A.Unary("NOT", left, s)
    hit, miss = (1, 0) if op == "IS" else (0, 1)
    return A.Case(None, [(test, A.Literal(hit))], A.Literal(miss), s, (op, left, right))


def _apply_index(ref, idx):
    if idx is False:
        ref.not_indexed = True
    elif idx is not None:
        ref.indexed_by = idx


def _indexed_columns(terms):
    out = []
    for t in terms:
        expr = t.expr
        coll = None
        if type(expr) is A.Collate:
            coll = expr.collation
            expr = expr.expr
        out.append(A.IndexedColumn(expr, coll, t.desc))
    return out


def _foreign_key(table, cols, args):
    fk = A.ForeignKeyRef(str(table), [c.expr.name for c in cols] if cols is not None else None)
    for kind, value in args:
        if kind == "DELETE":
            fk.on_delete = value
        elif kind == "UPDATE":
            fk.on_update = value
        elif kind == "MATCH":
            fk.match = str(value)
    return fk


def _table_constraints(items):
    out = []
    name = None
    for it in items:
        if type(it) is tuple:
            name = str(it[1])
            continue
        it.name = name
        name = None
        out.append(it)
    return out


def _column_constraints(builder, items, column_name):
    """Assemble a column's constraint items: names go to the next constraint, a
    DEFERRABLE clause to the REFERENCES constraint before it."""
    out = []
    name = None
    for it in items:
        if type(it) is tuple:
            if it[0] == "NAME":
                name = str(it[1])
            elif it[0] == "DEFER":
                if out and out[-1].kind == "REFERENCES":
                    out[-1].foreign_key.deferred = it[1]
            continue
        it.name = name
        name = None
        out.append(it)
    return out
