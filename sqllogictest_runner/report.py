"""Summaries of a run: totals per folder and engine, a readable table, and JSON.

Pass rate = records that ran and passed / records that ran. A timed-out or dead file
counts what it ran before it stopped. With two engines (``--compare``), the table puts them
side by side per folder with the ratio of their engine times.

This module only summarises results it is given; it never runs anything.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass

from sqllogictest_runner.corpus import folder_of
from sqllogictest_runner.runner import LABEL_MISMATCH, TIMEOUT, WORKER_DIED, ScriptResult

__all__ = ["Totals", "summarise", "format_table", "to_json", "FULL_CORPUS_RECORDS"]

FULL_CORPUS_RECORDS = 5_746_335
FULL_CORPUS_SKIPPED = 1_480_844
_NOT_RECORDS = (TIMEOUT, WORKER_DIED)


@dataclass
class Totals:
    files: int = 0
    run: int = 0
    skipped: int = 0
    failed: int = 0         # failures of records that ran
    label_checks: int = 0   # failed label checks of skipped queries
    timeouts: int = 0
    died: int = 0
    seconds: float = 0.0
    engine_seconds: float = 0.0
    cpu_seconds: float = 0.0

    def add(self, r: ScriptResult) -> None:
        self.files += 1
        self.run += r.records_run
        self.skipped += r.skipped
        for f in r.failures:
            kind = f[1]
            if kind in _NOT_RECORDS:
                continue
            if kind == LABEL_MISMATCH and str(f[2]).startswith("skipped query"):
                self.label_checks += 1
            else:
                self.failed += 1
        if r.status == "timeout":
            self.timeouts += 1
        elif r.status in ("died", "error"):
            self.died += 1
        self.seconds += r.seconds
        self.engine_seconds += r.engine_seconds
        self.cpu_seconds += r.cpu_seconds

    @property
    def passed(self) -> int:
        return self.run - self.failed

    @property
    def pass_rate(self) -> float:
        return 100.0 * self.passed / self.run if self.run else 100.0

    def to_dict(self) -> dict:
        d = dict(self.__dict__)
        d["passed"] = self.passed
        d["pass_rate"] = round(self.pass_rate, 4)
        return d


def summarise(results: list[ScriptResult]) -> dict[str, dict[str, Totals]]:
    """{engine: {folder: Totals, ..., "TOTAL": Totals}}"""
    out: dict[str, dict[str, Totals]] = defaultdict(lambda: defaultdict(Totals))
    for r in results:
        out[r.engine][folder_of(r.path)].add(r)
        out[r.engine]["TOTAL"].add(r)
    return {e: dict(v) for e, v in out.items()}


def _folder_order(names):
    return sorted((n for n in names if n != "TOTAL"), key=lambda n: (n.count("/"), n)) + ["TOTAL"]


def format_table(summary: dict[str, dict[str, Totals]], engines: list[str],
                 wall: float | None = None) -> str:
    """The readable table: one row per folder, one column group per engine."""
    folders = _folder_order({f for e in engines for f in summary.get(e, {})})
    lines = []
    if len(engines) == 1:
        e = engines[0]
        head = (f"{'folder':<24}{'files':>6}{'run':>11}{'skipped':>10}{'failed':>10}"
                f"{'pass %':>9}{'t/o':>5}{'engine s':>10}{'wall s':>9}")
        lines += [f"engine: {e}", head, "-" * len(head)]
        for f in folders:
            t = summary.get(e, {}).get(f, Totals())
            if f == "TOTAL":
                lines.append("-" * len(head))
            lines.append(f"{f:<24}{t.files:>6}{t.run:>11,}{t.skipped:>10,}{t.failed:>10,}"
                         f"{t.pass_rate:>9.2f}{t.timeouts:>5}{t.engine_seconds:>10.1f}"
                         f"{t.seconds:>9.1f}")
    else:
        a, b = engines[0], engines[1]
        head = (f"{'folder':<24}{'run':>11}{'':2}{a[:10] + ' pass%':>17}{'s':>8}"
                f"{'':2}{b[:10] + ' pass%':>17}{'s':>8}{'ratio':>8}")
        lines += [head, "-" * len(head)]
        for f in folders:
            ta = summary.get(a, {}).get(f, Totals())
            tb = summary.get(b, {}).get(f, Totals())
            ratio = (f"{ta.engine_seconds / tb.engine_seconds:>8.1f}"
                     if tb.engine_seconds > 0 else f"{'-':>8}")
            if f == "TOTAL":
                lines.append("-" * len(head))
            lines.append(f"{f:<24}{max(ta.run, tb.run):>11,}{'':2}{ta.pass_rate:>17.2f}"
                         f"{ta.engine_seconds:>8.1f}{'':2}{tb.pass_rate:>17.2f}"
                         f"{tb.engine_seconds:>8.1f}{ratio}")
        lines.append(f"ratio = engine time of {a} / engine time of {b}")
    for e in engines:
        t = summary.get(e, {}).get("TOTAL")
        if t is None:
            continue
        extra = []
        if t.label_checks:
            extra.append(f"{t.label_checks} failed label checks of skipped queries")
        if t.timeouts or t.died:
            extra.append(f"{t.timeouts} files timed out, {t.died} died")
        lines.append(f"{e}: {t.run:,} records run, {t.skipped:,} skipped, {t.failed:,} failed"
                     f" ({t.pass_rate:.3f}% pass)" + ("; " + "; ".join(extra) if extra else ""))
        if t.run + t.skipped >= FULL_CORPUS_RECORDS:
            lines.append(f"{e}: pass rate on the full corpus: {100.0 * t.passed / FULL_CORPUS_RECORDS:.3f}%"
                         f" of {FULL_CORPUS_RECORDS:,}")
        if t.run and t.seconds > 0:
            # engine and wall times are clock times (inflated alike when the CPU is shared);
            # their ratio splits the CPU time between the engine and the runner
            share = max(0.0, 1.0 - t.engine_seconds / t.seconds)
            over = t.cpu_seconds * share
            lines.append(f"{e}: in scripts {t.seconds:.1f}s (engine {t.engine_seconds:.1f}s), "
                         f"CPU {t.cpu_seconds:.1f}s; runner's share {100 * share:.0f}% = "
                         f"{over:.1f}s CPU = {1e6 * over / (t.run + t.skipped):.2f} us per record")
    if wall is not None:
        lines.append(f"wall time {wall:.1f}s")
    return "\n".join(lines)


def format_slowest(results: list[ScriptResult], engine: str, n: int = 5,
                   limit: float = 1.0) -> str:
    """The ``n`` slowest records of ``engine`` (each script keeps its slowest one) and how
    many scripts have a record over ``limit`` seconds of engine time."""
    mine = sorted((r for r in results if r.engine == engine and r.slowest_line),
                  key=lambda r: r.slowest_seconds, reverse=True)
    if not mine:
        return ""
    over = sum(1 for r in mine if r.slowest_seconds > limit)
    lines = [f"slowest records ({engine}): {over} script{'s' if over != 1 else ''} with a "
             f"record over {limit:g} s"]
    lines += [f"  {r.slowest_seconds:8.3f} s  {r.path}:{r.slowest_line}" for r in mine[:n]]
    return "\n".join(lines)


def to_json(results: list[ScriptResult], engines: list[str], wall: float,
            max_failures_per_file: int = 200, extra: dict | None = None) -> str:
    summary = summarise(results)
    doc = {
        "engines": engines,
        "wall_seconds": round(wall, 3),
        "totals": {e: {f: t.to_dict() for f, t in summary.get(e, {}).items()}
                   for e in engines},
        "files": [
            {
                "path": r.path, "engine": r.engine, "status": r.status,
                "records_run": r.records_run, "skipped": r.skipped, "failed": r.failed,
                "seconds": round(r.seconds, 4), "engine_seconds": round(r.engine_seconds, 4),
                "cpu_seconds": round(r.cpu_seconds, 4),
                "slowest_seconds": round(r.slowest_seconds, 4), "slowest_line": r.slowest_line,
                "failures": [{"line": f[0], "kind": f[1], "message": f[2], "sql": f[3]}
                             for f in r.failures[:max_failures_per_file]],
                "notes": [{"line": n[0], "note": n[1]} for n in r.notes],
            }
            for r in sorted(results, key=lambda r: (r.path, r.engine))
        ],
    }
    if extra:
        doc.update(extra)
    return json.dumps(doc, indent=1)
