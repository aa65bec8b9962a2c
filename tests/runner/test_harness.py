"""Corpus discovery, parallel runs (time limit, dying worker), report, CLI and pytest plugin."""

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

from sqllogictest_runner.cli import main
from sqllogictest_runner.corpus import ci_subset, collect, folder_of, shard
from sqllogictest_runner.harness import run_tasks
from sqllogictest_runner.report import format_table, summarise
from sqllogictest_runner.runner import TIMEOUT, WORKER_DIED

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))  # slt_fake_engine, importable in forked workers too
REPO = HERE.parent.parent

OK = "statement ok\nCREATE TABLE t(a)\n\nquery I nosort\nSELECT count(*) FROM t\n----\n0\n"


def write(path: Path, text: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.name.endswith(".gz"):
        with gzip.open(path, "wt") as f:
            f.write(text)
    else:
        path.write_text(text)


def make_corpus(root: Path):
    write(root / "select1.test", OK)
    write(root / "evidence" / "e1.test.gz", OK)
    write(root / "index" / "between" / "10" / "b.test.gz", OK + "\n" * 50)
    write(root / "index" / "between" / "10" / "a.test.gz", OK)
    write(root / "random" / "expr" / "x.test", OK)
    write(root / "random" / "expr" / "notes.txt", "not a script")


def test_collect_sorted_recursive_and_folders(tmp_path):
    make_corpus(tmp_path)
    scripts, root = collect([str(tmp_path)])
    assert root == tmp_path.resolve()
    assert [s.rel for s in scripts] == [
        "evidence/e1.test.gz", "index/between/10/a.test.gz", "index/between/10/b.test.gz",
        "random/expr/x.test", "select1.test"]
    assert [s.folder for s in scripts] == [
        "evidence", "index/between", "index/between", "random/expr", "select1"]
    assert folder_of("select5.test.gz") == "select5"
    one, _ = collect([str(tmp_path / "select1.test")])
    assert [s.rel for s in one] == ["select1.test"]


def test_shard_and_ci_subset(tmp_path):
    make_corpus(tmp_path)
    scripts, _ = collect([str(tmp_path)])
    parts = [shard(scripts, f"{k}/2") for k in (1, 2)]
    assert sorted(s.rel for p in parts for s in p) == sorted(s.rel for s in scripts)
    assert not set(parts[0]) & set(parts[1])
    ci = [s.rel for s in ci_subset(scripts)]
    assert ci == ["evidence/e1.test.gz", "index/between/10/a.test.gz", "random/expr/x.test",
                  "select1.test"]


def test_parallel_run_with_time_limit_and_dying_worker(tmp_path):
    write(tmp_path / "a_ok.test", OK)
    write(tmp_path / "b_spin.test", OK + "\nquery I nosort\nSELECT 'spin_forever'\n----\n1\n")
    write(tmp_path / "c_die.test", OK + "\nquery I nosort\nSELECT 'die_now'\n----\n1\n")
    write(tmp_path / "d_ok.test", OK)
    scripts, _ = collect([str(tmp_path)])
    results = run_tasks(scripts, ["slt_fake_engine"], jobs=2, timeout=8, progress=False)
    by = {r.path: r for r in results}
    assert set(by) == {"a_ok.test", "b_spin.test", "c_die.test", "d_ok.test"}
    assert by["a_ok.test"].failures == [] and by["d_ok.test"].records_run == 2
    assert by["b_spin.test"].status == "timeout"
    assert [f[1] for f in by["b_spin.test"].failures] == [TIMEOUT]
    assert by["c_die.test"].status == "died"
    assert [f[1] for f in by["c_die.test"].failures] == [WORKER_DIED]


def test_compare_table_has_both_engines(tmp_path):
    write(tmp_path / "select1.test", OK + "\nquery I nosort\nSELECT CASE WHEN 1 THEN 5 END\n----\n5\n")
    scripts, _ = collect([str(tmp_path)])
    results = run_tasks(scripts, ["slt_fake_engine", "sqlite3"], jobs=2, progress=False)
    summary = summarise(results)
    assert summary["sqlite3"]["TOTAL"].failed == 0
    assert summary["slt_fake_engine"]["TOTAL"].failed == 1
    table = format_table(summary, ["slt_fake_engine", "sqlite3"])
    assert "select1" in table and "ratio" in table


def test_cli_json_history_and_exit_status(tmp_path):
    make_corpus(tmp_path / "c")
    out = tmp_path / "r.json"
    rc = main([str(tmp_path / "c"), "--engine", "sqlite3", "-j", "2", "--json", str(out),
               "--history", str(tmp_path / "h.db"), "--history-module", "sqlite3",
               "--no-progress"])
    assert rc == 0
    doc = json.loads(out.read_text())
    assert doc["totals"]["sqlite3"]["TOTAL"]["run"] == 10
    assert doc["totals"]["sqlite3"]["TOTAL"]["failed"] == 0
    assert doc["history"]["runs"]["sqlite3"]["run"] == 1
    write(tmp_path / "c" / "select1.test", OK.replace("----\n0", "----\n1"))
    rc = main([str(tmp_path / "c"), "--engine", "sqlite3", "--json", str(out),
               "--history", str(tmp_path / "h.db"), "--history-module", "sqlite3"])
    assert rc == 1
    doc = json.loads(out.read_text())
    assert doc["history"]["runs"]["sqlite3"] == {"run": 2, "previous": 1, "new_failures": 1,
                                                 "new_passes": 0}


def test_cli_rejects_an_engine_that_cannot_connect(tmp_path, capsys):
    write(tmp_path / "a.test", OK)
    assert main([str(tmp_path), "--engine", "no_such_module_here", "--no-history"]) == 2
    assert "cannot be used" in capsys.readouterr().err


def _pytest(args, cwd):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(HERE)])
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "sqllogictest_runner.pytest_plugin",
                           "-p", "no:cacheprovider", "-q", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)


