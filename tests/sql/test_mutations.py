"""Differential check on mutated statements: valid statements with tokens deleted,
inserted or replaced must get the same verdict and message from sqlengine as from sqlite3.

Cases where sqlite3 stops on a non-syntax error raised inside its parser (a missing
table, "AUTOINCREMENT is only allowed on an INTEGER PRIMARY KEY", ...) are left out: there
SQLite never reaches the syntax question, and in sqlengine those checks belong to the
compiler.
"""

import random
import sqlite3

import pytest

from sqlengine.sql.lexer import KEYWORDS, next_token

from .conftest import PARSE_WORDS, SCHEMA, sqlengine_parse_error, sqlite_parse_error
from .test_statements import ACCEPTED

BASE = ACCEPTED + [
    "SELECT a, b FROM t1 AS x LEFT JOIN t2 ON x.a = t2.b WHERE a IN (SELECT c FROM u) "
    "GROUP BY 1 HAVING count(*) > 2 ORDER BY 1 DESC LIMIT 3",
    "CREATE TABLE x(a INTEGER PRIMARY KEY, b TEXT DEFAULT 'x' NOT NULL, c REFERENCES t(a), UNIQUE(b, c))",
    "INSERT INTO t(a, b) SELECT 1, 2 UNION ALL SELECT 3, 4",
    "SELECT CASE WHEN a BETWEEN 1 AND 2 THEN 'x' WHEN a LIKE 'y%' ESCAPE '!' THEN 'z' END FROM t",
    "WITH RECURSIVE c(n) AS (VALUES(1) UNION ALL SELECT n+1 FROM c WHERE n < 5) SELECT n FROM c",
    "SELECT sum(a) OVER (PARTITION BY b ORDER BY c ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t",
    "UPDATE t SET a = b + 1, c = CAST(a AS TEXT) WHERE a IS NOT NULL",
]
VOCAB = sorted(KEYWORDS) + ["(", ")", ",", ".", "+", "-", "*", "=", "<", "||", ";", "a", "1",
                            "'s'", "x", '"q"', "NOT", "NULL"]


def _tokens(sql):
    out, i = [], 0
    while i < len(sql):
        kind, j = next_token(sql, i)
        if kind != "SPACE":
            out.append(sql[i:j])
        i = j
    return out


def _sqlite_stops_elsewhere(sql):
    """True when sqlite3 reports a non-parse error (so its syntax verdict is unknown)."""
    for with_tables in (False, True):
        conn = sqlite3.connect(":memory:")
        if with_tables:
            conn.executescript(SCHEMA)
        try:
            conn.execute("EXPLAIN " + sql)
        except sqlite3.Error as e:
            if not any(w in str(e) for w in PARSE_WORDS):
                return True
        finally:
            conn.close()
    return False


def _mutants(seed, count):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        toks = _tokens(rng.choice(BASE))
        for _ in range(rng.randint(1, 3)):
            p = rng.randrange(len(toks) + 1)
            op = rng.random()
            if op < 0.35 and toks:
                del toks[min(p, len(toks) - 1)]
            elif op < 0.7:
                toks.insert(p, rng.choice(VOCAB))
            elif toks:
                toks[min(p, len(toks) - 1)] = rng.choice(VOCAB)
        sql = " ".join(toks)
        # "EXPLAIN " in front changes the meaning of a text starting with QUERY or ';'.
        if sql.strip() and not sql.upper().startswith(("QUERY", ";")):
            out.append(sql)
    return out


@pytest.mark.parametrize("seed", range(8))
def test_mutated_statements_match_sqlite(seed):
    checked = 0
    for sql in _mutants(seed, 60):
        if _sqlite_stops_elsewhere(sql):
            continue
        checked += 1
        assert sqlengine_parse_error(sql) == sqlite_parse_error(sql), sql
    assert checked > 20
