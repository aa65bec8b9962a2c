"""The iteration engine: signatures, history comparison, baseline, minimal reproductions."""

import sqlite3
import sys
from pathlib import Path

from sqllogictest_runner import baseline
from sqllogictest_runner.clusters import Clusters, message_class, signature, sql_feature
from sqllogictest_runner.history import History
from sqllogictest_runner.repro import make_repro, needed_setup
from sqllogictest_runner.parser import parse_script
from sqllogictest_runner.runner import ScriptResult, run_file

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))  # slt_fake_engine


def test_message_classes_blank_out_specifics():
    assert message_class("query error", "no such table: t1") == "no such table: ?"
    assert message_class("query error", "no such column: tab0.col3") == "no such column: ?"
    assert message_class("query error", 'near "OVER": syntax error') == 'near "OVER": syntax error'
    assert message_class("query error", 'near "t9": syntax error') == 'near "?": syntax error'
    assert message_class("query error", "no such function: NULLIF") == "no such function: nullif"
    assert message_class("crash", "TypeError: 'int' object is not iterable (at 12)") == \
        "TypeError: ? object is not iterable (at N)"
    assert message_class("wrong result", "value 1: expected '1', got '2'") == ""


def test_sql_features():
    assert sql_feature("SELECT a FROM t1 UNION SELECT b FROM t2") == "SELECT: compound select"
    assert sql_feature("SELECT * FROM t1, t2 WHERE t1.a = t2.b") == "SELECT: join"
    assert sql_feature("SELECT a FROM t WHERE b IN (SELECT c FROM u)") == "SELECT: IN subquery"
    assert sql_feature("SELECT CASE WHEN a THEN 1 END FROM t") == "SELECT: CASE"
    assert sql_feature("SELECT a FROM t WHERE a BETWEEN 1 AND 2") == "SELECT: BETWEEN"
    assert sql_feature("CREATE INDEX i ON t(a)") == "CREATE INDEX"
    assert sql_feature("INSERT INTO t SELECT count(*) FROM u") == "INSERT: aggregate"
    assert signature("query error", "no such table: x", "SELECT 1 FROM x") == \
        ("query error", "no such table: ?", "SELECT")


def _result(path, failures, status="done", last_line=-1):
    r = ScriptResult(path, "e")
    r.failures = failures
    r.status = status
    r.last_line = last_line
    return r


def test_clusters_rank_by_count():
    c = Clusters()
    c.add_result(_result("a.test", [(1, "query error", "no such table: t1", "SELECT * FROM t1"),
                                    (5, "query error", "no such table: t2", "SELECT * FROM t2"),
                                    (9, "wrong result", "x", "SELECT CASE WHEN 1 THEN 2 END")]))
    ranked = c.ranked()
    assert [(sig[0], n) for sig, n, _ in ranked] == [("query error", 2), ("wrong result", 1)]
    assert ranked[0][2][:2] == ("a.test", 1)
    assert "no such table: ?" in c.format()


def test_history_compares_with_the_previous_run(tmp_path):
    h = History(tmp_path / "h.db", "sqlite3")
    r1 = [_result("a.test", [(3, "wrong result", "m", "")]),
          _result("b.test", [(7, "query error", "m", "")])]
    r2 = [_result("a.test", [(3, "wrong result", "m", ""), (11, "crash", "m", "")]),
          _result("b.test", [])]
    id1 = h.record_run(r1, "e", "c", "", 1.0)
    assert h.compare(id1, "e").previous_run is None
    id2 = h.record_run(r2, "e", "c", "", 1.0)
    cmp = h.compare(id2, "e")
    assert cmp.previous_run == id1
    assert [(p, line) for p, line, _, _ in cmp.new_failures] == [("a.test", 11)]
    assert cmp.new_passes == [("b.test", 7)]
    # a run of other files in between does not hide a file's latest earlier run
    h.record_run([_result("c.test", [])], "e", "c", "", 1.0)
    id4 = h.record_run([_result("b.test", [(7, "query error", "m", "")])], "e", "c", "", 1.0)
    cmp = h.compare(id4, "e")
    assert cmp.previous_run == id2
    assert [(p, line) for p, line, _, _ in cmp.new_failures] == [("b.test", 7)]
    h.close()
    # the file is SQLite's format: the stdlib reads it
    con = sqlite3.connect(tmp_path / "h.db")
    assert con.execute("SELECT count(*) FROM file_result").fetchone()[0] == 6
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_baseline_regressions_and_fixes(tmp_path):
    results = [_result("a.test", [(3, "wrong result", "m", "")]),
               _result("b.test", [(9, "timeout", "m", "")], status="timeout", last_line=5)]
    f = tmp_path / "baseline.txt"
    assert baseline.write(f, results, "e") == 2
    assert baseline.load(f) == {"a.test:3", "b.test:timeout"}
    assert baseline.check(baseline.load(f), results).ok
    later = [_result("a.test", [(4, "crash", "m", "")]),
             _result("b.test", [(9, "timeout", "m", "")], status="timeout", last_line=5)]
    chk = baseline.check(baseline.load(f) | {"b.test:8"}, later)
    assert chk.regressions == ["a.test:4"]
    assert chk.fixed == ["a.test:3"]  # b.test:8 was not reached this time
    assert not chk.ok


