-- PRAGMA function_list / module_list / pragma_list and their pragma_NAME() forms: the
-- lists differ honestly (each engine lists what it has), so the statements compare the
-- columns and the rows of what both have (tests/sql_features/test_pragma_lists.py: the rest)
SELECT * FROM pragma_function_list WHERE name = 'abs';
SELECT name, builtin, type, enc, narg, flags FROM pragma_function_list WHERE name IN ('abs','substr','max','count','json_extract','row_number','like') ORDER BY 1,2,3,4,5;
SELECT name, builtin, type, enc, narg, flags FROM pragma_function_list() WHERE name IN ('min','sum','avg','total','group_concat','json_group_array','json_group_object','lag','lead','ntile','nth_value') ORDER BY 1,5;
SELECT name, type, narg, flags FROM pragma_function_list WHERE name IN ('random','randomblob','changes','total_changes','last_insert_rowid','sqlite_version','sqlite_source_id','current_date','current_time','current_timestamp','date','strftime') ORDER BY 1,3;
SELECT name, narg, flags FROM pragma_function_list WHERE name IN ('->','->>','json','json_object','json_valid','json_quote','coalesce','iif','likely','printf','format','char','zeroblob','sqlite_compileoption_get','sqlite_compileoption_used') ORDER BY 1,2;
SELECT name, narg, flags FROM pragma_function_list WHERE name IN ('pi','sqrt','atan2','log','trunc','mod','round','trim','glob','soundex','unicode','quote','hex','instr','typeof','nullif','ifnull') ORDER BY 1,2;
SELECT count(*) > 100, count(DISTINCT enc), max(builtin) FROM pragma_function_list;
SELECT f.name, f.narg FROM pragma_function_list AS f WHERE f.name = 'substr' AND f.narg = 3;
SELECT name FROM pragma_function_list WHERE name = 'no_such_function';
SELECT name FROM pragma_module_list WHERE name IN ('json_each','json_tree') ORDER BY 1;
SELECT * FROM pragma_module_list() WHERE name = 'json_each';
SELECT name FROM pragma_pragma_list WHERE name IN ('table_info','foreign_keys','user_version','journal_mode','integrity_check','function_list','module_list','pragma_list','compile_options','encoding') ORDER BY 1;
SELECT * FROM pragma_pragma_list() WHERE name = 'page_size';
SELECT name FROM pragma_pragma_list WHERE name = 'no_such_pragma';
-- sqlite_version() and sqlite_source_id() are not deterministic (their flags above)
CREATE TABLE t(a);
CREATE INDEX t_v ON t(sqlite_version());
CREATE INDEX t_w ON t(a) WHERE sqlite_source_id() IS NOT NULL;
CREATE TABLE g(a, b AS (sqlite_version()));
CREATE INDEX t_a ON t(a) WHERE abs(a) > 0;
SELECT sqlite_version() = sqlite_version(), length(sqlite_source_id()) > 20;
