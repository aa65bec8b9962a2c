-- A FROM subquery, view, VALUES or CTE SQLite stores (materializes: not run as a
-- co-routine) is filled when its loop is first reached, not before the loops begin: an
-- empty table in an outer loop, a constant false WHERE, LIMIT 0 or an outer loop whose
-- rows never reach it leave it unfilled, so an error of its constant columns
-- (json('{'), a constant integer overflow, abs() of the smallest integer) does not show.
-- A subquery reading an enclosing query's row is filled each time its loop is reached.
CREATE TABLE e(a);
CREATE TABLE t(b);
INSERT INTO t VALUES (1), (2), (3);
CREATE TABLE u(c);
INSERT INTO u VALUES (2), (3), (4);
CREATE VIEW vj AS SELECT DISTINCT json('{') AS j FROM t;
CREATE VIEW vg AS SELECT b, count(*) AS n, abs(-9223372036854775808) AS z FROM t GROUP BY b;
CREATE VIEW vw AS SELECT b, row_number() OVER (ORDER BY b) AS r, json('{') AS j FROM t;
CREATE VIEW vo AS SELECT b, abs(-9223372036854775808) AS o FROM t ORDER BY b LIMIT 5;
-- an empty outer table
SELECT * FROM e LEFT JOIN (SELECT DISTINCT json('{') FROM t);
SELECT * FROM e LEFT JOIN (SELECT DISTINCT json('{') AS j FROM t) ON 1;
SELECT * FROM e, t LEFT JOIN (SELECT DISTINCT json('{') AS j FROM t) ON 1;
SELECT * FROM e CROSS JOIN (SELECT DISTINCT json('{') AS j FROM t);
SELECT * FROM e LEFT JOIN (SELECT b, json('{') FROM t ORDER BY b LIMIT 2) ON 1;
SELECT * FROM e CROSS JOIN (SELECT b, count(*), abs(-9223372036854775808) FROM t GROUP BY b);
SELECT * FROM e CROSS JOIN (SELECT b, sum(b) OVER (ORDER BY b), json('{') FROM t);
SELECT * FROM e CROSS JOIN (SELECT max(b), abs(-9223372036854775808) FROM t);
SELECT * FROM e CROSS JOIN (SELECT b FROM t UNION SELECT json('{'));
SELECT * FROM e CROSS JOIN (VALUES (1), (json('{')));
SELECT * FROM e LEFT JOIN vj;
SELECT * FROM e LEFT JOIN vg ON vg.b = e.a;
SELECT * FROM e LEFT JOIN vw ON vw.b = e.a;
SELECT * FROM e LEFT JOIN vo ON vo.b = e.a;
SELECT * FROM e CROSS JOIN vj;
SELECT * FROM e CROSS JOIN vg;
SELECT * FROM e CROSS JOIN vw;
SELECT * FROM e LEFT JOIN vo ON 1;
SELECT count(*) FROM e CROSS JOIN vj;
SELECT count(*) FROM e LEFT JOIN vg;
SELECT a, count(*) FROM e CROSS JOIN vw GROUP BY a;
SELECT * FROM e CROSS JOIN vw ORDER BY 1;
SELECT DISTINCT a FROM e LEFT JOIN vo ON 1;
-- a CTE used once, MATERIALIZED, and twice
WITH c AS (SELECT DISTINCT json('{') AS j FROM t) SELECT * FROM e LEFT JOIN c;
WITH c AS (SELECT DISTINCT json('{') AS j FROM t) SELECT * FROM e CROSS JOIN c;
WITH c AS MATERIALIZED (SELECT json('{') AS j FROM t) SELECT * FROM c WHERE 0;
WITH c AS MATERIALIZED (SELECT json('{') AS j FROM t) SELECT * FROM e CROSS JOIN c;
WITH c AS MATERIALIZED (SELECT json('{') AS j FROM t) SELECT * FROM c LIMIT 0;
WITH c AS MATERIALIZED (SELECT b, json('{') AS j FROM t) SELECT * FROM e LEFT JOIN c ON c.b = e.a;
WITH c AS (SELECT b, json('{') AS j FROM t) SELECT * FROM e LEFT JOIN c ON 1 LEFT JOIN c AS c2 ON 1;
WITH c AS (SELECT b, json('{') AS j FROM t) SELECT * FROM c WHERE 0 UNION ALL SELECT * FROM c WHERE 0;
WITH c AS (SELECT b, abs(-9223372036854775808) AS o FROM t) SELECT (SELECT count(*) FROM c), (SELECT count(*) FROM c) FROM e;
-- a constant false WHERE, LIMIT 0
SELECT * FROM t, (SELECT DISTINCT json('{') FROM t) WHERE 0;
SELECT * FROM t CROSS JOIN (SELECT DISTINCT json('{') FROM t) WHERE 0;
SELECT * FROM t LEFT JOIN (SELECT b AS x, json('{') FROM t ORDER BY 1 LIMIT 9) ON x = b WHERE 0;
SELECT * FROM t CROSS JOIN vj WHERE 0;
SELECT * FROM t CROSS JOIN vg WHERE NULL;
SELECT * FROM t CROSS JOIN vw LIMIT 0;
SELECT * FROM t CROSS JOIN vo LIMIT 0;
SELECT * FROM e, t CROSS JOIN vj;
-- the rows of the outer loops never reach it
SELECT * FROM t JOIN u ON t.b = u.c + 10 LEFT JOIN vj ON 1;
SELECT * FROM t LEFT JOIN vg ON t.b > 5;
SELECT * FROM t LEFT JOIN vw ON t.b > 5;
SELECT b FROM t LEFT JOIN vj ON t.b > 5;
SELECT * FROM t CROSS JOIN vj WHERE t.b > 5;
-- EXISTS, IN and scalar subqueries with such a FROM item
SELECT EXISTS (SELECT 1 FROM e CROSS JOIN vj);
SELECT EXISTS (SELECT 1 FROM e LEFT JOIN (SELECT DISTINCT json('{') FROM t));
SELECT 1 IN (SELECT 1 FROM e CROSS JOIN vg);
SELECT 1 IN (SELECT a FROM e CROSS JOIN vw);
SELECT (SELECT j FROM e CROSS JOIN vj);
SELECT b FROM t WHERE EXISTS (SELECT 1 FROM e CROSS JOIN vj);
SELECT b FROM t WHERE b IN (SELECT a FROM e LEFT JOIN vo);
SELECT b, (SELECT count(*) FROM e CROSS JOIN vw) FROM t;
SELECT b FROM t WHERE EXISTS (SELECT 1 FROM u LEFT JOIN vj ON 1 WHERE u.c = t.b + 100);
-- and the error where the loop is reached
SELECT * FROM t CROSS JOIN vj;
SELECT * FROM t LEFT JOIN vg ON 1;
SELECT * FROM t CROSS JOIN vo;
SELECT * FROM t CROSS JOIN (SELECT DISTINCT json('{') FROM t);
WITH c AS MATERIALIZED (SELECT json('{') AS j FROM t) SELECT * FROM t CROSS JOIN c;
SELECT EXISTS (SELECT 1 FROM t CROSS JOIN vj);
-- filled once, however often its loop is reached; a correlated one each time
SELECT t.b, x.n FROM t CROSS JOIN (SELECT count(*) AS n FROM u) AS x;
SELECT t.b, x.c FROM t CROSS JOIN (SELECT DISTINCT c FROM u) AS x WHERE x.c = t.b;
SELECT t.b, x.c FROM t CROSS JOIN (SELECT c FROM u ORDER BY c LIMIT 2) AS x WHERE x.c >= t.b ORDER BY 1, 2;
SELECT t.b, vg.n FROM t CROSS JOIN vg WHERE vg.b = t.b;
SELECT t.b, vw.r FROM t CROSS JOIN vw WHERE vw.b = t.b;
SELECT b, (SELECT count(*) FROM u CROSS JOIN (SELECT DISTINCT c + t.b AS d FROM u) WHERE d = u.c) FROM t;
SELECT b, (SELECT count(*) FROM e CROSS JOIN (SELECT DISTINCT t.b, json('{') FROM u)) FROM t;
SELECT b, (SELECT sum(x) FROM u CROSS JOIN (SELECT t.b * 10 AS x LIMIT 1)) FROM t;
SELECT * FROM e RIGHT JOIN (SELECT DISTINCT b FROM t) AS x ON 1;
SELECT * FROM t RIGHT JOIN (SELECT DISTINCT c FROM u) AS x ON x.c = t.b;
SELECT * FROM e RIGHT JOIN vg ON 1;
-- a CTE read by two FROM items is stored once: the later reference fills it (if the
-- first has not) before its own query's loops, and reads the same rows
WITH c AS (SELECT b, json('{') AS j FROM t) SELECT * FROM e LEFT JOIN c ON 1 LEFT JOIN c AS c2 ON 1;
WITH c AS (SELECT b, json('{') AS j FROM t) SELECT * FROM c WHERE 0 UNION ALL SELECT * FROM c WHERE 0;
WITH c AS (SELECT b, json('{') AS j FROM t) SELECT (SELECT count(*) FROM c), (SELECT count(*) FROM c) FROM e;
WITH c AS (SELECT b, json('{') AS j FROM t) SELECT (SELECT count(*) FROM c), (SELECT count(*) FROM c);
WITH c AS (SELECT DISTINCT c FROM u) SELECT x.c, y.c FROM c AS x, c AS y WHERE x.c < y.c ORDER BY 1, 2;
WITH c AS (SELECT c, row_number() OVER (ORDER BY c DESC) AS r FROM u) SELECT x.c, y.r FROM c AS x JOIN c AS y ON x.c = y.c ORDER BY 1;
WITH c AS (SELECT c FROM u), d AS (SELECT * FROM c, c AS c2) SELECT count(*) FROM d, c;
WITH c(k) AS (SELECT c FROM u) SELECT x.k, y.k FROM c AS x LEFT JOIN c AS y ON y.k = x.k + 1 ORDER BY 1;
WITH c AS (SELECT c FROM u) SELECT b, (SELECT count(*) FROM c WHERE c.c > t.b), (SELECT max(c) FROM c) FROM t;
WITH c AS (SELECT t.b AS x FROM u) SELECT b, (SELECT count(*) FROM c), (SELECT sum(x) FROM c) FROM t;
WITH c AS (SELECT random() AS r) SELECT x.r = y.r FROM c AS x, c AS y;
WITH c AS (SELECT random() AS r) SELECT (SELECT r FROM c) = (SELECT r FROM c);
WITH c AS (SELECT random() AS r FROM t) SELECT count(DISTINCT x.r), count(*) FROM c AS x JOIN c AS y ON x.r = y.r;
