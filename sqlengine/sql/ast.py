"""The abstract syntax tree of SQLite's SQL: small, typed dataclasses.

This module is the contract between the parser (``sql/parser.py``, which builds these
nodes directly in its reductions) and the compiler (``compiler/``, which reads them). It
holds no behaviour beyond construction: no resolution, no evaluation, no SQL rendering.

Conventions:
- Names (tables, columns, collations, functions) keep the spelling written, with the
  quotes removed; comparisons of names are the compiler's business (case-insensitive).
- Keyword-valued fields hold upper-case strings (``"LEFT"``, ``"ABORT"``).
- ``pos`` is the character offset of the node in the statement text (-1 when unknown).
- Operators are normalised: ``==`` becomes ``=``, ``<>`` becomes ``!=``, ``IS DISTINCT
  FROM`` becomes ``IS NOT``, ``IS NOT DISTINCT FROM`` becomes ``IS``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

# --------------------------------------------------------------------------------------
# Expressions
# --------------------------------------------------------------------------------------


@dataclass(slots=True)
class Literal:
    """A constant: None (NULL), int, float, str or bytes (X'..'). An unquoted TRUE/FALSE
    is 1/0 with ``word`` set: SQLite's TK_ID that becomes its TK_TRUEFALSE only when no
    column of that name is visible (the compiler then makes it a Column,
    compiler/truefalse.py), and which is never an ORDER BY or GROUP BY column number.
    A hex integer too large for 64 bits keeps its exact value (>= 2**64): SQLite reports
    ``hex literal too big: <text as written>`` when it codes it, not while parsing."""

    value: object
    pos: int = -1
    word: bool = field(default=False, compare=False, repr=False)


@dataclass(slots=True)
class CurrentTime:
    """CURRENT_TIME, CURRENT_DATE or CURRENT_TIMESTAMP (``kind`` is that keyword)."""

    kind: str
    pos: int = -1


class SchemaQualifier(str):
    """The table qualifier of a column written with its schema (``main.t.a``): its text is
    the table name as written, so comparisons of names read it as ``t``, while it formats
    (``str``, f-strings) as ``main.t``, SQLite's spelling in messages. ``schema`` is the
    schema name as written. Never equal to a plain string: a lookup keyed by it is not one
    of ``t.a`` (name lookup also checks the FROM item's database, ``_resolve.pyx``)."""

    def __new__(cls, table, schema):
        self = str.__new__(cls, table)
        self.schema = schema
        return self

    def __str__(self):
        return f"{self.schema}.{str.__str__(self)}"

    def __format__(self, spec):
        return format(str(self), spec)

    def __repr__(self):
        return f"SchemaQualifier({str.__repr__(self)}, {self.schema!r})"

    def __eq__(self, other):
        return (type(other) is SchemaQualifier and str.__eq__(self, other)
                and self.schema == other.schema)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((str.__str__(self), self.schema))

    def __reduce__(self):
        return (SchemaQualifier, (str.__str__(self), self.schema))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


@dataclass(slots=True)
class Column:
    """A column reference ``[schema.][table.]name``; also a bare identifier that may turn
    out to be a string literal (SQLite's double-quoted-string fallback, decided by the
    compiler when ``quoted`` is True and no column matches). With a schema, ``table`` is a
    SchemaQualifier."""

    name: str
    table: str | None = None
    schema: str | None = None
    quoted: bool = False
    pos: int = -1


@dataclass(slots=True)
class Param:
    """A bound parameter, ``text`` as written: ``?``, ``?7``, ``:name``, ``@name``, ``$name``.
    The compiler assigns parameter numbers as SQLite does."""

    text: str
    pos: int = -1


@dataclass(slots=True)
class Unary:
    """``op`` is one of ``-``, ``+``, ``~``, ``NOT``."""

    op: str
    operand: Expr
    pos: int = -1


@dataclass(slots=True)
class Binary:
    """``op`` is one of ``||``, ``->``, ``->>``, ``*``, ``/``, ``%``, ``+``, ``-``, ``<<``,
    ``>>``, ``&``, ``|``, ``<``, ``<=``, ``>``, ``>=``, ``=``, ``!=``, ``IS``, ``IS NOT``,
    ``AND``, ``OR``."""

    op: str
    left: Expr
    right: Expr
    pos: int = -1


@dataclass(slots=True)
class Like:
    """``left [NOT] op right [ESCAPE escape]``; ``op`` is LIKE, GLOB, REGEXP or MATCH."""

    op: str
    left: Expr
    right: Expr
    escape: Expr | None = None
    negated: bool = False
    pos: int = -1


@dataclass(slots=True)
class Between:
    expr: Expr
    low: Expr
    high: Expr
    negated: bool = False
    pos: int = -1


@dataclass(slots=True)
class InList:
    """``expr [NOT] IN (items...)``; ``items`` is never empty: like SQLite, the parser
    turns ``x IN ()`` into ``Literal(0)`` and ``x NOT IN ()`` into ``Literal(1)``."""

    expr: Expr
    items: list[Expr]
    negated: bool = False
    pos: int = -1


@dataclass(slots=True)
class InSelect:
    """``expr [NOT] IN (select)``. ``expr`` may be a ``RowValue``."""

    expr: Expr
    select: Select
    negated: bool = False
    pos: int = -1


@dataclass(slots=True)
class InTable:
    """``expr [NOT] IN [schema.]name[(args)]`` — a table or table-valued function."""

    expr: Expr
    name: str
    schema: str | None = None
    args: list[Expr] | None = None
    negated: bool = False
    pos: int = -1


@dataclass(slots=True)
class Exists:
    """``EXISTS (select)``; ``NOT EXISTS`` is ``Unary("NOT", Exists(...))``."""

    select: Select
    pos: int = -1


@dataclass(slots=True)
class Subquery:
    """A scalar subquery ``(select)``."""

    select: Select
    pos: int = -1


@dataclass(slots=True)
class RowValue:
    """A parenthesised list of two or more expressions ``(a, b, ...)``."""

    items: list[Expr]
    pos: int = -1


@dataclass(slots=True)
class IsNull:
    """``expr ISNULL`` / ``expr IS NULL`` is *not* this node (that is Binary IS Literal);
    this is the postfix forms ``ISNULL``, ``NOTNULL`` and ``NOT NULL``."""

    expr: Expr
    negated: bool = False
    pos: int = -1


@dataclass(slots=True)
class Case:
    """``CASE [operand] WHEN w THEN t ... [ELSE e] END``. The CASE the parser makes of
    ``x IS [NOT] TRUE/FALSE`` (builder.truth_test) keeps that comparison in ``truth``
    (op, x, the word's Literal): it is a plain IS where a column of the word's name is
    visible (compiler/truefalse.py)."""

    operand: Expr | None
    whens: list[tuple[Expr, Expr]]
    else_: Expr | None = None
    pos: int = -1
    truth: tuple | None = field(default=None, compare=False, repr=False)


@dataclass(slots=True)
class Cast:
    """``CAST(expr AS type_name)``; ``type_name`` is the source text of the type from its
    first to its last token, as SQLite keeps it (``"VARCHAR(10)"``, ``"unsigned  big
    int"``, any ``(n[, m])`` suffix included); may be empty string."""

    expr: Expr
    type_name: str
    pos: int = -1


@dataclass(slots=True)
class Collate:
    """``expr COLLATE collation``. ``implicit``: a COLLATE the flattener wraps around a
    copy of a subquery's column (compiler/flatsubst.py; SQLite's substExpr adds it and
    clears its EP_Collate): it gives ``expr`` the column's collation where the copy's own
    collation is asked for, as a column's is, but is no explicit COLLATE (it takes no
    precedence in a comparison, and an expression above it carries none)."""

    expr: Expr
    collation: str
    pos: int = -1
    implicit: bool = False


@dataclass(slots=True)
class Raise:
    """``RAISE(IGNORE)`` or ``RAISE(ROLLBACK|ABORT|FAIL, message)`` inside a trigger."""

    action: str
    message: Expr | None = None
    pos: int = -1


@dataclass(slots=True)
class FrameBound:
    """``kind`` is ``UNBOUNDED PRECEDING``, ``PRECEDING``, ``CURRENT ROW``, ``FOLLOWING``
    or ``UNBOUNDED FOLLOWING``; ``offset`` is set for PRECEDING/FOLLOWING."""

    kind: str
    offset: Expr | None = None


@dataclass(slots=True)
class Frame:
    """``units`` is ROWS, RANGE or GROUPS; ``exclude`` is None, ``NO OTHERS``,
    ``CURRENT ROW``, ``GROUP`` or ``TIES``."""

    units: str
    start: FrameBound
    end: FrameBound | None = None
    exclude: str | None = None


@dataclass(slots=True)
class WindowDef:
    """A window specification; ``base`` names another window it extends."""

    base: str | None = None
    partition_by: list[Expr] = field(default_factory=list)
    order_by: list[OrderingTerm] = field(default_factory=list)
    frame: Frame | None = None


@dataclass(slots=True)
class FunctionCall:
    """``name([DISTINCT] args...) [FILTER (WHERE filter)] [OVER over]``.
    ``star`` is True for ``count(*)``. ``over`` is a WindowDef or the name of a window.
    ``order_by`` holds an aggregate's own ORDER BY (``group_concat(x ORDER BY y)``)."""

    name: str
    args: list[Expr] = field(default_factory=list)
    distinct: bool = False
    star: bool = False
    filter: Expr | None = None
    over: WindowDef | str | None = None
    order_by: list[OrderingTerm] | None = None
    pos: int = -1


Expr = Union[
    Literal, CurrentTime, Column, Param, Unary, Binary, Like, Between, InList, InSelect,
    InTable, Exists, Subquery, RowValue, IsNull, Case, Cast, Collate, Raise, FunctionCall,
]

# --------------------------------------------------------------------------------------
# SELECT
# --------------------------------------------------------------------------------------


@dataclass(slots=True)
class OrderingTerm:
    """``expr [COLLATE c] [ASC|DESC] [NULLS FIRST|LAST]`` (COLLATE stays inside expr).
    ``nulls`` is None, ``FIRST`` or ``LAST``."""

    expr: Expr
    desc: bool = False
    nulls: str | None = None


@dataclass(slots=True)
class Star:
    """``*`` or ``table.*`` in a result column list. ``nested``: the ``*`` of the subquery
    a parenthesized join stands for (SQLite's SF_NestedFrom; see compiler/nestedfrom.py)."""

    table: str | None = None
    pos: int = -1
    nested: bool = False


@dataclass(slots=True)
class ResultColumn:
    """``expr [[AS] alias]``; ``text`` is the expression exactly as written in the source
    (SQLite uses it as the column name when there is no alias)."""

    expr: Expr
    alias: str | None = None
    text: str = ""


@dataclass(slots=True)
class TableRef:
    """``[schema.]name [[AS] alias] [INDEXED BY idx | NOT INDEXED]`` in FROM."""

    name: str
    schema: str | None = None
    alias: str | None = None
    indexed_by: str | None = None
    not_indexed: bool = False
    pos: int = -1


@dataclass(slots=True)
class TableFunctionRef:
    """A table-valued function in FROM: ``name(args) [AS alias]``."""

    name: str
    args: list[Expr]
    schema: str | None = None
    alias: str | None = None
    pos: int = -1


@dataclass(slots=True)
class SubqueryRef:
    """``(select) [[AS] alias]`` in FROM."""

    select: Select
    alias: str | None = None
    pos: int = -1


@dataclass(slots=True)
class Join:
    """``left <kind> JOIN right [ON on | USING (using)]``. ``kind`` is ``,`` (comma),
    ``INNER``, ``CROSS``, ``LEFT``, ``RIGHT`` or ``FULL``; ``natural`` marks NATURAL."""

    left: FromItem
    right: FromItem
    kind: str = "INNER"
    natural: bool = False
    on: Expr | None = None
    using: list[str] | None = None
    pos: int = -1


FromItem = Union[TableRef, TableFunctionRef, SubqueryRef, Join]


# Bits of ``SelectCore.features``: the kinds of node the parser had built in the statement
# when it finished reading a SELECT core. Read as "may be present": a bit that is clear
# means no such node is anywhere in that core (nor in its subqueries), so the compiler can
# skip looking for one; a bit that is set means nothing (the node may be elsewhere in the
# statement). FEATURES_UNKNOWN, the default of a core built by hand, has every bit set.
FEAT_WINDOW = 1      # a function call with an OVER clause (a window function call)
FEAT_FUNCTION = 2    # any function call, window or aggregate or scalar (count(*) too)
FEAT_COLLATE = 4     # a COLLATE clause in an expression (``x COLLATE nocase``)
FEATURES_UNKNOWN = -1


@dataclass(slots=True)
class SelectCore:
    """One ``SELECT ... FROM ... WHERE ... GROUP BY ... HAVING ... WINDOW ...``.
    ``windows`` maps window names to definitions, in order. ``features`` is a bit set of
    ``FEAT_*`` (see above) the parser fills in; it is not part of the node's value (it
    takes no part in ``==`` or ``repr``)."""

    columns: list[ResultColumn | Star]
    distinct: bool = False
    from_: FromItem | None = None
    where: Expr | None = None
    group_by: list[Expr] | None = None
    having: Expr | None = None
    windows: list[tuple[str, WindowDef]] | None = None
    pos: int = -1
    features: int = field(default=FEATURES_UNKNOWN, compare=False, repr=False)
    # the result columns whose AS names the clauses see, when they are not ``columns``
    # (the inner query a window rewrite makes: compiler/window.py, compiler/alias.py);
    # a list of ResultColumn and Star, or None; typed ``object`` so that walks skip it
    alias_columns: object = field(default=None, compare=False, repr=False)


@dataclass(slots=True)
class Values:
    """``VALUES (..), (..)`` as a select body."""

    rows: list[list[Expr]]
    pos: int = -1


@dataclass(slots=True)
class Compound:
    """``left op right``; ``op`` is UNION, UNION ALL, INTERSECT or EXCEPT. Left-deep:
    ``a UNION b EXCEPT c`` is ``Compound(Compound(a, UNION, b), EXCEPT, c)``."""

    left: SelectBody
    op: str
    right: SelectCore | Values


SelectBody = Union[SelectCore, Values, Compound]


@dataclass(slots=True)
class CommonTableExpr:
    """``name [(columns)] AS [[NOT] MATERIALIZED] (select)``; ``materialized`` is None,
    True (MATERIALIZED) or False (NOT MATERIALIZED)."""

    name: str
    select: Select
    columns: list[str] | None = None
    materialized: bool | None = None


@dataclass(slots=True)
class With:
    ctes: list[CommonTableExpr]
    recursive: bool = False


@dataclass(slots=True)
class Select:
    """A whole SELECT statement (also used for subqueries)."""

    body: SelectBody
    with_: With | None = None
    order_by: list[OrderingTerm] | None = None
    limit: Expr | None = None
    offset: Expr | None = None
    pos: int = -1


# --------------------------------------------------------------------------------------
# INSERT / UPDATE / DELETE
# --------------------------------------------------------------------------------------


@dataclass(slots=True)
class IndexedColumn:
    """An index or constraint column: ``expr [COLLATE c] [ASC|DESC]``. For a plain name,
    ``expr`` is a ``Column``."""

    expr: Expr
    collation: str | None = None
    desc: bool = False


@dataclass(slots=True)
class SetClause:
    """``column = expr`` or ``(c1, c2) = row-expr`` in UPDATE or UPSERT; ``vector`` marks
    ``(c1, ...) = (select)``, whose columns the subquery's row gives (even one column)."""

    columns: list[str]
    expr: Expr
    vector: bool = False


@dataclass(slots=True)
class Upsert:
    """``ON CONFLICT [(target) [WHERE target_where]] DO NOTHING | DO UPDATE SET ... [WHERE]``.
    ``sets`` is None for DO NOTHING."""

    target: list[IndexedColumn] | None = None
    target_where: Expr | None = None
    sets: list[SetClause] | None = None
    where: Expr | None = None


@dataclass(slots=True)
class ReturningItem:
    """One item of a RETURNING clause: a ResultColumn or a Star."""

    column: ResultColumn | Star


@dataclass(slots=True)
class Insert:
    """``[WITH] INSERT [OR action] INTO [schema.]table [AS alias] [(columns)]
    (VALUES ... | select | DEFAULT VALUES) [upsert...] [RETURNING ...]``.
    ``or_action`` is None, ROLLBACK, ABORT, REPLACE, FAIL or IGNORE (REPLACE INTO sets
    REPLACE). ``source`` is None for DEFAULT VALUES; a VALUES list is a Select whose body
    is Values."""

    table: str
    source: Select | None
    schema: str | None = None
    alias: str | None = None
    columns: list[str] | None = None
    or_action: str | None = None
    upserts: list[Upsert] = field(default_factory=list)
    returning: list[ResultColumn | Star] | None = None
    with_: With | None = None
    pos: int = -1


@dataclass(slots=True)
class Update:
    table: TableRef
    sets: list[SetClause]
    or_action: str | None = None
    from_: FromItem | None = None
    where: Expr | None = None
    returning: list[ResultColumn | Star] | None = None
    order_by: list[OrderingTerm] | None = None
    limit: Expr | None = None
    offset: Expr | None = None
    with_: With | None = None
    pos: int = -1


@dataclass(slots=True)
class Delete:
    table: TableRef
    where: Expr | None = None
    returning: list[ResultColumn | Star] | None = None
    order_by: list[OrderingTerm] | None = None
    limit: Expr | None = None
    offset: Expr | None = None
    with_: With | None = None
    pos: int = -1


# --------------------------------------------------------------------------------------
# CREATE / DROP / ALTER
# --------------------------------------------------------------------------------------


@dataclass(slots=True)
class ForeignKeyRef:
    """``REFERENCES table [(columns)] [ON DELETE a] [ON UPDATE a] [MATCH m]
    [[NOT] DEFERRABLE [INITIALLY DEFERRED|IMMEDIATE]]``. Actions are SET NULL,
    SET DEFAULT, CASCADE, RESTRICT or NO ACTION; ``deferred`` is True only for
    DEFERRABLE INITIALLY DEFERRED."""

    table: str
    columns: list[str] | None = None
    on_delete: str | None = None
    on_update: str | None = None
    match: str | None = None
    deferred: bool = False


@dataclass(slots=True)
class ColumnConstraint:
    """One column constraint. ``kind`` is PRIMARY KEY, NOT NULL, NULL, UNIQUE, CHECK,
    DEFAULT, COLLATE, REFERENCES or GENERATED. Fields used per kind:
    PRIMARY KEY: desc, conflict, autoincrement; NOT NULL / UNIQUE: conflict;
    CHECK / DEFAULT / GENERATED: expr (GENERATED: stored); COLLATE: collation;
    REFERENCES: foreign_key. ``name`` is the CONSTRAINT name if given."""

    kind: str
    name: str | None = None
    expr: Expr | None = None
    conflict: str | None = None
    desc: bool = False
    autoincrement: bool = False
    collation: str | None = None
    foreign_key: ForeignKeyRef | None = None
    stored: bool = False


@dataclass(slots=True)
class ColumnDef:
    """``name [type] [constraints]``; ``type_name`` is the type's source text from its
    first to its last token, as SQLite stores it (what ``PRAGMA table_info`` shows),
    None when absent."""

    name: str
    type_name: str | None = None
    constraints: list[ColumnConstraint] = field(default_factory=list)


@dataclass(slots=True)
class TableConstraint:
    """``kind`` is PRIMARY KEY, UNIQUE, CHECK or FOREIGN KEY. PRIMARY KEY / UNIQUE:
    columns, conflict (and autoincrement is never here); CHECK: expr; FOREIGN KEY:
    fk_columns and foreign_key."""

    kind: str
    name: str | None = None
    columns: list[IndexedColumn] | None = None
    conflict: str | None = None
    expr: Expr | None = None
    fk_columns: list[str] | None = None
    foreign_key: ForeignKeyRef | None = None


@dataclass(slots=True)
class CreateTable:
    name: str
    columns: list[ColumnDef] = field(default_factory=list)
    constraints: list[TableConstraint] = field(default_factory=list)
    schema: str | None = None
    temp: bool = False
    if_not_exists: bool = False
    as_select: Select | None = None
    without_rowid: bool = False
    strict: bool = False
    pos: int = -1


@dataclass(slots=True)
class CreateIndex:
    name: str
    table: str
    columns: list[IndexedColumn]
    schema: str | None = None
    unique: bool = False
    if_not_exists: bool = False
    where: Expr | None = None
    pos: int = -1


@dataclass(slots=True)
class CreateView:
    name: str
    select: Select
    columns: list[str] | None = None
    schema: str | None = None
    temp: bool = False
    if_not_exists: bool = False
    pos: int = -1


@dataclass(slots=True)
class CreateTrigger:
    """``timing`` is BEFORE, AFTER or INSTEAD OF (BEFORE when not written, as in SQLite);
    ``event`` is INSERT, DELETE or UPDATE; ``update_columns`` is set
    for ``UPDATE OF c1, c2``; ``body`` holds Insert/Update/Delete/Select statements."""

    name: str
    table: str
    timing: str
    event: str
    body: list[Statement]
    update_columns: list[str] | None = None
    schema: str | None = None
    temp: bool = False
    if_not_exists: bool = False
    for_each_row: bool = False
    when: Expr | None = None
    pos: int = -1


@dataclass(slots=True)
class CreateVirtualTable:
    name: str
    module: str
    args: list[str] = field(default_factory=list)
    schema: str | None = None
    if_not_exists: bool = False
    pos: int = -1


@dataclass(slots=True)
class Drop:
    """``DROP TABLE|INDEX|VIEW|TRIGGER [IF EXISTS] [schema.]name``."""

    kind: str
    name: str
    schema: str | None = None
    if_exists: bool = False
    pos: int = -1


@dataclass(slots=True)
class AlterTable:
    """``action`` is RENAME TABLE (new_name), RENAME COLUMN (column, new_name),
    ADD COLUMN (column_def) or DROP COLUMN (column)."""

    table: str
    action: str
    schema: str | None = None
    new_name: str | None = None
    column: str | None = None
    column_def: ColumnDef | None = None
    pos: int = -1


# --------------------------------------------------------------------------------------
# Transactions and administration
# --------------------------------------------------------------------------------------


@dataclass(slots=True)
class Begin:
    """``mode`` is None, DEFERRED, IMMEDIATE or EXCLUSIVE."""

    mode: str | None = None
    pos: int = -1


@dataclass(slots=True)
class Commit:
    pos: int = -1


@dataclass(slots=True)
class Rollback:
    """``ROLLBACK [TO [SAVEPOINT] name]``."""

    savepoint: str | None = None
    pos: int = -1


@dataclass(slots=True)
class Savepoint:
    name: str
    pos: int = -1


@dataclass(slots=True)
class Release:
    name: str
    pos: int = -1


@dataclass(slots=True)
class Pragma:
    """``PRAGMA [schema.]name [= value | (value)]``; ``value`` is an Expr (a bare word
    such as ``ON`` or ``WAL`` arrives as a Column with that name), None when absent."""

    name: str
    schema: str | None = None
    value: Expr | None = None
    pos: int = -1


@dataclass(slots=True)
class Attach:
    expr: Expr
    schema_expr: Expr
    key: Expr | None = None
    pos: int = -1


@dataclass(slots=True)
class Detach:
    """``DETACH [DATABASE] expr``. ``schema`` is the name when ``expr`` is a bare name or
    a string, else ""; ``expr`` is the expression as written (added by the parser)."""

    schema: str
    pos: int = -1
    expr: Expr | None = None


@dataclass(slots=True)
class Analyze:
    name: str | None = None
    schema: str | None = None
    pos: int = -1


@dataclass(slots=True)
class Vacuum:
    schema: str | None = None
    into: Expr | None = None
    pos: int = -1


@dataclass(slots=True)
class Reindex:
    name: str | None = None
    schema: str | None = None
    pos: int = -1


@dataclass(slots=True)
class Explain:
    statement: Statement
    query_plan: bool = False
    pos: int = -1


Statement = Union[
    Select, Insert, Update, Delete, CreateTable, CreateIndex, CreateView, CreateTrigger,
    CreateVirtualTable, Drop, AlterTable, Begin, Commit, Rollback, Savepoint, Release,
    Pragma, Attach, Detach, Analyze, Vacuum, Reindex, Explain,
]
