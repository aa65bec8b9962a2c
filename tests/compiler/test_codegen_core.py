"""Tests of the compiled code-generation core (compiler/_codegen.pyx, re-exported by
builder.py and expr.py) and of the per-statement caches of resolve.py: the builder's labels
and finished program, the expression walk's order and pruning, the memoised COLLATE test,
and differential checks (against the stdlib sqlite3) of the comparisons whose affinity and
collation the fast paths work out."""

import sqlite3

import pytest

from sqlengine import errors
from sqlengine.compiler.builder import ProgramBuilder
from sqlengine.compiler.expr import walk
from sqlengine.compiler.resolve import clear_caches, has_explicit_collate
from sqlengine.database import Database
from sqlengine.sql import ast as A
from sqlengine.sql import parse_one
from sqlengine.vdbe import opcodes as O


# ---- ProgramBuilder -------------------------------------------------------------------------

def test_labels_resolve_to_addresses_in_p2_and_jump_operands():
    b = ProgramBuilder()
    fwd = b.new_label()
    back = b.new_label()
    b.resolve(back)
    b.emit(O.OP_Integer, 1, 1)                       # 0
    b.emit(O.OP_Goto, 0, fwd)                        # 1
    b.emit(O.OP_Jump, back, fwd, back)               # 2
    b.resolve(fwd)
    b.emit(O.OP_Halt, 0, 0)                          # 3
    prog = b.finish()
    assert list(prog.opcodes) == [O.OP_Integer, O.OP_Goto, O.OP_Jump, O.OP_Halt]
    assert list(prog.p2) == [1, 3, 3, 0]
    assert prog.p1[2] == 0 and prog.p3[2] == 0
    assert prog.n_mem == 1 and len(prog) == 4


def test_unresolved_label_is_an_internal_error():
    b = ProgramBuilder()
    lbl = b.new_label()
    b.emit(O.OP_Goto, 0, lbl)
    with pytest.raises(errors.InternalError):
        b.finish()


def test_builder_allocators_and_patching():
    b = ProgramBuilder()
    assert b.alloc_reg() == 1
    assert b.alloc_reg(3) == 2
    assert b.n_mem == 4
    assert (b.alloc_cursor(), b.alloc_cursor(), b.alloc_once()) == (0, 1, 0)
    a = b.emit(O.OP_Integer, 7, 1, 0, None, 0, "seven")
    assert a == 0 and b.addr() == 1
    b.change_p2(a, 2)
    b.change_p1(a, 8)
    b.ops[a][4] = "p4"
    prog = b.finish()
    assert (prog.p1[0], prog.p2[0], prog.p4[0], prog.comments[0]) == (8, 2, "p4", "seven")
    # the builder's own list stays as emitted and patched
    assert b.ops[0][:3] == [O.OP_Integer, 8, 2]


def test_ops_view_reads_and_patches_instructions_in_place():
    b = ProgramBuilder()
    for i in range(70):  # (past the first growth of the builder's arrays)
        b.emit(O.OP_Integer, i, i + 1, 0, None, 0, f"c{i}")
    ops = b.ops
    assert len(ops) == 70
    assert list(ops[69]) == [O.OP_Integer, 69, 70, 0, None, 0, "c69"]
    assert ops[-1][1] == 69 and ops[5][-1] == "c5"
    ins = ops[3]
    ins[1] = ins[2] = ins[3] = 0
    ins[0] = O.OP_Noop
    ops[4] = [O.OP_Null, 0, 9, 9, "p4", 1, None]
    assert [row[0] for row in ops][:6] == [O.OP_Integer] * 3 + [O.OP_Noop, O.OP_Null,
                                                                O.OP_Integer]
    with pytest.raises(IndexError):
        ops[70]
    with pytest.raises(ValueError):
        ops[0] = [O.OP_Noop]
    prog = b.finish()
    assert (prog.opcodes[3], prog.p1[3], prog.p2[3], prog.comments[3]) == (O.OP_Noop, 0, 0, "c3")
    assert (prog.opcodes[4], prog.p2[4], prog.p3[4], prog.p4[4], prog.p5[4]) == (
        O.OP_Null, 9, 9, "p4", 1)


