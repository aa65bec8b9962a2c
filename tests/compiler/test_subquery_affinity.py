"""A FROM subquery, view or CTE that SQLite materializes stores its rows with its columns'
affinities applied (sqlite3Select hands sqlite3TableAffinityStr of the subquery's table to
the MakeRecord of each row: compiler/select.py ``TableDest``), so a compound whose later
SELECT gives 1 to a column its first SELECT made TEXT reads '1'. Where SQLite runs the
subquery as a co-routine (the first FROM item, alone or before a LEFT or CROSS JOIN, unless
a MATERIALIZED CTE or one read twice), flattens it (a UNION ALL whose SELECTs agree on
each column's affinity), or merges a compound's sorted SELECTs (an ORDER BY it keeps),
the rows keep their values. A view with a column list takes its columns' affinities and
types from its last SELECT. Each case is differential against the stdlib sqlite3: the
rows with their types, and a seeded generator of compounds, CTEs and views over typed
tables, joined to other tables, read through ON, IN, ORDER BY, DISTINCT and GROUP BY."""

from __future__ import annotations

import random

import pytest

SETUP = [
    "CREATE TABLE t(a TEXT, b INTEGER, c REAL, d NUMERIC, e BLOB, f)",
    "INSERT INTO t VALUES ('1','1','1','1','1','1'), (2,2,2,2,2,2),"
    " ('2.5','2.5','2.5','2.5','2.5','2.5'), ('abc','abc','abc','abc','abc','abc'),"
    " (NULL,NULL,NULL,NULL,NULL,NULL), (x'31',x'31',x'31',x'31',x'31',x'31'),"
    " (' 3',' 3',' 3',' 3',' 3',' 3')",
    "CREATE TABLE u(y, z TEXT, w INTEGER)",
    "INSERT INTO u VALUES (1,1,1), ('1','1','1'), (2,'2',2), ('2','2.0','2'), (2.5,'2.5',2.5),"
    " ('2.5','x',NULL), (x'31',x'31',x'31'), (NULL,NULL,NULL), ('abc','abc','abc')",
]

# (the first SELECT's column, a later SELECT's value): every affinity against every kind
FIRST = ["a", "b", "c", "d", "e", "f", "a + 0", "CAST(b AS TEXT)", "(SELECT a FROM t)",
         "a COLLATE nocase"]
LATER = ["1", "'1'", "2.5", "'2.5'", "x'31'", "NULL", "' 3'"]

FIXED = []
for f in FIRST:
    for v in LATER:
        arms = f"SELECT {f} AS x FROM t UNION ALL SELECT {v}"
        FIXED += [
            ([], f"SELECT s.x, typeof(s.x), u.y FROM ({arms}) AS s JOIN u ON s.x = u.y"),
            ([], f"SELECT s.x, typeof(s.x) FROM u, ({arms}) AS s"),
            ([], f"WITH s AS MATERIALIZED ({arms}) SELECT x, typeof(x) FROM s"),
            ([], f"WITH s AS ({arms}) SELECT s1.x, typeof(s1.x) FROM s AS s1, s AS s2"),
            ([f"CREATE VIEW s AS {arms}"], "SELECT s.x, typeof(s.x), w FROM s JOIN u ON s.x = u.w"),
        ]
