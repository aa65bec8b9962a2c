"""PRAGMA auto_vacuum answers the mode a database's header records (files made by sqlite3
with auto_vacuum FULL or INCREMENTAL, attached ones, temp, in-memory), as sqlite3 does."""

import sqlite3

import pytest

import sqlengine

QUERIES = ["PRAGMA auto_vacuum", "PRAGMA main.auto_vacuum", "PRAGMA aux.auto_vacuum",
           "PRAGMA temp.auto_vacuum", "SELECT * FROM pragma_auto_vacuum",
           "SELECT * FROM pragma_auto_vacuum('aux')", "SELECT * FROM pragma_auto_vacuum('temp')",
           "CREATE TEMP TABLE x(a)", "PRAGMA temp.auto_vacuum"]


def _make(path, mode):
    con = sqlite3.connect(path)
    if mode is not None:
        con.execute(f"PRAGMA auto_vacuum={mode}")
    con.execute("CREATE TABLE t(a)")
    con.commit()
    con.close()


def _answers(mod, main, aux):
    con = mod.connect(main, isolation_level=None)
    con.execute("ATTACH ? AS aux", (aux,))
    out = [con.execute(q).fetchall() for q in QUERIES]
    con.close()
    return out


@pytest.mark.parametrize("main_mode,aux_mode", [("full", "incremental"), (None, "full"),
                                                ("incremental", None), ("none", "none")])
def test_auto_vacuum_of_files(tmp_path, main_mode, aux_mode):
    main, aux = str(tmp_path / "main.db"), str(tmp_path / "aux.db")
    _make(main, main_mode)
    _make(aux, aux_mode)
    assert _answers(sqlengine, main, aux) == _answers(sqlite3, main, aux)


def test_auto_vacuum_of_memory():
    for mod in (sqlengine, sqlite3):
        con = mod.connect(":memory:")
        assert con.execute("PRAGMA auto_vacuum").fetchall() == [(0,)]
        assert con.execute("SELECT * FROM pragma_auto_vacuum").fetchall() == [(0,)]
