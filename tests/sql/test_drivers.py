"""The compiled driver (_parser.pyx) and the reference Python driver (parser.py) give the
same ASTs and the same errors."""

import gzip
import os
import random

import pytest
from .test_errors import MALFORMED
from .test_statements import ACCEPTED

from sqlengine.errors import OperationalError
from sqlengine.sql import parser

CORPUS = "/work/shared/sqllogictest/test"


def outcome(fn, sql):
    try:
        return fn(sql)
    except OperationalError as e:
        return ("error", str(e))


def corpus_sample(count=400, seed=1):
    rng = random.Random(seed)
    paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(CORPUS) for f in fs if f.endswith(".gz"))
    out = []
    for path in rng.sample(paths, 8):
        with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
            records = f.read().split("\n\n")
        for rec in rng.sample(records, min(len(records), count // 8)):
            lines = [ln for ln in rec.splitlines() if ln and not ln.startswith(("#", "skipif", "onlyif"))]
            if lines and lines[0].startswith(("statement", "query")):
                body = []
                for ln in lines[1:]:
                    if ln == "----":
                        break
                    body.append(ln)
                out.append("\n".join(body))
    return out


SQL = MALFORMED + ACCEPTED + [
    "SELECT 1; SELECT 2", "  ;; SELECT x'00' ", "SELECT 'a''b', \"c\"\"d\", [e], `f`",
    "SELECT ?, ?3, :a, @b, $c::d(e)", "SELECT -9223372036854775808, 0xffffffffffffffff",
    "CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END; SELECT 3",
    # (reductions the compiled driver does itself: FROM lists, ORDER BY, LIMIT, IS, IN, BETWEEN)
    "SELECT a FROM t1 AS x, t2 JOIN s.t3 y ON x.a = y.b LEFT JOIN t4 USING (c) NATURAL JOIN t5"
    " ORDER BY 1 DESC NULLS LAST, b ASC, c NULLS FIRST LIMIT 3 OFFSET 2",
    "SELECT x FROM t WHERE x BETWEEN 1 AND 2 AND y NOT BETWEEN 3 AND 4 AND z IN (1, 2)"
    " AND w NOT IN () AND w IN () AND v IS NOT DISTINCT FROM 1 AND u IS DISTINCT FROM 2"
    " AND q IS NULL AND r IS NOT NULL AND s NOT IN (SELECT 1)",
    "SELECT 1 FROM t ON 1", "SELECT 1 FROM t USING (a)", "SELECT 1 FROM (t) ON 1",
    "SELECT 1 ORDER BY 1 LIMIT 1 UNION SELECT 2", "SELECT 1 LIMIT 2, 3", "SELECT 1 LIMIT 4",
    "VALUES (1), (2) ORDER BY 1 LIMIT 1", "SELECT 1 UNION SELECT 2 ORDER BY 1 LIMIT 1 OFFSET 1",
    "SELECT * FROM t1, t2 AS b, main.t3 c WHERE t1.a = b.a ORDER BY t1.a",
    "SELECT a FROM t ORDER BY a COLLATE nocase DESC", "SELECT 1 FROM t LEFT OUTER JOIN u",
    # (keyword and operator values the compiled driver keeps as strings; literals it reads)
    "select x from t where a and b or c order by x desc", "SELECT a FROM t ORDER BY a DESC",
    "SELECT 1 <> 2, 1 != 2, 1 == 2, 1 = 2, a -> b, a ->> b, a || b, 1 << 2 >> 3, 1 <= 2 >= 3",
    "SELECT a AnD b oR c, x aNd y Or z, 1 == 2 <> 3 % 4 & 5 | 6 / 7 * 8 - 9 + 0 < 1 > 2",
    # (integers where the compiled driver pushes no text for them, and where it does)
    "SELECT 123456789012345678, 1234567890123456789, 0x7, 0X7, 00000000000000000001, 5 IN"
    " (1, 2), +3, -4, ~5, (6) FROM t LIMIT 4 OFFSET 5",
    "CREATE TABLE t(a VARCHAR(10), b DECIMAL(+5, -3) DEFAULT 7, c DEFAULT +8, d DEFAULT -9)",
    "PRAGMA cache_size = 12", "PRAGMA cache_size(-12)", "PRAGMA cache_size = +0x10",
    "SELECT TRUE, false, True, tru, falsee, \"true\", 0x10, 0X7f, 123456789012345678,"
    " 1234567890123456789, 007, 1.5, 1e5, .5, 5., 1E-3",
    "SELECT count(*) OVER (PARTITION BY a) FROM t WINDOW w AS (ORDER BY b)",
    "SELECT window, over, filter FROM t WHERE window = 1 GROUP BY over",
    "SELECT *, t.a, \"t\".\"b\", x.* FROM t, u, v AS x WHERE a IN (SELECT 1) AND b NOT IN"
    " (SELECT 2) AND c IS NOT d AND EXISTS (SELECT 1) AND NOT EXISTS (SELECT 2) AND (SELECT 3)"
    " AND CASE a WHEN 1 THEN 2 WHEN 3 THEN 4 ELSE 5 END AND CASE WHEN a THEN b END",
    "DELETE FROM t WHERE a = 1", "INSERT INTO main.t AS x VALUES (1)", "UPDATE t SET a = 1",
    "SELECT CAST(a AS INT), CAST(b AS VARCHAR(10)), CAST(c AS unsigned  big int), CAST(d AS),"
    " CAST(1 + 2 AS REAL), CAST(CAST(e AS TEXT) AS \"x\" (+1, -2))",
    # (result-column texts kept (12 characters at most) or not, blanks after them cut)
    "SELECT abcdefghijkl , abcdefghijklm  , 1 + 2 + 3 + 4 , - x * 2 AS y, abcdefghijkl\t"
    " FROM t",
    # (join types of one upper-case word, and others; floats)
    "SELECT 1 FROM a LEFT JOIN b CROSS JOIN c INNER JOIN d NATURAL JOIN e RIGHT JOIN f FULL"
    " JOIN g left join i LEFT OUTER JOIN j NATURAL LEFT JOIN k", "SELECT 1 FROM a OUTER JOIN b",
    "SELECT 1.5, 0.0, .5e-3, 5., 1e999, 1E-999, 12345678901234567890.25, 3.14159265358979323",
    # (IS / IS NOT with a literal: the truth test only for the words TRUE and FALSE)
    "SELECT a IS 1, a IS 0, a IS NOT 1, a IS NOT 0, a IS 2, a IS 1.0, a IS '1', a IS NULL,"
    " a IS NOT NULL, a IS TRUE, a IS NOT (false), a IS +TRUE, a IS -1, a IS x'01'",
    # (the characters it reads in place in 1-, 2- and 4-byte texts: quotes, TRUE/FALSE
    # names, decimal and hex integers)
    *(f"SELECT true, False, [x{w}], \"{w}\", `t`, tru{w}, 123456789012345678, 0x1F, 7 <> 8"
      f" FROM {w}t WHERE {w} = 42" for w in ("e", "\u00e9", "\u0100", "\U0001f4a1")),
]


@pytest.mark.parametrize("sql", SQL + corpus_sample())
def test_same_result(sql):
    assert outcome(parser.parse_one, sql) == outcome(parser.python_parse_one, sql)


@pytest.mark.parametrize("sql", [
    "SELECT 1", "  \n ; ;", "", "/* x */", "-- y",
    # (blanks of every kind between tokens, before a comment, at the end, before an error)
    "SELECT\t1\n,\r2\x0b+\x0c3  FROM\n\n t \t", "SELECT 1 \t\n", "SELECT 1 ; \n ",
    "SELECT 1 \n-- c\n , 2 /* d */ FROM t  ;  SELECT 2", "SELECT 1 \t\n FROM", "SELECT 1 \n\t)",
    "SELECT (1 \n)  ORDER\tBY 1 \r\n", "SELECT \u00a0 1", "  SELECT  1  +  2  ;  ;  ",
])
def test_same_blank_handling(sql):
    assert outcome(parser.parse_one, sql) == outcome(parser.python_parse_one, sql)


@pytest.mark.slow
def test_corpus_sample_parses_like_sqlite():
    """Every 40th corpus script: no false reject, false accept or wrong message."""
    from sqlengine.sql import corpus_check
    assert corpus_check.main(["--every", "40"]) == 0


def test_compiled_driver_allocates_its_common_nodes_directly():
    """The compiled driver makes its commonest nodes (Literal, Binary, ..., TableRef, Join,
    OrderingTerm, the Parsed result: _parser.node_fields) by storing their slots (no
    dataclass __init__) only while their fields are the ones it knows; a field added to one
    of them must be added there too, or every statement pays for the slow path."""
    from sqlengine.sql import _parser
    assert _parser._check_fast_new()


def test_fast_allocation_only_for_classes_whose_call_only_stores():
    """The direct allocation stands for calling the class only when the call stores its
    arguments unchanged (_parser._init_only_stores, asked by _check_fast_new for every
    class of node_fields): a slotted dataclass with an __init__ of its own that converts
    a field, or with a __new__ of its own, is called as usual."""
    import dataclasses

    from sqlengine.sql import _parser
    from sqlengine.sql.builder import Builder

    @dataclasses.dataclass(slots=True)
    class Plain:
        a: object
        b: object

    @dataclasses.dataclass(slots=True)
    class Converts:
        a: object
        b: object

        def __init__(self, a, b):
            self.a = str(a)
            self.b = b

    @dataclasses.dataclass(slots=True)
    class OwnNew:
        a: object
        b: object

        def __new__(cls, *args):
            return super().__new__(cls)

    @dataclasses.dataclass(slots=True)
    class Defaults:
        a: object
        b: object = 0

    assert _parser._has_fields(Converts, ["a", "b"])  # (its fields alone do not tell)
    assert _parser._init_only_stores(Plain, ["a", "b"])
    assert not _parser._init_only_stores(Converts, ["a", "b"])
    assert not _parser._init_only_stores(OwnNew, ["a", "b"])
    assert _parser._init_only_stores(Defaults, ["a", "b"], (0,))
    assert not _parser._init_only_stores(Defaults, ["a", "b"], (None,))
    for cls, _, names in _parser.node_fields():
        tail = _parser._BUILDER_TAIL if cls is Builder else ()
        assert _parser._init_only_stores(cls, names, tail), cls


def test_compiled_driver_nodes_are_tracked_by_the_collector():
    """The nodes the compiled driver allocates itself (untracked, their slots stored, then
    tracked: _parser._alloc/_tracked) are tracked by the garbage collector, as the
    dataclasses' own instances are, and survive a collection intact."""
    import dataclasses
    import gc

    from sqlengine.sql import _parser
    sql = ("SELECT DISTINCT a, -b, +c, t.d, *, count(*), f(e, 1), CAST(g AS INT), 'h', NULL,"
           " 2.5, i BETWEEN 1 AND 2, j IN (1, 2), k IN (SELECT 1), EXISTS (SELECT 2),"
           " (SELECT 3), CASE WHEN l THEN 4 END, m IS n FROM t, u AS w JOIN v ON 1"
           " WHERE o = 5 ORDER BY 1 DESC LIMIT 6")
    fast = {cls for cls, _, _ in _parser.node_fields()}
    seen = set()

    def walk(node):
        if isinstance(node, (list, tuple)):
            for x in node:
                walk(x)
        elif dataclasses.is_dataclass(node):
            if type(node) in fast:
                assert gc.is_tracked(node), node
                seen.add(type(node).__name__)
            for f in dataclasses.fields(node):
                walk(getattr(node, f.name))

    parsed = parser.parse_one(sql)
    assert gc.is_tracked(parsed)
    gc.collect()
    walk(parsed.stmt)
    assert parsed == parser.python_parse_one(sql)
    assert len(seen) >= 15, seen


def test_compiled_driver_pushes_no_text_for_expression_integers():
    """An INTEGER shifted into a state that can only reduce it as a literal is pushed
    without its string (F_INTEGER reads the digits from the text): there is such a state,
    and the statements above with integers everywhere parse as in the reference driver."""
    from sqlengine.sql import _parser
    assert _parser.int_only_states()
    sql = ("SELECT DISTINCT - 1 + x AS c, count(*), f(DISTINCT y) FROM t, u AS v JOIN w"
           " WHERE +z AND a BETWEEN 1 AND 2 AND b IN (1) ORDER BY 1 DESC LIMIT 2")
    assert parser.python_parse_one(sql) == parser.parse_one(sql)


def test_kept_texts_never_stand_for_other_names():
    """The compiled driver keeps the texts of names and keywords it read (a table of 512,
    by a hash of the characters): over more names than slots, written in texts of each
    character width, each name, keyword case and result-column text comes out as written."""
    for i in range(3000):
        wide = "Ā" if i % 3 == 1 else ("😀" if i % 3 == 2 else "")
        name = f"n{i}{wide}"
        sql = f"select {name}, {name} + 1 as x{i % 7} From t{i % 5} where {name} = {i}"
        got = parser.parse_one(sql)
        assert got == parser.python_parse_one(sql)
        cols = got.stmt.body.columns
        assert cols[0].expr.name == name and cols[1].text == f"{name} + 1"


# The compiled driver stores each state's default reduction in its action table wherever
# neither the keyword fallback to ID nor the ANY wildcard applies; these reach all three
# (keywords as names after reductions, virtual-table arguments, inputs that end or break
# in states with and without a default) and a value stack deeper than its first 24 slots.
DEFAULTS_SQL = [
    "SELECT key, replace, abort, row, temp FROM temp WHERE row = key AND abort IN (replace)",
    "SELECT a.key FROM t AS key JOIN u AS row ON key.x = row.y ORDER BY key",
    "CREATE VIRTUAL TABLE v USING m(a b (c, d) SELECT ; e, ( ) 'x' 1.5, key)",
    "CREATE VIRTUAL TABLE v USING m(SELECT FROM WHERE, ORDER BY (GROUP (HAVING)))",
    "SELECT " + "(" * 40 + "1" + ")" * 40 + ", " + " + ".join(f"-(x{i} * {i})" for i in range(40)),
    "SELECT " + " AND ".join(f"a{i} IN (SELECT b FROM t WHERE c = {i})" for i in range(30)),
]


def _token_drops(sql):
    words = sql.split()
    return [" ".join(words[:i] + words[i + 1:]) for i in range(len(words))]


@pytest.mark.parametrize("sql", DEFAULTS_SQL + [
    s for base in DEFAULTS_SQL[:4] + ACCEPTED[:40] for s in _token_drops(base)])
def test_same_result_with_default_reductions(sql):
    assert outcome(parser.parse_one, sql) == outcome(parser.python_parse_one, sql)


def test_depth_measured_past_the_token_bound():
    """The compiled driver measures the expression depth of a long text (limits.
    MIN_TEXT_FOR_DEPTH characters or more) only when it has more than MAX_EXPR_DEPTH
    tokens (none of at most that many can be deeper): a long text of few tokens parses,
    one of more tokens is still measured and refused when too deep, as by parser.py."""
    from sqlengine.sql import limits
    n = limits.MAX_EXPR_DEPTH
    long_names = "SELECT " + " + ".join(f"column_with_a_long_name_{i}" for i in range(80))
    assert len(long_names) >= limits.MIN_TEXT_FOR_DEPTH
    deepest = "SELECT 1" + "+1" * (n - 1)  # (n levels: allowed)
    too_deep = "SELECT 1" + "+1" * n
    assert outcome(parser.parse_one, long_names) == outcome(parser.python_parse_one, long_names)

    def verdict(fn, sql):  # (the deep trees are not compared: too deep for ==)
        got = outcome(fn, sql)
        return got if type(got) is tuple else "parsed"
    for sql in (deepest, too_deep, too_deep + " FROM t", "SELECT (" * 30 + "1"
                + "+1" * (n - 30) + ")" * 30, "SELECT (" * 30 + "1" + "+1" * (n - 31)
                + ")" * 30):
        assert verdict(parser.parse_one, sql) == verdict(parser.python_parse_one, sql)
    assert verdict(parser.parse_one, deepest) == "parsed"
    assert verdict(parser.parse_one, too_deep) == (
        "error", f"Expression tree is too large (maximum depth {n})")


def _core_features(node, out):
    """The features of every SelectCore under ``node`` (a field left out of == and repr)."""
    import dataclasses

    from sqlengine.sql import ast
    if isinstance(node, (list, tuple)):
        for x in node:
            _core_features(x, out)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        if type(node) is ast.SelectCore:
            out.append(node.features)
        for f in dataclasses.fields(node):
            _core_features(getattr(node, f.name), out)
    return out


@pytest.mark.parametrize("sql", [
    "SELECT a COLLATE nocase, f(b) FROM t", "SELECT f(b), a COLLATE nocase FROM t",
    "SELECT count(*) OVER (), (SELECT x COLLATE binary), g(1)", "SELECT f(1) FILTER"
    " (WHERE 1) OVER w, (SELECT f(2)) FROM t WINDOW w AS ()", "SELECT (SELECT f(1)), a"
    " COLLATE nocase, (SELECT 2)", "SELECT 1 UNION SELECT f(2) COLLATE x UNION SELECT 3",
    "SELECT count(*), (SELECT 1 COLLATE nocase), g(2) FROM t GROUP BY 1",
])
def test_same_features(sql):
    """SelectCore.features (the node kinds built so far: functions, windows, COLLATE) is
    the same from both drivers, whichever of them builds which nodes (the compiled one
    makes its Builder only at the first reduction it leaves to it)."""
    fast = _core_features(parser.parse_one(sql), [])
    assert fast == _core_features(parser.python_parse_one(sql), [])
    assert any(fast)


def test_compiled_driver_releases_its_value_stack_on_every_exit():
    """The values the compiled driver holds on its stack (a C array of references) are
    released whether the parse succeeds or fails: by a syntax error deep in a statement,
    an unrecognized token, an error a Builder reduction records, a stack overflow."""
    import sys

    from sqlengine.errors import OperationalError
    texts = [
        "SELECT a, -b, f(c, 'x') FROM t AS u WHERE d IN (1, 2) AND e = 'y' ORDER BY 1",
        "SELECT a, -b, f(c, 'x') FROM t AS u WHERE d IN (1, 2) AND e = 'y' ORDER",
        "SELECT a, (b + 'c', d FROM t WHERE e = 'f' GROUP",
        "SELECT a, b FROM t WHERE c = 'd' AND e = 'f' !",
        "SELECT f(" + ", ".join(["'a'"] * 128) + ") FROM t",
        "SELECT " + "(" * 200 + "1" + ")" * 200,
        "SELECT a FROM t ON 1",
    ]

    def parse_all():
        failed = 0
        for sql in texts:
            try:
                parser.parse_one(sql)
            except OperationalError:
                failed += 1
        return failed

    assert parse_all() == len(texts) - 1
    before = sys.getallocatedblocks()
    for _ in range(300):
        parse_all()
    assert sys.getallocatedblocks() - before < 100
