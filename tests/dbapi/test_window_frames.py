"""Window frames through the module, checked row for row against the stdlib sqlite3: every
frame shape (ROWS, GROUPS, RANGE with offsets, EXCLUDE, FILTER, PARTITION BY) for the
built-in aggregates driven by step/inverse/value, and for a user window function whose
calls are logged, so that the order SQLite drives step(), inverse(), value() and
finalize() in is checked, not only the results."""

from __future__ import annotations

import random
import sqlite3

import pytest

import sqlengine

BOUNDS = ["UNBOUNDED PRECEDING", "2 PRECEDING", "1 PRECEDING", "CURRENT ROW", "1 FOLLOWING",
          "2 FOLLOWING", "UNBOUNDED FOLLOWING"]


def _frames():
    out = [""]
    for units in ("ROWS", "GROUPS", "RANGE"):
        for i, start in enumerate(BOUNDS[:-1]):
            for end in BOUNDS[max(i, 1):]:
                out.append(f"{units} BETWEEN {start} AND {end}")
    return out


def _table(con, seed):
    rnd = random.Random(seed)
    con.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, p, o, v)")
    values = [None, 0, 1, 2, 2.5, -3, "a", "b", "10", b"\x01"]
    rows = [(k, rnd.choice("xy"), rnd.choice([None, 1, 2, 2, 3, 5, 7, 8.5]),
             rnd.choice(values)) for k in range(1, 14)]
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", rows)


def _both(sql):
    results = []
    for module in (sqlite3, sqlengine):
        con = module.connect(":memory:")
        _table(con, 7)
        try:
            results.append(con.execute(sql).fetchall())
        except module.Error as exc:
            results.append((type(exc).__name__, str(exc)))
        con.close()
    return results


@pytest.mark.parametrize("frame", _frames())
def test_builtin_aggregates_over_every_frame(frame):
    window = f"(PARTITION BY p ORDER BY o, id {frame})" if not frame.startswith("RANGE") \
        else f"(PARTITION BY p ORDER BY o {frame})"
    calls = ", ".join(f"{f} OVER {window}" for f in (
        "count(*)", "count(v)", "sum(o)", "total(v)", "avg(o)", "min(v)", "max(v)",
        "group_concat(v, '-')", "sum(o) FILTER (WHERE id % 3 <> 0)", "first_value(v)",
        "last_value(v)", "nth_value(v, 2)"))
    ours, theirs = _both(f"SELECT id, {calls} FROM t ORDER BY id")[::-1]
    assert ours == theirs


@pytest.mark.parametrize("exclude", ["NO OTHERS", "CURRENT ROW", "GROUP", "TIES"])
@pytest.mark.parametrize("units", ["ROWS", "GROUPS", "RANGE"])
def test_exclude(units, exclude):
    window = f"(ORDER BY o {units} BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE {exclude})"
    calls = ", ".join(f"{f} OVER {window}" for f in (
        "count(*)", "sum(o)", "group_concat(id)", "max(v)", "first_value(id)"))
    ours, theirs = _both(f"SELECT id, {calls} FROM t ORDER BY id")[::-1]
    assert ours == theirs


@pytest.mark.parametrize("order", ["o", "o DESC", "o NULLS LAST", "v", "v DESC NULLS FIRST"])
def test_range_offsets_over_mixed_types(order):
    # numbers move by the offset; text and blobs bound at their own value; NULLs are peers
    window = f"(ORDER BY {order} RANGE BETWEEN 1 PRECEDING AND 2 FOLLOWING)"
    ours, theirs = _both(f"SELECT id, count(*) OVER {window}, group_concat(id) OVER {window} "
                         "FROM t ORDER BY id")[::-1]
    assert ours == theirs


