-- the ORDER BY and DISTINCT of an EXISTS subquery: SQLite resolves the ORDER BY's names
-- then drops both (IgnorableOrderby), so neither a coder's error (a collation, an outer
-- query's aggregate) nor a run-time one (integer overflow) there shows
create table t(a, b);
create table u(c, d);
insert into t values(1, 2), (3, 4);
insert into u values(5, 6), (5, 7);
select exists (select 1 from u order by abs(-9223372036854775807-1));
select (select 1 from u order by abs(-9223372036854775807-1));
select exists (select 1 from u order by nosuch);
select exists (select 1 from u order by 2);
select exists (select c from u order by 2);
select exists (select * from (select c, count(t.b) as n from u) order by n) from t;
select exists (select distinct c from u order by d);
select exists (select distinct c from u where c > 5);
select exists (select c from u order by count(*));
select exists (select c from u group by c order by count(*));
select exists (select c from u order by (select 1 from missing));
select a from t where exists (select 1 from u where c > a order by d limit 1 offset 1);
select a from t where not exists (select distinct 1 from u where d = b order by c);
select exists (select 1 from u order by c collate nosuch);
select exists (select c from u union select 1 order by 1);