FIXED += [
    # co-routines and flattened compounds keep their values
    ([], "SELECT x, typeof(x) FROM (SELECT a AS x FROM t UNION ALL SELECT 1)"),
    ([], "SELECT x, typeof(x) FROM (SELECT a AS x FROM t UNION ALL SELECT 1) LEFT JOIN u"),
    ([], "SELECT x, typeof(x) FROM (SELECT a AS x FROM t UNION ALL SELECT 1) CROSS JOIN u"),
    ([], "SELECT x, typeof(x) FROM u LEFT JOIN (SELECT a AS x FROM t UNION ALL SELECT 1)"),
    ([], "SELECT x, typeof(x) FROM (SELECT a AS x FROM t UNION ALL SELECT 1) RIGHT JOIN u"
         " ON 1"),
    ([], "WITH s AS NOT MATERIALIZED (SELECT a AS x FROM t UNION ALL SELECT 1)"
         " SELECT s1.x, typeof(s1.x) FROM s AS s1, s AS s2"),
    ([], "SELECT x, typeof(x) FROM (SELECT b AS x FROM t UNION ALL SELECT w FROM u), u"),
    ([], "SELECT x, typeof(x) FROM (SELECT b AS x FROM t UNION ALL SELECT z FROM u), u"),
    # a compound's ORDER BY: kept (merged SELECTs) or left out as SQLite does
    ([], "SELECT x, typeof(x) FROM (SELECT a AS x FROM t UNION ALL SELECT 1 ORDER BY 1"
         " LIMIT 9), u"),
    ([], "SELECT group_concat(x), count(*) FROM (SELECT a AS x FROM t UNION ALL SELECT 1"
         " ORDER BY 1), u"),
    ([], "SELECT max(x), count(*) FROM (SELECT a AS x FROM t UNION ALL SELECT 1 ORDER BY 1), u"),
    ([], "SELECT x, typeof(x) FROM (SELECT a AS x FROM t UNION ALL SELECT 1 ORDER BY 1), u"
         " ORDER BY u.y"),
    ([], "WITH s AS MATERIALIZED (SELECT a AS x FROM t UNION ALL SELECT 1 ORDER BY 1)"
         " SELECT x, typeof(x) FROM s"),
    ([], "WITH s AS MATERIALIZED (SELECT a AS x FROM t UNION ALL SELECT 1 ORDER BY 1)"
         " SELECT x, typeof(x) FROM s ORDER BY x"),
    ([], "SELECT x, typeof(x) FROM (SELECT a AS x FROM t UNION SELECT 1), u"),
    # (of equal rows a UNION keeps the last, a merge of sorted SELECTs the first)
    ([], "SELECT x, typeof(x) FROM (SELECT c + 0 AS x FROM t UNION SELECT e + 0 FROM t"
         " ORDER BY 1), u WHERE u.rowid = 1"),
    ([], "SELECT x, typeof(x) FROM (SELECT c + 0 AS x FROM t UNION SELECT e + 0 FROM t"
         " ORDER BY 1) WHERE x = 1 ORDER BY 1"),
    ([], "SELECT x, typeof(x) FROM (SELECT c + 0 AS x FROM t UNION SELECT e + 0 FROM t"
         " ORDER BY 1) WHERE x = 1"),
    ([], "SELECT s.rowid, x FROM (SELECT a AS x FROM t ORDER BY 1) AS s, u WHERE u.rowid = 1"),
    ([], "SELECT s.rowid, x FROM (SELECT a AS x FROM t ORDER BY 1 LIMIT 9) AS s, u"
         " WHERE u.rowid = 1"),
    ([], "SELECT s.rowid, x FROM (SELECT a AS x, count(*) FROM t GROUP BY a ORDER BY 1 DESC)"
         " AS s, u WHERE u.rowid = 1"),
    ([], "SELECT x, typeof(x) FROM (SELECT a AS x FROM t EXCEPT SELECT 2), u"),
    ([], "SELECT x, typeof(x) FROM (SELECT a AS x FROM t INTERSECT SELECT 2), u"),
    ([], "SELECT column1, typeof(column1) FROM (VALUES (CAST(1 AS TEXT)), (2)), u"),
    # recursive CTEs: materialized in a join, a co-routine alone
    ([], "WITH RECURSIVE r(x) AS (SELECT a FROM t WHERE rowid = 1 UNION ALL SELECT x + 1"
         " FROM r WHERE x < 3) SELECT x, typeof(x) FROM r"),
    ([], "WITH RECURSIVE r(x) AS (SELECT a FROM t WHERE rowid = 1 UNION ALL SELECT x + 1"
         " FROM r WHERE x < 3) SELECT x, typeof(x) FROM r, u WHERE u.rowid < 3"),
    ([], "WITH RECURSIVE r(x) AS MATERIALIZED (SELECT c FROM t WHERE rowid = 1 UNION"
         " SELECT x + 1 FROM r WHERE x < 3 ORDER BY 1 LIMIT 2) SELECT x, typeof(x) FROM r"),
    # views with a column list: the last SELECT types the columns
    (["CREATE VIEW s(x) AS SELECT b FROM t UNION ALL SELECT a FROM t"],
     "SELECT s.x, typeof(s.x) FROM s, u WHERE u.rowid = 1"),
    (["CREATE VIEW s AS SELECT b AS x FROM t UNION ALL SELECT a FROM t"],
     "SELECT s.x, typeof(s.x) FROM s, u WHERE u.rowid = 1"),
    (["CREATE VIEW s(x) AS SELECT 1 UNION ALL SELECT b FROM t UNION ALL SELECT a FROM t"],
     "SELECT s.x, typeof(s.x), u.z FROM s JOIN u ON s.x = u.z"),
    (["CREATE VIEW s(x, x2) AS SELECT a, b FROM t UNION ALL SELECT 1, 2"],
     "PRAGMA table_info(s)"),
    (["CREATE VIEW s(x, x2) AS SELECT 1, 2 UNION ALL SELECT a, c FROM t"],
     "PRAGMA table_info(s)"),
    (["CREATE VIEW s AS SELECT 1 AS x, 2 UNION ALL SELECT a, c FROM t"],
     "PRAGMA table_info(s)"),
    # a scalar subquery's column affinity
    ([], "SELECT x, typeof(x) FROM (SELECT (SELECT b FROM t) AS x UNION ALL SELECT '1'), u"),
    ([], "SELECT x, typeof(x) FROM (SELECT (SELECT (SELECT c FROM t)) AS x"
         " UNION ALL SELECT 1), u"),
    ([], "SELECT y FROM u WHERE y IN (SELECT (SELECT a FROM t))"),
    # reads of such a column: comparisons, IN, ORDER BY, DISTINCT, GROUP BY
    ([], "SELECT s.x, u.y FROM (SELECT b AS x FROM t UNION ALL SELECT '2') AS s, u"
         " WHERE s.x = u.y"),
    ([], "SELECT s.x FROM (SELECT d AS x FROM t UNION ALL SELECT '2.5') AS s, u"
         " WHERE s.x IN (SELECT y FROM u) AND u.rowid = 1"),
    ([], "SELECT s.x FROM (SELECT a AS x FROM t UNION ALL SELECT 2) AS s, u"
         " WHERE u.rowid = 1 ORDER BY s.x"),
    ([], "SELECT DISTINCT s.x, typeof(s.x) FROM (SELECT a AS x FROM t UNION ALL SELECT 2)"
         " AS s, u"),
    ([], "SELECT s.x, typeof(s.x), count(*) FROM (SELECT c AS x FROM t UNION ALL SELECT 2)"
         " AS s, u GROUP BY s.x"),
]


