-- AUTOINCREMENT at the largest rowid: SQLite's NewRowid fails with SQLITE_FULL (no random
-- rowid as for another table) when the table holds rowid 9223372036854775807, whatever its
-- sequence says, and when the sequence value is that rowid; a single-row INSERT's failure
-- rolls back the transaction, a multi-row INSERT giving rowids only the statement
CREATE TABLE a(x INTEGER PRIMARY KEY AUTOINCREMENT, y);
INSERT INTO a VALUES(9223372036854775807, 1);
SELECT name, seq FROM sqlite_sequence;
UPDATE sqlite_sequence SET seq = 5;
INSERT INTO a(y) VALUES(2);
SELECT x, y FROM a ORDER BY x;
SELECT name, seq FROM sqlite_sequence;
INSERT INTO a VALUES(NULL, 3);
INSERT INTO a VALUES(7, 4);
INSERT INTO a(x, y) VALUES(8, 5), (NULL, 6);
SELECT x, y FROM a ORDER BY x;
DELETE FROM sqlite_sequence;
INSERT INTO a(y) VALUES(7);
SELECT x, y FROM a ORDER BY x;
SELECT name, seq FROM sqlite_sequence;
BEGIN;
INSERT INTO a VALUES(9, 8);
INSERT INTO a(y) VALUES(9);
COMMIT;
SELECT x, y FROM a ORDER BY x;
BEGIN;
INSERT INTO a VALUES(10, 10);
INSERT INTO a(x, y) SELECT 11, 11 UNION ALL SELECT NULL, 12;
COMMIT;
SELECT x, y FROM a ORDER BY x;
DELETE FROM a WHERE x = 9223372036854775807;
INSERT INTO a(y) VALUES(13);
SELECT x, y FROM a ORDER BY x;
SELECT name, seq FROM sqlite_sequence;
UPDATE sqlite_sequence SET seq = 9223372036854775807;
INSERT INTO a(y) VALUES(14);
INSERT INTO a VALUES(20, 15);
SELECT x, y FROM a ORDER BY x;
CREATE TABLE b(x INTEGER PRIMARY KEY, y);
INSERT INTO b VALUES(9223372036854775807, 1);
INSERT INTO b(y) VALUES(2);
SELECT count(*), max(x) FROM b;
-- a multi-row INSERT giving no rowid has no constraint to abort on: its SQLITE_FULL rolls
-- back the transaction too (SQLite runs it without a statement journal)
DELETE FROM a;
INSERT INTO a VALUES(9223372036854775807, 1);
BEGIN;
INSERT INTO a VALUES(10, 10);
INSERT INTO a(y) SELECT 11 UNION ALL SELECT 12;
COMMIT;
SELECT x, y FROM a ORDER BY x;
BEGIN;
INSERT INTO a VALUES(10, 10);
INSERT INTO a(y) VALUES(11), (12);
COMMIT;
SELECT x, y FROM a ORDER BY x;
BEGIN;
INSERT INTO a VALUES(10, 10);
INSERT INTO a DEFAULT VALUES;
COMMIT;
SELECT x, y FROM a ORDER BY x;
CREATE TABLE c(x INTEGER PRIMARY KEY, y UNIQUE);
INSERT INTO c(y) VALUES(1), (2);
INSERT OR REPLACE INTO c(y) VALUES(2), (3);
INSERT INTO c(y) SELECT y + 10 FROM c;
SELECT x, y FROM c ORDER BY x;
