"""Keywords as names: accepted exactly where SQLite accepts them (its %fallback ID list,
the join keywords in ``nm``, strings as names), with the same message where it refuses."""

import pytest

from sqlengine.sql import ast as A
from sqlengine.sql import parse_one
from sqlengine.sql.lexer import KEYWORDS

TEMPLATES = [
    "CREATE TABLE x({k} INTEGER)", "SELECT {k} FROM t", "SELECT a AS {k} FROM t",
    "SELECT a {k} FROM t", "SELECT * FROM t {k}", "SELECT * FROM t AS {k}", "CREATE TABLE {k}(a)",
    "INSERT INTO t({k}) VALUES(1)", "UPDATE t SET {k} = 1", "SELECT t.{k} FROM t",
    "CREATE INDEX {k} ON t(a)", "SELECT {k}(1)", "SELECT {k}.a FROM t AS {k}", "CREATE TABLE x(a {k})",
    "SELECT * FROM t WHERE {k} = 1", "SELECT 1 ORDER BY {k}", "PRAGMA {k}", "SELECT {k} + 1",
    "WITH {k} AS (SELECT 1) SELECT * FROM {k}", "CREATE TABLE x(a, b, PRIMARY KEY({k}))",
    "SELECT count(*) OVER {k} FROM t WINDOW {k} AS ()", "DELETE FROM t WHERE a IN {k}",
    "SELECT * FROM t JOIN u USING({k})", "CREATE TABLE x(a CONSTRAINT {k} NOT NULL)",
    "ATTACH 'x' AS {k}", "SAVEPOINT {k}", "SELECT CAST(1 AS {k})", "SELECT 1 COLLATE {k}",
    "CREATE VIEW {k} AS SELECT 1", "SELECT {k}.{k}.{k}",
]


@pytest.mark.parametrize("word", sorted(KEYWORDS) + ["TRUE", "FALSE", "ROWID"])
def test_keyword_in_name_positions(word, oracle, ours):
    for template in TEMPLATES:
        for spelled in (word, word.lower()):
            sql = template.format(k=spelled)
            assert ours(sql) == oracle(sql), sql


@pytest.mark.parametrize("word", ["key", "action", "replace", "temp", "end", "first",
                                  "rows", "like", "glob", "if", "rename"])
def test_fallback_names_keep_their_spelling(word):
    ct = parse_one(f"CREATE TABLE x({word} INTEGER, b)").stmt
    assert ct.columns[0].name == word and ct.columns[0].type_name == "INTEGER"
    sel = parse_one(f"SELECT {word} FROM t").stmt.body.columns[0].expr
    assert sel == A.Column(word, pos=7)


def test_true_false_are_literals_unless_quoted():
    cols = parse_one('SELECT true, FALSE, "true"').stmt.body.columns
    assert cols[0].expr.value == 1 and cols[1].expr.value == 0
    assert cols[2].expr == A.Column("true", quoted=True, pos=20)
