"""Run many scripts in parallel worker processes, with a time limit per file and a progress bar.

Each (script, engine) pair is one task; tasks go biggest script first to ``jobs`` worker
processes (fork), one task at a time per worker. A worker reports progress every thousand
records (counts and the failures found so far), then the finished ScriptResult. The parent
kills a worker whose task runs past ``timeout`` seconds (the file is reported as timed out,
with what it had done so far) or notices one that died, starts a fresh worker, and goes on.

This module schedules and collects; it never judges a record (runner.py) and never formats
the final report (report.py).

After a worker's first script of an engine (the engine's modules imported, its caches warmed),
the worker collects and freezes everything alive (gc.freeze): the interpreter's, harness's
and engine's long-lived objects then never take part in a later full collection, whose pause
would otherwise scan them all and land, by chance, inside whichever script is running — a
stall of tens of milliseconds that can make a script of a dozen records look 100x slower than
it is. The garbage each script makes is still collected, inside its own timing.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import sys
import time
import traceback
from collections import deque
from multiprocessing.connection import wait

from sqllogictest_runner.corpus import Script
from sqllogictest_runner.runner import TIMEOUT, WORKER_DIED, ScriptResult, run_file

__all__ = ["run_tasks", "default_jobs", "call_in_child"]


def _child_call(conn, fn, args, kwargs):
    try:
        conn.send(("ok", fn(*args, **kwargs)))
    except BaseException as e:
        conn.send(("error", f"{type(e).__name__}: {e}"))
    conn.close()


def call_in_child(fn, *args, timeout: float | None = None, **kwargs):
    """Run ``fn(*args, **kwargs)`` in a forked process, so that an engine that crashes the
    interpreter (or hangs) cannot take the caller with it.

    Returns ("ok", value), ("error", message), ("died", exit code) or ("timeout", None).
    """
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child_call, args=(child, fn, args, kwargs), daemon=True)
    proc.start()
    child.close()
    try:
        if parent.poll(timeout):
            try:
                return parent.recv()
            except (EOFError, OSError):
                pass
        else:
            proc.kill()
            proc.join(5)
            return ("timeout", None)
        proc.join(5)
        return ("died", proc.exitcode)
    finally:
        parent.close()
        proc.join(1)
        if proc.is_alive():
            proc.kill()


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:
        return os.cpu_count() or 1


def _worker_main(conn) -> None:
    warmed: set[str] = set()
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        task_id, path, rel, engine = task
        sent = 0

        def progress(res, task_id=task_id):
            nonlocal sent
            new = res.failures[sent:]
            sent = len(res.failures)
            conn.send(("p", task_id, res.records_run, res.skipped, res.last_line,
                       res.engine_seconds, new))

        try:
            result = run_file(path, engine, rel, progress)
        except Exception as e:  # unreadable file, engine that cannot connect, ...
            result = ScriptResult(rel, engine, status="error")
            result.failures.append((0, "harness error", f"{type(e).__name__}: {e}",
                                    traceback.format_exc(limit=3)))
        conn.send(("r", task_id, result))
        if engine not in warmed:
            warmed.add(engine)
            gc.collect()
            gc.freeze()


class _Worker:
    def __init__(self, ctx):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        self.task = None
        self.started = 0.0
        self.partial: ScriptResult | None = None

    def kill(self):
        try:
            self.proc.kill()
        except Exception:
            pass
        self.proc.join(5)
        self.conn.close()


class _Progress:
    """One status line on a TTY: files, records, pass rate, ETA (from bytes done)."""

    def __init__(self, total_tasks, total_bytes, stream, enabled):
        self.total_tasks = total_tasks
        self.total_bytes = max(1, total_bytes)
        self.stream = stream
        self.enabled = enabled
        self.t0 = time.monotonic()
        self.last = 0.0
        self.width = 0

    def show(self, done_tasks, done_bytes, running, records, failed, force=False):
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self.last < 0.25:
            return
        self.last = now
        elapsed = now - self.t0
        bytes_per_rec = done_bytes / records if records and done_bytes else 0
        est = done_bytes + sum(min(p.records_run * bytes_per_rec, size)
                               for p, size in running)
        frac = min(1.0, est / self.total_bytes)
        eta = (elapsed / frac - elapsed) if frac > 0.01 else None
        live = records + sum(p.records_run for p, _ in running)
        live_failed = failed + sum(p.failed for p, _ in running)
        rate = 100.0 * (live - live_failed) / live if live else 100.0
        bar_w = 24
        fill = int(bar_w * frac)
        line = (f"[{'#' * fill}{'.' * (bar_w - fill)}] files {done_tasks}/{self.total_tasks}"
                f"  records {live:,}  pass {rate:.2f}%"
                f"  elapsed {_hms(elapsed)}  ETA {_hms(eta) if eta is not None else '?'}")
        pad = max(0, self.width - len(line))
        self.width = len(line)
        self.stream.write("\r" + line + " " * pad)
        self.stream.flush()

    def close(self):
        if self.enabled and self.width:
            self.stream.write("\n")
            self.stream.flush()


def _hms(s: float) -> str:
    s = int(s)
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 60}m{s % 60:02d}s"


def run_tasks(scripts: list[Script], engines: list[str], jobs: int | None = None,
              timeout: float | None = None, progress: bool | None = None,
              on_result=None, stream=None) -> list[ScriptResult]:
    """Run every script on every engine; return the results (one per script and engine).

    ``on_result(result)`` is called as each task finishes (in the parent process).
    """
    stream = stream if stream is not None else sys.stderr
    if progress is None:
        progress = stream.isatty()
    jobs = max(1, jobs or default_jobs())
    tasks = deque()
    for s in sorted(scripts, key=lambda s: (-s.size, s.rel)):
        for e in engines:
            tasks.append((s, e))
    ntasks = len(tasks)
    jobs = min(jobs, max(1, ntasks))
    total_bytes = sum(s.size for s, _ in tasks)
    ctx = mp.get_context("fork")
    bar = _Progress(ntasks, total_bytes, stream, progress)
    results: list[ScriptResult] = []
    done_bytes = 0
    records = failed = 0
    workers = [_Worker(ctx) for _ in range(jobs)]
    task_ids = iter(range(1 << 62))

    def finish(w, result):
        nonlocal done_bytes, records, failed
        script, _ = w.task
        done_bytes += script.size
        records += result.records_run
        failed += result.failed
        results.append(result)
        w.task = None
        w.partial = None
        if on_result is not None:
            on_result(result)

    try:
        while tasks or any(w.task for w in workers):
            for w in workers:
                if w.task is None and tasks:
                    script, engine = tasks.popleft()
                    w.task = (script, engine)
                    w.task_id = next(task_ids)
                    w.started = time.monotonic()
                    w.partial = ScriptResult(script.rel, engine, status="running")
                    w.conn.send((w.task_id, script.path, script.rel, engine))
            busy = [w for w in workers if w.task is not None]
            ready = wait([w.conn for w in busy], timeout=0.2)
            for w in busy:
                if w.conn not in ready:
                    continue
                try:
                    while w.conn.poll():
                        msg = w.conn.recv()
                        if msg[1] != w.task_id:
                            continue
                        if msg[0] == "p":
                            p = w.partial
                            _, _, p.records_run, p.skipped, p.last_line, p.engine_seconds, new = msg
                            p.failures.extend(new)
                        else:
                            result = msg[2]
                            finish(w, result)
                            break
                except (EOFError, OSError):
                    p = w.partial
                    p.status = "died"
                    p.seconds = time.monotonic() - w.started
                    w.proc.join(2)
                    p.failures.append((p.last_line, WORKER_DIED,
                                       f"the worker process died (exit code "
                                       f"{w.proc.exitcode}) after line {p.last_line}", ""))
                    w.kill()
                    finish(w, p)
                    workers[workers.index(w)] = _Worker(ctx)
            if timeout:
                now = time.monotonic()
                for i, w in enumerate(workers):
                    if w.task is not None and now - w.started > timeout:
                        p = w.partial
                        p.status = "timeout"
                        p.seconds = now - w.started
                        p.failures.append((p.last_line, TIMEOUT,
                                           f"timed out after {timeout:g}s at line "
                                           f"{p.last_line}", ""))
                        w.kill()
                        finish(w, p)
                        workers[i] = _Worker(ctx)
            running = [(w.partial, w.task[0].size) for w in workers if w.task is not None]
            bar.show(len(results), done_bytes, running, records, failed)
        bar.show(len(results), done_bytes, [], records, failed, force=True)
    finally:
        bar.close()
        for w in workers:
            try:
                w.conn.send(None)
            except Exception:
                pass
        for w in workers:
            w.proc.join(2)
            if w.proc.is_alive():
                w.kill()
    return results
