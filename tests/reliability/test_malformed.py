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
