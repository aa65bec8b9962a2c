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
]


@pytest.mark.parametrize("sql", SQL + corpus_sample())
def test_same_result(sql):
    assert outcome(parser.parse_one, sql) == outcome(parser.python_parse_one, sql)


@pytest.mark.parametrize("sql", ["SELECT 1", "  \n ; ;", "", "/* x */", "-- y"])
def test_same_blank_handling(sql):
    assert outcome(parser.parse_one, sql) == outcome(parser.python_parse_one, sql)


@pytest.mark.slow
def test_corpus_sample_parses_like_sqlite():
    """Every 40th corpus script: no false reject, false accept or wrong message."""
    from sqlengine.sql import corpus_check
    assert corpus_check.main(["--every", "40"]) == 0


def test_compiled_driver_allocates_its_common_nodes_directly():
    """The compiled driver makes Literal, Binary, Unary, Column, ResultColumn, SelectCore,
    Select and FunctionCall nodes by storing their slots (no dataclass __init__) only while
    their fields are the ones it knows; a field added to one of them must be added there
    too, or every statement pays for the slow path."""
    from sqlengine.sql import _parser
    assert _parser._check_fast_new()
    sql = "SELECT DISTINCT - 1 + x AS c, count(*), f(DISTINCT y) FROM t WHERE +z"
    assert parser.python_parse_one(sql).stmt == parser.parse_one(sql).stmt
