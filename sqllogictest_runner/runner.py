"""Run one sqllogictest script against one engine and give the reference runner's verdicts.

For each record (FORMAT.md): ``statement ok`` passes when the statement runs, ``statement
error`` when it fails; a ``query`` fails when it cannot be prepared, when its column count
differs from its type string, or when its rendered values (sorted as asked, hashed when a
label is given or they number more than the hash threshold) differ from the expected block;
a label's digest must agree with the label's first digest, also for skipped queries (the
digest then comes from the expected block; that check can fail but is not a record run).
An error raised while stepping a query's rows is not a failure in itself: the rows produced
before it are compared.

``run_script`` is the whole runner for one script; it keeps no state between scripts. It
never decides how scripts are found, scheduled or reported (that is harness.py).
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field

from sqllogictest_runner.engines import Engine, EngineCrash, PrepareError, open_engine
from sqllogictest_runner.parser import parse_script, read_script_text
from sqllogictest_runner.render import render_values

__all__ = ["ScriptResult", "run_script", "run_file", "result_digest", "DEFAULT_HASH_THRESHOLD"]

DEFAULT_HASH_THRESHOLD = 8
_HASH_LINE = re.compile(r"^(\d+) values hashing to ([0-9a-f]{32})$")
_EMPTY_MD5 = hashlib.md5(b"").hexdigest()

# Failure kinds (the first part of a failure's signature)
STATEMENT_FAILED = "statement failed"        # statement ok raised an error
STATEMENT_SUCCEEDED = "statement succeeded"  # statement error ran without error
QUERY_ERROR = "query error"                  # query could not be prepared
COLUMN_COUNT = "column count"                # query's column count differs from its types
WRONG_RESULT = "wrong result"                # values (or their hash) differ
LABEL_MISMATCH = "label mismatch"            # digest differs from the label's first digest
CRASH = "crash"                              # the engine raised a non-DB-API exception
SCRIPT_ERROR = "script error"                # malformed record: the script ends there
TIMEOUT = "timeout"                          # the file ran over its time limit
WORKER_DIED = "worker died"                  # the process running the file died


@dataclass
class ScriptResult:
    """The outcome of one script on one engine. ``failures`` holds tuples
    ``(line, kind, message, sql)``, ``line`` being the record's first line (1-based)."""

    path: str
    engine: str
    records_run: int = 0
    skipped: int = 0
    failures: list = field(default_factory=list)
    status: str = "done"          # done | timeout | died | unreadable
    seconds: float = 0.0          # wall time of the whole script
    engine_seconds: float = 0.0   # time spent inside the engine's two operations
    cpu_seconds: float = 0.0      # CPU time of the process running the script
    last_line: int = 0            # line of the last record reached
    slowest_seconds: float = 0.0  # engine time of the script's slowest record
    slowest_line: int = 0         # that record's first line
    notes: list = field(default_factory=list)  # (line, text): records run differently

    @property
    def failed(self) -> int:
        """Records that failed (a label check of a skipped query counts here too)."""
        return len(self.failures)

    def to_dict(self) -> dict:
        return {
            "path": self.path, "engine": self.engine, "records_run": self.records_run,
            "skipped": self.skipped, "failures": [list(f) for f in self.failures],
            "status": self.status, "seconds": self.seconds,
            "engine_seconds": self.engine_seconds, "cpu_seconds": self.cpu_seconds,
            "last_line": self.last_line,
            "slowest_seconds": self.slowest_seconds, "slowest_line": self.slowest_line,
            "notes": [list(n) for n in self.notes],
        }

    @classmethod
    def from_dict(cls, d: dict) -> "ScriptResult":
        r = cls(d["path"], d["engine"])
        r.records_run = d["records_run"]
        r.skipped = d["skipped"]
        r.failures = [tuple(f) for f in d["failures"]]
        r.status = d["status"]
        r.seconds = d["seconds"]
        r.engine_seconds = d["engine_seconds"]
        r.cpu_seconds = d.get("cpu_seconds", 0.0)
        r.last_line = d["last_line"]
        r.slowest_seconds = d.get("slowest_seconds", 0.0)
        r.slowest_line = d.get("slowest_line", 0)
        r.notes = [tuple(n) for n in d["notes"]]
        return r


def result_digest(values: list[str]) -> str:
    """MD5 (hex) over each rendered value followed by a newline."""
    if not values:
        return _EMPTY_MD5
    return hashlib.md5(("\n".join(values) + "\n").encode("utf-8", "surrogateescape")).hexdigest()


def _expected_digest(expected_text: str) -> str:
    m = _HASH_LINE.match(expected_text)
    if m:
        return m.group(2)
    if not expected_text:
        return _EMPTY_MD5
    return hashlib.md5((expected_text + "\n").encode("utf-8", "surrogateescape")).hexdigest()


def _diff_message(vals, expected, step_error):
    n = min(len(vals), len(expected))
    for i in range(n):
        if vals[i] != expected[i]:
            msg = f"value {i + 1}: expected {expected[i]!r}, got {vals[i]!r}"
            break
    else:
        msg = f"expected {len(expected)} values, got {len(vals)}"
    if step_error is not None:
        msg += f" (error while stepping: {step_error})"
    return msg


