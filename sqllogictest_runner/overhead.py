"""Measure the runner's own cost per record: ``python -m sqllogictest_runner.overhead PATHS``.

For each script, in this process, three CPU-time measurements (time.process_time):

- ``full``: the runner (parse, engine, render, sort, hash, compare);
- ``bare``: the same statements and queries handed straight to the DB-API module
  (``cursor.execute`` + ``fetchall``, errors ignored), records pre-parsed: the engine's share;
- ``parse``: reading the records alone.

overhead per record = (full - bare) / (records run + skipped). ``--profile`` adds a cProfile
listing of the full runs. This module only measures; it never judges a record.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import pstats
import time

from sqllogictest_runner.corpus import collect
from sqllogictest_runner.engines import open_engine
from sqllogictest_runner.parser import parse_script, read_script_text
from sqllogictest_runner.runner import run_script


def _bare(module, records) -> float:
    mod = importlib.import_module(module)
    con = mod.connect(":memory:", isolation_level=None)
    cur = con.cursor()
    err = mod.Error
    t = time.process_time()
    for r in records:
        try:
            cur.execute(r.sql)
            cur.fetchall()
        except err:
            pass
    dt = time.process_time() - t
    con.close()
    return dt


def measure(paths, engine="sqlite3", profile=False) -> str:
    scripts, _ = collect(paths)
    tot = {"full": 0.0, "bare": 0.0, "parse": 0.0, "records": 0}
    prof = cProfile.Profile() if profile else None
    lines = [f"{'script':<48}{'records':>9}{'full s':>9}{'bare s':>9}{'parse s':>9}{'us/rec':>8}"]
    for s in scripts:
        text = read_script_text(s.path)
        t = time.process_time()
        records = list(parse_script(text))
        parse = time.process_time() - t
        runnable = [r for r in records if not r.skip and r.kind in ("statement", "query")]
        bare = _bare(engine, runnable)
        eng = open_engine(engine)
        t = time.process_time()
        res = run_script(text, eng)
        full = time.process_time() - t
        eng.close()
        if prof is not None:
            eng = open_engine(engine)
            prof.runcall(run_script, text, eng)
            eng.close()
        n = res.records_run + res.skipped
        tot["full"] += full
        tot["bare"] += bare
        tot["parse"] += parse
        tot["records"] += n
        lines.append(f"{s.rel[-47:]:<48}{n:>9,}{full:>9.2f}{bare:>9.2f}{parse:>9.2f}"
                     f"{1e6 * (full - bare) / max(1, n):>8.2f}")
    n = max(1, tot["records"])
    lines.append(f"{'TOTAL':<48}{tot['records']:>9,}{tot['full']:>9.2f}{tot['bare']:>9.2f}"
                 f"{tot['parse']:>9.2f}{1e6 * (tot['full'] - tot['bare']) / n:>8.2f}")
    lines.append(f"runner overhead {1e6 * (tot['full'] - tot['bare']) / n:.2f} us per record "
                 f"(of which parsing {1e6 * tot['parse'] / n:.2f}); engine alone "
                 f"{1e6 * tot['bare'] / n:.2f} us per record")
    if prof is not None:
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(15)
        lines.append(buf.getvalue())
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m sqllogictest_runner.overhead",
                                description=__doc__.splitlines()[0])
    p.add_argument("paths", nargs="+")
    p.add_argument("--engine", default="sqlite3")
    p.add_argument("--profile", action="store_true")
    args = p.parse_args(argv)
    print(measure(args.paths, args.engine, args.profile))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
