"""pytest plugin: sqllogictest scripts as test items, one item per script.

- ``pytest path/to/x.test`` (or ``.test.gz``, or a directory of them given on the command
  line) collects each script as one item; the failure report lists its failing records.
- ``.test`` / ``.test.gz`` files under ``tests/slt/`` are collected in the normal test run.
- The engine is ``sqlengine`` unless ``--slt-engine MODULE`` says otherwise.
- pytest-xdist spreads the items like any others.

The plugin is registered by the ``pytest11`` entry point when the project is installed and
by ``tests/conftest.py`` in the repository; elsewhere use ``-p sqllogictest_runner.pytest_plugin``.
This module only adapts the runner to pytest; it holds no runner logic.
"""

from __future__ import annotations

import pytest

from sqllogictest_runner.corpus import is_script
from sqllogictest_runner.runner import run_file

DEFAULT_ENGINE = "sqlengine"


def pytest_addoption(parser):
    group = parser.getgroup("sqllogictest")
    group.addoption("--slt-engine", default=None, metavar="MODULE",
                    help=f"DB-API module that runs .test scripts (default: {DEFAULT_ENGINE})")
    group.addoption("--slt-max-failures", type=int, default=30, metavar="N",
                    help="failing records listed per script (default 30)")


def _rel_parts(path, config):
    try:
        return path.relative_to(config.rootpath).parts
    except ValueError:
        return ()


def pytest_collect_file(file_path, parent):
    """Collect a script given by name, any script under tests/slt/, and scripts under a
    directory given on the command line that lies outside the repository's tests/ tree
    (tests/runner/ holds the runner's own scripts, run by its tests on sqlite3)."""
    if not is_script(file_path.name):
        return None
    session = parent.session
    parts = _rel_parts(file_path, parent.config)
    if session.isinitpath(file_path) or parts[:2] == ("tests", "slt") or (
            parts[:1] != ("tests",) and any(session.isinitpath(p) for p in file_path.parents)):
        return SltFile.from_parent(parent, path=file_path)
    return None


class SltFailed(Exception):
    def __init__(self, result):
        super().__init__(f"{result.failed} failing records")
        self.result = result


class SltFile(pytest.File):
    def collect(self):
        yield SltItem.from_parent(self, name=self.path.name)


class SltItem(pytest.Item):
    def runtest(self):
        engine = self.config.getoption("slt_engine") or DEFAULT_ENGINE
        result = run_file(self.path, engine, rel=self.path.name)
        self.user_properties.append(("records_run", result.records_run))
        self.user_properties.append(("skipped", result.skipped))
        if result.failures:
            raise SltFailed(result)

    def repr_failure(self, excinfo, style=None):
        if not isinstance(excinfo.value, SltFailed):
            return super().repr_failure(excinfo)
        r = excinfo.value.result
        limit = self.config.getoption("slt_max_failures")
        lines = [f"{r.failed} of {r.records_run} records failed on engine {r.engine} "
                 f"({r.skipped} skipped)"]
        for line, kind, message, sql in r.failures[:limit]:
            lines.append(f"{self.path}:{line}: {kind}: {message}")
            for s in (sql or "").splitlines()[:6]:
                lines.append(f"    {s}")
        if r.failed > limit:
            lines.append(f"... {r.failed - limit} more failing records")
        return "\n".join(lines)

    def reportinfo(self):
        return self.path, 0, f"sqllogictest {self.path.name}"
