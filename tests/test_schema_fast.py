"""The lazily built schema: sqlengine.schema_fast recognises plain CREATE TABLE / CREATE
INDEX texts, whose tables are built on first use. Whenever it calls a text plain, the full
parser accepts it and the table (or index) builds without error, with the column names it
reported; a database opened this way shows the same schema as sqlite3 (PRAGMA table_info,
index_list, index_xinfo), behaves the same, and still reports a damaged schema at open."""

from __future__ import annotations

import os
import shutil
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sqlengine
from sqlengine.errors import Error
from sqlengine import schema as S
from sqlengine.schema_fast import plain_index, plain_table
from sqlengine.sql import parse_one

N = int(os.environ.get("HYP_EXAMPLES", "200"))
SETTINGS = settings(max_examples=N * 5, deadline=None, suppress_health_check=list(HealthCheck))

NAMES = ["t", "a", "b", "c_1", "Abc", "B", "key", "order", "rowid", "x$y", '"q"', "[br]",
         "`bt`", "primary", "unique", "not", "notes", "integer", "asc", "é", "_", "a1"]
TYPES = [None, "INTEGER", "int", "TEXT", "VARCHAR(10)", "varchar ( 10 )", "numeric(10,-5)",
         "DOUBLE PRECISION", "UNSIGNED BIG INT", "KEY", "INT KEY", "decimal(1, 2)", "x(+ 3)",
         "blob(1.5)", "t(0x10)", "Integer", "REAL", "nulls", "text(1,2,3)", "c()"]
CCONS = ["PRIMARY KEY", "primary key desc", "PRIMARY KEY ASC AUTOINCREMENT",
         "PRIMARY KEY AUTOINCREMENT", "PRIMARY KEY DESC AUTOINCREMENT", "NOT NULL", "not  null",
         "UNIQUE", "DEFAULT 1", "COLLATE nocase", "CHECK(a>0)", "NULL", "REFERENCES t(a)",
         "NOT NULL ON CONFLICT IGNORE", "CONSTRAINT c UNIQUE", "AUTOINCREMENT", "KEY"]
TCONS = ["PRIMARY KEY(a)", "PRIMARY KEY (a, b DESC)", "UNIQUE(b)", "UNIQUE (a,b)", "UNIQUE()",
         "CHECK(a)", "PRIMARY KEY(a,)", "unique(c_1 asc)", "PRIMARY KEY(zz)", "UNIQUE(a COLLATE x)"]
SPACE = st.sampled_from([" ", "  ", "\n", "\t", " \n "])
GAP = st.sampled_from(["", " ", "\n"])


@st.composite
def column(draw):
    parts = [draw(st.sampled_from(NAMES))]
    t = draw(st.sampled_from(TYPES))
    if t is not None:
        parts.append(t)
    parts += draw(st.lists(st.sampled_from(CCONS), max_size=3))
    return draw(SPACE).join(parts)


@st.composite
def create_table(draw):
    cols = draw(st.lists(column(), min_size=0, max_size=5))
    cons = draw(st.lists(st.sampled_from(TCONS), max_size=2))
    sep = "," + draw(GAP)
    body = sep.join(cols + cons)
    if draw(st.booleans()):
        body += ","
    suffix = draw(st.sampled_from(["", " WITHOUT ROWID", " without  rowid", " STRICT",
                                   " WITHOUT ROWID, STRICT", "  "]))
    name = draw(st.sampled_from(NAMES))
    return f"CREATE TABLE {name}{draw(GAP)}({draw(GAP)}{body}{draw(GAP)}){suffix}"


@st.composite
def create_index(draw):
    terms = draw(st.lists(st.tuples(st.sampled_from(NAMES),
                                    st.sampled_from(["", " ASC", " desc", " COLLATE nocase"])),
                          max_size=4))
    body = ("," + draw(GAP)).join(n + d for n, d in terms)
    unique = draw(st.sampled_from(["", "UNIQUE "]))
    where = draw(st.sampled_from(["", " WHERE a > 0"]))
    return (f"CREATE {unique}INDEX {draw(st.sampled_from(NAMES))} ON "
            f"{draw(st.sampled_from(NAMES))}{draw(GAP)}({body}){where}")


def parser_answer(sql):
    try:
        p = parse_one(sql)
    except Error as e:
        return None, str(e)
    return (p.stmt if p is not None else None), None


