-- A BEFORE INSERT trigger sees NEW.rowid (and an INTEGER PRIMARY KEY) -1 when the row
-- gets a new rowid: SQLite allocates it after the BEFORE triggers ran, so a trigger that
-- inserts into its own table (INSERT OR REPLACE) does not take the row's rowid. The OR
-- clause of the statement that fires a trigger overrides the conflict clause of each
-- INSERT and UPDATE in its body (SQLite's eOrconf).
CREATE TABLE x(id INTEGER PRIMARY KEY, v);
CREATE TABLE y(v);
CREATE TABLE lg(a, b);
CREATE TRIGGER bx BEFORE INSERT ON x BEGIN INSERT INTO lg VALUES (new.id, new.rowid); END;
CREATE TRIGGER by BEFORE INSERT ON y BEGIN INSERT INTO lg VALUES (new.v, new.rowid); END;
insert into x values (null, 1);
insert into x(v) values (2);
insert into x values (7, 3);
insert into x values ('8', 3);
insert into y values (5);
insert into y(rowid, v) values (9, 6);
insert into y(rowid, v) values (null, 6);
insert into x values ('z', 3);
select * from lg;
select rowid, * from y;
CREATE TABLE k(a UNIQUE, b);
CREATE TRIGGER tk BEFORE INSERT ON k BEGIN INSERT OR REPLACE INTO k VALUES (new.a, 'trig'); END;
insert into k values (1, 'x');
select rowid, * from k;
insert or replace into k values (1, 'y');
select rowid, * from k;
insert or ignore into k values (1, 'z');
select rowid, * from k;
insert or replace into k values (2, 'w');
select rowid, * from k;
CREATE TABLE t(id INTEGER PRIMARY KEY, v);
CREATE TRIGGER tb BEFORE INSERT ON t BEGIN INSERT OR REPLACE INTO t VALUES (new.id, 'trig'); END;
insert into t values (1, 'a');
insert or replace into t values (1, 'c');
insert or ignore into t values (1, 'd');
insert or replace into t values (null, 'e');
select * from t;
CREATE TABLE m(a PRIMARY KEY, b);
CREATE TABLE ml(x UNIQUE);
CREATE TRIGGER mu AFTER UPDATE ON m BEGIN INSERT OR FAIL INTO ml VALUES (new.a); UPDATE OR IGNORE m SET b = 0 WHERE a = 99; END;
insert into m values (1, 1), (2, 2);
update or replace m set b = 5;
select * from ml;
update m set b = 6;
select * from ml;
update or ignore m set b = 7;
select * from m;
CREATE TABLE ai(id INTEGER PRIMARY KEY AUTOINCREMENT, v);
CREATE TRIGGER tai BEFORE INSERT ON ai BEGIN INSERT OR IGNORE INTO ai VALUES (new.id, 'trig'); END;
insert into ai(v) values ('p');
insert into ai(v) values ('q');
select * from ai;
select name, seq from sqlite_sequence;
