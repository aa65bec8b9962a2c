"""Long results stream: in the row-at-a-time modes each row is written as the statement
produces it, so a result is never held whole in memory (the columnar modes, which size
their columns from every row, buffer as the sqlite3 shell does). And ``.timer``'s report
has the sqlite3 shell's layout and precision."""

from __future__ import annotations

import io
import re

import pytest

from sqlengine.shell import Shell
from sqlengine.shell.commands import run_command

N_ROWS = 5000
QUERY = (f"with recursive r(x) as (select 1 union all select x + 1 from r limit {N_ROWS}) "
         "select probe(x) as x, 'v' || x as y from r;\n")


class _Watch(io.StringIO):
    """An output that notes how many rows the query had produced at its first write."""

    def __init__(self, calls):
        super().__init__()
        self.calls = calls
        self.at_first_write = None

    def write(self, text):
        if self.at_first_write is None and text:
            self.at_first_write = len(self.calls)
        return super().write(text)


def _session(calls):
    out = _Watch(calls)
    session = Shell(stdout=out, stderr=io.StringIO())
    session.open(":memory:")
    session.con.create_function("probe", 1, lambda x: calls.append(x) or x)
    return session, out


@pytest.mark.parametrize("mode", ["list", "csv", "json", "line", "insert", "quote", "tabs",
                                  "html", "ascii", "tcl"])
def test_rows_are_written_as_they_come(mode):
    calls = []
    session, out = _session(calls)
    run_command(session, f".mode {mode}")
    session.run_sql(QUERY)
    assert len(calls) == N_ROWS
    assert out.at_first_write is not None and out.at_first_write < 10
    assert str(N_ROWS) in out.getvalue()


def test_columnar_mode_sees_every_row_first():
    calls = []
    session, out = _session(calls)
    run_command(session, ".mode box")
    session.run_sql(QUERY)
    assert out.at_first_write == N_ROWS


RUN_TIME = re.compile(r"Run Time: real \d+\.\d{3} user \d+\.\d{6} sys \d+\.\d{6}\n")


def test_timer_reports_like_sqlite3(shell):
    script = (".timer on\nselect 1;\ncreate table t(a);\nselect count(*) from t;\n"
              ".timer off\nselect 2;\n.timer\n.timer maybe\n")
    ours = shell.ours(script)
    theirs = shell.sqlite3(script)
    assert len(RUN_TIME.findall(ours[0])) == 3
    assert (RUN_TIME.sub("<time>\n", ours[0]), ours[1:]) == \
        (RUN_TIME.sub("<time>\n", theirs[0]), theirs[1:])
