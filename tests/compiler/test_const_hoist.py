"""Constants loaded once per run (``ProgramBuilder.const_reg``): an operand that is a literal
is read from a register the prologue fills, not loaded again at every row; one register
serves every use of a value, whatever affinity each comparison applies to it. An operand
that is a constant expression (arithmetic, unary operators, CAST over literals and
parameters) is computed in the prologue too, as SQLite factors it, so that a loop runs the
instructions sqlite3's runs; a CAST is SQLite's Cast, the affinity in P2."""

import sqlite3

import pytest

import sqlengine

SETUP = [
    "CREATE TABLE t(id INTEGER PRIMARY KEY, n INTEGER, x TEXT, b BLOB, r REAL)",
    "INSERT INTO t VALUES (1, 5, '5', 5, 5.0), (2, 6, '6', '5', 0.5), (3, NULL, 'a', x'35', -0.0)",
    "INSERT INTO t VALUES (4, 5, '05', 5.0, 1e300)",
]

QUERIES = [
    # one constant, read under TEXT, INTEGER and no affinity in the same row
    "SELECT id, x = 5, n = 5, b = 5, 5 + n, 5 || x FROM t ORDER BY id",
    "SELECT id FROM t WHERE x = 5 OR b = 5 ORDER BY id",
    "SELECT id FROM t WHERE b = '5' OR n = '5' ORDER BY id",
    "SELECT id, r = 0.0, r = -0.0, 0.0 + r, -0.0 * 1 FROM t ORDER BY id",
    "SELECT id, n * 1.0, n * 1, typeof(n * 1.0), typeof(n * 1) FROM t ORDER BY id",
    "SELECT id, n > NULL, n IS NULL, NULL AND 0, 1 OR NULL FROM t ORDER BY id",
    "SELECT id, 9223372036854775807 + 0, 9223372036854775808 - 1 FROM t ORDER BY id",
    "SELECT sum(n % 2 = 1), count(x > 'a') FROM t",
    "SELECT (SELECT count(*) FROM t AS u WHERE u.n = t.n + 0) FROM t ORDER BY id",
    "UPDATE t SET n = n + 1 WHERE id > 2 RETURNING id, n, n = 6",
    "DELETE FROM t WHERE n % 2 = 0 AND id > 1 RETURNING id",
    # constant expressions computed once
    "SELECT id, n + - - CAST(NULL AS INTEGER), n - - 5, - n, - x, x BETWEEN - 1 AND "
    "+ CAST('6' AS INTEGER) FROM t ORDER BY id",
    "SELECT id FROM t WHERE n + - 64 < - - 3 * 2 OR r > CAST(' 0.3' AS REAL) ORDER BY id",
    "SELECT id, - - 5, 3 * 2, ~ 5, NOT 0, - ~ n, ~ - + n, NOT - r, n * - 9223372036854775807 "
    "- 2, - - 9223372036854775807 - - 1, - 0x8000000000000000 * 1, - 0.0 * 1 FROM t "
    "ORDER BY id",
    "SELECT id, x || + - 1.5, n / (- 0), CAST(n AS TEXT) || - CAST(x AS INTEGER) FROM t "
    "ORDER BY id",
    "SELECT id FROM t WHERE r * + n + - n + - 64 + - r BETWEEN n + + - CAST(+ - r AS REAL) "
    "AND - - CAST(NULL AS INTEGER) OR n > - + 5 ORDER BY id",
    "SELECT id, CAST(x AS INTEGER), CAST(x AS REAL), CAST(n AS TEXT), CAST(x AS BLOB), "
    "CAST(x AS NUMERIC), CAST(x AS DECIMAL(4, 2)), CAST(n AS VARCHAR(3)), CAST(b AS "
    "FLOATING POINT), CAST(r AS SIGNED) FROM t ORDER BY id",
    "SELECT CASE WHEN n > - 5 THEN - 3 * 2 ELSE + - 7 END, count(*) FROM t "
    "WHERE id < - - 10 GROUP BY 1 ORDER BY 1",
]


@pytest.mark.parametrize("sql", QUERIES)
def test_same_as_sqlite(pair, sql):
    for con in (pair.ref, pair.db):
        con.execute("SAVEPOINT s")
    try:
        assert pair.ours(sql) == pair.theirs(sql)
    finally:
        for con in (pair.ref, pair.db):
            con.execute("ROLLBACK TO s")
            con.execute("RELEASE s")


def test_literal_operands_are_loaded_before_the_loop(pair):
    ops = [r[1] for r in pair.db.execute(
        "EXPLAIN SELECT n + 7, x || 'z' FROM t WHERE n % 3 = 2 AND r > 0.25")]
    loop = ops[ops.index("Rewind"):ops.index("Next")]
    prologue = ops[ops.index("Transaction"):]
    assert not {"Integer", "Real", "String8"} & set(loop)
    assert prologue.count("Integer") == 3 and "Real" in prologue and "String8" in prologue


