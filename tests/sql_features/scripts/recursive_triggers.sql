-- PRAGMA recursive_triggers: off (the default), a trigger does not fire from inside
-- itself, though others do; on, it does, to SQLITE_MAX_TRIGGER_DEPTH (1000) trigger
-- frames, past which the statement fails 'too many levels of trigger recursion' and is
-- undone; the rows a REPLACE deletes fire DELETE triggers only when it is on
-- (compiler/trigger.py, the VM's OP_Program)
pragma recursive_triggers;
create table c(n integer);
create table log(x);
create trigger c_ins after insert on c when new.n > 0 begin insert into log values(new.n); insert into c values(new.n - 1); end;
insert into c values(5);
select * from c order by rowid;
select * from log order by rowid;
select changes(), total_changes();
pragma recursive_triggers = on;
pragma recursive_triggers;
delete from c;
delete from log;
insert into c values(5);
select changes();
select * from c order by rowid;
select * from log order by rowid;
delete from c;
delete from log;
insert into c values(999);
select count(*), min(n), max(n), sum(n) from c;
select count(*) from log;
delete from c;
delete from log;
insert into c values(1000);
select count(*) from c;
select count(*) from log;
insert into c values(5000);
select count(*) from c;
insert into c values(3), (2);
select n from c order by rowid;
select changes();
delete from c;
delete from log;
-- the same text prepared before the change of the setting is prepared again
pragma recursive_triggers = off;
insert into c values(4);
select n from c order by rowid;
pragma recursive_triggers = on;
insert into c values(4);
select n from c order by rowid;
pragma recursive_triggers = 0;
insert into c values(4);
select count(*) from c;
pragma recursive_triggers = 1;
delete from c;
delete from log;
-- a trigger with no WHEN: no end but the limit
create table inf(a);
create trigger inf_ins before insert on inf begin insert into inf values(new.a + 1); end;
insert into inf values(1);
select count(*) from inf;
pragma recursive_triggers = off;
insert into inf values(1);
select * from inf order by rowid;
pragma recursive_triggers = on;
drop trigger inf_ins;
-- two triggers calling each other: off, each fires once in the chain; on, they alternate,
-- two frames for each round
create table ping(n);
create table pong(n);
create trigger ping_ins after insert on ping when new.n > 0 begin insert into pong values(new.n - 1); end;
create trigger pong_ins after insert on pong when new.n > 0 begin insert into ping values(new.n - 1); end;
pragma recursive_triggers = off;
insert into ping values(6);
select 'ping', n from ping union all select 'pong', n from pong;
pragma recursive_triggers = on;
delete from ping;
delete from pong;
insert into ping values(6);
select 'ping', n from ping union all select 'pong', n from pong;
delete from ping;
delete from pong;
insert into ping values(999);
select count(*), min(n) from ping;
select count(*), min(n) from pong;
insert into ping values(1000);
select count(*) from ping;
delete from ping;
delete from pong;
-- a second trigger on the same table fires from the first while it is off
pragma recursive_triggers = off;
create table two(n, tag);
create trigger two_a after insert on two when new.tag = 'a' begin insert into two values(new.n + 1, 'b'); end;
create trigger two_b after insert on two when new.tag = 'b' begin insert into two values(new.n + 1, 'a'); end;
insert into two values(1, 'a');
select * from two order by rowid;
pragma recursive_triggers = on;
delete from two;
create trigger two_stop before insert on two when new.n > 7 begin select raise(ignore); end;
insert into two values(1, 'a');
select * from two order by rowid;
-- UPDATE: a row counted down by its own trigger
create table cnt(id integer primary key, v, hits default 0);
insert into cnt(id, v) values(1, 10), (2, 3);
create trigger cnt_upd after update of v on cnt when new.v > 0 begin update cnt set v = v - 1, hits = hits + 1 where id = new.id; end;
update cnt set v = v + 0 where id = 1;
select changes();
select * from cnt order by id;
update cnt set v = 700;
select * from cnt order by id;
update cnt set v = 1200 where id = 2;
select * from cnt order by id;
pragma recursive_triggers = off;
update cnt set v = 5 where id = 2;
select * from cnt order by id;
pragma recursive_triggers = on;
-- DELETE: each deleted row deletes its successor
create table chain(id integer primary key, nxt);
insert into chain values(1, 2), (2, 3), (3, 4), (4, 5), (5, null), (6, 7), (7, null);
create trigger chain_del after delete on chain begin delete from chain where id = old.nxt; end;
delete from chain where id = 2;
select changes();
select * from chain order by id;
-- a BEFORE DELETE trigger that keeps some rows with RAISE(IGNORE) deep down
create table keep(id integer primary key, nxt);
insert into keep values(1, 2), (2, 3), (3, 4), (4, 5), (5, null);
create trigger keep_del before delete on keep begin select raise(ignore) where old.id = 4; delete from keep where id = old.nxt; end;
delete from keep where id = 1;
select * from keep order by id;
-- RAISE(ABORT) forty levels down undoes the whole statement; RAISE(FAIL) keeps what the
-- statement did before it
create table deep(n);
create trigger deep_ins after insert on deep when new.n > 0 begin select raise(abort, 'deep abort') where new.n = 40 and (select count(*) from deep) > 50; insert into deep values(new.n - 1); end;
insert into deep values(30);
select count(*) from deep;
insert into deep values(100);
select count(*) from deep;
create table failing(n);
create trigger failing_ins after insert on failing when new.n > 0 begin select raise(fail, 'failed at 3') where new.n = 3; insert into failing values(new.n - 1); end;
insert into failing values(10);
select n from failing order by rowid;
insert into failing values(2);
select n from failing order by rowid;
-- RAISE(IGNORE) in a nested firing skips the row of the statement that fired it
create table ig(n);
create table iglog(n);
create trigger ig_ins before insert on ig begin select raise(ignore) where new.n % 3 = 0; insert into iglog values(new.n); end;
create trigger ig_next after insert on ig when new.n < 10 begin insert into ig values(new.n + 1); end;
insert into ig values(1);
select * from ig order by rowid;
select * from iglog order by rowid;
select changes();
-- INSTEAD OF triggers on a view that insert into the view again
create table vt(n);
create view v as select n from vt;
create trigger v_ins instead of insert on v begin insert into vt values(new.n); insert into v select new.n - 1 where new.n > 0; end;
insert into v values(4);
select * from vt order by rowid;
delete from vt;
insert into v values(998);
select count(*) from vt;
insert into v values(999);
select count(*) from vt;
create trigger v_upd instead of update on v begin update vt set n = new.n where n = old.n; update v set n = n + 1 where n = new.n and n < 5; end;
delete from vt;
insert into vt values(1);
update v set n = 2;
select * from vt;
create trigger v_del instead of delete on v begin delete from vt where n = old.n; delete from v where n = old.n + 1; end;
insert into vt values(6), (7), (9);
delete from v where n = 5;
select * from vt order by n;
-- BEFORE triggers recursing
create table bt(n, depth);
create trigger bt_ins before insert on bt when new.n > 0 begin insert into bt values(new.n - 1, new.depth + 1); end;
insert into bt values(3, 0);
select * from bt order by rowid;
-- REPLACE deletes a row: its DELETE triggers fire only while recursive_triggers is on
create table r(a integer primary key, b unique, c);
create table rlog(x);
create trigger r_bdel before delete on r begin insert into rlog values('before ' || old.a || ' ' || old.b); end;
create trigger r_adel after delete on r begin insert into rlog values('after ' || old.a || ' ' || old.b); end;
insert into r values(1, 'x', 0), (2, 'y', 0);
replace into r values(1, 'z', 1);
select changes();
select * from r order by a;
select * from rlog order by rowid;
insert or replace into r values(3, 'y', 2);
select * from r order by a;
select * from rlog order by rowid;
update or replace r set b = 'z' where a = 3;
select * from r order by a;
select * from rlog order by rowid;
pragma recursive_triggers = off;
delete from rlog;
replace into r values(3, 'w', 3);
insert or replace into r values(4, 'w', 4);
select * from r order by a;
select * from rlog order by rowid;
pragma recursive_triggers = on;
-- a REPLACE inside a trigger fires the DELETE trigger too
create table rsrc(a, b);
create trigger rsrc_ins after insert on rsrc begin insert or replace into r values(new.a, new.b, 9); end;
delete from rlog;
insert into rsrc values(4, 'q');
select * from r order by a;
select * from rlog order by rowid;
-- a DELETE trigger that rewrites the table REPLACE deletes from
create table rr(a integer primary key, b);
create trigger rr_del after delete on rr when old.a < 5 begin insert or replace into rr values(old.a + 1, 'again'); end;
insert into rr values(1, 'one'), (2, 'two'), (3, 'three');
replace into rr values(1, 'new');
select * from rr order by a;
-- UPSERT: DO UPDATE fires UPDATE triggers, which may upsert again
create table up(k primary key, v);
create trigger up_upd after update on up when new.v < 5 begin insert into up values(new.k, 0) on conflict(k) do update set v = v + 1; end;
insert into up values('a', 0);
insert into up values('a', 0) on conflict(k) do update set v = v + 1;
select * from up;
select changes();
-- changes() counts the statement's own rows; total_changes() every one
create table tc(n);
create trigger tc_ins after insert on tc when new.n > 0 begin insert into tc values(new.n - 1); end;
select total_changes() > 0;
insert into tc values(9);
select changes();
select count(*) from tc;
-- a trigger whose body reads subqueries each time it runs
create table sq(n, seen);
create trigger sq_ins after insert on sq when new.n > 0 begin insert into sq values(new.n - 1, (select count(*) from sq)); end;
insert into sq values(4, 0);
select * from sq order by rowid;
-- AUTOINCREMENT in a recursive chain
create table ai(id integer primary key autoincrement, n);
create trigger ai_ins after insert on ai when new.n > 0 begin insert into ai(n) values(new.n - 1); end;
insert into ai(n) values(3);
select * from ai order by id;
select name, seq from sqlite_sequence where name = 'ai';
insert into ai(n) values(2);
select name, seq from sqlite_sequence where name = 'ai';
select * from ai order by id;
-- inside an explicit transaction, the failed statement alone is undone
begin;
insert into c values(2);
insert into c values(3000);
select n from c order by rowid;
commit;
select n from c order by rowid;
-- WITHOUT ROWID tables: the rows REPLACE deletes fire their DELETE triggers too
create table w(a primary key, b unique, c) without rowid;
create table wlog(x);
create trigger w_del after delete on w begin insert into wlog values('del ' || old.a || old.b || old.c); end;
create trigger w_bdel before delete on w begin insert into wlog values('bdel ' || old.a || old.b || old.c); end;
insert into w values(1, 'x', 0), (2, 'y', 0);
replace into w values(1, 'z', 1);
select * from w order by a;
select * from wlog;
insert or replace into w values(3, 'y', 1);
select * from w order by a;
select * from wlog;
update or replace w set b = 'z' where a = 3;
select * from w order by a;
select * from wlog;
create table w2(c, a, b, primary key(b, a)) without rowid;
create trigger w2_del after delete on w2 begin insert into wlog values('w2 ' || old.a || old.b || old.c); end;
insert into w2 values(1, 2, 3), (4, 5, 6);
replace into w2 values(9, 2, 3);
select * from w2;
select * from wlog;
-- RETURNING of a statement whose trigger recurses; a TEMP trigger on a main table fires
-- from inside the other trigger and the other from inside it
delete from c;
insert into c values(3) returning n;
select count(*) from c;
create temp trigger c_temp after insert on c when new.n = 250 begin insert into c values(new.n - 50); end;
insert into c values(250);
select n from c order by rowid;
select count(*) from c;
drop trigger c_temp;
-- a foreign-key cascade with a user's DELETE trigger on the same table
create table p(id integer primary key, parent references p(id) on delete cascade);
pragma foreign_keys = on;
insert into p values(1, null), (2, 1), (3, 2), (4, 3);
create table plog(x);
create trigger p_del after delete on p begin insert into plog values(old.id); end;
delete from p where id = 1;
select * from p;
select * from plog order by x;
pragma foreign_keys = off;
-- a BEFORE UPDATE trigger whose UPDATE of the same row the outer UPDATE then overwrites
create table bu(a integer primary key, b);
create trigger bu_upd before update on bu when new.b < 10 begin update bu set b = new.b + 1 where a = new.a; end;
insert into bu values(1, 0);
update bu set b = 1;
select * from bu;
select changes();
-- two statements in the body, each firing the trigger again
create table fan(a);
create trigger fan_ins after insert on fan when new.a < 5 begin insert into fan values(new.a + 1); insert into fan values(new.a + 10); end;
insert into fan values(1);
select a from fan order by rowid;
select count(*) from fan;
