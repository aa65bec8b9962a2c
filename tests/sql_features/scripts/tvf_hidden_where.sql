-- A table-valued function's HIDDEN columns (json_each's json and root, a pragma_NAME
-- function's arg and schema) bound by an = term of the WHERE clause or of the join's ON
-- clause, as SQLite's xBestIndex takes them (tablefunc.bind_hidden): constants,
-- subqueries, tables to the function's left (comma, JOIN ON, LEFT JOIN), an enclosing
-- query; the terms that bind nothing (IS, +col, OR, the function's own row) and the
-- errors
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT NOT NULL, c DEFAULT 5);
CREATE TABLE u(x REFERENCES t(a) ON DELETE CASCADE, y, z UNIQUE);
CREATE INDEX ub ON u(y, x);
CREATE TABLE d(id INTEGER PRIMARY KEY, doc, path);
INSERT INTO d VALUES (1, '[1,2]', '$'), (2, '{"a":5,"b":[7,8]}', '$.b'), (3, NULL, '$'), (4, '{"x":{"y":[true,null]}}', '$.x.y');
SELECT * FROM pragma_table_info WHERE arg = 't';
SELECT name, type, pk FROM pragma_table_info WHERE 't' = arg ORDER BY name DESC;
SELECT name FROM pragma_table_info WHERE arg = 't' AND schema = 'main';
SELECT name FROM pragma_table_info WHERE arg = 't' AND schema = 'temp';
SELECT name FROM pragma_table_info WHERE schema = 'main';
SELECT name, arg, schema FROM pragma_table_info('t') WHERE schema = 'main';
SELECT name, arg, schema FROM pragma_table_info WHERE arg = 't';
SELECT name, arg, schema FROM pragma_table_info WHERE arg = 'T';
SELECT name FROM pragma_table_info WHERE arg = lower('T');
SELECT name FROM pragma_table_info WHERE arg = (SELECT 't');
SELECT name FROM pragma_table_info WHERE arg = 't' COLLATE nocase;
SELECT name FROM pragma_table_info WHERE arg COLLATE nocase = 't';
SELECT name FROM pragma_table_info WHERE arg == 't';
SELECT name FROM pragma_table_info WHERE (arg = 't');
SELECT name FROM pragma_table_info WHERE arg IN ('t');
SELECT name FROM pragma_table_info WHERE arg = NULL;
SELECT name FROM pragma_table_info WHERE arg = 5;
SELECT name FROM pragma_table_info p WHERE p.arg = 't';
SELECT name FROM pragma_table_info WHERE main.pragma_table_info.arg = 't';
SELECT name FROM pragma_table_info p WHERE pragma_table_info.arg = 't';
SELECT name FROM pragma_table_info WHERE arg = 't' AND arg = 'u';
SELECT * FROM pragma_table_info('t') WHERE arg = 'u';
SELECT name FROM pragma_table_info WHERE arg IS 't';
SELECT name FROM pragma_table_info WHERE +arg = 't';
SELECT name FROM pragma_table_info WHERE arg = 't' OR 0;
SELECT name FROM pragma_table_info p WHERE p.arg = p.name;
SELECT count(*), max(cid) FROM pragma_table_info WHERE arg = 't';
SELECT name, count(*) OVER () FROM pragma_table_info WHERE arg = 'u' ORDER BY cid DESC;
SELECT * FROM pragma_index_list WHERE arg = 'u';
SELECT * FROM pragma_index_info WHERE arg = 'ub';
SELECT * FROM pragma_index_xinfo WHERE arg = 'ub' AND schema = 'main';
SELECT * FROM pragma_foreign_key_list WHERE arg = 'u';
SELECT "table", "from", "to" FROM pragma_foreign_key_list WHERE arg = 'u' AND schema = 'temp';
SELECT name FROM pragma_table_xinfo WHERE arg = 't';
SELECT * FROM pragma_table_list WHERE arg = 't';
SELECT name FROM pragma_table_info, t WHERE arg = 't';
SELECT p.name, q.name FROM pragma_table_info p, pragma_index_list q WHERE arg = 't';
SELECT p.name, q.name FROM pragma_table_info p, pragma_index_list q WHERE p.arg = 'u' AND q.arg = p.arg ORDER BY 1, 2;
SELECT p.name, i.name FROM pragma_index_list p, pragma_index_info i WHERE p.arg = 'u' AND i.arg = p.name ORDER BY 1, 2;
SELECT a FROM t WHERE a IN (SELECT cid FROM pragma_table_info WHERE arg = 't');
SELECT s.name, (SELECT group_concat(name) FROM pragma_table_info WHERE arg = s.name) FROM sqlite_schema s ORDER BY 1;
SELECT s.name FROM sqlite_schema s WHERE EXISTS (SELECT 1 FROM pragma_table_info WHERE arg = s.name AND name = 'y');
-- the introspection idiom: every table's columns
SELECT s.name, p.name FROM sqlite_schema s, pragma_table_info p WHERE p.arg = s.name ORDER BY 1, 2;
SELECT s.name, p.name FROM sqlite_schema s, pragma_table_info p WHERE s.name = p.arg AND s.type = 'table' ORDER BY 1, p.cid;
SELECT s.name, p.name FROM sqlite_schema s JOIN pragma_table_info p ON p.arg = s.name ORDER BY 1, 2;
SELECT s.name, p.name FROM sqlite_schema AS s INNER JOIN pragma_table_info AS p ON p.arg = s.name AND p.schema = 'main' ORDER BY 1, 2;
SELECT s.name, p.name FROM sqlite_schema s LEFT JOIN pragma_table_info p ON p.arg = s.name ORDER BY 1, 2;
SELECT s.name, p.name FROM sqlite_schema s LEFT JOIN pragma_table_info p ON p.arg = s.name AND p.pk = 1 ORDER BY 1, 2;
SELECT s.name, p.name FROM sqlite_schema s LEFT JOIN pragma_table_info p WHERE p.arg = s.name ORDER BY 1, 2;
SELECT s.name, p.name, f."table" FROM sqlite_schema s, pragma_table_info p, pragma_foreign_key_list f WHERE p.arg = s.name AND f.arg = s.name AND f."from" = p.name ORDER BY 1;
SELECT s.name, count(*) FROM sqlite_schema s, pragma_index_list l WHERE l.arg = s.name GROUP BY s.name ORDER BY 1;
SELECT s.tbl_name, i.name, c.name FROM sqlite_schema s JOIN pragma_index_list i ON i.arg = s.tbl_name JOIN pragma_index_info c ON c.arg = i.name WHERE s.type = 'table' ORDER BY 1, 2, c.seqno;
SELECT m.name, p.name FROM sqlite_schema m, sqlite_schema s, pragma_table_info p WHERE p.arg = s.name AND m.name = s.name ORDER BY 1, 2;
-- json_each / json_tree
SELECT * FROM json_each WHERE json = '[1,2]';
SELECT * FROM json_each;
SELECT * FROM json_tree;
SELECT * FROM json_each WHERE root = '$';
SELECT key, value, json, root FROM json_each WHERE json = '{"a":[1,2]}' AND root = '$.a';
SELECT key, value FROM json_each('{"a":[1,2]}') WHERE root = '$.a';
SELECT key, json FROM json_each WHERE json IS '[1,2]';
SELECT key, json FROM json_each WHERE '[1,2]' = json;
SELECT key, json, typeof(json) FROM json_each WHERE json = 5;
SELECT * FROM json_each('[1]') WHERE json = '[2]';
SELECT * FROM json_each('[1]', '$') WHERE root = '$';
SELECT * FROM json_tree WHERE json = '{"x":[1]}' ORDER BY id DESC;
SELECT key FROM (SELECT 1) JOIN json_each ON json = '[5,6]';
SELECT j.key FROM json_each j WHERE j.json = j.value;
SELECT d.id, j.value FROM d, json_each j WHERE j.json = d.doc ORDER BY 1, 2;
SELECT d.id, j.key, j.value FROM d, json_each AS j WHERE j.json = d.doc AND j.root = d.path ORDER BY 1, 2;
SELECT d.id, j.value FROM d LEFT JOIN json_each j ON j.json = d.doc ORDER BY 1, 2;
SELECT d.id, j.value FROM d LEFT JOIN json_each j ON j.json = d.doc AND j.root = d.path ORDER BY 1, 2;
SELECT d.id, j.key, j.value FROM d, json_tree j WHERE j.json = d.doc ORDER BY 1, 2;
SELECT d.id, j.fullkey FROM d JOIN json_tree j ON j.json = d.doc WHERE j.atom IS NOT NULL ORDER BY 1, 2;
SELECT d.id, j.key FROM d, json_each(d.doc) j WHERE j.root = '$.b' ORDER BY 1, 2;
SELECT d.id, j.key FROM d, json_each(d.doc) j WHERE j.root = d.path ORDER BY 1, 2;
SELECT d.id, (SELECT sum(value) FROM json_each WHERE json = d.doc) FROM d ORDER BY 1;
SELECT d.id FROM d WHERE 2 IN (SELECT value FROM json_each WHERE json = d.doc AND root = '$') ORDER BY 1;
SELECT d.id, count(j.key) FROM d LEFT JOIN json_each j ON j.json = d.doc GROUP BY d.id ORDER BY 2 DESC, 1;
-- errors
SELECT name FROM pragma_table_info WHERE arg = nosuch;
SELECT name FROM pragma_table_info WHERE arg = d.doc;
SELECT p.name FROM pragma_table_info p, pragma_index_list q WHERE arg = 't';
SELECT name FROM pragma_table_info WHERE arg = count(*);
SELECT * FROM json_each('[1]', '$', 3) WHERE json = '[1]';
SELECT name FROM pragma_table_info('t', 'main', 3) WHERE arg = 't';
-- the schema argument: an attached database, any spelling; one that names none fails
-- (from the call or a WHERE term), as does a second argument of pragma_table_list
SELECT * FROM pragma_table_info('t', 'NoSuch');
SELECT * FROM pragma_table_info('t', 'MAIN');
SELECT * FROM pragma_table_info('t', 5);
SELECT * FROM pragma_table_info('t', '');
SELECT * FROM pragma_table_info('t', NULL);
SELECT * FROM pragma_index_info('nosuch', 'nosuch');
SELECT * FROM pragma_foreign_key_check('u', 'nosuch');
SELECT * FROM pragma_integrity_check(1, 'nosuch');
SELECT * FROM pragma_table_info WHERE arg = 't' AND schema = 'nosuch';
SELECT s.name, p.name FROM sqlite_schema s LEFT JOIN pragma_table_info p ON p.arg = s.name AND p.schema = 'x' ORDER BY 1, 2;
SELECT * FROM pragma_table_list('t', 'main');
SELECT schema, name FROM pragma_table_list WHERE arg = 't';
SELECT schema, name FROM pragma_table_list('t') WHERE schema = 'main';
ATTACH DATABASE ':memory:' AS aux;
CREATE TABLE aux.w(q INTEGER, r TEXT);
SELECT * FROM pragma_table_info('w', 'AUX');
SELECT name, schema FROM pragma_table_info WHERE arg = 'w' AND schema = 'aux';
SELECT name FROM pragma_table_info WHERE arg = 'w';
SELECT s.name, p.name FROM aux.sqlite_schema s, pragma_table_info p WHERE p.arg = s.name AND p.schema = 'aux' ORDER BY 1, 2;
-- IN lists and ORs of = terms on one hidden column: the function runs once per value,
-- in SQLite's value order, NULL left out, equal values once; both hidden columns with
-- lists nest (json outermost)
SELECT name FROM pragma_table_info WHERE arg IN (NULL, 't');
SELECT name FROM pragma_table_info WHERE arg IN ('u', 't');
SELECT name FROM pragma_table_info WHERE arg IN ('u', 't', 'u');
SELECT name, arg FROM pragma_table_info WHERE arg IN ('T', 't');
SELECT name FROM pragma_table_info WHERE arg = 't' OR arg = 'u';
SELECT name FROM pragma_table_info WHERE arg = 'u' OR 't' = arg OR arg = 'd';
SELECT count(*) FROM pragma_table_info WHERE arg IN ('t', 'u', 'd', 'nosuch');
SELECT name FROM pragma_table_info WHERE arg NOT IN ('t');
SELECT name FROM pragma_table_info WHERE arg = 't' OR name = 'u';
SELECT name FROM pragma_table_info p WHERE p.arg = 't' OR pragma_table_info.arg = 'u';
SELECT key FROM json_each WHERE json IN ('[3]', 2, '[1]', x'5b345d');
SELECT key, value FROM json_each WHERE json IN ('[3]', 2, 1.5, '[1]');
SELECT key, value FROM json_each WHERE json IN (2, 2.0);
SELECT key, value, json FROM json_each WHERE json = '[1]' OR json = '[0]' OR '[2]' = json;
SELECT key, value, json, root FROM json_each WHERE json IN ('{"a":[1],"b":[2]}', '[[5]]') AND root IN ('$.b', '$[0]', '$.a');
SELECT key, value, json FROM json_each WHERE json = '[1]' OR json > '[0]';
SELECT d.id, j.value FROM d, json_each j WHERE j.json IN (d.doc, '[9]') ORDER BY 1, 2;
SELECT s.name, p.name FROM sqlite_schema s, pragma_table_info p WHERE p.arg IN (s.name, 'd') AND s.name <> 'd' ORDER BY 1, 2;
-- an OR operand x IN (one constant value) is x = value (SQLite's parser makes it one);
-- with a value that is not constant to the parser (a column, a call, a subquery) it stays
-- an IN and the OR binds nothing
SELECT name FROM pragma_table_info WHERE arg = 't' OR arg IN ('u');
SELECT name FROM pragma_table_info WHERE arg IN ('u') OR 't' = arg OR arg IN (NULL);
SELECT name FROM pragma_table_info WHERE arg IN ('d') OR arg IN ('u' COLLATE NOCASE) OR arg IN (CAST('t' AS TEXT));
SELECT key, value, json FROM json_each WHERE json IN ('[2]') OR json = '[1]' OR json IN ('[' || '3]');
SELECT name FROM pragma_table_info WHERE arg = 't' OR arg NOT IN ('u');
SELECT name FROM pragma_table_info WHERE arg = 't' OR 'u' IN (arg);
-- a subquery value that names the function's column names only qualified by its own
-- tables reads nothing of the function's row: it binds
SELECT name FROM pragma_table_info WHERE arg = (SELECT s.name FROM sqlite_schema s WHERE s.type = 'table' ORDER BY s.name);
SELECT name FROM pragma_table_info WHERE arg IN ((SELECT s.name FROM sqlite_schema s WHERE s.name = 'u'), 'd');
SELECT p.name FROM pragma_table_info p WHERE p.arg = (SELECT s.name FROM sqlite_schema s WHERE s.name = p.name);
SELECT p.name FROM pragma_table_info p WHERE p.arg = (SELECT pragma_table_info.name FROM sqlite_schema);