def check_table(sql):
    names = plain_table(sql)
    if names is None:
        return False
    ast, err = parser_answer(sql)
    assert err is None, (sql, err)
    t = S.table_from_ast(ast, 2, sql)  # raises if it would not build
    assert names == {c.name.upper() for c in t.columns}, sql
    assert len(names) == len(t.columns), sql
    return True


def check_index(sql):
    plain = plain_index(sql)
    if plain is None:
        return False
    ast, err = parser_answer(sql)
    assert err is None, (sql, err)
    assert plain[0] == ast.table.upper(), sql
    assert plain[1] == {ic.expr.name.upper() for ic in ast.columns}, sql
    cols = ", ".join(sorted(plain[1]))
    table = S.table_from_ast(parse_one(f"CREATE TABLE {ast.table}(zz, {cols})").stmt, 2, "")
    S.index_from_ast(ast, table, 3, sql)  # raises if it would not build
    return True


@SETTINGS
@given(create_table())
def test_plain_table_parses_and_builds(sql):
    check_table(sql)


@SETTINGS
@given(create_index())
def test_plain_index_parses_and_builds(sql):
    check_index(sql)


@pytest.mark.parametrize("sql", [
    "CREATE TABLE t0(a INTEGER PRIMARY KEY, b TEXT, c REAL)",
    "CREATE TABLE t(a, b)",
    "CREATE TABLE t(id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL UNIQUE)",
    "CREATE TABLE t(\n  a int,\n  b numeric(10, 2) not null,\n  c DOUBLE PRECISION\n)",
    "CREATE TABLE t(a TEXT primary key desc, b BLOB)",
    "CREATE TABLE notes(note, tables, nullable)",
])
def test_plain_tables(sql):
    assert check_table(sql)


@pytest.mark.parametrize("sql", [
    "CREATE INDEX t0_b ON t0(b)",
    "CREATE UNIQUE INDEX i ON t(a DESC, b ASC)",
    "CREATE INDEX i ON t (\n a,\n b\n)",
])
def test_plain_indexes(sql):
    assert check_index(sql)


@pytest.mark.parametrize("sql", [
    "CREATE TABLE t(a, A)",                                  # duplicate column name
    "CREATE TABLE t(a PRIMARY KEY, b PRIMARY KEY)",          # two primary keys
    "CREATE TABLE t(a int PRIMARY KEY, PRIMARY KEY(a))",
    "CREATE TABLE t(a INTEGER PRIMARY KEY AUTOINCREMENT)",
    "CREATE TABLE t(a DEFAULT 1)",
    "CREATE TABLE \"t\"(a)",
    "CREATE TABLE t(a) STRICT",
    "CREATE TABLE t(a) WITHOUT ROWID",
    "CREATE TABLE t(a, -- comment\n b)",
    "CREATE TABLE t(order)",
    "CREATE TABLE t(key)",
    "CREATE TABLE t(a KEY)",
    "CREATE TABLE t(a x$y)",
    "CREATE TABLE t(a,)",
    "CREATE TABLE t()",
    "CREATE TABLE t(a, UNIQUE(a))",
    "CREATE TABLE t(a NULL)",
    "CREATE INDEX i ON t(a) WHERE a > 0",
    "CREATE INDEX i ON t(a COLLATE nocase)",
    "CREATE INDEX i ON t(a + 1)",
    "CREATE INDEX i ON t(on)",
    "CREATE INDEX i ON t(a,)",
])
def test_other_forms_are_not_plain(sql):
    assert plain_table(sql) is None and plain_index(sql) is None


SCHEMA = [
    "CREATE TABLE t0(a INTEGER PRIMARY KEY, b TEXT, c REAL)",
    "CREATE INDEX t0_b ON t0(b)",
    "CREATE TABLE t1(id INTEGER PRIMARY KEY AUTOINCREMENT, name VARCHAR(20) NOT NULL UNIQUE, "
    "v numeric(10, 2))",
    "CREATE TABLE t2(a int, b DOUBLE PRECISION, c, PRIMARY KEY(a, b DESC)) WITHOUT ROWID",
    "CREATE TABLE t3(a TEXT UNIQUE, b BLOB, UNIQUE(a), UNIQUE(b, a))",
    "CREATE UNIQUE INDEX t3_ab ON t3(a DESC, b)",
    "CREATE TABLE t4(a INTEGER PRIMARY KEY DESC, b)",
    "CREATE TABLE t5(a int PRIMARY KEY, b int NOT NULL)",
]


