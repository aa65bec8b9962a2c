"""Differential tests: the body of a view or trigger resolves its names in the schema, never
in the WITH clause of the statement that reads the view or fires the trigger (a CTE named
like a table or view hides it only in that statement's own text). Each script runs on
sqlengine and on the stdlib sqlite3; the rows of every query (or its error) must match."""

import sqlite3

import pytest

import sqlengine

SETUP = """
create table t(a, b);
insert into t values (1, 2), (3, 4);
create view v1 as select b from t;
create view v2 as select * from v1;
create view v3 as select b from t where a > 1;
create view vw as with t(b) as (select 'inner') select b from t;
create table log(x);
create table log2(y, z);
create trigger tr after insert on log begin
  insert into log2 select b, (select count(*) from v1) from t;
end;
create view vi as select a, b from t;
create trigger ti instead of insert on vi begin
  insert into log2 select new.a, b from v1;
end;
"""

CASES = [
    ["with t(a) as (select 9) select * from v1"],
    ["with t(a) as (select 9) select * from v2"],
    ["with t(a) as (select 9) select * from v3"],
    ["with v1(z) as (select 7) select * from v2"],
    ["with v1(z) as (select 7) select * from v1"],  # the statement's own name: the CTE
    ["with t(a) as (select 9) select * from t"],
    ["with t(a) as (select 9) select (select b from v1 limit 1), * from t"],
    ["with t(a) as (select 9) select * from v1 join t order by 1"],
    ["with t(a) as (select 9) select * from v1 where b in (select a from t)"],
    ["with t(a) as (select 9) select * from vw"],
    ["with t(a) as (select 9) insert into log select a from t",
     "select * from log", "select * from log2 order by 1"],
    ["with v1(b) as (select 'cte') insert into log values (1)",
     "select * from log2 order by 1"],
    ["with t(a, b) as (select 8, 9) insert into vi select * from t",
     "select * from log2 order by 1, 2"],
]


def _run(mod, script):
    con = mod.connect(":memory:")
    con.executescript(SETUP)
    out = []
    for q in script:
        try:
            out.append(con.execute(q).fetchall())
        except Exception as e:  # noqa: BLE001 - the message is what is compared
            out.append((type(e).__name__, str(e)))
    con.close()
    return out


@pytest.mark.parametrize("script", CASES, ids=[c[0] for c in CASES])
def test_view_and_trigger_bodies_ignore_the_statements_ctes(script):
    assert _run(sqlengine, script) == _run(sqlite3, script)
