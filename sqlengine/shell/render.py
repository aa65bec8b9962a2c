"""Output modes of the shell, byte for byte as the sqlite3 command-line shell (3.40) writes
them: list, csv, tabs, ascii, line, html, insert, quote, json, and the columnar modes
(column, table, box, markdown) with their width, wrap and multi-line rules.

Values arrive as the engine gives them (None, int, float, str, bytes). Text is written as
str; raw bytes of BLOBs are carried as surrogate escapes, so the output stream must use
``errors="surrogateescape"``. Row-at-a-time modes stream; the columnar modes hold one
statement's rows to size the columns, as the sqlite3 shell does. Nothing here runs SQL.
"""

from __future__ import annotations

from sqlengine.dbapi_types import real_to_text

MODES = ("ascii", "box", "column", "csv", "html", "insert", "json", "line", "list",
         "markdown", "qbox", "quote", "table", "tabs", "tcl")
COLUMNAR = frozenset(("column", "table", "box", "markdown"))


def printf_g20(value: float) -> str:
    """``%!.20g`` as SQLite's printf writes it (quote, insert and json modes, .dump)."""
    try:
        from sqlengine.vdbe.func_printf import sqlite_printf
    except Exception:  # noqa: BLE001 - unbuilt VM: Python's digits (SQLite's differ past 17)
        text = "%.20g" % value
        if "e" not in text and "." not in text and "n" not in text:
            text += ".0"
        elif "e" in text and "." not in text.split("e")[0]:
            mantissa, exponent = text.split("e")
            text = f"{mantissa}.0e{exponent}"
        return text
    return sqlite_printf("%!.20g", [value])


def blob_as_text(value: bytes) -> str:
    """A BLOB as the shell prints it with %s: its bytes up to the first NUL."""
    nul = value.find(b"\0")
    if nul >= 0:
        value = value[:nul]
    return value.decode("utf-8", "surrogateescape")


def value_text(value, nullvalue: str) -> str:
    """sqlite3_column_text() of a value, as list-like modes print it."""
    if value is None:
        return nullvalue
    if isinstance(value, str):
        nul = value.find("\0")
        return value if nul < 0 else value[:nul]
    if isinstance(value, float):
        return real_to_text(value)
    if isinstance(value, bytes):
        return blob_as_text(value)
    return str(value)


def sql_literal(value, *, for_insert: bool) -> str:
    """A value as the quote/insert modes and .dump write it."""
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if for_insert and value == float("inf"):
            return "1e999"
        if for_insert and value == float("-inf"):
            return "-1e999"
        if for_insert and value.is_integer() and -2**63 <= value < 2**63:
            return f"{int(value)}.0"
        return printf_g20(value)
    if isinstance(value, bytes):
        return "X'" + value.hex() + "'"
    text = value.replace("'", "''")
    if for_insert and ("\n" in text or "\r" in text):
        quoted = "'" + text.replace("\n", "\\n").replace("\r", "\\r") + "'"
        if "\r" in text:
            quoted = f"replace({quoted},'\\r',char(13))"
        if "\n" in text:
            quoted = f"replace({quoted},'\\n',char(10))"
        return quoted
    return "'" + text + "'"


_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n",
                 "\r": "\\r", "\t": "\\t"}