def test_opened_schema_matches_sqlite3(tmp_path):
    path = str(tmp_path / "s.db")
    ref = sqlite3.connect(path)
    for sql in SCHEMA:
        ref.execute(sql)
    ref.commit()
    stored = [r[0] for r in ref.execute("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL")]
    assert sum(plain_table(s) is not None or plain_index(s) is not None for s in stored) >= 4
    ref.close()
    copy = str(tmp_path / "copy.db")
    shutil.copyfile(path, copy)
    ref = sqlite3.connect(path)
    ours = sqlengine.connect(copy)
    pragmas = []
    for t in ("t0", "t1", "t2", "t3", "t4", "t5"):
        pragmas += [f"PRAGMA table_info({t})", f"PRAGMA table_xinfo({t})"]
        if t != "t2":  # (index_list of a WITHOUT ROWID table is a gap of pragma.py)
            pragmas.append(f"PRAGMA index_list({t})")
    for (name,) in ref.execute("SELECT name FROM sqlite_schema WHERE type = 'index' "
                               "AND tbl_name != 't2'"):
        pragmas += [f"PRAGMA index_info({name})", f"PRAGMA index_xinfo({name})"]
    for q in pragmas:
        assert ours.execute(q).fetchall() == ref.execute(q).fetchall(), q
    for q in ["INSERT INTO t1(name, v) VALUES ('x', 1.5)", "INSERT INTO t3 VALUES ('a', x'01')",
              "INSERT INTO t4(b) VALUES (7)"]:
        ours.execute(q)
        ref.execute(q)
    ours.commit()
    ref.commit()
    for q in ["SELECT * FROM t1", "SELECT * FROM t3", "SELECT rowid, * FROM t4",
              "SELECT * FROM sqlite_sequence"]:
        assert ours.execute(q).fetchall() == ref.execute(q).fetchall(), q
    for q in ["INSERT INTO t1(name) VALUES ('x')", "INSERT INTO t3 VALUES ('a', x'02')"]:
        with pytest.raises(sqlengine.IntegrityError) as e:
            ours.execute(q)
        with pytest.raises(sqlite3.IntegrityError) as r:
            ref.execute(q)
        assert str(e.value) == str(r.value)
    ours.close()
    ref.close()


def _make(path, statements):
    ref = sqlite3.connect(path)
    for sql in statements:
        ref.execute(sql)
    ref.commit()
    ref.close()


def test_lazy_tables_read_every_way(tmp_path):
    path = str(tmp_path / "l.db")
    _make(path, ["CREATE TABLE a(x INTEGER PRIMARY KEY, y TEXT)", "CREATE INDEX a_y ON a(y)",
                 "CREATE TABLE b(x, y)", "CREATE TABLE c(x, y)", "CREATE INDEX c_x ON c(x)",
                 "INSERT INTO a VALUES (1, 'one')", "INSERT INTO b VALUES (2, 'two')"])
    con = sqlengine.connect(path)
    s = con._db.schema
    assert isinstance(s.tables, S.TableMap)
    assert "b" in s.tables and "zz" not in s.tables
    assert isinstance(s.tables.get("b"), S.Table)
    assert isinstance(s.indexes["c_x"], S.Index)
    assert s.tables["c"].indexes and s.tables["c"].indexes[0].name == "c_x"
    copied = dict(s.tables)
    assert all(isinstance(v, S.Table) for v in copied.values())
    assert all(isinstance(v, S.Index) for v in dict(s.indexes).values())
    assert con.execute("SELECT * FROM a WHERE y = 'one'").fetchall() == [(1, "one")]
    assert con.execute("SELECT name FROM pragma_index_list('a')").fetchall() == [("a_y",)]
    con.execute("DROP TABLE b")
    con.execute("CREATE TABLE b(z)")
    con.execute("ALTER TABLE c RENAME TO d")
    con.commit()
    assert con.execute("SELECT name, sql FROM sqlite_schema ORDER BY name").fetchall() == \
        sqlite3.connect(path).execute("SELECT name, sql FROM sqlite_schema ORDER BY name").fetchall()
    con.close()
    con = sqlengine.connect(path)
    assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert con.execute("SELECT * FROM d").fetchall() == []
    con.close()


