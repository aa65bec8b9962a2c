"""The shell's engine room: its settings, reading input into statements and dot-commands,
running SQL and reporting errors the way the sqlite3 command-line shell (3.40) does.

SQL runs through the engine's Database (prepare/step) under a DB-API connection opened in
autocommit mode, so prepare errors ("Parse error") and step errors ("Runtime error") stay
apart as in the sqlite3 shell. Rows stream to the output mode one at a time. The prompt
and line editing live in ``interactive.py``; the dot-commands in ``commands.py``.
"""

from __future__ import annotations

import os
import re
import sys
import time

from sqlengine import errors
from sqlengine.shell import render

PROMPT = "sqlite> "
CONTINUATION_PROMPT = "   ...> "


class ExitShell(Exception):
    """Raised by .quit/.exit; ``code`` is the process exit status."""

    def __init__(self, code=0):
        super().__init__(code)
        self.code = code


def _primary_code(exc) -> int:
    return getattr(exc, "sqlite_errorcode", errors.SQLITE_ERROR) & 0xFF


def _message(exc) -> str:
    """An exception's text; an engine failure that is not an sqlengine error says so."""
    if isinstance(exc, errors.Error):
        return str(exc)
    return f"internal error: {type(exc).__name__}: {exc}"


_NEAR = re.compile(r'^near "(.*)": syntax error$', re.S)
_UNRECOGNIZED = re.compile(r'^unrecognized token: "(.*)"$', re.S)
_NO_SUCH = re.compile(r"^no such (?:column|function): (.+)$", re.S)
_WRONG_ARGS = re.compile(r"^wrong number of arguments to function (.+)\(\)$", re.S)


def error_offset(exc, sql: str) -> int:
    """Where in ``sql`` the error is (sqlite3_error_offset), or -1 when unknown.

    The engine's exception may carry ``offset``; otherwise the token the message names
    is looked up in the statement text."""
    offset = getattr(exc, "offset", None)
    if isinstance(offset, int):
        return offset
    message = str(exc)
    if message.startswith("variable number must be between ?1 and ?"):
        limit = int(message.rsplit("?", 1)[1])
        for match in re.finditer(r"\?(\d+)", sql):
            if int(match.group(1)) > limit or int(match.group(1)) == 0:
                return match.start()
    for pattern in (_NEAR, _UNRECOGNIZED, _NO_SUCH, _WRONG_ARGS):
        match = pattern.match(message)
        if match:
            token = match.group(1)
            found = _find_token(sql, token)
            if found >= 0:
                return found
    return -1


def _find_token(sql: str, token: str) -> int:
    lowered = sql.lower()
    wanted = token.lower()
    start = 0
    while True:
        found = lowered.find(wanted, start)
        if found < 0:
            return -1
        before = sql[found - 1] if found > 0 else " "
        if not (before.isalnum() or before == "_") or not (token[:1].isalnum() or token[:1] == "_"):
            return found
        start = found + 1


def error_context(sql: str, offset: int) -> str:
    """The two lines under an error that point at it ("^--- error here")."""
    if offset < 0:
        return ""
    while offset > 50:
        offset -= 1
        sql = sql[1:]
    code = sql[:78]
    code = "".join(" " if ch.isspace() else ch for ch in code)
    if offset < 25:
        return f"\n  {code}\n  {' ' * offset}^--- error here"
    return f"\n  {code}\n  {' ' * (offset - 14)}error here ---^"


