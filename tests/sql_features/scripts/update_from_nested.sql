-- UPDATE ... FROM with several FROM items: SQLite's parser makes them one parenthesized
-- join (a nested subquery), so their ON clauses do not see the target (its alias is no
-- column there), while their tables' names stay visible beside the target's: a target
-- alias equal to a FROM table's name is ambiguous in WHERE and SET, not in ON
CREATE TABLE t(a, b);
INSERT INTO t VALUES (1, 2), (3, 4), (5, 6), (1, 8);
CREATE TABLE u(a, c);
INSERT INTO u VALUES (1, 10), (3, 30), (7, 70);
update t as u set b = 7 from u join t on 1 where u.a = 1;
update t as u set b = 7 from u join t on u.a = 1 returning *;
update t as u set b = 7 from t join u on u.a = 1 returning *;
update t as u set b = 7 from u, t where u.a = 1;
update t as u set b = 7 from u join t on u.a = t.a returning b;
update t as u set b = 7 from u cross join t on u.a = t.a returning *;
update t as u set b = 7 from u left join t on u.a = t.a returning *;
update t as u set b = 7 from u join t using (a) returning *;
update t as u set b = u.a from u join t on 1;
update t as u set b = 7 from u join t on a = 1;
update t as x set b = 7 from u join t on x.a = t.a;
update t as u set b = 7 from u join u as w on u.a = w.a returning *;
update t as x set b = w.c from u join u as w on u.a = w.a where x.a = w.a returning *;
update t as x set b = c from u, (select 1 as z) where x.a = u.a returning *;
update t set b = u.c + w.c from u, u as w where t.a = u.a returning *;
update t as u set b = 16 from u where u.a = 1;
update t as u set b = 16 from u where u.c = 10 returning *;
update t as x set b = 17 from t as x;
select * from t;
