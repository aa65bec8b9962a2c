-- UPDATE ... SET (a, b) = (SELECT ...): the subquery runs once per row for all the columns
-- it assigns (once per statement when it is not correlated), NULLs when it has no row;
-- its width is checked where it is coded ('2 columns assigned 3 values'), after the names
-- are resolved (compiler/setrow.py)
create table t(id integer primary key, a, b, c);
create table u(id, x, y, z);
insert into t values(1,1,1,1),(2,2,2,2),(3,3,3,3);
insert into u values(1,10,100,1000),(2,20,200,2000);
update t set (a, b) = (select x, y from u where u.id = t.id);
select * from t order by id;
select changes();
update t set (b, a) = (select a + 10, b + 20) returning *;
update t set (a) = (select x from u where u.id = t.id) returning id, a, b, c;
update t set (a, b) = (select x, y from u where u.id = t.id), c = a + b returning *;
update t set c = -1, (a, b) = (select 7, 8) where id = 2 returning *;
update t set (a, b) = (select 1, 2), (c, a) = (select 3, 4) returning *;
update t set a = 0, (a, b) = (select 5, 6) returning *;
update t set (a, b) = (select 5, 6), a = 0 returning *;
update t set (a, b) = (values(5, 6)) returning *;
update t set (a, b) = (select 1, 2 union select 3, 4) returning *;
update t set (a, b) = (select 9, 9 where 0) returning *;
update t set (a, b) = ((select x, y from u where u.id = t.id)) returning *;
update t set (a, b, c) = (select x, y, z from u order by x desc limit 1) where id in (1, 3) returning *;
update t set (a, b) = (select x, y from u where u.id = t.id order by 1 limit 1) where id > 1 returning *;
update t set (a, b) = (select count(*), max(x) from u where u.id <= t.id) returning *;
update t set (a, b) = (select id * 10, a + b from t as t2 where t2.id = t.id) returning *;
update t set (rowid, a) = (select id + 100, 'moved') where id = 3 returning *;
update t set (id, a) = (select 3, 'back') where id = 103 returning *;
select * from t order by id;
-- ORDER BY and LIMIT on the UPDATE
update t set (a, b) = (select id, -id) order by id desc limit 2 returning *;
update t set (a, b) = (select id * 2, 0) where id > 1 order by id limit 1 offset 1 returning *;
-- once per row for both columns, once per statement when not correlated
update t set (a, b) = (select r, r from (select random() as r));
select count(distinct a), count(distinct b), sum(a = b) from t;
update t set (a, b) = (select r, r from (select random() as r where t.id > 0));
select count(distinct a), count(distinct b), sum(a = b) from t;
update t set (a, b) = (select random(), random() where t.id > 0);
select count(distinct a), sum(a = b) from t;
-- wrong widths, and their order with other errors
update t set (a, b) = (select x, y, z from u where u.id = t.id);
update t set (a, b) = (select x from u where u.id = t.id);
update t set (a, b, c) = (select x, y from u where u.id = t.id);
update t set (a) = (select x, y from u where u.id = t.id);
update t set a = (select x, y from u where u.id = t.id);
update t set (a, b) = (select * from u);
update t set (a, b) = (select x, y from u where u.id = t.id), c = (select 1, 2);
update t set c = (select 1, 2), (a, b) = (select x, y, z from u where u.id = t.id);
update t set (a, b) = (select x, y, z from u where u.id = t.id), (b, c) = (select 1, 2, 3);
update t set (a, b) = (select x, y, z from u where u.id = t.id) where nosuch = 1;
update t set (a, b) = (select x, y, z from u where u.id = nosuch);
update t set (a, b) = (select x, y, z from nosuch);
update t set (a, nosuch) = (select x, y, z from u);
update t set (a, b) = (select x, y from u), nosuch = 1;
update t set (a, b) = (select 1, 2 union select 3, 4, 5);
update t set (a, b) = (select x, y from u where u.id = t.id) + 1;
update t set (a, b) = (select count(*), 1) returning *;
update t set (a, b) = (select 1, 2) returning nosuch;
select * from t order by id;
-- UPDATE ... FROM
update t set (a, b) = (select u.x, u.y) from u where u.id = t.id returning *;
update t set (a, b) = (select u.z, t.a + 1), c = u.id from u where u.id = t.id returning *;
update t set (a, b) = (select u2.x, u2.y from u as u2 where u2.id = u.id + 1) from u where u.id = t.id returning *;
update t set (a, b) = (select 1, 2, 3) from u where u.id = t.id;
update t set (a, b) = (select x, y from u where u.id = t.id) from u as v where v.id = t.id and t.id = 1 returning *;
update t set (a, b) = (select u.x, u.y) from u where u.id = t.id order by u.x desc limit 1 returning *;
update t set (a, b) = (select max(u.x), count(*)) from u group by u.id returning *;
update t set (a, b) = (select q.x, q.y) from (select * from u) as q where q.id = t.id returning *;
update t set (a, b) = (select u.x, u.y) from u right join (select 1 as k) on u.id = k where u.id = t.id returning *;
select * from t order by id;
-- subqueries elsewhere in the statement, WITH, OR REPLACE
update t set (a, b) = (select x, y from u where u.id = t.id), c = (select count(*) from u) returning *;
update t set (a, b) = (select 1, 2) where (a, b) = (select 20, 200) returning *;
update t set (a, b) = (select x, y from u where u.id = t.id) where id in (select id from u) returning *;
update t set (a, b) = (with w as (select 5 p, 6 q) select * from w) returning *;
with w as (select 7 p, 8 q) update t set (a, b) = (select * from w) returning *;
update or replace t set (id, a) = (select 1, 'r') where id = 2 returning *;
select * from t order by id;
-- generated columns
create table g(id integer primary key, a, b, s as (a + b), v as (a * b) stored);
insert into g(id, a, b) values(1, 1, 2), (2, 3, 4);
update g set (a, b) = (select b, a) returning *;
update g set (a, b) = (select s, v) returning *;
update g set (a, s) = (select 1, 2);
create index gi on g(s);
update g set (b, a) = (select id, s from g as g2 where g2.id = g.id) returning *;
select * from g order by id;
-- WITHOUT ROWID, and an index on an assigned column
create table w(k text primary key, a, b) without rowid;
create index wa on w(a);
insert into w values('p', 1, 2), ('q', 3, 4);
update w set (a, b) = (select b, a) where a > 0 returning *;
update w set (k, a) = (select upper(k), 0) returning *;
select * from w order by k;
select * from w where a = 0 order by k;
-- upsert DO UPDATE
create table up(k integer primary key, a, b, n default 0);
insert into up values(1, 'x', 'y', 0);
insert into up values(1, 'p', 'q', 5) on conflict(k) do update set (a, b) = (select excluded.b, excluded.a) returning *;
insert into up values(1, 'p', 'q', 5) on conflict do update set (a, n) = (select a || excluded.a, n + 1) returning *;
insert into up values(1, 'r', 's', 5) on conflict(k) do update set (a, b) = (select x, y from u where u.id = excluded.n - 4), n = n + 1 returning *;
insert into up values(1, 'r', 's', 5) on conflict(k) do update set (a, b) = (select 1, 2, 3);
insert into up values(2, 'r', 's', 5), (2, 't', 'u', 6) on conflict(k) do update set (b, a) = (select excluded.a, excluded.b) where excluded.n = 6 returning *;
select * from up order by k;
-- a trigger body
create table log(what, a, b);
create trigger tr after update of c on t begin
  update u set (x, y) = (select new.a, new.b) where u.id = new.id;
  insert into log select 'row', x, y from u where u.id = new.id;
