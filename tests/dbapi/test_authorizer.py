"""The authorizer (Connection.set_authorizer) against the stdlib's: the calls it receives
(action codes, arguments, source) for each statement, and the effects of SQLITE_DENY and
SQLITE_IGNORE answers (errors, NULL columns, statements that do nothing)."""

from __future__ import annotations

import sqlite3 as oracle
from pathlib import Path

import pytest

SETUP = """
create table t(a, b); create table u(x integer primary key, y);
insert into t values(1, 2); insert into u values(5, 'five');
create view v as select a, b from t; create index ti on t(a);
create trigger tr after insert on u begin insert into t values(new.x, new.y); end;
"""

# Statements whose authorizer calls must equal the stdlib's, call for call and in order.
STATEMENTS = [
    'select a from t',
    'select * from t',
    'select count(*) from t',
    'select 1',
    'select abs(a), b from t where a>0 order by b',
    'select * from v',
    'select t.a, u.y from t join u on t.a=u.x',
    'select (select max(y) from u) from t',
    'insert into t values(1,2)',
    'insert into u(y) values(3)',
    'update t set a=1 where b=2',
    'delete from t where a=1',
    'select rowid from t',
    'with c(n) as (select 1) select n from c',
    'select * from (select a from t)',
    'select 1 union select 2',
    'select a from t union all select x from u order by 1',
    'select rowid, x from u',
    'select _rowid_ from u',
    'select (select count(*) from u) from t',
    'select a from t where exists (select 1 from u where u.x = t.a)',
    'select a, count(*) from t group by a having count(*) > 0',
    'select t.* from t, u',
    'select a as z from t order by z',
    'select * from t natural join u',
    'select b from (select a, b from t) as s where s.a = 1',
    "select upper(a) from t where a like 'x%'",
    'update u set y = y + 1 where x = 2',
    'update t set a = 1, b = a',
    'delete from t where b in (select y from u)',
    'insert into t(b, a) select x, y from u',
    'insert into t default values',
    'select * from t left join (select x from u) s on s.x = t.a',
    'select total(a) over (order by b) from t',
    'select a from t where a between 1 and 2 and b is not null',
    'select 1 from t, (select y from u)',
    'select 1 from (select y from u), t',
    'select * from v where a = 1',
    'select x from u where x in (select a from t) and y = (select max(b) from t)',
    'update u set y = 5',
    'delete from u',
    'select count(*) from v',
    'create table z(a)',
    'create index zi on t(b)',
    'create view zv as select a from t',
    'create trigger ztr after delete on t begin select 1; end',
    'drop trigger tr',
    'drop view v',
    'drop index ti',
    'drop table t',
    'begin',
    'savepoint s',
    'pragma user_version',
    'pragma user_version=3',
    'pragma table_info(t)',
    'reindex',
    'with recursive r(n) as (select 1 union all select n+1 from r where n<3) select n from r',
    'create temp table tt(a)',
    'insert into u values(1,2) on conflict(x) do update set y=excluded.y',
    'delete from u returning x',
    'select a from t where a in (select x from u)',
    'update t set a=a+1',
    'select a from t where b in (1, 2)',
    'select a from t order by b limit 1',
    'select distinct a from t',
    'select a, b from t where a = (select max(x) from u)',
    'with c as (select a from t) select * from c',
    'with c as (select a from t) select a from c where a > 0',
    'select * from t, v where t.a = v.a',
    'select coalesce(a, b), ifnull(a, 1), iif(a, b, 0) from t',
    'select a from t group by a having max(b) > 1 order by 1',
    'select count(distinct a) from t',
    'select t1.a from t as t1 join t as t2 on t1.a = t2.b',
    "select * from u where x > 1 and y like 'a%'",
    'select x from u union select a from t',
    'select (select count(*) from t where t.a = u.x) from u',
    'select exists(select * from t)',
    'insert into t values((select max(x) from u), 2)',
    'insert into t select * from t where a > 1',
    'update t set b = (select y from u where x = t.a)',
    'delete from t where rowid in (select rowid from t limit 1)',
    "insert into u(x, y) values(1, 'a') on conflict(x) do nothing",
    "insert into u(x, y) values(1, 'a') returning y",
    "update u set y = 'z' returning x, y",
    'select cast(a as text) from t',
    'select a collate nocase from t order by b collate nocase',
    'select case a when 1 then b else 0 end from t',
    'select * from (select a from t union all select b from t)',
    'select max(a) filter (where b > 0) from t',
    'select row_number() over (partition by a order by b) from t',
    'explain select 1',
    'explain query plan select a from t',
    'rollback',
    'release nosuch',
    'create table z2 as select a from t',
    'create view zv2(c1) as select a from t',
    'create index zi2 on t(a) where b > 0',
    'create unique index zi3 on u(y)',
    'create trigger ztr2 before update of a on t begin update u set y = old.a; end',
    'drop table if exists nosuch',
    'pragma foreign_keys = on',
    "pragma main.table_info('t')",
]


def _calls(module, statement):
    con = module.connect(":memory:", isolation_level=None)
    con.executescript(SETUP)
    log = []

    def authorizer(action, arg1, arg2, dbname, source):
        log.append((action, arg1, arg2, dbname, source))
        return module.SQLITE_OK

    con.set_authorizer(authorizer)
    try:
        con.execute(statement).fetchall()
    except module.Error as e:
        log.append(("error", str(e)))
    con.close()
    return log


