-- An AUTOINCREMENT table whose sequence has reached the largest rowid gives no more rowids:
-- SQLite's NewRowid fails with SQLITE_FULL ('database or disk is full'); an explicit rowid
-- still goes in
CREATE TABLE b(id INTEGER PRIMARY KEY AUTOINCREMENT, v);
INSERT INTO b VALUES (9223372036854775807, 1);
INSERT INTO b(v) VALUES (2);
INSERT INTO b DEFAULT VALUES;
INSERT INTO b(v) SELECT 3 UNION ALL SELECT 4;
SELECT * FROM b;
SELECT * FROM sqlite_sequence;
INSERT INTO b(id, v) VALUES (5, 3);
SELECT * FROM b ORDER BY id;
CREATE TABLE c(id INTEGER PRIMARY KEY AUTOINCREMENT, v);
INSERT INTO c(v) VALUES (1);
UPDATE sqlite_sequence SET seq = 9223372036854775806 WHERE name = 'c';
INSERT INTO c(v) VALUES (2) RETURNING id;
INSERT INTO c(v) VALUES (3) RETURNING id;
DELETE FROM c WHERE v = 2;
INSERT INTO c(v) VALUES (4) RETURNING id;
SELECT * FROM sqlite_sequence ORDER BY name;
SELECT * FROM c ORDER BY id;
