-- The settings pragmas before the temp database is made, and of attached databases:
-- ATTACH takes the default locking mode and main's secure_delete.
PRAGMA temp.secure_delete;
PRAGMA secure_delete=0;
PRAGMA temp.secure_delete;
CREATE TEMP TABLE x(a);
PRAGMA temp.secure_delete;
PRAGMA locking_mode=exclusive;
ATTACH ':memory:' AS a2;
PRAGMA a2.locking_mode;
PRAGMA a2.secure_delete;
PRAGMA cache_spill=off;
ATTACH ':memory:' AS a3;
PRAGMA a3.cache_spill;
PRAGMA cache_spill=on;
PRAGMA a3.cache_spill;
PRAGMA a2.default_cache_size=9;
PRAGMA a2.default_cache_size;
PRAGMA a2.cache_size;
PRAGMA default_cache_size;
