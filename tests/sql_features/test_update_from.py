"""UPDATE ... FROM against sqlite3: the target's row key read without name lookup (a FROM
item aliased with the target's name, self-joins), which FROM items SQLite refuses, the last
of several joined rows winning, rows updated in key order, WITHOUT ROWID targets (the key
is the PRIMARY KEY tuple; NOCASE and DESC key columns), RETURNING, and the stored file
still passing integrity_check."""

import random

import pytest

from sqlfeat_diff import run_pair

SETUP = [
    "CREATE TABLE inv(id INTEGER PRIMARY KEY, item, qty, price)",
    "INSERT INTO inv VALUES(1,'a',2,1.0),(2,'b',3,2.0),(3,'c',4,3.0)",
    "CREATE TABLE delta(id, qty)",
    "INSERT INTO delta VALUES(1,10),(5,20),(2,7),(2,8)",
    "CREATE TABLE w(a TEXT, b INT, c, PRIMARY KEY(b, a)) WITHOUT ROWID",
    "INSERT INTO w VALUES('x',1,10),('y',1,20),('x',2,30)",
    "CREATE INDEX wc ON w(c)",
    "CREATE TABLE wn(k TEXT COLLATE NOCASE PRIMARY KEY, v) WITHOUT ROWID",
    "INSERT INTO wn VALUES('A',1),('b',2)",
    "CREATE TABLE d(k TEXT COLLATE NOCASE, n INT, v, PRIMARY KEY(k, n DESC)) WITHOUT ROWID",
    "INSERT INTO d VALUES('b',1,0),('B',2,0),('a',1,0),('C',3,0),('c',1,0)",
    "CREATE TABLE src(k, n, x)",
    "INSERT INTO src VALUES('B',2,5),('b',2,6),('A',1,7),('c',3,8),('c',1,9),('c',1,10)",
]

CASES = [
    # the target's name taken by a FROM item (the alias shadows nothing: ambiguity rules)
    "UPDATE inv SET qty = 1 FROM delta AS inv",
    "UPDATE inv SET qty = inv.qty + 100 FROM delta AS inv",
    "UPDATE inv SET qty = price FROM delta AS inv RETURNING *",
    "UPDATE inv SET qty = inv.rowid FROM delta AS inv",
    "UPDATE inv AS x SET qty = 7 FROM delta AS inv WHERE inv.id = x.id RETURNING id, qty",
    "UPDATE inv SET qty = 5 FROM delta AS d, delta AS inv",
    # self-joins and the FROM items SQLite refuses
    "UPDATE inv SET qty = 1000 FROM inv AS t2 WHERE t2.id = inv.id + 1",
    "UPDATE inv SET qty = t2.qty FROM inv AS t2 WHERE t2.id = inv.id + 1 RETURNING *",
    "UPDATE inv SET qty = 1 FROM inv",
    "UPDATE inv SET qty = 1 FROM main.inv",
    "UPDATE inv SET qty = 1 FROM delta AS d, inv",
    "UPDATE inv AS x SET qty = 1 FROM inv AS x",
    "UPDATE inv AS x SET qty = 1 FROM inv",
    "UPDATE inv AS inv SET qty = 1 FROM inv",
    "UPDATE inv SET qty = 1 FROM inv AS inv",
    "UPDATE inv AS x SET qty = 1 FROM delta AS x",
    "UPDATE inv AS delta SET qty = 3 FROM delta",
    "UPDATE inv SET qty = rowid FROM delta",
    "UPDATE inv SET qty = inv.rowid FROM delta",
    # several joined rows for one target row: the last written wins
    "UPDATE inv SET qty = d.qty FROM delta d WHERE d.id = inv.id RETURNING *",
    "UPDATE inv SET qty = d.qty FROM (SELECT id, sum(qty) qty FROM delta GROUP BY id) d "
    "WHERE d.id = inv.id RETURNING *",
    "SELECT * FROM inv",
    # ORDER BY / LIMIT / OFFSET choose among the join's rows
    "UPDATE inv SET qty = qty + d.qty FROM delta d WHERE d.id = inv.id "
    "ORDER BY inv.id DESC, d.qty LIMIT 2 RETURNING *",
    "UPDATE inv SET qty = -d.qty FROM delta d WHERE d.id = inv.id "
    "ORDER BY d.qty LIMIT 2 OFFSET 1 RETURNING *",
    "UPDATE inv SET qty = 0 FROM delta ORDER BY delta.qty",
    "UPDATE inv SET qty = 1 FROM delta AS inv LIMIT 1 RETURNING id, qty",
    "SELECT * FROM inv",
    # WITHOUT ROWID targets
    "UPDATE w SET c = d.qty FROM delta d WHERE d.id = w.b RETURNING *",
    "UPDATE w SET c = c + d.qty FROM delta AS w, delta d WHERE d.id = 1",
    "UPDATE w SET c = w.rowid FROM delta",
    "UPDATE w SET c = rowid FROM delta RETURNING *",
    "UPDATE w SET b = b + 10 FROM delta d WHERE d.id = w.b RETURNING a, b, c",
    "UPDATE w SET a = 'y' FROM delta d WHERE d.id = 2 AND w.b = 11",
    "UPDATE OR REPLACE w SET a = 'y' FROM delta d WHERE d.id = 2 AND w.b = 11 RETURNING *",
    "UPDATE w SET c = w2.c FROM w AS w2 WHERE w2.b = w.b AND w2.a <> w.a",
    "SELECT * FROM w",
    "SELECT * FROM w INDEXED BY wc WHERE c > 0",
    "UPDATE wn SET v = v + d.qty FROM delta d WHERE d.id = wn.v RETURNING *",
    "UPDATE wn SET k = 'a' FROM delta d WHERE d.id = 2",
    "UPDATE wn SET k = 'B' FROM delta d WHERE d.id = 1 AND wn.v > 2 RETURNING *",
    "SELECT * FROM wn",
    "UPDATE d SET v = src.x FROM src WHERE src.k = d.k AND src.n = d.n RETURNING *",
    "UPDATE d SET v = v + 1 FROM src RETURNING k, n, v",
    "UPDATE d SET n = n + src.x FROM src WHERE src.k = d.k AND src.n = d.n RETURNING *",
    "SELECT * FROM d",
    # WITHOUT ROWID target with ORDER BY/LIMIT: the join's rows are limited, not the target's
    "UPDATE d SET v = src.x FROM src WHERE src.k = d.k ORDER BY src.x DESC LIMIT 2 RETURNING *",
    "UPDATE w SET c = -d.qty FROM delta d WHERE d.id = w.b ORDER BY d.qty LIMIT 1 OFFSET 1",
    "CREATE TABLE wk(k TEXT PRIMARY KEY, v INT) WITHOUT ROWID",
    "INSERT INTO wk VALUES('a',1),('b',2),('c',3),('d',4)",
    "CREATE TABLE dk(k TEXT, n INT)",
    "INSERT INTO dk VALUES('a',10),('b',20),('c',30),('d',40)",
    "UPDATE wk SET v = dk.n FROM dk WHERE dk.k = wk.k ORDER BY dk.n DESC LIMIT 2",
    "SELECT * FROM wk",
    "SELECT * FROM d",
    "SELECT * FROM w",
    "PRAGMA integrity_check",
]


