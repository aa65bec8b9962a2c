"""Minimal reproductions: the failing record plus only the setup statements it needs.

Starting from a failure (script, line), the setup is the script's earlier statement records
that ran (not skipped, expected to succeed). A statement is kept when it touches an object
the failing record needs: the names the failing SQL mentions, then, transitively, the names
mentioned by kept statements (an ``INSERT ... SELECT`` needs its source table, a view its
tables, a trigger the tables it writes; indexes and DROPs follow their table). Statements
whose object cannot be told (BEGIN, COMMIT, PRAGMA, ...) are kept.

Every candidate script gets its expected blocks from the reference engine (sqlite3), so
it passes there by construction, and is kept only if the engine under test still fails it
with the same signature. When the needed statements are not enough (an engine whose state
leaks from one query to the next), all earlier statements are tried, then the last 1, 2,
4, ... earlier queries too. The first candidate that fails alike is then reduced while the
time budget lasts: kept queries dropped one by one, statements cut to what is needed, runs
of INSERTs thinned (halves, then quarters, ...).

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


def _materialise(records, target, threshold, reference, keep_labels):
    """The candidate script as records, every query's expected block computed by the
    reference engine (under one hash threshold); None if the reference disagrees with a
    statement's ok/error (the candidate lost something a statement needed)."""
    eng = open_engine(reference)
    out = [Record("hash-threshold", 0, False, threshold=threshold)]
    try:
        for r in list(records) + [target]:
            if r.kind == "statement":
                try:
                    err = eng.statement(r.sql)
                except EngineCrash:
                    return None
                if (err is None) != r.ok:
                    return None
                out.append(r)
                continue
            try:
                ncols, rows, _ = eng.query(r.sql)
            except (PrepareError, EngineCrash):
                return None
            if ncols != len(r.types):
                return None
            vals = render_values(rows, r.types, r.sort)
            if 0 < threshold < len(vals):
                vals = [f"{len(vals)} values hashing to {result_digest(vals)}"]
            out.append(Record("query", r.line, False, sql=r.sql, types=r.types, sort=r.sort,
                              label=r.label if keep_labels else None, expected=vals))
    finally:
        eng.close()
    return out


def _fails_alike(records, engine, sig) -> bool:
    eng = open_engine(engine)
    try:
        got = run_script(script_text(records), eng)
    finally:
        eng.close()
    return any(signature(f[1], f[2], f[3]) == sig for f in got.failures)


def _is_insert(r: Record) -> bool:
    return r.kind == "statement" and re.match(r"\s*(INSERT|REPLACE)\b", r.sql, re.I) is not None


def make_repro(path, line: int, engine: str, out: Path | None = None,
               reference: str = "sqlite3", budget_seconds: float = 30.0,
               rel: str | None = None, sig: tuple | None = None) -> tuple[str, dict] | None:
    """Build a reproduction of the failure at ``path:line`` on ``engine``.

    ``sig`` is the failure's signature (computed by replaying the script when not given).
    Returns (script text, info), or None when the failure cannot be reproduced within the
    budget; writes the text to ``out`` when given.

    Candidates, smallest first: the statements the target needs; all earlier statements;
    all earlier statements plus the last 1, 2, 4, ... queries (an engine whose state leaks
    from one query to the next). The first that fails alike is then reduced while the
    budget lasts: kept queries dropped one by one, statements cut to what the target and
    the kept queries need, runs of INSERTs thinned.
    """
    deadline = time.monotonic() + budget_seconds
    records = list(parse_script(read_script_text(path)))
    threshold = DEFAULT_HASH_THRESHOLD
    target = None
    prior: list[Record] = []
    for r in records:
        if r.line == line:
            target = r
            break
        if r.skip:
            continue
        if r.kind == "hash-threshold":
            threshold = r.threshold
        elif (r.kind == "statement" and r.ok) or r.kind == "query":
            prior.append(r)
        elif r.kind == "halt":
            break
    if target is None or target.kind not in ("statement", "query"):
        return None
    if sig is None:
        eng = open_engine(engine)
        try:
            got = run_script(script_text([Record("hash-threshold", 0, False,
                                                 threshold=threshold)] + prior + [target]), eng)
        finally:
            eng.close()
        mine = [f for f in got.failures if f[3] == target.sql]
        if not mine:
            return None
        sig = signature(mine[-1][1], mine[-1][2], mine[-1][3])
    keep_labels = sig[0] == "label mismatch"
    statements = [r for r in prior if r.kind == "statement"]
    queries = [r for r in prior if r.kind == "query"]

    def attempt(recs):
        cand = _materialise(recs, target, threshold, reference, keep_labels)
        return cand if cand is not None and _fails_alike(cand, engine, sig) else None

    candidates = [needed_setup(statements, target.sql), statements]
    k = 1
    while k < len(queries):
        candidates.append(("queries", k))
        k *= 2
    candidates.append(("queries", len(queries)))
    best = None
    kept: list[Record] = []
    for c in candidates:
        if time.monotonic() > deadline and c is not candidates[0]:
            break
        if isinstance(c, tuple):
            chosen = set(map(id, queries[-c[1]:])) if c[1] else set()
            recs = [r for r in prior if r.kind == "statement" or id(r) in chosen]
        else:
            recs = c
        cand = attempt(recs)
        if cand is not None:
            best, kept = cand, recs
            break
    if best is None:
        return None
    # reduce: drop kept queries one at a time (few by construction)
    for q in [r for r in kept if r.kind == "query"]:
        if time.monotonic() > deadline:
            break
        trial = [r for r in kept if r is not q]
        cand = attempt(trial)
        if cand is not None:
            best, kept = cand, trial
    # statements: only what the target and the kept queries need
    if time.monotonic() < deadline:
        need_sql = "\n".join([target.sql] + [r.sql for r in kept if r.kind == "query"])
        wanted = set(map(id, needed_setup([r for r in kept if r.kind == "statement"], need_sql)))
        trial = [r for r in kept if r.kind == "query" or id(r) in wanted]
        if len(trial) < len(kept):
            cand = attempt(trial)
            if cand is not None:
                best, kept = cand, trial
    # thin runs of INSERTs while the failure keeps its signature
    chunk = max(1, sum(map(_is_insert, kept)) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i = 0
        progressed = False
        while i < len(kept) and time.monotonic() < deadline:
            part = kept[i:i + chunk]
            if not all(map(_is_insert, part)):
                i += 1
                continue
            trial = kept[:i] + kept[i + chunk:]
            cand = attempt(trial)
            if cand is not None:
                best, kept = cand, trial
                progressed = True
                continue
            i += chunk
        if not progressed:
            chunk //= 2
    name = rel or str(path)
    nq = sum(r.kind == "query" for r in kept)
    header = (f"# reproduction of {name}:{line} on engine {engine}\n"
              f"# signature: {' | '.join(x for x in sig if x)}\n"
              f"# kept {len(kept) - nq} of {len(statements)} earlier statements and {nq} of "
              f"{len(queries)} earlier queries; expected blocks computed by {reference}\n\n")
    text = script_text(best, header)
    info = {"path": name, "line": line, "signature": sig, "setup": len(kept) - nq,
            "queries": nq}
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text)
    return text, info
