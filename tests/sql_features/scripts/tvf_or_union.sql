-- An OR of terms on a table-valued function's HIDDEN column that SQLite's OR-to-IN does
-- not take (an operand that is an IN list, or a value with an affinity other than the
-- column's NUMERIC: a column, a CAST, a subquery's column): SQLite runs each operand as
-- a loop of its own and leaves out a row whose rowid an earlier operand's rows had
-- (json_each's count from 0 in each call, a pragma's from 1 across an operand's calls),
-- tablefunc._bind_union / _code_fill; and the ORs it does make an IN (no affinity, or
-- NUMERIC)
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT);
CREATE TABLE u(x, y);
CREATE TABLE d(id INTEGER PRIMARY KEY, doc, path);
CREATE TABLE w(p, q, r, s, t2);
CREATE TABLE n(nm, nn NUMERIC, ni INTEGER);
INSERT INTO n VALUES ('t', 't', 't'), ('d', 'w', 'w'), ('w', 'w', 'w');
INSERT INTO d VALUES (1, '[1,2]', '$'), (2, '{"a":5,"b":[7,8]}', '$.b'), (3, '[9,8,7,6]', '$');
SELECT name, arg FROM pragma_table_info WHERE arg = 't' OR arg IN ('u', 'd');
SELECT name, arg FROM pragma_table_info WHERE arg = 't' OR arg IN ('d', 'w');
SELECT name, arg FROM pragma_table_info WHERE arg = 'w' OR arg IN ('t', 'd');
SELECT name, arg FROM pragma_table_info WHERE arg = 't' OR arg = 'w' OR arg IN ('d');
SELECT name, arg FROM pragma_table_info WHERE arg = 'd' OR arg = 'w' OR arg = +'t';
SELECT name, arg FROM pragma_table_info WHERE arg = 'd' OR arg = 'w' OR arg = CAST('t' AS TEXT);
SELECT name, arg FROM pragma_table_info WHERE arg = 'd' OR arg = 'w' OR arg > 't';
SELECT name, arg FROM pragma_table_info WHERE arg = 't' OR arg = 'u' OR arg = 'w' OR arg = CAST('d' AS TEXT);
SELECT name, arg FROM pragma_table_info WHERE (arg = 't' AND schema = 'main') OR arg = CAST('w' AS TEXT);
SELECT name, arg FROM pragma_table_info WHERE (arg = 't' AND schema = 'temp') OR arg = CAST('w' AS TEXT);
SELECT name, arg FROM pragma_table_info WHERE (arg = 't' AND a = 1) OR arg = CAST('w' AS TEXT);
SELECT name, arg FROM pragma_table_info WHERE arg IN ('t', 'd') OR arg IN ('w', 'u');
SELECT name, arg FROM pragma_table_info WHERE arg = CAST('w' AS TEXT) OR arg = NULL;
SELECT n.nm, p.name, p.arg FROM n, pragma_table_info p WHERE p.arg = 'w' OR p.arg = n.nm;
SELECT n.nm, p.name, p.arg FROM n, pragma_table_info p WHERE p.arg = 'u' OR p.arg IN (n.nm, 'w');
SELECT n.nm, p.name, p.arg FROM pragma_table_info p, n WHERE p.arg = 't' OR p.arg = n.nm;
SELECT n.nm, p.name FROM n, pragma_table_info p WHERE p.arg = 't' OR p.arg = n.nn;
SELECT n.nm, p.name FROM n, pragma_table_info p WHERE p.arg = 't' OR p.arg = n.ni;
SELECT n.nm, p.name FROM n, pragma_table_info p WHERE p.arg = 't' OR p.arg = n.nm || '';
SELECT n.nm, p.name FROM n, pragma_table_info p WHERE p.arg = 't' OR p.arg = n.nm COLLATE nocase;
SELECT p.name FROM pragma_table_info p WHERE p.arg = 't' OR p.arg = (SELECT 'w');
SELECT p.name FROM pragma_table_info p WHERE p.arg = 't' OR p.arg = (SELECT nm FROM n WHERE nm = 'w');
SELECT p.name FROM pragma_table_info p WHERE p.arg = 'x' AND (p.arg = 't' OR p.arg = CAST('w' AS TEXT));
SELECT key, value, json FROM json_each WHERE json = '[3,4,5]' OR json IN ('[1,2]', '[6,7,8,9]');
SELECT d.id, j.key, j.value FROM d, json_each j WHERE j.json = '[0]' OR j.json = d.doc;
SELECT d.id, j.key, j.value FROM json_each j, d WHERE j.json = d.doc OR j.json = '[0,0,0]';
SELECT d.id, j.key, j.value FROM d JOIN json_each j ON (j.json = d.doc AND j.root = d.path) OR j.json = '[1,2,3,4,5]';
SELECT d.id, j.key, j.value FROM d LEFT JOIN json_each j ON j.json = '[0]' OR j.json = d.doc;
SELECT d.id, t.key, t.fullkey FROM d, json_tree t WHERE t.json = d.doc OR t.json = '{"k":[1,2]}';
SELECT d.id, (SELECT group_concat(j.value) FROM json_each j WHERE j.json = '[5]' OR j.json = d.doc) FROM d;
