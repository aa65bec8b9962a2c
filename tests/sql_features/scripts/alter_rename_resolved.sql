-- RENAME COLUMN renames in a view only the names that resolve to the renamed column of
-- the renamed table (SQLite's renameColumnFunc), then tests the schema
create table t(a, b);
create table u(a, c);
create view v as select t.a, u.a from t, u;
create view v2 as select b, c from t, u as uu where uu.a = 1 and t.a = 2;
create view v3 as select "a", b from t where a in (select a from u) order by a;
create view v5 as select b from t where exists (select 1 from u where u.a = t.a and b = 1);
create view v6 as select [b] from t join u on t.[a] = u.c;
create view v7 as select tt.`a` + 1 as k, u.a from t as tt, u where tt.a > u.c group by tt.a having count(tt.a) > 0;
create view v8 as select x.a from (select a from u) as x, t where x.a = t.b;
alter table t rename column a to z;
select name, sql from sqlite_master order by name;
select * from v;
select * from v7;
alter table u rename column a to y;
select name, sql from sqlite_master order by name;
create view v4 as select x.a from (select a from t) as x;
alter table t rename column z to w;
select name, sql from sqlite_master where name = 'v4';
drop view v4;
create view v9 as select a from t natural join u;
alter table t rename column z to w;
select name, sql from sqlite_master where type = 'view' order by name;
