-- RETURNING and REAL columns, as SQLite 3.40 returns them (compiler/returning.py): a
-- whole number an INSERT or UPDATE writes to a REAL column comes back as an integer when
-- the item is just that column; every item that is a column or the rowid gets the first
-- column's affinity (a float when that is REAL); DELETE returns the row as read
create table t(b int, a real, c text, id integer primary key);
insert into t values(2, 1, 'x', 1) returning *;
insert into t values(2, 1.0, 'x', 2) returning a, typeof(a), a + 0, a || '', -a, +a, a collate nocase, cast(a as real), abs(a), a = 1;
insert into t values(2, '7.0', 'x', 3) returning a;
insert into t values(2, 1.5, 'x', 4) returning a;
insert into t values(2, 140737488355327, 'x', 5) returning a;
insert into t values(2, 140737488355328, 'x', 6) returning a;
insert into t values(2, -140737488355328, 'x', 7) returning a;
insert into t values(2, -140737488355329, 'x', 8) returning a;
insert into t values(2, 1e20, 'x', 9) returning a;
insert into t values(2, -0.0, 'x', 10) returning a;
insert into t values(2, 'abc', 'x', 11) returning a;
insert into t values(2, null, 'x', 12) returning a;
update t set b = 3 where id = 1 returning a, b;
update t set a = 5 where id = 1 returning a, typeof(a);
update t set a = a where id = 4 returning a;
delete from t where id = 1 returning a, b, id;
insert into t(b, c, id) values(2, 'x', 13) on conflict do nothing returning a;
insert into t(id, a) values(13, 3) on conflict(id) do update set a = excluded.a returning a;
insert into t(id, a) values(13, 3) on conflict(id) do update set b = 9 returning a, b;
replace into t(id, a) values(13, 4) returning a;
create table d(b int, a real default 4);
insert into d(b) values(2) returning a;
insert into d default values returning a;
-- the first column REAL: every column item (and the rowid) is a float
create table f(a real, b int, c numeric, d text, e);
insert into f values(1, 2, 3, '4', 5) returning *, rowid, oid, _rowid_;
insert into f values(1, 2, 3, '4', 5) returning b collate nocase, +b, b + 0, typeof(b), cast(b as int), (b);
update f set b = 7 where rowid = 1 returning b, c, rowid;
delete from f where rowid = 1 returning a, b, c;
create table g(id integer primary key, a real);
insert into g values(1, 2) returning *;
create table h(a real, id integer primary key);
insert into h values(1, 2) returning *;
create table w(b int primary key, a real) without rowid;
insert into w values(2, 1) returning a;
update w set b = 3 returning a;
create table gen(g int as (1), a real, b int);
insert into gen(a, b) values(1, 2) returning *;
create table gen2(g real as (1), a real, b int);
insert into gen2(a, b) values(1, 2) returning *;
create table trg(b int, a real);
create table trg_log(x);
create trigger trg_t after insert on trg begin insert into trg_log values(new.a); end;
insert into trg values(2, 1) returning a;
select x, typeof(x) from trg_log;
-- what RETURNING refuses: a schema-qualified column, TABLE.*
insert into t values(2, 1, 'x', 20) returning main.t.b;
insert into t values(2, 1, 'x', 20) returning 1 + main.t.a;
insert into t values(2, 1, 'x', 20) returning temp.t.b;
insert into t values(2, 1, 'x', 20) returning t.*;
update t set a = 1 returning main.t.a;
delete from t returning main.t.a;
insert into t values(2, 1, 'x', 20) returning nosuch, main.t.b;
insert into t values(2, 1, 'x', 20) returning main.t.b, nosuch;
insert into t values(2, 1, 'x', 21) returning (select main.f.b from f);
-- the IntReal passes through CASE results and the functions that return an argument
create table pt(b int, a real, n real);
insert into pt values(2, 1, null) returning coalesce(a, 0), ifnull(a, 0), max(a, 0), min(a, 5), max(a, 1.5), nullif(a, 2), likely(a), unlikely(a), likelihood(a, 0.5), iif(1, a, 0), case when 1 then a end, case when a = 1 then a + 0 else a end, case a when 1 then 'one' end;
insert into pt values(2, 1, null) returning coalesce(n, 2.0), coalesce(n, a), coalesce(n, a + 0), max(a), abs(a), round(a), quote(a), printf('%s', a), nullif(1, a), iif(a, 'y', 'n');
update pt set b = 3 returning coalesce(a, 0), case when b > 0 then a end;
delete from pt returning coalesce(a, 0), max(a, 0);
