-- result aliases where SQLite's resolveAlias sees them (compiler/alias.py, compiled in
-- compiler/_alias.pyx): WHERE, GROUP BY, HAVING, ORDER BY and ON see this query's
-- aliases, a subquery in them the enclosing query's (a correlated reference); a FROM
-- column wins; a window call's alias and a row value's are refused where met
create table t(a, b, c);
create table u(x, y);
insert into t values(1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 5, 0);
insert into u values(1, 10), (4, 40), (9, 90);
select a + b as s from t where s > 5 order by s;
select a as b from t where b > 4 order by 1;
select a * 2 as k, count(*) from t group by k order by k;
select a as k, sum(b) as n from t group by k having n > 5 order by k;
select a as k from t order by -k;
select a + 1 as k from t where k in (2, 5) order by k desc;
select a as k, (select y from u where x = k) from t order by 1;
select a as k from t where exists (select 1 from u where x = k) order by 1;
select a as k from t where k = (select max(x) from u where x < k + 1) order by 1;
select a as k from t where (select count(*) from u where y > k * 10) > 1 order by 1;
select x as k from u join t on a = k order by 1, b;
select x as k from u left join t on a = k order by 1, b;
select a as k, b as k from t where k > 3 order by 1;
select a as "K" from t where k > 3 order by 1;
select a + b as s from t group by s having count(*) > 1 or s > 10 order by s;
select a as k from t group by k having max(k) > 3 order by 1;
select b as w, row_number() over (order by a) as rn from t where rn > 1;
select row_number() over (order by a) as rn from t group by rn;
select sum(a) over () as s from t order by s;
select (a, b) as r from t where r = 1;
select (select x, y from u) as r from t where r > 0;
select (select x from u where x = 4) as r from t where r = 4;
select a as k from t where k between 2 and 7 order by 1;
select a as k from t where k like '%' and case k when 1 then 1 else 0 end order by 1;
select a as k from t where k collate nocase = 1;
select a as k from t where cast(k as text) = '7';
select a as k, b from t where b in (select k from u) order by 1, 2;
select a as k from t where a not in (select x from u where x <> k) order by 1;
select a as k from t union select x from u where x > 3 order by 1;
select a as k from t where k > 1 union all select y as k from u where k > 40 order by 1;
select nosuch as k from t where k > 1;
select a as k from t where t.k > 1;
select a as k from t where u.x = k;
select count(*) as n from t where n > 1;
select a as k, (select k) from t;
select * from (select a as k from t where k > 3) order by 1;
select a as k from t order by (select k) desc;
select a as k from t group by (select k);
values (1), (2) order by 1;
select (select 1 as z from u where z = x) as q from t order by 1;
