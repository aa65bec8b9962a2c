"""ATTACH / DETACH against the stdlib: schema-qualified names (main., aux.), tables found
in attached files by their bare names, PRAGMA database_list, sqlite_master per schema,
DDL and PRAGMAs aimed at an attached schema, transactions spanning the files, and the
errors of each misuse. Every script runs on the module under test and on sqlite3 in
fresh directories; results, errors and the files left behind must be the same."""

from __future__ import annotations

import sqlite3 as oracle
from pathlib import Path

import pytest

SCRIPTS = {
    "basic": [
        "create table m(x)", "insert into m values(1), (2), (3)",
        "attach 'aux.db' as aux",
        "pragma database_list",
        "create table aux.t(a integer primary key, b text)",
        "insert into aux.t(b) select 'v' || x from m",
        "select * from aux.t", "select * from t", "select aux.t.b from aux.t where a = 2",
        "select m.x, t.b from m join aux.t on t.a = m.x order by 1 desc",
        "select type, name, tbl_name, sql from aux.sqlite_master",
        "select name from main.sqlite_master", "select name from sqlite_master",
        "update aux.t set b = upper(b) where a > 1", "delete from aux.t where a = 1",
        "select * from aux.t", "select count(*) from main.m",
        "detach aux", "select * from aux.t", "pragma database_list",
    ],
    "errors": [
        "attach 'a.db' as aux", "attach 'b.db' as aux", "attach 'b.db' as main",
        "detach nosuch", "detach main", "select * from nosuch.t", "select * from aux.nosuch",
        "create table aux.t(a)", "create table aux.t(a)", "drop table aux.nosuch",
        "detach database aux", "detach aux",
    ],
    "transactions": [
        "create table m(x)", "attach 'aux.db' as aux", "create table aux.t(y)",
        "begin", "insert into m values(1)", "insert into aux.t values(2)", "rollback",
        "select count(*) from m", "select count(*) from aux.t",
        "begin", "insert into m values(3)", "insert into aux.t values(4)", "commit",
        "select * from m", "select * from aux.t",
        "begin", "insert into aux.t values(5)", "savepoint s", "insert into aux.t values(6)",
        "rollback to s", "release s", "commit", "select * from aux.t",
    ],
    "memory-and-shadowing": [
        "create table t(a)", "insert into t values('main')",
        "attach ':memory:' as mem", "create table mem.t(a)", "insert into mem.t values('mem')",
        "create table mem.only(z)", "insert into only values(7)",
        "select * from t", "select * from main.t", "select * from mem.t", "select * from only",
        "select (select a from mem.t) || '/' || a from main.t",
        "create index mem.i on t(a)", "select name, tbl_name from mem.sqlite_master order by 1",
        "drop table mem.t", "select name from mem.sqlite_master order by 1",
        "drop table only", "select name from mem.sqlite_master",
    ],
    "pragmas-and-views": [
        "attach 'aux.db' as aux", "create table aux.t(a, b default 5)",
        "pragma aux.table_info(t)", "pragma aux.user_version = 7", "pragma aux.user_version",
        "pragma user_version", "create view aux.v as select a * 2 as d from t",
        "insert into aux.t(a) values(1), (2)", "select * from aux.v", "select * from v",
        "select name, type from aux.sqlite_master order by 1",
    ],
    "temp": [
        "pragma database_list", "create table m(a)", "create temp table tt(b)",
        "create temporary view tv as select 1 as one", "create table temp.t3(z)",
        "create index ti on tt(b)", "insert into tt values(5)",
        "select type, name, tbl_name, sql from sqlite_temp_master",
        "select name from temp.sqlite_master", "select name from sqlite_master",
        "pragma database_list", "create table tt(x, y)", "insert into tt values(1)",
        "select * from tt", "select * from main.tt", "select * from temp.tt", "select * from tv",
        "begin", "insert into tt values(2)", "insert into m values(3)", "rollback",
        "select * from tt", "select * from m", "drop table tt",
        "select name from sqlite_temp_master", "select name from sqlite_master",
        "detach temp", "attach ':memory:' as temp", "drop table temp.t3",
        "attach 'aux.db' as aux", "create table aux.tt(w)", "pragma database_list",
        "select * from tt", "select name from sqlite_temp_master order by 1",
    ],
    "temp-triggers": [
        "create table m(a)", "create temp table log(x)",
        "create temp trigger tg after insert on m begin insert into log values(new.a); end",
        "insert into m values(1), (2)", "select * from log",
        "select type, name, tbl_name, sql from sqlite_temp_master",
        "select name from sqlite_master",
        "create temp trigger tg after insert on m begin select 1; end",
        "create temp trigger if not exists tg after insert on m begin select 1; end",
        "create temporary trigger tu after update on main.m begin delete from log; end",
        "create temp trigger temp.tq after update on m begin select 1; end",
        "create trigger  temp.\"tq\"  after update on m begin select 1; end",
        "create temp trigger if not exists  tr2 before delete on m begin select 2; end",
        "update m set a = a + 1", "select count(*) from log",
        "drop trigger tg", "insert into m values(3)", "select * from log",
        "select name from sqlite_temp_master order by 1", "select * from m order by a",
    ],
    "edges": [
        "attach 'g.bin' as g", "select * from g.sqlite_master", "detach g",
        "attach '/nonexistent/dir/x.db' as nx", "attach 'a.db' as 'my db'",
        "create table \"my db\".t(a unique)", "insert into \"my db\".t values(1)",
        "insert into \"my db\".t values(1)", "select * from \"my db\".t",
        "pragma \"my db\".index_list(t)", "create table t(b)", "insert into t values(7)",
        "select * from t", "select * from main.t", "select name from \"my db\".sqlite_schema",
        "detach 'my db'", "attach 'a.db' as a2", "select * from a2.t", "select * from t",
        "update a2.t set a = a + 1 returning a", "delete from a2.t returning *",
        "attach 'a.db' as a3", "select count(*) from a3.t", "pragma database_list",
        "create table a2.u(x integer primary key autoincrement, y)",
        "insert into a2.u(y) values(1)", "select * from a2.sqlite_sequence", "select * from a2.u",
        "with q as (select * from a2.u) select * from q", "create view a2.vv as select y from u",
        "select * from a2.vv", "drop view a2.vv", "alter table a2.u add column z",
        "select * from a2.u", "create index a2.ux on u(y)", "reindex a2.ux", "drop index a2.ux",
        "drop table a2.u",
    ],
    "autoincrement": [
        "create table m(id integer primary key autoincrement, v)",
        "insert into m(v) values(1), (2), (3)", "attach 'aux.db' as aux",
        "create table aux.u(id integer primary key autoincrement, v)",
        "insert into aux.u(v) values(9)", "select * from aux.u", "select * from sqlite_sequence",
        "select * from aux.sqlite_sequence", "insert into m(v) values(4)",
        "select * from main.sqlite_sequence", "delete from aux.u",
        "insert into aux.u(v) values(10)", "select * from aux.u",
        "create temp table tq(id integer primary key autoincrement)",
        "insert into tq default values", "select * from temp.sqlite_sequence",
        "insert into m(v) values(5)", "select * from sqlite_sequence order by name",
    ],
    "reopen": [
        "attach 'aux.db' as aux", "create table aux.t(a)", "insert into aux.t values(1)",
        "detach aux", "attach 'aux.db' as aux", "select * from aux.t",
        "insert into aux.t values(2)", "select * from aux.t order by a desc",
    ],
}


