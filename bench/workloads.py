"""The benchmark workloads of issue 10, written once against the DB-API so that any
sqlite3-compatible module can run them.

Each workload is a class with ``setup(con, n)`` (untimed: builds the data from a fixed
seed) and ``run(con, n)`` (timed). ``n`` is the workload's base size times ``--scale``.
The runner sets ``module_name`` on the instance before ``setup`` (the DB-API module under
test), for the workloads that open their own connections. Workloads never print and never
depend on which engine runs them.
"""

from __future__ import annotations

import math
import random
import re
import string

WORKLOADS: dict[str, type] = {}


def workload(cls):
    WORKLOADS[cls.name] = cls
    return cls


def _rows(n, seed=1):
    rng = random.Random(seed)
    letters = string.ascii_lowercase
    for i in range(n):
        yield (
            i,
            rng.randint(-1_000_000, 1_000_000),
            rng.random() * 1000,
            "".join(rng.choice(letters) for _ in range(12)),
            rng.randbytes(16),
        )


def _fill(con, n, table="t", with_pk=True):
    pk = "INTEGER PRIMARY KEY" if with_pk else "INTEGER"
    con.execute(f"CREATE TABLE {table}(id {pk}, i INTEGER, r REAL, s TEXT, b BLOB)")
    con.executemany(f"INSERT INTO {table} VALUES (?,?,?,?,?)", _rows(n))
    con.commit()


@workload
class BulkInsert:
    name = "bulk_insert"
    doc = "executemany of 100,000 rows (int, real, text, blob) in one transaction"
    base = 100_000

    def setup(self, con, n):
        con.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BLOB)")
        con.commit()
        self.rows = list(_rows(n))

    def run(self, con, n):
        con.executemany("INSERT INTO t VALUES (?,?,?,?,?)", self.rows)
        con.commit()


@workload
class SmallTransactions:
    name = "small_transactions"
    doc = "1,000 single-row INSERT + COMMIT on a file database"
    base = 1_000

    def setup(self, con, n):
        con.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT)")
        con.commit()

    def run(self, con, n):
        for i in range(n):
            con.execute("INSERT INTO t VALUES (?, ?)", (i, "row %d" % i))
            con.commit()


@workload
class PointLookups:
    name = "point_lookups"
    doc = "10,000 lookups by INTEGER PRIMARY KEY and 10,000 by a secondary index"
    base = 10_000

    def setup(self, con, n):
        _fill(con, n * 10)
        con.execute("CREATE INDEX t_i ON t(i)")
        con.commit()
        rng = random.Random(2)
        self.ids = [rng.randrange(n * 10) for _ in range(n)]
        self.keys = [r[0] for r in con.execute("SELECT i FROM t ORDER BY random() LIMIT ?", (n,))]

    def run(self, con, n):
        for k in self.ids:
            con.execute("SELECT * FROM t WHERE id = ?", (k,)).fetchall()
        for k in self.keys:
            con.execute("SELECT * FROM t WHERE i = ?", (k,)).fetchall()


@workload
class RangeScans:
    name = "range_scans"
    doc = "1,000 indexed range queries returning about 100 rows each"
    base = 1_000

    def setup(self, con, n):
        _fill(con, 100_000)
        con.execute("CREATE INDEX t_i ON t(i)")
        con.commit()
        rng = random.Random(3)
        self.starts = [rng.randint(-1_000_000, 999_000) for _ in range(n)]

    def run(self, con, n):
        for lo in self.starts:
            con.execute("SELECT id, s FROM t WHERE i BETWEEN ? AND ?", (lo, lo + 1000)).fetchall()


@workload
class FullScanAggregate:
    name = "scan_aggregate"
    doc = "count, sum, avg with a WHERE filter over 1,000,000 rows"
    base = 1_000_000

    def setup(self, con, n):
        _fill(con, n)

    def run(self, con, n):
        con.execute("SELECT count(*), sum(i), avg(r) FROM t WHERE r > 250.0").fetchall()


@workload
class GroupByOrderBy:
    name = "group_order"
    doc = "GROUP BY into ~1,000 groups over 1,000,000 rows; ORDER BY unindexed LIMIT 10"
    base = 1_000_000

    def setup(self, con, n):
        _fill(con, n)

    def run(self, con, n):
        con.execute("SELECT i % 1000, count(*), sum(r) FROM t GROUP BY i % 1000").fetchall()
        con.execute("SELECT * FROM t ORDER BY r DESC LIMIT 10").fetchall()


