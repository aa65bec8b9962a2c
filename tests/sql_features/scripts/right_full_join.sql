-- RIGHT JOIN and FULL JOIN (SQLite 3.39+): shapes, NULL keys, empty sides, duplicates,
-- indexed and unindexed join columns, rowid and WITHOUT ROWID tables, chains, USING and
-- NATURAL column lists, WHERE against ON, aggregates, subqueries, views, CTEs, triggers
CREATE TABLE t1(a INTEGER PRIMARY KEY, b, c);
INSERT INTO t1 VALUES(1,'one',10),(2,'two',20),(3,'three',NULL),(5,'five',50);
CREATE TABLE t2(x, y);
CREATE INDEX t2x ON t2(x);
INSERT INTO t2 VALUES(1,'p'),(2,'q'),(2,'q2'),(4,'r'),(NULL,'s'),(6,NULL);
CREATE TABLE t3(x, z);
INSERT INTO t3 VALUES(2,200),(3,300),(4,400),(NULL,500),(7,700),(7,701);
CREATE TABLE t4(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
INSERT INTO t4 VALUES('1','k1'),('3','k3'),('8','k8');
CREATE TABLE t5(p, q, r);
CREATE INDEX t5pq ON t5(p, q);
INSERT INTO t5 VALUES(1,1,'a'),(1,2,'b'),(2,2,'c'),(NULL,1,'d'),(3,NULL,'e');
CREATE TABLE t6(p, q, s);
INSERT INTO t6 VALUES(1,1,'A'),(1,3,'B'),(2,2,'C'),(NULL,1,'D'),(3,NULL,'E'),(4,4,'F');
CREATE TABLE e1(x, y);
CREATE TABLE e2(x, z);
CREATE TABLE n1(x, y NOT NULL);
INSERT INTO n1 VALUES(1,'n1'),(9,'n9');
CREATE VIEW v23 AS SELECT t2.x AS x, y, z FROM t2 JOIN t3 USING(x);
CREATE VIEW vr AS SELECT t2.x AS x2, t3.x AS x3, y, z FROM t2 RIGHT JOIN t3 ON t2.x = t3.x;
-- the basic shapes
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x;
-- unordered
SELECT * FROM t2 RIGHT OUTER JOIN t3 ON t2.x = t3.x;
-- unordered
SELECT * FROM t2 FULL JOIN t3 ON t2.x = t3.x;
-- unordered
SELECT * FROM t2 FULL OUTER JOIN t3 ON t2.x = t3.x;
-- unordered
SELECT * FROM t3 RIGHT JOIN t2 ON t2.x = t3.x;
-- unordered
SELECT * FROM t3 FULL JOIN t2 ON t2.x = t3.x;
-- unordered
SELECT * FROM t2 LEFT JOIN t3 ON t2.x = t3.x;
SELECT t2.y, t3.z FROM t2 RIGHT JOIN t3 ON t2.x = t3.x ORDER BY t3.z, t2.y;
SELECT t2.y, t3.z FROM t2 FULL JOIN t3 ON t2.x = t3.x ORDER BY t3.z, t2.y;
SELECT t2.y, t3.z FROM t2 FULL JOIN t3 ON t2.x = t3.x ORDER BY t2.y DESC, t3.z DESC;
SELECT t2.y, t3.z FROM t2 FULL JOIN t3 ON t2.x = t3.x ORDER BY t2.y NULLS LAST, t3.z NULLS FIRST;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON 1;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON 0;
-- unordered
SELECT * FROM t2 FULL JOIN t3 ON 0;
-- unordered
SELECT * FROM t2 FULL JOIN t3 ON NULL;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x AND t3.z > 250;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x AND t2.y = 'q';
-- unordered
SELECT * FROM t2 FULL JOIN t3 ON t2.x = t3.x AND t2.y <> 'q';
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x < t3.x;
-- unordered
SELECT * FROM t2 FULL JOIN t3 ON t2.x IS t3.x;
-- unordered
SELECT * FROM t2 FULL JOIN t3 ON t2.x + 1 = t3.x;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t3.z > 400;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.y = 'p';
-- unordered
SELECT * FROM t2 CROSS JOIN t3 RIGHT JOIN t1 ON t1.a = t3.x;
-- empty tables on either side, or both
-- unordered
SELECT * FROM e1 RIGHT JOIN t3 ON e1.x = t3.x;
-- unordered
SELECT * FROM t3 RIGHT JOIN e1 ON e1.x = t3.x;
-- unordered
SELECT * FROM e1 FULL JOIN t3 ON e1.x = t3.x;
-- unordered
SELECT * FROM t3 FULL JOIN e1 ON e1.x = t3.x;
-- unordered
SELECT * FROM e1 FULL JOIN e2 ON e1.x = e2.x;
-- unordered
SELECT * FROM e1 FULL JOIN e2 USING(x);
-- unordered
SELECT count(*) FROM e1 FULL JOIN e2 ON 1;
-- unordered
SELECT count(*), max(t3.z) FROM e1 RIGHT JOIN t3 ON 1;
-- WHERE terms filter the joined rows, ON terms only the matches
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t2.y IS NULL;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t2.x IS NULL;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t2.y = 'q';
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t2.y <> 'q' OR t2.y IS NULL;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t3.z >= 400;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t2.x = 2;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE coalesce(t2.x, 0) = 0;
-- unordered
SELECT * FROM t2 FULL JOIN t3 ON t2.x = t3.x WHERE t2.x IS NULL OR t3.x IS NULL;
-- unordered
SELECT * FROM t2 FULL JOIN t3 ON t2.x = t3.x WHERE t2.x IS NOT NULL AND t3.x IS NOT NULL;
-- unordered
SELECT * FROM t2 FULL JOIN t3 ON t2.x = t3.x WHERE t2.y > 'p';
-- unordered
SELECT * FROM t2 FULL JOIN t3 ON t2.x = t3.x WHERE t3.z < 450;
-- unordered
SELECT * FROM t2 FULL JOIN t3 ON t2.x = t3.x WHERE 1;
-- unordered
SELECT * FROM t2 FULL JOIN t3 ON t2.x = t3.x WHERE 0;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t2.x = t3.x;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t2.x IN (1, 2, 4);
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t2.x BETWEEN 1 AND 3;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t2.x > 1;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 ON t3.x = 2 WHERE t2.x = 2;
-- unordered
SELECT * FROM n1 RIGHT JOIN t3 ON n1.x = t3.x WHERE n1.y IS NULL;
-- unordered
SELECT n1.y IS NULL, t3.z FROM n1 FULL JOIN t3 ON n1.x = t3.x;
-- rowid and INTEGER PRIMARY KEY joins, WITHOUT ROWID tables
-- unordered
SELECT * FROM t2 RIGHT JOIN t1 ON t1.a = t2.x;
-- unordered
SELECT * FROM t1 RIGHT JOIN t2 ON t1.a = t2.x;
-- unordered
SELECT * FROM t1 FULL JOIN t3 ON t1.rowid = t3.x;
-- unordered
SELECT t1.rowid, t3.rowid, t1.b, t3.z FROM t1 FULL JOIN t3 ON t1.a = t3.x;
-- (t2 read through its covering index t2x: its rowid on the NULL row is NULL)
-- unordered
SELECT t2.rowid IS NULL, count(*) FROM t2 RIGHT JOIN t3 ON t2.x = t3.x GROUP BY 1;
-- unordered
SELECT t2.rowid, t2.x FROM t2 FULL JOIN t3 ON t2.x = t3.x;
-- unordered
SELECT * FROM t2 RIGHT JOIN t4 ON t4.k = t2.x;
-- unordered
SELECT * FROM t4 RIGHT JOIN t2 ON t4.k = t2.x;
-- unordered
SELECT * FROM t4 FULL JOIN t3 ON t4.k = t3.x;
-- unordered
SELECT * FROM t3 FULL JOIN t4 ON t4.k = t3.x;
-- unordered
SELECT t4.k, t4.v, t1.b FROM t1 FULL JOIN t4 ON t4.k = t1.a;
-- multi-column ON, with and without an index on the columns
-- unordered
SELECT * FROM t5 RIGHT JOIN t6 ON t5.p = t6.p AND t5.q = t6.q;
-- unordered
SELECT * FROM t6 RIGHT JOIN t5 ON t5.p = t6.p AND t5.q = t6.q;
-- unordered
SELECT * FROM t5 FULL JOIN t6 ON t5.p = t6.p AND t5.q = t6.q;
-- unordered
SELECT * FROM t5 FULL JOIN t6 USING(p, q);
-- unordered
SELECT p, q, r, s FROM t5 FULL JOIN t6 USING(p, q);
-- unordered
SELECT * FROM t5 NATURAL FULL JOIN t6;
-- unordered
SELECT * FROM t5 NATURAL RIGHT JOIN t6;
-- unordered
SELECT * FROM t5 FULL JOIN t6 ON t5.p = t6.p AND t5.q < t6.q;
-- unordered
SELECT * FROM t5 RIGHT JOIN t6 ON (t5.p, t5.q) = (t6.p, t6.q);
-- unordered
SELECT * FROM t5 FULL JOIN t6 ON t5.p = t6.q AND t5.q = t6.p;
-- USING and NATURAL: the merged column is the right table's (RIGHT) or both sides' coalesce (FULL)
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 USING(x);
-- unordered
SELECT * FROM t2 FULL JOIN t3 USING(x);
-- unordered
SELECT * FROM t2 LEFT JOIN t3 USING(x);
-- unordered
SELECT x FROM t2 RIGHT JOIN t3 USING(x);
-- unordered
SELECT x FROM t2 FULL JOIN t3 USING(x);
-- unordered
SELECT x, t2.x, t3.x FROM t2 FULL JOIN t3 USING(x);
-- unordered
SELECT x, typeof(x) FROM t2 FULL JOIN t3 USING(x) WHERE x > 2;
SELECT x FROM t2 FULL JOIN t3 USING(x) ORDER BY x;
SELECT x FROM t2 FULL JOIN t3 USING(x) ORDER BY x DESC;
SELECT x, count(*) FROM t2 FULL JOIN t3 USING(x) GROUP BY x ORDER BY x;
SELECT DISTINCT x FROM t2 FULL JOIN t3 USING(x) ORDER BY 1;
-- unordered
SELECT t2.*, t3.* FROM t2 FULL JOIN t3 USING(x);
-- unordered
SELECT t3.* FROM t2 RIGHT JOIN t3 USING(x);
-- unordered
SELECT * FROM t2 NATURAL RIGHT JOIN t3;
-- unordered
SELECT * FROM t2 NATURAL FULL JOIN t3;
-- unordered
SELECT * FROM t2 FULL JOIN t3 USING(x) FULL JOIN t2 AS t2b USING(x);
-- unordered
SELECT x FROM t2 FULL JOIN t3 USING(x) FULL JOIN e1 USING(x);
-- unordered
SELECT * FROM t2 FULL JOIN t3 USING(x) JOIN t2 AS t2c USING(x);
-- unordered
SELECT * FROM t2 JOIN t3 USING(x) RIGHT JOIN t2 AS t2d USING(x);
-- unordered
SELECT x FROM t2 JOIN t3 USING(x) RIGHT JOIN t2 AS t2d USING(x);
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 USING(x) LEFT JOIN t2 AS t2e USING(x);
-- unordered
SELECT x FROM t2 RIGHT JOIN t3 USING(x) LEFT JOIN t2 AS t2e USING(x);
-- unordered
SELECT * FROM t2 LEFT JOIN t3 USING(x) RIGHT JOIN e1 USING(x);
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 USING(x), t1;
-- unordered
SELECT * FROM t2 RIGHT JOIN t3 USING(x), t2 AS t2f;
-- unordered
SELECT * FROM t2 FULL JOIN t3 USING(x) WHERE x IS NULL;
-- unordered
SELECT * FROM t2 FULL JOIN t3 USING(x) WHERE x = 7;
SELECT x AS xx FROM t2 FULL JOIN t3 USING(x) ORDER BY xx;
-- unordered
SELECT X FROM t2 FULL JOIN t3 USING(x);
-- three- and four-table chains mixing INNER, LEFT, RIGHT, FULL and comma joins
-- unordered
SELECT * FROM t1 RIGHT JOIN t2 ON t1.a = t2.x RIGHT JOIN t3 ON t3.x = t2.x;
-- unordered
SELECT * FROM t1 FULL JOIN t2 ON t1.a = t2.x FULL JOIN t3 ON t3.x = t2.x;
-- unordered
SELECT * FROM t1 FULL JOIN t2 ON t1.a = t2.x FULL JOIN t3 ON t3.x = t1.a;
-- unordered
SELECT * FROM t1 LEFT JOIN t2 ON t1.a = t2.x RIGHT JOIN t3 ON t3.x = t2.x;
-- unordered
SELECT * FROM t1 JOIN t2 ON t1.a = t2.x RIGHT JOIN t3 ON t3.x = t2.x;
-- unordered
SELECT * FROM t1 RIGHT JOIN t2 ON t1.a = t2.x JOIN t3 ON t3.x = t2.x;
-- unordered
SELECT * FROM t1 RIGHT JOIN t2 ON t1.a = t2.x LEFT JOIN t3 ON t3.x = t2.x;
-- unordered
SELECT * FROM t1 FULL JOIN t2 ON t1.a = t2.x LEFT JOIN t3 ON t3.x = t1.a;
-- unordered
SELECT * FROM t1 RIGHT JOIN t2 ON t1.a = t2.x JOIN t3 ON t3.x = t1.a;
-- unordered
SELECT * FROM t1, t2 RIGHT JOIN t3 ON t3.x = t2.x WHERE t1.a = 1;
-- unordered
SELECT * FROM t1, t2 RIGHT JOIN t3 ON t3.x = t2.x AND t1.a = t2.x;
-- unordered
SELECT * FROM t1 RIGHT JOIN t2 ON t1.a = t2.x, t3 WHERE t3.z = 200;
-- unordered
SELECT * FROM t1 FULL JOIN t2 ON t1.a = t2.x FULL JOIN t3 ON t3.x = t2.x FULL JOIN t4 ON t4.k = t3.x;
-- unordered
SELECT * FROM t1 LEFT JOIN t2 ON t1.a = t2.x FULL JOIN t3 ON t3.x = t2.x RIGHT JOIN t4 ON t4.k = t1.a;
-- unordered
SELECT * FROM t1 JOIN t3 ON t1.a = t3.x FULL JOIN t2 ON t2.x = t3.x JOIN t4 ON t4.k = t2.x;
-- unordered
SELECT * FROM e1 RIGHT JOIN t2 ON e1.x = t2.x FULL JOIN e2 ON e2.x = t2.x;
-- unordered
SELECT * FROM t1 RIGHT JOIN t2 ON t1.a = t2.x RIGHT JOIN t3 ON t3.x = t2.x WHERE t1.b IS NOT NULL;
-- unordered
SELECT * FROM t1 FULL JOIN t2 ON t1.a = t2.x FULL JOIN t3 ON t3.x = t2.x WHERE t2.y IS NULL;
SELECT t1.b, t2.y, t3.z FROM t1 FULL JOIN t2 ON t1.a = t2.x FULL JOIN t3 ON t3.x = t2.x ORDER BY 1, 2, 3;
-- ON naming a table to its right
-- unordered
SELECT * FROM t1 RIGHT JOIN t2 ON t2.x = t3.x JOIN t3;
-- unordered
SELECT * FROM t1 JOIN t2 ON t2.x = t3.x RIGHT JOIN t3 ON 1;
-- unordered
SELECT * FROM t1 LEFT JOIN t2 ON t2.x = t3.x JOIN t3;
-- unordered
SELECT * FROM t1 FULL JOIN t2 ON t1.a = t3.x FULL JOIN t3 ON 1;
-- unordered
SELECT * FROM t1 RIGHT JOIN t2 USING(nosuch);
-- unordered
SELECT * FROM t1 NATURAL RIGHT JOIN t2 ON 1;
-- unordered
SELECT nosuch FROM t1 RIGHT JOIN t2 ON 1;
-- (a name that resolves nowhere is told first, as SQLite resolves every name before it
-- analyses the joins)
SELECT nosuch FROM t1 RIGHT JOIN t2 ON t2.x = t3.x JOIN t3;
SELECT nosuch FROM t1 LEFT JOIN t2 ON t2.x = t3.x JOIN t3;
SELECT * FROM t1 LEFT JOIN t2 ON t2.x = t3.x JOIN t3 WHERE nosuch;
SELECT * FROM t1 RIGHT JOIN t2 ON t2.x = t3.x JOIN t3 ORDER BY nosuch;
SELECT * FROM t1 JOIN t2 ON t2.x = t3.x RIGHT JOIN t3 ON 1 WHERE nosuch;
SELECT count(*) FROM t1 LEFT JOIN t2 ON t2.x = t3.x JOIN t3;
SELECT (SELECT 1 FROM t1 LEFT JOIN t2 ON t2.x = t3.x JOIN t3);
-- aggregates, GROUP BY, HAVING, DISTINCT, ORDER BY, LIMIT over RIGHT and FULL joins
-- unordered
SELECT count(*), count(t2.x), count(t3.x), sum(t3.z) FROM t2 FULL JOIN t3 ON t2.x = t3.x;
-- unordered
SELECT count(*) FROM t2 RIGHT JOIN t3 ON t2.x = t3.x;
SELECT t3.x, count(t2.y) FROM t2 RIGHT JOIN t3 ON t2.x = t3.x GROUP BY t3.x ORDER BY t3.x;
SELECT t2.x, count(*) FROM t2 FULL JOIN t3 ON t2.x = t3.x GROUP BY t2.x ORDER BY 1;
SELECT t2.x, group_concat(t3.z) FROM t2 FULL JOIN t3 ON t2.x = t3.x GROUP BY t2.x HAVING count(*) > 1 ORDER BY 1;
-- unordered
SELECT max(t2.y), min(t3.z) FROM t2 RIGHT JOIN t3 ON t2.x = t3.x;
-- unordered
SELECT max(t1.a) FROM t1 RIGHT JOIN t3 ON t1.a = t3.x;
-- unordered
SELECT min(t1.a) FROM t1 FULL JOIN t3 ON t1.a = t3.x;
SELECT DISTINCT t2.x FROM t2 RIGHT JOIN t3 ON t2.x = t3.x ORDER BY 1;
SELECT DISTINCT t2.x IS NULL, t3.x IS NULL FROM t2 FULL JOIN t3 ON t2.x = t3.x ORDER BY 1, 2;
SELECT t3.z FROM t2 RIGHT JOIN t3 ON t2.x = t3.x ORDER BY t3.z LIMIT 3;
SELECT t3.z FROM t2 RIGHT JOIN t3 ON t2.x = t3.x ORDER BY t3.z LIMIT 2 OFFSET 2;
SELECT t2.y, t3.z FROM t2 FULL JOIN t3 ON t2.x = t3.x ORDER BY 2 DESC, 1 LIMIT 4;
SELECT t1.a FROM t1 RIGHT JOIN t2 ON t1.a = t2.x ORDER BY t1.a;
SELECT t1.a FROM t1 FULL JOIN t2 ON t1.a = t2.x ORDER BY t1.a DESC;
SELECT t2.x FROM t2 FULL JOIN t3 ON t2.x = t3.x ORDER BY t2.x;
SELECT t2.y FROM t2 RIGHT JOIN t3 ON t2.x = t3.x UNION SELECT y FROM t2 ORDER BY 1;
-- unordered
SELECT t2.y FROM t2 RIGHT JOIN t3 ON t2.x = t3.x UNION ALL SELECT t3.z FROM t2 FULL JOIN t3 ON 0;
-- unordered
SELECT t3.x FROM t2 RIGHT JOIN t3 ON t2.x = t3.x EXCEPT SELECT x FROM t2;
-- unordered
SELECT t2.x FROM t2 FULL JOIN t3 ON t2.x = t3.x INTERSECT SELECT x FROM t3;
-- unordered
SELECT total(t1.c), avg(t3.z) FROM t1 FULL JOIN t3 ON t1.a = t3.x WHERE t3.z IS NOT NULL;
-- unordered
SELECT count(DISTINCT t2.x) FROM t2 FULL JOIN t3 ON t2.x = t3.x;
SELECT t3.x, row_number() OVER (ORDER BY t3.z) FROM t2 RIGHT JOIN t3 ON t2.x = t3.x ORDER BY 2;
-- subqueries, views and CTEs on either side, correlated subqueries on the right table
-- unordered
SELECT * FROM (SELECT x, y FROM t2 WHERE x > 1) s RIGHT JOIN t3 ON s.x = t3.x;
-- unordered
SELECT * FROM t2 RIGHT JOIN (SELECT x, z FROM t3 WHERE z < 700) s ON s.x = t2.x;
-- unordered
SELECT * FROM (SELECT DISTINCT x FROM t2) s FULL JOIN (SELECT DISTINCT x FROM t3) u ON s.x = u.x;
-- unordered
SELECT * FROM (SELECT x FROM t2 UNION SELECT 100) s FULL JOIN t3 USING(x);
-- unordered
SELECT * FROM (SELECT x, count(*) AS n FROM t2 GROUP BY x) s RIGHT JOIN t3 USING(x);
-- unordered
SELECT * FROM v23 RIGHT JOIN t1 ON v23.x = t1.a;
-- unordered
SELECT * FROM t1 FULL JOIN v23 ON v23.x = t1.a;
-- unordered
SELECT * FROM vr;
-- unordered
SELECT * FROM vr WHERE x2 IS NULL;
-- unordered
SELECT * FROM vr FULL JOIN t1 ON t1.a = vr.x3;
-- unordered
WITH c AS (SELECT x, y FROM t2 WHERE y <> 'q') SELECT * FROM c RIGHT JOIN t3 USING(x);
-- unordered
WITH c AS (SELECT x, z FROM t3) SELECT * FROM t2 FULL JOIN c USING(x);
-- unordered
WITH c AS MATERIALIZED (SELECT x FROM t3) SELECT * FROM c AS c1 FULL JOIN c AS c2 ON c1.x = c2.x + 1;
-- unordered
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 6) SELECT * FROM t2 FULL JOIN r ON r.n = t2.x;
-- unordered
SELECT t3.z, (SELECT count(*) FROM t2 AS s WHERE s.x = t3.x) FROM t2 RIGHT JOIN t3 ON t2.x = t3.x;
-- unordered
SELECT t3.z, (SELECT max(y) FROM t2 AS s WHERE s.x = t3.x) AS m FROM t2 FULL JOIN t3 ON t2.x = t3.x;
-- unordered
SELECT t3.z FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE EXISTS (SELECT 1 FROM t1 WHERE t1.a = t3.x);
-- unordered
SELECT t3.z FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t3.x IN (SELECT a FROM t1);
-- unordered
SELECT t3.z FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t2.x NOT IN (SELECT a FROM t1);
-- unordered
SELECT a, (SELECT count(*) FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t3.x = t1.a) FROM t1;
-- unordered
SELECT a, (SELECT group_concat(coalesce(t2.y, '-')) FROM t2 FULL JOIN t3 ON t2.x = t3.x WHERE t3.x = t1.a OR t2.x = t1.a) FROM t1;
-- unordered
SELECT * FROM t1 WHERE a IN (SELECT t3.x FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t2.x IS NULL);
-- unordered
SELECT * FROM t1 WHERE EXISTS (SELECT 1 FROM t2 FULL JOIN t3 ON t2.x = t3.x WHERE t3.x = t1.a AND t2.x IS NULL);
-- unordered
SELECT * FROM json_each('[1,2,9]') AS j RIGHT JOIN t1 ON j.value = t1.a;
-- unordered
SELECT t1.a, j.value FROM t1 FULL JOIN json_each('[1,2,9]') AS j ON j.value = t1.a;
-- unordered
SELECT * FROM (SELECT 1 AS k) FULL JOIN (SELECT 2 AS k) USING(k);
-- RIGHT JOIN in writes: INSERT ... SELECT, UPDATE ... FROM, triggers
CREATE TABLE log(tag, v);
INSERT INTO log SELECT 'ins', coalesce(t2.y, t3.z) FROM t2 RIGHT JOIN t3 ON t2.x = t3.x;
SELECT * FROM log ORDER BY tag, v;
CREATE TABLE u(id INTEGER PRIMARY KEY, x, note);
INSERT INTO u VALUES(1,2,NULL),(2,3,NULL),(3,9,NULL);
UPDATE u SET note = s.z FROM (SELECT t3.x AS x, t3.z AS z FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t2.x IS NULL) AS s WHERE s.x = u.x;
SELECT * FROM u ORDER BY id;
UPDATE u SET note = 'f' FROM t2 FULL JOIN t3 ON t2.x = t3.x WHERE t3.x = u.x AND t2.x IS NOT NULL;
SELECT * FROM u ORDER BY id;
CREATE TRIGGER tr AFTER INSERT ON e1 BEGIN INSERT INTO log SELECT 'trg', count(*) FROM t2 FULL JOIN t3 ON t2.x = t3.x AND t3.x = new.x; END;
INSERT INTO e1 VALUES(2, 'a');
INSERT INTO e1 VALUES(4, 'b');
SELECT * FROM log WHERE tag = 'trg' ORDER BY v;
-- unordered
SELECT * FROM e1 FULL JOIN t3 ON e1.x = t3.x;
DELETE FROM log WHERE v IN (SELECT t3.z FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t2.x IS NULL);
SELECT * FROM log ORDER BY tag, v;
-- affinity and collation of the merged column, text keys
CREATE TABLE c1(x TEXT COLLATE NOCASE, y);
CREATE TABLE c2(x TEXT COLLATE NOCASE, z);
INSERT INTO c1 VALUES('1',10),('Q',20),('a',30);
INSERT INTO c2 VALUES('1',100),('q',200),('B',300);
-- unordered
SELECT x, x = 1, x = 'q', c1.x = 1, c2.x = 'Q' FROM c1 FULL JOIN c2 USING(x);
-- unordered
SELECT x, x = 1, x = 'Q' FROM c1 RIGHT JOIN c2 USING(x);
-- unordered
SELECT * FROM c1 FULL JOIN c2 ON c1.x = c2.x;
SELECT * FROM c1 FULL JOIN c2 USING(x) ORDER BY x;
-- unordered
SELECT * FROM c1 FULL JOIN c2 ON c1.x = c2.x COLLATE BINARY;
-- UPDATE ... FROM joins the target with the FROM clause as a whole: the unmatched rows of
-- a RIGHT JOIN in it meet every target row
CREATE TABLE uf(id INTEGER PRIMARY KEY, x, n);
INSERT INTO uf VALUES(1,1,0),(2,4,0),(3,5,0),(4,NULL,0);
UPDATE uf SET n = n + 1 FROM t2 RIGHT JOIN t3 ON t2.x = t3.x;
SELECT * FROM uf ORDER BY id;
UPDATE uf SET n = n + 10 FROM t2 FULL JOIN t3 ON t2.x = t3.x WHERE uf.x = t3.x OR uf.x IS NULL;
SELECT * FROM uf ORDER BY id;
UPDATE uf SET n = 100 FROM t2 RIGHT JOIN uf AS v ON t2.x = v.x WHERE v.id = uf.id AND t2.x IS NULL;
SELECT * FROM uf ORDER BY id;
UPDATE uf SET n = coalesce(t2.y, t3.z) FROM t2 FULL JOIN t3 ON t2.x = t3.x WHERE uf.x = coalesce(t2.x, t3.x);
SELECT * FROM uf ORDER BY id;
UPDATE t4 SET v = t3.z FROM t2 RIGHT JOIN t3 ON t2.x = t3.x WHERE t4.k = t3.x;
SELECT * FROM t4 ORDER BY k;
-- a FROM subquery on the right of a RIGHT or FULL JOIN is materialized (SQLite never
-- flattens it): its rowid numbers its rows and its values lose their JSON subtype; on the
-- left of one it is flattened as on the right of a LEFT JOIN
-- unordered
SELECT s.rowid FROM t2 RIGHT JOIN (SELECT a FROM t1 WHERE a > 1) s ON 1;
-- unordered
SELECT s.rowid FROM t2 FULL JOIN (SELECT a FROM t1 WHERE a > 1) s ON s.a = t2.x;
-- unordered
SELECT s.rowid FROM t2 FULL JOIN (SELECT a FROM t1 WHERE a > 1) s ON s.a = t2.x WHERE s.rowid > 1;
-- unordered
SELECT s.rowid, u.rowid FROM (SELECT a FROM t1) s FULL JOIN (SELECT x FROM t3) u ON s.a = u.x;
-- unordered
SELECT s.rowid FROM (SELECT a FROM t1 WHERE a > 1) s RIGHT JOIN t2 ON 1;
-- unordered
SELECT json_array(s.j) FROM (SELECT json('[1]') AS j FROM t1) s FULL JOIN t3 ON s.j = t3.x;
-- unordered
SELECT json_array(s.j) FROM t3 FULL JOIN (SELECT json_array(a) AS j FROM t1) s ON s.j = t3.x;
-- unordered
SELECT json_array(s.j) FROM t3 RIGHT JOIN (SELECT json_array(a) AS j FROM t1 WHERE a > 1) s ON s.j = t3.x;
-- unordered
SELECT json_array(s.j) FROM t1 RIGHT JOIN (SELECT json('[1]') AS j) s ON t1.a = 1;
