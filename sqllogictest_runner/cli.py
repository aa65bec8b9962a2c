"""The command line: ``python -m sqllogictest_runner`` / ``sqllogictest``.

    sqllogictest [PATHS...] [--engine MODULE] [--compare MODULE] [-j N] [--timeout S]
                 [--shard K/N] [--json FILE] [--history FILE | --no-history]
                 [--history-module MODULE] [--clusters N] [--repro DIR]
                 [--baseline FILE [--update-baseline]] [--subset ci|all] [--no-progress]

PATHS are .test/.test.gz files or directories (walked recursively); by default the shared
corpus ``../shared/sqllogictest/test`` (else the repository's tests/slt). The exit status is
0 when nothing failed (with --baseline: when nothing regressed), 1 otherwise, 2 on bad usage.

This module wires the pieces together; it holds no runner logic of its own.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from sqllogictest_runner import baseline as baseline_mod
from sqllogictest_runner.clusters import Clusters
from sqllogictest_runner.corpus import ci_subset, collect, shard
from sqllogictest_runner.engines import open_engine
from sqllogictest_runner.harness import call_in_child, default_jobs, run_tasks
from sqllogictest_runner.report import format_slowest, format_table, summarise, to_json

__all__ = ["main", "build_parser"]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sqllogictest",
        description="Run sqllogictest scripts against a DB-API engine, the way the "
                    "reference runner (sqllogictest.c, verify mode) judges them.")
    p.add_argument("paths", nargs="*", help="scripts or directories (default: the corpus)")
    p.add_argument("--engine", default="sqlengine",
                   help="DB-API module to test (default: sqlengine)")
    p.add_argument("--compare", metavar="MODULE",
                   help="also run MODULE (e.g. sqlite3) and show both side by side")
    p.add_argument("-j", "--jobs", type=int, default=None,
                   help=f"worker processes (default: all cores, here {default_jobs()})")
    p.add_argument("--timeout", type=float, default=600.0,
                   help="time limit per file in seconds (default 600; 0 = none)")
    p.add_argument("--shard", metavar="K/N", help="run only shard K of N of the scripts")
    p.add_argument("--subset", choices=("all", "ci"), default=None,
                   help="ci: select1-5, evidence and the smallest script of every folder "
                        "(the default with --baseline)")
    p.add_argument("--json", metavar="FILE", help="write the machine-readable report here")
    p.add_argument("--history", metavar="FILE",
                   help="history database (default: results/sqllogictest/history.db)")
    p.add_argument("--no-history", action="store_true", help="do not record this run")
    p.add_argument("--history-module", default="auto",
                   help="DB-API module that writes the history (default: sqlengine if it "
                        "can, else sqlite3)")
    p.add_argument("--clusters", type=int, default=15, metavar="N",
                   help="show the N biggest failure signatures (default 15)")
    p.add_argument("--repro", metavar="DIR",
                   help="write a minimal reproduction script for each shown cluster")
    p.add_argument("--repro-budget", type=float, default=30.0, metavar="S",
                   help="seconds of reduction per reproduction (default 30)")
    p.add_argument("--baseline", metavar="FILE",
                   help="known failures (path:line); fail only on records not listed")
    p.add_argument("--update-baseline", action="store_true",
                   help="rewrite the --baseline file with this run's failures")
    p.add_argument("--failures", type=int, default=10, metavar="N",
                   help="list the first N failing records (default 10)")
    prog = p.add_mutually_exclusive_group()
    prog.add_argument("--progress", dest="progress", action="store_true", default=None,
                      help="show the progress bar even when not on a terminal")
    prog.add_argument("--no-progress", dest="progress", action="store_false")
    return p


def _slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")[:50] or "x"


def _probe_engine(name: str) -> None:
    eng = open_engine(name)
    try:
        eng.statement("CREATE TABLE probe(x)")
        eng.query("SELECT x FROM probe")
    finally:
        eng.close()


def _check_engine(name: str) -> str | None:
    status, value = call_in_child(_probe_engine, name, timeout=120)
    if status == "ok":
        return None
    if status == "died":
        return f"engine {name!r} cannot be used: the probe process died (exit code {value})"
    if status == "timeout":
        return f"engine {name!r} cannot be used: it did not answer within 120s"
    return f"engine {name!r} cannot be used: {value}"


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = sys.stdout
    engines = [args.engine] + ([args.compare] if args.compare and args.compare != args.engine
                               else [])
    for e in engines:
        err = _check_engine(e)
        if err:
            print(f"sqllogictest: {err}", file=sys.stderr)
            return 2
    try:
        scripts, root = collect(args.paths)
    except FileNotFoundError as e:
        print(f"sqllogictest: {e}", file=sys.stderr)
        return 2
    subset = args.subset or ("ci" if args.baseline and not args.paths else "all")
    if subset == "ci":
        scripts = ci_subset(scripts)
    if args.shard:
        try:
            scripts = shard(scripts, args.shard)
        except ValueError as e:
            print(f"sqllogictest: {e}", file=sys.stderr)
            return 2
    if not scripts:
        print("sqllogictest: no scripts to run", file=sys.stderr)
        return 2
    jobs = args.jobs or default_jobs()
    print(f"{len(scripts)} scripts under {root}, engine{'s' if len(engines) > 1 else ''} "
          f"{', '.join(engines)}, {jobs} jobs", file=out)
    t0 = time.monotonic()
    results = run_tasks(scripts, engines, jobs=jobs, timeout=args.timeout or None,
                        progress=args.progress)
    wall = time.monotonic() - t0
    summary = summarise(results)
    print(format_table(summary, engines, wall), file=out)

    primary = [r for r in results if r.engine == args.engine]
    slowest = format_slowest(results, args.engine)
    if slowest:
        print("\n" + slowest, file=out)
    failing = sorted((r for r in primary if r.failures), key=lambda r: r.path)
    if failing and args.failures:
        print(f"\nfirst failing records ({args.engine}):", file=out)
        shown = 0
        for r in failing:
            for f in r.failures:
                if shown >= args.failures:
                    break
                print(f"  {r.path}:{f[0]}: {f[1]}: {str(f[2])[:120]}", file=out)
                shown += 1
    notes = [(r.path, line, r.engine, note) for r in results for line, note in r.notes]
    for path, line, engine, note in notes[:30]:
        print(f"note: {path}:{line} ({engine}): {note}", file=out)
    if len(notes) > 30:
        print(f"note: ... {len(notes) - 30} more notes (all in the --json report)", file=out)

    clusters = Clusters()
    for r in primary:
        clusters.add_result(r)
    ranked = clusters.ranked(args.clusters)
    repros: dict = {}
    if ranked:
        print(f"\nfailure clusters ({args.engine}), biggest first:", file=out)
        print(clusters.format(args.clusters), file=out)
        if args.repro:
            repros = _write_repros(ranked, scripts, args, out)

    extra = {}
    if not args.no_history:
        extra["history"] = _record_history(results, engines, root, argv, wall,
                                           ranked, repros, args, out)
    status = 0 if all(not r.failures for r in primary) else 1
    if args.baseline:
        if args.update_baseline:
            n = baseline_mod.write(args.baseline, primary, args.engine)
            print(f"baseline: wrote {n} known failures to {args.baseline}", file=out)
            status = 0
        else:
            chk = baseline_mod.check(baseline_mod.load(args.baseline), primary)
            print(chk.format(), file=out)
            extra["baseline"] = {"regressions": chk.regressions, "fixed": chk.fixed}
            status = 0 if chk.ok else 1
    if args.json:
        Path(args.json).write_text(to_json(results, engines, wall, extra=extra))
        print(f"json report: {args.json}", file=out)
    return status


def _write_repros(ranked, scripts, args, out) -> dict:
    from sqllogictest_runner.repro import make_repro
    by_rel = {s.rel: s for s in scripts}
    d = Path(args.repro)
    written = {}
    print(f"\nreproductions in {d}:", file=out)
    for rank, (sig, _count, ex) in enumerate(ranked, 1):
        path, line = ex[0], ex[1]
        if sig[0] in ("timeout", "worker died", "script error") or path not in by_rel:
            continue
        name = d / f"{rank:02d}-{_slug(sig[0])}-{_slug(sig[1] or sig[2])}.test"
        # in a child process: an engine that crashes must not take the run with it
        status, res = call_in_child(make_repro, by_rel[path].path, line, args.engine,
                                    out=name, budget_seconds=args.repro_budget, rel=path,
                                    sig=sig, timeout=args.repro_budget * 4 + 60)
        if status != "ok":  # a reproduction is a help, never a reason to fail the run
            print(f"  {rank:>2}. {path}:{line}: could not reduce ({status}: {res})", file=out)
            continue
        if res is None:
            print(f"  {rank:>2}. {path}:{line}: does not reproduce alone", file=out)
            continue
        written[sig] = name
        print(f"  {rank:>2}. {name}  ({res[1]['setup']} statements, {res[1]['queries']} earlier"
              f" queries kept)", file=out)
    return written


def _record_history(results, engines, root, argv, wall, ranked, repros, args, out):
    from sqllogictest_runner.history import History, default_history_path
    path = Path(args.history) if args.history else default_history_path()
    try:
        h = History(path, args.history_module)
    except Exception as e:
        print(f"history: cannot open {path}: {type(e).__name__}: {e}", file=out)
        return None
    info = {"path": str(path), "module": h.module_name, "runs": {}}
    try:
        opts = " ".join(argv if argv is not None else sys.argv[1:])
        for e in engines:
            run_id = h.record_run(results, e, str(root), opts, wall,
                                  clusters=ranked if e == args.engine else None,
                                  repros=repros)
            cmp = h.compare(run_id, e)
            print(f"\nhistory ({path}, written with {h.module_name}): run {run_id} ({e})",
                  file=out)
            print(cmp.format(), file=out)
            info["runs"][e] = {"run": run_id, "previous": cmp.previous_run,
                               "new_failures": len(cmp.new_failures),
                               "new_passes": len(cmp.new_passes)}
    except Exception as e:
        print(f"history: could not record the run: {type(e).__name__}: {e}", file=out)
    finally:
        h.close()
    return info


if __name__ == "__main__":
    sys.exit(main())
