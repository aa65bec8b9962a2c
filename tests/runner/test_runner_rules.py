"""Every record type and verdict rule of FORMAT.md, on the sqlite3 engine (the reference)."""

import gzip
import hashlib
from pathlib import Path

import pytest

from sqllogictest_runner.engines import open_engine
from sqllogictest_runner.parser import parse_script
from sqllogictest_runner.runner import (
    COLUMN_COUNT,
    LABEL_MISMATCH,
    QUERY_ERROR,
    SCRIPT_ERROR,
    STATEMENT_FAILED,
    STATEMENT_SUCCEEDED,
    WRONG_RESULT,
    run_file,
    run_script,
)

SCRIPTS = Path(__file__).parent / "scripts"


def run(text):
    return run_script(text, open_engine("sqlite3"))


def kinds(result):
    return [(f[0], f[1]) for f in result.failures]


def test_rendering_script_passes():
    r = run_file(SCRIPTS / "rendering.test", "sqlite3")
    assert (r.records_run, r.skipped, r.failures) == (15, 0, [])


def test_records_script_passes_with_exact_counts():
    r = run_file(SCRIPTS / "records.test", "sqlite3")
    assert r.failures == []
    assert (r.records_run, r.skipped) == (20, 4)
    # noted: the overflow while stepping (130) and the multi-statement record (135)
    assert [n[0] for n in r.notes] == [130, 135]


def test_statement_verdicts():
    r = run("statement ok\nSELEC 1\n\nstatement error\nSELECT 1\n\nstatement ok\nSELECT 1\n")
    assert kinds(r) == [(1, STATEMENT_FAILED), (4, STATEMENT_SUCCEEDED)]
    assert 'near "SELEC": syntax error' in r.failures[0][2]
    assert r.records_run == 3


def test_query_prepare_error_and_column_count():
    r = run("query I nosort\nSELECT nope FROM nowhere\n----\n1\n\n"
            "query II nosort\nSELECT 1\n----\n1\n")
    assert kinds(r) == [(1, QUERY_ERROR), (6, COLUMN_COUNT)]
    assert r.failures[0][2] == "no such table: nowhere"


@pytest.mark.parametrize("expected", ["1\n3", "1", "1\n2\n3", ""])
def test_wrong_values_and_wrong_counts_fail(expected):
    r = run(f"query I nosort\nSELECT 1 UNION ALL SELECT 2\n----\n{expected}\n")
    assert kinds(r) == [(1, WRONG_RESULT)]


def test_hash_threshold_default_is_8():
    eight = "\n".join(str(i) for i in range(8))
    q8 = " UNION ALL ".join(f"SELECT {i}" for i in range(8))
    q9 = " UNION ALL ".join(f"SELECT {i}" for i in range(9))
    assert run(f"query I nosort\n{q8}\n----\n{eight}\n").failures == []
    digest = hashlib.md5("".join(f"{i}\n" for i in range(9)).encode()).hexdigest()
    assert run(f"query I nosort\n{q9}\n----\n9 values hashing to {digest}\n").failures == []
    listed = "\n".join(str(i) for i in range(9))
    assert kinds(run(f"query I nosort\n{q9}\n----\n{listed}\n")) == [(1, WRONG_RESULT)]
    bad = "0" * 32
    assert kinds(run(f"query I nosort\n{q9}\n----\n9 values hashing to {bad}\n")) == \
        [(1, WRONG_RESULT)]


def test_label_mismatch_on_run_and_on_skipped_query():
    text = ("query I nosort label-1\nSELECT 1\n----\n1\n\n"
            "query I nosort label-1\nSELECT 2\n----\n2\n\n"
            "skipif sqlite\nquery I nosort label-1\nSELECT 3\n----\n3\n\n"
            "skipif sqlite\nquery I nosort label-1\nSELECT 3\n----\n1\n")
    r = run(text)
    assert kinds(r) == [(6, LABEL_MISMATCH), (12, LABEL_MISMATCH)]
    assert (r.records_run, r.skipped) == (2, 2)


def test_skipped_label_check_reads_a_hash_line():
    vals = [str(i) for i in range(10)]
    digest = hashlib.md5("".join(v + "\n" for v in vals).encode()).hexdigest()
    q = " UNION ALL ".join(f"SELECT {v}" for v in vals)
    ok = (f"query I nosort label-x\n{q}\n----\n10 values hashing to {digest}\n\n"
          f"skipif sqlite\nquery I nosort label-x\nSELECT 0\n----\n10 values hashing to {digest}\n")
    assert run(ok).failures == []


