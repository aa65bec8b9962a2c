-- RETURNING items that pass a REAL column through a scalar subquery, as SQLite 3.40 returns
-- them (compiler/returning.py): the row's IntReal comes back an integer through the
-- FROM-less subqueries of every arm, and the item gets REAL affinity when its last arm's
-- first result is a column (the row's columns all take the first column's affinity)
create table t(b int, a real, c text, id integer primary key);
insert into t values(2, 1, 'x', 1) returning (select a);
insert into t values(2, 1, 'x', 2) returning (select a + 0);
insert into t values(2, 1, 'x', 3) returning (select a), typeof((select a));
insert into t values(2, 1.5, 'x', 4) returning (select a);
insert into t values(2, 3, 'x', 6) returning (select +a), (select a collate nocase);
insert into t values(2, 3, 'x', 7) returning (select coalesce(a, 0));
insert into t values(2, 3, 'x', 8) returning (select (select a));
insert into t values(2, 3, 'x', 9) returning exists (select a), (select a) = 3, (select a) || '';
update t set a = 4 where id = 1 returning (select a);
update t set b = 5 where id = 2 returning (select a);
delete from t where id = 3 returning (select a);
insert into t values(2, 3, 'x', 11) returning (select a where a > 0);
insert into t values(2, 3, 'x', 12) returning (select a order by a);
insert into t values(2, 3, 'x', 13) returning (select a union all select 5);
insert into t values(2, 3, 'x', 14) returning a in (select a);
insert into t values(2, 3, 'x', 15) returning (select b), (select id), (select c);
create table f(a real, b int);
insert into f values(2, 3) returning (select a), (select b);
insert into f values(2, 3) returning (select a from t limit 1);
create table f2(a real, b int, c text);
create table h(c text, a real, b int);
create table z(c, a real, b int);
insert into f2(a, b, c) values(2, 3, '4'), (2.5, 7, 'x'), (-0.0, null, ''), (140737488355328, 1, 'y'), (-5, -5, 'z') returning (select a), (select b), (select +b), (select +a), (select b + 0), (select coalesce(b, 0)), (select coalesce(a, 0)), (select coalesce(a, 2.5)), (select a collate nocase), (select b where 1), (select a where 0), (select (select b)), (select (select a)), (select c), (select a union select 9), (select 5 union select a), (select a union all select 2.5), a + (select 0), (select a) collate nocase, +(select a), (select case when b > 0 then a else 1 end), (select iif(b, a, 0.5)), (select a limit 1 offset 1), typeof((select a));
update f2 set b = b + 1 returning (select a), (select b), (select +b), (select +a), (select b + 0), (select coalesce(b, 0)), (select coalesce(a, 0)), (select coalesce(a, 2.5)), (select a collate nocase), (select b where 1), (select a where 0), (select (select b)), (select (select a)), (select c), (select a union select 9), (select 5 union select a), (select a union all select 2.5), a + (select 0), (select a) collate nocase, +(select a), (select case when b > 0 then a else 1 end), (select iif(b, a, 0.5)), (select a limit 1 offset 1), typeof((select a));
delete from f2 returning (select a), (select b), (select +b), (select +a), (select b + 0), (select coalesce(b, 0)), (select coalesce(a, 0)), (select coalesce(a, 2.5)), (select a collate nocase), (select b where 1), (select a where 0), (select (select b)), (select (select a)), (select c), (select a union select 9), (select 5 union select a), (select a union all select 2.5), a + (select 0), (select a) collate nocase, +(select a), (select case when b > 0 then a else 1 end), (select iif(b, a, 0.5)), (select a limit 1 offset 1), typeof((select a));
insert into h(a, b, c) values(2, 3, '4'), (2.5, 7, 'x'), (-0.0, null, ''), (140737488355328, 1, 'y'), (-5, -5, 'z') returning (select a), (select b), (select +b), (select +a), (select b + 0), (select coalesce(b, 0)), (select coalesce(a, 0)), (select coalesce(a, 2.5)), (select a collate nocase), (select b where 1), (select a where 0), (select (select b)), (select (select a)), (select c), (select a union select 9), (select 5 union select a), (select a union all select 2.5), a + (select 0), (select a) collate nocase, +(select a), (select case when b > 0 then a else 1 end), (select iif(b, a, 0.5)), (select a limit 1 offset 1), typeof((select a));
update h set b = b + 1 returning (select a), (select b), (select +b), (select +a), (select b + 0), (select coalesce(b, 0)), (select coalesce(a, 0)), (select coalesce(a, 2.5)), (select a collate nocase), (select b where 1), (select a where 0), (select (select b)), (select (select a)), (select c), (select a union select 9), (select 5 union select a), (select a union all select 2.5), a + (select 0), (select a) collate nocase, +(select a), (select case when b > 0 then a else 1 end), (select iif(b, a, 0.5)), (select a limit 1 offset 1), typeof((select a));
delete from h returning (select a), (select b), (select +b), (select +a), (select b + 0), (select coalesce(b, 0)), (select coalesce(a, 0)), (select coalesce(a, 2.5)), (select a collate nocase), (select b where 1), (select a where 0), (select (select b)), (select (select a)), (select c), (select a union select 9), (select 5 union select a), (select a union all select 2.5), a + (select 0), (select a) collate nocase, +(select a), (select case when b > 0 then a else 1 end), (select iif(b, a, 0.5)), (select a limit 1 offset 1), typeof((select a));
insert into z(a, b, c) values(2, 3, '4'), (2.5, 7, 'x'), (-0.0, null, ''), (140737488355328, 1, 'y'), (-5, -5, 'z') returning (select a), (select b), (select +b), (select +a), (select b + 0), (select coalesce(b, 0)), (select coalesce(a, 0)), (select coalesce(a, 2.5)), (select a collate nocase), (select b where 1), (select a where 0), (select (select b)), (select (select a)), (select c), (select a union select 9), (select 5 union select a), (select a union all select 2.5), a + (select 0), (select a) collate nocase, +(select a), (select case when b > 0 then a else 1 end), (select iif(b, a, 0.5)), (select a limit 1 offset 1), typeof((select a));
update z set b = b + 1 returning (select a), (select b), (select +b), (select +a), (select b + 0), (select coalesce(b, 0)), (select coalesce(a, 0)), (select coalesce(a, 2.5)), (select a collate nocase), (select b where 1), (select a where 0), (select (select b)), (select (select a)), (select c), (select a union select 9), (select 5 union select a), (select a union all select 2.5), a + (select 0), (select a) collate nocase, +(select a), (select case when b > 0 then a else 1 end), (select iif(b, a, 0.5)), (select a limit 1 offset 1), typeof((select a));
delete from z returning (select a), (select b), (select +b), (select +a), (select b + 0), (select coalesce(b, 0)), (select coalesce(a, 0)), (select coalesce(a, 2.5)), (select a collate nocase), (select b where 1), (select a where 0), (select (select b)), (select (select a)), (select c), (select a union select 9), (select 5 union select a), (select a union all select 2.5), a + (select 0), (select a) collate nocase, +(select a), (select case when b > 0 then a else 1 end), (select iif(b, a, 0.5)), (select a limit 1 offset 1), typeof((select a));
