"""The interactive shell in a pseudo-terminal, driven as a person would: type a statement,
see the prompt, the continuation prompt and the result; history survives a restart;
Ctrl-C drops a half-typed statement; Ctrl-D leaves."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import subprocess
import sys
import termios
import time

import pytest

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")
_CAPI_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "dbapi")
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))

_BOOT_CAPI = (
    "import sys; sys.path.insert(0, {capi!r}); import capi_engine, sqlengine.dbapi as d; "
    "d._open_database = lambda p, t: capi_engine.Database(p, t); "
    "from sqlengine.shell import main; sys.exit(main())"
)


def _controlling_terminal():
    """In the child: a new session whose controlling terminal is the pty, as a terminal
    emulator sets it up (so Ctrl-C reaches the shell as SIGINT)."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A shell process on a pseudo-terminal, with what it has written so far (plain text)."""

    def __init__(self, backend, tmp_path, args=()):
        if backend == "sqlengine-capi":
            command = [sys.executable, "-c", _BOOT_CAPI.format(capi=_CAPI_DIR), *args]
        else:
            command = [sys.executable, "-m", "sqlengine", *args]
        env = dict(os.environ, SQLENGINE_HISTORY=str(tmp_path / "history"), TERM="xterm",
                   PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="100", LINES="30",
                   PYTHONPATH=_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave,
                                        env=env, cwd=tmp_path, close_fds=True,
                                        preexec_fn=_controlling_terminal)
        os.close(slave)
        self.raw = ""

    @property
    def text(self):
        return _ANSI.sub("", self.raw)

    def type(self, keys):
        os.write(self.master, keys.encode("utf-8"))

    def expect(self, pattern, start=0, raw=False):
        """Wait until the plain text (``raw``: the bytes as written, escapes and all)
        after ``start`` matches ``pattern`` (a hang guard, not a speed check: the limit is
        generous)."""
        deadline = time.monotonic() + 60
        while True:
            match = re.search(pattern, (self.raw if raw else self.text)[start:])
            if match:
                return start + match.end()
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.process.poll() is not None and not self._read(0.2):
                raise AssertionError(f"never saw {pattern!r}; screen was:\n{self.text}")
            self._read(min(remaining, 0.5))

    def _read(self, timeout):
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return False
        self.raw += data.decode("utf-8", "replace")
        return bool(data)

    def close(self):
        try:
            self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            os.close(self.master)


@pytest.fixture
def terminal(backend, tmp_path):
    opened = []

    def start(*args):
        term = Terminal(backend, tmp_path, args)
        opened.append(term)
        return term

    yield start
    for term in opened:
        if term.process.poll() is None:
            term.process.kill()
            term.process.wait()


def test_type_a_statement_and_see_the_result(terminal):
    term = terminal()
    at = term.expect(r"sqlite>")
    term.type("select 1+1;\r")
    at = term.expect(r"\n2\n", at)
    at = term.expect(r"sqlite>", at)
    term.type("select\r")
    at = term.expect(r"   \.\.\.>", at)
    term.type("  40 + 2;\r")
    at = term.expect(r"\n42\n", at)
    term.expect(r"sqlite>", at)
    term.type("\x04")  # Ctrl-D leaves
    term.close()
    assert term.process.returncode == 0


def test_errors_are_reported_without_line_numbers(terminal):
    term = terminal()
    at = term.expect(r"sqlite>")
    term.type("selec 1;\r")
    at = term.expect(r'Parse error: near "selec": syntax error', at)
    term.expect(r"sqlite>", at)
    term.type(".quit\r")
    term.close()
    assert term.process.returncode == 0


def test_ctrl_c_drops_the_statement_being_typed(terminal):
    term = terminal()
    at = term.expect(r"sqlite>")
    term.type("select 'never\r")
    at = term.expect(r"   \.\.\.>", at)
    term.type("\x03")
    at = term.expect(r"sqlite>", at)
    term.type("select 'fresh';\r")
    at = term.expect(r"\nfresh\n", at)
    assert "never" not in term.text[at:]
    term.expect(r"sqlite>", at)
    term.type("\x04")
    term.close()


