-- RENAME COLUMN in triggers renames only the names that resolve to the column, as
-- SQLite's renameResolveTrigger: NEW.x / OLD.x and UPDATE OF on the renamed table's own
-- triggers; in any trigger's steps the names that resolve to it (an unqualified one to
-- the step's target first), and the INSERT column list, SET columns and upsert DO UPDATE
-- columns (and excluded.x) of a step whose target is the table (compiler/alter_refs.py)
create table t(a, b);
create table u(a, c);
create table w(x, y);
create trigger t1 after insert on t begin select t.a, u.a from t, u; end;
create trigger t2 after update of a, b on t when new.a > old.a begin update u set a = new.a where a = old.a; end;
create trigger t3 after insert on u begin insert into t(a, b) values(new.a, new.c); end;
create trigger t4 after insert on u begin update t set a = new.a, b = a where a = new.c; end;
create trigger t5 after delete on w begin delete from t where a = old.x; insert into u(a) select a from t; end;
create trigger t6 after insert on w begin select a from u where a in (select a from t); end;
create trigger t7 before update on u begin select new.a, old.a; end;
create trigger t8 after insert on t begin insert into u(a, c) values (new.a, (select max(a) from t)) ; end;
create trigger t9 after insert on w begin update u set c = t.a from t where t.b = u.a; end;
create unique index ta on t(a);
create trigger t10 after insert on w begin insert into t(a, b) values (1, 2) on conflict(a) do update set a = excluded.a + a, b = b; end;
create trigger t11 after insert on t begin select a from (select a from u); select x.a from t as x; end;
alter table t rename column a to z;
select name, sql from sqlite_schema order by name;
insert into w values (1, 2);
select * from t;
select * from u;
-- t11's outer "a" named the subquery's column, which the rename of u.a takes away
alter table u rename column a to q;
select name, sql from sqlite_schema order by name;
drop trigger t11;
alter table u rename column a to q;
select name, sql from sqlite_schema order by name;
drop table t;
drop table u;
drop table w;
-- quoted names keep their quoting; row-value SET items; subqueries in WHEN and steps
create table t(a, b, "c d");
create table u(a, c);
create trigger r1 after update of "a" on t when (select count(*) from u where u.a = new."a") > 0 begin select 1; end;
create trigger r2 after insert on t begin update t set (a, b) = (new.b, new.a), "c d" = a where rowid = new.rowid; end;
create trigger r4 after insert on u begin insert into t select * from t where a > 1 on conflict do nothing; end;
create trigger r5 after insert on u begin select case when a then a else b end, [a], `a` from t; end;
create trigger r7 after insert on u begin select count(*) from t join u on t.a = u.a; end;
create trigger r8 after insert on u begin select a, b from t where exists (select 1 from u where u.a = t.a); end;
create trigger r9 after insert on u begin update u set a = (select a from t where t.b = u.c); end;
create trigger r10 after delete on t begin delete from u where a = old.a and c in (select a from t); end;
alter table t rename column a to "new col";
select name, sql from sqlite_schema order by name;
insert into t values (1, 2, 3);
insert into u values (1, 2);
select * from t;
alter table u rename column a to k;
select name, sql from sqlite_schema order by name;
-- with TEMP objects over main's tables, main's own triggers and views are renamed (the
-- TEMP ones are not yet: README's known gaps)
drop table t;
drop table u;
create table t(a, b);
create table p(x primary key);
create table c(y references p(x));
alter table p rename column x to x2;
create temp trigger tt after insert on t begin select new.a; end;
create trigger mt after insert on t begin select new.a; end;
create view mv as select a from t;
alter table t rename column a to z;
select name, sql from sqlite_schema order by name;
