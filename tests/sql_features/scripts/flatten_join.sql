-- A view or FROM subquery that is one item of a join (compiler/flatjoin.py): merged
-- into the outer query where SQLite's flattener merges it, else materialized. Rows,
-- value types, column names and errors must be sqlite3's either way: the names ``*``
-- gives, the affinity and collation of the merged columns in comparisons, the first row
-- of a GROUP BY group (its bare values), names only the merged table has, rowids.
CREATE TABLE t(a INTEGER, b TEXT COLLATE NOCASE, c REAL, d);
CREATE INDEX tab ON t(a, b);
CREATE TABLE u(e, f TEXT, g);
CREATE INDEX ue ON u(e);
INSERT INTO t VALUES (1, 'x', 1.5, 'p'), (2, 'Y', 2, 'q'), (3, 'y', NULL, 7), (1, 'X', 4, '8'), (4, NULL, 5, x'01');
INSERT INTO u VALUES (1, '1', 'a'), ('2', 'y', 'b'), (2.0, 'Y', 'c'), (5, 'x', NULL), ('1', '1.5', 'd');
CREATE VIEW v AS SELECT a, b, c FROM t WHERE c > 1;
CREATE VIEW vs AS SELECT * FROM t;
CREATE VIEW vv AS SELECT b, a FROM v;
CREATE TABLE k(k, w, z);
CREATE INDEX kkw ON k(k, w);
INSERT INTO k VALUES ('2', 1, 0), (1.0, 3, 1), (2, 1.0, 2), (1, 2.5, 3);
-- unordered
SELECT * FROM (SELECT a FROM t) x JOIN u ON x.a = u.e;
-- unordered
SELECT * FROM v JOIN u ON v.a = u.e;
-- unordered
SELECT * FROM u, v WHERE v.a = u.e;
-- unordered
SELECT * FROM u JOIN vv ON vv.a = u.e;
-- unordered
SELECT x.* FROM (SELECT a, b FROM t WHERE b > 'a') x, u WHERE x.a = u.e;
-- unordered
SELECT u.*, x.* FROM (SELECT b, a FROM t) x, u WHERE x.a = u.e;
-- unordered
SELECT * FROM (SELECT b, a, d FROM t) x, u WHERE x.a = u.e;
-- unordered
SELECT * FROM vs JOIN u ON vs.a = u.e;
-- unordered
SELECT * FROM (SELECT a FROM t) x LEFT JOIN u ON x.a = u.e;
-- on the right of a LEFT JOIN: its WHERE joins the ON clause, its columns NULL when
-- nothing matches
-- unordered
SELECT * FROM u LEFT JOIN (SELECT a FROM t WHERE a > 1) x ON x.a = u.e;
-- unordered
SELECT * FROM u LEFT JOIN v ON v.a = u.e;
-- unordered
SELECT u.e, v.b, typeof(v.a), coalesce(v.c, 'none') FROM u LEFT JOIN v ON v.a = u.e;
-- unordered
SELECT * FROM u LEFT JOIN v ON v.a = u.e WHERE v.b IS NULL;
-- unordered
SELECT * FROM u LEFT JOIN v ON v.a = u.e WHERE v.c > 2;
-- unordered
SELECT * FROM u LEFT JOIN (SELECT a, b FROM t WHERE c > 1) x ON 1;
-- unordered
SELECT * FROM u LEFT JOIN (SELECT a, b FROM t WHERE c > 1) x;
-- unordered
SELECT * FROM u LEFT JOIN v ON v.a = u.e AND v.b < 'y' WHERE u.g > 'a';
-- unordered
SELECT * FROM u LEFT JOIN (SELECT a, b FROM t WHERE c > 1) x ON x.a = u.e LEFT JOIN v ON v.a = x.a;
-- unordered
SELECT DISTINCT u.e FROM u LEFT JOIN v ON v.a = u.e;
SELECT u.e, count(v.a), max(v.b) FROM u LEFT JOIN v ON v.a = u.e GROUP BY u.e ORDER BY 1;
-- unordered
SELECT u.e, x.b FROM u LEFT JOIN (SELECT b, a FROM t WHERE b IS NOT NULL) x ON x.b = u.f;
-- the affinity and collation of a merged column
-- unordered
SELECT x.a, typeof(x.a), x.a = '1', x.b = 'X', x.c = '1.5', u.f = x.a FROM (SELECT a, b, c FROM t) x, u WHERE x.a = u.e;
-- unordered
SELECT x.b, u.f FROM (SELECT b FROM t) x JOIN u ON x.b = u.f;
-- unordered
SELECT x.b, u.f FROM (SELECT b FROM t) x JOIN u ON u.f = x.b;
-- unordered
SELECT v.c, u.f FROM v JOIN u ON v.c = u.f;
-- unordered
SELECT x.b, count(*) FROM (SELECT b FROM t) x JOIN u ON x.b = u.f GROUP BY x.b;
SELECT x.a, count(*), max(u.g) FROM (SELECT a, b FROM t) x JOIN u ON x.a = u.e GROUP BY x.a ORDER BY 1;
SELECT a, b, u.f FROM (SELECT a, b FROM t WHERE b IS NOT NULL) x JOIN u ON x.a = u.e ORDER BY b, u.f;
-- the first row of a group (its bare values): read in the merged table's index order
-- unordered
SELECT w, count(*) FROM (SELECT * FROM k WHERE w IS NOT 3) s JOIN u ON u.e = s.z + 1 GROUP BY w;
-- unordered
SELECT s.k, count(*) FROM (SELECT k, w FROM k) s, u WHERE s.k = u.e GROUP BY s.k;
-- names the merged table has but the item does not return, rowids
SELECT x.b FROM (SELECT a FROM t) x JOIN u ON x.a = u.e;
-- unordered
SELECT b FROM (SELECT a FROM t) x JOIN u ON x.a = u.e;
-- unordered
SELECT d FROM (SELECT a FROM t) x JOIN (SELECT d, e FROM u, t WHERE u.e = t.a) y ON x.a = y.e;
SELECT rowid FROM (SELECT a FROM t) x JOIN u ON x.a = u.e;
-- unordered
SELECT x.rowid, u.rowid FROM (SELECT a FROM t) x JOIN u ON x.a = u.e;
-- unordered
SELECT v.rowid, v.a FROM v JOIN u ON v.a = u.e;
SELECT main.x.a FROM (SELECT a FROM t) x JOIN u ON x.a = u.e;
SELECT t.a FROM (SELECT a FROM t) x JOIN u ON x.a = u.e;
SELECT * FROM (SELECT a FROM t) x JOIN (SELECT e FROM u) x ON 1;
-- two merged items, one table twice
-- unordered
SELECT * FROM (SELECT a FROM t) x JOIN (SELECT b, a FROM t) y ON x.a = y.a;
-- unordered
SELECT a FROM (SELECT a FROM t) x JOIN (SELECT a FROM t) y ON x.a = y.a;
-- unordered
SELECT * FROM v v1 JOIN v v2 ON v1.a = v2.a WHERE v1.b < v2.b;
-- unordered
SELECT count(*) FROM v, u, t WHERE v.a = u.e AND t.a = v.a;
-- unordered
SELECT * FROM (SELECT a FROM t) x, (SELECT e FROM u) y WHERE x.a = y.e;
-- subqueries reading a merged item, NATURAL, USING, RIGHT JOIN, CROSS JOIN
-- unordered
SELECT * FROM (SELECT a FROM t) x JOIN u ON x.a = u.e WHERE (SELECT count(*) FROM t WHERE t.a = x.a) > 1;
-- unordered
SELECT x.a, (SELECT max(g) FROM u u2 WHERE u2.e = x.a) FROM (SELECT a FROM t) x, u WHERE x.a = u.e;
-- unordered
SELECT * FROM (SELECT a FROM t) x, u WHERE x.a = u.e AND EXISTS (SELECT 1 FROM u u2 WHERE u2.e = x.a);
-- unordered
SELECT * FROM (SELECT a, b FROM t) x NATURAL JOIN (SELECT e AS a, g FROM u) y;
-- unordered
SELECT * FROM (SELECT a, b FROM t) x JOIN (SELECT e AS a, g FROM u) y USING (a);
-- USING: ``*`` leaves out the right item's column, ``name.*`` keeps it
-- unordered
SELECT * FROM (SELECT a, b FROM t) x JOIN (SELECT a, c FROM t WHERE c > 1) y USING (a);
-- unordered
SELECT * FROM t JOIN (SELECT a, b FROM t WHERE c > 1) x USING (a);
-- unordered
SELECT * FROM t JOIN (SELECT a FROM t WHERE c > 1) x USING (a, b);
-- unordered
SELECT x.*, t.* FROM t JOIN (SELECT a, d FROM t WHERE c > 1) x USING (a);
-- unordered
SELECT a, x.a, t.a, b FROM t JOIN (SELECT a FROM t WHERE c > 1) x USING (a);
-- unordered
SELECT * FROM (SELECT a, b FROM t WHERE c > 1) x JOIN t USING (a);
-- unordered
SELECT * FROM (SELECT a, b FROM t WHERE c > 1) x LEFT JOIN v USING (a, b);
-- unordered
SELECT * FROM v JOIN (SELECT a, b FROM t WHERE d IS NOT NULL) x USING (b) WHERE x.a > 1;
-- unordered
SELECT b, count(*) FROM v LEFT JOIN (SELECT b FROM t) x USING (b) GROUP BY b;
-- unordered
SELECT * FROM u RIGHT JOIN (SELECT a FROM t) x ON x.a = u.e;
-- unordered
SELECT * FROM (SELECT a FROM t) x, u WHERE x.a = u.e AND u.g > 'a';
-- subqueries without an alias
-- unordered
SELECT * FROM (SELECT a FROM t), u WHERE a = e;
-- unordered
SELECT * FROM u, (SELECT a, b FROM t WHERE c > 1) WHERE a = e;
-- unordered
SELECT a, g FROM u JOIN (SELECT a, b FROM t WHERE c > 1) ON a = e;
-- unordered
SELECT * FROM (SELECT a FROM t) JOIN (SELECT e FROM u) ON a = e;
-- unordered
SELECT * FROM (SELECT a FROM t), (SELECT b FROM t);
-- unordered
SELECT * FROM (SELECT a FROM t), (SELECT a FROM t) WHERE a > 3;
-- unordered
SELECT * FROM (SELECT DISTINCT a FROM t), u WHERE a = e;
SELECT "(subquery-0)".a FROM (SELECT a FROM t), u WHERE a = e;
-- unordered
SELECT u.* FROM u LEFT JOIN (SELECT a, b FROM t WHERE c > 1) ON a = e;
-- names read from a FROM subquery inside a subquery of the outer query: a column of the
-- merged table the item does not return must stay unknown there
SELECT (SELECT n FROM (SELECT b AS n)) FROM (SELECT a FROM t) x JOIN u ON x.a = u.e;
-- unordered
SELECT (SELECT n FROM (SELECT x.a + 1 AS n)) FROM (SELECT a FROM t) x JOIN u ON x.a = u.e;
-- unordered
SELECT (SELECT n FROM (SELECT f AS n)) FROM (SELECT a FROM t) x JOIN u ON x.a = u.e;
-- aggregates, DISTINCT, ORDER BY, LIMIT in the outer query; shapes never merged
-- unordered
SELECT DISTINCT x.a FROM (SELECT a FROM t) x JOIN u ON x.a = u.e;
SELECT x.a, u.g FROM (SELECT a, b FROM t WHERE b > 'a') x JOIN u ON x.a = u.e ORDER BY 2 DESC LIMIT 2;
SELECT a + 1, max(g) FROM v JOIN u ON a = e;
-- unordered
SELECT * FROM (SELECT DISTINCT a FROM t) x JOIN u ON x.a = u.e;
-- unordered
SELECT * FROM (SELECT a, count(*) AS n FROM t GROUP BY a) x JOIN u ON x.a = u.e;
SELECT * FROM (SELECT a FROM t ORDER BY a LIMIT 2) x JOIN u ON x.a = u.e ORDER BY 1, 2;
-- unordered
SELECT * FROM (SELECT a AS aa FROM t) x JOIN u ON x.aa = u.e;
-- unordered
SELECT * FROM (SELECT A FROM t) x JOIN u ON x.a = u.e;
-- unordered
SELECT * FROM (SELECT a + 0 AS a FROM t) x JOIN u ON x.a = u.e;
SELECT * FROM (SELECT a FROM t) x JOIN u ON x.a = u.e WHERE x.zz = 1;
SELECT * FROM (SELECT zz FROM t) x JOIN u ON 1;
SELECT nosuch.* FROM (SELECT a FROM t) x JOIN u ON x.a = u.e;
-- the outer query a subquery, correlated with an enclosing one
-- unordered
SELECT e, (SELECT count(*) FROM (SELECT a FROM t) x JOIN k ON x.a = k.k WHERE x.a = u.e) FROM u;
-- unordered
SELECT g FROM u WHERE EXISTS (SELECT 1 FROM v JOIN k ON v.a = k.k WHERE v.a = u.e);
-- unordered
SELECT e, (SELECT count(*) FROM (SELECT a FROM t) x JOIN k ON x.a = k.k WHERE c IS NULL) FROM u;
-- the first row of a group and the order of the rows: those of the merged table's index
-- (materialized, the view's rows came in rowid order: 1 and 'a' against 1.0 and 'b')
CREATE TABLE kk(k, w, z);
CREATE INDEX kkkw ON kk(k, w);
INSERT INTO kk VALUES (1, 2, 'a'), (1.0, 1, 'b'), (2, 5, 'c'), (2, 4, 'd');
CREATE TABLE o(m);
INSERT INTO o VALUES (1), (2);
CREATE VIEW kv AS SELECT k, w, z FROM kk WHERE z IS NOT NULL;
SELECT s.k, s.z, count(*) FROM o JOIN (SELECT k, w, z FROM kk) s ON s.k = o.m GROUP BY s.k;
SELECT k, z, count(*) FROM o JOIN kv ON kv.k = o.m GROUP BY o.m;
SELECT k, z FROM o, kv WHERE kv.k = o.m;
-- names qualified by the table's name or alias in the subquery or view
CREATE VIEW vq AS SELECT t.a, t.b FROM t WHERE t.c > 1;
-- unordered
SELECT * FROM vq JOIN u ON vq.a = u.e;
-- unordered
SELECT * FROM u LEFT JOIN vq ON vq.a = u.e;
-- unordered
SELECT * FROM (SELECT tt.a, b FROM t AS tt WHERE tt.b > 'a') x JOIN u ON x.a = u.e;
-- unordered
SELECT x.* FROM (SELECT t.b, t.a FROM t WHERE t.a > 1) x, u WHERE x.a = u.e;
-- unordered
SELECT * FROM (SELECT T.A FROM t WHERE T.c > 1) x, u WHERE x.a = u.e;
SELECT * FROM (SELECT t.a FROM t AS tt) x JOIN u ON x.a = u.e;
SELECT * FROM (SELECT a FROM t AS tt WHERE t.b > 'a') x JOIN u ON x.a = u.e;
SELECT * FROM (SELECT u.a FROM t) x JOIN u ON x.a = u.e;
-- a view or subquery over an inner join: merged as its tables
CREATE TABLE w(e, h);
INSERT INTO w VALUES (1, 'a'), (2, 'b'), (10, 'c'), ('x', 'd');
CREATE VIEW tu AS SELECT t.a, b, u.g FROM t JOIN u ON t.a = u.e WHERE u.g > 'a';
CREATE VIEW tu2 AS SELECT a, f FROM t, u WHERE a = e;
-- unordered
SELECT * FROM tu JOIN w ON tu.a = w.e;
-- unordered
SELECT * FROM w JOIN tu ON tu.a = w.e;
-- unordered
SELECT * FROM w, tu WHERE tu.g = w.h;
SELECT tu.a, tu.g, w.h FROM w JOIN tu ON tu.a = w.e ORDER BY 1, 2;
-- unordered
SELECT x.*, w.h FROM (SELECT t.a, u.f FROM t JOIN u ON t.a = u.e) x JOIN w ON x.a = w.e;
-- unordered
SELECT a, f, h FROM tu2 JOIN w ON tu2.a = w.e;
-- unordered
SELECT * FROM tu LEFT JOIN w ON tu.a = w.e;
-- unordered
SELECT * FROM w LEFT JOIN tu ON tu.a = w.e;
-- unordered
SELECT * FROM tu JOIN w ON tu.a = w.e WHERE b > 'a';
SELECT * FROM tu JOIN w ON tu.a = w.e WHERE f > 1;
SELECT * FROM tu JOIN w ON tu.a = w.e WHERE t.a > 1;
SELECT * FROM tu JOIN w ON tu.a = w.e WHERE tu.f > 1;
-- unordered
SELECT * FROM tu JOIN t ON tu.a = t.a;
SELECT count(*), max(tu.g), min(b) FROM tu JOIN w ON tu.a = w.e;
SELECT tu.a, count(*) FROM tu JOIN w ON tu.a = w.e GROUP BY tu.a HAVING max(tu.g) > 'a' ORDER BY 1;
-- unordered
SELECT * FROM tu JOIN w ON tu.a = w.e WHERE EXISTS (SELECT 1 FROM u WHERE u.e = tu.a);
SELECT * FROM tu JOIN w ON tu.a = w.e ORDER BY tu.g, b;
-- unordered
SELECT * FROM tu, tu2 WHERE tu.a = tu2.a;
-- unordered
SELECT DISTINCT tu.a FROM tu JOIN w ON tu.a = w.e;
-- unordered
SELECT * FROM (SELECT t.a AS z, u.g FROM t JOIN u ON t.a = u.e) x JOIN w ON x.z = w.e;
-- unordered
SELECT * FROM (SELECT a, g FROM t JOIN u ON a = e WHERE g < 'd') x CROSS JOIN w WHERE x.a = w.e;
-- unordered
SELECT * FROM (SELECT tt.a, uu.g FROM t AS tt, u AS uu WHERE tt.a = uu.e) x, w WHERE x.a = w.e;
-- unordered
SELECT x.a, typeof(x.a), x.b = 'X', x.c = '1.5' FROM (SELECT t.a, t.b, t.c FROM t JOIN u ON t.a = u.e) x, w WHERE x.a = w.e;
SELECT * FROM (SELECT a, e FROM t JOIN u ON a = e) x JOIN w ON x.a = w.e;
SELECT * FROM (SELECT t.a, u.a FROM t JOIN u ON t.a = u.e) x JOIN w ON 1;
SELECT * FROM (SELECT a, f FROM t JOIN u ON a = x) x JOIN w ON 1;
-- unordered
SELECT * FROM (SELECT t.a, f FROM t JOIN u ON t.a = u.e) x JOIN w ON x.a = w.e WHERE e > 1;
