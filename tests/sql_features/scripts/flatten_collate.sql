-- Copies of a view's or FROM subquery's columns keep the collation the column had
-- (compiler/flatsubst.py: SQLite's substExpr wraps a copy that is not a plain column in
-- an implicit COLLATE, BINARY when its expression has none, and a copied COLLATE clause
-- becomes implicit): COLLATE in the subquery's columns, copies compared on either side
-- with columns of other collations, in IN lists, BETWEEN, CASE, min/max, GROUP BY,
-- DISTINCT, ORDER BY and a compound's arm; a copied literal in ORDER BY or GROUP BY is
-- an expression, not a column number; a LEFT JOIN that a WHERE term makes an inner join
-- (sqlite3ExprImpliesNonNullRow) is merged under DISTINCT. Rows, types, names and errors
-- must be sqlite3's; the plans are compared in tests/compiler/test_flatten_random.py.
CREATE TABLE t(a INTEGER, b TEXT COLLATE NOCASE, c);
CREATE INDEX tb ON t(b);
CREATE INDEX ta ON t(a);
CREATE TABLE u(c, d);
CREATE INDEX uc ON u(c);
CREATE TABLE w(e REAL, f TEXT COLLATE RTRIM);
INSERT INTO t VALUES (1, 'X', 3), (2, 'y', 4), (3, 'x', 5), (4, NULL, 6), (5, 'Y', 1), (1, 'z', 1.0), (2, '1', '1');
INSERT INTO u VALUES (1, 10), (2, 20), (5, 50), ('1', 1), (1.0, 2), (NULL, 3), (3, 'x'), ('x', 'X'), ('yz', 'YZ');
INSERT INTO w VALUES (1, 'a'), (2, 'b '), (10, 'c'), (3.5, 'X'), (4, 'x  ');
CREATE VIEW vc AS SELECT a, b COLLATE BINARY AS bb, c COLLATE NOCASE AS cn, b || 'z' AS bz FROM t;
CREATE VIEW vk AS SELECT d COLLATE NOCASE AS dn, c FROM u;
-- unordered
SELECT x.a, x.bb, u.d FROM vc AS x JOIN u ON x.bb = u.d;
-- unordered
SELECT x.a, x.bb, u.d FROM vc AS x JOIN u ON u.d = x.bb;
-- unordered
SELECT x.a, x.cn, u.c FROM vc AS x JOIN u ON x.cn = u.c;
-- unordered
SELECT x.a, x.bz, u.d FROM vc AS x JOIN u ON x.bz = u.d;
-- unordered
SELECT x.a, x.bz, u.d FROM u JOIN vc AS x ON u.d = x.bz;
-- unordered
SELECT x.a, x.bz, t.b FROM vc AS x JOIN t ON x.bz = t.b || 'z';
-- unordered
SELECT x.a, x.bz, t.b FROM vc AS x JOIN t ON t.b || 'z' = x.bz;
-- unordered
SELECT x.x0, t.b FROM (SELECT c || 'z' AS x0 FROM u) AS x JOIN t ON x.x0 = t.b;
-- unordered
SELECT x.x0, t.b FROM (SELECT c || 'z' AS x0 FROM u) AS x JOIN t ON t.b = x.x0;
-- unordered
SELECT x.x0, t.b FROM (SELECT c || 'z' AS x0 FROM u) AS x, t WHERE (x.x0 || '') = t.b;
-- unordered
SELECT x.x0, w.f FROM (SELECT b COLLATE NOCASE AS x0 FROM t) AS x JOIN w ON x.x0 = w.f;
-- unordered
SELECT x.x0, w.f FROM (SELECT b COLLATE NOCASE AS x0 FROM t) AS x JOIN w ON w.f = x.x0;
-- unordered
SELECT x.x0, w.f FROM (SELECT b COLLATE NOCASE AS x0 FROM t) AS x JOIN w ON w.f = x.x0 COLLATE BINARY;
-- unordered
SELECT x.x0, w.f FROM (SELECT +b AS x0 FROM t) AS x JOIN w ON w.f = x.x0;
-- unordered
SELECT x.x0, w.f FROM (SELECT CAST(b AS TEXT) AS x0 FROM t) AS x JOIN w ON x.x0 = w.f;
-- unordered
SELECT x.dn, x.c FROM vk AS x JOIN t ON x.dn = t.b WHERE x.dn IN ('x', 'yz');
-- unordered
SELECT x.dn, t.a FROM vk AS x JOIN t ON x.c = t.a WHERE x.dn BETWEEN 'W' AND 'Z';
-- unordered
SELECT CASE x.dn WHEN 'x' THEN 'hit' ELSE 'miss' END, t.a FROM vk AS x JOIN t ON x.c = t.a;
-- unordered
SELECT max(x.dn, 'Y'), min(x.bz, 'YZ') FROM vk AS x JOIN vc ON x.c = vc.a;
SELECT x.dn, count(*) FROM vk AS x JOIN t ON x.c = t.a GROUP BY x.dn ORDER BY 1;
SELECT DISTINCT x.dn FROM vk AS x JOIN t ON x.c = t.a ORDER BY 1;
SELECT x.bz FROM vc AS x JOIN u ON x.a = u.c ORDER BY x.bz;
SELECT x.bz FROM vc AS x JOIN u ON x.a = u.c ORDER BY x.bz COLLATE NOCASE, 1;
SELECT x.bz FROM vc AS x JOIN u ON x.a = u.c UNION SELECT 'XZ' ORDER BY 1;
SELECT x.dn FROM vk AS x JOIN t ON x.c = t.a UNION SELECT 'yz' ORDER BY 1;
SELECT x.dn FROM vk AS x UNION SELECT 'YZ' ORDER BY 1;
SELECT x.bz FROM vc AS x UNION SELECT 'XZ' ORDER BY 1;
SELECT x.k FROM (SELECT 5 AS k, a FROM t) AS x JOIN u ON x.a = u.c ORDER BY x.k;
SELECT x.k FROM (SELECT 5 AS k, a FROM t) AS x ORDER BY x.k;
SELECT x.k, count(*) FROM (SELECT 2 AS k, a FROM t) AS x JOIN u ON x.a = u.c GROUP BY x.k;
SELECT x.k, count(*) FROM (SELECT 3 AS k, a FROM t) AS x GROUP BY x.k;
SELECT x.k FROM (SELECT -1 AS k, a FROM t) AS x ORDER BY x.k;
SELECT x.k FROM (SELECT 2 AS k, a FROM t) AS x ORDER BY 2;
SELECT DISTINCT u.c, x.a = 1 FROM u LEFT JOIN (SELECT a, b FROM t WHERE a > 1) AS x ON x.a = u.c WHERE x.a IS NOT NULL ORDER BY 1, 2;
SELECT DISTINCT u.c, x.bz FROM u LEFT JOIN vc AS x ON x.a = u.c WHERE x.bz > 'a' ORDER BY 1, 2;
SELECT DISTINCT u.c, x.bz FROM u LEFT JOIN vc AS x ON x.a = u.c ORDER BY 1, 2;
SELECT u.c, x.cn FROM u LEFT JOIN vc AS x ON x.a = u.c WHERE x.cn = 1 ORDER BY 1, 2;
SELECT u.c, x.cn FROM u LEFT JOIN vc AS x ON x.a = u.c WHERE x.cn IS NULL ORDER BY 1;
SELECT typeof(x.x0), x.x0 FROM (SELECT a + 0.5 AS x0 FROM t) AS x JOIN u ON x.x0 > u.c ORDER BY 2, 1 LIMIT 3;
SELECT x.bb, x.bb = 'x', x.bb = 'X' FROM vc AS x JOIN u ON x.a = u.c ORDER BY 1;
-- on the right of a LEFT JOIN, a copy that is not NULL on the NULL row is guarded as
-- SQLite's IF_NULL_ROW guards it (CASE WHEN x.rowid IS NULL THEN NULL ELSE copy END)
CREATE VIEW vn AS SELECT a, coalesce(b, 'none') AS cb, 7 AS seven, b IS NULL AS bn, ifnull(c, 0) + 1 AS c1 FROM t;
SELECT u.c, x.cb, x.seven, x.bn, x.c1 FROM u LEFT JOIN vn AS x ON x.a = u.c ORDER BY 1, 2;
SELECT u.c, typeof(x.cb), typeof(x.seven), x.seven IS NULL FROM u LEFT JOIN vn AS x ON x.a = u.c ORDER BY 1, 2;
SELECT u.c FROM u LEFT JOIN vn AS x ON x.a = u.c WHERE x.seven IS NULL ORDER BY 1;
SELECT x.cb, count(*) FROM u LEFT JOIN vn AS x ON x.a = u.c GROUP BY x.cb ORDER BY 1;
SELECT u.c, x.k FROM u LEFT JOIN (SELECT coalesce(b, 'n') COLLATE NOCASE AS k, a FROM t) AS x ON x.a = u.c WHERE x.k = 'X' OR x.k IS NULL ORDER BY 1, 2;
SELECT u.c, x.k FROM u LEFT JOIN (SELECT 'X' AS k, a FROM t) AS x ON x.a = u.c AND x.k = 'X' ORDER BY 1, 2;
CREATE TABLE r(rowid, a);
INSERT INTO r VALUES (NULL, 1), (5, 2);
SELECT u.c, x.k FROM u LEFT JOIN (SELECT coalesce(rowid, 9) AS k, a FROM r) AS x ON x.a = u.c ORDER BY 1, 2;
