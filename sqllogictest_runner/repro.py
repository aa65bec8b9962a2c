"""Minimal reproductions: the failing record plus only the setup statements it needs.

Starting from a failure (script, line), the setup is the script's earlier statement records
that ran (not skipped, expected to succeed). A statement is kept when it touches an object
the failing record needs: the names the failing SQL mentions, then, transitively, the names
mentioned by kept statements (an ``INSERT ... SELECT`` needs its source table, a view its
tables, a trigger the tables it writes; indexes and DROPs follow their table). Statements
whose object cannot be told (BEGIN, COMMIT, PRAGMA, ...) are kept.

The reduced script must still pass on the reference engine (sqlite3) and still fail on the
engine under test with the same signature; otherwise the whole setup is used. Then runs of
INSERTs are thinned (halves, then quarters, ...) as long as the failure keeps its signature;
when rows are removed, the query's expected block is recomputed by the reference engine.

The result is a small .test script the runner can run alone. This module writes files only
where it is told to (``--repro DIR``).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from sqllogictest_runner.clusters import signature
from sqllogictest_runner.engines import EngineCrash, PrepareError, open_engine
from sqllogictest_runner.parser import Record, parse_script, read_script_text
from sqllogictest_runner.render import render_values
from sqllogictest_runner.runner import DEFAULT_HASH_THRESHOLD, result_digest, run_script

__all__ = ["make_repro", "needed_setup", "script_text"]

_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_TARGET = [
    (re.compile(r"^\s*CREATE\s+(?:TEMP\w*\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w\"\[\]`]+)", re.I), "table"),
    (re.compile(r"^\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w\"\[\]`]+)\s+ON\s+([\w\"\[\]`]+)", re.I), "index"),
    (re.compile(r"^\s*CREATE\s+(?:TEMP\w*\s+)?VIEW\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w\"\[\]`]+)", re.I), "view"),
    (re.compile(r"^\s*CREATE\s+(?:TEMP\w*\s+)?TRIGGER\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w\"\[\]`]+)", re.I), "trigger"),
    (re.compile(r"^\s*(?:INSERT|REPLACE)\s+(?:OR\s+\w+\s+)?INTO\s+([\w\"\[\]`]+)", re.I), "write"),
    (re.compile(r"^\s*UPDATE\s+(?:OR\s+\w+\s+)?([\w\"\[\]`]+)", re.I), "write"),
    (re.compile(r"^\s*DELETE\s+FROM\s+([\w\"\[\]`]+)", re.I), "write"),
    (re.compile(r"^\s*DROP\s+(?:TABLE|VIEW|INDEX|TRIGGER)\s+(?:IF\s+EXISTS\s+)?([\w\"\[\]`]+)", re.I), "drop"),
    (re.compile(r"^\s*REINDEX\s+([\w\"\[\]`]+)", re.I), "drop"),
]


def _name(s: str) -> str:
    return s.strip('"[]`').lower()


def _words(sql: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(sql or "")}


def _objects(sql: str, owner: dict) -> set[str] | None:
    """Names of the objects a setup statement changes (None: cannot tell, keep it)."""
    for rx, what in _TARGET:
        m = rx.match(sql)
        if not m:
            continue
        name = _name(m.group(1))
        if what == "index":
            table = _name(m.group(2))
            owner[name] = table
            return {name, table}
        if what == "trigger":
            mt = re.search(r"\bON\s+([\w\"\[\]`]+)", sql, re.I)
            if mt:
                owner[name] = _name(mt.group(1))
            body = sql[sql.upper().find("BEGIN"):] if "BEGIN" in sql.upper() else sql
            return {name} | _words(body)
        if what == "drop":
            return {name} | ({owner[name]} if name in owner else set())
        return {name}
    return None


def needed_setup(setup: list[Record], target_sql: str) -> list[Record]:
    """The setup statements the target needs (see the module docstring)."""
    owner: dict[str, str] = {}
    objects = [_objects(r.sql, owner) for r in setup]
    needed = _words(target_sql)
    keep = [False] * len(setup)
    changed = True
    while changed:
        changed = False
        for i in range(len(setup) - 1, -1, -1):
            if keep[i]:
                continue
            objs = objects[i]
            if objs is None or objs & needed:
                keep[i] = True
                changed = True
                needed |= _words(setup[i].sql)
    return [r for r, k in zip(setup, keep) if k]


def _record_text(r: Record) -> str:
    if r.kind == "statement":
        return f"statement {'ok' if r.ok else 'error'}\n{r.sql}\n"
    if r.kind == "query":
        head = f"query {r.types} {r.sort}" + (f" {r.label}" if r.label else "")
        return f"{head}\n{r.sql}\n----\n" + "".join(v + "\n" for v in r.expected)
    if r.kind == "hash-threshold":
        return f"hash-threshold {r.threshold}\n"
    raise ValueError(r.kind)


def script_text(records: list[Record], header: str = "") -> str:
    return header + "\n".join(_record_text(r) for r in records)


def _reference_expected(setup: list[Record], target: Record, threshold: int,
                        reference: str) -> list[str] | None:
    """The target query's expected block as the reference engine renders it after setup."""
    eng = open_engine(reference)
    try:
        for r in setup:
            if eng.statement(r.sql) is not None:
                return None
        try:
            ncols, rows, _ = eng.query(target.sql)
        except (PrepareError, EngineCrash):
            return None
        if ncols != len(target.types):
            return None
        vals = render_values(rows, target.types, target.sort)
        if 0 < threshold < len(vals):
            return [f"{len(vals)} values hashing to {result_digest(vals)}"]
        return vals
    finally:
        eng.close()