class Shell:
    """One shell session: a database, the output settings, and the input it reads."""

    def __init__(self, stdout=None, stderr=None, connect=None):
        import sqlengine

        self.stdout = stdout if stdout is not None else sys.stdout
        self.stderr = stderr if stderr is not None else sys.stderr
        self.connect_function = connect or sqlengine.connect
        self.out = self.stdout
        self.output_name = "stdout"
        self.once = False
        self.mode = "list"
        self.headers = False
        self.headers_set = False
        self.colsep = "|"
        self.rowsep = "\n"
        self.nullvalue = ""
        self.widths = []
        self.insert_table = "table"
        self.wrap = 60  # columnar modes: wrap at, word-wrap, quote values (.mode options)
        self.wordwrap = False
        self.col_quote = False
        self.echo = False
        self.bail = False
        self.timer = False
        self.show_changes = False
        self.eqp = "off"  # off, on, trigger or full
        self.auto_explain = True  # EXPLAIN statements shown in explain mode (.explain auto)
        self.normal_mode = "list"  # the mode .explain off goes back to
        self.interactive = False
        self.con = None
        self.filename = ":memory:"
        self.readonly = False
        self.error_count = 0

    @property
    def explain(self) -> str:
        """The .explain setting as .show reports it: on (the mode is "explain"), auto or
        off."""
        if self.mode == "explain":
            return "on"
        return "auto" if self.auto_explain else "off"

    # -- output --------------------------------------------------------------------------

    def write(self, text: str) -> None:
        self.out.write(text)

    def error(self, text: str) -> None:
        self.stderr.write(text + "\n")
        self.stderr.flush()

    def flush(self):
        try:
            self.out.flush()
        except BrokenPipeError:
            raise
        except (OSError, ValueError):
            pass

    # -- database ------------------------------------------------------------------------

    def open(self, filename: str, new: bool = False, readonly: bool = False) -> None:
        if self.con is not None:
            self.con.close()
            self.con = None
        if new and filename not in ("", ":memory:") and os.path.exists(filename):
            os.unlink(filename)
        path = filename or ":memory:"
        if readonly:
            self.con = self.connect_function(f"file:{path}?mode=ro", uri=True,
                                             isolation_level=None, check_same_thread=False)
        else:
            self.con = self.connect_function(path, isolation_level=None,
                                             check_same_thread=False)
        self.filename = filename
        self.readonly = readonly

    @property
    def db(self):
        if self.con is None:
            self.open(self.filename)
        return self.con._db

    # -- running SQL -----------------------------------------------------------------------

    def run_sql(self, sql: str, lineno: int | None = None, source: str = "input") -> int:
        """Run every statement of ``sql``; returns 0, or the primary code of the error.

        ``source`` is "input" (a script: errors name the line), "interactive" or "argv"."""
        db = self.db
        self._current = (lineno, source)
        position = 0
        while True:
            while position < len(sql) and sql[position].isspace():
                position += 1
            if position >= len(sql):
                return 0
            started = (time.perf_counter(), _cpu_times()) if self.timer else None
            try:
                stmt, tail = db.prepare(sql, position)
            except Exception as exc:  # noqa: BLE001 - an engine bug is reported, not raised
                context = error_context(sql[position:], error_offset(exc, sql[position:]))
                self._report("Parse error", f"in prepare, {_message(exc)}{context}", lineno,
                             source)
                return 1
            if stmt is None:
                return 0
            text = sql[position:tail]
            try:
                if self.eqp != "off" and not getattr(stmt, "is_explain", 0):
                    self._explain_query_plan(text)
                    if self.eqp == "full":
                        self._explain_program(text)
                code = self._run_statement(stmt)
            finally:
                stmt.finalize()
            if code:
                return code
            if self.show_changes:
                self.write(f"changes: {db.changes}   total_changes: {db.total_changes}\n")
            if started is not None:
                real = time.perf_counter() - started[0]
                user, system = _cpu_times()
                self.write(f"Run Time: real {real:.3f} user {user - started[1][0]:.6f} "
                           f"sys {system - started[1][1]:.6f}\n")
            position = tail

    def _run_statement(self, stmt) -> int:
        names = list(stmt.column_names)
        explain = getattr(stmt, "is_explain", 0)
        if not names:
            output = None
        elif explain == 2 and self.auto_explain:
            output = QueryPlanOutput(self, names)
        elif explain == 1 and self.auto_explain or self.mode == "explain":
            output = render.ExplainOutput(self, names, program=explain == 1)
        else:
            output = render.OUTPUTS[self.mode](self, names)
        try:
            if self.readonly and not getattr(stmt, "readonly", True):
                raise errors.OperationalError("attempt to write a readonly database",
                                              code=errors.SQLITE_READONLY)
            while True:
                row = stmt.step()
                if row is None:
                    break
                if output is not None:
                    output.row(row)
        except BrokenPipeError:
            raise
        except Exception as exc:  # noqa: BLE001 - an engine bug is reported, not raised
            if output is not None:
                output.end()
            lineno, source = getattr(self, "_current", (None, "input"))
            code = _primary_code(exc)
            suffix = f" ({code})" if code > 1 else ""  # SQLITE_ERROR goes without its number
            self._report("Runtime error", f"stepping, {_message(exc)}{suffix}", lineno, source)
            return _primary_code(exc) or 1
        if output is not None:
            output.end()
        return 0

    def _explain_query_plan(self, text: str) -> None:
        try:
            stmt, _ = self.db.prepare("EXPLAIN QUERY PLAN " + text, 0)
        except errors.Error:
            return
        try:
            rows = []
            while True:
                row = stmt.step()
                if row is None:
                    break
                rows.append(row)
        except errors.Error:
            return
        finally:
            stmt.finalize()
        if rows:
            self.write(render_query_plan(rows))

    def _explain_program(self, text: str) -> None:
        """``.eqp full``: the statement's EXPLAIN listing, in explain mode, after its plan."""
        try:
            stmt, _ = self.db.prepare("EXPLAIN " + text, 0)
        except errors.Error:
            return
        try:
            output = render.ExplainOutput(self, list(stmt.column_names), program=True)
            while True:
                row = stmt.step()
                if row is None:
                    break
                output.row(row)
        except errors.Error:
            return
        finally:
            stmt.finalize()
        output.end()

    def _report(self, kind: str, message: str, lineno, source) -> None:
        if source == "argv":
            self.error(f"Error: {message}")
            return
        tail = message.split(", ", 1)[1]
        if source == "interactive":
            self.error(f"{kind}: {tail}")
        else:
            self.error(f"{kind} near line {lineno}: {tail}")

    # -- reading input ---------------------------------------------------------------------

    def process_lines(self, lines, source: str = "input") -> int:
        """Run a script given as an iterable of lines; returns the number of errors."""
        reader = LineReader(self, source)
        for raw in lines:
            if raw.endswith("\n"):  # a line ends at \n, and a \r before it goes too
                raw = raw[:-2] if raw.endswith("\r\n") else raw[:-1]
            if reader.feed(raw) and self.bail:
                return reader.errors
        reader.finish()
        return reader.errors

    def _run_buffer(self, sql: str, start_line: int, source: str) -> int:
        if self.echo:
            self.write(sql + "\n")
        code = self.run_sql(sql, start_line, source)
        self.end_once()
        return code

    def end_once(self):
        """After the one command a ``.once`` redirected, output goes back to stdout."""
        if self.once:
            self.out.close()
            self.out = self.stdout
            self.output_name = "stdout"
            self.once = False
        self.flush()


