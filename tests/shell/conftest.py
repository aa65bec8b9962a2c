"""The shell is checked against the sqlite3 command-line shell (/usr/bin/sqlite3, Debian
package ``sqlite3``): the same input gives the same stdout, stderr and exit status.

``shell`` runs sqlengine's shell in-process on one of two backends:

- ``sqlengine-capi``: the shell over sqlengine's DB-API layer on the libsqlite3 stand-in
  for ``Database`` (``tests/dbapi/capi_engine.py``): the shell's own logic, whatever the
  engine can do yet;
- ``sqlengine``: the shell over sqlengine's own engine, for the scenarios listed in
  ``engine_ready.txt`` (``SQLENGINE_SHELL_ALL=1`` runs them all, to find new ones).

A test module's ``SCENARIOS`` dict (id -> (script, argv)) is crossed with the backends.

Where the sqlite3 shell is not installed, its answers come from ``sqlite3_expected.json``:
what it printed (stdout, stderr, exit status) and the text files it left, for each script,
keyed by a hash of the script, the arguments and the input files. Run the tests with
``SQLENGINE_SHELL_RECORD=1`` where /usr/bin/sqlite3 exists to (re)write it.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sqlengine.dbapi

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "dbapi"))
import capi_engine  # noqa: E402

SQLITE3 = shutil.which("sqlite3")
EXPECTED_PATH = Path(__file__).with_name("sqlite3_expected.json")
RECORD = bool(os.environ.get("SQLENGINE_SHELL_RECORD"))
_WORK = "<work>"  # the scripts' directory in stored answers (a fresh one per test)


def _load_expected():
    if EXPECTED_PATH.exists():
        return json.loads(EXPECTED_PATH.read_text(encoding="utf-8"))
    return {}


EXPECTED = _load_expected()
RECORDED = {}


def pytest_sessionfinish(session):
    if RECORD and RECORDED:
        merged = dict(_load_expected())
        merged.update(RECORDED)
        # (ASCII: the outputs may hold undecodable bytes as lone surrogates)
        EXPECTED_PATH.write_text(json.dumps(merged, indent=0, sort_keys=True) + "\n",
                                 encoding="ascii")


def _engine_ready():
    path = os.path.join(os.path.dirname(__file__), "engine_ready.txt")
    with open(path, encoding="utf-8") as handle:
        return {line.strip() for line in handle if line.strip() and not line.startswith("#")}


ENGINE_READY = _engine_ready()


def pytest_generate_tests(metafunc):
    if "backend" not in metafunc.fixturenames:
        return
    everything = bool(os.environ.get("SQLENGINE_SHELL_ALL"))
    scenarios = getattr(metafunc.module, "SCENARIOS", None)
    name = metafunc.definition.originalname
    if scenarios is not None and "scenario" in metafunc.fixturenames:
        pairs, ids = [], []
        for key in scenarios:
            backends = ["sqlengine-capi"]
            if everything or f"{name}[{key}]" in ENGINE_READY:
                backends.append("sqlengine")
            for backend in backends:
                pairs.append((backend, key))
                ids.append(f"{backend}-{key}")
        metafunc.parametrize("backend,scenario", pairs, ids=ids)
        return
    backends = ["sqlengine-capi"]
    if everything or name in ENGINE_READY:
        backends.append("sqlengine")
    metafunc.parametrize("backend", backends)


class ShellRunner:
    """Runs a script through both shells, each in a fresh copy of the same directory
    (``work``, so printed paths agree); afterwards ``ours_dir``/``theirs_dir`` hold the
    files each left behind."""

    def __init__(self, backend, monkeypatch, tmp_path):
        self.backend = backend
        self.monkeypatch = monkeypatch
        self.root = tmp_path
        self.work = tmp_path / "work"
        self.files = {}
        if backend == "sqlengine-capi":
            monkeypatch.setattr(sqlengine.dbapi, "_open_database",
                                lambda path, timeout: capi_engine.Database(path, timeout))

    def _fresh_work(self):
        if self.work.exists():
            shutil.rmtree(self.work)
        self.work.mkdir()
        for name, text in self.files.items():
            (self.work / name).write_text(text)

    def _keep(self, name):
        target = self.root / name
        if target.exists():
            shutil.rmtree(target)
        self.work.rename(target)
        return target

    def ours(self, script="", args=()):
        from sqlengine.shell import main

        self._fresh_work()
        self.monkeypatch.chdir(self.work)
        out, err = io.StringIO(), io.StringIO()
        code = main(list(args), stdin=io.StringIO(script), stdout=out, stderr=err)
        self.monkeypatch.chdir(self.root)
        self.ours_dir = self._keep("ours")
        return out.getvalue(), err.getvalue(), code

    def sqlite3(self, script="", args=()):
        """The sqlite3 shell's answer to the script: run, or stored when it is absent."""
        key = hashlib.sha256(json.dumps([script, list(args), sorted(self.files.items())])
                             .encode("utf-8", "surrogateescape")).hexdigest()
        if SQLITE3 is None:
            return self._stored(key)
        self._fresh_work()
        done = subprocess.run([SQLITE3, *args], input=script.encode("utf-8"),
                              capture_output=True, timeout=60, cwd=self.work)
        left = self._left_files()
        self.theirs_dir = self._keep("theirs")
        answer = (done.stdout.decode("utf-8", "surrogateescape"),
                  done.stderr.decode("utf-8", "replace"), done.returncode)
        if RECORD:
            work = str(self.work)
            RECORDED[key] = {"stdout": answer[0].replace(work, _WORK),
                             "stderr": answer[1].replace(work, _WORK), "status": answer[2],
                             "files": left}
        return answer

    def _left_files(self):
        """The text files a run left in the work directory (its outputs, not its inputs)."""
        left = {}
        for path in sorted(self.work.iterdir()):
            if not path.is_file() or self.files.get(path.name) is not None:
                continue
            try:
                left[path.name] = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue  # a database file: no test reads sqlite3's copy
        return left

    def _stored(self, key):
        entry = EXPECTED.get(key)
        if entry is None:
            pytest.fail("no stored sqlite3 shell output for this script and the sqlite3 shell "
                        "is not installed: run the tests with SQLENGINE_SHELL_RECORD=1 where "
                        "it is (Debian package sqlite3)")
        self._fresh_work()
        for name, text in entry["files"].items():
            (self.work / name).write_text(text, encoding="utf-8")
        work = str(self.work)
        self.theirs_dir = self._keep("theirs")
        return (entry["stdout"].replace(_WORK, work), entry["stderr"].replace(_WORK, work),
                entry["status"])


@pytest.fixture
def shell(backend, monkeypatch, tmp_path):
    return ShellRunner(backend, monkeypatch, tmp_path)
