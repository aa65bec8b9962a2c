-- Which error a failing SELECT reports: the first SQLite's resolver meets (resolveSelectStep):
-- the result columns, then HAVING, then WHERE with the ON terms after it in join order; in
-- one clause a column error ends the walk, a function's error is replaced by a later one
-- (compiler/resolve_order.py)
create table t(a,b);
create table u(a,c);
create table v(a,d);
insert into t values(1,2);
insert into u values(1,3);
select x from t where count(*) > 0;
select x from t where y;
select a from t join u on count(*) > 0;
select a from t join u on y;
select b from t join u on y where z;
select b from t join u on count(*) where z;
select b from t join u on z where count(*);
select b from t join u on y join v on z;
select b from t join u on count(*) join v on z;
select b from t join u on z join v on count(*);
select b from t join u on z join v on a;
select b from t join u on a join v on z;
select b from t join u on 1 join v on a;
select b from t, u where a;
select b from t join u using(a) where a;
select b from t left join u on a;
select b from t join u on t.a=u.a group by y having z;
select b from t join u on y group by z;
select b from t join u on y order by z;
select b from t join u on y having count(*);
select b from t join u on count(*) group by 1;
select b from t join u on max(1) group by b;
select b from t join u on (select count(t.a)) > 0;
select count(*) from t join u on (select count(t.a)) > 0;
select count(*) from t join u on count(*) > 0;
select count(*) from t join u on y;
select count(*) from t join u on a;
select b from t join u on b order by a;
select b from t join u on b group by a;
select b from t where b group by a having x;
select b from t join u on a group by b;
select b from t join u on c having a;
select x + y from t;
select x, y from t;
select count(*) from t where x and y;
select b from t where count(*) and y;
select b from t where y and count(*);
select b from t where nosuch(1) and y;
select b from t where y and nosuch(1);
select b from t where y and abs(1,2);
select b from t where (select z) and y;
select b from t where y and (select z);
select x, (select z) from t;
select count(*) filter (where x) from t where y;
select abs(x, y) from t;
select nosuch(x) from t;
select (a, b) = (1, 2, 3), x from t;
select b from t where (a, b) = (1, 2, 3) and x;
select b from t where x and (a, b) = (1, 2, 3);
select count(*) as c from t where exists (select 1 where c > 1);
select a as k from t where k and nosuch(1);
select a as k from t join u on k = zz where nosuch(1);
-- a schema-qualified column keeps its schema in the error, with a database attached too
-- (tests/dbapi/test_attach.py runs this script beside an attachment)
select main.t.a from t, t;
select main.t.a from t, t as t2, t;
-- a scalar or IN subquery's size is checked before its code: an aggregate of an outer
-- query in its FROM subquery (a misuse there) is reported after 'sub-select returns ...'
select (select * from (select a, count(t.b) from u));
select (select * from (select a, count(t.b) from u)) from t;
select (select * from (select a, count(t.b) from u)) from t group by a;
select (select * from (select a, count(t.b) from u), u) from t;
select (select * from (select count(t.b) from u), (select 1)) from t;
select (select * from (select count(t.b) from u)) from t;
select (select x from (select count(t.b) as x, 2 from u)) from t;
select 1 from t where (select * from (select a, count(t.b) from u));
select t.a in (select * from (select a, count(t.b) from u)) from t;
select (t.a, t.b) in (select * from (select a, count(t.b), 1 from u)) from t;
select (select * from (select a, count(t.b) from u) order by 1) from t;
select (select * from (select a, count(t.b) from u) union select 1, 2) from t;
select count(*), (select * from (select a, count(t.b) from u)) from t;
select (select * from (select a, count(t.b) from u)) + 1 from t;
select a from t order by (select * from (select a, count(t.b) from u));
select a from t group by a having (select * from (select a, count(t.b) from u));
select (select (select * from (select a, count(t.b) from u))) from t;
select (select a, count(t.b) from u) from t;
select (select a, count(t.b) from u where t.a) from t;
-- a row value compared with a subquery of another size: 'row value misused' before its
-- operands' errors and its coder's (the subquery's * counted as expanded)
select (1, 2) = (select * from (select a, count(t.b), 3 from u)) from t;
select (1, 2, 3) = (select * from (select a, count(t.b), 3 from u)) from t;
select (1, 2) = (select 1, 2, 3);
select (select 1, 2, 3) = (1, 2);
select (1, 2) = (select 1, 2);
select (1, 2) < (select 1);
select (1, nosuch) = (select 1, 2, 3);
select (1, 2) = (select nosuch, 2, 3);
select a from t where (a, b) = (select a, c, 1 from u);
select a from t where (a, b) in (select a, c, 1 from u);
select (a, b) = (select * from u) from t;
select (a, b) = (select * from u, t) from t;
select (1, 2) is (select 1, 2, 3);
select (1, 2) between (select 1, 2) and (select 1, 2, 3);
