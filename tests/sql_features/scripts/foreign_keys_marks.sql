-- Foreign keys over rows stored while foreign_keys was off: PRAGMA foreign_key_check, and a statement's check looks at the keys it touched only (a generated column as the child key)
CREATE TABLE p(id INTEGER PRIMARY KEY);
CREATE TABLE c(x REFERENCES p(id) DEFERRABLE INITIALLY DEFERRED, y REFERENCES p ON DELETE CASCADE);
INSERT INTO c VALUES (1, 2), (NULL, 3);
PRAGMA foreign_key_check;
PRAGMA foreign_key_check(c);
PRAGMA foreign_key_list(c);
CREATE TABLE g(a, b AS (a + 1), FOREIGN KEY (b) REFERENCES p(id));
INSERT INTO g(a) VALUES (0), (5);
PRAGMA foreign_key_check(g);
PRAGMA foreign_keys = ON;
INSERT INTO g(a) VALUES (7);
INSERT INTO p VALUES (8);
INSERT INTO g(a) VALUES (7);
SELECT * FROM g;
