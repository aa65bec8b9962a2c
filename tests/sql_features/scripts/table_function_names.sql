-- A table-valued function call in FROM: a CTE, table or view of its name is no function
-- ("'t' is not a function"), an unknown name is a missing table (qualified by its
-- schema, or in a view or trigger body by the body's database), a pragma_NAME function
-- takes at most its hidden columns' count of arguments (2 or 0), json_each() and
-- json_tree() without arguments give no rows
CREATE TABLE t(a, b);
SELECT * FROM nosuch(1);
SELECT * FROM main.nosuch(1);
SELECT * FROM temp.nosuch(1);
SELECT * FROM aux.nosuch(1);
SELECT * FROM pragma_nosuch(1);
SELECT * FROM main.pragma_nosuch(1);
SELECT * FROM main.json_each('[1]');
SELECT * FROM temp.json_each('[1]');
SELECT * FROM main.pragma_table_info('t');
SELECT * FROM t(1);
CREATE VIEW v AS SELECT * FROM nosuch(1);
SELECT * FROM v;
CREATE VIEW v2 AS SELECT * FROM pragma_nosuch(1);
SELECT * FROM v2;
CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT a FROM t WHERE a IN (SELECT value FROM generate_series(1, 3)); END;
INSERT INTO t VALUES (1, 2);
DROP TRIGGER tr;
CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN SELECT * FROM nosuch(1); END;
INSERT INTO t VALUES (1, 2);
DROP TRIGGER tr;
CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT * FROM pragma_nosuch(1); END;
INSERT INTO t VALUES (1, 2);
DROP TRIGGER tr;
WITH c AS (SELECT 1) SELECT * FROM c(1);
CREATE VIEW vv AS SELECT 1;
SELECT * FROM vv(1);
SELECT * FROM sqlite_master(1);
SELECT * FROM main.t(1);
SELECT * FROM pragma_table_info('t', 'main', 'x');
SELECT * FROM json_each('[1]', '$', 3);
SELECT * FROM json_tree();
SELECT * FROM json_each();
SELECT * FROM pragma_database_list(1);
SELECT * FROM pragma_database_list(1, 2);
SELECT * FROM pragma_integrity_check(1, 2, 3);
SELECT * FROM pragma_module_list(1);
SELECT * FROM pragma_table_info();
SELECT * FROM pragma_collation_list(NULL);
CREATE TABLE json_each(x);
SELECT * FROM json_each('[1]');
SELECT * FROM json_each;
