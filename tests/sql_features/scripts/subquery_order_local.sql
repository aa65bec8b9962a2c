-- A subquery's ORDER BY and GROUP BY terms resolve with no enclosing query (SQLite clears
-- sNC.pNext), and so do the subqueries inside them: an enclosing query's column there is
-- "no such column", a column of the subquery's own FROM clause or of the query between is
-- not (compiler/alias.py check_local_terms)
CREATE TABLE t(a, b);
INSERT INTO t VALUES (1, 2), (3, 4);
CREATE TABLE u(x, y);
INSERT INTO u VALUES (1, 5), (2, 6);
CREATE TABLE w(p);
INSERT INTO w VALUES (9);
select (select x from u order by (select t.a)) from t;
select (select x from u order by (select t.a from w)) from t;
select (select x from u order by (select a)) from t;
select (select x from u order by (select count(*) from w where w.p = t.a)) from t;
select (select x from u order by (select u.y)) from t;
select (select x from u order by (select y)) from t;
select (select x from u order by t.a) from t;
select (select x from u group by x order by (select t.a)) from t;
select (select x from u group by (select t.a)) from t;
select (select x from u order by x + (select t.b)) from t;
select * from t where a in (select x from u order by (select t.a));
select (select x from u order by (select x)) from t;
select (select x as q from u order by (select q)) from t;
select a from t order by (select t.a);
select (select x from u order by exists (select t.a)) from t;
select (select x from u order by (select 1 where t.a)) from t;
select (select x from u order by (select x from u as z where z.x = t.a)) from t;
select (select x from u order by (select z.x from u as z where z.x = u.x)) from t;
select (select x from u order by (select p from w where p > u.y)) from t;
select (select x from u order by (select p from w order by t.a)) from t;
select (select x from u order by (select p from w order by u.x)) from t;
select (select x from u order by (select max(p) from w group by t.b)) from t;
select (select x from u order by (select t.a) in (1, 2)) from t;
select (select x from u order by u.x in (select t.a)) from t;
select (select x from u order by (select a from t as t2 where t2.a = u.x)) from t;
select (select x from u order by (select b from t where t.a = u.x)) from t;
select (select x from (select x from u order by (select t.a))) from t;
select (select x from u group by x having (select t.a)) from t;
select (select x from u order by (select p from w union select t.a)) from t;