def test_update_from_cases():
    stmts = [(s, False) for s in SETUP + CASES]
    n, mismatches = run_pair(stmts)
    assert n == len(stmts)
    assert not mismatches, "\n".join(mismatches[:10])


@pytest.mark.parametrize("seed", range(4))
def test_update_from_random(seed):
    """Random UPDATE ... FROM on a WITHOUT ROWID table and a rowid table with the same
    rows, FROM items aliased with the target's name or not, RETURNING in key order."""
    rnd = random.Random(seed)
    stmts = ["CREATE TABLE r(a INT, b TEXT, c, PRIMARY KEY(a, b)) WITHOUT ROWID",
             "CREATE TABLE q(a INT, b TEXT, c)",
             "CREATE INDEX rc ON r(c, a)",
             "CREATE TABLE s(a, c)"]
    for _ in range(20):
        a, b = rnd.randint(0, 6), rnd.choice("xyzXY")
        stmts.append(f"INSERT OR IGNORE INTO r VALUES({a}, '{b}', {rnd.randint(0, 9)})")
        stmts.append(f"INSERT INTO q VALUES({a}, '{b}', {rnd.randint(0, 9)})")
        stmts.append(f"INSERT INTO s VALUES({rnd.randint(0, 6)}, {rnd.randint(0, 9)})")
    for _ in range(25):
        t = rnd.choice(["r", "q"])
        alias = rnd.choice(["s", "s AS " + t, "s AS z"])
        sq = alias.split()[-1]
        if sq == t:  # every column name ambiguous: only constants
            setc = rnd.choice(["c = 5", "a = 3", "b = 'y'"])
            where = rnd.choice(["", "WHERE 1"])
        else:
            setc = rnd.choice([f"c = {sq}.c", f"c = {t}.c + 1", f"a = {t}.a + {sq}.c",
                               f"b = {sq}.c"])
            where = rnd.choice([f"WHERE {sq}.a = {t}.a", f"WHERE {sq}.c > 4", ""])
        stmts.append(f"UPDATE OR IGNORE {t} SET {setc} FROM {alias} {where} RETURNING *")
    stmts += ["SELECT * FROM r ORDER BY a, b", "SELECT * FROM q ORDER BY rowid",
              "PRAGMA integrity_check"]
    n, mismatches = run_pair([(s, False) for s in stmts])
    assert not mismatches, "\n".join(mismatches[:10])
