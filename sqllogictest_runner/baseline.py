"""A baseline of known failures, one ``path:line`` per line, and the check against it.

A record not in the baseline is expected to pass: if it fails now, that is a regression
(the run fails). A baseline entry that passes now is reported as fixed (refresh the file
with ``--update-baseline``). A file that timed out or died is listed as ``path:timeout`` /
``path:died``; its records past the point it reached are neither regressions nor fixed.
Lines starting with ``#`` are comments.

This module never runs scripts.
"""

from __future__ import annotations

from pathlib import Path

from sqllogictest_runner.runner import TIMEOUT, WORKER_DIED, ScriptResult

__all__ = ["load", "entries", "check", "write", "BaselineCheck"]


def load(path) -> set[str]:
    p = Path(path)
    if not p.exists():
        return set()
    out = set()
    for line in p.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.add(line)
    return out


def _entry(r: ScriptResult, f) -> str:
    if f[1] == TIMEOUT:
        return f"{r.path}:timeout"
    if f[1] == WORKER_DIED:
        return f"{r.path}:died"
    return f"{r.path}:{f[0]}"


def entries(results: list[ScriptResult]) -> set[str]:
    return {_entry(r, f) for r in results for f in r.failures}


class BaselineCheck:
    def __init__(self, regressions: list[str], fixed: list[str]):
        self.regressions = regressions
        self.fixed = fixed

    @property
    def ok(self) -> bool:
        return not self.regressions

    def format(self, n: int = 30) -> str:
        lines = [f"baseline: {len(self.regressions)} regressions, {len(self.fixed)} fixed"]
        for e in self.regressions[:n]:
            lines.append(f"  REGRESSION {e}")
        if len(self.regressions) > n:
            lines.append(f"  ... {len(self.regressions) - n} more regressions")
        for e in self.fixed[:n]:
            lines.append(f"  fixed      {e}")
        if len(self.fixed) > n:
            lines.append(f"  ... {len(self.fixed) - n} more fixed")
        if self.fixed:
            lines.append("  (run with --update-baseline to record the fixes)")
        return "\n".join(lines)


def _line_of(entry: str) -> tuple[str, str]:
    path, _, line = entry.rpartition(":")
    return path, line


def check(baseline: set[str], results: list[ScriptResult]) -> BaselineCheck:
    now = entries(results)
    by_path = {r.path: r for r in results}
    regressions = sorted(now - baseline, key=_sort_key)
    fixed = []
    for e in baseline - now:
        path, line = _line_of(e)
        r = by_path.get(path)
        if r is None:
            continue  # not run this time
        if line.isdigit() and r.status != "done" and r.last_line != -1 \
                and int(line) > r.last_line:
            continue  # not reached this time
        fixed.append(e)
    return BaselineCheck(regressions, sorted(fixed, key=_sort_key))


def _sort_key(e: str):
    path, line = _line_of(e)
    return (path, int(line) if line.isdigit() else -1, line)


def write(path, results: list[ScriptResult], engine: str) -> int:
    es = sorted(entries(results), key=_sort_key)
    header = [f"# sqllogictest baseline: known failures of engine {engine}, one path:line each",
              "# (written by sqllogictest --update-baseline; a record listed here may fail)"]
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(header + es) + "\n")
    return len(es)
