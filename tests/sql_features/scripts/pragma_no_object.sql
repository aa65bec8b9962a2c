-- PRAGMA table_info and the other object pragmas without an object (or naming none) have
-- their columns and no row; fullfsync and checkpoint_fullfsync are kept and shown (and
-- are pragma_NAME functions)
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT REFERENCES t(a));
CREATE INDEX tb ON t(b);
PRAGMA table_info;
PRAGMA table_info(nosuch);
PRAGMA table_xinfo(nosuch);
PRAGMA index_info(nosuch);
PRAGMA index_xinfo(nosuch);
PRAGMA index_list(nosuch);
PRAGMA foreign_key_list(nosuch);
PRAGMA index_info(t);
PRAGMA index_list(tb);
PRAGMA temp.table_info(t);
PRAGMA main.table_info(nosuch);
PRAGMA table_info('');
PRAGMA table_list(nosuch);
PRAGMA database_list;
PRAGMA collation_list;
PRAGMA foreign_key_check(nosuch);
PRAGMA foreign_key_check;
PRAGMA fullfsync;
PRAGMA fullfsync = 1;
PRAGMA fullfsync;
PRAGMA checkpoint_fullfsync;
PRAGMA checkpoint_fullfsync = yes;
PRAGMA checkpoint_fullfsync;
PRAGMA fullfsync = off;
PRAGMA fullfsync;
SELECT * FROM pragma_fullfsync, pragma_checkpoint_fullfsync;
PRAGMA user_version = 3;
PRAGMA foreign_keys = 1;
PRAGMA integrity_check(nosuch);
