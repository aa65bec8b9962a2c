"""An unknown collation (``x COLLATE nosuch``) is an error only where SQLite looks the
collation up: a comparison, ORDER BY, GROUP BY, DISTINCT, a UNION's deduplication, an
aggregate or function that compares (min, max, nullif, count(DISTINCT ...)), a window's
PARTITION BY or ORDER BY, and the columns of a FROM subquery, view, CTE or CREATE TABLE AS
(sqlite3SelectAddColumnTypeAndCollation); never in a value only computed or tested for
truth or NULL (TK_COLLATE codes its operand; ``x IS NULL`` is TK_ISNULL), so a partial
index ``WHERE a COLLATE nosuch`` is made, kept up to date and read (compiler/_codegen.pyx).
Differential against sqlite3: the statements run in order on one database each."""

from __future__ import annotations

import sqlite3

import sqlengine

STATEMENTS = [
    'CREATE TABLE t(a, b)',
    "INSERT INTO t VALUES('x', 'y')",
    'SELECT a COLLATE nosuch FROM t',
    'SELECT 1 FROM t WHERE a COLLATE nosuch',
    'SELECT 1 FROM t WHERE a COLLATE nosuch IS NULL',
    'SELECT (a COLLATE nosuch) + 1 FROM t',
    'SELECT 1 FROM t WHERE +(a COLLATE nosuch)',
    'SELECT 1 FROM t ORDER BY a COLLATE nosuch',
    'SELECT upper(a COLLATE nosuch) FROM t',
    "SELECT max(a COLLATE nosuch, 'z') FROM t",
    'SELECT min(a COLLATE nosuch) FROM t',
    'SELECT count(*) FROM t GROUP BY a COLLATE nosuch',
    'SELECT 1 WHERE 1 COLLATE nosuch',
    'SELECT 1 COLLATE nosuch',
    'SELECT * FROM (SELECT a COLLATE nosuch FROM t)',
    'SELECT * FROM (SELECT a COLLATE nosuch FROM t) WHERE 0',
    'SELECT * FROM (SELECT a COLLATE nosuch AS q FROM t) WHERE q = 1',
    'SELECT 1 FROM t WHERE CASE WHEN a COLLATE nosuch THEN 1 END',
    'SELECT a COLLATE nosuch IS NULL FROM t',
    'SELECT NOT a COLLATE nosuch FROM t',
    'SELECT 1 FROM t WHERE a COLLATE nosuch AND b',
    'SELECT -a COLLATE nosuch FROM t',
    "SELECT a COLLATE nosuch = 'x' FROM t",
    "SELECT a COLLATE nosuch IN ('x') FROM t",
    "SELECT a COLLATE nosuch BETWEEN 'a' AND 'z' FROM t",
    "SELECT a COLLATE nosuch LIKE 'x' FROM t",
    "SELECT CASE a COLLATE nosuch WHEN 'x' THEN 1 END FROM t",
    'SELECT DISTINCT a COLLATE nosuch FROM t',
    'SELECT a COLLATE nosuch FROM t UNION SELECT 1',
    'SELECT a COLLATE nosuch FROM t UNION ALL SELECT 1',
    'SELECT a COLLATE nosuch FROM t UNION ALL SELECT 1 ORDER BY 1',
    'SELECT group_concat(a COLLATE nosuch) FROM t',
    'SELECT count(DISTINCT a COLLATE nosuch) FROM t',
    "SELECT nullif(a COLLATE nosuch, 'x') FROM t",
    "SELECT instr(a COLLATE nosuch, 'x') FROM t",
    "SELECT a COLLATE nosuch IS 'x' FROM t",
    'SELECT row_number() OVER (ORDER BY a COLLATE nosuch) FROM t',
    'SELECT row_number() OVER (PARTITION BY a COLLATE nosuch) FROM t',
    'SELECT (SELECT a COLLATE nosuch) FROM t',
    'SELECT EXISTS (SELECT a COLLATE nosuch) FROM t',
    'SELECT 1 FROM t WHERE a IN (SELECT b COLLATE nosuch FROM t)',
    'CREATE VIEW v AS SELECT a COLLATE nosuch AS c FROM t',
    'SELECT * FROM v',
    "SELECT c FROM v WHERE c = 'x'",
    'CREATE TABLE t2 AS SELECT a COLLATE nosuch FROM t',
    'CREATE INDEX i ON t(a) WHERE a COLLATE nosuch',
    'CREATE INDEX i4 ON t(a) WHERE a COLLATE nosuch IS NOT NULL',
    'CREATE INDEX i5 ON t(b) WHERE (b COLLATE nosuch) + 1 > 0',
    'SELECT * FROM t WHERE a COLLATE nosuch',
    "SELECT * FROM t WHERE a COLLATE nosuch AND a > 'a'",
    "SELECT * FROM t WHERE a COLLATE nosuch IS NOT NULL AND a = 'x'",
    "SELECT a FROM t INDEXED BY i4 WHERE a COLLATE nosuch IS NOT NULL AND a > 'w'",
    'SELECT b FROM t INDEXED BY i5 WHERE (b COLLATE nosuch) + 1 > 0',
    "INSERT INTO t VALUES ('z', 'w'), (NULL, 1)",
    "UPDATE t SET a = 'q' WHERE b = 'w'",
    "DELETE FROM t WHERE b = 'y'",
    'PRAGMA integrity_check',
    'REINDEX',
    'REINDEX t',
    'SELECT a FROM t INDEXED BY i4 WHERE a COLLATE nosuch IS NOT NULL',
    'CREATE TABLE t3(a, b, CHECK (a COLLATE nosuch))',
    'CREATE TABLE t4(a, b AS (a COLLATE nosuch))',
    'INSERT INTO t4(a) VALUES (1)',
    'SELECT * FROM t4',
    "CREATE TABLE t5(a DEFAULT ('x' COLLATE nosuch))",
    'CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT new.a COLLATE nosuch; END',
    'INSERT INTO t VALUES (5, 6)',
    'UPDATE t SET b = b COLLATE nosuch',
    'SELECT * FROM t RETURNING a',
    'DELETE FROM t RETURNING a COLLATE nosuch',
    'PRAGMA table_info(v)',
    'SELECT * FROM (SELECT 1 UNION ALL SELECT a COLLATE nosuch FROM t)',
    'SELECT * FROM (SELECT a COLLATE nosuch FROM t UNION ALL SELECT 1)',
    'SELECT * FROM (SELECT (a COLLATE nosuch) + 1 FROM t)',
    'SELECT * FROM (SELECT a FROM t WHERE a COLLATE nosuch)',
    'WITH c AS (SELECT a COLLATE nosuch FROM t) SELECT 1',
    'WITH c AS (SELECT a COLLATE nosuch FROM t) SELECT * FROM c',
    'WITH RECURSIVE c(x) AS (SELECT a COLLATE nosuch FROM t UNION ALL SELECT x FROM c WHERE 0) SELECT * FROM c',
    'SELECT 1 FROM t WHERE NULL IS a COLLATE nosuch',
    'SELECT 1 FROM t WHERE a COLLATE nosuch IS NOT NULL',
    'SELECT 1 FROM t WHERE a COLLATE nosuch ISNULL',
    'SELECT 1 FROM t WHERE a COLLATE nosuch NOTNULL',
    'SELECT a COLLATE nosuch IS NOT NULL, a COLLATE nosuch IS NULL FROM t',
]


def _run(mod):
    con = mod.connect(":memory:", isolation_level=None)
    out = []
    for sql in STATEMENTS:
        try:
            cur = con.execute(sql)
            out.append((sql, [tuple((type(v).__name__, v) for v in r) for r in cur.fetchall()]))
        except (sqlite3.Error, sqlengine.Error) as e:
            out.append((sql, "error", str(e)))
    con.close()
    return out


def test_unknown_collation_is_looked_up_where_used():
    ours, theirs = _run(sqlengine), _run(sqlite3)
    for a, b in zip(ours, theirs):
        assert a == b
