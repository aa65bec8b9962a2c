"""The stored answers of the sqlite3 shell (``sqlite3_expected.json``, used where it is not
installed) are what it prints: where it is installed, a stored answer and a live run of the
same script agree, paths of the scripts' directory included."""

from __future__ import annotations

import conftest
import pytest
from conftest import SQLITE3, ShellRunner
from test_shell_batch import SCENARIOS


@pytest.mark.skipif(SQLITE3 is None, reason="needs the sqlite3 shell to compare with")
@pytest.mark.parametrize("scenario", ["mode-box", "errors", "attach", "bail"])
def test_stored_answer_is_what_sqlite3_prints(scenario, monkeypatch, tmp_path):
    script, args = SCENARIOS[scenario]
    runner = ShellRunner("sqlengine-capi", monkeypatch, tmp_path)
    live = runner.sqlite3(script, args)
    monkeypatch.setattr(conftest, "SQLITE3", None)
    assert runner.sqlite3(script, args) == live


def test_a_script_without_stored_answer_fails_clearly(monkeypatch, tmp_path):
    monkeypatch.setattr(conftest, "SQLITE3", None)
    runner = ShellRunner("sqlengine-capi", monkeypatch, tmp_path)
    with pytest.raises(pytest.fail.Exception, match="SQLENGINE_SHELL_RECORD=1"):
        runner.sqlite3("select 'no answer was ever stored for this';\n")
