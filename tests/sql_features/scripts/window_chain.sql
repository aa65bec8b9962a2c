-- Named windows built on a base window (OVER (win ...), WINDOW b2 AS (b1 ...)): the base's
-- PARTITION BY and ORDER BY with the window's own frame, SQLite's errors for overriding a
-- PARTITION BY, an ORDER BY or a base's frame, and a WINDOW definition may build on an
-- earlier one of its list only
CREATE TABLE w(id INTEGER PRIMARY KEY, g, v);
INSERT INTO w VALUES (1,'a',1),(2,'a',2),(3,'b',3);
SELECT id, sum(v) OVER (win ORDER BY id) FROM w WINDOW win AS (PARTITION BY g ORDER BY v);
SELECT id, sum(v) OVER (win PARTITION BY id) FROM w WINDOW win AS (PARTITION BY g);
SELECT id, sum(v) OVER (win ORDER BY id) FROM w WINDOW win AS (PARTITION BY g ROWS 1 PRECEDING);
SELECT id, sum(v) OVER (win ROWS 1 PRECEDING) FROM w WINDOW win AS (ORDER BY id ROWS 1 PRECEDING);
SELECT id, sum(v) OVER (win) FROM w WINDOW win AS (ORDER BY id ROWS 1 PRECEDING);
SELECT id, sum(v) OVER win FROM w WINDOW win AS (ORDER BY id ROWS 1 PRECEDING);
SELECT id, sum(v) OVER (nope) FROM w;
SELECT id, sum(v) OVER nope FROM w;
SELECT id, sum(v) OVER (win) FROM w WINDOW win AS (ORDER BY id), win AS (ORDER BY v);
SELECT id, sum(v) OVER (b2) FROM w WINDOW b1 AS (PARTITION BY g), b2 AS (b1 ORDER BY v);
SELECT id, sum(v) OVER (b2 ROWS UNBOUNDED PRECEDING) FROM w WINDOW b1 AS (PARTITION BY g), b2 AS (b1 ORDER BY v);
SELECT id, sum(v) OVER (b1) FROM w WINDOW b1 AS (b2), b2 AS (ORDER BY v);
SELECT id, sum(v) OVER (b1) FROM w WINDOW b1 AS (b2 ORDER BY id), b2 AS (PARTITION BY g);
SELECT id, sum(v) OVER b2 FROM w WINDOW b1 AS (PARTITION BY g ROWS 1 PRECEDING), b2 AS (b1);
SELECT id, sum(v) OVER b2 FROM w WINDOW b1 AS (PARTITION BY g), b2 AS (b1 ORDER BY id ROWS 1 PRECEDING), b3 AS (b2);
SELECT id, sum(v) OVER (b3) FROM w WINDOW b1 AS (PARTITION BY g), b2 AS (b1 ORDER BY id), b3 AS (b2 RANGE CURRENT ROW);
SELECT id, sum(v) OVER b3 FROM w WINDOW b1 AS (PARTITION BY g), b2 AS (b1 ORDER BY id), b3 AS (b2 ORDER BY v);
SELECT id, sum(v) OVER b1 FROM w WINDOW b1 AS (ORDER BY id), b1 AS (ORDER BY v DESC);
SELECT id, sum(v) OVER (b1 ROWS CURRENT ROW) FROM w WINDOW b1 AS (PARTITION BY g, v ORDER BY id);
SELECT id, sum(v) OVER (b1 PARTITION BY g) FROM w WINDOW b1 AS (ORDER BY id);
