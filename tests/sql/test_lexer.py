"""Tokens and literal values as SQLite reads them."""

import sqlite3

import pytest

from sqlengine.sql import ast as A
from sqlengine.sql import parse_one
from sqlengine.sql.lexer import next_token


def value(expr_sql):
    e = parse_one("SELECT " + expr_sql).stmt.body.columns[0].expr
    assert isinstance(e, A.Literal), e
    return e.value


@pytest.mark.parametrize("text", [
    "0", "1", "9223372036854775807", "9223372036854775808", "18446744073709551616",
    "-9223372036854775808", "- 9223372036854775808", "-(9223372036854775808)",
    "-09223372036854775808", "0x10", "0XfF", "0x7fffffffffffffff", "0x8000000000000000",
    "0xffffffffffffffff", "1.5", ".5", "5.", "1e3", "1E+3", "2.5e-3", "1e400",
    "'abc'", "'it''s'", "''", "x'00ff'", "X''", "NULL",
])
def test_literal_values_match_sqlite(text):
    got = value(text)
    (want,) = sqlite3.connect(":memory:").execute("SELECT " + text).fetchone()
    assert type(got) is type(want) and got == want


def test_negated_big_integer_stays_real_when_not_folded():
    e = parse_one("SELECT - -9223372036854775808").stmt.body.columns[0].expr
    assert isinstance(e, A.Unary) and e.operand.value == -(1 << 63)


def test_identifier_quotes():
    cols = parse_one('SELECT "a""b", [c d], `e``f`, g FROM t').stmt.body.columns
    assert [(c.expr.name, c.expr.quoted) for c in cols] == [
        ('a"b', True), ("c d", False), ("e`f", False), ("g", False)]


def test_parameters_are_kept_as_written():
    cols = parse_one("SELECT ?, ?12, :name, @x, $y, $a::b(c)").stmt.body.columns
    assert [c.expr.text for c in cols] == ["?", "?12", ":name", "@x", "$y", "$a::b(c)"]


@pytest.mark.parametrize("sql,kinds", [
    ("a->>b", ["ID", "PTR", "ID"]), ("a->b", ["ID", "PTR", "ID"]), ("1<>2", ["INTEGER", "NE", "INTEGER"]),
    ("x||y", ["ID", "CONCAT", "ID"]), ("a==b", ["ID", "EQ", "ID"]), ("a<<=b", ["ID", "LSHIFT", "EQ", "ID"]),
    ("1.e5", ["FLOAT"]), ("x'ab'", ["BLOB"]), ("xab'", ["ID", "ILLEGAL"]), ("[a]b", ["ID", "ID"]),
    ("-- c\n1", ["SPACE", "INTEGER"]), ("/* */1", ["SPACE", "INTEGER"]), ("é_1", ["ID"]),
])
def test_token_boundaries(sql, kinds):
    got = []
    i = 0
    while i < len(sql):
        kind, i = next_token(sql, i)
        got.append(kind)
    assert got == kinds


def test_comments_anywhere():
    p = parse_one("/* a */ SELECT -- b\n 1 /* c */ + /* d */ 2 -- e")
    assert p.text == "SELECT -- b\n 1 /* c */ + /* d */ 2"
    assert p.stmt.body.columns[0].text == "1 /* c */ + /* d */ 2 -- e"


def test_positions_are_relative_to_the_statement_text():
    sql = "SELECT 1;  SELECT abc FROM t"
    first = parse_one(sql)
    second = parse_one(sql, first.end)
    col = second.stmt.body.columns[0].expr
    assert second.text[col.pos:col.pos + 3] == "abc"
    assert second.stmt.body.from_.pos == second.text.index("t", 12)


def test_hex_too_big_is_left_to_the_compiler():
    # SQLite reports it when coding the literal, after any syntax error of the statement.
    assert value("0x1ffffffffffffffff") == 0x1FFFFFFFFFFFFFFFF


@pytest.mark.parametrize("sql", ["SELECT ?0", "SELECT ?250001", "SELECT ?99999999999999999999",
                                 "SELECT ?0 +", "SELECT 0x1ffffffffffffffff +"])
def test_variable_numbers_and_order_of_errors(sql, oracle, ours):
    assert oracle(sql) is not None
    assert ours(sql) == oracle(sql)


@pytest.mark.parametrize("sql", [
    "SELECT a1, 'x''y', \"q\" FROM t WHERE b >= 1.5e3 -- c",   # 1 byte per character
    "SELECT é_1, 'ü''ß', [Ā b] FROM t WHERE x<>0x1f /* ĀĀ */",  # 2 bytes
    "SELECT 😀a, '😀''😀', `😀` FROM t WHERE $p😀 = ?3 'open",  # 4 bytes
    "select Ā x'0f' 12abc \"unterminated",
])
def test_compiled_tokenizer_reads_every_string_width(sql):
    """The compiled tokenizer reads the text in place (1, 2 or 4 bytes a character): the
    same tokens as lexer.py."""
    _parser = pytest.importorskip("sqlengine.sql._parser")
    from sqlengine.sql.tables import load_tables

    names = load_tables().terminals
    want = []
    i = 0
    while i < len(sql):
        kind, j = next_token(sql, i)
        want.append((kind, i, j))
        i = j
    got = [({-1: "SPACE", -2: "ILLEGAL"}.get(k) or names[k], s, e)
           for k, s, e in _parser.tokenize(sql)]
    assert got == want


def _keyword_spellings():
    from sqlengine.sql.lexer import KEYWORDS
    words = []
    for k in sorted(KEYWORDS):
        words += [k, k.lower(), k.capitalize(), k[:-1], k + "x", "_" + k, k + "1", k + "\u00e9",
                  k[:-1] + "\u0130"]
    return words + ["x", "X", "x'0f'", "X'0F0'", "xx'0f'", "a" * 17, "a" * 18, "b" * 32,
                    "b" * 33, "$x", "_", "_1$", "\u00e9a", "a\u00e9", "\U0001f600", "SELECt"]


@pytest.mark.parametrize("sep", [" ", "\u00a0", "\u0100", "\U0001f600"])
def test_compiled_tokenizer_reads_words_as_lexer_py(sep):
    """Every keyword in upper, lower and mixed case, and names that differ from one by a
    character (cut, added, non-ASCII), in 1-, 2- and 4-byte texts: the compiled
    tokenizer's one pass over a word gives lexer.py's tokens."""
    _parser = pytest.importorskip("sqlengine.sql._parser")
    from sqlengine.sql.tables import load_tables

    names = load_tables().terminals
    for sql in (" ".join(_keyword_spellings()) + sep, sep.join(_keyword_spellings())):
        want = []
        i = 0
        while i < len(sql):
            kind, j = next_token(sql, i)
            want.append((kind, i, j))
            i = j
        got = [({-1: "SPACE", -2: "ILLEGAL"}.get(k) or names[k], s, e)
               for k, s, e in _parser.tokenize(sql)]
        assert got == want

