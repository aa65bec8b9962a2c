"""The crash model of tools/crashsim.py: what a power cut may leave on disk.

These check the simulator itself (so that a passing crash run means something): synced data
always survives, unsynced sectors take only versions they really went through, deletes are
durable, and the allowed outcomes of a crash point are the right transactions."""

import random

from tools.crashsim import SECTOR, Recording, _keep_all, allowed_states, crash_files


def _log():
    a = bytes([1]) * (3 * SECTOR)
    b = bytes([2]) * (2 * SECTOR)
    c = bytes([3]) * SECTOR
    return [("f", "create", 0, None), ("f", "write", 0, a), ("f", "sync", 0, None),
            ("f", "write", SECTOR, b), ("f", "write", 4 * SECTOR, c),
            ("j", "create", 0, None), ("j", "write", 0, c), ("j", "sync", 0, None),
            ("j", "delete", 0, None)]


def test_lost_unsynced_writes_leave_the_synced_image():
    log = _log()
    assert crash_files(log, 2, None) == {"f": bytearray()}
    assert crash_files(log, 3, None)["f"] == bytes([1]) * (3 * SECTOR)
    assert crash_files(log, 5, None)["f"] == bytes([1]) * (3 * SECTOR)
    assert crash_files(log, 8, None)["j"] == bytes([3]) * SECTOR
    assert "j" not in crash_files(log, 9, None)


def test_torn_sectors_only_take_versions_they_went_through():
    log = _log()
    seen = set()
    for seed in range(200):
        f = crash_files(log, 5, random.Random(seed))["f"]
        assert len(f) in (3 * SECTOR, 5 * SECTOR)
        sectors = tuple(f[i * SECTOR] for i in range(len(f) // SECTOR))
        assert sectors[0] == 1
        assert sectors[1] in (1, 2) and sectors[2] in (1, 2)
        if len(sectors) == 5:
            assert sectors[3] == 0 and sectors[4] in (0, 3)
        seen.add(sectors)
    # reordering: the second write's sector without the first's, and the reverse
    assert (1, 1, 1, 0, 3) in seen and (1, 2, 2, 0, 0) in seen and (1, 2, 1) in seen


def test_keep_all_is_what_the_os_saw():
    log = _log()
    live = _keep_all(log, 5)["f"]
    assert live[:SECTOR] == bytes([1]) * SECTOR
    assert live[SECTOR:3 * SECTOR] == bytes([2]) * (2 * SECTOR)
    assert live[4 * SECTOR:] == bytes([3]) * SECTOR


def test_allowed_states_are_last_committed_or_in_flight():
    rec = Recording(log=[None] * 30, commits=[0, 10, 20], states=[0, 1, 2], starts=[0, 2, 12])
    assert allowed_states(rec, 0) == [0]
    assert allowed_states(rec, 2) == [0]
    assert allowed_states(rec, 3) == [0, 1]
    assert allowed_states(rec, 10) == [1]
    assert allowed_states(rec, 13) == [1, 2]
    assert allowed_states(rec, 25) == [2]
