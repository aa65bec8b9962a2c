"""The shell's dot-commands, with the sqlite3 shell's argument rules, messages and output.

``run_command(shell, line)`` parses one ".command args" line as the sqlite3 shell does
(quotes, backslash escapes, unique-prefix command names) and runs it. It returns 0 on
success and 1 on error, and raises ``ExitShell`` for .quit/.exit. Commands read the
database through SQL only, except .btree/.pages which ask ``storage_view``.
"""

from __future__ import annotations

import csv
import io
import os

from sqlengine import errors
from sqlengine.shell import render
from sqlengine.shell.core import ExitShell
from sqlengine.sql.lexer import leading_hex

_ESCAPES = {"a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
            '"': '"', "'": "'", "\\": "\\"}


def resolve_backslashes(text: str) -> str:
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            if nxt == "x" and i + 3 < len(text) + 1:
                digits = leading_hex(text[:i + 4], i + 2)
                if digits:
                    out.append(chr(int(digits, 16)))
                    i += 2 + len(digits)
                    continue
            if nxt in "01234567":
                digits = ""
                j = i + 1
                while j < len(text) and len(digits) < 3 and text[j] in "01234567":
                    digits += text[j]
                    j += 1
                out.append(chr(int(digits, 8)))
                i = j
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def split_arguments(line: str):
    """Split a dot-command line into arguments as the sqlite3 shell does."""
    args = []
    i = 1  # skip the '.'
    n = len(line)
    while i < n:
        while i < n and line[i].isspace():
            i += 1
        if i >= n:
            break
        if line[i] in "'\"":
            delim = line[i]
            i += 1
            start = i
            while i < n and line[i] != delim:
                if line[i] == "\\" and delim == '"' and i + 1 < n:
                    i += 1
                i += 1
            arg = line[start:i]
            if i < n:
                i += 1
            args.append(resolve_backslashes(arg) if delim == '"' else arg)
        else:
            start = i
            while i < n and not line[i].isspace():
                i += 1
            args.append(resolve_backslashes(line[start:i]))
    return args


def boolean_value(shell, text: str) -> bool:
    lowered = text.lower()
    if lowered.lstrip("-").isdigit():
        return int(lowered) != 0
    if lowered in ("on", "yes"):
        return True
    if lowered in ("off", "no"):
        return False
    shell.error(f'ERROR: Not a boolean value: "{text}". Assuming "no".')
    return False


def run_command(shell, line: str) -> int:
    args = split_arguments(line)
    if not args:
        return 0
    name = args[0]
    for full, handler in COMMANDS:
        if full.startswith(name) and name:
            try:
                return handler(shell, args) or 0
            except ExitShell:
                raise
            except errors.Error as exc:
                shell.error(f"Error: {exc}")
                return 1
            except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
                shell.error(f"Error: internal error: {type(exc).__name__}: {exc}")
                return 1
            except OSError as exc:
                shell.error(f"Error: {exc.strerror or exc}")
                return 1
    shell.error(f'Error: unknown command or invalid arguments:  "{name}". '
                'Enter ".help" for help')
    return 1


def _usage(shell, text):
    shell.error(f"Usage: {text}")
    return 1


def _toggle(attribute, usage):
    def command(shell, args):
        if len(args) != 2:
            return _usage(shell, usage)
        setattr(shell, attribute, boolean_value(shell, args[1]))
        return 0
    return command


# -- settings ---------------------------------------------------------------------------------


def cmd_headers(shell, args):
    if len(args) != 2:
        return _usage(shell, ".headers on|off")
    shell.headers = boolean_value(shell, args[1])
    shell.headers_set = True
    return 0


# .mode names in the order the sqlite3 shell tries them against a prefix (".mode c" is
# column, ".mode t" tcl); "qbox" is box with quoting
_MODE_ORDER = ("lines", "columns", "list", "html", "tcl", "csv", "tabs", "insert", "quote",
               "ascii", "markdown", "table", "box", "json")
_MODE_ERROR = ("Error: mode should be one of: ascii box column csv html insert json line list "
               "markdown qbox quote table tabs tcl")


