"""Every script in scripts/ runs statement by statement on sqlite3 and on sqlengine; all
outcomes (rows, value types, column names, error class and message) must be equal."""

from pathlib import Path

import pytest

from sqlfeat_diff import run_pair, split_script

SCRIPTS = sorted((Path(__file__).parent / "scripts").glob("*.sql"))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script(path):
    stmts = split_script(path.read_text())
    assert stmts, "empty script"
    n, mismatches = run_pair(stmts)
    assert not mismatches, f"{len(mismatches)} of {n} statements differ:\n" + "\n".join(
        mismatches[:20])
