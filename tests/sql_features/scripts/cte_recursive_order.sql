-- ORDER BY in a recursive CTE orders its queue (SQLite's priority queue): the row taken next
-- is the first in ORDER BY order, ties in the order queued; OFFSET and LIMIT count the rows
-- taken; a term is a column number or a result column's name
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5 ORDER BY 1 DESC) SELECT * FROM c;
WITH RECURSIVE c(n) AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM c WHERE n < 5 ORDER BY n) SELECT * FROM c;
WITH RECURSIVE c(n, d) AS (SELECT 1, 0 UNION ALL SELECT n * 2, d + 1 FROM c WHERE d < 3 UNION ALL SELECT n * 2 + 1, d + 1 FROM c WHERE d < 3 ORDER BY 2 DESC) SELECT * FROM c;
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c ORDER BY 1 LIMIT 3) SELECT * FROM c;
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c ORDER BY 1 LIMIT 3 OFFSET 1) SELECT * FROM c;
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5) SELECT * FROM c;
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5 ORDER BY x) SELECT * FROM c;
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5 ORDER BY 2) SELECT * FROM c;
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5 ORDER BY 0) SELECT * FROM c;
CREATE TABLE org(name TEXT PRIMARY KEY, boss TEXT);
INSERT INTO org VALUES ('Alice', NULL), ('Bob', 'Alice'), ('Cindy', 'Alice'), ('Dave', 'Bob'), ('Emma', 'Bob'), ('Fred', 'Cindy'), ('Gail', 'Cindy');
WITH RECURSIVE under_alice(name, level) AS (VALUES('Alice', 0) UNION ALL SELECT org.name, under_alice.level + 1 FROM org JOIN under_alice ON org.boss = under_alice.name ORDER BY 2) SELECT substr('..........', 1, level * 3) || name FROM under_alice;
WITH RECURSIVE under_alice(name, level) AS (VALUES('Alice', 0) UNION ALL SELECT org.name, under_alice.level + 1 FROM org JOIN under_alice ON org.boss = under_alice.name ORDER BY 2 DESC) SELECT substr('..........', 1, level * 3) || name FROM under_alice;
WITH RECURSIVE c(x) AS (SELECT 'b' UNION SELECT CASE x WHEN 'b' THEN 'A' WHEN 'A' THEN 'c' WHEN 'c' THEN 'B' ELSE 'b' END FROM c ORDER BY 1 COLLATE nocase DESC) SELECT * FROM c;
WITH RECURSIVE c(x, y) AS (SELECT 1, NULL UNION ALL SELECT x + 1, CASE WHEN x % 2 THEN x END FROM c WHERE x < 6 ORDER BY y NULLS LAST, x DESC) SELECT * FROM c;
WITH RECURSIVE c(n) AS (SELECT 5 AS k UNION ALL SELECT n - 1 FROM c WHERE n > 0 ORDER BY k LIMIT 2 OFFSET 2) SELECT * FROM c;