def _logged(module, sql):
    log = []

    class Logged:
        def __init__(self):
            self.total = 0
            log.append("init")

        def step(self, x):
            self.total += x
            log.append(("step", x))

        def inverse(self, x):
            self.total -= x
            log.append(("inverse", x))

        def value(self):
            log.append("value")
            return self.total

        def finalize(self):
            log.append("finalize")
            return self.total

    con = module.connect(":memory:")
    con.create_window_function("w", 1, Logged)
    con.execute("CREATE TABLE t(x, g)")
    con.executemany("INSERT INTO t VALUES (?, ?)", [(k, k // 3) for k in range(1, 8)])
    rows = con.execute(sql).fetchall()
    con.close()
    return rows, log


@pytest.mark.parametrize("window", [
    "ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING",
    "ORDER BY x ROWS BETWEEN 2 PRECEDING AND CURRENT ROW",
    "ORDER BY x ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
    "ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING",
    "ORDER BY x",
    "ORDER BY g",
    "",
    "PARTITION BY g",
    "PARTITION BY x % 2 ORDER BY x ROWS 1 PRECEDING",
    "ORDER BY g RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING",
    "ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW",
    "ORDER BY g RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
    "ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW",
    "ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE NO OTHERS",
    "ORDER BY g RANGE BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE TIES",
])
def test_user_window_function_calls_as_sqlite(window):
    sql = f"SELECT x, w(x) OVER ({window}) FROM t ORDER BY x"
    assert _logged(sqlengine, sql) == _logged(sqlite3, sql)


def test_user_window_function_filter_calls_as_sqlite():
    sql = "SELECT x, w(x) FILTER (WHERE x <> 3) OVER (ORDER BY x ROWS 1 PRECEDING) FROM t"
    assert _logged(sqlengine, sql) == _logged(sqlite3, sql)


def test_user_window_function_value_before_any_row_is_null():
    # (the stdlib module crashes here: value() on an aggregate that never stepped)
    rows, log = _logged(sqlengine, "SELECT x, w(x) OVER (ORDER BY x ROWS BETWEEN 2 PRECEDING "
                                   "AND 1 PRECEDING) FROM t ORDER BY x")
    assert rows[:3] == [(1, None), (2, 1), (3, 3)]
    assert log[:3] == ["init", ("step", 1), "value"]


@pytest.mark.parametrize("window", ["ROWS 5 PRECEDING", "", "ROWS BETWEEN 1 FOLLOWING AND 3 "
                                    "FOLLOWING", "GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING"])
def test_min_max_under_a_collation(window):
    # min()/max() compare under the argument's collation; over a frame that does not start
    # at UNBOUNDED PRECEDING, of equal values the later row wins (SQLite's index of the
    # frame), otherwise the first
    results = []
    for module in (sqlite3, sqlengine):
        con = module.connect(":memory:")
        con.execute("CREATE TABLE t(id, x, y TEXT COLLATE NOCASE)")
        con.executemany("INSERT INTO t VALUES (?, ?, ?)", [
            (1, "a", "b"), (2, "A", "B"), (3, "b", "a"), (4, "B", "A"), (5, None, None)])
        over = f"OVER (ORDER BY id {window})"
        results.append(con.execute(
            f"SELECT id, max(x COLLATE NOCASE) {over}, min(x COLLATE NOCASE) {over}, "
            f"max(y) {over}, min(y) {over}, max(x) {over} FROM t ORDER BY id").fetchall())
        con.close()
    assert results[1] == results[0]


def test_window_over_more_rows_than_the_memory_budget():
    # a few MB of rows: the VM may keep its transient table in a temporary b-tree; the
    # window values are computed over all of it and read back in the window's order
    results = []
    for module in (sqlite3, sqlengine):
        con = module.connect(":memory:")
        con.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, p, v, pad)")
        con.executemany("INSERT INTO t(p, v, pad) VALUES (?, ?, ?)",
                        [(k % 5, (k * 37) % 101, "x" * 80) for k in range(30000)])
        results.append(con.execute(
            "SELECT id, pad = 'x' || substr(pad, 2), sum(v) OVER w, count(*) OVER w, "
            "row_number() OVER (ORDER BY v, id) FROM t "
            "WINDOW w AS (PARTITION BY p ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING)"
        ).fetchall())
        con.close()
    assert results[1] == results[0]


@pytest.mark.parametrize("calls", [
    "row_number() OVER (ORDER BY v DESC), row_number() OVER (ORDER BY v)",
    "row_number() OVER (ORDER BY v), sum(v) OVER w, count(*) OVER w",
    "sum(v) OVER w, row_number() OVER (ORDER BY v), count(*) OVER w",
    "rank() OVER (ORDER BY g), row_number() OVER (ORDER BY v DESC), sum(v) OVER (PARTITION BY g)",
    "rank() OVER (PARTITION BY g), row_number() OVER (ORDER BY id DESC)",
    "sum(v) OVER (), row_number() OVER (ORDER BY v DESC)",
])
def test_rows_come_in_the_first_windows_order(calls):
    # without ORDER BY, SQLite returns the rows as its last pass (the first window) sorted
    # them, peers in the order the pass before left them
    results = []
    for module in (sqlite3, sqlengine):
        con = module.connect(":memory:")
        con.execute("CREATE TABLE t(id, v, g)")
        con.executemany("INSERT INTO t VALUES (?, ?, ?)",
                        [(1, 3, 1), (2, 1, 2), (3, 2, 1), (4, 5, 2), (5, 4, 1), (6, 4, 2)])
        results.append(con.execute(
            f"SELECT id, {calls} FROM t WINDOW w AS (ORDER BY id DESC)").fetchall())
        con.close()
    assert results[1] == results[0]


WINDOWS = ["(ORDER BY v)", "(ORDER BY v DESC)", "(PARTITION BY g)", "(PARTITION BY g ORDER BY v)",
           "()", "(ORDER BY id DESC)", "(ORDER BY g ROWS 1 PRECEDING)",
           "(ORDER BY v RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)", "w",
           "(w ROWS 1 PRECEDING)"]
CALLS = ["row_number()", "rank()", "dense_rank()", "sum(v)", "count(*)", "first_value(id)",
         "lag(id)", "ntile(2)", "percent_rank()", "cume_dist()", "lead(id)", "max(v)"]


@pytest.mark.parametrize("seed", range(8))
def test_several_windows_values_and_row_order(seed):
    # calls over windows that SQLite computes in one pass (same PARTITION BY, ORDER BY and
    # frame, ranking functions' frames as SQLite fixes them) and over others: the values
    # (peers ordered as the previous pass left them) and the order of the rows
    rnd = random.Random(seed)
    for _ in range(20):
        calls = ", ".join(f"{rnd.choice(CALLS)} OVER {rnd.choice(WINDOWS)}"
                          for _ in range(rnd.randint(1, 4)))
        sql = f"SELECT id, {calls} FROM t WINDOW w AS (ORDER BY g, v)"
        results = []
        for module in (sqlite3, sqlengine):
            con = module.connect(":memory:")
            con.execute("CREATE TABLE t(id, v, g)")
            con.executemany("INSERT INTO t VALUES (?, ?, ?)",
                            [(k, random.Random(k).randint(1, 4), k % 3) for k in range(1, 9)])
            results.append(con.execute(sql).fetchall())
            con.close()
        assert results[1] == results[0], sql


@pytest.mark.parametrize("units", ["ROWS", "GROUPS", "RANGE"])
def test_random_frames(units):
    # frames in every shape, empty ones included (a start after the end), over mixed types
    # with FILTER and EXCLUDE; a frame SQLite refuses gives its error
    rnd = random.Random(units)
    values = [None, 0, 1, 2, 2.5, -3, 3, 7, "a", "b", "B", b"\x01", 10]
    for _ in range(60):
        data = [(k, rnd.choice(values), rnd.randint(0, 2)) for k in range(1, rnd.randint(2, 12))]
        start = rnd.choice(["UNBOUNDED PRECEDING", "2 PRECEDING", "0 PRECEDING", "CURRENT ROW",
                            "1 FOLLOWING", "3 FOLLOWING"])
        end = rnd.choice(["UNBOUNDED FOLLOWING", "2 FOLLOWING", "0 FOLLOWING", "CURRENT ROW",
                          "1 PRECEDING", "3 PRECEDING"])
        order = rnd.choice(["v", "v DESC", "v NULLS LAST", "v DESC NULLS FIRST", "v, id"])
        if units == "RANGE":
            order = order.replace(", id", "")
        exclude = rnd.choice(["", " EXCLUDE CURRENT ROW", " EXCLUDE TIES", " EXCLUDE GROUP"])
        sql = (f"SELECT id, count(*) OVER w, group_concat(id) OVER w, max(v) OVER w, "
               f"count(*) FILTER (WHERE id % 3 <> 1) OVER w, min(v) OVER w FROM t "
               f"WINDOW w AS (PARTITION BY p ORDER BY {order} {units} BETWEEN {start} AND "
               f"{end}{exclude}) ORDER BY id")
        results = []
        for module in (sqlite3, sqlengine):
            con = module.connect(":memory:")
            con.execute("CREATE TABLE t(id, v, p)")
            con.executemany("INSERT INTO t VALUES (?, ?, ?)", data)
            try:
                results.append(con.execute(sql).fetchall())
            except module.Error as exc:
                results.append((type(exc).__name__, str(exc)))
            con.close()
        assert results[1] == results[0], (sql, data)
