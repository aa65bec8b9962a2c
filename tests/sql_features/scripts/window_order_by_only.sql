-- a window function only in the ORDER BY of a query (none in its result columns)
create table t(a, b);
insert into t values (1, 3), (2, 1), (3, 2), (4, 1);
select a from t order by row_number() over (order by b desc, a);
select a from t order by sum(a) over (order by b), a;
select a, b from t order by rank() over (partition by b order by a desc), a;
select a from t window w as (order by b) order by count(*) over w, a desc;
select a from t where a > 1 order by lag(a) over (order by a) nulls first limit 2;
select b, count(*) from t group by b order by sum(b) over (order by b desc);
select distinct b from t order by max(a) over (partition by b);
select a from t order by nosuch() over ();
select a from t order by row_number() over (order by zz);
select a from t order by row_number() over nowin;
