"""Column affinity applied on insert and in comparisons (apply_affinity and
compare_with_affinity read the affinity letter as a C character): every value kind
against every affinity, compared with the stdlib sqlite3."""

import sqlite3

import sqlengine

VALUES = [1, -7, 1.0, 1.5, 1e20, "1", "1.0", " 1 ", "1e3", "0x10", "x", "", b"1", None,
          True, 2**63 - 1, "9223372036854775808", "-0", 3.0e-5]
TYPES = ["integer", "real", "numeric", "text", "blob", "", "int", "varchar(3)", "double"]


def _run(mod):
    con = mod.connect(":memory:")
    cols = ", ".join(f"c{i} {t}" for i, t in enumerate(TYPES))
    con.execute(f"create table t(k integer primary key, {cols})")
    marks = ", ".join("?" for _ in TYPES)
    for k, v in enumerate(VALUES):
        con.execute(f"insert into t values ({k}, {marks})", (v,) * len(TYPES))
    out = [con.execute("select * from t order by k").fetchall()]
    out.append(con.execute("select " + ", ".join(f"typeof(c{i})" for i in range(len(TYPES)))
                           + " from t order by k").fetchall())
    for i in range(len(TYPES)):
        for v in VALUES:
            out.append(con.execute(f"select k from t where c{i} = ? order by k", (v,)).fetchall())
            out.append(con.execute(f"select k from t where c{i} < ? order by k", (v,)).fetchall())
    out.append(con.execute("select cast('12' as integer) = c0, '1' = c3, c2 > '0' "
                           "from t order by k").fetchall())
    return out


def test_affinity_matches_sqlite3():
    assert _run(sqlengine) == _run(sqlite3)