@workload
class Joins:
    name = "joins"
    doc = "100,000 x 10,000 rows joined on an indexed key, then without an index"
    base = 100_000

    def setup(self, con, n):
        _fill(con, n)
        m = max(n // 10, 1)
        con.execute("CREATE TABLE u(k INTEGER, v TEXT)")
        con.execute("CREATE TABLE w(k INTEGER, v TEXT)")
        rng = random.Random(4)
        data = [(rng.randrange(n), "v%d" % i) for i in range(m)]
        con.executemany("INSERT INTO u VALUES (?,?)", data)
        con.executemany("INSERT INTO w VALUES (?,?)", data)
        con.execute("CREATE INDEX u_k ON u(k)")
        con.commit()

    def run(self, con, n):
        con.execute("SELECT count(*), sum(t.i) FROM t JOIN u ON u.k = t.id").fetchall()
        con.execute("SELECT count(*), sum(t.i) FROM w JOIN t ON w.k = t.i").fetchall()


@workload
class UpdateDeleteVacuum:
    name = "update_delete_vacuum"
    doc = "UPDATE 10% of rows by range, DELETE half the rows, then VACUUM"
    base = 100_000

    def setup(self, con, n):
        _fill(con, n)

    def run(self, con, n):
        con.execute("UPDATE t SET s = s || 'x', r = r + 1 WHERE id < ?", (n // 10,))
        con.execute("DELETE FROM t WHERE id % 2 = 0")
        con.commit()
        con.execute("VACUUM")


@workload
class TextMatch:
    name = "text_match"
    doc = "LIKE '%abc%' and GLOB over 100,000 text rows"
    base = 100_000

    def setup(self, con, n):
        _fill(con, n)

    def run(self, con, n):
        con.execute("SELECT count(*) FROM t WHERE s LIKE '%abc%'").fetchall()
        con.execute("SELECT count(*) FROM t WHERE s GLOB '*ab?d*'").fetchall()


@workload
class ColdOpen:
    name = "cold_open"
    doc = "open a database of 100 tables and run the first query"
    base = 100

    def setup(self, con, n):
        for k in range(n):
            con.execute(f"CREATE TABLE t{k}(a INTEGER PRIMARY KEY, b TEXT, c REAL)")
            con.execute(f"CREATE INDEX t{k}_b ON t{k}(b)")
            con.execute(f"INSERT INTO t{k} VALUES (1, 'x', 1.5)")
        con.commit()

    reopen = True

    def run(self, con, n):
        con.execute(f"SELECT * FROM t{n - 1} WHERE a = 1").fetchall()


# The corpus workload's scripts (relative to the sqllogictest corpus root).
CORPUS_SCRIPTS = ("select5.test.gz", "random/expr/slt_good_0.test.gz")


def _records_prefix(text: str, fraction: float) -> str:
    """The first ``fraction`` of a script's records (records are separated by blank
    lines; the scripts create and fill their tables first, so a prefix is a valid script)."""
    if fraction >= 1:
        return text
    blocks = re.split(r"\n[ \t]*\n", text)
    return "\n\n".join(blocks[:max(1, math.ceil(len(blocks) * fraction))])


@workload
class Corpus:
    name = "corpus"
    doc = "select5.test and random/expr/slt_good_0.test through the sqllogictest harness"
    base = 1_000  # n / 1000 = the fraction of each script's records run (at most all)
    module_name = "sqlite3"

    def setup(self, con, n):
        from sqllogictest_runner.corpus import find_corpus
        from sqllogictest_runner.parser import read_script_text

        root, shared = find_corpus()
        if not shared:
            raise FileNotFoundError("the sqllogictest corpus (../shared/sqllogictest/test) "
                                    "is not there")
        self.scripts = [(rel, _records_prefix(read_script_text(root / rel), n / self.base))
                        for rel in CORPUS_SCRIPTS]

    def run(self, con, n):
        from sqllogictest_runner.engines import open_engine
        from sqllogictest_runner.runner import run_script

        for rel, text in self.scripts:
            engine = open_engine(self.module_name)
            try:
                result = run_script(text, engine, rel)
            finally:
                engine.close()
            if result.failed or result.status != "done":
                raise RuntimeError(f"{rel}: {result.failed} failed records ({result.status})")
