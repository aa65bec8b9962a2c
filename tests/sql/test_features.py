"""``SelectCore.features``: the parser's record of the window calls, function calls and
COLLATE clauses it had built when it finished a SELECT core (ast.FEAT_*), the same from
both drivers, and never a clear bit for a node the core holds."""

import pytest

from sqlengine.sql import ast as A
from sqlengine.sql import parser
from sqlengine.compiler.walk import iter_children

from .test_drivers import SQL, corpus_sample


def cores(node, out):
    """Every SelectCore in the tree."""
    if isinstance(node, A.SelectCore):
        out.append(node)
    for c in iter_children(node):
        cores(c, out)
    return out


def kinds_inside(node, acc=0):
    """The FEAT_* bits of the nodes under ``node`` (subqueries included)."""
    if type(node) is A.FunctionCall:
        acc |= A.FEAT_FUNCTION
        if node.over is not None:
            acc |= A.FEAT_WINDOW
    elif type(node) is A.Collate:
        acc |= A.FEAT_COLLATE
    for c in iter_children(node):
        acc = kinds_inside(c, acc)
    return acc


@pytest.mark.parametrize("sql,bits", [
    ("SELECT 1 + 2 FROM t WHERE a > 3", 0),
    ("SELECT abs(a) FROM t", A.FEAT_FUNCTION),
    ("SELECT count(*) FROM t", A.FEAT_FUNCTION),
    ("SELECT a FROM t WHERE b COLLATE nocase = 'x'", A.FEAT_COLLATE),
    ("SELECT row_number() OVER (ORDER BY a) FROM t", A.FEAT_FUNCTION | A.FEAT_WINDOW),
    ("SELECT count(*) OVER w FROM t WINDOW w AS ()", A.FEAT_FUNCTION | A.FEAT_WINDOW),
    ("SELECT sum(a) FILTER (WHERE a > 1) FROM t", A.FEAT_FUNCTION),
    ("SELECT (SELECT max(x) OVER () FROM u) FROM t", A.FEAT_FUNCTION | A.FEAT_WINDOW),
])
def test_bits_of_the_outer_core(sql, bits):
    for parse in (parser.parse_one, parser.python_parse_one):
        assert parse(sql).stmt.body.features == bits


def test_a_core_holds_what_was_built_before_it_only():
    # the first arm ends before the second arm's function call is read
    stmt = parser.parse_one("SELECT a FROM t UNION SELECT max(a) FROM t").stmt
    assert stmt.body.left.features == 0
    assert stmt.body.right.features == A.FEAT_FUNCTION


def test_not_part_of_the_value():
    cols = [A.ResultColumn(A.Literal(1), None, "1")]
    known = A.SelectCore(list(cols), features=0)
    unknown = A.SelectCore(list(cols))
    assert known == unknown
    assert repr(known) == repr(unknown)


def test_default_is_unknown():
    core = A.SelectCore([A.Star()])
    assert core.features == A.FEATURES_UNKNOWN
    assert core.features & A.FEAT_WINDOW and core.features & A.FEAT_COLLATE


@pytest.mark.parametrize("sql", SQL + corpus_sample(count=800, seed=7))
def test_never_a_clear_bit_for_a_node_the_core_holds(sql):
    try:
        fast = parser.parse_one(sql)
        slow = parser.python_parse_one(sql)
    except Exception:
        return
    if fast is None:
        return
    fast_cores = cores(fast.stmt, [])
    assert [c.features for c in fast_cores] == [c.features for c in cores(slow.stmt, [])]
    for c in fast_cores:
        assert c.features >= 0
        assert kinds_inside(c) & ~c.features == 0
