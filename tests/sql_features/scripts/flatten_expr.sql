-- A view or FROM subquery alone in FROM whose result columns are expressions (or columns
-- under other names) of one table: merged with its expressions copied where the outer
-- query names them (compiler/flatten.py, compiler/flatsubst.py), else materialized.
-- Rows, value types, column names and errors must be sqlite3's: the first row of a
-- GROUP BY group is the merged table's (index) order's, a function that is not
-- deterministic is called at each use of a copy, names, affinity and collation of the
-- copies, compounds, JSON values, windows and subqueries around them.
CREATE TABLE t(a INTEGER, b TEXT COLLATE NOCASE, c REAL, d);
CREATE INDEX tab ON t(a, b);
INSERT INTO t VALUES (1, 'x', 1.5, 'p'), (2, 'Y', 2, 'q'), (3, 'y', NULL, 7), (1, 'X', 4, '8'), (4, NULL, 5, x'01'), (1.0, 'z', 6, '1');
CREATE TABLE k(k, w, z);
CREATE INDEX kkw ON k(k, w);
INSERT INTO k VALUES ('2', 1, 0), (1.0, 3, 1), (2, 1.0, 2), (1, 2.5, 3), (1, 0.5, 4);
CREATE VIEW ve AS SELECT a, a + 1 AS a1, b || 'z' AS bz, +b AS pb, CAST(d AS TEXT) AS dt FROM t WHERE c > 1;
CREATE VIEW vk AS SELECT k, w * 2 AS w2, z + 0 AS zz, typeof(k) AS tk FROM k;
CREATE VIEW vc(p, q) AS SELECT a + 1, b FROM t;
-- unordered
SELECT x.c FROM (SELECT a + 1 AS c FROM t) x WHERE x.c > 2;
-- unordered
SELECT c FROM (SELECT a + 1 AS c FROM t) WHERE c > 2;
SELECT x.c, x.b, count(*) FROM (SELECT a + 1 AS c, b FROM t) x GROUP BY x.b ORDER BY 2;
SELECT * FROM (SELECT a * 2 AS c, b FROM t WHERE a > 1) x ORDER BY c;
SELECT * FROM (SELECT a * 2 AS c, b FROM t AS tt WHERE tt.a > 1) ORDER BY c, 2;
SELECT * FROM ve ORDER BY 1, 2, 3;
SELECT ve.* FROM ve ORDER BY a1 DESC, bz;
SELECT a1, bz, pb, dt, typeof(dt) FROM ve WHERE pb = 'X' ORDER BY 1, 2;
SELECT bz FROM ve WHERE bz = 'XZ';
SELECT pb FROM ve WHERE pb = 'XZ' OR pb = 'y' ORDER BY 1;
-- (k 1: 1, 1.0, 4 from the index kkw; the materialized view gave 1.0, 6, 1)
SELECT k, w2, zz, tk FROM vk GROUP BY k ORDER BY 1;
SELECT w2, k, count(*) FROM vk WHERE k > 0 GROUP BY w2 > 2 ORDER BY 1;
SELECT max(w2), min(zz), tk FROM vk;
SELECT count(*) FROM vk;
SELECT count(*) FROM (SELECT a + 1 AS c FROM t);
SELECT DISTINCT tk FROM vk ORDER BY 1;
SELECT * FROM vc ORDER BY 1, 2;
SELECT q FROM vc WHERE q = 'x' ORDER BY 1;
SELECT a FROM (SELECT a + 1 AS c FROM t);
SELECT x.a FROM (SELECT a + 1 AS c FROM t) x;
SELECT rowid FROM (SELECT a + 1 AS c FROM t) x;
SELECT c AS k FROM (SELECT a + 1 AS c FROM t) ORDER BY k;
SELECT bz FROM ve UNION SELECT 'XZ' ORDER BY 1;
SELECT pb FROM ve UNION SELECT 'XZ' ORDER BY 1;
SELECT 'XZ' UNION SELECT bz FROM ve ORDER BY 1;
SELECT bz FROM ve WHERE bz IN (SELECT bz FROM ve) ORDER BY 1;
SELECT (SELECT max(bz) FROM ve), (SELECT a1 FROM ve WHERE a1 > 2 ORDER BY 1 LIMIT 1);
-- (0 in SQLite: random() is called twice; 1 from a materialized subquery)
SELECT x.r = x.r FROM (SELECT random() AS r FROM t) x;
SELECT bz, count(*) OVER () FROM ve ORDER BY 1;
SELECT json_array(x) FROM (SELECT json(a) x FROM t WHERE a = 1);
SELECT x.c FROM (SELECT a + 1 AS c FROM t) x ORDER BY x.c LIMIT 2 OFFSET 1;
SELECT c FROM (SELECT a + 1 AS c, b FROM t) WHERE b = 'X' ORDER BY c;
SELECT c, b FROM (SELECT a + 1 AS c, b FROM t) WHERE b > 'x' COLLATE BINARY ORDER BY c;
CREATE TABLE m AS SELECT c FROM (SELECT a + 1 AS c FROM t);
SELECT * FROM m ORDER BY 1;
SELECT w.e FROM (SELECT 1 AS e UNION SELECT 3) AS w WHERE w.e IN (SELECT c FROM (SELECT a + 1 AS c FROM t));
