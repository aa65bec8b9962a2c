-- Parenthesized joins as FROM items (SQLite turns one that is not first, or has an
-- alias or ON/USING of its own, into a SELECT * subquery whose columns keep the inner
-- tables' names: compiler/nestedfrom.py); one parenthesized item keeps only the alias
-- written after the parentheses; SELECT * column names and their :N suffixes
CREATE TABLE t1(a, b);
INSERT INTO t1 VALUES(1,'x'),(2,'y');
CREATE TABLE t2(a, c);
INSERT INTO t2 VALUES(1,'p'),(3,'q');
CREATE TABLE t3(a, d);
INSERT INTO t3 VALUES(1,'m'),(2,'n');
CREATE TABLE t4(a, e);
INSERT INTO t4 VALUES(1,'z');
CREATE INDEX t2i ON t2(a);
-- unordered
select * from t1 join (t2 join t3 on t2.a=t3.a) on t1.a=t2.a;
-- unordered
select * from t1, (t2 join t3 using(a));
-- unordered
select * from t1 join (t2 join t3 using(a)) using(a);
-- unordered
select * from t1 join (t2 full join t3 using(a)) on 1;
-- unordered
select * from t1 join (t2 right join t3 using(a)) on 1;
-- unordered
select a from t1 join (t2 join t3 using(a)) on 1;
-- unordered
select a from t1 join (t2 join t3 on 1) on 1;
-- unordered
select c from t1 join (t2 join t3 on t2.a=t3.a) on 1;
-- unordered
select t2.a, t3.a, t3.* from t1 join (t2 join t3 on t2.a=t3.a) on 1;
-- unordered
select s.* from t1 join (t2 join t3 on t2.a=t3.a) as s on 1;
-- unordered
select s.a, s."a:1" from t1 join (t2 join t3 on t2.a=t3.a) as s on 1;
-- unordered
select t2.a from t1 join (t2 join t3 on t2.a=t3.a) as s on 1;
-- unordered
select * from t1 join (t2 as q) on t1.a=q.a;
-- unordered
select * from t1 join (t2 as q) on t1.a=t2.a;
-- unordered
select * from t1 join (t2) as q on t1.a=q.a;
-- unordered
select * from (t2 as q) where q.a=1;
-- unordered
select * from (t2 as q) as r where r.a=1;
-- unordered
select * from (t2 as q) as r where q.a=1;
-- unordered
select * from t1 join ((select * from t2) as q) on t1.a=q.a;
-- unordered
select * from t1 join ((select * from t2) as q) on 1;
-- unordered
select * from t1 join ((select * from t2)) as q on t1.a=q.a;
-- unordered
select * from t1 join (t2 join t3 using(a) join t4 using(a)) using (a);
-- unordered
select * from t1 left join (t2 join t3 on t2.a=t3.a) on t1.a=t2.a;
-- unordered
select * from (t2 join t3 using(a)) as s;
-- unordered
select * from (t2 join t3 on t2.a=t3.a) as s;
-- unordered
select t1.a, s.* from t1 join (t2 join t3 using(a)) as s;
-- unordered
select * from t1 join (t2 join (t3 join t4 using(a)) using(a)) using(a);
-- unordered
select t4.e, t3.d from t1 join (t2 join (t3 join t4 using(a)) using(a)) using(a);
-- unordered
select rowid from t1 join (t2 join t3 using(a)) on 1;
-- unordered
select t2.rowid from t1 join (t2 join t3 using(a)) on 1;
-- unordered
select * from t1 join (t2 join t3 using(a)) on t1.a = a;
-- unordered
select rowid from t1, (t2 join t3 using(a));
-- unordered
select * from t1 join (t2 full join t3 using(a)) using(a);
-- unordered
select a from t1 join (t2 full join t3 using(a)) using(a);
-- unordered
select t1.a, t2.a, t3.a from t1 left join (t2 right join t3 using(a)) using(a);
-- unordered
select * from t1 natural join (t2 natural join t3);
-- unordered
select * from t1 join (t2 natural join t3) on 1;
-- unordered
select * from t4 join (t2, t3) on 1;
-- unordered
select * from t4 join (t2 left join t3 on t2.a=t3.a left join t1 on t1.a=t3.a) on t4.a=t2.a;
-- unordered
select count(*), max(t3.d) from t1 join (t2 join t3 using(a)) using(a);
select t2.c, count(*) from t1 join (t2 join t3 on 1) on 1 group by t2.c order by t2.c;
select b, d from t1 join (t2 join t3 on 1) on 1 order by b, d;
-- unordered
select t2.* from t1 join (t2 join t3 using(a)) using(a);
-- unordered
select t3.* from t1 join (t2 join t3 using(a)) using(a);
-- unordered
select t1.* from t1 join (t2 join t3 using(a)) using(a);
-- unordered
select main.t2.a from t1 join (t2 join t3 using(a)) using(a);
-- unordered
select x.a from t1 join (t2 as x join t3 using(a)) using(a);
-- unordered
select t2.a from t1 join (t2 as x join t3 using(a)) using(a);
-- unordered
select * from t1 join (select 1 as a) join (t2 join t3 using(a)) using(a);
-- unordered
select * from t1 join (t2 join t3 using(a)) as s using(a);
-- unordered
select s.c from t1 join (t2 join t3 using(a)) as s using(a);
-- unordered
select * from t1 join (t2 join t3 using(a)) as s on s.a = t1.a;
-- unordered
select * from t1 join (t2 indexed by t2i) on t1.a=t2.a;
-- unordered
select * from t1 join (t2 indexed by nosuch) on t1.a=t2.a;
-- unordered
select * from t1 join (t2 join t3 on t2.a=t3.a) on t1.a=t3.a where t2.c = 'p';
-- unordered
select t2.a from t1 join (t2 join t3 on t2.a=t3.a) on t1.a=t3.a;
-- unordered
select t9.a from t1 join (t2 join t3 on t2.a=t3.a) on t1.a=t3.a;
-- unordered
select t2.zz from t1 join (t2 join t3 on t2.a=t3.a) on t1.a=t3.a;
-- unordered
select * from t1 join (t2 join t3 on t3.a = t1.a) on 1;
-- unordered
select * from t1 right join (t2 join t3 using(a)) using(a);
-- unordered
select * from t1 full join (t2 left join t3 using(a)) using(a);
-- unordered
select a, t1.a, t2.a, t3.a from t1 full join (t2 full join t3 using(a)) using(a);
-- unordered
select * from t1 join ((t2 join t3 using(a)) join t4 using(a)) using(a);
-- unordered
select * from t1 join ((t2 join t3 using(a)) as s join t4 using(a)) using(a);
-- unordered
select * from t1 join (((t2 join t3 using(a))) join t4 using(a)) using(a);
-- unordered
select s.a from t1 join ((t2 join t3 using(a)) as s join t4 using(a)) using(a);
-- unordered
select t2.c from t1 join ((t2 join t3 using(a)) as s join t4 using(a)) using(a);
select * from t1 join (t2 join t3 on t2.a = t3.a) on t1.a=t2.a order by t3.d;
-- unordered
select * from t1 join (json_each('[1,2]') as j) on t1.a = j.value;
-- unordered
select * from t1 join (json_each('[1,2]') as j) on t1.a = value;
-- unordered
select * from t1 join (t2 join t2 on 1) on 1;
-- unordered
select * from t1 join (t2 join t2 as u on 1) on 1;
-- unordered
select u.* from t1 join (t2 join t2 as u on 1) on 1;
-- unordered
select * from t1 join (t2 join t3 on t2.a=t3.a) as s on t1.a = s."a:1";
-- unordered
select count(*) from t1 join (t2 join t3) where t2.c > 'a' group by t3.d having count(*) > 0;
-- unordered
select * from (t2 join t3 using(a) join t4 on 1) as s;
-- unordered
select * from (t2 join t3 using(a) join t4 using(a)) as s;
-- unordered
select s.* from (t2 join t3 using(a)) as s;
-- unordered
select * from (t2 join t3 using(a)) as s where s.a > 0;
-- unordered
select s.a, s."a:1", s."a:2", s.c,s.d from t1 join (t2 full join t3 using(a)) as s on 1;
-- unordered
select a from t1 join (t2 join t3 using(a) join t4 on 1) on 1;
-- unordered
select a from (t2 join t3 using(a) join t4 on 1);
-- unordered
select a from (t2 join t3 using(a)) as s;
-- unordered
select * from (t2 join t4 on 1 join t3 using(a)) as s;
-- unordered
select * from (t2 join t4 on 1) as s;
-- unordered
select * from (t2 join t3 on 1 join t4 using(a)) as s;
-- unordered
select * from (t1 join t2 using(a)) join (t3 join t4 using(a)) using(a);
-- unordered
select * from (t1 join t2 using(a)) as x join (t3 join t4 using(a)) as y using(a);
-- unordered
select x.b, y.e from (t1 join t2 using(a)) as x join (t3 join t4 using(a)) as y using(a);
-- unordered
select t1.b, t4.e, a from (t1 join t2 using(a)) as x join (t3 join t4 using(a)) as y using(a);
-- unordered
select * from t1 where a in (select a from t2 join (t3 join t4 using(a)) using(a));
-- unordered
select (select count(*) from t2 join (t3 join t4 using(a)) using(a) where t4.a = t1.a) from t1;
-- unordered
select * from t1 join (t2 join t3 on t2.a=t3.a) on t1.a=t2.a where t1.rowid > 0;
-- unordered
select * from t1 join (t2 join t3 on t2.a=t3.a) as s on t1.a=t2.a where s.rowid > 0;
-- unordered
select * from t1 join (t2 join t3 using(a)) as s using(a) where t3.a = 1;
-- unordered
select distinct t2.a from t1 join (t2 join t3 on 1) on 1;
select t3.d, group_concat(t2.c) from t1 join (t2 join t3 on 1) on 1 group by 1 order by 1;
-- unordered
select s.rowid, t1.a from t1 left join (t2 join t3 on 1) as s on 1;
-- unordered
select s.rowid from t1 join (t2 join t3 on 1) as s on 1;
-- unordered
select s.rowid from t1 right join (t2 join t3 on 1) as s on 1;
-- unordered
select * from t1 right join (t2 join t3 on t2.a = t3.a) on t1.a = t3.a;
-- unordered
select * from t1 full join (t2 left join t3 on t2.a = t3.a) on t1.a = t2.a;
-- unordered
select * from t1 left join (t2 right join t3 on t2.a = t3.a) on t1.a = t3.a;
-- unordered
select * from t1 left join (t2 full join t3 using(a)) using(a);
-- unordered
select a, c, d from t1 left join (t2 full join t3 using(a)) using(a);
-- unordered
select * from (t1 join t2 using(a)) right join (t3 full join t4 using(a)) using(a);
-- unordered
select * from t1 join (t2 join (t3 join (t4 join t2 as u on u.a = t4.a) on t3.a = t4.a) on t2.a = t3.a) on t1.a = t2.a;
-- unordered
select u.c, t4.e from t1 join (t2 join (t3 join (t4 join t2 as u on u.a = t4.a) on t3.a = t4.a) on t2.a = t3.a) on t1.a = t2.a;
-- unordered
select u.* from t1 join (t2 join (t3 join (t4 join t2 as u on u.a = t4.a) on t3.a = t4.a) on t2.a = t3.a) on t1.a = t2.a;
-- unordered
select * from t1 natural join (t2 natural left join t3);
-- unordered
select * from t1 natural left join (t2 natural join t3);
-- unordered
select * from t1 natural right join (t2 natural full join t3);
-- unordered
select * from t1 natural full join (t2 natural full join t3);
-- unordered
select a from t1 natural full join (t2 natural full join t3);
select * from t1 join (t2 join t3 using(a)) as s on t1.a = s.a where t3.d is not null order by s.c;
-- unordered
select count(*), sum(t2.a), max(s.c) from t1 left join (t2 join t3 using(a)) as s on t1.a = s.a;
select t1.b, count(t3.d) from t1 left join (t2 join t3 using(a)) on t1.a = t2.a group by t1.b order by 1;
-- unordered
select t1.b, count(t3.d) from t1 left join (t2 join t3 using(a)) on t1.a = t2.a group by t1.b having count(t3.d) > 0;
select * from t1 join (t2 join t3 using(a)) using(a) order by a desc;
select t3.d from t1 join (t2 join t3 on t2.a < t3.a) on t1.a = t3.a order by t3.d, t2.c;
-- unordered
select * from t1 join (t2 cross join t3) on t1.a = t2.a;
-- unordered
select * from t1 join (t2 join t3 on t2.a = t3.a where 1) on 1;
-- unordered
select * from t1 join (t2 join t3 on t2.a = t3.a) on t1.a = t2.a join t4 on t4.a = t3.a;
-- unordered
select * from t1 join (t2 join t3 on t2.a = t3.a) on t1.a = t2.a join t4 using(a);
-- unordered
select * from t1 join (t2 join t3 on t2.a = t3.a) join t4 on t1.a = t4.a;
-- unordered
select b from t1 join (t2 join t3 on t2.a = t3.a) on t1.a = t2.a where exists (select 1 from t4 where t4.a = t3.a);
-- unordered
select b, (select e from t4 where t4.a = t2.a) from t1 join (t2 join t3 on t2.a = t3.a) on t1.a = t2.a;
-- unordered
select * from t1 join (t2 join t3 on t2.a = t3.a) on t1.a = t2.a where t2.a in (select a from t4);
-- unordered
select * from t1 join (t2 join t3 on t2.a = t9.a) on 1;
-- unordered
select * from t1 join (t2 join t9 on 1) on 1;
-- unordered
select * from t1 join (t2 join t3 on t2.a = t3.a) on t1.a = t2.zz;
-- unordered
select * from t1 join (t2 join t3 on t2.a = t3.a) on t1.a = t2.a using (a);
-- unordered
select * from t1 join (t2 join t3 using(zz)) on 1;
-- unordered
select * from t1 join (t2 join t3 using(a)) using(zz);
-- unordered
select * from t1 join (t2 join t3 on 1) using(a);
-- unordered
select a from t1 join (t2 join t3 on 1) using(a);
-- unordered
select t3.a from t1 join (t2 join t3 on 1) using(a);
-- unordered
select * from t1 join (t2 join t3 on 1) as s using(a);
-- unordered
select * from t1 join (t2 join t3 on 1) as s using("a:1");
-- unordered
select * from t1 join ((t2) as q) on 1;
-- unordered
select q.c from t1 join ((t2) as q) on 1;
-- unordered
select * from t1 join ((t2 as q) as r) on r.a = t1.a;
-- unordered
select * from t1 join ((t2 as q)) on q.a = t1.a;
-- unordered
select * from t1, (t2 as q) where q.a = t1.a;
-- unordered
select * from t1, (t2 as q) where t2.a = t1.a;
-- unordered
select * from t1 left join (t2 as q) on t2.a = t1.a;
-- unordered
select * from t1 join ((select a, c from t2) as q) on q.a = t1.a;
-- unordered
select * from t1 join ((select a, c from t2)) on a = 1;
-- unordered
select * from t1 join ((select a as z, c from t2)) on z = t1.a;
-- unordered
select * from t1 join ((select a as z, c from t2) as q) as r on r.z = t1.a;
-- unordered
select * from t1 join ((select a as z, c from t2) as q) as r on q.z = t1.a;
-- unordered
select * from ((select a as z, c from t2) as q) where q.z = 1;
-- unordered
select * from ((select a as z, c from t2) as q) as r where q.z = 1;
-- unordered
select * from t1 join (json_each('[1,2]') as j) on t1.a = j.value;
-- unordered
select * from t1 join (json_each('[1,2]')) as j on t1.a = j.value;
-- unordered
select * from t1 join (t2 as q join t3 as r on q.a = r.a) on t1.a = q.a;
-- unordered
select q.*, r.* from t1 join (t2 as q join t3 as r on q.a = r.a) on t1.a = q.a;
-- unordered
select t2.* from t1 join (t2 as q join t3 as r on q.a = r.a) on t1.a = q.a;
-- unordered
select * from t1 join (t2 join t2 on 1) on 1;
create view vn as select * from t1 join (t2 join t3 using(a)) using(a);
-- unordered
select * from vn;
-- unordered
select * from vn where c = 'p';
create view vn2 as select * from t1 left join (t2 join t3 on t2.a = t3.a) on t1.a = t2.a;
-- unordered
select * from vn2;
-- unordered
select * from t4 join vn2 on 1;
-- unordered
with w as (select * from t1 join (t2 join t3 using(a)) using(a)) select * from w;
-- unordered
with w as (select 5 as a) select * from t1 join (w join t2 using(a)) on 1;
-- unordered
with w as (select 1 as a) select * from t1 join (w join t2 using(a)) using(a);
-- unordered
select * from t1 join (t2 join t3 on t2.a = t3.a) on t1.a = t2.a limit 1;
select * from t1 join (t2 join t3 on t2.a = t3.a) on t1.a = t2.a order by 1 limit 1 offset 0;
select distinct t3.a from t1 join (t2 join t3 on 1) on 1 order by 1;
-- unordered
select * from t1 join (t2 join t3 on t2.a = t3.a) on t1.a = t2.a union all select * from t1 join (t2 join t3 on t2.a = t3.a) on t1.a = t2.a;
-- unordered
select * from (select * from t1 join (t2 join t3 using(a)) using(a));
-- unordered
select * from t1 join (t2 left join (t3 join t4 using(a)) using(a)) using(a);
-- unordered
select a, t4.a, t4.e from t1 join (t2 left join (t3 join t4 using(a)) using(a)) using(a);
-- unordered
select * from t1, (t2, t3), t4;
-- unordered
select * from t1, (t2, (t3, t4));
-- unordered
select t1.a, t2.a, t3.a, t4.a from t1, (t2, (t3, t4));