def mode_description(shell) -> str:
    """The mode as .mode and .show name it (the columnar ones with their options)."""
    if shell.mode in render.COLUMNAR or shell.mode == "qbox":
        name = "box" if shell.mode == "qbox" else shell.mode
        return (f"{name} --wrap {shell.wrap} --wordwrap {'on' if shell.wordwrap else 'off'} "
                f"--{'' if shell.col_quote else 'no'}quote")
    return shell.mode


def cmd_mode(shell, args):
    # as the sqlite3 shell (3.40): options anywhere, the first other word is the mode (a
    # prefix will do), the second the INSERT table; with no mode the current one is shown
    # and set again, with the columnar options back to their defaults
    wrap, wordwrap, quote = 60, False, False
    mode = table = None
    i = 1
    while i < len(args):
        word = args[i]
        option = word[2:] if word.startswith("--") else word[1:] if word[:1] == "-" else None
        if option == "wrap" and i + 1 < len(args):
            i += 1
            wrap = integer_value(args[i])
        elif option == "ww":
            wordwrap = True
        elif option == "wordwrap" and i + 1 < len(args):
            i += 1
            wordwrap = boolean_value(shell, args[i])
        elif option == "quote":
            quote = True
        elif option == "noquote":
            quote = False
        elif mode is None:
            mode = word
            if word == "qbox":
                wrap, wordwrap, quote = 60, False, True
                mode = "box"
        elif table is None:
            table = word
        elif word.startswith("-"):
            shell.error(f"unknown option: {word}")
            shell.error("options:\n  --noquote\n  --quote\n  --wordwrap on/off\n  --wrap N\n"
                        "  --ww")
            return 1
        else:
            shell.error(f'extra argument: "{word}"')
            return 1
        i += 1
    if mode is None:
        shell.write(f"current output mode: {mode_description(shell)}\n")
        mode = "box" if shell.mode == "qbox" else shell.mode
    name = next((m for m in _MODE_ORDER if m.startswith(mode)), None) if mode else None
    if name is None:
        shell.error(_MODE_ERROR)
        return 1
    if name in ("lines", "columns"):
        name = name[:-1]
    if name in ("list", "tabs", "ascii", "csv", "tcl"):
        shell.mode = "list" if name == "tabs" else name
        if name == "list":
            shell.colsep, shell.rowsep = "|", "\n"
        elif name == "tabs":
            shell.colsep, shell.rowsep = "\t", "\n"
        elif name == "ascii":
            shell.colsep, shell.rowsep = "\x1f", "\x1e"
        elif name == "csv":
            shell.colsep, shell.rowsep = ",", "\r\n"
        else:
            shell.colsep, shell.rowsep = " ", "\n"
        return 0
    shell.mode = name
    if name in render.COLUMNAR:
        if name == "column" and not shell.headers_set:
            shell.headers = True
        shell.rowsep = "\n"
        shell.wrap, shell.wordwrap, shell.col_quote = wrap, wordwrap, quote
    elif name == "quote":
        shell.colsep, shell.rowsep = ",", "\n"
    elif name == "insert":
        shell.insert_table = table if table is not None else "table"
    elif name == "line":
        shell.rowsep = "\n"
    return 0


def integer_value(text: str) -> int:
    """The sqlite3 shell's integerValue(): a leading integer (decimal or 0x hex, with an
    optional sign and a KiB/MB/... suffix), 0 when there is none."""
    text = text.strip()
    sign = -1 if text[:1] == "-" else 1
    text = text.lstrip("+-")
    if text[:2].lower() == "0x":
        return sign * int(leading_hex(text, 2) or "0", 16)
    digits = ""
    for ch in text:
        if not ch.isdigit():
            break
        digits += ch
    value = int(digits or "0")
    multipliers = {"KiB": 1024, "MiB": 1024 ** 2, "GiB": 1024 ** 3, "KB": 1000, "MB": 1000 ** 2,
                   "GB": 1000 ** 3, "K": 1000, "M": 1000 ** 2, "G": 1000 ** 3}
    suffix = text[len(digits):]
    for key, factor in multipliers.items():
        if suffix.lower() == key.lower():
            value *= factor
            break
    return sign * value


def cmd_separator(shell, args):
    if len(args) < 2 or len(args) > 3:
        return _usage(shell, ".separator COL ?ROW?")
    shell.colsep = args[1]
    if len(args) == 3:
        shell.rowsep = args[2]
    return 0