def _sorted(outcome):
    kind, rows = outcome
    return (kind, sorted(rows, key=repr)) if kind == "rows" else outcome


def _run(pair, views, sql):
    for v in views:
        pair.ref.execute(v)
        pair.db.execute(v)
    try:
        return _sorted(pair.ours(sql)), _sorted(pair.theirs(sql))
    finally:
        for v in views:
            drop = "DROP VIEW " + v.split()[2].split("(")[0]
            pair.ref.execute(drop)
            pair.db.execute(drop)


@pytest.mark.parametrize("views, sql", FIXED)
def test_materialized_subquery_affinity(pair, views, sql):
    ours, theirs = _run(pair, views, sql)
    assert ours == theirs


# ---- the generator --------------------------------------------------------------------

COLS = ["a", "b", "c", "d", "e", "f"]
LITS = ["1", "'1'", "2.5", "'2.5'", "2", "x'31'", "NULL", "'abc'", "' 3'", "'2'"]
TYPES = ["TEXT", "INTEGER", "REAL", "NUMERIC", "BLOB"]


def _value(r):
    k = r.random()
    if k < 0.45:
        return "t." + r.choice(COLS)
    if k < 0.55:
        return f"CAST({r.choice(LITS)} AS {r.choice(TYPES)})"
    if k < 0.65:
        return f"(SELECT {r.choice(COLS)} FROM t LIMIT 1)"
    if k < 0.75:
        return f"t.{r.choice(COLS)} COLLATE nocase"
    if k < 0.85:
        return f"t.{r.choice(COLS)} + 0"
    return r.choice(LITS)


def _arm(r, n, first):
    alias = (lambda i: f" AS {('x', 'x2')[i]}") if first else (lambda i: "")
    if r.random() < 0.35:
        return "SELECT " + ", ".join(r.choice(LITS) + alias(i) for i in range(n))
    where = f" WHERE t.rowid {r.choice(['<', '>', '<>'])} {r.randint(1, 7)}" \
        if r.random() < 0.3 else ""
    return "SELECT " + ", ".join(_value(r) + alias(i) for i in range(n)) + " FROM t" + where


