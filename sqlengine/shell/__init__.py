"""The interactive SQL shell: ``python -m sqlengine [OPTIONS] [FILE] [SQL...]`` and the
``sqlengine`` console script, behaving like the sqlite3 command-line shell.

With no FILE the database is in memory; SQL arguments run and the shell exits; a stdin
that is not a terminal is read as a script. ``core`` runs SQL and reads input,
``commands`` holds the dot-commands, ``render`` the output modes, ``interactive`` the
prompt_toolkit front end, ``storage_view`` the .btree/.pages views. The shell uses the
engine only through the DB-API connection and its Database; it never touches storage
files itself.
"""

from __future__ import annotations

import io
import os
import sys

from sqlengine.shell.core import ExitShell, Shell

__all__ = ["main", "Shell"]

_MODE_OPTIONS = {"-list": "list", "-csv": "csv", "-column": "column", "-box": "box",
                 "-table": "table", "-markdown": "markdown", "-json": "json",
                 "-line": "line", "-html": "html", "-quote": "quote", "-tabs": "tabs",
                 "-ascii": "ascii"}

USAGE = """\
Usage: sqlengine [OPTIONS] FILENAME [SQL]
FILENAME is the name of an SQLite database. A new database is created
if the file does not previously exist.
OPTIONS include:
   -ascii               set output mode to 'ascii'
   -bail                stop after hitting an error
   -batch               force batch I/O
   -box                 set output mode to 'box'
   -column              set output mode to 'column'
   -cmd COMMAND         run "COMMAND" before reading stdin
   -csv                 set output mode to 'csv'
   -echo                print inputs before execution
   -init FILENAME       read/process named file
   -[no]header          turn headers on or off
   -help                show this message
   -html                set output mode to HTML
   -interactive         force interactive I/O
   -json                set output mode to 'json'
   -line                set output mode to 'line'
   -list                set output mode to 'list'
   -markdown            set output mode to 'markdown'
   -newline SEP         set output row separator. Default: '\\n'
   -nullvalue TEXT      set text string for NULL values. Default ''
   -quote               set output mode to 'quote'
   -readonly            open the database read-only
   -separator SEP       set output column separator. Default: '|'
   -table               set output mode to 'table'
   -tabs                set output mode to 'tabs'
   -version             show SQLite version
"""


def _text_stream(stream):
    """``stream`` writing UTF-8 with raw BLOB bytes passed through, no newline mapping."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        return stream
    return io.TextIOWrapper(buffer, encoding="utf-8", errors="surrogateescape", newline="",
                            write_through=True)


def main(argv=None, stdin=None, stdout=None, stderr=None, connect=None) -> int:
    """Run the shell; returns the process exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if stdin is None:
        stdin = sys.stdin
        if not stdin.isatty() and getattr(stdin, "buffer", None) is not None:
            # Lines end at \n only (a \r inside a value stays), bytes pass through.
            stdin = io.TextIOWrapper(stdin.buffer, encoding="utf-8",
                                     errors="surrogateescape", newline="\n")
    stdout = _text_stream(sys.stdout) if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    shell = Shell(stdout=stdout, stderr=stderr, connect=connect)
    filename = None
    sql_args = []
    commands = []
    init_file = None
    interactive = None
    readonly = False
    i = 0
    while i < len(argv):
        arg = argv[i]
        option = "-" + arg.lstrip("-") if arg.startswith("-") and arg != "-" else None
        if option is None:
            if filename is None:
                filename = arg
            else:
                sql_args.append(arg)
        elif option in _MODE_OPTIONS:
            # The options set the mode only (and a few separators), unlike ".mode".
            shell.mode = _MODE_OPTIONS[option]
            shell.wrap = 0  # (the sqlite3 shell's columnar options start zeroed)
            if option == "-csv":
                shell.colsep = ","
            elif option == "-tabs":
                shell.mode, shell.colsep = "list", "\t"
            elif option == "-ascii":
                shell.colsep, shell.rowsep = "\x1f", "\x1e"
        elif option == "-bail":
            shell.bail = True
        elif option == "-batch":
            interactive = False
        elif option == "-interactive":
            interactive = True
        elif option == "-header":
            shell.headers = shell.headers_set = True
        elif option == "-noheader":
            shell.headers, shell.headers_set = False, True
        elif option == "-echo":
            shell.echo = True
        elif option == "-readonly":
            readonly = True
        elif option in ("-cmd", "-init", "-separator", "-newline", "-nullvalue"):
            if i + 1 >= len(argv):
                stderr.write(f"Error: missing argument to {arg}\n")
                return 1
            i += 1
            value = argv[i]
            if option == "-cmd":
                commands.append(value)
            elif option == "-init":
                init_file = value
            elif option == "-separator":
                shell.colsep = value
            elif option == "-newline":
                shell.rowsep = value
            else:
                shell.nullvalue = value
        elif option == "-version":
            import sqlengine

            stdout.write(f"{sqlengine.sqlite_version} (sqlengine)\n")
            return 0
        elif option == "-help":
            stderr.write(USAGE)
            return 0
        else:
            stderr.write(f"sqlengine: Error: unknown option: {arg}\n"
                         "Use -help for a list of options.\n")
            return 1
        i += 1
    try:
        shell.open(filename or ":memory:", readonly=readonly)
    except Exception as exc:  # noqa: BLE001 - reported as the sqlite3 shell does
        stderr.write(f'Error: unable to open database "{filename}": {exc}\n')
        return 1
    shell.filename = filename or ":memory:"
    shell.readonly = readonly
    if interactive is None:
        interactive = not sql_args and stdin.isatty()
    try:
        if init_file is not None:
            from sqlengine.shell.commands import cmd_read

            cmd_read(shell, [".read", init_file])
        for command in commands:
            code = _run_argument(shell, command)
            if code and shell.bail:
                return code
        if sql_args:
            for arg in sql_args:
                code = _run_argument(shell, arg)
                if code:
                    return code
            return 0
        if interactive:
            from sqlengine.shell.interactive import run_interactive

            return run_interactive(shell, stdin)
        return 1 if shell.process_lines(stdin) else 0
    except ExitShell as exit_request:
        if exit_request.code is None:  # .quit: the status reflects earlier errors
            return 1 if shell.error_count else 0
        return exit_request.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly, as sqlite3
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    finally:
        shell.flush()
        if shell.con is not None:
            try:
                shell.con.close()
            except Exception:  # noqa: BLE001 - closing at exit must not mask the status
                pass


def _run_argument(shell, text) -> int:
    from sqlengine.shell.commands import run_command

    if text.startswith("."):
        return run_command(shell, text)
    code = shell.run_sql(text, None, "argv")
    shell.end_once()
    return code