def test_finish_statement_hands_the_instructions_to_the_program():
    b = ProgramBuilder()
    done = b.new_label()
    for i in range(100):  # (past two growths of the builder's arrays)
        b.emit(O.OP_Integer, i, done if i % 9 == 0 else i, -(2**40), f"p{i}", i % 3, f"c{i}")
    b.emit(O.OP_Jump, done, 5, done)
    b.resolve(done)
    b.emit(O.OP_Halt, 0, 0)
    prog = b.finish_statement(["x"], [None], 0, [], False, False, False, 0, "SELECT 1")
    assert len(prog) == 102 and len(prog.opcodes) == len(prog.p1) == len(prog.p5) == 102
    assert len(prog.p4) == len(prog.comments) == 102
    assert list(prog.p2[:10]) == [101, 1, 2, 3, 4, 5, 6, 7, 8, 101]
    assert (prog.p1[100], prog.p2[100], prog.p3[100]) == (101, 5, 101)
    assert (prog.p1[99], prog.p3[99], prog.p4[99], prog.p5[99], prog.comments[99]) == (
        99, -(2**40), "p99", 0, "c99")
    assert prog.column_names == ["x"] and prog.sql == "SELECT 1" and prog.readonly
    # the builder is left with no instruction, its numbering kept; it can go on
    assert len(b.ops) == 0 and b.addr() == 0
    assert b.new_label() == -2
    b.emit(O.OP_Halt, 0, 0)
    assert list(b.finish().opcodes) == [O.OP_Halt] and len(prog) == 102


def test_p4_and_comment_references_are_neither_lost_nor_leaked():
    # (emit writes P4 and the comment into lists sized ahead, whose unused tail is NULL:
    # growth, the garbage collector's traversal, both ways of finishing)
    import gc
    import sys

    p4, comment = object(), object()
    base4, basec = sys.getrefcount(p4), sys.getrefcount(comment)
    for n in (1, 63, 64, 65, 200):
        for take in (False, True):
            b = ProgramBuilder()
            for i in range(n):
                b.emit(O.OP_Integer, i, 1, 0, p4, 0, comment)
                if i == 2:
                    gc.collect()  # (traverses the builder and its part-filled lists)
            assert list(b.ops[n - 1])[4:] == [p4, 0, comment]
            prog = b.finish_statement([], [], 0, [], False, False, False, 0, "") if take \
                else b.finish()
            assert len(prog.p4) == len(prog.comments) == n
            assert prog.p4[n - 1] is p4 and prog.comments[0] is comment
            prog.p4.append(None)  # (the handed-over list is an ordinary list)
            assert len(prog.p4) == n + 1 and prog.p4[-1] is None
            del b, prog
            assert (sys.getrefcount(p4), sys.getrefcount(comment)) == (base4, basec)


def test_lists_seen_by_the_garbage_collector_hold_only_emitted_entries():
    # (gc.get_referents hands out the builder's P4 and comment lists; reading one past
    # its emitted entries once met a NULL slot and crashed the interpreter)
    import gc

    for n in (1, 64, 65, 101):
        b = ProgramBuilder()
        for i in range(n):
            b.emit(O.OP_Integer, i, 1, 0, "x", 0, "c")
        lists = [r for r in gc.get_referents(b) if isinstance(r, list)]
        assert lists and all(len(list(r)) == n for r in lists)
        assert all(v == "x" for v in lists[0]) or all(v == "c" for v in lists[0])


def test_int64_operands_survive_finish():
    b = ProgramBuilder()
    b.emit(O.OP_Integer, -2147483648, 2**40, -(2**62))
    prog = b.finish()
    assert (prog.p1[0], prog.p2[0], prog.p3[0]) == (-2147483648, 2**40, -(2**62))


def test_explain_shows_table_dot_column_comments():
    db = Database(":memory:")
    db.execute("CREATE TABLE t(a, b)")
    rows = db.execute("EXPLAIN SELECT b FROM t WHERE a > 1")
    comments = [r[7] for r in rows if r[1] == "Column"]
    assert comments == ["t.a", "t.b"]


# ---- walk -------------------------------------------------------------------------------------