def cmd_nullvalue(shell, args):
    if len(args) != 2:
        return _usage(shell, ".nullvalue STRING")
    shell.nullvalue = args[1]
    return 0


def cmd_width(shell, args):
    widths = []
    for arg in args[1:]:
        try:
            widths.append(int(arg))
        except ValueError:
            widths.append(0)
    shell.widths = widths
    return 0


def cmd_eqp(shell, args):
    if len(args) != 2:
        return _usage(shell, ".eqp off|on|trace|trigger|full")
    value = args[1]
    if value in ("full", "trigger"):
        shell.eqp = value
    else:
        shell.eqp = "on" if boolean_value(shell, args[1]) else "off"
    return 0


def cmd_explain(shell, args):
    # as the sqlite3 shell: "on" switches to the explain mode (remembering the mode to go
    # back to), "off" and "auto" leave it; "auto" shows EXPLAIN statements in it anyway
    value = args[1] if len(args) > 1 else "on"
    turn_on = value != "auto" and boolean_value(shell, value)
    if turn_on:
        if shell.mode != "explain":
            shell.normal_mode = shell.mode
            shell.mode = "explain"
        shell.auto_explain = False
        return 0
    if shell.mode == "explain":
        shell.mode = shell.normal_mode
    shell.auto_explain = value == "auto"
    return 0


def cmd_show(shell, args):
    if len(args) != 1:
        return _usage(shell, ".show")

    def line(label, value):
        shell.write(f"{label:>12.12}: {value}\n")

    def escaped(text):
        return '"' + text.encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"'

    line("echo", "on" if shell.echo else "off")
    line("eqp", shell.eqp)
    line("explain", shell.explain)
    line("headers", "on" if shell.headers else "off")
    line("mode", mode_description(shell))
    line("nullvalue", escaped(shell.nullvalue))
    line("output", shell.output_name)
    line("colseparator", escaped(shell.colsep))
    line("rowseparator", escaped(shell.rowsep))
    line("stats", "off")
    shell.write(f"{'width':>12}: " + "".join(f"{w} " for w in shell.widths) + "\n")
    line("filename", shell.filename)
    return 0


# -- output redirection -------------------------------------------------------------------------


class _PipeOutput:
    """Output into a shell command (``.output |less``), closed by waiting for it."""

    def __init__(self, command):
        import subprocess

        self.process = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE)
        self.stream = io.TextIOWrapper(self.process.stdin, encoding="utf-8",
                                       errors="surrogateescape", newline="")

    def write(self, text):
        self.stream.write(text)

    def flush(self):
        self.stream.flush()

    def close(self):
        try:
            self.stream.close()
        finally:
            self.process.wait()


def _open_output(shell, target, once):
    if shell.out is not shell.stdout:
        shell.out.close()
    if target is None or target in ("stdout", "-"):
        shell.out = shell.stdout
        shell.output_name = "stdout"
        shell.once = False
        return 0
    shell.flush()
    if target.startswith("|"):
        shell.out = _PipeOutput(target[1:])
    else:
        shell.out = open(target, "w", encoding="utf-8", errors="surrogateescape", newline="")
    shell.output_name = target
    shell.once = once
    return 0


def cmd_output(shell, args):
    if len(args) > 2:
        return _usage(shell, ".output [FILE]")
    return _open_output(shell, args[1] if len(args) == 2 else None, once=False)


def cmd_once(shell, args):
    if len(args) != 2:
        return _usage(shell, ".once FILE")
    return _open_output(shell, args[1], once=True)


def cmd_print(shell, args):
    shell.write(" ".join(args[1:]) + "\n")
    return 0


def cmd_version(shell, args):
    import sqlengine

    shell.write(f"SQLite {sqlengine.sqlite_version} (sqlengine "
                f"{_package_version()}, a SQLite-compatible engine in Python)\n")
    return 0


def _package_version():
    try:
        from importlib.metadata import version

        return version("sqlengine")
    except Exception:  # noqa: BLE001 - not installed: the source tree's version
        return "0.1.0"


# -- database ------------------------------------------------------------------------------------


def cmd_open(shell, args):
    new = readonly = False
    filename = None
    for arg in args[1:]:
        if arg in ("--new", "-new"):
            new = True
        elif arg in ("--readonly", "-readonly"):
            readonly = True
        elif arg.startswith("-"):
            shell.error(f"unknown option: {arg}")
            return 1
        else:
            filename = arg
    shell.open(filename or ":memory:", new=new, readonly=readonly)
    if filename is None:
        shell.filename = ":memory:"
    return 0


