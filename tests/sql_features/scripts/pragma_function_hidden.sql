-- The hidden arg and schema columns of the pragma_NAME functions that take an argument,
-- read qualified (the ones of table_list: arg alone, its own schema column comes first)
CREATE TABLE u(a, c);
CREATE INDEX ui ON u(c);
SELECT p.arg, p.schema FROM pragma_table_info('u', 'main') AS p;
SELECT p.arg, p.schema, * FROM pragma_table_info('u') AS p;
SELECT * FROM pragma_table_info('u') AS p WHERE p.arg = 'u';
SELECT p.arg, p.schema, * FROM pragma_table_list AS p;
SELECT p.arg, p.schema, * FROM pragma_table_list('u') AS p;
SELECT p.arg, p.schema, * FROM pragma_index_list('u') AS p;
SELECT p.arg, p.schema, * FROM pragma_index_info('ui') AS p;
SELECT p.arg, p.schema, * FROM pragma_index_xinfo('ui', 'main') AS p;
SELECT p.arg, p.schema, * FROM pragma_table_xinfo('u') AS p;
SELECT p.arg, p.schema FROM pragma_foreign_key_list('u') AS p;
SELECT p.arg FROM pragma_database_list AS p;
SELECT u.a, p.name, p.arg FROM u, pragma_table_info('u') AS p;