def _reference_walk(e, fn):
    """The plain recursive pre-order walk the compiled one must match (no subqueries)."""
    if e is None or fn(e) is False:
        return
    t = type(e)
    kids = []
    if t is A.Binary:
        kids = [e.left, e.right]
    elif t is A.Unary:
        kids = [e.operand]
    elif t in (A.IsNull, A.Collate, A.Cast, A.InTable, A.InSelect):
        kids = [e.expr]
    elif t is A.Between:
        kids = [e.expr, e.low, e.high]
    elif t is A.InList:
        kids = [e.expr, *e.items]
    elif t is A.FunctionCall:
        kids = [*e.args, e.filter]
    elif t is A.Case:
        kids = [e.operand] + [x for w in e.whens for x in w] + [e.else_]
    elif t is A.Like:
        kids = [e.left, e.right, e.escape]
    elif t is A.RowValue:
        kids = list(e.items)
    for k in kids:
        _reference_walk(k, fn)


def _where(sql):
    return parse_one(sql).stmt.body.where


@pytest.mark.parametrize("cond", [
    "a = 1 AND (b BETWEEN c AND 3 OR NOT d IS NULL)",
    "CASE a WHEN 1 THEN b WHEN c THEN 2 END IN (1, b, c + 1)",
    "CASE WHEN a THEN 1 END LIKE b ESCAPE c",
    "coalesce(a, -b, CAST(c AS TEXT) COLLATE nocase) > (a, b) = (1, 2)",
    "abs(a) + count(*) - ~b",
])
def test_walk_visits_in_pre_order_like_a_recursive_walk(cond):
    e = _where(f"SELECT 1 FROM t WHERE {cond}")
    got, want = [], []
    walk(e, got.append)
    _reference_walk(e, want.append)
    assert [id(x) for x in got] == [id(x) for x in want]
    assert len(got) > 3


def test_walk_stops_below_a_node_when_fn_returns_false():
    e = _where("SELECT 1 FROM t WHERE (a + b) * (c - d) = e")
    seen = []

    def fn(x):
        seen.append(type(x).__name__ + (":" + x.op if isinstance(x, A.Binary) else ""))
        return False if isinstance(x, A.Binary) and x.op == "-" else None
    walk(e, fn)
    assert seen == ["Binary:=", "Binary:*", "Binary:+", "Column", "Column", "Binary:-",
                    "Column"]


def test_walk_enters_subqueries_only_when_asked():
    e = _where("SELECT 1 FROM t WHERE a IN (SELECT x FROM u WHERE y = 5) AND "
               "EXISTS (SELECT 1 FROM u WHERE z = 6)")
    flat, deep = [], []
    walk(e, flat.append)
    walk(e, deep.append, into_subqueries=True)
    lits = lambda xs: sorted(x.value for x in xs if isinstance(x, A.Literal))  # noqa: E731
    assert lits(flat) == []
    assert lits(deep) == [1, 5, 6]


# ---- memoised EP_Collate ---------------------------------------------------------------------

def test_has_explicit_collate_on_fresh_nodes_after_the_memo_saw_others():
    clear_caches()
    for i in range(50):  # new nodes each round: a reused id must never give an old answer
        plain = A.Binary("+", A.Column("a"), A.Literal(i))
        coll = A.Binary("+", A.Column("a"), A.Collate(A.Literal(i), "nocase"))
        assert has_explicit_collate(plain) is False
        assert has_explicit_collate(coll) is True
        assert has_explicit_collate(A.Unary("-", coll)) is True
        assert has_explicit_collate(A.Subquery(None)) is False
    assert has_explicit_collate(None) is False


