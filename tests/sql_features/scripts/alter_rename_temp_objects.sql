-- RENAME COLUMN and RENAME TO of a main table edit the temp views and triggers that read
-- it as well (SQLite rewrites sqlite_temp_schema's views and triggers after main's rows):
-- their text, a trigger's tbl_name, and what they do afterwards
CREATE TABLE t(a, b);
INSERT INTO t VALUES (1, 2);
CREATE TEMP VIEW tv AS SELECT a, b FROM t WHERE a > 0;
CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN SELECT a FROM t; END;
CREATE TEMP TABLE log(x);
CREATE TEMP TRIGGER tr2 AFTER UPDATE ON t BEGIN INSERT INTO log VALUES (new.a); END;
CREATE TEMP VIEW other AS SELECT 1 AS z;
ALTER TABLE t RENAME COLUMN a TO aa;
SELECT name, tbl_name, sql FROM sqlite_temp_master ORDER BY name;
SELECT * FROM tv;
ALTER TABLE t RENAME TO t2;
SELECT type, name, tbl_name, sql FROM sqlite_temp_master ORDER BY name;
SELECT sql FROM sqlite_master ORDER BY name;
SELECT * FROM tv;
UPDATE t2 SET aa = 5;
SELECT * FROM log;
INSERT INTO t2 VALUES (3, 4);
SELECT * FROM tv ORDER BY aa;
BEGIN;
ALTER TABLE t2 RENAME COLUMN b TO bb;
SELECT sql FROM sqlite_temp_master WHERE name = 'tv';
ROLLBACK;
SELECT sql FROM sqlite_temp_master WHERE name = 'tv';
SELECT * FROM tv ORDER BY aa;