def json_string(text: str) -> str:
    out = ['"']
    for ch in text:
        escaped = _JSON_ESCAPES.get(ch)
        if escaped is not None:
            out.append(escaped)
        elif ch < " ":
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def json_value(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return printf_g20(value)
    if isinstance(value, bytes):
        return json_string(value.decode("utf-8", "surrogateescape"))
    return json_string(value)


def _needs_csv_quote(text: str, separator: str) -> bool:
    if text == "":
        return True
    for ch in text:
        if ch <= " " or ch in "\"'" or ch >= "\x7f":
            return True
    return bool(separator) and separator in text


def csv_field(text: str, separator: str) -> str:
    if _needs_csv_quote(text, separator):
        return '"' + text.replace('"', '""') + '"'
    return text


_HTML_ESCAPES = {"<": "&lt;", "&": "&amp;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}


def html_escape(text: str) -> str:
    return "".join(_HTML_ESCAPES.get(ch, ch) for ch in text)


_PLAIN_IDENT_FIRST = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_PLAIN_IDENT = _PLAIN_IDENT_FIRST | frozenset("0123456789")


def quote_identifier(name: str) -> str:
    """An identifier as the shell writes it: bare when plain and not a keyword."""
    from sqlengine.sql.lexer import KEYWORDS

    if name and name[0] in _PLAIN_IDENT_FIRST and all(ch in _PLAIN_IDENT for ch in name) \
            and name.upper() not in KEYWORDS:
        return name
    return '"' + name.replace('"', '""') + '"'


def char_width(text: str) -> int:
    """Display width as the shell counts it: one per UTF-8 lead byte (so a stray
    continuation byte of a BLOB shown as text counts for nothing)."""
    if text.isascii():
        return len(text)
    return sum(1 for byte in text.encode("utf-8", "surrogateescape") if byte & 0xC0 != 0x80)


def split_for_display(text: str, max_width: int, word_wrap: bool = False):
    """One display line of ``text`` (tabs expanded, cut at a control character or at
    ``max_width`` characters, with ``word_wrap`` at a space or a word's edge in the line's
    second half when there is one) and the rest (None when nothing remains): the sqlite3
    shell's translateForDisplayAndDup()."""
    limit = max_width if max_width > 0 else 1_000_000
    out = []
    n = 0
    i = 0
    length = len(text)
    while n < limit and i < length:
        ch = text[i]
        if ch >= " ":
            out.append((i, ch))
            n += 1
            i += 1
        elif ch == "\t":
            while True:
                out.append((i, " "))
                n += 1
                if n % 8 == 0 or n >= limit:
                    break
            i += 1
        else:
            break
    cut = i
    if n >= limit and word_wrap:
        k = i
        while k > i // 2 and text[k - 1] not in " \t\n\v\f\r":
            k -= 1
        if k <= i // 2:
            k = i
            while k > i // 2 and _is_alnum(text, k - 1) == _is_alnum(text, k):
                k -= 1
        if k > i // 2:
            cut = i = k
            while i < length and text[i] == " ":
                i += 1
    line = "".join(ch for position, ch in out if position < cut)
    if i >= length:
        return line, None
    if n >= limit and text[i] >= " ":
        return line, text[i:]
    # a control character ends the line (\r\n as one); nothing after it: no more lines
    i += 2 if text[i] == "\r" and i + 1 < length and text[i + 1] == "\n" else 1
    return line, text[i:] if i < length else None


def _is_alnum(text: str, index: int) -> bool:
    return index < len(text) and text[index].isascii() and text[index].isalnum()


class Output:
    """One statement's rows in the current mode, written to ``write``."""

    def __init__(self, shell, names):
        self.shell = shell
        self.names = names
        self.write = shell.write
        self.count = 0

    def row(self, values):
        raise NotImplementedError

    def end(self):
        pass


class ListOutput(Output):
    def row(self, values):
        shell = self.shell
        sep, rowsep = shell.colsep, shell.rowsep
        if self.count == 0 and shell.headers:
            self.write(sep.join(self.names) + rowsep)
        self.count += 1
        self.write(sep.join(value_text(v, shell.nullvalue) for v in values) + rowsep)


class CsvOutput(Output):
    def row(self, values):
        shell = self.shell
        sep, rowsep = shell.colsep, shell.rowsep
        if self.count == 0 and shell.headers:
            self.write(sep.join(csv_field(n, sep) for n in self.names) + rowsep)
        self.count += 1
        fields = [shell.nullvalue if v is None else csv_field(value_text(v, ""), sep)
                  for v in values]
        self.write(sep.join(fields) + rowsep)


class LineOutput(Output):
    def row(self, values):
        shell = self.shell
        width = max([5] + [len(n.encode("utf-8")) for n in self.names])
        if self.count > 0:
            self.write(shell.rowsep)
        self.count += 1
        for name, value in zip(self.names, values):
            pad = " " * (width - len(name.encode("utf-8")))
            self.write(f"{pad}{name} = {value_text(value, shell.nullvalue)}{shell.rowsep}")


class HtmlOutput(Output):
    def row(self, values):
        shell = self.shell
        if self.count == 0 and shell.headers:
            self.write("<TR>" + "".join(f"<TH>{html_escape(n)}</TH>\n" for n in self.names)
                       + "</TR>\n")
        self.count += 1
        cells = "".join(f"<TD>{html_escape(value_text(v, shell.nullvalue))}</TD>\n"
                        for v in values)
        self.write("<TR>" + cells + "</TR>\n")


class QuoteOutput(Output):
    def row(self, values):
        shell = self.shell
        if self.count == 0 and shell.headers:
            self.write(",".join(sql_literal(n, for_insert=False) for n in self.names)
                       + shell.rowsep)
        self.count += 1
        self.write(",".join(sql_literal(v, for_insert=False) for v in values) + shell.rowsep)


class InsertOutput(Output):
    def row(self, values):
        shell = self.shell
        self.count += 1
        columns = ""
        if shell.headers:
            columns = "(" + ",".join(quote_identifier(n) for n in self.names) + ")"
        literals = ",".join(sql_literal(v, for_insert=True) for v in values)
        self.write(f"INSERT INTO {quote_identifier(shell.insert_table)}{columns} "
                   f"VALUES({literals});{shell.rowsep}")


class JsonOutput(Output):
    def row(self, values):
        self.write("[{" if self.count == 0 else ",\n{")
        self.count += 1
        self.write(",".join(f"{json_string(n)}:{json_value(v)}"
                            for n, v in zip(self.names, values)) + "}")

    def end(self):
        if self.count:
            self.write("]\n")


def c_string(text: str) -> str:
    """A value as the tcl mode writes it: a double-quoted C string."""
    out = ['"']
    for ch in text:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch < " " or ch >= "\x7f":
            out.extend("\\%03o" % byte for byte in ch.encode("utf-8", "surrogateescape"))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


class TclOutput(Output):
    def row(self, values):
        shell = self.shell
        sep, rowsep = shell.colsep, shell.rowsep
        if self.count == 0 and shell.headers:
            self.write(sep.join(c_string(n) for n in self.names) + rowsep)
        self.count += 1
        self.write(sep.join(c_string(value_text(v, shell.nullvalue)) for v in values) + rowsep)


def quoted_cell(value) -> str:
    """A value as the qbox mode shows it."""
    if value is None:
        return "NULL"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, bytes):
        return "x'" + value.hex() + "'"
    if isinstance(value, float):
        return real_to_text(value)
    return str(value)


class ColumnarOutput(Output):
    """column, table, box, markdown, qbox: rows are held until the statement ends."""

    def __init__(self, shell, names):
        super().__init__(shell, names)
        self.rows = []

    def row(self, values):
        if self.shell.col_quote or self.shell.mode == "qbox":
            self.rows.append([quoted_cell(v) for v in values])
        else:
            self.rows.append([value_text(v, self.shell.nullvalue) for v in values])

    def end(self):
        if not self.rows:
            return
        shell = self.shell
        mode = shell.mode
        ncol = len(self.names)
        if len(shell.widths) < ncol:  # as the sqlite3 shell, .show then lists them
            shell.widths = shell.widths + [0] * (ncol - len(shell.widths))
        widths = shell.widths[:ncol]
        max_widths = [abs(w) for w in widths]
        # a column without a .width wraps at the mode's --wrap (0: never)
        wrap_at = [w or shell.wrap for w in max_widths]
        word_wrap = shell.wordwrap
        # Each logical row becomes one or more display lines per cell.
        header = [self._lines(n, wrap_at[i], word_wrap) for i, n in enumerate(self.names)]
        body = [[self._lines(cell, wrap_at[i], word_wrap) for i, cell in enumerate(row)]
                for row in self.rows]
        actual = []
        for i in range(ncol):
            width = max_widths[i]
            if width == 0:
                width = max([char_width(line) for line in header[i]]
                            + [char_width(line) for row in body for line in row[i]])
            actual.append(width)
        multiline = any(len(cell) > 1 for row in body for cell in row)
        right = [w < 0 for w in widths]
        write = self.write
        if mode == "column":
            if shell.headers:
                self._emit(header, actual, right, "", "  ", "", centre=False)
                write("  ".join("-" * w for w in actual) + "\n")
            for index, row in enumerate(body):
                self._emit(row, actual, right, "", "  ", "", centre=False)
                if multiline and index + 1 < len(body):
                    write("\n")
            return
        if mode == "table":
            rule = "+" + "+".join("-" * (w + 2) for w in actual) + "+\n"
            write(rule)
            self._emit(header, actual, right, "| ", " | ", " |", centre=True)
            write(rule)
            for index, row in enumerate(body):
                self._emit(row, actual, right, "| ", " | ", " |", centre=False)
                if multiline and index + 1 < len(body):
                    write(rule)
            write(rule)
            return
        if mode == "markdown":
            self._emit(header, actual, right, "| ", " | ", " |", centre=True)
            write("|" + "|".join("-" * (w + 2) for w in actual) + "|\n")
            for row in body:
                self._emit(row, actual, right, "| ", " | ", " |", centre=False)
            return
        # box
        write("┌" + "┬".join("─" * (w + 2) for w in actual) + "┐\n")
        self._emit(header, actual, right, "│ ", " │ ", " │", centre=True)
        middle = "├" + "┼".join("─" * (w + 2) for w in actual) + "┤\n"
        write(middle)
        for index, row in enumerate(body):
            self._emit(row, actual, right, "│ ", " │ ", " │", centre=False)
            if multiline and index + 1 < len(body):
                write(middle)
        write("└" + "┴".join("─" * (w + 2) for w in actual) + "┘\n")

    @staticmethod
    def _lines(text, max_width, word_wrap=False):
        lines = []
        rest = text
        while True:
            line, rest = split_for_display(rest, max_width, word_wrap)
            lines.append(line)
            if rest is None:
                return lines

    def _emit(self, cells, widths, right, start, middle, end, centre):
        height = max(len(cell) for cell in cells)
        for k in range(height):
            parts = []
            for i, cell in enumerate(cells):
                text = cell[k] if k < len(cell) else ""
                pad = widths[i] - char_width(text)
                if pad < 0:
                    pad = 0
                if centre:
                    parts.append(" " * (pad // 2) + text + " " * ((pad + 1) // 2))
                elif right[i]:
                    parts.append(" " * pad + text)
                else:
                    parts.append(text + " " * pad)
            self.write(start + middle.join(parts) + end + "\n")


class ExplainOutput(Output):
    """Rows in the shell's explain mode: fixed widths (4, 13, 4, 4, 4, 13, 2, 13), and for
    an EXPLAIN program the body of each loop indented by two spaces per level."""

    WIDTHS = (4, 13, 4, 4, 4, 13, 2, 13)
    NEXT = frozenset(("Next", "Prev", "VPrev", "VNext", "SorterNext"))
    YIELD = frozenset(("Yield", "SeekLT", "SeekGT", "RowSetRead", "Rewind"))

    def __init__(self, shell, names, program=False):
        super().__init__(shell, names)
        self.program = program
        self.rows = []

    def row(self, values):
        self.rows.append(values)

    def _indents(self):
        indents = [0] * len(self.rows)
        if not self.program:
            return indents
        yields = []
        for index, row in enumerate(self.rows):
            try:
                address, opcode, p1, p2 = int(row[0]), str(row[1]), row[2], int(row[3])
            except (TypeError, ValueError, IndexError):
                return [0] * len(self.rows)
            yields.append(opcode in self.YIELD)
            target = p2 + (index - address)
            if opcode in self.NEXT and target > 0:
                for i in range(target, index):
                    indents[i] += 2
            if opcode == "Goto" and 0 <= target < index + 1 and target < len(yields) \
                    and (yields[target] or p1):
                for i in range(target, index):
                    indents[i] += 2
        return indents

    def end(self):
        if not self.rows and not self.names:
            return
        shell = self.shell
        ncol = min(len(self.names), len(self.WIDTHS))
        widths = self.WIDTHS[:ncol]
        out = []
        # (a header is cut to its column's width; a value widens its column)
        out.append("  ".join(self.names[i][:widths[i]].ljust(widths[i])
                             for i in range(ncol)) + "\n")
        out.append("  ".join("-" * w for w in widths) + "\n")
        for row, indent in zip(self.rows, self._indents()):
            cells = []
            for i in range(ncol):
                text = value_text(row[i], shell.nullvalue)
                width = 0 if i == ncol - 1 else widths[i]
                cell = text.ljust(max(width, len(text)))
                if i == 1:
                    cell = " " * indent + cell
                cells.append(cell)
            out.append("  ".join(cells) + "\n")
        if self.rows:
            self.write("".join(out))


OUTPUTS = {
    "list": ListOutput, "tabs": ListOutput, "ascii": ListOutput, "csv": CsvOutput,
    "line": LineOutput, "html": HtmlOutput, "quote": QuoteOutput, "insert": InsertOutput,
    "json": JsonOutput, "column": ColumnarOutput, "table": ColumnarOutput,
    "box": ColumnarOutput, "markdown": ColumnarOutput, "qbox": ColumnarOutput,
    "tcl": TclOutput, "explain": ExplainOutput,
}