def test_pytest_plugin_collects_scripts_and_lists_failing_records(tmp_path):
    write(tmp_path / "good.test", OK)
    write(tmp_path / "bad.test.gz", OK + "\nquery I nosort\nSELECT 1 BETWEEN 0 AND 2\n----\n1\n")
    p = _pytest(["good.test", "bad.test.gz", "--slt-engine", "slt_fake_engine"], tmp_path)
    assert "1 failed, 1 passed" in p.stdout, p.stdout + p.stderr
    assert "bad.test.gz:9: query error: no such function: between" in p.stdout
    p = _pytest([".", "--slt-engine", "sqlite3"], tmp_path)
    assert "2 passed" in p.stdout, p.stdout + p.stderr


def test_overhead_tool_measures_every_script():
    from sqllogictest_runner.overhead import measure
    out = measure([str(HERE / "scripts")], "sqlite3")
    lines = out.splitlines()
    assert lines[1].startswith("records.test") and lines[2].startswith("rendering.test")
    assert lines[3].startswith("TOTAL") and " 39 " in lines[3]  # 20 + 4 skipped + 15
    assert "us per record" in lines[4]


def test_default_corpus_falls_back_to_tests_slt(tmp_path, monkeypatch):
    from sqllogictest_runner import corpus
    monkeypatch.setattr(corpus, "repo_root", lambda: None)
    write(tmp_path / "repo" / "tests" / "slt" / "a.test", OK)
    root, shared = corpus.find_corpus(str(tmp_path / "repo"))
    assert (root, shared) == ((tmp_path / "repo" / "tests" / "slt").resolve(), False)
    write(tmp_path / "shared" / "sqllogictest" / "test" / "select1.test", OK)
    root, shared = corpus.find_corpus(str(tmp_path / "repo"))
    assert (root, shared) == ((tmp_path / "shared" / "sqllogictest" / "test").resolve(), True)


class _TaskPipe:
    """The worker's end of its pipe, in process: hands out the tasks, keeps what is sent."""

    def __init__(self, tasks):
        self.tasks = list(tasks) + [None]
        self.sent = []

    def recv(self):
        return self.tasks.pop(0)

    def send(self, msg):
        self.sent.append(msg)


def test_worker_freezes_long_lived_objects_after_an_engines_first_script(tmp_path):
    import gc

    from sqllogictest_runner.harness import _worker_main

    script = tmp_path / "t.test"
    script.write_text("statement ok\nCREATE TABLE t(a)\n\nquery I\nSELECT 1\n----\n1\n")
    gc.unfreeze()
    try:
        pipe = _TaskPipe([(1, str(script), "t.test", "sqlite3"), (2, str(script), "t.test", "sqlite3")])
        _worker_main(pipe)
        frozen = gc.get_freeze_count()
        assert [m[0] for m in pipe.sent if m[0] == "r"] == ["r", "r"]
        assert all(m[2].failed == 0 and m[2].records_run == 2 for m in pipe.sent if m[0] == "r")
        assert frozen > 1000  # the interpreter's and harness's modules at least
    finally:
        gc.unfreeze()
