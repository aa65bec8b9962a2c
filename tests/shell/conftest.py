"""The shell is checked against the sqlite3 command-line shell (/usr/bin/sqlite3, Debian
package ``sqlite3``): the same input gives the same stdout, stderr and exit status.

``shell`` runs sqlengine's shell in-process on one of two backends:

- ``sqlengine-capi``: the shell over sqlengine's DB-API layer on the libsqlite3 stand-in
  for ``Database`` (``tests/dbapi/capi_engine.py``): the shell's own logic, whatever the
  engine can do yet;
- ``sqlengine``: the shell over sqlengine's own engine, for the scenarios listed in
  ``engine_ready.txt`` (``SQLENGINE_SHELL_ALL=1`` runs them all, to find new ones).

A test module's ``SCENARIOS`` dict (id -> (script, argv)) is crossed with the backends.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys

import pytest

import sqlengine.dbapi

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "dbapi"))
import capi_engine  # noqa: E402

SQLITE3 = shutil.which("sqlite3")


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
        self._fresh_work()
        done = subprocess.run([SQLITE3, *args], input=script.encode("utf-8"),
                              capture_output=True, timeout=60, cwd=self.work)
        self.theirs_dir = self._keep("theirs")
        return (done.stdout.decode("utf-8", "surrogateescape"),
                done.stderr.decode("utf-8", "replace"), done.returncode)


@pytest.fixture
def shell(backend, monkeypatch, tmp_path):
    if SQLITE3 is None:
        pytest.fail("the sqlite3 command-line shell (Debian package sqlite3) is required")
    return ShellRunner(backend, monkeypatch, tmp_path)
