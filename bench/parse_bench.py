"""Parse time of sqlengine against sqlite3's whole prepare + execute + fetch, in one run.

    python bench/parse_bench.py [--files N] [--queries N] [--repeat N] [--seed S] [--profile]

Takes a fixed sample (seeded) of the queries of the corpus's ``random/expr`` scripts. For
each script its own CREATE/INSERT statements build an in-memory sqlite3 database (with
the stdlib statement cache off, so every query is prepared again), then for every sampled
query it measures the best of ``repeat`` runs of:

- sqlengine: ``sqlengine.sql.parser.parse_one`` (uncached; the compiled driver when built),
  and, when the compiler is importable, parse + ``compile_statement`` against a
  ``sqlengine.database.Database`` holding the same tables (uncached too),
- sqlite3: ``conn.execute(q).fetchall()``.

It prints the medians and the ratio (the issue's target: parse + compile <= 3x sqlite3's
execution). ``--profile`` adds a cProfile of the parse loop (it sees only the reductions
left in Python, builder.py; the compiled loop and tokenizer are one line). Reads the corpus, writes
nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sqlengine.sql import parser  # noqa: E402
from sqlengine.sql.corpus_check import iter_sql  # noqa: E402

CORPUS = "/work/shared/sqllogictest/test/random/expr"


def load(files: int, queries: int, seed: int):
    """[(setup statements, [queries])] for a seeded sample of scripts and queries."""
    rng = random.Random(seed)
    names = sorted(f for f in os.listdir(CORPUS) if f.endswith(".test.gz"))
    picked = rng.sample(names, min(files, len(names)))
    per_file = max(1, queries // len(picked))
    out = []
    for name in picked:
        setup, qs = [], []
        for kind, sql in iter_sql(os.path.join(CORPUS, name)):
            if kind == "query":
                qs.append(sql)
            elif kind == "statement ok":
                setup.append(sql)
        out.append((setup, rng.sample(qs, min(per_file, len(qs)))))
    return out


def best_time(fn, arg, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn(arg)
        dt = time.perf_counter() - t
        if dt < best:
            best = dt
    return best


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=10)
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--no-compile", action="store_true",
                    help="skip the parse+compile measurement (sqlengine.compiler)")
    args = ap.parse_args(argv)

    sample = load(args.files, args.queries, args.seed)
    ours, theirs, compiled = [], [], []
    compile_statement = Database = None
    if not args.no_compile:
        try:
            from sqlengine.compiler.statement import compile_statement
            from sqlengine.database import Database
        except ImportError:
            pass
    driver = getattr(parser, "DRIVER", "python")
    for setup, queries in sample:
        conn = sqlite3.connect(":memory:", cached_statements=0)
        for s in setup:
            conn.execute(s)

        def run_sqlite(q, conn=conn):
            try:
                conn.execute(q).fetchall()
            except sqlite3.Error:
                pass

        db = None
        if compile_statement is not None:
            try:
                db = Database(":memory:")
                for s in setup:
                    db.execute(s)
            except Exception as e:  # the engine cannot run this script's setup yet
                print(f"  (no parse+compile for this script: {type(e).__name__}: {e})")
                db = None

        def parse_compile(q, db=db):
            p = parser.parse_one(q)
            return compile_statement(db, p.stmt, p.text)

        for q in queries:
            ours.append(best_time(parser.parse_one, q, args.repeat))
            theirs.append(best_time(run_sqlite, q, args.repeat))
            if db is not None:
                try:
                    parse_compile(q)
                except Exception:
                    continue
                compiled.append(best_time(parse_compile, q, args.repeat))
        conn.close()
    lex = []
    try:
        from sqlengine.sql import _parser
    except ImportError:
        _parser = None
    if _parser is not None:
        for _, queries in sample:
            for q in queries:
                lex.append(best_time(_parser.tokenize, q, args.repeat))
    mo, mt = statistics.median(ours), statistics.median(theirs)
    print(f"random/expr sample: {len(ours)} queries from {len(sample)} scripts "
          f"(seed {args.seed}, best of {args.repeat}), parser driver: {driver}")
    print(f"  sqlengine parse           median {mo * 1e6:8.1f} us")
    print(f"  sqlite3 prepare+run+fetch median {mt * 1e6:8.1f} us")
    if lex:
        print(f"    of which tokenizing     median {statistics.median(lex) * 1e6:8.1f} us")
    print(f"  ratio parse / sqlite3: {mo / mt:.2f}x")
    if compiled:
        mc = statistics.median(compiled)
        print(f"  sqlengine parse+compile   median {mc * 1e6:8.1f} us "
              f"({len(compiled)} queries compiled)")
        print(f"  ratio parse+compile / sqlite3: {mc / mt:.2f}x (target <= 3x)")
    if args.profile:
        import cProfile
        import pstats

        qs = [q for _, queries in sample for q in queries]
        prof = cProfile.Profile()
        prof.enable()
        for q in qs:
            parser.parse_one(q)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
