-- After an UPDATE's BEFORE triggers the columns it does not assign are read again from
-- the row (the triggers may have changed it), as SQLite does; OLD stays as it was.
CREATE TABLE t(id INTEGER PRIMARY KEY, a, b REAL, c TEXT, g AS (b * 2) STORED);
CREATE INDEX t_b ON t(b);
CREATE TABLE tlog(x);
INSERT INTO t(id, a, b, c) VALUES (1, 1, 1, 'x'), (2, 2, 2, 'y'), (3, 3, 3, 'z');
CREATE TRIGGER t_bu BEFORE UPDATE OF a ON t BEGIN
  UPDATE t SET b = b * 100, c = c || '!' WHERE id = NEW.id;
  INSERT INTO tlog VALUES ('old ' || OLD.b || ' new ' || NEW.b);
END;
CREATE TRIGGER t_au AFTER UPDATE OF a ON t BEGIN INSERT INTO tlog VALUES ('after ' || OLD.b || ' ' || NEW.b || ' ' || NEW.g); END;
UPDATE t SET a = a + 10 WHERE id < 3;
UPDATE t SET a = a + 1, c = 'set' WHERE id = 3 RETURNING id, a, typeof(b), c, g;
SELECT id, a, b, typeof(b), c, g FROM t ORDER BY id;
SELECT b, id FROM t INDEXED BY t_b WHERE b > 0 ORDER BY b;
SELECT * FROM tlog ORDER BY rowid;
PRAGMA integrity_check;
CREATE TABLE d(id INTEGER PRIMARY KEY, a, b);
INSERT INTO d VALUES (1, 1, 1), (2, 2, 2);
CREATE TRIGGER d_bu BEFORE UPDATE ON d WHEN OLD.id = 1 BEGIN DELETE FROM d WHERE id = OLD.id; END;
UPDATE d SET a = a * 10;
SELECT changes();
SELECT * FROM d ORDER BY id;
CREATE TABLE k(id INTEGER PRIMARY KEY, v, w);
INSERT INTO k VALUES (1, 1, 1);
CREATE TRIGGER k_bu BEFORE UPDATE ON k BEGIN UPDATE k SET w = w + 100 WHERE id = OLD.id; END;
INSERT INTO k VALUES (1, 5, 5) ON CONFLICT(id) DO UPDATE SET v = excluded.v;
SELECT * FROM k;
CREATE TABLE src(id, v);
INSERT INTO src VALUES (1, 7);
UPDATE k SET v = src.v FROM src WHERE src.id = k.id;
SELECT * FROM k;