def test_error_while_stepping_compares_rows_so_far():
    setup = ("statement ok\nCREATE TABLE t(x)\n\n"
             "statement ok\nINSERT INTO t VALUES(1),(2),(-9223372036854775808),(4)\n\n")
    assert run(setup + "query I nosort\nSELECT abs(x) FROM t\n----\n1\n2\n").failures == []
    r = run(setup + "query I nosort\nSELECT abs(x) FROM t\n----\n1\n2\n9223372036854775808\n")
    assert kinds(r) == [(7, WRONG_RESULT)]
    assert "error while stepping: integer overflow" in r.failures[0][2]


def test_query_with_two_statements_runs_the_first_only():
    r = run("query I nosort\nSELECT 1; SELECT 2\n----\n1\n")
    assert r.failures == [] and r.notes


def test_statement_with_two_statements_stops_at_the_first_error():
    r = run("statement ok\nCREATE TABLE a(x); CREATE TABLE a(y); CREATE TABLE b(z)\n\n"
            "query I nosort\nSELECT count(*) FROM sqlite_schema WHERE name = 'b'\n----\n0\n")
    assert kinds(r) == [(1, STATEMENT_FAILED)]
    assert r.failures[0][2] == "table a already exists"


def test_unknown_record_ends_the_script():
    r = run("statement ok\nSELECT 1\n\nfrobnicate\nSELECT 2\n\nstatement ok\nSELEC\n")
    assert kinds(r) == [(4, SCRIPT_ERROR)]
    assert r.records_run == 1


def test_halt_and_skipped_halt():
    r = run("onlyif mysql\nhalt\n\nstatement ok\nSELECT 1\n\nhalt\n\nstatement ok\nSELEC\n")
    assert (r.records_run, r.skipped, r.failures) == (1, 1, [])


def test_crlf_comments_and_whitespace_lines():
    text = "# head\r\nstatement ok\r\n# inside\r\nSELECT 1\r\n \t \r\nquery T nosort\r\nSELECT 'a '\r\n----\r\na \r\n"
    r = run(text)
    assert (r.records_run, r.failures) == (2, [])


def test_gzip_and_plain_files(tmp_path):
    text = "statement ok\nCREATE TABLE t(a)\n\nquery I nosort\nSELECT count(*) FROM t\n----\n0\n"
    (tmp_path / "a.test").write_text(text)
    with gzip.open(tmp_path / "b.test.gz", "wt") as f:
        f.write(text)
    for name in ("a.test", "b.test.gz"):
        r = run_file(tmp_path / name, "sqlite3")
        assert (r.records_run, r.failures) == (2, [])


def test_parser_records_and_lines():
    recs = list(parse_script(
        "hash-threshold 3\n\n# c\nskipif x\n# c2\nonlyif sqlite\nquery IT rowsort label-9\n"
        "SELECT 1,\n# c3\n'a'\n----\n1\na\n\nstatement error\nSELECT\n"))
    assert [(r.kind, r.line, r.skip) for r in recs] == [
        ("hash-threshold", 1, False), ("query", 7, False), ("statement", 15, False)]
    q = recs[1]
    assert (q.types, q.sort, q.label, q.sql, q.expected, q.first_line) == \
        ("IT", "rowsort", "label-9", "SELECT 1,\n'a'", ["1", "a"], 4)
    assert recs[0].threshold == 3 and recs[2].ok is False


def test_slowest_record_is_the_one_that_took_longest():
    heavy = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000)"
             " SELECT count(*) FROM c")
    r = run("statement ok\nCREATE TABLE t(a)\n\n"
            "query I nosort\nSELECT 1\n----\n1\n\n"
            f"query I nosort\n{heavy}\n----\n1000000\n\n"
            "query I nosort\nSELECT 2\n----\n2\n")
    assert r.failures == []
    assert r.slowest_line == 9  # the heavy query record starts on line 9
    assert 0 < r.slowest_seconds <= r.engine_seconds
    back = type(r).from_dict(r.to_dict())
    assert (back.slowest_line, back.slowest_seconds) == (9, r.slowest_seconds)
