-- an outer query's aggregate in a FROM subquery of an EXISTS: SQLite flattens the subquery
-- into the EXISTS, whose result list it never codes, so the call only makes the outer
-- query an aggregate one (flatten.unused_columns, aggscope.attach); coded anywhere
-- (a WHERE, a scalar subquery, a subquery SQLite does not flatten) it is a misuse
create table t(a, b);
create table u(c, d);
insert into t values(1, 2), (3, 4);
insert into u values(5, 6);
select exists (select * from (select c, count(t.b) from u)) from t;
select exists (select * from (select count(t.b) from u)) from t;
select (select * from (select count(t.b) from u)) from t;
select exists (select count(t.b) from u) from t;
select count(*), exists (select * from (select c, count(t.b) from u)) from t;
select exists (select 1 from (select sum(t.a) as s from u) where s > 0) from t;
select not exists (select * from (select max(t.b) from u)) from t;
select a from t where exists (select * from (select count(t.b) from u));
select exists (select * from (select c from u where count(t.b) > 0)) from t;
select exists (select * from (select c from u group by c having count(t.b) > 0)) from t;
select exists (select * from (select count(t.b) from u)) from t group by a;
select a in (select * from (select count(t.b) from u)) from t;
select exists (select * from (select count(t.b) + c from u)) from t;
select exists (select * from (select * from (select count(t.b) from u))) from t;
select exists (select * from u, (select count(t.b) from u)) from t;
select exists (select * from (select count(t.b) from u) union select 1) from t;
select exists (select * from (select count(t.b) from u)), count(*) from t;
select exists (select * from (select distinct c, count(t.b) from u)) from t;
select exists (select * from (select c, count(t.b) from u limit 1)) from t;
select exists (select c from (select c, count(t.b) from u)) from t;
select exists (select c from (select c, count(t.b) as n from u) where n > 0) from t;
select exists (select * from (select c, count(t.b) from u) as s, (select d, sum(t.a) from u) as r) from t;
select exists (select * from (select c, count(t.b) from u union all select 1, 2)) from t;
select exists (select * from (select c, count(t.b) from u)) from t where a > 1;
select exists (select * from (select c, count(t.b) from u)) from t having count(*) > 1;
select a, exists (select * from (select c, count(t.b) from u)) from t group by a order by a;
select exists (select * from (select c, count(t.b) from u where c > 100)) from t;
select exists (select * from (select c, count(t.b) filter (where t.a > 0) from u)) from t;
select exists (select * from (select c, min(t.b, 1) from u)) from t;
with w as (select c, count(t.b) from u) select exists (select * from w) from t;
select exists (select * from (select c, count(t.b) from u) join t on 1) from t;
select (select count(*) from (select c, count(t.b) from u)) from t;
