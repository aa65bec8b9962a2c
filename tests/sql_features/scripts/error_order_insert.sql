-- Which error a failing INSERT, DELETE or VALUES reports: the first SQLite 3.40 meets.
-- A VALUES list of several rows is a compound of one-row SELECTs: a missing table of any
-- row first, then the rows resolved from the last to the first, each row's number of
-- terms checked against the next row's once it is resolved; an aggregate there is the
-- coder's "misuse of aggregate: f()". An INSERT resolves its source, counts its values,
-- resolves each ON CONFLICT target (its terms, its WHERE) and matches it, then RETURNING;
-- a DO UPDATE (its SET items in turn, then its WHERE) is coded later, and an error of the
-- RETURNING list replaces its error. A RETURNING list notes a "t.*" and goes on: an
-- error of another item replaces it (compiler/resolve_order.py)
create table t(a,b,c);
create unique index ta on t(a);
create unique index tb on t(b);
insert into t values(1,2,3);
values(x1), (x2);
values(x1), (1, 2);
values(1, 2), (x1);
values(1, 2), (x1), (3, 4);
values(1), (1, 2), (x1);
values(x1), (1, 2), (3);
values(nofn(1)), (x1);
values(nofn(1)), (1), (1, 2);
values((select * from nosuch1)), (x1);
values(x1), ((select * from nosuch1));
values(x1), ((select * from nosuch1), 2);
values(1, 2), (1), (3);
values(count(*)), (2);
values(1), (count(*));
values(count(*)), (1, 2);
select * from (values(x1), (1, 2));
select (values(x1), (1, 2));
select 1 union values(x1), (2, 3);
select x1 union values(1), (2, 3);
values(1), (2) union select 1, 2;
insert into t values(1,2,3), (x1, 2);
insert into t values(1,2), (x1, 2);
insert into t values(1,2), (1, 2);
insert into t(a) values(1,2), (x1, 2);
insert into t(a) values(x1,2);
insert into t(a) values(1,2);
insert into t values(x1,2,3), (x2, 2, 3);
insert into t values(count(*),2,3), (4, 2, 3);
insert into t values(4,2,3), (count(*),2,3);
insert into t values(count(*),2,3);
insert into t values(x1,2,3) on conflict(zz) do nothing;
insert into t values(1,2) on conflict(zz) do nothing;
insert into t select x1, 2, 3 on conflict(zz) do nothing;
insert into t select 1, 2 on conflict(zz) do nothing;
insert into t values(1,2,3) on conflict(a) where x5 do update set c = x1;
insert into t values(1,2,3) on conflict(x5 + 1) do update set c = x1;
insert into t values(1,2,3) on conflict(a, zz) do update set c = x1;
insert into t values(1,2,3) on conflict(c) do update set c = 1 returning x4;
insert into t values(1,2,3) on conflict(a) do update set c = x1 on conflict(b) do update set c = x2;
insert into t values(1,2,3) on conflict(b) do update set c = x1 on conflict(a) do update set c = x2;
insert into t values(1,2,3) on conflict(a) do update set c = x1 where x3 on conflict(b) do nothing;
insert into t values(1,2,3) on conflict(a) do update set c = x1 where x3;
insert into t values(1,2,3) on conflict(a) do update set c = excluded.zz where x3;
insert into t values(1,2,3) on conflict(a) do update set zz = 1 where x3;
insert into t values(1,2,3) on conflict(a) do update set c = 1 where x3 returning x4;
insert into t values(1,2,3) on conflict(a) do update set c = 1 where x3 returning count(*);
insert into t values(1,2,3) on conflict(a) do update set c = 1 where x3 returning (select * from nosuch);
insert into t values(1,2,3) on conflict(a) do update set zz = 1 returning x4;
insert into t values(1,2,3) on conflict(a) do update set c = x1 returning t.*;
insert into t values(1,2,3) on conflict(a) where x5 do update set c = x1 returning x4;
insert into t(a,b) values(1,2) on conflict(a) do update set c = x1 returning x4;
insert into t select 1,2,3 on conflict(a) do update set c = x1 returning x4;
insert into t values(x1,2,3) returning t.*;
delete from t where x1 returning t.*;
delete from t where 1 returning x2, t.*;
delete from t where 1 returning t.*, x2;
update t set c = 1 where 1 returning t.*, x2;
-- the same statements that succeed
insert into t values(1,2,3) on conflict(a) do update set c = excluded.c + 10 where b = 2 returning *;
insert into t values(5,6,7), (8,9,10) returning a, c;
values(1, 2), (3, 4);
select * from t;