def _subquery(r, n):
    k = r.random()
    if k < 0.12:
        return "VALUES " + ", ".join(
            "(" + ", ".join(r.choice(LITS + ["CAST(1 AS TEXT)", "CAST('2' AS REAL)"])
                            for _ in range(n)) + ")" for _ in range(r.randint(1, 3)))
    parts = [_arm(r, n, True)]
    if k < 0.85:
        for _ in range(r.randint(1, 2)):
            parts += [r.choice(["UNION ALL", "UNION ALL", "UNION", "INTERSECT", "EXCEPT"]),
                      _arm(r, n, False)]
    sql = " ".join(parts)
    k = r.random()
    if k < 0.15:  # (an ORDER BY SQLite keeps: with a LIMIT)
        sql += " ORDER BY 1 LIMIT 20"
    elif k < 0.3:  # (one it leaves out in a join or under an ORDER BY)
        sql += " ORDER BY 1"
    return sql


def generated(seed, count):
    """``count`` (views, query, grouping) cases: a subquery (a compound, a plain SELECT or
    VALUES) read as a FROM subquery, a CTE (plain, MATERIALIZED, NOT MATERIALIZED, read
    once or twice) or a view, alone or joined to u, its column compared with u's columns
    (terms SQLite would copy into the subquery, on its column alone, are left out: see
    README), through IN (SELECT ...), ORDER BY, DISTINCT and GROUP BY."""
    r = random.Random(seed)
    out = []
    for _ in range(count):
        n = r.randint(1, 2)
        names = ", ".join(("x", "x2")[:n])
        sub = _subquery(r, n)
        k = r.random()
        views, pre = [], ""
        if k < 0.35 and not sub.startswith("VALUES"):
            src = f"({sub}) AS s"
        elif k < 0.7:
            hint = r.choice(["", "MATERIALIZED ", "NOT MATERIALIZED "])
            pre = f"WITH s({names}) AS {hint}({sub}) "
            src = "s"
        else:
            views = [f"CREATE VIEW s({names}) AS {sub}"]
            src = "s"
        ucol = "u." + r.choice(["y", "z", "w"])
        frm = r.choice([src, f"{src}, u", f"{src} JOIN u ON s.x = {ucol}",
                        f"u JOIN {src} ON s.x = {ucol}", f"{src} LEFT JOIN u ON s.x = {ucol}",
                        f"u LEFT JOIN {src} ON s.x = {ucol}", f"{src} CROSS JOIN u"])
        # (the rows of merged sorted SELECTs keep values their column's affinity would
        # change, which an automatic index of SQLite's finds otherwise than a comparison
        # does: the plan decides; they are only read here)
        merged = "ORDER BY" in sub
        if merged:
            frm = r.choice([src, f"{src}, u", f"{src} CROSS JOIN u"])
        if pre and r.random() < 0.2:
            frm += ", s AS s2"
        cols = r.choice(["s.x, typeof(s.x)", "*", "DISTINCT s.x, typeof(s.x)",
                         "s.x, typeof(s.x), count(*)"])
        grouping = "DISTINCT" in cols or "count" in cols
        tail = "" if merged else r.choice([
            "", " WHERE s.x IN (SELECT y FROM u)", f" WHERE s.x > {ucol}" if ", u" in frm else ""])
        if "count" in cols:
            tail += " GROUP BY s.x"
        if r.random() < 0.3:
            tail += " ORDER BY s.x"
        out.append((views, f"{pre}SELECT {cols} FROM {frm}{tail}", grouping))
    return out


def _numeric(outcome):
    """Rows with int and float merged, for a DISTINCT or GROUP BY whose group's value (1
    or 1.0) is the first row's, which the plan may change."""
    kind, rows = outcome
    if kind != "rows":
        return outcome
    return kind, sorted([tuple(_number(t, v) for t, v in row) for row in rows], key=repr)


def _number(t, v):
    if t in ("int", "float"):
        return "num", float(v)
    if t == "str" and v in ("integer", "real"):  # (its typeof)
        return t, "num"
    return t, v


@pytest.mark.parametrize("seed", range(40))
def test_generated_subqueries_match_sqlite(pair, seed):
    for views, sql, grouping in generated(seed, 25):
        ours, theirs = _run(pair, views, sql)
        if grouping:
            ours, theirs = _numeric(ours), _numeric(theirs)
        assert ours == theirs, sql
