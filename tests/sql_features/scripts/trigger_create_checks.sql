-- CREATE TRIGGER's refusals, TEMP ones too (compiler/ddl.py, attach._TempTriggerStatement):
-- BEFORE/AFTER on a view and INSTEAD OF on a table, naming the table as written (with its
-- schema only for a TEMP trigger that gave one)
create table t(a, b);
create table u(x);
create view v as select x from u;
create trigger tt after insert on v begin select 1; end;
create trigger tt after insert on main.v begin select 1; end;
create trigger main.tt before update on v begin select 1; end;
create trigger tt instead of insert on main.t begin select 1; end;
create temp trigger tt after insert on v begin select 1; end;
create temp trigger tt after insert on main.v begin select 1; end;
create temp trigger if not exists tt before delete on v begin select 1; end;
create temp trigger tt instead of insert on t begin select 1; end;
create temp trigger tt instead of insert on main.t begin select 1; end;
create temp trigger tt after insert on nosuch begin select 1; end;
create temp trigger tt after insert on main.nosuch begin select 1; end;
create temp trigger tt instead of delete on v begin select 1; end;
create temp trigger tt2 after insert on t begin select 1; end;
select type, name, tbl_name from sqlite_temp_master order by name;
create temp view tv as select 1 as one;
create trigger tt3 after insert on tv begin select 1; end;
create trigger tt3 instead of insert on tv begin select 1; end;
create temp trigger tt3 after insert on tv begin select 1; end;
create temp trigger tt3 instead of insert on tv begin select 1; end;
select type, name, tbl_name from sqlite_temp_master order by name;
-- a trigger on a temp view or table (TEMP not written) goes into temp, as SQLite puts it
create table log(m);
create temp view tv2 as select 1 as one;
create trigger tv2_ins instead of insert on tv2 begin insert into log values(new.one); end;
insert into tv2 values(7);
select * from log;
select type, name, tbl_name from sqlite_temp_master where name like 'tv2%' order by name;
