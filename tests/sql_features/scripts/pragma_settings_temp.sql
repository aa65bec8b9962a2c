-- The settings pragmas of the temp database: made by CREATE TEMP before a setting, then
-- set by an unqualified secure_delete; cache_spill is a flag of the connection.
PRAGMA secure_delete=0;
CREATE TEMP TABLE x(a);
PRAGMA temp.secure_delete;
PRAGMA secure_delete=fast;
PRAGMA temp.secure_delete;
PRAGMA temp.secure_delete=0;
PRAGMA secure_delete;
PRAGMA temp.secure_delete;
PRAGMA temp.cache_spill;
PRAGMA temp.cache_spill=0;
PRAGMA cache_spill;
PRAGMA temp.max_page_count;
PRAGMA temp.max_page_count=3;
PRAGMA temp.locking_mode;
PRAGMA temp.default_cache_size;
PRAGMA temp.default_cache_size=77;
PRAGMA temp.default_cache_size;
PRAGMA temp.cache_size;
PRAGMA default_cache_size;
SELECT * FROM pragma_default_cache_size('temp');
SELECT * FROM pragma_secure_delete;
