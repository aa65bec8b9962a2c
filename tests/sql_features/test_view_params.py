"""CREATE VIEW refuses a parameter anywhere in its text (``parameters are not allowed in
views``), whichever way it is written, and accepts the characters that begin one inside a
string, a comment or a quoted name, as sqlite3 does (compiler/ddl.py tokenizes the text
only when such a character is in it)."""

import sqlite3

import pytest

import sqlengine

VIEWS = [
    "CREATE VIEW v AS SELECT ?",
    "CREATE VIEW v AS SELECT ?1 + 2",
    "CREATE VIEW v AS SELECT :a",
    "CREATE VIEW v AS SELECT @a",
    "CREATE VIEW v AS SELECT $a",
    "CREATE VIEW v AS SELECT #a",
    "CREATE VIEW v AS SELECT x FROM t WHERE x > ?",
    "CREATE VIEW v AS SELECT 'a?b:c@d$e#f'",
    "CREATE VIEW v AS SELECT 1 /* ? :a */",
    "CREATE VIEW v AS SELECT 1 -- $a",
    'CREATE VIEW v("x?", [y:]) AS SELECT 1, 2',
    "CREATE VIEW v AS SELECT x FROM t WHERE x > 1",
    "CREATE VIEW v AS SELECT a$b FROM (SELECT 1 AS a$b)",
]


@pytest.mark.parametrize("sql", VIEWS)
def test_view_parameters_as_sqlite3(sql):
    got = []
    for mod in (sqlite3, sqlengine):
        con = mod.connect(":memory:")
        con.execute("CREATE TABLE t(x)")
        try:
            con.execute(sql)
            got.append(("ok", con.execute("SELECT * FROM v").fetchall()))
        except mod.Error as e:
            got.append((type(e).__name__, str(e)))
        con.close()
    assert got[1] == got[0]
