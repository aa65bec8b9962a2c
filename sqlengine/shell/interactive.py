"""The interactive front end: prompt_toolkit line editing with the sqlite3 shell's prompts
("sqlite> ", continuation "   ...> "), a history file kept across sessions, completion of
keywords, dot-commands, table, column and function names, pygments SQL highlighting,
Ctrl-C to drop the statement being typed or interrupt a running query, Ctrl-D to leave.

Input goes line by line to the same ``LineReader`` as scripts, so a statement typed here
behaves exactly as in batch mode. Without a usable terminal (or prompt_toolkit), plain
``input()`` is used. Nothing here runs SQL itself.
"""

from __future__ import annotations

import os
import re
import signal

from sqlengine.shell.core import CONTINUATION_PROMPT, PROMPT, ExitShell, LineReader

HISTORY_ENV = "SQLENGINE_HISTORY"


def history_path() -> str:
    return os.environ.get(HISTORY_ENV) or os.path.join(os.path.expanduser("~"),
                                                       ".sqlengine_history")


def banner(shell) -> str:
    import sqlengine
    from sqlengine.shell.commands import _package_version

    lines = [f"sqlengine {_package_version()} (SQLite {sqlengine.sqlite_version} compatible)",
             'Enter ".help" for usage hints.']
    if shell.filename in ("", ":memory:"):
        lines.append("Connected to a transient in-memory database.")
        lines.append('Use ".open FILENAME" to reopen on a persistent database.')
    return "\n".join(lines) + "\n"


class SqlCompleter:
    """Keywords, dot-commands, the connection's functions (from its function registry:
    built-ins, window and table-valued functions, and those created on it) and the names in
    the open database's schema."""

    def __init__(self, shell):
        self.shell = shell

    def words(self):
        from sqlengine.shell.commands import COMMANDS
        from sqlengine.sql.lexer import KEYWORDS

        words = set(KEYWORDS)
        words.update("." + name for name, _ in COMMANDS)
        words.update(self.function_names())
        try:
            con = self.shell.con
            for kind, name, _, _ in con.execute("SELECT type, name, tbl_name, sql "
                                                "FROM sqlite_master"):
                words.add(name)
                if kind in ("table", "view"):
                    quoted = '"' + name.replace('"', '""') + '"'
                    description = con.execute(f"SELECT * FROM {quoted} WHERE 0").description
                    words.update(column[0] for column in description or ())
        except Exception:  # noqa: BLE001 - completion must never break typing
            pass
        return words

    def function_names(self):
        """The functions of the open connection, as its engine's registry lists them."""
        try:
            return self.shell.con._db.function_names()
        except Exception:  # noqa: BLE001 - no connection (or not sqlengine's): none
            return ()

    def complete(self, prefix: str):
        lowered = prefix.lower()
        return sorted(w for w in self.words() if w.lower().startswith(lowered) and w != prefix)

    @staticmethod
    def word_before(text: str) -> str:
        """The part of ``text`` (the line up to the cursor) to complete: the name being
        typed (after ``t.`` the column part, after ``(`` or ``,`` the argument), or a
        dot-command at the start of the line."""
        match = _NAME_TAIL.search(text)
        word = match.group()
        start = match.start()
        if start > 0 and text[start - 1] == "." and not text[:start - 1].strip():
            return "." + word
        return word


_NAME_TAIL = re.compile(r"[A-Za-z0-9_$\x80-\U0010ffff]*$")


def _prompt_toolkit_session(shell, stdin):
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.history import FileHistory
    from prompt_toolkit.lexers import PygmentsLexer
    from pygments.lexers.sql import SqlLexer

    words = SqlCompleter(shell)

    class _Completer(Completer):
        def get_completions(self, document, complete_event):
            prefix = words.word_before(document.text_before_cursor)
            if not prefix:
                return
            for word in words.complete(prefix):
                yield Completion(word, start_position=-len(prefix))

    return PromptSession(history=FileHistory(history_path()), lexer=PygmentsLexer(SqlLexer),
                         completer=_Completer(), complete_while_typing=False,
                         enable_history_search=True)


def run_interactive(shell, stdin) -> int:
    shell.interactive = True
    shell.write(banner(shell))
    shell.flush()
    reader = LineReader(shell, "interactive")
    try:
        session = _prompt_toolkit_session(shell, stdin)
        read = session.prompt
    except Exception:  # noqa: BLE001 - no terminal or no prompt_toolkit: plain input()
        read = input
    previous = signal.getsignal(signal.SIGINT)
    watcher = InterruptWatcher(shell)
    try:
        while True:
            prompt = CONTINUATION_PROMPT if reader.pending else PROMPT
            try:
                line = read(prompt)
            except KeyboardInterrupt:
                reader.reset()  # Ctrl-C drops the statement being typed
                continue
            except EOFError:  # Ctrl-D
                break
            watcher.arm()
            try:
                reader.feed(line)
            except KeyboardInterrupt:
                reader.reset()
            finally:
                watcher.disarm(previous)
    except ExitShell as request:
        if request.code is None:
            return 0
        return request.code
    finally:
        watcher.close()
    return 0


class InterruptWatcher:
    """Ctrl-C while SQL runs interrupts the query (sqlite3_interrupt).

    A query may run for long inside compiled code, where Python signal handlers cannot
    run; so the signal's wake-up byte is also read by a helper thread, which interrupts
    the connection at once (for an engine that releases the GIL). The query then fails
    with "interrupted" and the prompt returns."""

    def __init__(self, shell):
        import threading

        self.shell = shell
        self.read_fd, self.write_fd = os.pipe()
        os.set_blocking(self.write_fd, False)
        self.armed = False
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self):
        while True:
            try:
                data = os.read(self.read_fd, 64)
            except OSError:
                return
            if not data:
                return
            if self.armed and signal.SIGINT in data:
                self._interrupt()

    def arm(self):
        self.armed = True
        signal.signal(signal.SIGINT, self._handler)
        signal.set_wakeup_fd(self.write_fd, warn_on_full_buffer=False)

    def _handler(self, signum, frame):
        # Runs whenever the main thread next executes Python code (e.g. a callback of the
        # engine, or the engine checking for signals): interrupt from here as well.
        self._interrupt()

    def _interrupt(self):
        """Interrupt the statement the shell's connection runs, if it has one."""
        con = self.shell.con
        if con is not None:
            try:
                con.interrupt()
            except Exception:  # noqa: BLE001 - nothing to interrupt
                pass

    def disarm(self, previous):
        self.armed = False
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGINT, previous)

    def close(self):
        os.close(self.write_fd)
        os.close(self.read_fd)