def _with_target(setup, target, threshold, reference, recompute):
    t = target
    if recompute and target.kind == "query":
        exp = _reference_expected(setup, target, threshold, reference)
        if exp is None:
            return None
        t = Record("query", target.line, False, sql=target.sql, types=target.types,
                   sort=target.sort, label=target.label, expected=exp)
    return [Record("hash-threshold", 0, False, threshold=threshold)] + list(setup) + [t]


def _verdicts(records, engine, reference):
    text = script_text(records)
    out = []
    for name in (reference, engine):
        eng = open_engine(name)
        try:
            out.append(run_script(text, eng))
        finally:
            eng.close()
    return out[0], out[1]


def _same_failure(got, sig) -> bool:
    for f in got.failures:
        if signature(f[1], f[2], f[3]) == sig:
            return True
    return False


def make_repro(path, line: int, engine: str, out: Path | None = None,
               reference: str = "sqlite3", budget_seconds: float = 30.0,
               rel: str | None = None) -> tuple[str, dict] | None:
    """Build a reproduction of the failure at ``path:line`` on ``engine``.

    Returns (script text, info) or None when the failure does not reproduce; writes the
    text to ``out`` when given.
    """
    deadline = time.monotonic() + budget_seconds
    records = list(parse_script(read_script_text(path)))
    setup: list[Record] = []
    threshold = DEFAULT_HASH_THRESHOLD
    target = None
    for r in records:
        if r.line == line:
            target = r
            break
        if r.skip:
            continue
        if r.kind == "hash-threshold":
            threshold = r.threshold
        elif r.kind == "statement" and r.ok:
            setup.append(r)
        elif r.kind == "halt":
            break
    if target is None or target.kind not in ("statement", "query"):
        return None
    # what the failure looks like when the whole script runs up to it
    full = _with_target(setup, target, threshold, reference, recompute=False)
    ref, got = _verdicts(full, engine, reference)
    if ref.failures or not got.failures:
        return None
    f = got.failures[-1]
    sig = signature(f[1], f[2], f[3])
    best = full
    small = needed_setup(setup, target.sql)
    cand = _with_target(small, target, threshold, reference, recompute=False)
    ref, got = _verdicts(cand, engine, reference)
    if not ref.failures and _same_failure(got, sig):
        best = cand
        setup = small
    # thin out runs of INSERTs while the failure keeps its signature
    chunk = max(1, len(setup) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i = 0
        progressed = False
        while i < len(setup) and time.monotonic() < deadline:
            part = setup[i:i + chunk]
            if not all(re.match(r"\s*(INSERT|REPLACE)\b", r.sql, re.I) for r in part):
                i += chunk
                continue
            trial_setup = setup[:i] + setup[i + chunk:]
            cand = _with_target(trial_setup, target, threshold, reference, recompute=True)
            if cand is not None:
                ref, got = _verdicts(cand, engine, reference)
                if not ref.failures and _same_failure(got, sig):
                    setup = trial_setup
                    best = cand
                    progressed = True
                    continue
            i += chunk
        if not progressed:
            chunk //= 2
    name = rel or str(path)
    header = (f"# reproduction of {name}:{line} on engine {engine}\n"
              f"# signature: {' | '.join(x for x in sig if x)}\n"
              f"# {str(f[2])[:200]}\n"
              f"# {len(best) - 2} setup statements kept of the script's earlier records\n\n")
    text = script_text(best, header)
    info = {"path": name, "line": line, "signature": sig, "setup": len(best) - 2}
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text)
    return text, info
