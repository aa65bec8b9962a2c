"""Crash simulation (tools/crashsim.py) in the regular run: 10,000 power cuts over a recorded
workload (inserts with overflow chains, updates that grow and shrink rows, deletes, index and
schema changes, DROP TABLE filling the freelist, page splits on 512-byte pages, cache spills),
each rebuilt with the unsynced writes lost, kept, or mixed and torn per 512-byte sector, then
recovered by sqlengine and checked by sqlengine's and sqlite3's integrity_check and against
the committed transactions; every 50th trial sqlite3 itself rolls back sqlengine's journal.
Then smaller runs of other workloads: one whose spills leave an empty journal segment (seed
2, with garbage in some torn sectors), and the truncate and persist journal modes.
``python -m tools.crashsim --trials N --seed S`` runs more."""

import pytest

from tools.crashsim import run_trials


def test_ten_thousand_power_cuts_keep_exactly_the_committed_transactions():
    st = run_trials(10000, seed=1, sqlite_every=50)
    assert st["trials"] == 10000
    assert st["distinct_images"] > 3000       # the trials are not all the same file
    assert st["failures"] == []


@pytest.mark.parametrize("seed, mode, garbage", [(2, "delete", 0.1), (4, "truncate", 0.0),
                                                 (6, "persist", 0.0)])
def test_more_workloads_and_journal_modes(seed, mode, garbage):
    st = run_trials(2500, seed=seed, garbage=garbage, journal_mode=mode, sqlite_every=50)
    assert st["trials"] == 2500
    assert st["failures"] == []
