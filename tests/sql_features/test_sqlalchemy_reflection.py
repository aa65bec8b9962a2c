"""SQLAlchemy's schema reflection gives the same answers on sqlengine as on sqlite3, for a
schema with every constraint kind (PRIMARY KEY, AUTOINCREMENT, NOT NULL, UNIQUE, CHECK,
DEFAULT, COLLATE, FOREIGN KEY with actions and deferral, partial, expression and DESC indexes,
WITHOUT ROWID, STRICT, generated columns, views)."""

import sqlite3

import pytest

import sqlengine

sqlalchemy = pytest.importorskip("sqlalchemy")

SCHEMA = [
    "CREATE TABLE parent(id INTEGER PRIMARY KEY AUTOINCREMENT, code VARCHAR(10) NOT NULL "
    "UNIQUE, name TEXT COLLATE NOCASE DEFAULT 'anon', score REAL CHECK (score >= 0), "
    "created TEXT DEFAULT CURRENT_TIMESTAMP, ratio NUMERIC(10, 2) DEFAULT (1.5 * 2))",
    "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES "
    "parent(id) ON DELETE CASCADE ON UPDATE SET NULL, code VARCHAR(10), qty INT DEFAULT 0 "
    "CONSTRAINT qty_pos CHECK (qty >= 0), CONSTRAINT fk_code FOREIGN KEY (code) REFERENCES "
    "parent(code) DEFERRABLE INITIALLY DEFERRED, CONSTRAINT uq_pq UNIQUE (parent_id, qty))",
    "CREATE TABLE multi(a INT, b TEXT, c BLOB, PRIMARY KEY (a, b)) WITHOUT ROWID",
    "CREATE TABLE grand(g INTEGER PRIMARY KEY, ma INT, mb TEXT, note TEXT NOT NULL DEFAULT '', "
    "FOREIGN KEY (ma, mb) REFERENCES multi(a, b) ON DELETE SET DEFAULT ON UPDATE RESTRICT)",
    "CREATE TABLE st(x INTEGER, y TEXT, z ANY) STRICT",
    "CREATE TABLE gen(a INT, b INT GENERATED ALWAYS AS (a * 2) VIRTUAL, c AS (a + 1) STORED)",
    "CREATE INDEX ix_child_qty ON child(qty DESC)",
    "CREATE INDEX ix_child_multi ON child(parent_id, code COLLATE NOCASE)",
    "CREATE UNIQUE INDEX ux_child_code ON child(code) WHERE code IS NOT NULL",
    "CREATE INDEX ix_gen_expr ON gen(lower(c), a + b DESC, b)",
    "CREATE VIEW v AS SELECT id, code FROM parent",
]


def _plain(x):
    """Reflection results with SQL text objects turned into their text."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, (str, int, float, bool)) or x is None:
        return x
    return str(x)


def reflect(module):
    from sqlalchemy import MetaData, create_engine, inspect
    eng = create_engine("sqlite://", module=module)
    out = {}
    with eng.begin() as conn:
        for s in SCHEMA:
            conn.exec_driver_sql(s)
    insp = inspect(eng)
    out["tables"] = insp.get_table_names()
    out["views"] = insp.get_view_names()
    out["view_def"] = insp.get_view_definition("v")
    for t in out["tables"]:
        out[t] = dict(cols=insp.get_columns(t), pk=insp.get_pk_constraint(t),
                      fks=insp.get_foreign_keys(t), idx=insp.get_indexes(t),
                      uq=insp.get_unique_constraints(t), ck=insp.get_check_constraints(t),
                      opts=insp.get_table_options(t))
    md = MetaData()
    md.reflect(eng, views=True)
    out["metadata"] = sorted(
        (t.name, [(c.name, str(c.type), c.nullable, c.primary_key, str(getattr(c.server_default, "arg", getattr(c.server_default, "sqltext", "")))
                   if c.server_default is not None else None) for c in t.columns],
         sorted(str(fk.target_fullname) for fk in t.foreign_keys),
         sorted(i.name for i in t.indexes))
        for t in md.sorted_tables)
    eng.dispose()
    return _plain(out)


def test_reflection_matches_sqlite3():
    expected = reflect(sqlite3)
    got = reflect(sqlengine)
    assert set(expected) == set(got)
    for key in expected:
        assert got[key] == expected[key], key


def test_reflection_sees_every_table():
    got = reflect(sqlengine)
    assert got["tables"] == ["child", "gen", "grand", "multi", "parent", "st"]
    assert got["views"] == ["v"]
    assert [f["referred_table"] for f in got["child"]["fks"]] == ["parent", "parent"]
