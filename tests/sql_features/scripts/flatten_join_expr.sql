-- A view or FROM subquery in a join whose result columns are expressions (or columns
-- under other names) of one table: merged into the join with its expressions copied
-- where the outer query names its columns (compiler/flatsubst.py), else materialized.
-- Rows, value types, column names and errors must be sqlite3's (plans are compared in
-- tests/compiler/test_flatten.py): the names of copied columns, their affinity (none for
-- an expression) and collation (BINARY for an expression, the column's under CAST and
-- unary +) in comparisons on either side, the first row of a GROUP BY group, the NULL
-- row of a LEFT JOIN.
CREATE TABLE t(a INTEGER, b TEXT COLLATE NOCASE, c REAL, d);
CREATE INDEX tab ON t(a, b);
CREATE TABLE u(e, f TEXT, g, h TEXT COLLATE NOCASE);
CREATE INDEX ue ON u(e);
INSERT INTO t VALUES (1, 'x', 1.5, 'p'), (2, 'Y', 2, 'q'), (3, 'y', NULL, 7), (1, 'X', 4, '8'), (4, NULL, 5, x'01'), (1.0, 'z', 6, '1');
INSERT INTO u VALUES (1, '1', 'a', 'X'), ('2', 'y', 'b', 'yz'), (2.0, 'Y', 'c', 'XZ'), (5, 'x', NULL, NULL), ('1', '1.5', 'd', 'p'), (3, 'xz', 'e', 'Y');
CREATE VIEW ve AS SELECT a, a + 1 AS a1, b || 'z' AS bz, +b AS pb, CAST(d AS TEXT) AS dt FROM t WHERE c > 1;
CREATE VIEW vr AS SELECT b AS k, a AS n FROM t;
CREATE VIEW vq AS SELECT t.a * 2 AS a2, t.b FROM t WHERE t.a > 1;
CREATE VIEW vl AS SELECT a, 7 AS seven, coalesce(b, 'none') AS cb, a IS NULL AS an FROM t;
CREATE VIEW vf AS SELECT a, abs(a - 3) AS dist, upper(b) AS ub, random() AS r FROM t;
-- unordered
SELECT * FROM (SELECT a + 1 AS c, b FROM t) x JOIN u ON x.c = u.e;
-- unordered
SELECT x.c, x.a1 FROM (SELECT a + 1 AS c, a AS a1 FROM t) x JOIN u ON x.c = u.e;
-- unordered
SELECT * FROM (SELECT a + 1, b || 'z' FROM t) x JOIN u ON x."a + 1" = u.e;
-- unordered
SELECT * FROM ve JOIN u ON ve.a = u.e;
-- unordered
SELECT * FROM u JOIN ve ON ve.a = u.e;
-- unordered
SELECT ve.*, u.e FROM u JOIN ve ON ve.a = u.e;
-- unordered
SELECT u.*, vr.* FROM u, vr WHERE vr.n = u.e;
-- unordered
SELECT k, n, e FROM u, vr WHERE n = e AND k > 'a';
-- unordered
SELECT K, N, x.K FROM u, vr AS x WHERE N = e;
-- unordered
SELECT * FROM u JOIN vq ON vq.a2 = u.e;
-- unordered
SELECT vq.b, vq.a2 + 1, typeof(vq.a2) FROM u JOIN vq ON vq.a2 = u.e;
-- names of the copies: as the subquery named its columns
SELECT x.C, x.A, c, a FROM (SELECT a + 1 AS c, A FROM t) x JOIN u ON x.c = u.e ORDER BY 1, 2;
SELECT * FROM (SELECT A, a + 0, B AS bee FROM t) x JOIN u ON x.A = u.e ORDER BY 1, 2, 3, 4;
SELECT x.*, u.g FROM (SELECT b AS a, a AS b FROM t) x JOIN u ON x.b = u.e ORDER BY 1, 2, 3;
SELECT x.a AS first, x.b FROM (SELECT b AS a, a AS b FROM t) x JOIN u ON x.b = u.e ORDER BY first, 2;
-- affinity: an expression column has none; a renamed column keeps its column's
-- unordered
SELECT x.c, u.f FROM (SELECT a + 0 AS c FROM t) x JOIN u ON x.c = u.f;
-- unordered
SELECT x.c, u.f FROM (SELECT a AS c FROM t) x JOIN u ON x.c = u.f;
-- unordered
SELECT x.c, u.f FROM (SELECT a AS c FROM t) x JOIN u ON u.f = x.c;
-- unordered
SELECT x.c, u.f FROM (SELECT CAST(a AS TEXT) AS c FROM t) x JOIN u ON x.c = u.f;
-- unordered
SELECT x.c, u.f FROM (SELECT a + 0 AS c FROM t) x JOIN u ON x.c = '1';
-- unordered
SELECT x.c FROM (SELECT a AS c FROM t) x JOIN u ON x.c = '1' AND u.e = 1;
-- unordered
SELECT x.dt, u.f, typeof(x.dt) FROM ve x JOIN u ON x.dt = u.e;
-- collation: BINARY for an expression (on either side), NOCASE under + and CAST
-- unordered
SELECT ve.pb, ve.bz, u.f FROM ve JOIN u ON ve.pb = u.f;
-- unordered
SELECT ve.pb, ve.bz, u.f FROM ve JOIN u ON u.f = ve.pb;
-- unordered
SELECT ve.bz, u.h FROM ve JOIN u ON ve.bz = u.h;
-- unordered
SELECT ve.bz, u.h FROM ve JOIN u ON u.h = ve.bz;
-- unordered
SELECT ve.bz, u.h FROM ve JOIN u ON ve.bz IN (u.h, 'q');
-- unordered
SELECT ve.bz, u.h FROM ve JOIN u ON ve.bz BETWEEN u.h AND u.h;
-- unordered
SELECT ve.bz, u.h FROM ve JOIN u ON CASE ve.bz WHEN u.h THEN 1 END;
-- unordered
SELECT ve.bz, u.h, max(ve.bz, u.h), min(u.h, ve.bz), nullif(ve.bz, u.h) FROM ve JOIN u ON u.e = ve.a;
-- unordered
SELECT ve.bz, u.h FROM ve JOIN u ON ve.bz = u.h COLLATE NOCASE;
-- unordered
SELECT ve.bz, u.h FROM ve JOIN u ON ve.bz COLLATE BINARY = u.h;
-- unordered
SELECT ve.bz, u.h FROM ve JOIN u ON CAST(ve.bz AS TEXT) = u.h;
-- unordered
SELECT x.k, u.h FROM vr x JOIN u ON x.k = u.h;
-- unordered
SELECT x.k, u.f FROM vr x JOIN u ON u.f = x.k;
-- unordered
SELECT ve.pb, ve.bz FROM ve JOIN vr ON vr.k = ve.bz;
-- unordered
SELECT ve.pb, ve.bz FROM ve JOIN vr ON ve.bz = vr.k;
-- unordered
SELECT ve.pb, ve.bz, u.h FROM ve JOIN u ON ve.pb = u.h;
SELECT DISTINCT ve.bz FROM ve JOIN u ON u.e = ve.a ORDER BY 1;
SELECT ve.bz FROM ve JOIN u ON u.e = ve.a GROUP BY ve.bz ORDER BY 1;
SELECT ve.pb FROM ve JOIN u ON u.e = ve.a GROUP BY ve.pb ORDER BY 1;
SELECT ve.bz FROM ve JOIN u ON u.e = ve.a UNION SELECT h FROM u ORDER BY 1;
SELECT h FROM u UNION SELECT ve.bz FROM ve JOIN u ON u.e = ve.a ORDER BY 1;
-- the first row of a GROUP BY group: the merged table's order
SELECT u.e, ve.a, ve.bz, ve.dt FROM ve JOIN u ON ve.a = u.e GROUP BY u.e ORDER BY u.e;
SELECT x.c, x.n, count(*) FROM (SELECT a * 1 AS c, b AS n FROM t) x JOIN u ON x.c = u.e GROUP BY x.c;
SELECT x.c, x.b, count(*) FROM (SELECT a + 0 AS c, b FROM t) x JOIN u ON x.c = u.e GROUP BY 1 ORDER BY 1;
-- unordered
SELECT u.e, max(ve.a1), sum(ve.a1 + 1), ve.bz FROM ve JOIN u ON ve.a = u.e GROUP BY u.e HAVING max(ve.a1) > 1;
-- LEFT JOIN: the item on its right is merged when its expressions are NULL on the
-- NULL row; else materialized
-- unordered
SELECT * FROM u LEFT JOIN ve ON ve.a = u.e;
-- unordered
SELECT u.e, ve.a1, ve.bz, typeof(ve.a1), ve.a1 IS NULL FROM u LEFT JOIN ve ON ve.a = u.e WHERE ve.bz IS NULL OR ve.a1 > 2;
-- unordered
SELECT * FROM u LEFT JOIN vl ON vl.a = u.e;
-- unordered
SELECT u.e, vl.seven, vl.cb, vl.an FROM u LEFT JOIN vl ON vl.a = u.e;
-- unordered
SELECT u.e, x.s FROM u LEFT JOIN (SELECT a, 'k' || b AS s FROM t WHERE c > 2) x ON x.a = u.e;
-- unordered
SELECT u.e, x.s FROM u LEFT JOIN (SELECT a, -a AS s FROM t) x ON x.a = u.e AND x.s < -1;
-- unordered
SELECT u.e, x.s FROM u LEFT JOIN (SELECT a, NOT a AS s FROM t) x ON x.a = u.e;
-- unordered
SELECT DISTINCT u.g, x.s FROM u LEFT JOIN (SELECT a, a * 2 AS s FROM t) x ON x.a = u.e;
-- literal columns, functions
-- unordered
SELECT vl.seven, vl.cb, vl.an, u.e FROM vl JOIN u ON vl.a = u.e;
-- unordered
SELECT vf.dist, vf.ub, u.e FROM vf JOIN u ON vf.a = u.e;
SELECT count(*), count(DISTINCT typeof(vf.r)) FROM vf JOIN u ON vf.a = u.e;
-- a function that is not deterministic is called at each use of a copy, as in SQLite
SELECT count(*), sum(vf.r = vf.r) FROM vf JOIN u ON vf.a = u.e;
-- unordered
SELECT x.one, x.two, u.e FROM (SELECT 1 AS one, 'two' AS two, a FROM t) x JOIN u ON x.a = u.e AND x.one = 1;
-- ORDER BY, WHERE, aliases
SELECT x.c AS y FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e ORDER BY y;
SELECT x.c AS c FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e ORDER BY c;
SELECT x.c FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e ORDER BY x.c DESC;
SELECT c FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e ORDER BY c + 0;
SELECT x.c, u.e FROM (SELECT a + 1 AS c FROM t) x, u WHERE c = e ORDER BY 1, 2;
SELECT x.c AS e, u.e FROM (SELECT a + 1 AS c FROM t) x, u WHERE x.c = u.e ORDER BY e;
SELECT x.k AS n FROM vr x, u WHERE x.n = u.e ORDER BY n;
SELECT x.k FROM vr x, u WHERE x.n = u.e ORDER BY k;
SELECT x.k, u.f AS k FROM vr x, u WHERE x.n = u.e ORDER BY k;
-- unordered
SELECT x.k FROM vr x, u WHERE x.n = u.e AND k > 'x';
-- unordered
SELECT k FROM vr x, u WHERE n = e AND x.k = 'X';
-- errors and ambiguity: as materialized
SELECT x.a FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e;
SELECT a FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e;
SELECT x.rowid FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e;
SELECT e FROM (SELECT a + 1 AS e FROM t) x JOIN u ON x.e = u.e;
SELECT x.e FROM (SELECT a + 1 AS e FROM t) x JOIN u ON x.e = u.e ORDER BY 1;
SELECT c FROM (SELECT a + 1 AS c FROM t) x JOIN (SELECT a AS c FROM t) y ON x.c = y.c;
SELECT x.c, y.c FROM (SELECT a + 1 AS c FROM t) x JOIN (SELECT a - 1 AS c FROM t) y ON x.c = y.c ORDER BY 1, 2;
SELECT b FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e;
SELECT "c" FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e ORDER BY 1;
SELECT "zz" FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e ORDER BY 1;
-- shapes left materialized: subqueries, USING, parameters, COLLATE, aggregates
-- unordered
SELECT x.c, (SELECT count(*) FROM u WHERE u.e = x.c) FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e;
-- unordered
SELECT * FROM (SELECT a + 1 AS e, b FROM t) x JOIN u USING (e);
-- unordered
SELECT x.c FROM (SELECT b COLLATE BINARY AS c, a FROM t) x JOIN u ON x.c = u.h;
-- unordered
SELECT x.c, u.h FROM (SELECT b || '' AS c, a FROM t) x JOIN u ON u.h = x.c;
-- unordered
SELECT x.c FROM (SELECT (SELECT max(e) FROM u) AS c, a FROM t) x JOIN u ON x.a = u.e;
SELECT x.m FROM (SELECT max(a) AS m FROM t) x JOIN u ON x.m = u.e;
-- unordered
SELECT x.c, u.e FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e WHERE EXISTS (SELECT 1 FROM t WHERE t.a = x.c);
-- nested in other queries: a FROM subquery's body, a scalar and an IN subquery, CREATE
-- TABLE AS, compounds (an arm's copy without collation is left materialized)
-- unordered
SELECT * FROM (SELECT x.c, x.C, x.a1 FROM (SELECT a + 1 AS c, a AS a1 FROM t) x JOIN u ON x.c = u.e) z;
-- unordered
SELECT z.* FROM (SELECT x.*, u.* FROM ve x JOIN u ON x.a = u.e) z WHERE z.a1 > 2;
-- unordered
SELECT * FROM ve JOIN (SELECT a * 10 AS m, b AS n FROM t) y ON y.m = ve.a1 * 10;
-- unordered
SELECT w.e, (SELECT x.c FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e WHERE u.g = w.g ORDER BY 1 LIMIT 1) FROM u AS w;
-- unordered
SELECT w.e FROM u AS w WHERE w.e IN (SELECT x.c FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e);
-- unordered
SELECT w.h FROM u AS w WHERE w.h IN (SELECT x.bz FROM ve x JOIN u ON x.a = u.e);
-- unordered
SELECT w.h FROM u AS w WHERE (SELECT x.bz FROM ve x JOIN u ON x.a = u.e WHERE u.e = w.e) = w.h;
-- unordered
SELECT w.h FROM u AS w WHERE w.h = (SELECT x.bz FROM ve x JOIN u ON x.a = u.e WHERE u.e = w.e);
CREATE TABLE m AS SELECT x.c, x.bz FROM (SELECT a + 1 AS c, b || 'q' AS bz FROM t) x JOIN u ON x.c = u.e;
SELECT * FROM m ORDER BY 1, 2;
-- unordered
SELECT count(*) FILTER (WHERE x.c > 2), group_concat(x.bz ORDER BY x.c) FROM (SELECT a + 1 AS c, b || 'q' AS bz FROM t) x JOIN u ON x.c = u.e;
-- unordered
SELECT x.c FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e WHERE x.c IN (2, 3);
SELECT x.c, u.e FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e ORDER BY x.c, u.e LIMIT 2 OFFSET 1;
SELECT DISTINCT x.c FROM (SELECT a % 2 AS c FROM t) x JOIN u ON 1 ORDER BY 1;
SELECT x.c FROM (SELECT a % 2 AS c FROM t) x JOIN u ON 1 GROUP BY x.c HAVING count(*) > 2 ORDER BY x.c;
-- unordered
SELECT * FROM (SELECT a, b AS bb FROM t WHERE a > 1) x NATURAL JOIN u;
-- unordered
SELECT * FROM u CROSS JOIN (SELECT a + 1 AS c FROM t) x WHERE x.c = u.e;
-- unordered
SELECT u.e, x.c FROM u LEFT JOIN (SELECT a, a + 1 AS c FROM t) x ON x.a = u.e LEFT JOIN (SELECT a, a * 3 AS c3 FROM t) y ON y.a = x.c;
SELECT x.c FROM (SELECT a + 1 AS c FROM t) x JOIN u ON x.c = u.e UNION ALL SELECT x.bz FROM ve x JOIN u ON x.a = u.e ORDER BY 1;
SELECT x.pb FROM ve x JOIN u ON x.a = u.e UNION SELECT h FROM u ORDER BY 1;
-- the first row of a GROUP BY group once merged: the index's order (1 and 1.0 for the
-- group 'a', where the materialized subquery gave 1.0 and 6)
CREATE TABLE k(k, w, z);
CREATE INDEX kkw ON k(k, w);
INSERT INTO k VALUES ('2', 1, 0), (1.0, 3, 1), (2, 1.0, 2), (1, 2.5, 3), (1, 0.5, 4);
CREATE TABLE u2 AS SELECT * FROM u;
CREATE VIEW vk AS SELECT k, w, k * 10 AS k10, z + 0 AS zz, typeof(k) AS tk FROM k;
SELECT u2.g, x.k, x.w2, x.z FROM u2 JOIN (SELECT k, w * 2 AS w2, z FROM k) x ON x.k = u2.e GROUP BY u2.g ORDER BY 1;
SELECT u2.g, vk.k, vk.tk, vk.w, vk.zz FROM u2 JOIN vk ON vk.k = u2.e GROUP BY u2.g ORDER BY 1;
SELECT u2.e, x.k, x.w2 FROM u2 JOIN (SELECT k, w * 2 AS w2 FROM k) x ON x.k = u2.e GROUP BY u2.e ORDER BY 1;
SELECT vk.k, vk.tk, vk.w, vk.zz, count(*) FROM vk JOIN u2 ON u2.g > 'b' GROUP BY vk.k10 ORDER BY 1;
SELECT x.kk, x.w, count(*) FROM (SELECT k AS kk, w FROM k) x, u2 WHERE u2.g = 'a' GROUP BY x.kk ORDER BY 1;
