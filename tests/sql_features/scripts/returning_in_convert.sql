-- An IN whose left operand is a column of the RETURNING row and that SQLite probes as an
-- ephemeral table (IN (SELECT ...), IN table, a list of three or more constants) applies
-- its affinity to the row's register in place (3.40 codes the row's columns as registers):
-- what is coded after it sees the converted value; a shorter list, one with a column, a
-- unary plus, a vector or a REAL column's IntReal do not convert; the table keeps its row
CREATE TABLE t(a INTEGER, d TEXT, e, f REAL);
CREATE TABLE k(x);
INSERT INTO k VALUES (6);
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING e IN (SELECT 6), typeof(e), e;
INSERT INTO t VALUES (2, '5', '6', 7) RETURNING e IN (6, 7, 8), typeof(e), e;
SELECT a, e, typeof(e) FROM t ORDER BY rowid;
UPDATE t SET d = 'z' WHERE a = 1 RETURNING e IN (SELECT 6), typeof(e);
SELECT a, e, typeof(e) FROM t ORDER BY rowid;
CREATE TABLE c(a INTEGER, e CHECK (e IN (1, 2, 3, '6')));
INSERT INTO c VALUES (1, '6') RETURNING typeof(e);
SELECT typeof(e) FROM c;
INSERT INTO t SELECT 3, '5', '6', 7 RETURNING e IN (SELECT x FROM k WHERE 0), typeof(e);
INSERT INTO t VALUES (4, '5', NULL, 7) RETURNING e IN (SELECT 6), typeof(e);
INSERT INTO t VALUES (5, '5', '6', 7) RETURNING CASE WHEN 0 THEN e IN (SELECT 6) END, typeof(e);
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING e IN (6, 7, 8), typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING e IN (6, 7), typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING e IN (6, 7, a), typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING e IN k, typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING e IN (SELECT x FROM k), typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING e NOT IN (SELECT x FROM k), typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING typeof(e), e IN (SELECT 6), typeof(e), e IN (SELECT '6'), typeof(e);
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING d IN (SELECT 5), typeof(d), d, typeof(e);
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING f IN (SELECT 7), typeof(f), f;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING rowid IN (SELECT 1), typeof(e);
INSERT INTO t VALUES ('y', '5', '6', 7) RETURNING e IN (SELECT 6), typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING +e IN (SELECT 6), typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING e COLLATE nocase IN (SELECT 6), typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING (SELECT e IN (SELECT 6)), typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING CASE WHEN e IN (SELECT 6) THEN typeof(e) END, typeof(e);
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING e IN (SELECT 6) AND 1, e IN (SELECT 6) OR 0, typeof(e);
UPDATE t SET e = '9' WHERE rowid = 1 RETURNING e IN (SELECT 9), typeof(e), e;
DELETE FROM t WHERE rowid = 2 RETURNING e IN (SELECT 6), typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', '7') RETURNING d IN (5), typeof(d), d;
INSERT INTO t VALUES (1, '5', '6', '7') RETURNING e IN (6), typeof(e), e, e;
INSERT INTO t VALUES (1, '5', '6', '7') RETURNING typeof(e), e IN (6), typeof(e);
INSERT INTO t VALUES (1, '5', '6.0', 7) RETURNING e IN (6), typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING e IN (SELECT 6), typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING e IN ('6'), typeof(e), e;
INSERT INTO t VALUES (1, '5', x'36', 7) RETURNING e IN (6), typeof(e);
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING e = 6, typeof(e);
INSERT INTO t VALUES ('x', '5', '6', 7) RETURNING e IN (6), typeof(e);
UPDATE t SET e = '8' WHERE rowid = 1 RETURNING e IN (8), typeof(e), e;
DELETE FROM t WHERE rowid = 2 RETURNING e IN (6), typeof(e), e;
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING (SELECT e IN (6)), typeof(e);
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING e NOT IN (6), typeof(e);
INSERT INTO t VALUES (1, '5', '6', 7) RETURNING (e, d) IN (VALUES (6, 5)), typeof(e), typeof(d);
SELECT * FROM t ORDER BY rowid;
