-- A PRAGMA naming a schema: a connection's pragma (foreign_keys, recursive_triggers,
-- case_sensitive_like, ...) sets the connection whatever attached name it is given; a
-- database's pragma set with temp. before the temp database exists makes it and sets
-- it (before, main's user_version, application_id, cache_size, synchronous and
-- journal_mode were changed)
PRAGMA temp.user_version = 5;
PRAGMA user_version;
PRAGMA temp.user_version;
PRAGMA temp.application_id = 7;
PRAGMA application_id;
PRAGMA temp.cache_size = 100;
PRAGMA cache_size;
PRAGMA temp.cache_size;
PRAGMA temp.page_size = 1024;
PRAGMA page_size;
PRAGMA temp.synchronous = 1;
PRAGMA synchronous;
PRAGMA temp.journal_mode = off;
PRAGMA journal_mode;
PRAGMA temp.schema_version;
PRAGMA temp.foreign_keys;
PRAGMA database_list;
PRAGMA temp.user_version;
PRAGMA database_list;
CREATE TABLE p(a PRIMARY KEY);
CREATE TABLE ch(b REFERENCES p(a));
CREATE TEMP TABLE x(a);
PRAGMA temp.foreign_keys = 1;
PRAGMA foreign_keys;
INSERT INTO ch VALUES (5);
PRAGMA temp.foreign_keys = 0;
PRAGMA foreign_keys;
INSERT INTO ch VALUES (6);
ATTACH ':memory:' AS aux;
PRAGMA aux.foreign_keys = 1;
PRAGMA foreign_keys;
PRAGMA aux.foreign_keys;
PRAGMA aux.recursive_triggers = 1;
PRAGMA recursive_triggers;
PRAGMA aux.user_version = 3;
PRAGMA user_version;
PRAGMA aux.user_version;
PRAGMA temp.user_version = 4;
PRAGMA temp.user_version;
PRAGMA user_version;
PRAGMA nosuch.foreign_keys;
PRAGMA nosuch.user_version;
PRAGMA aux.case_sensitive_like = 1;
SELECT 'a' LIKE 'A';
PRAGMA aux.legacy_alter_table;
PRAGMA temp.query_only;
DETACH aux;
