"""An index's KeyInfo (the P4 of its OpenRead/OpenWrite) is kept on the schema's Index
when every field compares BINARY: the same object for every statement on the same
schema, a new one once a schema change builds the table again, and never kept when a
field has a collation (whose function belongs to the connection and may be replaced)."""

from __future__ import annotations

import sqlite3

import sqlengine
import sqlengine.database as D
from sqlengine.compiler.statement import compile_statement
from sqlengine.sql import parse_one
from sqlengine.vdbe.opcodes import OP_OpenRead


def _key_infos(db, sql):
    prog = compile_statement(db, parse_one(sql).stmt, sql)
    return [prog.p4[i] for i in range(len(prog.opcodes))
            if prog.opcodes[i] == OP_OpenRead and not isinstance(prog.p4[i], int)]


def test_binary_key_info_shared_until_schema_change():
    db = D.Database(":memory:")
    db.execute("create table t(a, b)")
    db.execute("create index ta on t(a desc, b)")
    q = "select b from t indexed by ta where a = 1"
    (k1,) = _key_infos(db, q)
    (k2,) = _key_infos(db, q)
    assert k1 is k2
    assert k1.n_fields == 3 and k1.collations == [None, None, None]
    assert k1.desc == [True, False, False]
    db.execute("create table u(x)")  # t's rows unchanged: the same Table object kept
    (k3,) = _key_infos(db, q)
    assert k3 is k1
    db.execute("create index tb on t(b)")  # t's group changed: a new Table object
    (k3,) = _key_infos(db, q)
    assert k3 is not k1
    assert (k3.n_fields, k3.collations, k3.desc) == (k1.n_fields, k1.collations, k1.desc)


def test_collated_key_info_follows_the_connections_collation():
    db = D.Database(":memory:")
    first, second = (lambda a, b: (a > b) - (a < b)), (lambda a, b: (a < b) - (a > b))
    db.create_collation("mine", first)
    db.execute("create table t(a collate mine, b)")
    db.execute("create index ta on t(a, b collate binary)")
    q = "select b from t indexed by ta where a = 'x'"
    (k1,) = _key_infos(db, q)
    assert k1.collations[0]("a", "b") < 0 and k1.collations[1:] == [None, None]
    db.create_collation("mine", second)
    (k2,) = _key_infos(db, q)
    assert k2.collations[0]("a", "b") > 0


def test_without_rowid_key_after_add_column_matches_sqlite():
    script = [
        "create table w(a, b, c, primary key(b, a)) without rowid",
        "create index wc on w(c)",
        "insert into w values (1, 2, 'p'), (2, 1, 'q'), (3, 3, 'p')",
        "select a, b from w where c = 'p' order by a",
        "select * from w where b > 1 order by b, a",
        "alter table w add column d default 7",
        "insert into w values (4, 0, 'p', 9)",
        "select a, b, d from w where c = 'p' order by a",
        "select * from w where b < 3 order by b, a",
        "update w set d = d + 1 where c = 'p'",
        "select * from w order by b, a",
        "pragma integrity_check",
    ]
    ours, ref = sqlengine.connect(":memory:"), sqlite3.connect(":memory:")
    for sql in script:
        assert ours.execute(sql).fetchall() == ref.execute(sql).fetchall(), sql
