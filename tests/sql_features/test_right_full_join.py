"""RIGHT and FULL JOIN against the stdlib sqlite3 (SQLite 3.40): seeded random small
tables (NULLs and duplicates in the join keys, empty tables, indexed and unindexed join
columns, rowid, INTEGER PRIMARY KEY and WITHOUT ROWID tables, read directly or through a
subquery or view under the table's name) and random join chains of
two to four tables mixing INNER, LEFT, RIGHT, FULL, CROSS and comma joins with ON, USING
or NATURAL, with and without WHERE terms, plain and aggregated, compared as sorted rows
(plus the column names); and the row-key and re-run cases the generator does not reach.
The fixed shapes are in scripts/right_full_join.sql."""

from __future__ import annotations

import random
import sqlite3

import pytest

import sqlengine

TABLES = {
    "a": "CREATE TABLE a(k, v, w)",
    "b": "CREATE TABLE b(k, v, u)",
    "c": "CREATE TABLE c(id INTEGER PRIMARY KEY, k, v)",
    "d": "CREATE TABLE d(k TEXT, v, PRIMARY KEY(k, v)) WITHOUT ROWID",
}
INDEXES = ["CREATE INDEX ak ON a(k)", "CREATE INDEX bkv ON b(k, v)", "CREATE INDEX cv ON c(v)"]
KINDS = ["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "RIGHT JOIN", "FULL JOIN",
         "CROSS JOIN", ","]


def _value(rng):
    return rng.choice(["NULL", "1", "2", "2", "3", "'2'", "4", "2.5"])


def _setup(rng, with_index):
    stmts = list(TABLES.values()) + [f"CREATE VIEW {t}_view AS SELECT * FROM {t}" for t in TABLES]
    if with_index:
        stmts += INDEXES
    for t in TABLES:
        for i in range(rng.choice([0, 1, 3, 5, 6])):
            if t == "c":
                stmts.append(f"INSERT INTO c VALUES({i + 1}, {_value(rng)}, {_value(rng)})")
            elif t == "d":
                stmts.append(f"INSERT OR IGNORE INTO d VALUES({_value(rng)}, {i})")
            else:
                stmts.append(f"INSERT INTO {t} VALUES({_value(rng)}, {_value(rng)}, {i})")
    return stmts


def _on(rng, left, right):
    l, r = rng.choice(left), right
    col = rng.choice(["k", "k", "v"])
    shape = rng.random()
    if shape < 0.55:
        return f"ON {l}.{col} = {r}.{col}"
    if shape < 0.7:
        return f"ON {l}.k = {r}.k AND {l}.v = {r}.v"
    if shape < 0.78:
        return f"ON {l}.k < {r}.k"
    if shape < 0.84:
        return f"ON {r}.k = {rng.choice(['1', '2', 'NULL'])}"
    if shape < 0.9:
        return "ON 1"
    return f"USING({rng.choice(['k', 'v', 'k, v'])})"


def _item(rng, t):
    """Table ``t`` as a FROM item: itself, or under its own name a subquery or view of it."""
    k = rng.random()
    if k < 0.15:
        return f"(SELECT * FROM {t} WHERE v IS NOT 3) AS {t}"
    if k < 0.22:
        return f"(SELECT * FROM {t} LIMIT -1 OFFSET 1) AS {t}"
    if k < 0.3:
        return f"{t}_view AS {t}"
    return t


def _query(rng):
    names = rng.sample(list(TABLES), rng.randint(2, 4))
    sql = _item(rng, names[0])
    for i, t in enumerate(names[1:], 1):
        kind = rng.choice(KINDS)
        item = _item(rng, t)
        if kind == ",":
            sql += f", {item}"
        elif kind != "CROSS JOIN" and rng.random() < 0.1:
            sql += f" NATURAL {kind} {item}"
        else:
            sql += f" {kind} {item}" + ("" if kind == "CROSS JOIN" else " " + _on(rng, names[:i], t))
    where = ""
    if rng.random() < 0.5:
        t = rng.choice(names)
        where = " WHERE " + rng.choice([f"{t}.k IS NULL", f"{t}.k IS NOT NULL", f"{t}.v > 1",
                                        f"{t}.k = 2", f"coalesce({t}.v, 0) < 3",
                                        f"{t}.k IN (1, 3)"])
    rowids = [f"{t}.rowid" for t in names if t != "d"] or ["1"]  # (d: WITHOUT ROWID)
    cols = rng.choice(["*", f"{names[-1]}.*", "count(*)", f"{names[0]}.k, {names[-1]}.v",
                       f"{names[0]}.v, count(*)", "k", ", ".join(rowids)])
    group = f" GROUP BY {names[0]}.v" if cols == f"{names[0]}.v, count(*)" else ""
    return f"SELECT {cols} FROM {sql}{where}{group}"