end;
update t set c = c + 1 where id <= 2;
select * from u order by id;
select * from log order by rowid;
create trigger tr2 before insert on log when new.what = 'go' begin
  update t set (a, b) = (select new.a, new.b from u where u.id = t.id);
end;
insert into log values('go', 'A', 'B');
select * from t order by id;
create trigger tr3 after insert on log when new.what = 'bad' begin
  update t set (a, b) = (select 1, 2, 3);
end;
insert into log values('bad', 1, 2);
select count(*) from log;
-- a view's INSTEAD OF UPDATE trigger sees the columns the clause assigns
create table vt(id integer primary key, a, b);
insert into vt values(1, 1, 1), (2, 2, 2);
create view v as select * from vt;
create table vlog(x, y, z, w);
create trigger tv instead of update on v begin insert into vlog values(old.id, new.id, new.a, new.b); end;
update v set (a, b) = (select 10, 20) where id = 1;
update v set (a, b) = (30, 40) where id = 2;
update v set (b, a) = (select a + 1, id * 2), id = 9;
update v set (a, b) = (select 1, 2, 3);
select * from vlog order by rowid;
-- a trigger body's vector SET through ALTER TABLE ... RENAME
create table ru(id, x);
insert into ru values(1, 'one');
create trigger rt after update on vt begin update ru set (id, x) = (select new.id, new.a) where id = old.id; end;
update vt set a = 'uno' where id = 1;
select * from ru;
alter table ru rename column x to xx;
select sql from sqlite_master where name = 'rt';
alter table ru rename to ru2;
select sql from sqlite_master where name = 'rt';
alter table vt rename column a to aa;
update vt set aa = 'eins' where id = 1;
select * from ru2;
-- the rowid by name, also where an INTEGER PRIMARY KEY stands for it
create table ri(id integer primary key, a);
insert into ri values(1, 1);
update ri set rowid = 5 returning *;
update ri set oid = 6, a = 2 returning *;
update ri set (_rowid_, a) = (select 7, 3) returning *;
insert into ri values(7, 1) on conflict do update set rowid = 9 returning *;
create table rw(k primary key, a) without rowid;
update rw set rowid = 5;
