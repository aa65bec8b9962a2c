"""Malformed database files: mutate a valid file (header fields, page types, cell pointers,
varints, overflow and freelist pointers with cycles, truncation, zeroed pages, byte flips)
and check that sqlengine answers every query with a ``DatabaseError`` (any subclass) or the
right rows — never a crash, a hang, or another exception type.

The right rows are the stdlib sqlite3's on the same mutated file: when both engines answer a
query without error the rows must be equal; when sqlite3 raises, any sqlengine answer that is
rows or a DatabaseError is accepted (the file is damaged in a way SQLite also sees).

"Divergent" files (both engines answer a query, with different rows, neither being the
undamaged file's) are reported apart, grouped by cause (``divergence_category``):

* count-via-index: ``count(*)`` differs. sqlite3 counts the smallest index (t1b), sqlengine
  the table's b-tree; a damaged table page changes one count and not the other. sqlite3's
  ``count(*) ... NOT INDEXED`` gives sqlengine's answer (or fails, for a child page left
  without cells, as sqlengine's count does), and both integrity_checks report the damage
  ("wrong # of entries in index t1b"): a choice of access path, not a wrong answer.
* index-not-checked: sqlengine's integrity_check says "ok" where sqlite3's reports "row N
  missing from index" / "wrong # of entries". Was 19 of 10,000 files; none since
  integrity_check compares index entries with table rows (database.py). Kept so that a
  regression shows.
* both-see-damage: both engines' integrity_check report the damage; each returns what its
  access path reads from the damaged structure (a cell pointer, a right-child or overflow
  pointer, a varint): garbage in, different garbage out, as between SQLite versions.
* other: anything else, to be looked at.

Each batch of trials runs in one child process (``python -m tools.malformed --child``) that
reads file paths on stdin and writes a JSON line per file. The parent is the watchdog: a
trial that does not answer within ``--hang`` seconds is a hang (the child is killed and
restarted), a child that dies is a crash.

Never edits the engine. CLI: ``python -m tools.malformed --trials 10000 --seed 1``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

QUERIES = [
    "pragma integrity_check",
    "select * from t1 order by rowid",
    "select count(*) from t1",
    "select a, b from t1 where b >= 'k' order by b",
    "select * from t2 order by rowid",
    "select y from t2 where y between 10 and 30",
    "select name, sql from sqlite_master order by name",
    "select length(c) from t1 where a = 3",
    "insert into t1(b, c) values('zz', zeroblob(700))",
    "delete from t1 where a % 7 = 0",
    "update t2 set z = z || 'q' where y < 20",
    "pragma integrity_check",
]
WRITES = {8, 9, 10}


def make_base(path: str, seed: int = 0) -> None:
    """A valid file with 512-byte pages: two tables, indexes, overflow chains, a freelist."""
    rng = random.Random(seed)
    con = sqlite3.connect(path)
    con.execute("pragma page_size=512")
    con.execute("create table t1(a integer primary key, b text, c blob)")
    con.execute("create index t1b on t1(b)")
    con.execute("create table t2(x, y, z)")
    con.execute("create index t2y on t2(y, z)")
    for i in range(1, 80):
        con.execute("insert into t1 values(?, ?, ?)",
                    (i, "".join(rng.choice("abcdefghijklmnop") for _ in range(rng.randint(1, 40))),
                     rng.randbytes(rng.choice([3, 50, 600, 1500]))))
    for i in range(60):
        con.execute("insert into t2 values(?, ?, ?)", (i * 1.5, i, "z" * (i % 30)))
    con.execute("create table gone(q)")
    con.executemany("insert into gone values(?)", [(b"x" * 400,)] * 20)
    con.commit()
    con.execute("drop table gone")        # leaves a freelist
    con.commit()
    con.close()


# -- mutations --------------------------------------------------------------------------------
def _pages(data: bytes):
    ps = int.from_bytes(data[16:18], "big")
    ps = 65536 if ps == 1 else ps
    if ps < 512 or ps > 65536 or ps & (ps - 1):
        ps = 512                 # an earlier mutation broke the field: the base's size
    return ps, max(1, len(data) // ps)


def _hdr_off(pgno):
    return 100 if pgno == 1 else 0


def _btree_pages(data, ps, npages):
    out = []
    for p in range(1, npages + 1):
        off = (p - 1) * ps + _hdr_off(p)
        if data[off] in (2, 5, 10, 13):
            out.append(p)
    return out


def _cells(data, ps, pgno):
    base = (pgno - 1) * ps
    h = base + _hdr_off(pgno)
    kind = data[h]
    n = int.from_bytes(data[h + 3:h + 5], "big")
    arr = h + (12 if kind in (2, 5) else 8)
    out = []
    for i in range(min(n, 200)):
        ptr = int.from_bytes(data[arr + 2 * i:arr + 2 * i + 2], "big")
        if 0 < ptr < ps:
            out.append((arr + 2 * i, base + ptr))
    return kind, out


HEADER_FIELDS = [(16, 2), (18, 1), (19, 1), (20, 1), (21, 1), (24, 4), (28, 4), (32, 4), (36, 4),
                 (40, 4), (44, 4), (48, 4), (52, 4), (56, 4), (64, 4), (92, 4), (96, 4)]


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    d = bytearray(data)
    ps, npages = _pages(d)
    bt = _btree_pages(d, ps, npages) or [1]
    kind = rng.choice(["header", "header", "pagetype", "cellptr", "cellcount", "varint",
                       "overflow", "freelist", "freecycle", "truncate", "zeropage", "flip",
                       "flip", "rightchild", "freeblock"])
    if kind == "header":
        off, n = rng.choice(HEADER_FIELDS)
        v = rng.choice([0, 1, 2, 0xFF, (1 << (8 * n)) - 1, rng.getrandbits(8 * n), npages + 1])
        d[off:off + n] = (v & ((1 << (8 * n)) - 1)).to_bytes(n, "big")
        what = f"header[{off}:{off + n}]={v}"
    elif kind == "pagetype":
        p = rng.choice(bt)
        d[(p - 1) * ps + _hdr_off(p)] = rng.choice([0, 1, 2, 5, 10, 13, 0xFF])
        what = f"page {p} type"
    elif kind in ("cellptr", "varint", "overflow", "cellcount", "rightchild", "freeblock"):
        p = rng.choice(bt)
        pk, cells = _cells(d, ps, p)
        h = (p - 1) * ps + _hdr_off(p)
        if kind == "cellcount" or not cells:
            d[h + 3:h + 5] = rng.choice([0, 1, 0xFFFF, rng.getrandbits(16)]).to_bytes(2, "big")
            what = f"page {p} cell count"
        elif kind == "cellptr":
            ap_, _ = rng.choice(cells)
            # a 65536-byte page size does not fit the 2-byte pointer: it wraps, as on disk
            d[ap_:ap_ + 2] = (rng.choice([0, 1, ps - 1, ps, 0xFFFF, rng.randrange(ps)])
                              & 0xFFFF).to_bytes(2, "big")
            what = f"page {p} cell pointer"
        elif kind == "varint":
            _, c = rng.choice(cells)
            off = c + rng.randrange(0, 6)
            n = rng.randint(1, 9)
            d[off:off + n] = bytes([rng.choice([0xFF, 0x80, 0x81, 0x7F])]) * n
            what = f"page {p} varint at {off - (p - 1) * ps}"
        elif kind == "rightchild" and pk in (2, 5):
            d[h + 8:h + 12] = rng.choice([0, 1, p, npages + 5, 0xFFFFFFFF]).to_bytes(4, "big")
            what = f"page {p} right child"
        elif kind == "freeblock":
            d[h + 1:h + 3] = rng.choice([1, ps - 2, rng.randrange(ps)]).to_bytes(2, "big")
            what = f"page {p} first freeblock"
        else:   # overflow: the 4-byte page number at the end of a cell that spills
            _, c = rng.choice(cells)
            off = c + rng.randrange(4, 40)
            d[off:off + 4] = rng.choice([0, 1, p, npages + 3, rng.randrange(1, npages + 1)]
                                        ).to_bytes(4, "big")
            what = f"page {p} overflow-ish pointer at {off - (p - 1) * ps}"
    elif kind in ("freelist", "freecycle"):
        trunk = int.from_bytes(d[32:36], "big")
        if trunk and trunk <= npages:
            t = (trunk - 1) * ps
            if kind == "freecycle":
                d[t:t + 4] = trunk.to_bytes(4, "big")      # the trunk points to itself
                what = f"freelist trunk {trunk} cycle"
            else:
                field = rng.choice([0, 4, 8])
                d[t + field:t + field + 4] = rng.choice(
                    [0, 1, trunk, npages + 2, 0xFFFFFFFF]).to_bytes(4, "big")
                what = f"freelist trunk {trunk} +{field}"
        else:
            d[32:36] = rng.randrange(1, npages + 1).to_bytes(4, "big")
            what = "freelist head"
    elif kind == "truncate":
        cut = rng.choice([rng.randrange(len(d)), rng.randrange(1, max(2, npages)) * ps])
        del d[cut:]
        what = f"truncate at {cut}"
    elif kind == "zeropage":
        p = rng.randrange(1, npages + 1)
        d[(p - 1) * ps:p * ps] = bytes(ps)
        what = f"zero page {p}"
    else:
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(d))
            d[i] ^= 1 << rng.randrange(8)
        what = "bit flips"
    return bytes(d), f"{kind}: {what}"


# -- the oracle (sqlite3) -------------------------------------------------------------------------
def sqlite_answers(path: str) -> list:
    """Per query: ["rows", rows] or ["error", message], from the stdlib sqlite3."""
    out = []
    try:
        con = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as e:
        return [["error", str(e)]] * len(QUERIES)
    try:
        for q in QUERIES:
            try:
                out.append(["rows", _norm(con.execute(q).fetchall())])
            except (sqlite3.Error, UnicodeDecodeError, MemoryError) as e:
                # damaged text that does not decode, or a damaged length too big to fetch
                out.append(["error", f"{type(e).__name__}: {e}"])
    finally:
        con.close()
    return out


def _norm(rows):
    return [[v.hex() if isinstance(v, bytes) else v for v in r] for r in rows]


# -- the child ----------------------------------------------------------------------------------
def child_main() -> None:
    """Read a path per line; answer one JSON line per path."""
    sys.path.insert(0, ROOT)
    import sqlengine
    from sqlengine import errors

    sys.stdout.write("ready\n")          # startup is not part of any trial's time
    sys.stdout.flush()
    for line in sys.stdin:
        path = line.strip()
        res = []
        try:
            con = sqlengine.connect(path, isolation_level=None)
        except errors.DatabaseError as e:
            res = [["dberror", str(e)]] * len(QUERIES)
        except Exception as e:  # noqa: BLE001 - reported as a bad exception type
            res = [["other", f"{type(e).__name__}: {e}"]] * len(QUERIES)
        else:
            for q in QUERIES:
                try:
                    res.append(["rows", _norm(con.execute(q).fetchall())])
                except errors.DatabaseError as e:
                    res.append(["dberror", str(e)])
                except Exception as e:  # noqa: BLE001
                    res.append(["other", f"{type(e).__name__}: {e}"])
            try:
                con.close()
            except errors.DatabaseError:
                pass
            except Exception as e:  # noqa: BLE001
                res.append(["other", f"close: {type(e).__name__}: {e}"])
        sys.stdout.write(json.dumps(res) + "\n")
        sys.stdout.flush()


class Child:
    def __init__(self):
        env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.p = subprocess.Popen([sys.executable, "-m", "tools.malformed", "--child"],
                                  cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.p.stdout.readline()          # "ready": imports done

    def ask(self, path: str, hang: float):
        """("ok", answers) | ("hang", None) | ("crash", stderr)."""
        try:
            self.p.stdin.write(path + "\n")
            self.p.stdin.flush()
        except BrokenPipeError:
            return "crash", self._stderr()
        r, _, _ = select.select([self.p.stdout], [], [], hang)
        if not r:
            self.kill()
            return "hang", None
        line = self.p.stdout.readline()
        if not line:
            return "crash", self._stderr()
        return "ok", json.loads(line)

    def _stderr(self):
        self.kill()
        return self.p.stderr.read()[-2000:]

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def judge(ours, theirs, original=None) -> str | None:
    """None if acceptable; "divergent: ..." for rows that are neither sqlite3's nor the
    undamaged file's (both engines missed the damage and read different structures, e.g. an
    index against its table); anything else is a failure."""
    divergent = None
    diverged = False      # once a write fails in one engine only, later rows may differ
    for i, (q, o, t) in enumerate(zip(QUERIES, ours, theirs)):
        if o[0] == "other":
            return f"{q!r}: {o[1]}"
        if i in WRITES and (o[0] != "rows" or t[0] != "rows"):
            diverged = True
        if not diverged and o[0] == "rows" and t[0] == "rows" and o[1] != t[1] \
                and not q.startswith("pragma") and (original is None or o[1] != original[i][1]):
            divergent = divergent or f"divergent: {q!r}"
    if len(ours) > len(QUERIES):
        return str(ours[len(QUERIES)][1])
    return divergent


CATEGORIES = {
    "count-via-index": "sqlite3 counts the smallest index, sqlengine the table b-tree",
    "index-not-checked": "sqlengine's integrity_check missed index damage sqlite3's found",
    "both-see-damage": "both integrity_checks report the damage; access paths read it "
                       "differently",
    "other": "unexplained: look at it",
}


def divergence_category(d) -> str:
    """The cause of a divergent file (see the module docstring)."""
    ours, theirs = d["ours"], d["theirs"]
    if "count(*)" in d["error"]:
        return "count-via-index"
    ok_ours = ours[0] == ["rows", [["ok"]]]
    ok_theirs = theirs[0] == ["rows", [["ok"]]]
    if ok_ours and not ok_theirs:
        return "index-not-checked"
    if not ok_ours and not ok_theirs:
        return "both-see-damage"
    return "other"


def run_trials(trials: int, seed: int = 1, hang: float = 2.0, progress=None) -> dict:
    rng = random.Random(seed)
    stats = {"trials": 0, "dberror": 0, "answered": 0, "failures": [], "hangs": 0, "crashes": 0,
             "divergent": []}
    with tempfile.TemporaryDirectory() as d:
        base_path = os.path.join(d, "base.db")
        make_base(base_path, seed)
        with open(base_path, "rb") as f:
            base = f.read()
        original = sqlite_answers(base_path)
        child = Child()
        path = os.path.join(d, "m.db")
        try:
            for i in range(trials):
                data, what = mutate(base, rng)
                if rng.random() < 0.3:       # a second mutation on top
                    data, what2 = mutate(data, rng) if len(data) >= 512 else (data, "")
                    what += " + " + what2
                for p in (path, path + "-journal"):
                    if os.path.exists(p):
                        os.remove(p)
                with open(path, "wb") as f:
                    f.write(data)
                # sqlengine first (it must not depend on sqlite3 having looked), on a copy
                ours_path = path + ".e"
                with open(ours_path, "wb") as f:
                    f.write(data)
                status, ours = child.ask(ours_path, hang)
                os.remove(ours_path)
                theirs = sqlite_answers(path)
                stats["trials"] += 1
                if status != "ok":
                    stats["hangs" if status == "hang" else "crashes"] += 1
                    stats["failures"].append({"trial": i, "mutation": what, "error": status,
                                              "detail": (ours or "")[-300:]})
                    if progress:
                        progress(stats, stats["failures"][-1])
                    child = Child()
                    continue
                if any(o[0] == "dberror" for o in ours):
                    stats["dberror"] += 1
                else:
                    stats["answered"] += 1
                err = judge(ours, theirs, original)
                if err and err.startswith("divergent"):
                    stats["divergent"].append({"trial": i, "mutation": what, "error": err,
                                               "ours": ours, "theirs": theirs})
                elif err:
                    if progress:
                        progress(stats, {"trial": i, "mutation": what, "error": err})
                    stats["failures"].append({"trial": i, "mutation": what, "error": err})
                if progress and stats["trials"] % 500 == 0:
                    progress(stats)
        finally:
            child.close()
    return stats


def main(argv=None):
    if argv is None and sys.argv[1:] == ["--child"]:
        return child_main()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hang", type=float, default=2.0, help="seconds before a trial is a hang")
    ap.add_argument("--json", help="write the statistics (divergent answers included) here")
    a = ap.parse_args(argv)
    t0 = time.time()
    def progress(s, failure=None):
        if failure:
            print("  FAIL", failure, flush=True)
        else:
            print(f"  {s['trials']} files, {len(s['failures'])} failures", flush=True)

    st = run_trials(a.trials, a.seed, a.hang, progress=progress)
    print(f"malformed files: {st['trials']}  with a DatabaseError: {st['dberror']}  "
          f"answered every query: {st['answered']}  hangs: {st['hangs']}  "
          f"crashes: {st['crashes']}  failures: {len(st['failures'])}  "
          f"divergent (neither sqlite3's nor the original rows): {len(st['divergent'])}  "
          f"wall: {time.time() - t0:.0f}s")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(st, f)
    cats: dict = {}
    for d in st["divergent"]:
        cats.setdefault(divergence_category(d), []).append(d)
    for cat, ds in sorted(cats.items(), key=lambda kv: -len(kv[1])):
        print(f"  divergent {cat}: {len(ds)} ({CATEGORIES[cat]}; first: trial {ds[0]['trial']}, "
              f"{ds[0]['mutation']})")
    classes: dict = {}
    for f in st["failures"] + st["divergent"]:
        classes.setdefault(f["error"][:150], []).append(f)
    for err, fs in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(fs):5d} x {err}  (first: trial {fs[0]['trial']}, {fs[0]['mutation']})")
    return 1 if st["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
