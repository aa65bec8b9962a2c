"""Parse every SQL text of the sqllogictest corpus and count what sqlengine gets wrong.

    python -m sqlengine.sql.corpus_check [--corpus DIR] [--every N] [--limit FILES] [-v]

For each record that the reference runner would run under SQLite (``skipif``/``onlyif``
applied), the record's SQL is parsed with ``sqlengine.sql.parse_one`` (only the first
statement counts, as in the reference runner). The stdlib ``sqlite3`` module is the
oracle, asked (with ``EXPLAIN`` in front, so nothing runs) whether the text is a syntax
error; only syntax verdicts are compared (``no such table`` and the like are not the
parser's business). It reports:

- false rejects: sqlengine raises, SQLite's parser accepts;
- false accepts: sqlengine accepts, SQLite reports a syntax error;
- wrong messages: both reject, with different words.

This is a report tool, not a test: it never modifies the corpus and never writes files.
"""

from __future__ import annotations

import argparse
import gzip
import os
import sqlite3
import sys
import time

from ..errors import OperationalError
from . import parser

DEFAULT_CORPUS = "/work/shared/sqllogictest/test"
SYNTAX_WORDS = ("syntax error", "incomplete input", "unrecognized token")


def iter_sql(path: str):
    """(kind, sql) for every record of a script that runs under SQLite."""
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
        lines = [ln.rstrip("\r\n").rstrip("\r") for ln in f]
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip() or line.startswith("#"):
            i += 1
            continue
        skip = False
        while True:
            words = line.split()
            if words and words[0] == "skipif":
                skip |= len(words) > 1 and words[1].lower() == "sqlite"
            elif words and words[0] == "onlyif":
                skip |= len(words) > 1 and words[1].lower() != "sqlite"
            else:
                break
            i += 1
            if i >= n:
                return
            line = lines[i]
        words = line.split()
        i += 1
        body = []
        while i < n and lines[i].strip() and lines[i] != "----":
            if not lines[i].startswith("#"):
                body.append(lines[i])
            i += 1
        while i < n and lines[i].strip():
            i += 1
        if skip or not words:
            continue
        if words[0] == "halt":
            return
        if words[0] == "statement":
            yield ("statement " + (words[1] if len(words) > 1 else ""), "\n".join(body))
        elif words[0] == "query":
            yield ("query", "\n".join(body))


def oracle(conn: sqlite3.Connection, sql: str) -> str | None:
    """SQLite's syntax verdict: None when its parser accepts, else its message."""
    text = sql.lstrip()
    probe = sql if text[:7].upper() == "EXPLAIN" else "EXPLAIN " + sql
    try:
        conn.execute(probe)
    except sqlite3.Warning:
        return None
    except sqlite3.Error as e:
        msg = str(e)
        if any(w in msg for w in SYNTAX_WORDS) or "should come after" in msg \
                or "unknown join type" in msg or "JOIN clause is required" in msg:
            return msg
        return None
    return None


def mine(sql: str) -> str | None:
    try:
        parser.parse_one(sql)
    except OperationalError as e:
        return str(e)
    except Exception as e:  # a crash is a failure of its own kind
        return f"CRASH {type(e).__name__}: {e}"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--every", type=int, default=1, help="take every Nth script")
    ap.add_argument("--limit", type=int, default=0, help="at most this many scripts")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    files = sorted(
        os.path.join(d, f) for d, _, fs in os.walk(args.corpus) for f in fs if f.endswith(".test.gz"))
    files = files[:: args.every]
    if args.limit:
        files = files[: args.limit]
    conn = sqlite3.connect(":memory:")
    seen = set()
    records = distinct = 0
    false_reject, false_accept, wrong_msg = [], [], []
    t0 = time.perf_counter()
    parse_time = 0.0
    for path in files:
        for kind, sql in iter_sql(path):
            records += 1
            h = hash(sql)
            if h in seen:
                continue
            seen.add(h)
            distinct += 1
            t = time.perf_counter()
            got = mine(sql)
            parse_time += time.perf_counter() - t
            if got is None and kind != "statement error":
                continue
            want = oracle(conn, sql)
            if got is None and want is not None:
                false_accept.append((sql, want))
            elif got is not None and want is None:
                false_reject.append((sql, got))
            elif got is not None and got != want:
                wrong_msg.append((sql, got, want))
    dt = time.perf_counter() - t0
    print(f"scripts: {len(files)}  records: {records}  distinct SQL texts: {distinct}")
    print(f"false rejects: {len(false_reject)}  false accepts: {len(false_accept)}  "
          f"wrong messages: {len(wrong_msg)}")
    print(f"parse time: {parse_time:.1f}s ({1e6 * parse_time / max(distinct, 1):.0f} us/text), "
          f"total {dt:.1f}s")
    shown = 0 if not args.verbose else 20
    for sql, got in false_reject[:shown or 5]:
        print("REJECT", repr(sql[:300]), "->", got)
    for sql, want in false_accept[:shown or 5]:
        print("ACCEPT", repr(sql[:300]), "-> sqlite:", want)
    for sql, got, want in wrong_msg[:shown or 5]:
        print("MSG", repr(sql[:300]), "->", got, "| sqlite:", want)
    return 1 if (false_reject or false_accept or wrong_msg) else 0


if __name__ == "__main__":
    sys.exit(main())
