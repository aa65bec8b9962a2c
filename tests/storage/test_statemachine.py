"""A hypothesis state machine: random inserts, updates, deletes, commits, rollbacks and
savepoints on a table b-tree and an index b-tree, against a dict model, with the trees
checked (integrity_check and full contents, both directions of iteration) after each step."""

import functools

import hypothesis.strategies as st
from hypothesis import settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from sqlengine.storage import Btree, KeyInfo, compare_values, decode_record, encode_record
from sqlengine.vfs import MemoryVfs

values = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
    st.text(max_size=40),
    st.binary(max_size=40),
    st.integers(min_value=1, max_value=3000).map(lambda n: "w" * n),   # overflow
)
keys = st.integers(min_value=-50, max_value=400)


def _key(t):
    return tuple(functools.cmp_to_key(compare_values)(v) for v in t)


class BtreeMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        # a named file on an in-memory VFS: the real journal code runs, and reopen() works
        self.vfs = MemoryVfs()
        self.bt = Btree.open("db", self.vfs)
        self.bt.set_page_size(512)
        self.bt.begin(True)
        self.t = self.bt.create_table(True)
        self.i = self.bt.create_table(False)
        self.bt.commit()
        self.committed = {}
        self.model = {}
        self.saves = []          # model snapshots per open savepoint
        self.ki = KeyInfo(2)
        self.parked = None       # a cursor left open while the tree changes under it
        self.parked_key = None

    def _write(self):
        if self.bt.in_trans != 2:
            self.bt.begin(True)

    def _index_delete(self, k):
        ci = self.bt.cursor(self.i, True, self.ki)
        key = (self.model[k], k)
        assert ci.seek_ge(key)
        assert ci.compare_key(key) == 0
        ci.delete()
        ci.close()

    @rule(k=keys, v=values)
    def insert(self, k, v):
        self._write()
        if k in self.model:
            self._index_delete(k)
        c = self.bt.cursor(self.t, True)
        c.insert(k, encode_record((v, k)))
        assert c.rowid == k
        c.close()
        ci = self.bt.cursor(self.i, True, self.ki)
        ci.insert(encode_record((v, k)))
        ci.close()
        self.model[k] = v

    @rule(k=keys)
    def delete(self, k):
        self._write()
        c = self.bt.cursor(self.t, True)
        r = c.seek(k)
        if k in self.model:
            assert r == 0
            c.delete()
            self._index_delete(k)
            del self.model[k]
        else:
            assert r != 0
        c.close()

    @rule(lo=keys, n=st.integers(min_value=1, max_value=60))
    def delete_range(self, lo, n):
        """Delete consecutive entries with one cursor: next() after delete() must land on the
        entry after the deleted one."""
        self._write()
        c = self.bt.cursor(self.t, True)
        ok = c.seek_ge(lo)
        expect = sorted(k for k in self.model if k >= lo)[:n]
        done = []
        while ok and len(done) < n:
            k = c.rowid
            done.append(k)
            c.delete()
            self._index_delete(k)
            del self.model[k]
            ok = c.next()
        c.close()
        assert done == expect

    @rule(k=keys)
    def park(self, k):
        if self.bt.in_trans == 0:
            self.bt.begin(False)
        if self.parked is not None:
            self.parked.close()
        self.parked = self.bt.cursor(self.t)
        ok = self.parked.seek_ge(k)
        self.parked_key = self.parked.rowid if ok else None
        later = [x for x in self.model if x >= k]
        assert self.parked_key == (min(later) if later else None)

    @precondition(lambda self: self.parked_key is not None)
    @rule()
    def parked_next(self):
        ok = self.parked.next()
        later = [x for x in self.model if x > self.parked_key]
        self.parked_key = self.parked.rowid if ok else None
        assert self.parked_key == (min(later) if later else None)

    @rule()
    def commit(self):
        self.bt.commit()
        self.committed = dict(self.model)
        self.saves = []

    @rule()
    def rollback(self):
        self.bt.rollback()
        self.model = dict(self.committed)
        self.saves = []

    @rule()
    def reopen(self):
        """Close (rolling back anything uncommitted) and open the file again."""
        if self.parked is not None:
            self.parked.close()
            self.parked = None
            self.parked_key = None
        self.bt.close()
        assert not self.vfs.exists("db-journal")
        self.bt = Btree.open("db", self.vfs)
        self.model = dict(self.committed)
        self.saves = []

    @rule()
    def savepoint(self):
        self._write()
        self.bt.savepoint_open(len(self.saves))
        self.saves.append(dict(self.model))

    @precondition(lambda self: self.saves)
    @rule(data=st.data())
    def savepoint_rollback(self, data):
        n = data.draw(st.integers(min_value=0, max_value=len(self.saves) - 1))
        self.bt.savepoint_rollback(n)
        self.model = dict(self.saves[n])
        del self.saves[n + 1:]

    @precondition(lambda self: self.saves)
    @rule(data=st.data())
    def savepoint_release(self, data):
        n = data.draw(st.integers(min_value=0, max_value=len(self.saves) - 1))
        self.bt.savepoint_release(n)
        del self.saves[n:]

    @invariant()
    def tree_matches_model(self):
        bt = self.bt
        opened = bt.in_trans == 0
        if opened:
            bt.begin(False)
        assert bt.integrity_check([1, self.t, self.i]) == ["ok"]
        c = bt.cursor(self.t)
        got = {}
        ok = c.first()
        while ok:
            v, k = decode_record(c.payload())
            assert k == c.rowid
            assert c.record() == (v, k)
            assert c.column(0) == v and c.column(1) == k and c.column(2) is None
            got[k] = v
            ok = c.next()
        assert got == self.model
        back = []
        ok = c.last()
        while ok:
            back.append(c.rowid)
            ok = c.prev()
        assert back == sorted(self.model, reverse=True)
        assert c.count() == len(self.model)
        ci = bt.cursor(self.i, False, self.ki)
        entries = []
        ok = ci.first()
        while ok:
            entries.append(decode_record(ci.key()))
            ok = ci.next()
        assert entries == sorted(((v, k) for k, v in self.model.items()), key=_key)
        assert ci.count() == len(self.model)
        c.close()
        ci.close()
        if opened:
            bt.commit()

    def teardown(self):
        self.bt.close()


BtreeMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=40, deadline=None)
TestBtreeMachine = BtreeMachine.TestCase