def test_has_explicit_collate_on_large_expressions_and_their_parts():
    # (past 16 compound nodes the answers of large subexpressions are kept: each part
    # asked after its whole, and before it, still gets its own answer)
    for depth in (5, 17, 40):
        for where in (None, 0, depth // 2, depth - 1):
            clear_caches()
            chain = [A.Column("a")]
            for i in range(depth):
                leaf = A.Collate(A.Literal(i), "nocase") if i == where else A.Literal(i)
                chain.append(A.Binary("+", chain[-1], leaf))
            parts = chain[1:]
            order = parts[::-1] if depth % 2 else parts
            for e in order:
                i = parts.index(e)
                assert has_explicit_collate(e) is (where is not None and where <= i)
            wrapped = [A.Case(None, [(A.Literal(1), parts[-1])], None),
                       A.FunctionCall("f", [A.Literal(0), parts[-1]]),
                       A.InList(A.Literal(0), [A.Literal(1), parts[-1]]),
                       A.Between(parts[-1], A.Literal(0), A.Literal(1)),
                       A.Cast(A.Unary("-", parts[-1]), "TEXT")]
            for w in wrapped:
                assert has_explicit_collate(w) is (where is not None)


# ---- comparisons against sqlite3 --------------------------------------------------------------

SETUP = [
    "CREATE TABLE t(i INTEGER, r REAL, x TEXT COLLATE NOCASE, y TEXT, n NUMERIC, b)",
    "INSERT INTO t VALUES (1, 1.0, 'abc', 'abc', '1', 1), (2, 2.5, 'ABC', 'ABC', 2, '2'),"
    " (3, NULL, 'b', 'B', '3.0', x'01'), (NULL, 4, NULL, NULL, NULL, NULL),"
    " (10, 10, '10', '10', 10, '10')",
    "CREATE TABLE k(id INTEGER PRIMARY KEY, v TEXT COLLATE RTRIM)",
    "INSERT INTO k VALUES (1, 'a '), (2, 'b'), (5, 'a')",
]

CASES = [
    "SELECT i FROM t WHERE x = 'abc' ORDER BY i",
    "SELECT i FROM t WHERE y = 'abc' ORDER BY i",
    "SELECT i FROM t WHERE x = 'abc' COLLATE binary ORDER BY i",
    "SELECT i FROM t WHERE 'ABC' = x ORDER BY i",
    "SELECT i FROM t WHERE x > 'B' ORDER BY i",
    "SELECT i FROM t WHERE i = '2' OR r = '2.5' OR n = '3' ORDER BY i",
    "SELECT i FROM t WHERE b = '2' OR b = 1 ORDER BY i",
    "SELECT i FROM t WHERE y = 10 OR n = '10' OR b = 10 ORDER BY i",
    "SELECT i FROM t WHERE i BETWEEN '1' AND '2' ORDER BY i",
    "SELECT i FROM t WHERE x BETWEEN 'ABC' AND 'abd' ORDER BY i",
    "SELECT i FROM t WHERE x IN ('ABC') ORDER BY i",
    "SELECT i FROM t WHERE x IN ('ABC', 'B') ORDER BY i",
    "SELECT i FROM t WHERE i IS NULL OR x IS 'b'",
    "SELECT i, x = 'ABC', y = 'ABC', CASE x WHEN 'ABC' THEN 1 ELSE 0 END FROM t ORDER BY i",
    "SELECT id FROM k WHERE v = 'a' ORDER BY id",
    "SELECT id FROM k WHERE rowid = '2' OR oid = 5 ORDER BY id",
    "SELECT id FROM k WHERE v = ? ORDER BY id",
    "SELECT i FROM t WHERE x = ? ORDER BY i",
    "SELECT i FROM t WHERE i = ? ORDER BY i",
    "SELECT -9223372036854775808, -(9223372036854775807), - -1, +x, ~i FROM t ORDER BY i",
    # the collation of a comparison: an explicit COLLATE anywhere in an operand (small
    # and deep expressions, CASE, BETWEEN, IS NULL), else a column's through CAST or +
    "SELECT i FROM t WHERE y || '' = 'ABC' COLLATE nocase ORDER BY i",
    "SELECT i FROM t WHERE (y COLLATE nocase) || '' = 'abc' ORDER BY i",
    "SELECT i FROM t WHERE 'abc' = -(-(y COLLATE nocase || '')) || '' ORDER BY i",
    "SELECT i FROM t WHERE ((((((((((y COLLATE nocase || '') || '') || '') || '') || '') || '')"
    " || '') || '') || '') || '') || '' || '' || '' || '' || '' || '' || '' = 'abc' ORDER BY i",
    "SELECT i FROM t WHERE 'abc' = ((((((((((y || '') || '') || '') || '') || '') || '') || '')"
    " || '') || '') || '') || '' || '' || '' || '' || '' || '' || '' || ('' COLLATE nocase)"
    " ORDER BY i",
    "SELECT i FROM t WHERE CAST(x AS TEXT) = 'ABC' ORDER BY i",
    "SELECT i FROM t WHERE +x = 'ABC' OR 'B' = +x ORDER BY i",
    "SELECT i FROM t WHERE x || '' = 'ABC' OR 'B' = x || '' ORDER BY i",
    "SELECT i FROM t WHERE y = x ORDER BY i",
    "SELECT i FROM t WHERE y || '' = +x ORDER BY i",
    "SELECT i FROM t WHERE (y BETWEEN 'ABC' COLLATE nocase AND 'abd') = 1 ORDER BY i",
    "SELECT i FROM t WHERE (CASE WHEN i > 0 THEN y COLLATE nocase END) = 'abc' ORDER BY i",
    "SELECT i FROM t WHERE (y COLLATE nocase IS NULL) || y = '0abc' ORDER BY i",
    "SELECT i FROM t WHERE CAST(y AS TEXT) || CAST(y COLLATE nocase AS TEXT) = 'ABCabc'"
    " ORDER BY i",
    "SELECT i, x < 'b', +x < 'b', y < x, x || '' < 'b' FROM t ORDER BY i",
]


@pytest.fixture(scope="module")
def dbs():
    ours = Database(":memory:")
    ref = sqlite3.connect(":memory:")
    for s in SETUP:
        ours.execute(s)
        ref.execute(s)
    return ours, ref


@pytest.mark.parametrize("sql", CASES)
def test_comparisons_match_sqlite(dbs, sql):
    ours, ref = dbs
    params = ("abc",) if "?" in sql and "x = ?" in sql else \
        ("a",) if "?" in sql and "v = ?" in sql else ("2",) if "?" in sql else ()
    assert ours.execute(sql, params) == ref.execute(sql, params).fetchall()


# ---- aggregate walk and aggregate registers against sqlite3 -----------------------------------

AGG_CASES = [
    # aggregates under BETWEEN, IN (list) and LIKE (the walk's order numbers them)
    "SELECT COUNT(*) BETWEEN MIN(i) AND MAX(i), MIN(i) BETWEEN 0 AND SUM(i) FROM t",
    "SELECT SUM(i) IN (MIN(i), MAX(i), 16), MAX(i) NOT IN (COUNT(*), 3) FROM t",
    "SELECT MAX(y) LIKE MIN(y), MIN(x) LIKE 'a%' ESCAPE MAX('!') FROM t",
    "SELECT CAST(SUM(i) AS TEXT) || MIN(y), MAX(r) IS NULL, -COUNT(*) FROM t",
    "SELECT y, COUNT(*), SUM(i) * 2 FROM t GROUP BY y HAVING COUNT(*) >= 1 ORDER BY y",
    "SELECT x, MIN(i), MIN(i) + MAX(i) FROM t GROUP BY x COLLATE binary ORDER BY 1",
    "SELECT COUNT(*) FROM t WHERE i = 2 OR t.i = 3 OR i = '10'",
]


@pytest.mark.parametrize("sql", AGG_CASES)
def test_aggregate_queries_match_sqlite(dbs, sql):
    ours, ref = dbs
    assert ours.execute(sql) == ref.execute(sql).fetchall()


@pytest.mark.parametrize("sql", [
    "SELECT COUNT(*) FROM t WHERE nosuch = 1",
    "SELECT i FROM t WHERE t.nosuch < 'a'",
    "SELECT SUM(i) IN (MIN(i), MAX(SUM(i))) FROM t",
    "SELECT MIN(i) BETWEEN 1 AND COUNT(MAX(i)) FROM t",
])
def test_errors_match_sqlite(dbs, sql):
    ours, ref = dbs
    with pytest.raises(sqlite3.OperationalError) as want:
        ref.execute(sql).fetchall()
    with pytest.raises(errors.OperationalError) as got:
        ours.execute(sql)
    assert str(got.value) == str(want.value)
