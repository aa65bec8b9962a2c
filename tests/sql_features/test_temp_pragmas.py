"""PRAGMA temp.NAME differential against sqlite3: the temp database's own settings (its
journal mode, a temporary file's or an in-memory one's as temp_store says; the page size
a PRAGMA page_size asked for before it opened; its cache and spill sizes), before and
after it is made; and a statement prepared on a temp or attached database since closed."""

import sqlite3

import pytest

import sqlengine

SEQUENCES = [
    # journal mode: a temporary file's (any mode but WAL) or, temp_store=2, memory's
    ["PRAGMA temp.journal_mode", "PRAGMA temp.journal_mode=truncate", "PRAGMA temp.journal_mode",
     "PRAGMA temp.journal_mode=wal", "PRAGMA temp.journal_mode=bogus",
     "PRAGMA temp.journal_mode=off", "PRAGMA temp.journal_mode=persist"],
    ["PRAGMA temp_store=2", "PRAGMA temp.journal_mode"],
    ["PRAGMA temp_store=memory", "CREATE TEMP TABLE t(a)", "PRAGMA temp.journal_mode",
     "PRAGMA temp.journal_mode=delete", "PRAGMA temp.journal_mode=truncate",
     "PRAGMA temp.journal_mode=off", "PRAGMA temp.journal_mode"],
    ["PRAGMA temp_store=2", "PRAGMA temp.journal_mode=wal", "PRAGMA temp.journal_mode=persist",
     "PRAGMA temp.journal_mode=OFF", "PRAGMA temp.journal_mode=memory"],
    ["CREATE TEMP TABLE t(a)", "PRAGMA temp_store=2", "PRAGMA temp.journal_mode"],
    ["PRAGMA temp.journal_mode", "PRAGMA temp_store=2", "PRAGMA temp.journal_mode=x"],
    ["PRAGMA temp.journal_mode=off", "PRAGMA temp_store=2", "PRAGMA temp.journal_mode"],
    ["PRAGMA temp_store=2", "PRAGMA temp.journal_mode=off", "PRAGMA temp_store=0",
     "PRAGMA temp.journal_mode"],
    ["PRAGMA temp.temp_store=2", "PRAGMA temp_store", "PRAGMA temp.journal_mode"],
    # no journal mode change while the temp database has a write transaction
    ["PRAGMA temp_store=memory", "BEGIN", "CREATE TEMP TABLE t(a)",
     "PRAGMA temp.journal_mode=off", "PRAGMA temp.journal_mode", "COMMIT",
     "PRAGMA temp.journal_mode=OFF"],
    ["BEGIN", "CREATE TEMP TABLE t(a)", "PRAGMA temp.journal_mode=off",
     "PRAGMA temp.journal_mode", "PRAGMA temp.journal_mode=truncate", "COMMIT",
     "PRAGMA temp.journal_mode=Truncate"],
    ["BEGIN", "CREATE TABLE t(a)", "PRAGMA journal_mode=off", "PRAGMA journal_mode", "COMMIT",
     "PRAGMA journal_mode=OFF"],
    # page size: the last valid PRAGMA page_size of any schema, taken when temp opens
    ["PRAGMA page_size=1024", "PRAGMA temp.page_size", "PRAGMA temp.cache_spill"],
    ["PRAGMA page_size=1024", "CREATE TEMP TABLE t(a)", "PRAGMA temp.page_size",
     "PRAGMA temp.cache_spill"],
    ["PRAGMA main.page_size=2048", "PRAGMA temp.page_size"],
    ["CREATE TABLE m(a)", "PRAGMA page_size=1024", "PRAGMA page_size", "PRAGMA temp.page_size"],
    ["PRAGMA page_size=1000", "PRAGMA temp.page_size"],
    ["PRAGMA page_size=1024", "PRAGMA page_size=1000", "PRAGMA temp.page_size"],
    ["PRAGMA page_size=131072", "PRAGMA temp.page_size"],
    ["PRAGMA page_size=65536", "PRAGMA temp.page_size", "PRAGMA temp.cache_spill"],
    ["PRAGMA temp.page_size=8192", "PRAGMA temp.page_size", "PRAGMA page_size",
     "CREATE TABLE x(a)", "PRAGMA page_size"],
    ["ATTACH ':memory:' AS aux", "PRAGMA aux.page_size=512", "PRAGMA temp.page_size",
     "CREATE TEMP TABLE t(a)", "PRAGMA temp.page_size", "PRAGMA aux.page_size"],
    # cache and spill sizes (a new page cache's spill size is 1 page)
    ["PRAGMA cache_size=0", "PRAGMA cache_spill"],
    ["PRAGMA temp.cache_size=0", "PRAGMA temp.cache_spill", "PRAGMA temp.cache_size"],
    ["PRAGMA temp.cache_size=100", "PRAGMA temp.cache_size", "PRAGMA cache_size"],
    ["CREATE TEMP TABLE t(a)", "PRAGMA temp.cache_size=77", "PRAGMA temp.cache_size",
     "PRAGMA main.cache_size", "PRAGMA temp.cache_spill", "PRAGMA temp.default_cache_size"],
    ["PRAGMA temp.cache_size=-300", "PRAGMA temp.cache_spill", "PRAGMA temp.cache_spill=9",
     "PRAGMA temp.cache_spill"],
    ["PRAGMA temp.cache_size", "PRAGMA temp.schema_version", "PRAGMA temp.page_count",
     "PRAGMA temp.freelist_count", "PRAGMA temp.synchronous", "PRAGMA temp.locking_mode",
     "PRAGMA temp.secure_delete", "PRAGMA temp.max_page_count",
     "PRAGMA temp.journal_size_limit", "PRAGMA temp.user_version",
     "PRAGMA temp.application_id"],
    # a statement prepared on a database since closed is prepared again (the dbapi module's
    # statement cache runs the same text again)
    ["CREATE TEMP TABLE t(a)", "PRAGMA temp.page_size", "PRAGMA page_size=1024",
     "PRAGMA temp_store=2", "PRAGMA temp.page_size"],
    ["CREATE TEMP TABLE t(a)", "PRAGMA temp.journal_mode", "PRAGMA temp_store=2",
     "PRAGMA temp.journal_mode", "CREATE TEMP TABLE u(a)", "PRAGMA temp.journal_mode"],
    ["ATTACH ':memory:' AS aux", "PRAGMA aux.user_version=5", "PRAGMA aux.user_version",
     "DETACH aux", "ATTACH ':memory:' AS aux", "PRAGMA aux.user_version"],
    ["ATTACH ':memory:' AS aux", "PRAGMA aux.user_version", "DETACH aux",
     "PRAGMA aux.user_version"],
    ["ATTACH ':memory:' AS aux", "CREATE TABLE aux.t(a)", "DETACH aux",
     "ATTACH ':memory:' AS aux", "CREATE TABLE aux.t(a)", "SELECT * FROM aux.t"],
]


def _run(mod, stmts):
    con = mod.connect(":memory:", isolation_level=None)
    out = []
    for s in stmts:
        try:
            out.append(con.execute(s).fetchall())
        except mod.Error as e:
            out.append(("error", str(e)))
    con.close()
    return out


@pytest.mark.parametrize("stmts", SEQUENCES, ids=range(len(SEQUENCES)))
def test_temp_pragmas_match_sqlite3(stmts):
    assert _run(sqlengine, stmts) == _run(sqlite3, stmts)
