-- A view or trigger of main binds the tables its body names to main, as SQLite does
-- (sqlite3FixSrcList): a temp table hiding a main one of its name is what the statement
-- reads, not what a main view or trigger body reads (nor main.t written there); a temp
-- view or trigger searches temp first
CREATE TABLE t(a, b);
INSERT INTO t VALUES (1, 'm');
CREATE TABLE u(x);
INSERT INTO u VALUES (10);
CREATE VIEW v AS SELECT a, b FROM t;
CREATE VIEW vj AS SELECT a, x FROM t, u;
CREATE VIEW vq AS SELECT main.t.a, t.b FROM main.t;
CREATE VIEW vs AS SELECT * FROM (SELECT a FROM t) AS s;
CREATE VIEW vw AS SELECT a FROM t WHERE a IN (SELECT a FROM t) AND EXISTS (SELECT 1 FROM u);
CREATE VIEW vv AS SELECT * FROM v;
CREATE TEMP TABLE t(a, b, c);
INSERT INTO temp.t VALUES (2, 't', 3);
SELECT * FROM t;
SELECT * FROM v;
SELECT * FROM vj;
SELECT * FROM vq;
SELECT * FROM vs;
SELECT * FROM vw;
SELECT * FROM vv;
SELECT * FROM v, t AS tt;
SELECT v.a, t.a FROM v JOIN t ON 1;
SELECT (SELECT a FROM v), (SELECT count(*) FROM vj);
CREATE TEMP VIEW tv AS SELECT a FROM t;
SELECT * FROM tv;
CREATE TEMP VIEW tv2 AS SELECT a FROM main.t;
SELECT * FROM tv2;
CREATE TABLE log(x, y);
CREATE TRIGGER tr AFTER INSERT ON u BEGIN INSERT INTO log SELECT new.x, a FROM t; INSERT INTO t VALUES (new.x, 'trig'); UPDATE t SET b = b || '!' WHERE a = new.x; DELETE FROM t WHERE a = 1; END;
INSERT INTO u VALUES (20);
SELECT * FROM log;
SELECT * FROM main.t ORDER BY a;
SELECT * FROM temp.t ORDER BY a;
CREATE TEMP TRIGGER ttr AFTER INSERT ON u BEGIN INSERT INTO log SELECT new.x, a FROM t; END;
INSERT INTO u VALUES (30);
SELECT * FROM log ORDER BY rowid;
DROP TABLE temp.t;
SELECT * FROM v;
SELECT * FROM tv;
SELECT * FROM vq;
