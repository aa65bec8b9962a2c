-- RETURNING items that pass a REAL column of the row through a scalar subquery with a
-- FROM clause, as SQLite 3.40 returns them (compiler/returning.py): a name the FROM
-- items do not have is the row's, whose IntReal comes back an integer, then the first
-- column's affinity when the subquery's first result is such a column
create table k(x, a2);
insert into k values(1, 7);
create table f(a real, b int);
insert into f values(2, 3) returning (select a from k);
insert into f values(2, 3) returning (select f.a from k);
insert into f values(2, 3) returning (select a from k where x = 1);
insert into f values(2, 3) returning (select a from k union all select 5);
insert into f values(2, 3) returning (select 5 union all select a from k);
insert into f values(2, 3) returning (select a + 0 from k);
insert into f values(2, 3) returning (select b from k);
insert into f values(2, 3) returning (select +a from k), (select coalesce(a, 1) from k);
insert into f values(2, 3) returning (select x from k), (select a2 from k), (select (select a) from k);
insert into f values(2, 3) returning (select a from k order by x);
insert into f values(2, 3) returning (select a from k group by x);
insert into f values(2, 3) returning (select a from (select 1));
insert into f values(2, 3) returning (select a from (select 1 as a));
insert into f values(2.5, 3) returning (select a from k), (select +a from k);
insert into f values(2, 3) returning (select case when x then a end from k);
insert into f values(2, 3) returning (select a from k as f);
insert into f values(2, 3) returning (select f.a from k as f);
insert into f values(2, 3) returning (select iif(x, +a, 0) from k, k as k2);
update f set b = 4 where rowid = 1 returning (select a from k), (select +a from k);
delete from f where rowid = 2 returning (select a from k), (select +a from k);
create table h(c text, a real, b int);
insert into h values('x', 2, 3) returning (select a from k), (select +a from k), (select b from k);
update h set b = 4 returning (select a from k), (select +a from k), (select b from k);
