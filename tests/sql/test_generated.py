"""Statements generated from grammar.lark itself (random derivations, fixed seeds) get the
same verdict and message from sqlengine as from sqlite3: a check that the grammar is
SQLite's, production by production.

Statements on which sqlite3 stops with a non-syntax error raised inside its parser (a
missing table, an IF NOT EXISTS that finds the table, ...) are left out: their syntax
verdict is unknown.
"""

import random
import sqlite3

import pytest
from lark.grammar import NonTerminal
from lark.load_grammar import load_grammar

from sqlengine.sql.tables import GRAMMAR_PATH

from .conftest import PARSE_WORDS, SCHEMA, sqlengine_parse_error, sqlite_parse_error

TOKEN_TEXTS = {
    "ID": ["a", "b", "t", "x1", '"q"', "[c]"], "STRING": ["'s'"], "INTEGER": ["1", "0x10"],
    "FLOAT": ["2.5"], "BLOB": ["x'00'"], "VARIABLE": ["?", ":p", "?2"], "ANY": ["foo", "+"],
    "LP": ["("], "RP": [")"], "SEMI": [";"], "COMMA": [","], "DOT": ["."], "PLUS": ["+"],
    "MINUS": ["-"], "STAR": ["*"], "SLASH": ["/"], "REM": ["%"], "EQ": ["=", "=="],
    "NE": ["!=", "<>"], "LT": ["<"], "LE": ["<="], "GT": [">"], "GE": [">="], "BITAND": ["&"],
    "BITOR": ["|"], "LSHIFT": ["<<"], "RSHIFT": [">>"], "CONCAT": ["||"], "PTR": ["->", "->>"],
    "BITNOT": ["~"], "LIKE_KW": ["LIKE", "GLOB"], "JOIN_KW": ["LEFT", "NATURAL", "CROSS", "INNER"],
    "CTIME_KW": ["CURRENT_DATE"], "AUTOINCR": ["AUTOINCREMENT"], "COLUMNKW": ["COLUMN"],
    "TEMP": ["TEMP", "TEMPORARY"],
}


def _grammar():
    with open(GRAMMAR_PATH, encoding="utf-8") as f:
        g, _ = load_grammar(f.read(), GRAMMAR_PATH, [], True)
    _, rules, _ = g.compile(["start"], set())
    alts = {}
    for r in rules:
        alts.setdefault(r.origin.name, []).append(list(r.expansion))
    depth = {n: 10 ** 9 for n in alts}
    changed = True
    while changed:
        changed = False
        for n, options in alts.items():
            for alt in options:
                d = 1 + max([0] + [0 if s.is_term else depth[s.name] for s in alt])
                if d < depth[n]:
                    depth[n], changed = d, True
    return alts, depth


ALTS, DEPTH = _grammar()


def _generate(rng, sym, level, out):
    if sym.is_term:
        out.append(rng.choice(TOKEN_TEXTS.get(sym.name, [sym.name])))
        return
    options = ALTS[sym.name]
    if level > 7:  # head for the shortest derivations
        cost = [1 + max([0] + [0 if s.is_term else DEPTH[s.name] for s in alt]) for alt in options]
        options = [alt for alt, c in zip(options, cost) if c == min(cost)]
    for s in rng.choice(options):
        _generate(rng, s, level + 1, out)


def _sqlite_verdict(sql):
    seen = set()
    for with_tables in (False, True):
        conn = sqlite3.connect(":memory:")
        if with_tables:
            conn.executescript(SCHEMA)
        try:
            conn.execute("EXPLAIN " + sql)
            seen.add("ok")
        except sqlite3.Error as e:
            seen.add("parse" if any(w in str(e) for w in PARSE_WORDS) else "other")
        finally:
            conn.close()
    return "parse" if "parse" in seen else "other" if "other" in seen else "ok"


@pytest.mark.parametrize("seed", range(6))
def test_generated_statements_match_sqlite(seed):
    rng = random.Random(seed)
    compared = 0
    for _ in range(160):
        out = []
        _generate(rng, NonTerminal("cmdx"), 0, out)
        sql = " ".join(out)
        if sql.upper().startswith(("EXPLAIN", "QUERY")):
            continue
        verdict = _sqlite_verdict(sql)
        if verdict == "other":
            continue
        compared += 1
        expected = None if verdict == "ok" else sqlite_parse_error(sql)
        assert sqlengine_parse_error(sql) == expected, sql
    assert compared > 20
