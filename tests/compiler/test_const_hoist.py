"""Constants loaded once per run (``ProgramBuilder.const_reg``): an operand that is a literal
is read from a register the prologue fills, not loaded again at every row; one register
serves every use of a value, whatever affinity each comparison applies to it."""

import pytest

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
