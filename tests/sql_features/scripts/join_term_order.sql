-- The terms of a join are tested in SQLite's order: the WHERE clause's first, then the ON
-- clauses of the inner joins in FROM order (sqlite3ProcessJoin appends them), so the first
-- error a row raises is sqlite3's
CREATE TABLE e1(k);
INSERT INTO e1 VALUES(1);
CREATE TABLE e2(k, j, n);
INSERT INTO e2 VALUES(1, 'x', -9223372036854775808);
SELECT * FROM e1 JOIN e2 ON json(e2.j) = 1 WHERE abs(e2.n) > 0;
SELECT * FROM e1 JOIN e2 ON abs(e2.n) > 0 WHERE json(e2.j) = 1;
SELECT * FROM e1, e2 WHERE json(e2.j) = 1 AND abs(e2.n) > 0;
SELECT * FROM e1 JOIN e2 ON json(e2.j) = 1 JOIN e1 AS e3 ON abs(e2.n) > 0;
SELECT * FROM e1 JOIN e2 ON json(e2.j) = 1 JOIN e1 AS e3 ON abs(e2.n) > 0 WHERE e3.k / 0 IS NULL AND e2.k = 1;
