"""I/O errors injected at every read of a workload (tools/ioerr.py), once and persistently,
in memory and over real files: the statement fails with OperationalError('disk I/O error'),
the connection stays usable with exactly the statements that succeeded, the file stays valid
for sqlengine and sqlite3, and no file handle or descriptor is left open.

Faults in writes, syncs and deletes are run on demand (``python -m tools.ioerr``); they are
not in this suite while the pager does not roll a failed commit back (see the issue 11
report)."""

import pytest

from tools.ioerr import count_ops, one_trial


@pytest.mark.parametrize("persistent", [False, True], ids=["once", "persistent"])
def test_read_errors_at_every_operation(persistent):
    total = count_ops(["read"])
    assert total >= 10
    failures = [e for n in range(1, total + 2)
                if (e := one_trial(n, persistent, False, ops=["read"])) is not None]
    assert failures == []


def test_read_errors_over_os_files_leak_no_descriptor(tmp_path):
    total = count_ops(["read"])
    failures = [e for n in range(1, total + 2, 3)
                if (e := one_trial(n, True, True, str(tmp_path), ops=["read"])) is not None]
    assert failures == []


def test_an_injected_error_is_seen():
    """The harness is live: a write fault on a commit does surface as an error somewhere."""
    from sqlengine import errors
    from sqlengine.database import Database
    from sqlengine.vfs import FaultVfs, MemoryVfs
    from tools.common import run

    base = MemoryVfs()
    fault = FaultVfs(base=base)
    db = Database("db", vfs=fault)
    run(db, "create table t(a)")
    fault.fail_at(1, persistent=True, ops=["sync"])
    with pytest.raises(errors.OperationalError, match="disk I/O error"):
        run(db, "insert into t values(1)")
    fault.clear()
    db.close()
