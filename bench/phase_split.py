"""Where sqlengine's time goes on corpus scripts: parsing, compiling, and the rest.

    python bench/phase_split.py SCRIPT [SCRIPT ...] [--compare]

Runs each sqllogictest script the way the harness does (``sqllogictest_runner.runner
.run_file``, a fresh in-memory database) and times, in the same run, the calls of
``sqlengine.database``'s ``parse_one`` and ``compile_statement`` (CPU time); "rest" is the
script's remaining CPU time: running the programs, the DB-API layer and the harness itself.
``--compare`` also runs each script on sqlite3 and prints its CPU time beside. A profile of
the same loop: ``python -m cProfile -s tottime bench/phase_split.py SCRIPT``. Reads the
scripts, writes nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

# this checkout's package, not whichever one the environment has installed
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sqlengine.database as D  # noqa: E402
from sqllogictest_runner import runner  # noqa: E402


class PhaseClock:
    """Wraps ``sqlengine.database``'s parse and compile entry points with CPU-time counters."""

    def __init__(self):
        self.seconds = {"parse": 0.0, "compile": 0.0}
        self.calls = {"parse": 0, "compile": 0}
        self._saved = {"parse_one": D.parse_one, "compile_statement": D.compile_statement}
        D.parse_one = self._timed("parse", D.parse_one)
        D.compile_statement = self._timed("compile", D.compile_statement)

    def _timed(self, phase, func):
        clock = time.process_time
        seconds, calls = self.seconds, self.calls

        def timed(*args, **kwargs):
            t = clock()
            try:
                return func(*args, **kwargs)
            finally:
                seconds[phase] += clock() - t
                calls[phase] += 1
        return timed

    def reset(self):
        for k in self.seconds:
            self.seconds[k] = 0.0
            self.calls[k] = 0

    def restore(self):
        for name, func in self._saved.items():
            setattr(D, name, func)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scripts", nargs="+")
    ap.add_argument("--compare", action="store_true", help="also time sqlite3 on each script")
    args = ap.parse_args(argv)
    clock = PhaseClock()
    totals = {"total": 0.0, "parse": 0.0, "compile": 0.0, "sqlite3": 0.0}
    try:
        for path in args.scripts:
            clock.reset()
            result = runner.run_file(path, "sqlengine")
            total, s = result.cpu_seconds, clock.seconds
            line = (f"{path.split('test/')[-1]:48} cpu {total:7.2f}s  parse {s['parse']:6.2f}s"
                    f"  compile {s['compile']:6.2f}s ({clock.calls['compile']} statements,"
                    f" {1e6 * s['compile'] / max(1, clock.calls['compile']):5.0f} us each)"
                    f"  rest {total - s['parse'] - s['compile']:6.2f}s")
            totals["total"] += total
            totals["parse"] += s["parse"]
            totals["compile"] += s["compile"]
            if args.compare:
                theirs = runner.run_file(path, "sqlite3").cpu_seconds
                totals["sqlite3"] += theirs
                line += f"  sqlite3 {theirs:6.2f}s ({total / theirs:4.1f}x)"
            print(line, flush=True)
    finally:
        clock.restore()
    if len(args.scripts) > 1:
        t = totals
        line = (f"{'TOTAL':48} cpu {t['total']:7.2f}s  parse {t['parse']:6.2f}s"
                f"  compile {t['compile']:6.2f}s  rest {t['total'] - t['parse'] - t['compile']:6.2f}s")
        if args.compare:
            line += f"  sqlite3 {t['sqlite3']:6.2f}s ({t['total'] / t['sqlite3']:4.1f}x)"
        print(line)


if __name__ == "__main__":
    main()
