-- A one-row VALUES is, in SQLite 3.40, a SELECT of its terms: an aggregate there makes it
-- an aggregate query of one row (compiler/select.py _compile_values); several rows are a
-- compound whose aggregates its coder refuses (error_order_insert.sql)
create table t(a);
insert into t values(5);
values(count(*));
values(count(*), 2);
values(sum(3), total(1), group_concat('x'));
values(max(1, 2));
select * from (values(count(*)));
select column1 from (values(count(*), 7));
select (values(count(*)));
values(count(*)) union all select 7;
select 7 union all values(count(*));
select a, (values(count(*))) from t;
values(count(*)), (2);
values(count(count(*)));
