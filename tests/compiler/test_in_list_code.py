"""``x [NOT] IN (list)`` compared item by item (no subquery, no ephemeral table): a
constant item is loaded once per run and a literal one needs no NULL test at every row; in
WHERE, ON and the other conditions the list is coded as jumps (SQLite's
sqlite3ExprCodeIN), not as a value tested afterwards. Differential against sqlite3 over
NULL, TEXT, REAL and INTEGER left operands, lists with and without NULL items (literal or
not), and every condition form (AND / OR / NOT around it, IS NULL of it, CASE)."""

import itertools

import pytest

SETUP = [
    "CREATE TABLE t(id INTEGER PRIMARY KEY, n INTEGER, x TEXT, r REAL)",
    "INSERT INTO t VALUES (1, 5, '5', 5.0), (2, NULL, 'a', NULL), (3, 3, 'A', 2.5), "
    "(4, 1, NULL, 1.0), (5, -3, '-3', -3.0), (6, 2, 'b', 0.0)",
]

LEFT = ["n", "x", "r", "x COLLATE NOCASE", "n + 0", "NULL"]
LISTS = ["(1, 2, 3)", "(1, NULL, 3)", "(NULL)", "(5)", "('5', 'a')", "(n, 5)",
         "(n + 1, NULL, x)", "(- 3, + 2, 2.5)", "(CAST('5' AS INTEGER), 'A' || '')",
         "(r, - - 1)"]
FORMS = [
    "SELECT id, {e} FROM t ORDER BY id",
    "SELECT id FROM t WHERE {e} ORDER BY id",
    "SELECT id FROM t WHERE NOT {e} ORDER BY id",
    "SELECT id FROM t WHERE {e} OR id > 5 ORDER BY id",
    "SELECT id FROM t WHERE NOT ({e} AND id < 4) ORDER BY id",
    "SELECT id FROM t WHERE ({e}) IS NULL ORDER BY id",
    "SELECT id, CASE WHEN {e} THEN 'y' WHEN NOT {e} THEN 'n' ELSE '?' END FROM t ORDER BY id",
    "SELECT count(*) FROM t AS a JOIN t AS b ON {e2} AND b.id = a.id + 1",
]


def _cases():
    for left, items in itertools.product(LEFT, LISTS):
        for neg in ("", "NOT "):
            e = f"{left} {neg}IN {items}"
            e2 = f"a.{left} {neg}IN {items.replace('n', 'b.n').replace('x', 'b.x')}" \
                if left in ("n", "x", "r") else e.replace("n", "a.n").replace("x", "a.x") \
                .replace("r", "a.r")
            for form in FORMS:
                yield form.format(e=e, e2=e2)


CASES = list(_cases())


@pytest.mark.parametrize("k", range(0, len(CASES), 60))
def test_same_as_sqlite(pair, k):
    for sql in CASES[k:k + 60]:
        assert pair.ours(sql) == pair.theirs(sql), sql


def test_literal_items_are_compared_without_null_tests(pair):
    ops = [r[1] for r in pair.db.execute(
        "EXPLAIN SELECT id FROM t WHERE n IN (1, 2, 3) OR x NOT IN ('a', - 4)")]
    loop = ops[ops.index("Rewind") + 1:ops.index("Next")]
    assert loop.count("Eq") == 5
    assert not {"Integer", "String8", "NotNull", "IfPos", "If", "IfNot", "Null"} & set(loop)
