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
    # issue 11's list, each checked against the stdlib sqlite3 (its build's limits)
    "statement_10mb": "select length('" + "x" * 10_000_000 + "')",
    "string_literal_1mb": "select length('" + "y" * 1_000_000 + "')",
    "like_pattern_too_long": "select 'a' like '" + "a" * 50001 + "'",
    "like_pattern_at_limit": "select 'a' like '" + "a" * 50000 + "'",
    "glob_pattern_too_long": "select 'a' glob '" + "a" * 50001 + "'",
    "variable_number_too_big": "select ?250001",
    "variable_number_zero": "select ?0",
    "too_many_sql_variables": "select 1 in (" + ",".join("?" * 250001) + ")",
    "too_many_index_columns": "create table t(a); create index i on t(" + ",".join(["a"] * 2001)
    + ")",
    "too_many_order_by_terms": "select 1 order by " + ",".join(["1"] * 2001),
    "too_many_group_by_terms": "select 1 from (select 1 a) group by " + ",".join(["a"] * 2001),
    "too_many_values_columns": "values(" + ",".join(["1"] * 2001) + ")",
    "max_function_arguments": "select max(" + ",".join(["1"] * 127) + ")",
    "too_many_function_arguments": "select char(" + ",".join(["65"] * 128) + ")",
    "deep_from_subqueries": "select * from " + "(select * from " * 200 + "(select 1)"
    + ")" * 200,
    "deep_row_values": "select " + "(1," * 300 + "1" + ")" * 300 + " = 1",
    "deep_in_lists": "select " + "1 in (" * 300 + "1" + ")" * 300,
    "deep_exists": "select 1 where " + "exists (select 1 where " * 200 + "1" + ")" * 200,
    "deep_concat": "select " + "||".join(["'a'"] * 5000),
    "deep_coalesce": "select " + "coalesce(" * 1100 + "1" + ",1)" * 1100,
    "deep_cast": "select " + "cast(" * 1100 + "1" + " as int)" * 1100,
    "long_collate_chain": "select 'a'" + " collate nocase" * 3000,
    "chained_ctes": "with " + ",".join(
        f"c{i} as (select {'1' if i == 0 else f'* from c{i - 1}'})" for i in range(300))
    + " select * from c299",
    "too_many_tables_in_join": "select 1 from " + ",".join(f"(select 1) a{i}" for i in range(65)),
    "max_tables_in_join": "select count(*) from " + ",".join(
        f"(select 1) a{i}" for i in range(64)),
    "json_too_deep": "select json('" + "[" * 2001 + "]" * 2001 + "')",
    "randomblob_too_big": "select length(randomblob(2000000000))",
}


def _outcome(module, sql):
    con = module.connect(":memory:")
    try:
        *setup, sql = sql.split(";") if sql.startswith("create table t(a);") else [sql]
        for s in setup:
            con.execute(s)
        return ("rows", con.execute(sql).fetchall())
    except (sqlite3.Error, sqlengine.Error) as e:
        return ("error", str(e))
    finally:
        con.close()


@pytest.mark.parametrize("name", sorted(CASES))
def test_limit_like_sqlite(name):
    sql = CASES[name]
    assert _outcome(sqlengine, sql) == _outcome(sqlite3, sql)
