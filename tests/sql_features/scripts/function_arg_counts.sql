-- Calls of built-in functions with an argument count they do not take fail with SQLite's
-- 'wrong number of arguments to function NAME()' (a variadic built-in's minimum count is
-- checked when the call is compiled): min() and max() are neither the aggregate nor the
-- scalar form
SELECT min();
SELECT max();
SELECT min(1, 2), max(1, 2), min(3, NULL, 1), max('a', 'b', 'c');
CREATE TABLE t(x);
INSERT INTO t VALUES (3), (1), (2);
SELECT min(x), max(x) FROM t;
SELECT min() FROM t;
SELECT max() OVER () FROM t;
SELECT x FROM t WHERE x > min();
SELECT coalesce();
SELECT coalesce(1);
SELECT coalesce(NULL, 2);
SELECT ifnull(1);
SELECT ifnull(1, 2, 3);
SELECT substr('abc');
SELECT abs();
SELECT abs(1, 2);
SELECT char(), printf(), typeof(printf());
SELECT json_array(), json_object();
SELECT json_object('a');
SELECT round(), round(1, 2, 3);
