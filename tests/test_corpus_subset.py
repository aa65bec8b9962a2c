"""The CI subset of the sqllogictest corpus (select1-5, evidence and scripts from every
folder) against the committed baseline of known failures: any record that passed before
and fails now fails this test.

The corpus lives outside the repository (``../shared/sqllogictest/test``). Without it the
test cannot run; under CI (``CI`` set) its absence is itself a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "sqllogictest" / "test"
BASELINE = ROOT / "tests" / "slt" / "ci.baseline"


def test_ci_subset_has_no_regressions():
    if not CORPUS.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the corpus is missing: {CORPUS}")
        pytest.skip(f"no corpus at {CORPUS}")
    proc = subprocess.run(
        [sys.executable, "-m", "sqllogictest_runner", "--engine", "sqlengine",
         "--baseline", str(BASELINE), "--subset", "ci", "--no-history", "--no-progress",
         "-j", str(os.cpu_count() or 2), str(CORPUS)],
        capture_output=True, text=True, cwd=ROOT,
    )
    report = proc.stdout[-6000:] + proc.stderr[-3000:]
    assert proc.returncode == 0, report
    assert "0 regressions" in report, report
