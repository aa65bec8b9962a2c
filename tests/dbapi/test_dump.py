"""Connection.iterdump(): the stdlib's dump text, line for line, and dumps that reload
(like CPython's test_dump.py)."""

from __future__ import annotations

import sqlite3 as stdlib_sqlite3


def test_dump_empty(con):
    assert list(con.iterdump()) == ["BEGIN TRANSACTION;", "COMMIT;"]


def test_dump_tables_rows_and_other_objects(con):
    con.executescript("""
        create table "t two"(id integer primary key, "na""me" text, score real, data blob);
        create table a(x);
        insert into "t two" values(1, 'it''s', 1.5, x'00ff');
        insert into "t two" values(2, null, 1e100, null);
        insert into "t two" values(3, 'ünï', 0.1, x'');
        insert into a values(-7);
        create index i_score on "t two"(score);
        create view v as select x from a;
        create trigger tr after insert on a begin delete from a where x < 0; end;
    """)
    assert list(con.iterdump()) == [
        "BEGIN TRANSACTION;",
        "CREATE TABLE a(x);",
        'INSERT INTO "a" VALUES(-7);',
        'CREATE TABLE "t two"(id integer primary key, "na""me" text, score real, data blob);',
        "INSERT INTO \"t two\" VALUES(1,'it''s',1.5,X'00FF');",
        'INSERT INTO "t two" VALUES(2,NULL,1.0e+100,NULL);',
        "INSERT INTO \"t two\" VALUES(3,'ünï',0.1,X'');",
        'CREATE INDEX i_score on "t two"(score);',
        "CREATE VIEW v as select x from a;",
        "CREATE TRIGGER tr after insert on a begin delete from a where x < 0; end;",
        "COMMIT;",
    ]


def test_dump_autoincrement_sequence_last(con):
    con.executescript("""
        create table t(id integer primary key autoincrement, v);
        insert into t(v) values('a'), ('b');
    """)
    assert list(con.iterdump()) == [
        "BEGIN TRANSACTION;",
        "CREATE TABLE t(id integer primary key autoincrement, v);",
        "INSERT INTO \"t\" VALUES(1,'a');",
        "INSERT INTO \"t\" VALUES(2,'b');",
        'DELETE FROM "sqlite_sequence";',
        "INSERT INTO \"sqlite_sequence\" VALUES('t',2);",
        "COMMIT;",
    ]


def test_dump_float_precision(con):
    con.execute("create table t(r)")
    values = [1.0 / 3, 2.0 ** 0.5, 1e-300, 123456789.125, -0.0, 0.1 + 0.2, 5e-324,
              1.7976931348623157e308, 12345678901234567890.0]
    con.executemany("insert into t values(?)", [(v,) for v in values])
    lines = list(con.iterdump())[2:-1]
    assert lines == [
        'INSERT INTO "t" VALUES(3.33333333333333314829e-01);',
        'INSERT INTO "t" VALUES(1.41421356237309514547e+00);',
        'INSERT INTO "t" VALUES(1.0e-300);',
        'INSERT INTO "t" VALUES(123456789.125);',
        'INSERT INTO "t" VALUES(0.0);',
        'INSERT INTO "t" VALUES(3.00000000000000044408e-01);',
        'INSERT INTO "t" VALUES(4.94065645841247e-324);',
        'INSERT INTO "t" VALUES(1.79769313486231562234e+308);',
        'INSERT INTO "t" VALUES(1.23456789012345671677e+19);',
    ]


def test_dump_reloads(sqlite):
    source = sqlite.connect(":memory:")
    source.executescript("""
        create table t(id integer primary key, s text, r real, b blob, n);
        insert into t values(1, 'x', 0.25, x'0102', null);
        insert into t values(2, 'y''z', 1.0 / 3, x'', 5);
        create index ix on t(s);
    """)
    dump = "\n".join(source.iterdump())
    for module in (sqlite, stdlib_sqlite3):
        target = module.connect(":memory:")
        target.executescript(dump)
        assert target.execute("select * from t order by id").fetchall() == \
            source.execute("select * from t order by id").fetchall()
        assert target.execute("select name from sqlite_master where type = 'index'"
                              ).fetchall() == [("ix",)]


def test_dump_is_lazy_generator(con):
    con.execute("create table t(a)")
    dump = con.iterdump()
    assert next(dump) == "BEGIN TRANSACTION;"
