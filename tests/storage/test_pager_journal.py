"""The rollback journal at the pager level (pages as plain byte images, no b-tree): segments
left by cache spills, stale segments of an earlier PERSIST journal, and commits or rollbacks
whose writes fail. After any crash or failure, reopening gives every page its old image or
every page its new one."""

import pytest

from sqlengine import errors
from sqlengine.storage import format as fmt
from sqlengine.storage.pager import Pager
from sqlengine.vfs import FaultVfs, MemoryVfs, OsVfs

PS = 512
NPAGES = 40


class Pg:
    """The least a pager needs of a page."""

    def __init__(self, pgno, data):
        self.pgno = pgno
        self.data = data
        self.parsed = False
        self.leaf = True

    def invalidate(self):
        pass


def _open(vfs, mode="delete"):
    p = Pager("db", vfs, Pg)
    p.set_journal_mode(mode)
    return p


def _fill(page, tag):
    body = (f"{page.pgno}:{tag};" * PS).encode()
    start = 100 if page.pgno == 1 else 0
    page.data[start:] = body[:PS - start]


def _make(vfs, mode="delete"):
    p = _open(vfs, mode)
    p.set_page_size(PS)
    p.begin_write()
    p.db_size = NPAGES
    for pgno in range(1, NPAGES + 1):
        page = p.get(pgno)
        p.write(page)
        if pgno == 1:
            page.data[:100] = fmt.new_database_header(PS)
        _fill(page, "v0")
    p.commit()
    p.close()


def _tags(vfs):
    """The set of tags the pages hold after reopening (hot journal played back)."""
    return set(_page_tags(vfs))


def _page_tags(vfs):
    """The tag of every page after reopening (hot journal played back)."""
    p = _open(vfs)
    p.begin_read()
    try:
        assert p.db_size == NPAGES
        tags = []
        for pgno in range(1, NPAGES + 1):
            d = bytes(p.get(pgno).data)
            start = 100 if pgno == 1 else 0
            tags.append(d[start:start + 40].decode().split(";")[0].split(":")[1])
        return tags
    finally:
        p.end_read()
        p.close()


def _change(p, pgnos, tag):
    for pgno in pgnos:
        page = p.get(pgno)
        p.write(page)
        _fill(page, tag)


def _all_pages(p, tag):
    _change(p, range(1, NPAGES + 1), tag)


def _with_empty_segment(p):
    """Spill, spill again with nothing newly journaled (an empty segment), then journal more
    pages, page 1 among them, in a third segment."""
    _change(p, range(2, 12), "v1")
    p._spill()
    _change(p, range(2, 12), "v1")
    p._spill()
    _change(p, range(12, NPAGES + 1), "v1")
    _change(p, [1], "v1")


def _crash_all_points(prepare, work, chooser, mode="delete", states=None):
    """Crash the transaction ``work`` at every write/sync/truncate/delete; the reopened
    pages are all of one version (or one of ``states``, lists of page tags)."""
    if states is None:
        states = [["v0"] * NPAGES, ["v1"] * NPAGES]
    n = 1
    seen = set()
    while True:
        vfs = FaultVfs(record=True)
        prepare(vfs)
        p = _open(vfs, mode)
        vfs.crash_at(n, ops=["write", "sync", "truncate", "delete"])
        try:
            p.begin_write()
            work(p)
            p.commit()
            finished = True
        except errors.OperationalError as e:
            assert "disk I/O error" in str(e)
            finished = False
        got = _page_tags(vfs.crash_image(chooser))
        assert got in states, (n, got)
        seen.add(states.index(got))
        if finished:
            break
        n += 1
        assert n < 500
    assert seen == set(range(len(states)))


@pytest.mark.parametrize("keep", ["none", "all"])
def test_playback_goes_past_an_empty_segment(keep):
    chooser = None if keep == "none" else (lambda path, i, op: True)
    _crash_all_points(_make, _with_empty_segment, chooser)


def test_stale_segments_of_a_persist_journal_are_never_played():
    """A long journal (three segments, the second one sector-aligned just after where the
    next journal's first segment ends) then a short one in PERSIST mode: a crash during the
    second transaction never plays the first one's pages back."""
    def prepare(vfs):
        _make(vfs, "persist")
        p = _open(vfs, "persist")
        p.begin_write()
        _change(p, [2, 3], "v1")
        p._spill()
        _change(p, range(4, 26), "v1")
        p._spill()
        _change(p, range(26, NPAGES + 1), "v1")
        _change(p, [1], "v1")
        p.commit()
        p.close()
        vfs.durable.update({k: bytes(v) for k, v in vfs.base.files.items()})
        vfs.unsynced.clear()

    def work(p):
        _change(p, [1, 5], "v2")

    after = ["v1"] * NPAGES
    after[0] = after[4] = "v2"
    _crash_all_points(prepare, work, lambda path, i, op: True, "persist",
                      states=[["v1"] * NPAGES, after])


@pytest.mark.parametrize("n", range(1, 12))
def test_failed_rollback_keeps_the_journal(n):
    """Every write fails from the nth on: the rollback cannot restore the file, so the
    journal stays hot and the next reader restores it."""
    base = MemoryVfs()
    _make(base)
    f = FaultVfs(base=base)
    p = _open(f)
    p.begin_write()
    _all_pages(p, "v1")
    f.fail_at(n, persistent=True, ops=["write"])
    try:
        p.commit()
    except errors.OperationalError:
        try:
            p.rollback()
        except errors.OperationalError:
            pass
    f.clear()
    p.close()
    assert _tags(base) in ({"v0"}, {"v1"})
    if n <= NPAGES:            # a write of the commit failed: the commit did not happen
        assert _tags(base) == {"v0"}


@pytest.mark.parametrize("kind", ["memory", "os"])
def test_failed_journal_delete_rolls_the_commit_back(tmp_path, monkeypatch, kind):
    """The commit reports 'disk I/O error' when the journal cannot be deleted; the
    transaction is then rolled back (as SQLite's next reader would do with the hot
    journal), never half reported as failed and kept."""
    if kind == "os":
        monkeypatch.chdir(tmp_path)
    base = MemoryVfs() if kind == "memory" else OsVfs()
    _make(base)
    f = FaultVfs(base=base)
    p = _open(f)
    p.begin_write()
    _change(p, [1, 5], "v1")
    f.fail_at(1, ops=["delete"])
    with pytest.raises(errors.OperationalError, match="disk I/O error"):
        p.commit()
    p.rollback()
    p.close()
    assert _tags(base) == {"v0"}
    assert not base.exists("db-journal")


def test_journal_checksum_is_sqlites():
    """pager_cksum: the nonce plus the bytes at page_size-200, page_size-400, ... (> 0)."""
    import os as _os

    from sqlengine.storage.pager import _checksum

    for ps in (512, 1024, 4096, 65536):
        data = bytearray(_os.urandom(ps))
        for nonce in (0, 7, 0xFFFFFFFF):
            want, i = nonce, ps - 200
            while i > 0:
                want += data[i]
                i -= 200
            assert _checksum(nonce, data, ps) == want & 0xFFFFFFFF
            assert _checksum(nonce, bytes(data), ps) == want & 0xFFFFFFFF
