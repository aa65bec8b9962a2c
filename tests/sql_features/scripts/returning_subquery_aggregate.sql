-- An aggregate of the row's columns in a RETURNING subquery aggregates in that subquery,
-- over its one row, as SQLite 3.40 runs it (the row's columns are registers there, which
-- its aggregate analysis does not count as columns); an aggregate item itself is a misuse
CREATE TABLE t(a, b);
CREATE TABLE u(x);
INSERT INTO t VALUES (1, 2), (3, 4);
INSERT INTO u VALUES (100), (200);
INSERT INTO t VALUES (5, 6) RETURNING (SELECT max(a)), (SELECT count(b)), (SELECT sum(a) + 1 FROM (SELECT 1));
UPDATE t SET b = 9 WHERE a < 5 RETURNING (SELECT max(a) + max(b)), (SELECT group_concat(a || '-' || b));
INSERT INTO t VALUES (7, 8) RETURNING (SELECT max(a) FROM u), (SELECT count(*) + max(a) FROM u), (SELECT max(x + a) FROM u);
INSERT INTO t VALUES (8, 1) RETURNING (SELECT (SELECT max(a))), (SELECT total(a) FILTER (WHERE b > 0));
INSERT INTO t VALUES (9, 2) RETURNING (SELECT max(x) FROM u WHERE x > a), (SELECT count(*) FROM u GROUP BY a);
INSERT INTO t VALUES (10, 3) RETURNING (SELECT count(*) HAVING count(*) = 1), (SELECT avg(a) GROUP BY b);
INSERT INTO t VALUES (11, 4) RETURNING max(a);
INSERT INTO t VALUES (12, 5) RETURNING (SELECT max(rowid)), (SELECT min(b) * 2);
DELETE FROM t WHERE a > 8 RETURNING (SELECT min(a)), a;
INSERT INTO t VALUES (13, 6) RETURNING (SELECT max(a) OVER ()), (SELECT sum(b) OVER (ORDER BY a));
SELECT * FROM t ORDER BY rowid;
-- such a subquery is not an aggregate one for SQLite's HAVING test (the row's columns
-- are columns of the RETURNING clause when it resolves names): a HAVING without GROUP BY
-- fails, unless another call aggregates the subquery's own columns, or none
INSERT INTO t VALUES (20, 1) RETURNING (SELECT max(a) HAVING 1);
INSERT INTO t VALUES (21, 1) RETURNING (SELECT max(a) HAVING max(a) > 0);
INSERT INTO t VALUES (22, 1) RETURNING (SELECT sum(b) + a HAVING a > 0);
INSERT INTO t VALUES (23, 1) RETURNING (SELECT max(a) FILTER (WHERE b > 0) HAVING 1);
INSERT INTO t VALUES (24, 1) RETURNING (SELECT max(a) FROM u HAVING 1);
INSERT INTO t VALUES (25, 1) RETURNING (SELECT max(x) FROM u HAVING max(a) > 0);
INSERT INTO t VALUES (26, 1) RETURNING (SELECT max(x + a) FROM u HAVING 1);
INSERT INTO t VALUES (27, 1) RETURNING (SELECT count(*) HAVING max(a) > 0);
INSERT INTO t VALUES (28, 1) RETURNING (SELECT 1 HAVING 1);
UPDATE t SET b = b + 1 WHERE a = 1 RETURNING (SELECT max(a) HAVING 1);
DELETE FROM t WHERE a = 3 RETURNING (SELECT min(b) HAVING min(b) > 0);
UPDATE t SET b = b + 1 WHERE a = 1 RETURNING (SELECT min(b) FROM u HAVING count(*) > 1);
SELECT (SELECT max(a) HAVING 1) FROM t;
SELECT * FROM t ORDER BY rowid;
