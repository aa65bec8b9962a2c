"""EXPLAIN QUERY PLAN of sqlengine against sqlite3's for a sample of corpus queries from
every folder: the same tables read in the same order, each by a full scan or a search, with
the same index (or the rowid, or an automatic index).

The corpus scripts are read at test time from ``../shared/sqllogictest/test`` (beside the
repository); without them this module is skipped. Each folder contributes the queries of its
first script (every ``STRIDE``-th query, at most ``PER_FOLDER``); the schema and rows come
from the script's statements before each query, run on both engines. The plans that still
differ are listed in ``KNOWN``: the test fails when a query outside that list differs, so
the agreement can only grow. The agreement rate is printed (run with ``-s``).
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

import sqlengine
from sqllogictest_runner.parser import parse_file

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "sqllogictest" / "test"

if not CORPUS.is_dir():
    pytest.skip(f"no sqllogictest corpus at {CORPUS}", allow_module_level=True)

PER_FOLDER = 12
STRIDE = 7
MAX_RECORDS = 2500  # statements + queries read from the start of a script

_LINE = re.compile(r"(SCAN|SEARCH) (\S+)(.*)")


def normalise(rows):
    """[(SCAN|SEARCH, table, how)] of a plan: how = index name, <rowid>, <auto> or None."""
    out = []
    for r in rows:
        m = _LINE.match(r[3])
        if not m:
            continue
        kind, table, rest = m.groups()
        how = None
        if "INTEGER PRIMARY KEY" in rest:
            how = "<rowid>"
        elif "AUTOMATIC" in rest:
            how = "<auto>"
        else:
            im = re.search(r"USING (?:COVERING )?INDEX (\S+)", rest)
            if im:
                how = im.group(1)
        out.append((kind, table, how))
    return out


def _folders():
    """(folder name, first script) for every folder of the corpus that holds scripts."""
    out = []
    for p in sorted(CORPUS.glob("*.test*")):
        out.append((p.name.split(".")[0], p))
    for d in sorted(x for x in CORPUS.rglob("*") if x.is_dir()):
        scripts = sorted(d.glob("*.test*"))
        if scripts:
            out.append((str(d.relative_to(CORPUS)), scripts[0]))
    return out


def _compare(script):
    """[(key, same?)] for the sampled queries of one script."""
    recs = parse_file(script)[:MAX_RECORDS]
    ref = sqlite3.connect(":memory:")
    eng = sqlengine.connect(":memory:")
    results = []
    n_query = 0
    for r in recs:
        if r.skip:
            continue
        if r.kind == "statement":
            for con in (ref, eng):
                try:
                    con.execute(r.sql)
                except Exception:  # noqa: BLE001 - statement errors are the script's business
                    pass
            continue
        if r.kind != "query":
            continue
        n_query += 1
        if n_query % STRIDE != 1 or len(results) >= PER_FOLDER:
            continue
        try:
            want = normalise(ref.execute("EXPLAIN QUERY PLAN " + r.sql).fetchall())
        except sqlite3.Error:
            continue
        try:
            got = normalise(eng.execute("EXPLAIN QUERY PLAN " + r.sql).fetchall())
        except sqlengine.Error as e:
            got = str(e)
        results.append((f"{script.relative_to(CORPUS)}:{r.line}", want == got))
    ref.close()
    eng.close()
    return results


# Queries whose plans still differ from sqlite3's (script:line): OR terms answered by
# several indexes (MULTI-INDEX OR), IN lists on an index, compound SELECTs, views sqlite3
# does not flatten. Must not grow.
KNOWN = frozenset("""
select4.test.gz:3328
select4.test.gz:3530
select4.test.gz:4482
select4.test.gz:4645
evidence/in1.test.gz:144
evidence/in1.test.gz:186
evidence/in1.test.gz:469
evidence/in1.test.gz:508
index/between/10/slt_good_1.test.gz:504
index/between/1000/slt_good_0.test.gz:3256
index/between/1000/slt_good_0.test.gz:3326
index/between/1000/slt_good_0.test.gz:3421
index/commute/10/slt_good_0.test.gz:140
index/commute/10/slt_good_0.test.gz:175
index/commute/10/slt_good_0.test.gz:245
index/commute/100/slt_good_0.test.gz:704
index/commute/1000/slt_good_0.test.gz:3132
index/commute/1000/slt_good_0.test.gz:3266
index/commute/1000/slt_good_0.test.gz:3371
index/delete/1/slt_good_0.test.gz:765
index/in/10/slt_good_3.test.gz:254
index/in/10/slt_good_3.test.gz:303
index/orderby_nosort/1000/slt_good_0.test.gz:3315
index/orderby_nosort/1000/slt_good_0.test.gz:3371
index/random/10/slt_good_0.test.gz:354
""".split())


def test_query_plans_agree_with_sqlite3():
    total = 0
    agree = 0
    new = []
    fixed = []
    lines = []
    for folder, script in _folders():
        res = _compare(script)
        a = sum(1 for _k, ok in res if ok)
        total += len(res)
        agree += a
        lines.append(f"  {folder:<28} {a:>3}/{len(res)}")
        for key, ok in res:
            if not ok and key not in KNOWN:
                new.append(key)
            if ok and key in KNOWN:
                fixed.append(key)
    print(f"\nEXPLAIN QUERY PLAN agreement with sqlite3: {agree}/{total} "
          f"({100.0 * agree / max(total, 1):.1f}%)")
    print("\n".join(lines))
    if fixed:
        print("now agreeing (can leave KNOWN):", " ".join(fixed))
    assert total > 0
    assert not new, f"plans that differ from sqlite3's and are not in KNOWN: {new}"
