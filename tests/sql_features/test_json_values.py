"""JSON text reaches the application as plain ``str`` wherever it leaves the engine: result
rows, ``sqlite3.Row``, user function and aggregate arguments, collation arguments."""

import sqlite3

import sqlengine


def _run(module):
    c = module.connect(":memory:")
    seen = []
    c.create_function("kind", 1, lambda v: (seen.append(type(v).__name__), 1)[1])

    class Agg:
        def step(self, v):
            seen.append(type(v).__name__)

        def finalize(self):
            return 0
    c.create_aggregate("agg", 1, Agg)
    c.create_collation("coll", lambda a, b: (seen.append((type(a).__name__,
                                                          type(b).__name__)), 0)[1])
    out = []
    out.append(c.execute("SELECT json('[1]'), json_array(1, 2), '[1]' -> '$', kind(json('{}'))"
                         ).fetchall())
    out.append(c.execute("SELECT agg(json_object('a', 1))").fetchall())
    c.execute("CREATE TABLE t(j)")
    c.execute("INSERT INTO t VALUES (json('[2]')), (json('[1]'))")
    out.append(c.execute("SELECT j FROM t ORDER BY json(j) COLLATE coll").fetchall())
    c.row_factory = module.Row
    r = c.execute("SELECT json_group_array(j) AS g FROM t").fetchone()
    out.append((type(r["g"]).__name__, r["g"]))
    c.close()
    types = [[tuple(type(v).__name__ for v in row) for row in rows]
             for rows in out[:3]]
    return out, types, seen


def test_json_text_leaves_as_plain_str():
    assert _run(sqlengine) == _run(sqlite3)
