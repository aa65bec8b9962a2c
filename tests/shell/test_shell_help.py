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
                   'Nothing matches "nosuch"\n')


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