SCRIPT = """\
statement ok
CREATE TABLE t1(a INTEGER, b INTEGER)

statement ok
CREATE TABLE t2(c INTEGER)

statement ok
INSERT INTO t2 VALUES(5)

statement ok
INSERT INTO t1 VALUES(1, 10)

statement ok
INSERT INTO t1 VALUES(2, 20)

statement ok
INSERT INTO t1 VALUES(3, 30)

statement ok
CREATE INDEX t1b ON t1(b)

statement ok
INSERT INTO t2 SELECT c + 1 FROM t2

query I rowsort
SELECT CASE WHEN a > 1 THEN b ELSE 0 END FROM t1
----
0
20
30
"""


def test_needed_setup_follows_the_names():
    recs = [r for r in parse_script(SCRIPT) if r.kind == "statement"]
    kept = needed_setup(recs, "SELECT a FROM t1")
    assert [r.line for r in kept] == [1, 10, 13, 16, 19]
    kept = needed_setup(recs, "SELECT c FROM t2")
    assert [r.line for r in kept] == [4, 7, 22]


def test_repro_is_small_and_still_fails(tmp_path):
    script = tmp_path / "s.test"
    script.write_text(SCRIPT)
    r = run_file(script, "slt_fake_engine")
    assert [f[0] for f in r.failures] == [25]
    out = tmp_path / "repro" / "case.test"
    text, info = make_repro(script, 25, "slt_fake_engine", out=out, budget_seconds=60)
    assert out.read_text() == text
    assert "t2" not in text  # the other table's setup is gone
    assert "CASE WHEN" in text
    assert run_file(out, "sqlite3").failures == []  # the reference passes the reproduction
    got = run_file(out, "slt_fake_engine")
    assert [f[1] for f in got.failures] == ["wrong result"]
    assert info["setup"] < 5


LEAKY = """\
statement ok
CREATE TABLE t1(a INTEGER)

statement ok
CREATE TABLE t2(b INTEGER)

statement ok
INSERT INTO t1 VALUES(1)

statement ok
INSERT INTO t2 VALUES(2)

query I nosort
SELECT b FROM t2
----
2

query T nosort
SELECT 'poison' FROM t2
----
poison

query I nosort
SELECT a + 1 FROM t1
----
2

query I nosort
SELECT a AS victim FROM t1
----
1
"""


def test_repro_keeps_the_earlier_query_that_leaks_state(tmp_path):
    script = tmp_path / "leaky.test"
    script.write_text(LEAKY)
    assert [f[0] for f in run_file(script, "slt_fake_engine").failures] == [28]
    text, info = make_repro(script, 28, "slt_fake_engine", budget_seconds=60)
    assert info["queries"] == 1 and "'poison'" in text and "a + 1" not in text
    assert "SELECT b FROM t2" not in text
    out = tmp_path / "r.test"
    out.write_text(text)
    assert run_file(out, "sqlite3").failures == []
    assert [f[1] for f in run_file(out, "slt_fake_engine").failures] == ["wrong result"]
