"""Hostile SQL hits SQLite's limits with SQLite's errors (checked against the stdlib sqlite3),
never RecursionError, MemoryError or ValueError: deep nesting, huge literals, very long
statements, too many columns, terms, arguments."""

import sqlite3

import pytest

import sqlengine

CASES = {
    "deep_parens": "select " + "(" * 1200 + "1" + ")" * 1200,
    "deep_parens_200": "select " + "(" * 200 + "1" + ")" * 200,
    "deep_unary": "select " + "-" * 1500 + "1",
    "deep_binary": "select " + "+".join(["1"] * 1500),
    "deep_and": "select 1 where " + " and ".join(["1"] * 3000),
    "deep_case": "select " + "case when 1 then " * 1100 + "1" + " end" * 1100,
    "deep_function": "select " + "abs(" * 1100 + "1" + ")" * 1100,
    "deep_subquery": "select " + "(select " * 300 + "1" + ")" * 300,
    "huge_string": "select length('" + "x" * 3_000_000 + "')",
    "huge_blob": "select length(x'" + "ab" * 1_000_000 + "')",
    "huge_integer": "select " + "9" * 5000,
    "huge_negative_integer": "select -" + "9" * 5000,
    "leading_zero_integer": "select 000000000000000000000000000042",
    "huge_variable_number": "select ?" + "9" * 5000,
    "huge_hex_literal": "select 0x" + "f" * 5000,
    "hex_literal_too_big": "select 0x" + "f" * 17,
    "too_many_result_columns": "select " + ",".join(["1"] * 2001),
    "max_result_columns": "select " + ",".join(["1"] * 2000),
    "too_many_columns_in_star": "select * from (select " + ",".join(["1"] * 1500)
    + ") a, (select " + ",".join(["2"] * 600) + ") b",
    "long_statement": "select " + ",".join(["1"] * 1900),
    "too_many_table_columns": "create table t(" + ",".join(f"c{i}" for i in range(2001)) + ")",
    "max_table_columns": "create table t(" + ",".join(f"c{i}" for i in range(2000)) + ")",
    "too_many_compound_terms": " union all ".join(["select 1"] * 501),
    "max_compound_terms": " union all ".join(["select 1"] * 500),
    "too_many_arguments": "select max(" + ",".join(["1"] * 200) + ")",
    "long_in_list": "select 1 in (" + ",".join(map(str, range(20000))) + ")",
    "long_like_pattern": "select 'a' like '" + "%a" * 20000 + "'",
    "zeroblob_too_big": "select length(zeroblob(2000000000))",
    "printf_huge_width": "select length(printf('%2000000000d', 1))",
}


def _outcome(module, sql):
    con = module.connect(":memory:")
    try:
        return ("rows", con.execute(sql).fetchall())
    except (sqlite3.Error, sqlengine.Error) as e:
        return ("error", str(e))
    finally:
        con.close()


@pytest.mark.parametrize("name", sorted(CASES))
def test_limit_like_sqlite(name):
    sql = CASES[name]
    assert _outcome(sqlengine, sql) == _outcome(sqlite3, sql)
