-- A subquery's ORDER BY and GROUP BY terms see no enclosing query (SQLite resolves them
-- with no outer name context): an outer column there is "no such column", a result
-- alias (even of an outer column) and an ordinal are fine, a window's ORDER BY sees them
CREATE TABLE t(a, b);
INSERT INTO t VALUES (1, 2), (3, 4), (5, 6), (1, 8);
CREATE TABLE u(a, c);
INSERT INTO u VALUES (1, 10), (3, 30), (7, 70);
select (select u.c from u where u.a=t.a order by t.a) from t;
select * from t where exists (select 1 from u order by t.a);
select (select t.a from u order by t.a) from t;
select (select t.a as q from u order by q) from t;
select (select u.c from u order by 1) from t;
select (select u.c from u group by t.a) from t;
select (select u.c from u union select t.a order by 1) from t;
select (select u.c from u union select 1 from u order by t.a) from t;
select a as x, (select u.c from u order by x) from t;
select * from t where b in (select c from u order by t.a);
select (select sum(c) over (order by t.a) from u) from t;
select (select u.c from u order by count(t.a)) from t;
select (select count(u.c) from u group by count(t.a)) from t;
select (select u.c from u order by b) from t;
select (select u.c from u order by u.c + t.b) from t;
select (select u.c from u order by a) from t;
select (select u.c from u group by b) from t;
select (select u.c from u group by 1 order by 1) from t;
select (select t.b as z from u group by z) from t;
select (select t.b as b from u group by b) from t;
select (select u.c as z from u order by z collate nocase) from t;
select (select u.c from u order by c collate nocase) from t;
select (select u.c from u order by b collate nocase) from t;
select (select c from u order by t.a desc) from t;
select (select c from u order by -t.a) from t;
select (select count(*) from u group by t.b) from t;
select (select count(*) from u group by c) from t;
