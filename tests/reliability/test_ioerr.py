"""I/O errors injected at the Nth file operation (tools/ioerr.py) for every N of a workload
(inserts with overflow, updates, deletes, CREATE/DROP TABLE and INDEX, an explicit
transaction, INSERT ... SELECT): the failing statement raises OperationalError('disk I/O
error'), the connection stays usable with exactly the statements that succeeded, the file
stays valid for sqlengine and sqlite3, and no file handle or descriptor is left open."""

import pytest

from tools.ioerr import count_ops, one_trial


@pytest.mark.parametrize("persistent", [False, True], ids=["once", "persistent"])
def test_error_at_every_operation(persistent):
    total = count_ops()
    assert total >= 100
    failures = [e for n in range(1, total + 2)
                if (e := one_trial(n, persistent, False)) is not None]
    assert failures == []


@pytest.mark.parametrize("persistent", [False, True], ids=["once", "persistent"])
def test_errors_over_os_files_leak_no_descriptor(tmp_path, persistent):
    total = count_ops()
    failures = [e for n in range(1, total + 2, 2)
                if (e := one_trial(n, persistent, True, str(tmp_path))) is not None]
    assert failures == []


@pytest.mark.parametrize("kind", ["write", "sync", "delete"])
def test_one_kind_failing_from_n_on(kind):
    """Only writes (a full disk), only syncs, or only deletes fail from the Nth on: the
    rollback cannot restore the file and must keep the journal for the next reader."""
    total = count_ops([kind])
    failures = [e for n in range(1, total + 2)
                if (e := one_trial(n, True, False, ops=[kind])) is not None]
    assert failures == []


@pytest.mark.parametrize("persistent", [False, True], ids=["once", "persistent"])
def test_read_errors_with_a_small_cache(persistent):
    total = count_ops(["read"], cache_size=10)
    failures = [e for n in range(1, total + 2)
                if (e := one_trial(n, persistent, False, ops=["read"], cache_size=10))
                is not None]
    assert failures == []


def test_an_injected_error_is_seen():
    """The harness is live: a sync fault on a commit surfaces as 'disk I/O error'."""
    from sqlengine import errors
    from sqlengine.database import Database
    from sqlengine.vfs import FaultVfs, MemoryVfs
    from tools.common import run

    fault = FaultVfs(base=MemoryVfs())
    db = Database("db", vfs=fault)
    run(db, "create table t(a)")
    fault.fail_at(1, persistent=True, ops=["sync"])
    with pytest.raises(errors.OperationalError, match="disk I/O error"):
        run(db, "insert into t values(1)")
    fault.clear()
    db.close()