def cmd_databases(shell, args):
    path = shell.filename
    shown = '""' if path in ("", ":memory:") else os.path.abspath(path)
    mode = "r/o" if getattr(shell, "readonly", False) else "r/w"
    shell.write(f"main: {shown} {mode}\n")
    for name, file in _attached(shell):
        shell.write(f"{name}: {file or chr(34) * 2} {mode}\n")
    return 0


def _attached(shell):
    """(name, file) of every database beside main (temp too, once it exists), in the
    order of PRAGMA database_list."""
    shell.db  # noqa: B018 - opens the database on first use
    try:
        rows = _query(shell, "PRAGMA database_list")
    except errors.Error:
        return []
    return [(name, file) for _, name, file in rows if name != "main"]


def _all_schema_rows(shell):
    """(schema, type, name, tbl_name, sql) of main, then of each attached database."""
    out = [("main",) + tuple(r) for r in _schema_rows(shell)]
    for name, _ in _attached(shell):
        quoted = render.quote_identifier(name)
        out.extend((name,) + tuple(r) for r in _query(
            shell, f"SELECT type, name, tbl_name, sql FROM {quoted}.sqlite_master"))
    return out


def _schema_word(schema):
    """A schema name as the sqlite3 shell writes it in .schema (quoted only when it is not
    a plain word; keywords such as temp stay bare)."""
    if schema.replace("_", "a").isalnum() and not schema[0].isdigit() and schema.isascii():
        return schema
    return '"' + schema.replace('"', '""') + '"'


def _qualified(schema, name):
    return name if schema == "main" else f"{schema}.{name}"


def _add_schema(sql, schema):
    """A CREATE statement of an attached database with its name qualified, as the sqlite3
    shell prints it (``CREATE TABLE aux.t(...)``)."""
    if schema == "main":
        return sql
    words = sql.split(None, 4)
    at = 2
    if len(words) > 2 and words[1].upper() in ("UNIQUE", "TEMP", "TEMPORARY", "VIRTUAL"):
        at = 3
    if len(words) <= at:
        return sql
    head = sql[:sql.index(words[at - 1]) + len(words[at - 1])]
    rest = sql[len(head):].lstrip()
    gap = sql[len(head):len(sql) - len(rest)]
    return f"{head}{gap}{_schema_word(schema)}.{rest}"


def _query(shell, sql, params=()):
    return shell.con.execute(sql, params).fetchall()


def _schema_rows(shell):
    shell.db  # noqa: B018 - opens the database on first use
    return _query(shell, "SELECT type, name, tbl_name, sql FROM sqlite_master")


def _like(pattern, text):
    """SQL LIKE with the shell's patterns (case-insensitive ASCII, % and _)."""
    import re

    regex = "".join(".*" if ch == "%" else "." if ch == "_" else re.escape(ch) for ch in pattern)
    return re.fullmatch(regex, text, re.IGNORECASE | re.S) is not None