def test_history_survives_a_restart(terminal, tmp_path):
    term = terminal()
    at = term.expect(r"sqlite>")
    term.type("select 'remember me';\r")
    at = term.expect(r"\nremember me\n", at)
    term.expect(r"sqlite>", at)
    term.type("\x04")
    term.close()
    assert "select 'remember me';" in (tmp_path / "history").read_text()
    again = terminal()
    at = again.expect(r"sqlite>")
    again.type("\x1b[A\r")  # Up arrow recalls the last statement
    at = again.expect(r"\nremember me\n", at)
    again.expect(r"sqlite>", at)
    again.type("\x04")
    again.close()


def test_file_database_banner_and_tables(terminal, tmp_path):
    term = terminal("data.db")
    at = term.expect(r'Enter "\.help" for usage hints\.')
    at = term.expect(r"sqlite>", at)
    term.type("create table birds(name);\r")
    at = term.expect(r"sqlite>", at)
    term.type(".tables\r")
    at = term.expect(r"\nbirds\s*\n", at)
    term.expect(r"sqlite>", at)
    term.type(".exit 4\r")
    term.close()
    assert term.process.returncode == 4
    assert (tmp_path / "data.db").exists()


def test_keywords_are_highlighted(terminal):
    term = terminal()
    at = term.expect(r"sqlite>")
    before = len(term.raw)
    term.type("select 7;\r")
    at = term.expect(r"\n7\n", at)
    typed = term.raw[before:]
    # pygments' SQL lexer colours the keyword: an SGR colour sequence right before it.
    assert re.search(r"\x1b\[[0-9;]*m(select)", typed)
    term.expect(r"sqlite>", at)
    term.type("\x04")
    term.close()


def test_ctrl_c_interrupts_a_running_query(terminal):
    term = terminal()
    at = term.expect(r"sqlite>")
    term.type("with recursive r(x) as (values(1) union all select x + 1 from r) "
              "select count(*) from r;\r")
    time.sleep(2.0)  # let the query start (it never ends by itself)
    term.type("\x03")
    at = term.expect(r"Runtime error: interrupted \(9\)", at)
    at = term.expect(r"sqlite>", at)
    term.type("select 'still here';\r")
    at = term.expect(r"\nstill here\n", at)
    term.expect(r"sqlite>", at)
    term.type(".quit\r")
    term.close()
    assert term.process.returncode == 0


_EDITOR_READY = "\x1b[?2004h"


def test_tab_completes_table_and_column_names(terminal):
    term = terminal()
    at = term.expect(r"sqlite>")
    term.type("create table birds(wingspan); insert into birds values(7);\r")
    at = term.expect(r"sqlite>", at)
    # keys one after the other, as typed, once the editor is reading them (it turns
    # bracketed paste on when it starts on a line)
    raw = term.expect(re.escape(_EDITOR_READY), 0, raw=True)
    raw = term.expect(re.escape(_EDITOR_READY), raw, raw=True)
    for keys, shown in (("select max(wings", "wings"), ("\t", "pan"), (") from bir", "bir"),
                        ("\t", "ds")):
        term.type(keys)  # Tab completes the name being typed
        raw = term.expect(re.escape(shown), raw, raw=True)
    term.type(";\r")
    at = term.expect(r"\n7\n", at)
    raw = term.expect(re.escape(_EDITOR_READY), raw, raw=True)
    term.type(".sch")
    raw = term.expect(r"sch", raw, raw=True)
    term.type("\t")
    raw = term.expect(r"ema", raw, raw=True)
    term.type("\r")
    at = term.expect(r"CREATE TABLE birds\(wingspan\);", at)
    term.expect(r"sqlite>", at)
    term.type("\x04")
    term.close()
    assert term.process.returncode == 0