def run_script(text: str, engine: Engine, path: str = "", progress=None,
               progress_every: int = 1000) -> ScriptResult:
    """Run the script ``text`` on ``engine`` (an open, empty database); return its result.

    ``progress(result)`` is called every ``progress_every`` records (counts so far).
    """
    result = ScriptResult(path, engine.name)
    failures = result.failures
    fail = failures.append
    notes = getattr(engine, "notes", None)
    statement = engine.statement
    query = engine.query
    clock = time.perf_counter
    md5 = hashlib.md5
    threshold = DEFAULT_HASH_THRESHOLD
    labels: dict[str, str] = {}
    run = skipped = 0
    t_engine = slowest = 0.0
    countdown = progress_every
    t_start = clock()
    prev_line = 0
    for rec in parse_script(text):
        if notes:
            result.notes.extend((prev_line, note) for note in notes)
            notes.clear()
        countdown -= 1
        if countdown == 0:
            countdown = progress_every
            if progress is not None:
                result.records_run, result.skipped = run, skipped
                result.last_line = prev_line
                result.engine_seconds = t_engine
                progress(result)
        prev_line = rec.line
        kind = rec.kind
        if rec.skip:
            skipped += 1
            if kind == "query" and rec.label is not None:
                digest = _expected_digest(rec.expected_text)
                known = labels.setdefault(rec.label, digest)
                if known != digest:
                    fail((rec.line, LABEL_MISMATCH,
                          f"skipped query: {rec.label} expected block hashes to {digest}, "
                          f"label has {known}", rec.sql))
            continue
        if kind == "statement":
            run += 1
            t0 = clock()
            try:
                err = statement(rec.sql)
            except EngineCrash as e:
                err = e
            dt = clock() - t0
            t_engine += dt
            if dt > slowest:
                slowest, result.slowest_line = dt, rec.line
            if isinstance(err, EngineCrash):
                fail((rec.line, CRASH, str(err), rec.sql))
                continue
            if rec.ok:
                if err is not None:
                    fail((rec.line, STATEMENT_FAILED, err, rec.sql))
            elif err is None:
                fail((rec.line, STATEMENT_SUCCEEDED, "statement ran without error", rec.sql))
        elif kind == "query":
            run += 1
            t0 = clock()
            error = None
            try:
                ncols, rows, step_error = query(rec.sql)
            except PrepareError as e:
                error = (QUERY_ERROR, e)
            except EngineCrash as e:
                error = (CRASH, e)
            dt = clock() - t0
            t_engine += dt
            if dt > slowest:
                slowest, result.slowest_line = dt, rec.line
            if error is not None:
                fail((rec.line, error[0], str(error[1]), rec.sql))
                continue
            types = rec.types
            if ncols != len(types) and ncols is not None:  # None: the adapter cannot tell
                fail((rec.line, COLUMN_COUNT,
                      f"expected {len(types)} columns, got {ncols}", rec.sql))
                continue
            vals = render_values(rows, types, rec.sort)
            label = rec.label
            nvals = len(vals)
            joined = "\n".join(vals)
            if 0 < threshold < nvals:
                digest = md5((joined + "\n").encode("utf-8", "surrogateescape")).hexdigest()
                got = f"{nvals} values hashing to {digest}"
                if rec.expected_text != got:
                    fail((rec.line, WRONG_RESULT,
                          f"expected {rec.expected_text[:80]!r}, got {got!r}"
                          + (f" (error while stepping: {step_error})" if step_error else ""),
                          rec.sql))
                    continue
            else:
                if joined != rec.expected_text:
                    fail((rec.line, WRONG_RESULT,
                          _diff_message(vals, rec.expected, step_error), rec.sql))
                    continue
                digest = result_digest(vals) if label is not None else None
            if label is not None:
                known = labels.setdefault(label, digest)
                if known != digest:
                    fail((rec.line, LABEL_MISMATCH,
                          f"{label}: result hashes to {digest}, label has {known}", rec.sql))
        elif kind == "hash-threshold":
            threshold = rec.threshold
        elif kind == "halt":
            result.last_line = rec.line
            break
        else:  # a malformed record ends the script
            fail((rec.line, SCRIPT_ERROR, rec.message, ""))
            result.last_line = rec.line
            break
    else:
        result.last_line = -1  # the whole script was read
    if notes:
        result.notes.extend((prev_line, note) for note in notes)
        notes.clear()
    result.records_run = run
    result.skipped = skipped
    result.engine_seconds = t_engine
    result.slowest_seconds = slowest
    result.seconds = clock() - t_start
    return result


def run_file(path, engine_name: str = "sqlite3", rel: str | None = None,
             progress=None) -> ScriptResult:
    """Open a fresh in-memory database on ``engine_name`` and run the script at ``path``."""
    t0 = time.perf_counter()
    c0 = time.process_time()
    text = read_script_text(path)
    engine = open_engine(engine_name)
    try:
        result = run_script(text, engine, rel if rel is not None else str(path), progress)
    finally:
        engine.close()
    result.seconds = time.perf_counter() - t0
    result.cpu_seconds = time.process_time() - c0
    return result
