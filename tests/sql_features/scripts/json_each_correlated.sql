-- json_each / json_tree reading a table to their left in the same FROM (and an enclosing query)
CREATE TABLE t(id INTEGER PRIMARY KEY, doc TEXT);
INSERT INTO t VALUES (1, '{"a":1,"b":[1,2]}'), (2, '[10,20,30]'), (3, NULL), (4, '{"x":{"y":true}}');
SELECT t.id, j.key, j.value, j.type FROM t, json_each(t.doc) AS j ORDER BY t.id, j.key;
SELECT t.id, j.key, j.value FROM t, json_each(t.doc) AS j;
SELECT t.id, j.fullkey, j.atom FROM t, json_tree(t.doc) AS j WHERE j.atom IS NOT NULL;
SELECT t.id, count(*) FROM t, json_each(t.doc) GROUP BY t.id;
SELECT id FROM t WHERE EXISTS (SELECT 1 FROM json_each(t.doc) WHERE value = 20);
SELECT t.id, j.value FROM t JOIN json_each(t.doc, '$.b') AS j;
SELECT t.id, j.value FROM t LEFT JOIN json_each(t.doc) AS j ON j.value > 1 ORDER BY 1, 2;
SELECT t.id, j.value FROM t, json_each(t.doc) AS j WHERE j.key = 'a';
SELECT t.id, j.value FROM t, json_each(t.doc) AS j WHERE j.value = t.id * 10;
SELECT a.id, b.id, j.value FROM t a, t b, json_each(b.doc) j WHERE a.id = b.id - 1;
SELECT j.value FROM json_each('[1,2]') j, t WHERE t.id = j.value;
SELECT * FROM t, json_each(t.nosuch);