@pytest.mark.parametrize("statement", STATEMENTS)
def test_authorizer_calls(sqlite, statement):
    assert _calls(sqlite, statement) == _calls(oracle, statement)


S = oracle
ANSWERS = [
    (S.SQLITE_SELECT, "select a from t"),
    (S.SQLITE_FUNCTION, "select abs(a), b from t"),
    (S.SQLITE_INSERT, "insert into t values(5, 6)"),
    (S.SQLITE_UPDATE, "update t set a = 9, b = 8"),
    (S.SQLITE_DELETE, "delete from t"),
    (S.SQLITE_TRANSACTION, "begin"),
    (S.SQLITE_PRAGMA, "pragma user_version"),
    (S.SQLITE_CREATE_TABLE, "create table z(a)"),
    (S.SQLITE_DROP_TABLE, "drop table t"),
    (S.SQLITE_READ, "select a, b from t where a = 1"),
    (S.SQLITE_READ, "select * from v"),
    (S.SQLITE_READ, "update t set b = a + 1"),
    (S.SQLITE_READ, "select rowid from t"),
    (S.SQLITE_READ, "select count(*) from t"),
    (S.SQLITE_READ, "select * from t"),
    (S.SQLITE_READ, "select y from u where x = 5"),
    (S.SQLITE_CREATE_INDEX, "create index zz on t(b)"),
    (S.SQLITE_DROP_INDEX, "drop index ti"),
    (S.SQLITE_CREATE_VIEW, "create view w as select 1"),
    (S.SQLITE_DROP_VIEW, "drop view v"),
    (S.SQLITE_SAVEPOINT, "savepoint s"),
    (S.SQLITE_REINDEX, "reindex"),
    (S.SQLITE_FUNCTION, "select a from t where a like 1"),
    (S.SQLITE_SELECT, "select count(*) from t"),
    (S.SQLITE_SELECT, "select (select max(y) from u), a from t"),
]


def _answer(module, action, answer, statement, column):
    con = module.connect(":memory:", isolation_level=None)
    con.executescript(SETUP)
    con.set_authorizer(lambda a, arg1, arg2, db, src: answer
                       if a == action and (column is None or arg2 == column) else 0)
    try:
        result = ("ok", con.execute(statement).fetchall())
    except module.Error as e:
        result = ("error", type(e).__name__, str(e))
    con.set_authorizer(None)
    # statements prepared under the authorizer keep its answers, as in the stdlib
    table = con.execute("select * from t").fetchall()
    names = [r[0] for r in con.execute("select name from sqlite_master order by 1")]
    con.close()
    return result, table, names


CASES = [(action, statement, None) for action, statement in ANSWERS] + \
    [(action, statement, "b") for action, statement in ANSWERS if action == S.SQLITE_READ]


@pytest.mark.parametrize("answer", [1, 2], ids=["deny", "ignore"])
@pytest.mark.parametrize("action,statement,column", CASES)
def test_authorizer_answers(sqlite, action, statement, answer, column):
    assert _answer(sqlite, action, answer, statement, column) == \
        _answer(oracle, action, answer, statement, column)


ATTACHED = ["select x from aux.t", "select x from t", "select y from tt", "select * from main.m",
            "insert into aux.t values(1)", "update aux.t set x = x + 1 where x > 0",
            "delete from t where x = 2", "select m.a, t.x from m join aux.t on m.a = t.x"]


def _attached_calls(module, directory, statement, deny_column=None):
    directory.mkdir()
    con = module.connect(":memory:", isolation_level=None)
    con.execute(f"attach '{directory / 'aux.db'}' as aux")
    con.executescript("create table aux.t(x); create temp table tt(y); create table m(a);")
    log = []

    def authorizer(action, arg1, arg2, dbname, source):
        log.append((action, arg1, arg2, dbname, source))
        return module.SQLITE_DENY if arg2 == deny_column else module.SQLITE_OK

    con.set_authorizer(authorizer)
    try:
        con.execute(statement).fetchall()
    except module.Error as e:
        log.append(("error", type(e).__name__, str(e)))
    con.close()
    return log


@pytest.mark.parametrize("deny", [None, "x", "a"])
@pytest.mark.parametrize("statement", ATTACHED)
def test_authorizer_with_attached_databases(sqlite, tmp_path, statement, deny):
    assert _attached_calls(sqlite, tmp_path / "got", statement, deny) == \
        _attached_calls(oracle, tmp_path / "expected", statement, deny)


SCRIPTS = sorted((Path(__file__).parent.parent / "sql_features" / "scripts").glob("*.sql"))


def _script_statements(module, text):
    """The statements of a script, split as the module's complete_statement sees them."""
    out, current = [], ""
    for line in text.splitlines(keepends=True):
        current += line
        if module.complete_statement(current):
            out.append(current.strip())
            current = ""
    if current.strip():
        out.append(current.strip())
    return out


def _results(module, statements, authorize):
    con = module.connect(":memory:", isolation_level=None)
    if authorize:
        con.set_authorizer(lambda *args: module.SQLITE_OK)
    out = []
    for statement in statements:
        try:
            out.append(("ok", con.execute(statement).fetchall()))
        except module.Error as e:
            out.append(("error", type(e).__name__, str(e)))
        except module.Warning as e:
            out.append(("warning", str(e)))
    con.close()
    return out


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_allow_all_authorizer_changes_nothing(sqlite, script):
    statements = _script_statements(sqlite, script.read_text())
    assert _results(sqlite, statements, True) == _results(sqlite, statements, False)
