"""Malformed files (tools/malformed.py): a few hundred mutations of a valid file (header
fields, page types, cell pointers and counts, varints, overflow, freelist pointers and
cycles, truncation, zeroed pages, bit flips), each opened and queried by sqlengine in a
child process: every query gives rows (sqlite3's, or the undamaged file's) or a
DatabaseError — never another exception type and never a dead child. The watchdog here is
only a guard against an endless run (its 2 s form is the on-demand tool's,
``python -m tools.malformed --trials 10000``)."""

import random

from tools.malformed import QUERIES, judge, mutate, run_trials


def test_mutated_files_give_database_error_or_rows():
    st = run_trials(150, seed=11, hang=300.0)
    assert st["trials"] == 150
    assert st["failures"] == []
    assert st["hangs"] == 0 and st["crashes"] == 0
    # the mutations do damage: many files are refused, many are still readable
    assert st["dberror"] > 20 and st["answered"] > 20


def test_judge_rejects_a_foreign_exception_and_wrong_rows():
    n = len(QUERIES)
    theirs = [["rows", [[1]]]] * n
    assert judge([["rows", [[1]]]] * n, theirs) is None
    assert judge([["dberror", "database disk image is malformed"]] * n, theirs) is None
    bad = [["rows", [[1]]]] * (n - 1) + [["other", "IndexError: x"]]
    assert "IndexError" in judge(bad, theirs)
    wrong = [["rows", [[1]]], ["rows", [[2]]]] + [["rows", [[1]]]] * (n - 2)
    assert judge(wrong, theirs).startswith("divergent")


def test_mutations_change_the_file():
    from tools.malformed import make_base
    import os
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "b.db")
        make_base(p)
        base = open(p, "rb").read()
    rng = random.Random(3)
    kinds = set()
    changed = 0
    for _ in range(300):
        data, what = mutate(base, rng)
        changed += data != base        # a few rewrite a field with the value it had
        kinds.add(what.split(":")[0])
    assert changed >= 270
    assert len(kinds) >= 12


def test_divergent_files_are_grouped_by_cause():
    from tools.malformed import CATEGORIES, divergence_category
    ok = ["rows", [["ok"]]]
    bad = ["rows", [["row 3 missing from index t1b"]]]
    err = ["error", "DatabaseError: database disk image is malformed"]
    assert divergence_category({"error": "divergent: 'select count(*) from t1'",
                                "ours": [ok], "theirs": [err]}) == "count-via-index"
    assert divergence_category({"error": "divergent: 'select * from t1'",
                                "ours": [ok], "theirs": [bad]}) == "index-not-checked"
    assert divergence_category({"error": "divergent: 'select * from t1'",
                                "ours": [bad], "theirs": [err]}) == "both-see-damage"
    assert divergence_category({"error": "divergent: 'select * from t1'",
                                "ours": [ok], "theirs": [ok]}) == "other"
    assert set(CATEGORIES) == {"count-via-index", "index-not-checked", "both-see-damage",
                               "other"}


def test_count_rejects_a_child_page_without_cells(tmp_path):
    """count(*) over a table whose non-root leaf lost its cells (cell count 0) is corrupt,
    as sqlite3 finds when it counts the table itself; like sqlite3, sqlengine answers a
    plain count(*) from the smallest index, so the table is counted with NOT INDEXED."""
    import sqlite3

    import sqlengine
    from sqlengine import errors
    from tools.malformed import _btree_pages, make_base

    path = str(tmp_path / "b.db")
    make_base(path)
    data = bytearray(open(path, "rb").read())
    ps = 512
    root = sqlite3.connect(path).execute(
        "SELECT rootpage FROM sqlite_master WHERE name = 't1'").fetchone()[0]
    leaves = [p for p in _btree_pages(data, ps, len(data) // ps)
              if p != root and data[(p - 1) * ps] == 13]
    # the first table leaf of t1 (reached from its root's first child)
    r = (root - 1) * ps
    first = int.from_bytes(data[r + int.from_bytes(data[r + 12:r + 14], "big"):][:4], "big")
    assert first in leaves
    off = (first - 1) * ps
    data[off + 3:off + 5] = b"\0\0"
    with open(path, "wb") as f:
        f.write(data)
    con = sqlite3.connect(path)
    try:
        con.execute("SELECT count(*) FROM t1 NOT INDEXED").fetchall()
        raise AssertionError("sqlite3 counted the damaged table")
    except sqlite3.DatabaseError as e:
        assert "malformed" in str(e)
    finally:
        con.close()
    con = sqlengine.connect(path)
    try:
        con.execute("SELECT count(*) FROM t1 NOT INDEXED").fetchall()
        raise AssertionError("sqlengine counted the damaged table")
    except errors.DatabaseError as e:
        assert "malformed" in str(e)
    finally:
        con.close()
    # without NOT INDEXED both engines count through t1's smallest index, which is intact
    ref = sqlite3.connect(path)
    con = sqlengine.connect(path)
    try:
        assert con.execute("SELECT count(*) FROM t1").fetchall() == \
            ref.execute("SELECT count(*) FROM t1").fetchall()
    finally:
        con.close()
        ref.close()