def _columns_listing(shell, names):
    if not names:
        return
    width = max(len(n) for n in names)
    ncols = max(1, 80 // (width + 2))
    nrows = (len(names) + ncols - 1) // ncols
    for i in range(nrows):
        parts = []
        for j in range(i, len(names), nrows):
            parts.append(("" if j < nrows else "  ") + names[j].ljust(width))
        shell.write("".join(parts) + "\n")


def cmd_tables(shell, args):
    pattern = args[1] if len(args) > 1 else "%"
    names = sorted(_qualified(schema, name) for schema, kind, name, _, _ in _all_schema_rows(shell)
                   if kind in ("table", "view") and not name.startswith("sqlite_")
                   and _like(pattern, name))
    _columns_listing(shell, names)
    return 0


def cmd_indexes(shell, args):
    if len(args) > 2:
        return _usage(shell, ".indexes ?LIKE-PATTERN?")
    pattern = args[1] if len(args) > 1 else "%"
    names = sorted(_qualified(schema, name)
                   for schema, kind, name, table, _ in _all_schema_rows(shell)
                   if kind == "index" and _like(pattern, table))
    _columns_listing(shell, names)
    return 0


def schema_sql(sql: str) -> str:
    """A CREATE statement as the shell prints it (quoted table names gain IF NOT EXISTS)."""
    if sql.startswith('CREATE TABLE "') or sql.startswith("CREATE TABLE '"):
        return "CREATE TABLE IF NOT EXISTS " + sql[13:]
    return sql


def cmd_schema(shell, args):
    pattern = None
    for arg in args[1:]:
        if arg.startswith("-"):
            continue
        pattern = arg
    for schema, kind, name, table, sql in _all_schema_rows(shell):
        if sql is None:
            continue
        if pattern is not None and not (_like(pattern, table) or _like(pattern, name)):
            continue
        text = _add_schema(schema_sql(sql), schema)
        if kind == "view":
            view = render.quote_identifier(name)
            if schema != "main":
                view = f"{_schema_word(schema)}.{view}"
            try:
                columns = shell.con.execute(f"SELECT * FROM {view} "
                                            "WHERE 0").description or ()
                listing = ",".join(render.quote_identifier(c[0]) for c in columns)
                text += f"\n/* {view}({listing}) */"
            except errors.Error:
                pass
        shell.write(text + ";\n")
    return 0


def dump_lines(shell, patterns=()):
    """The .dump text of the database (tables matching ``patterns`` when given)."""
    rows = _schema_rows(shell)
    yield "PRAGMA foreign_keys=OFF;"
    yield "BEGIN TRANSACTION;"
    tables = [r for r in rows if r[0] == "table" and r[3] is not None]
    tables.sort(key=lambda r: r[1] == "sqlite_sequence")
    for _, name, _, sql in tables:
        if patterns and not any(_like(p, name) for p in patterns):
            continue
        if name == "sqlite_sequence":
            yield "DELETE FROM sqlite_sequence;"
        elif name.startswith("sqlite_stat"):
            yield "ANALYZE sqlite_schema;"
        elif name.startswith("sqlite_"):
            continue
        else:
            yield schema_sql(sql) + ";"
        quoted = render.quote_identifier(name)
        for row in shell.con.execute(f"SELECT * FROM {quoted}"):
            values = ",".join(render.sql_literal(v, for_insert=True) for v in row)
            yield f"INSERT INTO {quoted} VALUES({values});"
    for kind, _name, table, sql in rows:
        if kind in ("index", "trigger", "view") and sql is not None:
            if patterns and not any(_like(p, table) for p in patterns):
                continue
            yield sql + ";"
    yield "COMMIT;"


def cmd_dump(shell, args):
    patterns = [a for a in args[1:] if not a.startswith("-")]
    for line in dump_lines(shell, patterns):
        shell.write(line + "\n")
    return 0


def cmd_read(shell, args):
    if len(args) != 2:
        return _usage(shell, ".read FILE")
    try:
        handle = open(args[1], encoding="utf-8", errors="surrogateescape", newline="\n")
    except OSError:
        shell.error(f'Error: cannot open "{args[1]}"')
        return 1
    with handle:
        return 1 if shell.process_lines(handle) else 0


IMPORT_USAGE = """\
.import FILE TABLE       Import data from FILE into TABLE
   Options:
     --ascii               Use \\037 and \\036 as column and row separators
     --csv                 Use , and \\n as column and row separators
     --skip N              Skip the first N rows of input
     --schema S            Target table to be S.TABLE
     -v                    "Verbose" - increase auxiliary output
   Notes:
     *  If TABLE does not exist, it is created.  The first row of input
        determines the column names.
     *  If neither --csv or --ascii are used, the input mode is derived
        from the ".mode" output mode
     *  If FILE begins with "|" then it is a command that generates the
        input text.
"""


def _import_usage(shell, problem):
    shell.write(f"ERROR: {problem} Usage:\n{IMPORT_USAGE}")
    return 1


def cmd_import(shell, args):
    positional = []
    use_csv = shell.mode == "csv"
    use_ascii = shell.mode == "ascii"
    skip = 0
    i = 1
    while i < len(args):
        arg = args[i]
        if arg.startswith("-"):
            option = "-" + arg.lstrip("-")
            if option == "-csv":
                use_csv = True
            elif option == "-ascii":
                use_ascii = True
            elif option in ("-skip", "-schema") and i + 1 < len(args):
                i += 1
                if option == "-skip":
                    skip = int(args[i])
            elif option != "-v":
                return _import_usage(shell, f'unknown option: "{option}". ')
        elif len(positional) == 2:
            return _import_usage(shell, f'extra argument: "{arg}". ')
        else:
            positional.append(arg)
        i += 1
    if not positional:
        return _import_usage(shell, "missing FILE argument.")
    if len(positional) == 1:
        return _import_usage(shell, "missing TABLE argument.")
    filename, table = positional
    try:
        with open(filename, encoding="utf-8", newline="") as handle:
            text = handle.read()
    except OSError:
        shell.error(f"Error: cannot open \"{filename}\"")
        return 1
    if use_csv:
        records = list(csv.reader(io.StringIO(text)))
    else:
        colsep, rowsep = ("\x1f", "\x1e") if use_ascii else (shell.colsep, shell.rowsep)
        rowsep = "\n" if rowsep == "\r\n" else rowsep
        records = [r.split(colsep) for r in text.split(rowsep) if r != ""]
    records = records[skip:]
    if not records:
        return 0
    quoted = render.quote_identifier(table)
    existing = {name for kind, name, _, _ in _schema_rows(shell) if kind == "table"}
    if table not in existing:
        header = records.pop(0)
        columns = ", ".join(f'"{c.replace(chr(34), chr(34) * 2)}" TEXT' for c in header)
        name = '"' + table.replace('"', '""') + '"'
        shell.con.execute(f"CREATE TABLE {name}(\n{columns})")
    ncols = len(shell.con.execute(f"SELECT * FROM {quoted} WHERE 0").description)
    placeholders = ",".join("?" * ncols)
    shell.con.execute("BEGIN")
    try:
        first_line = skip + (2 if table not in existing else 1)
        for number, record in enumerate(records, first_line):
            if len(record) < ncols:
                shell.error(f"{filename}:{number}: expected {ncols} columns but found "
                            f"{len(record)} - filling the rest with NULL")
                record = record + [None] * (ncols - len(record))
            elif len(record) > ncols:
                shell.error(f"{filename}:{number}: expected {ncols} columns but found "
                            f"{len(record)} - extras ignored")
                record = record[:ncols]
            shell.con.execute(f"INSERT INTO {quoted} VALUES({placeholders})", record)
    except BaseException:
        shell.con.execute("ROLLBACK")
        raise
    shell.con.execute("COMMIT")
    return 0


def cmd_btree(shell, args):
    from sqlengine.shell.storage_view import show_btree

    if len(args) != 2:
        return _usage(shell, ".btree TABLE")
    return show_btree(shell, args[1])


def cmd_pages(shell, args):
    from sqlengine.shell.storage_view import show_pages

    return show_pages(shell)


# -- session -------------------------------------------------------------------------------------


def cmd_quit(shell, args):
    raise ExitShell(None)


def cmd_exit(shell, args):
    code = 0
    if len(args) > 1:
        try:
            code = int(args[1])
        except ValueError:
            code = 0
    raise ExitShell(code)


HELP = """\
.bail on|off             Stop after hitting an error.  Default OFF
.btree TABLE             Show the b-tree of TABLE: pages, types, cells, overflow chains
.changes on|off          Show number of rows changed by SQL
.databases               List names and files of attached databases
.dump ?OBJECTS?          Render database content as SQL
.echo on|off             Turn command echo on or off
.eqp on|off|full|...     Enable or disable automatic EXPLAIN QUERY PLAN
.exit ?CODE?             Exit this program with return-code CODE
.explain ?on|off|auto?   Change the EXPLAIN formatting mode.  Default: auto
.headers on|off          Turn display of headers on or off
.help ?-all? ?PATTERN?   Show help text for PATTERN
.import FILE TABLE       Import data from FILE into TABLE
.indexes ?TABLE?         Show names of indexes
.mode MODE ?OPTIONS?     Set output mode
.nullvalue STRING        Use STRING in place of NULL values
.once FILE               Output for the next SQL command only to FILE
.open ?OPTIONS? ?FILE?   Close existing database and reopen FILE
.output ?FILE?           Send output to FILE or stdout if FILE is omitted
.pages                   Show every page of the database file: number and type
.print STRING...         Print literal STRING
.quit                    Exit this program
.read FILE               Read input from FILE
.schema ?PATTERN?        Show the CREATE statements matching PATTERN
.separator COL ?ROW?     Change the column and row separators
.show                    Show the current values for various settings
.tables ?TABLE?          List names of tables matching LIKE pattern TABLE
.timer on|off            Turn SQL timer on or off
.version                 Show source, library and compiler versions
.width NUM1 NUM2 ...     Set minimum column widths for columnar output
"""


# the lines ".help COMMAND" adds under a command's summary line, as the sqlite3 shell does
HELP_DETAILS = {
    "indexes": (
        "                           If TABLE is specified, only show indexes for\n"
        "                           tables matching TABLE using the LIKE operator.\n"
    ),
    "mode": (
        '   MODE is one of:\n'
        '     ascii       Columns/rows delimited by 0x1F and 0x1E\n'
        '     box         Tables using unicode box-drawing characters\n'
        '     csv         Comma-separated values\n'
        '     column      Output in columns.  (See .width)\n'
        '     html        HTML <table> code\n'
        '     insert      SQL insert statements for TABLE\n'
        '     json        Results in a JSON array\n'
        '     line        One value per line\n'
        '     list        Values delimited by "|"\n'
        '     markdown    Markdown table format\n'
        '     qbox        Shorthand for "box --wrap 60 --quote"\n'
        '     quote       Escape answers as for SQL\n'
        '     table       ASCII-art table\n'
        '     tabs        Tab-separated values\n'
        '     tcl         TCL list elements\n'
        '   OPTIONS: (for columnar modes or insert mode):\n'
        '     --wrap N       Wrap output lines to no longer than N characters\n'
        '     --wordwrap B   Wrap or not at word boundaries per B (on/off)\n'
        '     --ww           Shorthand for "--wordwrap 1"\n'
        '     --quote        Quote output text as SQL literals\n'
        '     --noquote      Do not quote output text\n'
        '     TABLE          The name of SQL table used for "insert" mode\n'
    ),
    "eqp": (
        '   Other Modes:\n'
        '      trigger               Like "full" but also show trigger bytecode\n'
    ),
}


def cmd_help(shell, args):
    if len(args) > 1:
        # as the sqlite3 shell: the commands the word begins (with the details when only
        # one), else every command whose text holds it (in any case), with its details
        wanted = args[1]
        lines = [line for line in HELP.splitlines() if line[1:].startswith(wanted)]
        if len(lines) == 1 and lines[0][1:].split()[0] in HELP_DETAILS:
            lines[0] += "\n" + "".join(HELP_DETAILS[lines[0][1:].split()[0]]).rstrip()
        elif not lines:
            for line in HELP.splitlines():
                text = line + "\n" + "".join(HELP_DETAILS.get(line[1:].split()[0], ()))
                if wanted.lower() in text.lower():
                    lines.append(text.rstrip())
        if not lines:
            shell.write(f"Nothing matches '{args[1]}'\n")
        for line in lines:
            shell.write(line + "\n")
        return 0
    shell.write(HELP)
    return 0


# The sqlite3 shell tries commands in this order, so a prefix picks the first match.
COMMANDS = [
    ("bail", _toggle("bail", ".bail on|off")),
    ("btree", cmd_btree),
    ("changes", _toggle("show_changes", ".changes on|off")),
    ("databases", cmd_databases),
    ("dump", cmd_dump),
    ("echo", _toggle("echo", ".echo on|off")),
    ("eqp", cmd_eqp),
    ("exit", cmd_exit),
    ("explain", cmd_explain),
    ("headers", cmd_headers),
    ("help", cmd_help),
    ("import", cmd_import),
    ("indexes", cmd_indexes),
    ("mode", cmd_mode),
    ("nullvalue", cmd_nullvalue),
    ("once", cmd_once),
    ("open", cmd_open),
    ("output", cmd_output),
    ("pages", cmd_pages),
    ("print", cmd_print),
    ("quit", cmd_quit),
    ("read", cmd_read),
    ("schema", cmd_schema),
    ("separator", cmd_separator),
    ("show", cmd_show),
    ("tables", cmd_tables),
    ("timer", _toggle("timer", ".timer on|off")),
    ("version", cmd_version),
    ("width", cmd_width),
]
