"""Compiling and running a statement leaves no reference cycles behind: the objects of a
compile (scopes, sources, column references, WHERE terms and operands, planner loops)
are freed by reference counting, so the cyclic garbage collector does not have to run
once every few statements (its runs cost about a tenth of the corpus's compile time)."""

import gc

import pytest

import sqlengine

# {k} differs on every run: each text is compiled anew (the database keeps programs by
# their text)
QUERIES = [
    "SELECT a, b FROM t1 WHERE a > {k} AND b < 'x' ORDER BY 1 DESC",
    "SELECT pk FROM t2 WHERE (c0 > {k} AND c1 IN (1, 2, 3)) OR c0 = 7 ORDER BY pk",
    "SELECT c0 FROM t2 WHERE c0 = {k} AND c1 BETWEEN 1 AND 9",
    "SELECT t1.a, t2.c1 FROM t1, t2 WHERE t1.a = t2.c0 AND t2.c1 > {k}",
    "SELECT a, count(*), sum(b) FROM t1 GROUP BY a HAVING count(*) > {k}",
    "SELECT * FROM t1 WHERE a IN (SELECT c0 FROM t2 WHERE c1 > t1.a + {k})",
    "SELECT DISTINCT - a + {k} AS x FROM t1 AS cor0 WHERE NOT a IS NULL",
    "SELECT a FROM t1 LEFT JOIN t2 ON t1.a = t2.c0 WHERE t2.c1 IS NULL OR t2.c0 > {k}",
]


@pytest.fixture
def con():
    c = sqlengine.connect(":memory:", isolation_level=None, cached_statements=0)
    c.executescript("""
        CREATE TABLE t1(a INTEGER, b TEXT);
        CREATE TABLE t2(pk INTEGER PRIMARY KEY, c0 INTEGER, c1 INTEGER);
        CREATE INDEX i2 ON t2(c0, c1);
        CREATE INDEX i2b ON t2(c1);
        INSERT INTO t1 VALUES (1, 'a'), (4, 'b'), (7, 'c');
        INSERT INTO t2 VALUES (1, 4, 2), (2, 7, 3), (3, 1, 9);
    """)
    yield c
    c.close()


@pytest.mark.parametrize("sql", QUERIES)
def test_no_cycles_left(con, sql):
    con.execute(sql.format(k=0)).fetchall()  # (first use: the schema is built)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for k in range(1, 4):
            con.execute(sql.format(k=k)).fetchall()
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


# write statements (insert.py, delete.py, update.py, fkey.py are compiled modules too);
# t3 has a CHECK, a UNIQUE index and an INTEGER PRIMARY KEY; {k} keeps each row new
WRITES = [
    "INSERT INTO t3(c0, c1) VALUES ({k}, 'v{k}')",
    "INSERT OR REPLACE INTO t3 VALUES ({k}, {k}, 'w')",
    "INSERT INTO t3(c0, c1) SELECT a + 100 * {k}, b || {k} FROM t1",
    "UPDATE t3 SET c1 = 'u{k}' WHERE c0 > {k}",
    "UPDATE t2 SET c0 = c0 + {k} WHERE c1 < 5",
    "DELETE FROM t3 WHERE c0 = {k}",
    "DELETE FROM t2 WHERE c1 = {k} + 100",
]


@pytest.mark.parametrize("sql", WRITES)
def test_no_cycles_left_by_writes(con, sql):
    con.execute("CREATE TABLE t3(pk INTEGER PRIMARY KEY, c0 INTEGER CHECK (c0 >= 0), "
                "c1 TEXT UNIQUE)")
    con.execute(sql.format(k=0)).fetchall()
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for k in range(1, 4):
            con.execute(sql.format(k=k)).fetchall()
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