def _run(module, directory, statements, params=None):
    directory.mkdir()
    (directory / "g.bin").write_bytes(b"not a database file " * 250)
    con = module.connect(str(directory / "main.db"), isolation_level=None)
    out = []
    for sql in statements:
        sql = sql.replace("'aux.db'", f"'{directory / 'aux.db'}'")
        sql = sql.replace("'a.db'", f"'{directory / 'a.db'}'")
        sql = sql.replace("'b.db'", f"'{directory / 'b.db'}'")
        sql = sql.replace("'g.bin'", f"'{directory / 'g.bin'}'")
        try:
            rows = con.execute(sql).fetchall()
            out.append(("ok", [tuple(str(v).replace(str(directory), "<dir>")
                                     if isinstance(v, str) else v for v in r) for r in rows]))
        except module.Error as e:
            out.append(("error", type(e).__name__, str(e).replace(str(directory), "<dir>")))
    con.close()
    files = {}
    for name in ("main.db", "aux.db", "a.db"):
        path = directory / name
        if path.exists() and path.stat().st_size:
            check = oracle.connect(str(path))
            files[name] = (check.execute("pragma integrity_check").fetchall(),
                           check.execute("select type, name, sql from sqlite_master "
                                         "order by name").fetchall())
            check.close()
    return out, files


@pytest.mark.parametrize("script", SCRIPTS)
def test_attach_matches_sqlite3(sqlite, tmp_path, script):
    assert _run(sqlite, tmp_path / "got", SCRIPTS[script]) == \
        _run(oracle, tmp_path / "expected", SCRIPTS[script])


def test_attach_parameter(sqlite, tmp_path):
    con = sqlite.connect(":memory:")
    con.execute("attach ? as aux", (str(tmp_path / "p.db"),))
    con.execute("create table aux.t(a)")
    con.execute("insert into aux.t values(?)", (5,))
    con.commit()
    assert [row[1] for row in con.execute("pragma database_list")] == ["main", "aux"]
    con.execute("detach aux")
    con.close()
    check = oracle.connect(str(tmp_path / "p.db"))
    assert check.execute("select * from t").fetchall() == [(5,)]
    check.close()


SQL_FEATURES = sorted((Path(__file__).parent.parent / "sql_features" / "scripts").glob("*.sql"))


# statements whose answer lists the other databases too, or reads temp's (they differ by
# design: the prelude makes temp)
_LISTS_EVERY_DATABASE = ("database_list", "table_list", "sqlite_temp", "temp.", "('temp')")


def _script_results(module, text, prelude):
    con = module.connect(":memory:", isolation_level=None)
    for statement in prelude:
        con.execute(statement)
    out, current = [], ""
    for line in text.splitlines(keepends=True):
        current += line
        if not module.complete_statement(current):
            continue
        if any(word in current.lower() for word in _LISTS_EVERY_DATABASE):
            current = ""
            continue
        try:
            out.append(("ok", con.execute(current.strip()).fetchall()))
        except module.Error as e:
            out.append(("error", type(e).__name__, str(e)))
        except module.Warning as e:
            out.append(("warning", str(e)))
        current = ""
    con.close()
    return out


@pytest.mark.parametrize("script", SQL_FEATURES, ids=[p.stem for p in SQL_FEATURES])
def test_main_statements_unchanged_by_attachments(sqlite, script):
    """With an attached database (and temp in use) beside it, main's statements give the
    same results as on a plain connection."""
    text = script.read_text()
    prelude = ["attach ':memory:' as side", "create table side.unrelated(q)",
               "create temp table scratch(w)"]
    assert _script_results(sqlite, text, prelude) == _script_results(sqlite, text, [])