def test_one_register_per_distinct_constant():
    # 1, 1.0, '1' and b'1' are different constants, and 0.0 and -0.0; equal values of one
    # type share a register (a NaN too: every NaN loads the same value)
    from sqlengine.compiler._codegen import ProgramBuilder
    b = ProgramBuilder()
    values = [1, 1.0, "1", b"1", None, 0.0, -0.0, 0, "", b"", 2.5, "2.5", float("inf"),
              float("-inf"), float("nan"), True, 10**18, 1e18, "a"]
    regs = [b.const_reg(v) for v in values]
    assert len(set(regs)) == len(values)
    again = [b.const_reg(v) for v in
             [1, 1.0, "1", b"1", None, 0.0, -0.0, 0, "", b"", 5 / 2, "2." + "5",
              float("inf"), -float("inf"), float("nan"), True, 10**18, 1e18, "".join("a")]]
    assert again == regs
    assert b.const_reg(float("-nan")) == regs[values.index(values[14])]


LOOPS = [
    # (index/random's BETWEEN query: the loop sqlite3 runs, instruction for instruction)
    "SELECT * FROM t WHERE r * + n + - n + - 64 + - r BETWEEN n + + - CAST(+ - r AS REAL) "
    "AND - - CAST(NULL AS INTEGER)",
    "SELECT id FROM t WHERE n + - 64 < - - 3 * 2 OR r > CAST(' 0.3' AS REAL)",
    "SELECT - - 5, 3 * 2, CAST(n AS TEXT), CAST(1 AS TEXT), ~ 5, NOT 0, - ~ n, ~ - + n FROM t",
    "SELECT CASE WHEN n > - 5 THEN - 3 * 2 ELSE + - 7 END FROM t",
]


def _explain(con, sql):
    return [tuple(r[1:4]) for r in con.execute("EXPLAIN " + sql)]


def _loop(rows):
    ops = [r[0] for r in rows]
    return ops[ops.index("Rewind") + 1:ops.index("Next")]


@pytest.mark.parametrize("sql", LOOPS)
def test_loop_runs_the_instructions_sqlite_runs(sql):
    ref = sqlite3.connect(":memory:")
    ours = sqlengine.connect(":memory:")
    for con in (ref, ours):
        con.execute(SETUP[0])
    assert _loop(_explain(ours, sql)) == _loop(_explain(ref, sql))


def test_constant_operands_are_computed_before_the_loop(pair):
    ops = [r[1] for r in pair.db.execute(
        "EXPLAIN SELECT n - - - 5, - n FROM t WHERE n < CAST(- 2 * 3 AS TEXT) || ?1")]
    loop = ops[ops.index("Rewind"):ops.index("Next")]
    prologue = ops[ops.index("Transaction"):]
    assert loop.count("Subtract") == 2
    assert not {"Integer", "Multiply", "Cast", "Variable", "Concat"} & set(loop)
    assert prologue.count("Integer") == 4  # (-2, 3, -5, and the 0 of both negations)
    assert prologue.count("Subtract") == 1
    assert {"Multiply", "Cast", "Variable", "Concat"} <= set(prologue)


def test_constant_operands_with_parameters():
    ref = sqlite3.connect(":memory:")
    ours = sqlengine.connect(":memory:")
    sql = "SELECT id, n + - ?1, CAST(?2 AS INTEGER) * 2 FROM t WHERE n > - ?1 ORDER BY id"
    for con in (ref, ours):
        for s in SETUP:
            con.execute(s)
    for args in ((-6, "3.5e0"), (None, "x"), (2.5, b"7")):
        assert ours.execute(sql, args).fetchall() == ref.execute(sql, args).fetchall()


@pytest.mark.parametrize("type_name", ["INTEGER", "REAL", "TEXT", "BLOB", "NUMERIC",
                                       "DECIMAL(4, 2)", "VARCHAR(3)", "FLOATING POINT",
                                       "SIGNED", "BOOLEAN"])
def test_cast_codes_its_affinity_as_sqlite(type_name):
    ref = sqlite3.connect(":memory:")
    ours = sqlengine.connect(":memory:")
    sql = f"SELECT CAST(x AS {type_name}) FROM t"
    for con in (ref, ours):
        con.execute(SETUP[0])
    casts = [[r[2] for r in _explain(con, sql) if r[0] == "Cast"] for con in (ours, ref)]
    assert casts[0] == casts[1] and len(casts[0]) == 1
