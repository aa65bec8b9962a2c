"""Backup, serialize and deserialize at the page level, against the stdlib: the progress
steps of Connection.backup(pages=...), images that open in the other module, round trips
that give back the same bytes, damaged images, and the files they must leave alone."""

from __future__ import annotations

import sqlite3 as oracle

import pytest


def _fill(con):
    con.execute("create table t(id integer primary key, v)")
    con.executemany("insert into t values(?, ?)", [(i, b"x" * 3000) for i in range(1, 6)])
    con.execute("create table gone(a)")
    con.executemany("insert into gone values(?)", [(b"y" * 2000,)] * 3)
    con.commit()
    con.execute("drop table gone")  # leaves free pages, which a page copy keeps
    con.commit()


def _progress(module, pages):
    source = module.connect(":memory:")
    _fill(source)
    target = module.connect(":memory:")
    log = []
    source.backup(target, pages=pages, progress=lambda *args: log.append(args))
    state = (target.execute("select id, length(v) from t").fetchall(),
             target.execute("pragma page_count").fetchone(),
             target.execute("pragma freelist_count").fetchone())
    return log, state


@pytest.mark.parametrize("pages", [-1, 0, 1, 2, 3, 100])
def test_backup_progress_steps(sqlite, pages):
    assert _progress(sqlite, pages) == _progress(oracle, pages)


def test_backup_progress_error_leaves_target(sqlite):
    source = sqlite.connect(":memory:")
    _fill(source)
    target = sqlite.connect(":memory:")
    target.execute("create table keep(k)")
    target.commit()

    def boom(*args):
        raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        source.backup(target, pages=1, progress=boom)
    assert target.execute("select name from sqlite_master").fetchall() == [("keep",)]


def test_backup_file_to_file(sqlite, tmp_path):
    source = sqlite.connect(tmp_path / "a.db")
    _fill(source)
    target = sqlite.connect(tmp_path / "b.db")
    target.execute("create table old(x)")
    target.commit()
    source.backup(target)
    target.close()
    source.close()
    check = oracle.connect(tmp_path / "b.db")
    assert check.execute("pragma integrity_check").fetchone() == ("ok",)
    assert check.execute("select name from sqlite_master").fetchall() == [("t",)]
    assert check.execute("select count(*) from t").fetchone() == (5,)
    check.close()


def test_serialize_round_trip(sqlite):
    source = sqlite.connect(":memory:")
    _fill(source)
    data = source.serialize()
    assert len(data) == source.execute("pragma page_count").fetchone()[0] * \
        source.execute("pragma page_size").fetchone()[0]
    target = sqlite.connect(":memory:")
    target.deserialize(data)
    assert target.serialize() == data
    assert target.execute("pragma freelist_count").fetchone() == \
        source.execute("pragma freelist_count").fetchone()


def test_deserialize_image_from_other_module(sqlite):
    other = oracle.connect(":memory:")
    _fill(other)
    con = sqlite.connect(":memory:")
    con.deserialize(other.serialize())
    assert con.execute("select id, length(v) from t order by id").fetchall() == \
        [(i, 3000) for i in range(1, 6)]
    con.execute("insert into t values(9, 'new')")
    con.commit()
    back = oracle.connect(":memory:")
    back.deserialize(con.serialize())
    assert back.execute("pragma integrity_check").fetchone() == ("ok",)
    assert back.execute("select v from t where id = 9").fetchone() == ("new",)


def test_deserialize_damaged_image(sqlite):
    con = sqlite.connect(":memory:")
    con.deserialize(b"garbage" * 100)
    assert con.execute("select 1").fetchall() == [(1,)]
    with pytest.raises(sqlite.DatabaseError, match="^file is not a database$"):
        con.execute("select * from sqlite_master").fetchall()


def test_serialize_empty_database(sqlite):
    con = sqlite.connect(":memory:")
    with pytest.raises(sqlite.OperationalError, match="^unable to serialize 'main'$"):
        con.serialize()


def test_deserialize_leaves_file_alone(sqlite, tmp_path):
    path = tmp_path / "f.db"
    con = sqlite.connect(path)
    con.execute("create table f(a)")
    con.commit()
    before = path.read_bytes()
    image = oracle.connect(":memory:")
    image.execute("create table other(b)")
    con.deserialize(image.serialize())
    con.execute("insert into other values(1)")
    con.commit()
    assert con.execute("select name from sqlite_master").fetchall() == [("other",)]
    con.close()
    assert path.read_bytes() == before
