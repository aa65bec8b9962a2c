-- PRAGMA module_list names a pragma_NAME function once a statement named it in FROM
-- (even one that then failed; not a CREATE VIEW, a SELECT from the view does; not the
-- PRAGMA statement form), computed when it runs: the same statement text prepared again
-- sees the new ones
-- (the lines both engines give: SQLite also lists FTS, R*Tree, dbstat and sqlite_stmt)
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%' OR name LIKE 'json%';
SELECT count(*) FROM (SELECT 1 FROM pragma_module_list) WHERE 0;
CREATE TABLE t(a INTEGER PRIMARY KEY, b);
CREATE INDEX tb ON t(b);
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%';
SELECT name FROM pragma_table_info('t');
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%';
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%';
SELECT * FROM pragma_index_list('t') WHERE nosuch;
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%' ORDER BY 1;
SELECT * FROM pragma_nosuch;
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%' ORDER BY 1;
PRAGMA table_xinfo(t);
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%' ORDER BY 1;
CREATE VIEW v AS SELECT name FROM pragma_table_xinfo('t');
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%' ORDER BY 1;
SELECT * FROM v;
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%' ORDER BY 1;
SELECT count(*) FROM pragma_module_list AS m WHERE m.name = 'pragma_module_list';
SELECT * FROM pragma_database_list WHERE 0;
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%' ORDER BY 1;
SELECT t.a, (SELECT count(*) FROM pragma_index_info('tb')) FROM t, pragma_collation_list AS c WHERE 0;
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%' ORDER BY 1;
CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO t(b) SELECT name FROM pragma_function_list WHERE 0; END;
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%' ORDER BY 1;
INSERT INTO t VALUES (1, 2);
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%' ORDER BY 1;
CREATE TEMP TABLE tt(x);
SELECT name FROM pragma_table_list('tt');
SELECT name FROM pragma_module_list WHERE name LIKE 'pragma%' ORDER BY 1;