def _run(conn, sql):
    try:
        cur = conn.execute(sql)
        return ("rows", [d[0] for d in cur.description], sorted(map(repr, cur.fetchall())))
    except Exception as exc:  # noqa: BLE001 - the class and message are the answer
        return ("error", type(exc).__name__, str(exc))


@pytest.mark.parametrize("seed", range(12))
def test_random_join_chains(seed):
    rng = random.Random(seed)
    setup = _setup(rng, with_index=seed % 2 == 0)
    ref = sqlite3.connect(":memory:")
    eng = sqlengine.connect(":memory:")
    for s in setup:
        ref.execute(s)
        eng.execute(s)
    bad = []
    for _ in range(60):
        q = _query(rng)
        want, got = _run(ref, q), _run(eng, q)
        if want != got:
            bad.append(f"{q}\n  sqlite3:   {want}\n  sqlengine: {got}")
    assert not bad, f"{len(bad)} of 60 differ (seed {seed}):\n" + "\n".join(bad[:5])


def _both(setup, sql):
    out = []
    for mod in (sqlite3, sqlengine):
        conn = mod.connect(":memory:")
        conn.executescript(setup)
        out.append(_run(conn, sql))
    return out


def test_match_set_starts_empty_at_each_run():
    """A correlated subquery re-runs its RIGHT JOIN per outer row: the rows an earlier
    run matched must not count as matched, nor its unmatched pass be returned into."""
    setup = ("CREATE TABLE o(a); INSERT INTO o VALUES(1),(2),(3);"
             "CREATE TABLE l(x); INSERT INTO l VALUES(1),(2),(2);"
             "CREATE TABLE r(x); INSERT INTO r VALUES(2),(3);")
    want, got = _both(setup, "SELECT a, (SELECT count(*) FROM l RIGHT JOIN r ON l.x = r.x"
                             " WHERE r.x = o.a) FROM o")
    assert got == want


def test_without_rowid_match_key_is_the_primary_key():
    setup = ("CREATE TABLE l(x); INSERT INTO l VALUES('p'),('q');"
             "CREATE TABLE r(k, j, PRIMARY KEY(j, k)) WITHOUT ROWID;"
             "INSERT INTO r VALUES('p', 1),('p', 2),('z', 1);")
    want, got = _both(setup, "SELECT * FROM l FULL JOIN r ON l.x = r.k AND r.j = 1")
    assert got == want


def test_using_column_of_full_join_is_coalesce():
    """Unqualified, the USING column of a FULL JOIN has no affinity and no collation."""
    setup = ("CREATE TABLE l(x TEXT COLLATE NOCASE); INSERT INTO l VALUES('1'),('Q');"
             "CREATE TABLE r(x TEXT COLLATE NOCASE); INSERT INTO r VALUES('1'),('3');")
    want, got = _both(setup, "SELECT x, x = 1, x = 'q', l.x = 1 FROM l FULL JOIN r USING(x)")
    assert got == want


@pytest.mark.parametrize("sql", [
    "SELECT * FROM l RIGHT JOIN r ON r.x = s.x JOIN r AS s",
    "SELECT * FROM l JOIN r ON r.x = s.x RIGHT JOIN r AS s ON 1",
    "SELECT * FROM l LEFT JOIN r ON r.x = s.x JOIN r AS s",
    "SELECT * FROM l RIGHT JOIN r USING(x), r AS s",
    "SELECT * FROM l FULL JOIN r USING(x) JOIN l AS m ON 1 RIGHT JOIN r AS s USING(x)",
])
def test_errors(sql):
    setup = "CREATE TABLE l(x); CREATE TABLE r(x);"
    want, got = _both(setup, sql)
    assert want[0] == "error"
    assert got == want
