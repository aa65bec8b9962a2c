"""The history database: every run recorded, and each run compared with the one before.

The file is in SQLite's format, written through a DB-API module chosen by name: sqlengine
by default once it can do the job (a round trip through a scratch file is checked first),
else the stdlib sqlite3; either way the stdlib can read it. Only plain SQL is used: CREATE
TABLE, INSERT with ``?`` parameters, SELECT with WHERE/ORDER BY, BEGIN/COMMIT.

Tables:

- ``run``: one row per run (when, engine, corpus, options, totals, wall and engine time).
- ``file_result``: one row per script per run, its counts, and its failures as a
  zlib-compressed JSON list ``[[line, kind, message], ...]`` (so a run with millions of
  failures is still 600 rows).
- ``cluster``: the run's failure signatures ranked by count, with an example and the path of
  its reproduction script when one was written.

This module never runs scripts; it stores and compares results.
"""

from __future__ import annotations

import datetime as _dt
import importlib
import json
import os
import subprocess
import tempfile
import zlib
from pathlib import Path

from sqllogictest_runner.engines import _connect
from sqllogictest_runner.runner import ScriptResult

__all__ = ["History", "default_history_path", "choose_module", "Comparison"]

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS run(
        id INTEGER PRIMARY KEY, started TEXT, engine TEXT, corpus TEXT, options TEXT,
        git_commit TEXT, files INTEGER, records_run INTEGER, skipped INTEGER,
        failed INTEGER, timeouts INTEGER, wall_seconds REAL, engine_seconds REAL)""",
    """CREATE TABLE IF NOT EXISTS file_result(
        run_id INTEGER, path TEXT, status TEXT, records_run INTEGER, skipped INTEGER,
        failed INTEGER, seconds REAL, engine_seconds REAL, last_line INTEGER,
        failures BLOB)""",
    """CREATE TABLE IF NOT EXISTS cluster(
        run_id INTEGER, rank INTEGER, kind TEXT, message TEXT, feature TEXT,
        count INTEGER, example_path TEXT, example_line INTEGER, example_sql TEXT,
        repro TEXT)""",
]


def default_history_path() -> Path:
    env = os.environ.get("SLT_HISTORY")
    if env:
        return Path(env)
    from sqllogictest_runner.corpus import repo_root
    base = repo_root() or Path.cwd()
    return base / "results" / "sqllogictest" / "history.db"


def _works(module_name: str) -> bool:
    """Can this module do the history's whole job (write two runs, compare them) in a file
    that the stdlib sqlite3 then reads back intact?"""
    import sqlite3
    try:
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "probe.db")
            h = History(p, module_name)
            results = [ScriptResult("a.test", "e", records_run=2, skipped=1,
                                    failures=[(3, "wrong result", "x\u00e9", "SELECT 1")])]
            h.record_run(results, "e", "c", "", 1.5)
            results[0].failures = []
            run_id = h.record_run(results, "e", "c", "", 1.5)
            ok = h.compare(run_id, "e").new_passes == [("a.test", 3)]
            h.close()
            chk = sqlite3.connect(p)
            ok = ok and chk.execute("SELECT count(*), sum(records_run) FROM file_result"
                                    ).fetchone() == (2, 4)
            ok = ok and chk.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            chk.close()
            return ok
    except Exception:
        return False


def choose_module(name: str = "auto") -> str:
    """``auto``: sqlengine if it passes the round trip, else sqlite3."""
    if name != "auto":
        return name
    from sqllogictest_runner.harness import call_in_child
    status, ok = call_in_child(_works, "sqlengine", timeout=120)  # a crash must not hurt us
    return "sqlengine" if status == "ok" and ok else "sqlite3"


def _git_commit() -> str:
    from sqllogictest_runner.corpus import repo_root
    root = repo_root()
    if root is None:
        return ""
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root,
                              capture_output=True, text=True, timeout=5).stdout.strip()
    except Exception:
        return ""


def pack_failures(failures) -> bytes:
    return zlib.compress(json.dumps([[f[0], f[1], f[2]] for f in failures]).encode(), 6)


def unpack_failures(blob) -> list:
    if not blob:
        return []
    return json.loads(zlib.decompress(bytes(blob)).decode())


class Comparison:
    """What changed between two runs of the same engine, over the files both ran."""

    def __init__(self, previous_run: int | None, new_failures, new_passes, started=""):
        self.previous_run = previous_run
        self.started = started
        self.new_failures = new_failures  # [(path, line, kind, message)]
        self.new_passes = new_passes      # [(path, line)]

    def format(self, n: int = 20) -> str:
        if self.previous_run is None:
            return "history: no earlier run of these files with this engine"
        lines = [f"compared with the latest earlier run of each file ({self.started}): "
                 f"{len(self.new_failures):,} new failures, {len(self.new_passes):,} new passes"]
        for path, line, kind, msg in self.new_failures[:n]:
            lines.append(f"  NEW FAIL {path}:{line}  {kind}: {str(msg)[:80]}")
        if len(self.new_failures) > n:
            lines.append(f"  ... {len(self.new_failures) - n} more new failures")
        for path, line in self.new_passes[:n]:
            lines.append(f"  new pass {path}:{line}")
        if len(self.new_passes) > n:
            lines.append(f"  ... {len(self.new_passes) - n} more new passes")
        return "\n".join(lines)


class History:
    def __init__(self, path: str | os.PathLike, module: str = "auto"):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.module_name = choose_module(module) if module == "auto" else module
        mod = importlib.import_module(self.module_name)
        self.con = _connect(mod, str(self.path))
        self.cur = self.con.cursor()
        for stmt in SCHEMA:
            self.cur.execute(stmt)

    def close(self):
        self.con.close()

    def record_run(self, results: list[ScriptResult], engine: str, corpus: str, options: str,
                   wall: float, clusters=None, repros: dict | None = None) -> int:
        """Store a run (the results of one engine) and return its id."""
        mine = [r for r in results if r.engine == engine]
        cur = self.cur
        row = cur.execute("SELECT max(id) FROM run").fetchone()
        run_id = (row[0] or 0) + 1
        started = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
        cur.execute("BEGIN")
        try:
            cur.execute(
                "INSERT INTO run VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (run_id, started, engine, corpus, options, _git_commit(), len(mine),
                 sum(r.records_run for r in mine), sum(r.skipped for r in mine),
                 sum(r.failed for r in mine), sum(r.status == "timeout" for r in mine),
                 wall, sum(r.engine_seconds for r in mine)))
            for r in mine:
                cur.execute("INSERT INTO file_result VALUES(?,?,?,?,?,?,?,?,?,?)",
                            (run_id, r.path, r.status, r.records_run, r.skipped, r.failed,
                             r.seconds, r.engine_seconds, r.last_line,
                             pack_failures(r.failures)))
            if clusters is not None:
                for rank, (sig, count, ex) in enumerate(clusters, 1):
                    repro = (repros or {}).get(sig)
                    cur.execute("INSERT INTO cluster VALUES(?,?,?,?,?,?,?,?,?,?)",
                                (run_id, rank, sig[0], sig[1], sig[2], count, ex[0], ex[1],
                                 (ex[3] or "")[:4000], str(repro) if repro else None))
            cur.execute("COMMIT")
        except BaseException:
            try:
                cur.execute("ROLLBACK")
            except Exception:
                pass
            raise
        return run_id

    def previous_run(self, engine: str, before: int) -> tuple[int, str] | None:
        row = self.cur.execute(
            "SELECT id, started FROM run WHERE engine = ? AND id < ? ORDER BY id DESC LIMIT 1",
            (engine, before)).fetchone()
        return (row[0], row[1]) if row else None

    def file_failures(self, run_id: int) -> dict[str, tuple[str, int, set, list]]:
        """{path: (status, last_line, {failing lines}, failures)} of a stored run."""
        out = {}
        for path, status, last_line, blob in self.cur.execute(
                "SELECT path, status, last_line, failures FROM file_result WHERE run_id = ?",
                (run_id,)).fetchall():
            fl = unpack_failures(blob)
            out[path] = (status, last_line, {f[0] for f in fl if f[1] not in
                                             ("timeout", "worker died")}, fl)
        return out

    def _latest_before(self, engine: str, run_id: int, path: str):
        row = self.cur.execute(
            "SELECT f.run_id, f.status, f.last_line, f.failures FROM file_result AS f, run AS r"
            " WHERE r.id = f.run_id AND r.engine = ? AND f.run_id < ? AND f.path = ?"
            " ORDER BY f.run_id DESC LIMIT 1", (engine, run_id, path)).fetchone()
        if row is None:
            return None
        fl = unpack_failures(row[3])
        lines = {f[0] for f in fl if f[1] not in ("timeout", "worker died")}
        return row[0], row[1], row[2], lines

    def compare(self, run_id: int, engine: str) -> Comparison:
        """Each file of run ``run_id`` against the latest earlier run of the same engine
        that ran that file: records failing now that passed then, and the reverse."""
        new = self.file_failures(run_id)
        new_failures, new_passes = [], []
        runs = set()

        def reached(last, status, line):
            return status == "done" or last == -1 or line <= last

        for path in sorted(new):
            old = self._latest_before(engine, run_id, path)
            if old is None:
                continue
            o_run, o_status, o_last, o_lines = old
            runs.add(o_run)
            n_status, n_last, n_lines, n_fl = new[path]
            for f in n_fl:
                if f[1] in ("timeout", "worker died"):
                    continue
                if f[0] not in o_lines and reached(o_last, o_status, f[0]):
                    new_failures.append((path, f[0], f[1], f[2]))
            for line in sorted(o_lines - n_lines):
                if reached(n_last, n_status, line):
                    new_passes.append((path, line))
        if not runs:
            return Comparison(None, [], [])
        started = ", ".join(f"run {r}" for r in sorted(runs))
        return Comparison(max(runs), new_failures, new_passes, started)

    def runs(self, limit: int = 20):
        return self.cur.execute(
            "SELECT id, started, engine, files, records_run, skipped, failed, timeouts, "
            "wall_seconds FROM run ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
