-- PRAGMA wal_checkpoint answers as SQLite does for a database not in WAL mode (this
-- engine has none): busy 0, log -1, checkpointed -1, whatever the mode; PRAGMA
-- wal_autocheckpoint is kept per connection (N, or 0 for N <= 0)
PRAGMA wal_checkpoint;
PRAGMA wal_checkpoint(PASSIVE);
PRAGMA wal_checkpoint(FULL);
PRAGMA wal_checkpoint(RESTART);
PRAGMA wal_checkpoint(TRUNCATE);
PRAGMA wal_checkpoint(nosuch);
PRAGMA main.wal_checkpoint;
PRAGMA temp.wal_checkpoint;
PRAGMA nosuch.wal_checkpoint;
PRAGMA wal_autocheckpoint;
PRAGMA wal_autocheckpoint = 500;
PRAGMA wal_autocheckpoint;
PRAGMA wal_autocheckpoint = -5;
PRAGMA wal_autocheckpoint;
PRAGMA wal_autocheckpoint = 7.9;
PRAGMA wal_autocheckpoint;
PRAGMA wal_autocheckpoint = '12';
PRAGMA wal_autocheckpoint;
PRAGMA wal_autocheckpoint = abc;
PRAGMA wal_autocheckpoint;
PRAGMA wal_autocheckpoint(2000);
PRAGMA wal_autocheckpoint;
CREATE TABLE t(a);
INSERT INTO t VALUES (1);
PRAGMA wal_checkpoint;
BEGIN;
PRAGMA wal_checkpoint;
COMMIT;
