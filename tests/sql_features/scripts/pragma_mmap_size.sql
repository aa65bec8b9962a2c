-- PRAGMA mmap_size on an in-memory database (and on temp): no file to map, no row, for a
-- query and a setting alike (tests/sql_features/test_pragma_mmap_size.py: a file's)
PRAGMA mmap_size;
PRAGMA mmap_size = 4096;
PRAGMA mmap_size;
PRAGMA main.mmap_size;
PRAGMA temp.mmap_size;
PRAGMA temp.mmap_size = 10;
