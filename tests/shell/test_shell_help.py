"""The commands the sqlite3 shell has no counterpart output for: .help and .version
(stored expectations), and usage of the console entry point."""

from __future__ import annotations

import subprocess
import sys

from sqlengine.shell.commands import COMMANDS, HELP


def test_help_lists_every_command(shell):
    out, err, code = shell.ours(".help\n")
    assert (err, code) == ("", 0)
    listed = [line.split()[0] for line in out.splitlines()]
    assert sorted(listed) == sorted("." + name for name, _ in COMMANDS)
    assert out == HELP


def test_help_for_one_command(shell):
    out, err, code = shell.ours(".help sch\n.help nosuch\n")
    assert out == (".schema ?PATTERN?        Show the CREATE statements matching PATTERN\n"
                   "Nothing matches 'nosuch'\n")


def test_help_details_match_sqlite3(shell):
    # one command matched: its detail lines too (.mode's modes and options, .eqp's trigger)
    script = ".help mode\n.help eq\n.help ind\n.help wordwrap\n.help zzz\n"
    assert shell.ours(script) == shell.sqlite3(script)


def test_version(shell):
    out, err, code = shell.ours(".version\n")
    assert out.startswith("SQLite 3.40.1 (sqlengine ") and (err, code) == ("", 0)


def test_python_dash_m_runs_the_shell(backend, tmp_path):
    done = subprocess.run([sys.executable, "-m", "sqlengine", ":memory:", "select 6 * 7"],
                          capture_output=True, text=True, cwd=tmp_path,
                          env={"PYTHONPATH": str(__import__("pathlib").Path(__file__)
                                                 .resolve().parents[2])})
    assert (done.stdout, done.stderr, done.returncode) == ("42\n", "", 0)


def test_unknown_option(shell):
    out, err, code = shell.ours("", ("-frobnicate",))
    assert (out, code) == ("", 1)
    assert err == ("sqlengine: Error: unknown option: -frobnicate\n"
                   "Use -help for a list of options.\n")


def test_closed_output_pipe_ends_quietly(backend, tmp_path):
    root = str(__import__("pathlib").Path(__file__).resolve().parents[2])
    process = subprocess.Popen(
        [sys.executable, "-m", "sqlengine", ":memory:", "create table t(a)",
         "insert into t values(1),(2),(3),(4),(5),(6),(7),(8),(9),(10)",
         "select a.a from t a, t b, t c, t d"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env={"PYTHONPATH": root})
    assert process.stdout.readline() == b"1\n"
    process.stdout.close()  # as `| head -1` does
    assert process.wait(timeout=300) == 0
    assert process.stderr.read() == b""
    process.stderr.close()
