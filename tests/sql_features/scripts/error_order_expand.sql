-- a missing table in any subquery of a SELECT is reported before a name error elsewhere in
-- it (SQLite's sqlite3SelectExpand walks every subquery, in clause order: result columns,
-- WHERE with the ON terms, GROUP BY, HAVING, ORDER BY, before any name resolves:
-- resolve_order.first_error)
create table t(a, b);
select nosuch from t where a in (select * from missing);
select a from t where nosuch = 1 order by (select x from missing);
select (select 1 from missing), nosuch from t;
select nosuch, (select 1 from missing) from t;
select a from t group by nosuch having (select 1 from missing);
select a from t where nosuch in (select 1 from missing2) and a in (select 1 from missing);
select nosuch from t where exists (select 1 from missing);
select a from t where a = nosuch union select a from missing;
select nosuch from t join (select * from missing) on 1;
select nosuch from t, missing;
select a from t where nosuch > 0 and a in (select a from t where b in (select 1 from missing));
select count(nosuch) from t where a in (select 1 from missing);
select nosuch from t where a in missing;
select nosuch from t where a in missing and b in (select 1 from missing2);
select nosuch from t where b in (select 1 from missing2) and a in missing;
select a from t where nosuch in (select 1 from t) order by (select 1 from missing);
with c as (select 1 as k) select nosuch from t where a in (select k from c);
with c as (select 1 as k) select nosuch from t where a in (select k from c, missing);
select nosuch from t where a in (select nosuch2 from t);
select (select nosuch2 from t), (select 1 from missing) from t;
select nosuch, (select (select 1 from missing)) from t;
select a from t where nosuch = (select max(b) from t group by (select 1 from missing));
select nosuch from t left join t as t2 on t2.a in (select 1 from missing);
select nosuch from t where a in (select 1 from t as t2 where t2.b in missing);
select nosuch from t where exists (select 1 from (select 1 from missing));
delete from t where nosuch = 1 and b in (select 1 from missing);
insert into t select nosuch, (select 1 from missing) from t;
select a from t where nosuch = 1 group by a having a in (select 1 from missing);