def test_attached_database_with_lazy_tables(tmp_path):
    main, other = str(tmp_path / "m.db"), str(tmp_path / "o.db")
    _make(main, ["CREATE TABLE m(x)"])
    _make(other, ["CREATE TABLE o(x, y)", "CREATE INDEX o_x ON o(x)",
                  "INSERT INTO o VALUES (1, 2)"])
    con = sqlengine.connect(main)
    con.execute("ATTACH ? AS aux", (other,))
    assert con.execute("SELECT * FROM aux.o WHERE x = 1").fetchall() == [(1, 2)]
    assert con.execute("SELECT * FROM o").fetchall() == [(1, 2)]
    con.close()


def test_damaged_schema_still_reported_at_open(tmp_path):
    path = str(tmp_path / "d.db")
    _make(path, ["CREATE TABLE a(x)", "CREATE TABLE b(y)", "PRAGMA writable_schema = ON",
                 "UPDATE sqlite_schema SET sql = 'CREATE TABLE b(y' WHERE name = 'b'"])
    ref = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError) as r:
        ref.execute("SELECT * FROM a").fetchall()
    with pytest.raises(sqlengine.DatabaseError) as e:  # (sqlengine reads it at connect)
        sqlengine.connect(path).execute("SELECT * FROM a").fetchall()
    # (sqlite3 names the object: "malformed database schema (b) - ..."; database.py does
    # not yet, whether the schema is built lazily or not)
    assert str(r.value).startswith("malformed database schema")
    assert str(e.value).startswith("malformed database schema")


def test_scattered_rows_and_mixed_case_names(tmp_path):
    # a table's index rows after other tables' rows, names in other cases than their
    # tables': each index is still found with its table, as sqlite3 finds it
    path = str(tmp_path / "m.db")
    _make(path, ["CREATE TABLE Aa(x INTEGER PRIMARY KEY, y TEXT)", "CREATE TABLE b(x, y)",
                 "CREATE INDEX i1 ON aA(y)", "CREATE INDEX I2 ON b(x, y)",
                 "CREATE INDEX i3 ON AA(x, y)", "INSERT INTO aa VALUES (1, 'one')",
                 "INSERT INTO B VALUES (2, 'two')"])
    ours, ref = sqlengine.connect(path), sqlite3.connect(path)
    for q in ["PRAGMA index_list(aa)", "PRAGMA index_list(B)", "PRAGMA index_xinfo(i3)",
              "PRAGMA index_info(i2)", "SELECT * FROM aa WHERE y = 'one'",
              "EXPLAIN QUERY PLAN SELECT x FROM b WHERE x = 2",
              "SELECT * FROM b INDEXED BY i2 WHERE x = 2"]:
        assert ours.execute(q).fetchall() == ref.execute(q).fetchall(), q
    ours.close()
    ref.close()


def test_a_plain_table_is_one_tuple_until_used(tmp_path):
    # a cold open keeps a plain table and its indexes as the group of rows they are built
    # from, one object for the table, its indexes and the group (see schema._Deferred);
    # a DDL statement rebuilds only its own group
    path = str(tmp_path / "p.db")
    _make(path, ["CREATE TABLE a(x, y)", "CREATE INDEX a_x ON a(x)", "CREATE TABLE b(x)",
                 "CREATE INDEX b_x ON b(x)", "CREATE TABLE c(x UNIQUE)"])
    con = sqlengine.connect(path)
    s = con._db.schema
    d = dict.__getitem__(s.tables, "a")
    assert type(d) is S._Deferred and s.groups["a"] is d
    assert dict.__getitem__(s.indexes, "a_x") is d
    assert type(dict.__getitem__(s.tables, "c")) is S.Table  # (an automatic index)
    b = s.tables["b"]
    assert isinstance(b, S.Table) and [i.name for i in b.indexes] == ["b_x"]
    con.execute("CREATE INDEX a_y ON a(y)")
    s2 = con._db.schema
    assert s2 is not s and s2.tables["b"] is b and s2.tables["c"] is s.tables["c"]
    assert [i.name for i in s2.tables["a"].indexes] == ["a_x", "a_y"]
    con.close()