class LineReader:
    """Turns lines of input into dot-commands and complete SQL statements, as the sqlite3
    shell's process_input: a '.' line outside a statement is a command, SQL accumulates
    until a line ends a complete statement."""

    def __init__(self, shell, source):
        self.shell = shell
        self.source = source
        self.buffer = []
        self.start_line = 0
        self.lineno = 0
        self.errors = 0

    @property
    def pending(self) -> bool:
        return bool(self.buffer)

    def reset(self):
        self.buffer = []

    def feed(self, line: str) -> bool:
        """Process one line; True when it produced an error."""
        from sqlengine.shell.commands import run_command

        shell = self.shell
        self.lineno += 1
        if not self.buffer and _plain_white(line):
            if shell.echo:
                shell.write(line + "\n")
            return False
        if not self.buffer and line[:1] in (".", "#"):
            if shell.echo:
                shell.write(line + "\n")
            if line[:1] == "." and run_command(shell, line):
                return self._failed()
            shell.flush()
            return False
        if not self.buffer:
            self.start_line = self.lineno
            self.buffer.append(line.lstrip())
        else:
            self.buffer.append(line)
        sql = "\n".join(self.buffer)
        if _ends_with_semicolon(line) and _complete(sql):
            self.buffer = []
            if shell._run_buffer(sql, self.start_line, self.source):
                return self._failed()
        return False

    def finish(self) -> bool:
        """End of input: run what remains, complete or not (the engine reports it)."""
        sql = "\n".join(self.buffer)
        self.buffer = []
        if sql.strip() and self.shell._run_buffer(sql, self.start_line, self.source):
            return self._failed()
        return False

    def _failed(self) -> bool:
        self.errors += 1
        self.shell.error_count += 1
        return True


def _plain_white(line: str) -> bool:
    """Only blanks and finished comments (such a line outside a statement is skipped)."""
    pos, n = 0, len(line)
    while pos < n:
        if line[pos].isspace():
            pos += 1
        elif line.startswith("--", pos):
            return True
        elif line.startswith("/*", pos):
            end = line.find("*/", pos + 2)
            if end < 0:
                return False
            pos = end + 2
        else:
            return False
    return True


def _complete(sql: str) -> bool:
    from sqlengine.sql import complete_statement

    return complete_statement(sql)


def _cpu_times():
    """(user, system) CPU seconds of this process to the microsecond, as the sqlite3
    shell's .timer reads them (getrusage; os.times counts clock ticks)."""
    try:
        import resource
    except ImportError:  # not on this platform
        t = os.times()
        return t.user, t.system
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime, usage.ru_stime


def _ends_with_semicolon(line: str) -> bool:
    return line.rstrip().endswith(";") or ";" in line


class QueryPlanOutput(render.Output):
    """EXPLAIN QUERY PLAN rows drawn as the sqlite3 shell's tree."""

    def __init__(self, shell, names):
        super().__init__(shell, names)
        self.rows = []

    def row(self, values):
        self.rows.append(values)

    def end(self):
        if self.rows:
            self.write(render_query_plan(self.rows))


def render_query_plan(rows) -> str:
    """Rows of (id, parent, notused, detail) as "QUERY PLAN" and a |-- `-- tree."""
    children = {}
    for row in rows:
        node_id, parent, _, detail = row[0], row[1], row[2], row[3]
        children.setdefault(parent, []).append((node_id, detail))
    lines = ["QUERY PLAN"]

    def walk(parent, prefix):
        kids = children.get(parent, [])
        for index, (node_id, detail) in enumerate(kids):
            last = index == len(kids) - 1
            lines.append(f"{prefix}{'`--' if last else '|--'}{detail}")
            walk(node_id, prefix + ("   " if last else "|  "))

    walk(0, "")
    return "\n".join(lines) + "\n"
