"""Read sqllogictest scripts (.test, .test.gz) into records, following FORMAT.md.

A script is split into lines (one trailing ``\\r`` dropped); a line of only white space is
blank; a line starting with ``#`` is a comment wherever it stands. Records are separated by
blank lines. Before a record's first line any number of ``skipif ENGINE`` / ``onlyif ENGINE``
lines decide whether it is skipped (the engine under test is always called ``sqlite``).

Record kinds produced (``Record.kind``):

- ``statement``: ``ok`` is True for ``statement ok``, False for ``statement error``; ``sql``.
- ``query``: ``types`` (e.g. ``"IIT"``), ``sort`` (``nosort``/``rowsort``/``valuesort``),
  ``label`` (or None), ``sql``, ``expected`` (list of lines after ``----``).
- ``hash-threshold``: ``threshold``.
- ``halt``.
- ``error``: a malformed or unknown record; ``message`` says why. It ends the script.

This module only reads text; it never runs SQL and never decides pass or fail.
"""

from __future__ import annotations

import gzip
import os

__all__ = ["Record", "read_script_text", "parse_script", "parse_file", "ENGINE_NAME"]

ENGINE_NAME = "sqlite"
_SORTS = ("nosort", "rowsort", "valuesort")


class Record:
    """One record of a script. ``line`` is the 1-based line of its own first line."""

    __slots__ = ("kind", "line", "skip", "sql", "ok", "types", "sort", "label", "expected",
                 "threshold", "message", "first_line")

    def __init__(self, kind, line, skip, sql=None, ok=True, types=None, sort="nosort",
                 label=None, expected=None, threshold=0, message=None, first_line=None):
        self.kind = kind
        self.line = line
        self.skip = skip
        self.sql = sql
        self.ok = ok
        self.types = types
        self.sort = sort
        self.label = label
        self.expected = expected
        self.threshold = threshold
        self.message = message
        # first line of the record including its skipif/onlyif lines (for reproductions)
        self.first_line = first_line if first_line is not None else line

    def __repr__(self):
        fields = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__
                           if getattr(self, k) not in (None, False))
        return f"Record({fields})"


def read_script_text(path) -> str:
    """The text of a .test or .test.gz script (gzip read directly, never unpacked)."""
    path = os.fspath(path)
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    return data.decode("utf-8", "surrogateescape")


def _split_lines(text: str) -> list[str]:
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if text.endswith("\r"):
            text = text[:-1]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def parse_script(text: str, engine_name: str = ENGINE_NAME):
    """Yield the Records of a script's text, in order.

    Stops after an ``error`` record (the reference ends the script there). A ``halt`` record
    is yielded like any other; the runner stops at it unless it is skipped.
    """
    lines = _split_lines(text)
    n = len(lines)
    i = 0
    engine_name = engine_name.lower()
    while True:
        # find the first line of the next record: skip blank lines and comments
        while i < n:
            s = lines[i]
            if s and s[0] != "#" and not s.isspace():
                break
            i += 1
        if i >= n:
            return
        first = i + 1
        skip = False
        tokens = lines[i].split()
        while tokens[0] in ("skipif", "onlyif"):
            cond = tokens[1].lower() if len(tokens) > 1 else ""
            if tokens[0] == "skipif":
                if cond == engine_name:
                    skip = True
            elif cond != engine_name:
                skip = True
            i += 1
            while i < n and lines[i][:1] == "#":
                i += 1
            if i >= n or not lines[i] or lines[i].isspace():
                yield Record("error", i + 1, skip, message="condition without a record",
                             first_line=first)
                return
            tokens = lines[i].split()
        line = i + 1
        kind = tokens[0]
        # the body: every following non-comment line up to a blank line
        i += 1
        body = []
        while i < n:
            s = lines[i]
            if not s or s.isspace():
                break
            if s[0] != "#":
                body.append(s)
            i += 1
        if kind == "statement":
            mode = tokens[1] if len(tokens) > 1 else ""
            if mode == "ok" or mode == "error":
                yield Record("statement", line, skip, sql="\n".join(body), ok=mode == "ok",
                             first_line=first)
            else:
                yield Record("error", line, skip, first_line=first,
                             message=f"statement argument should be 'ok' or 'error': {mode!r}")
                return
        elif kind == "query":
            types = tokens[1] if len(tokens) > 1 else ""
            if not types or types.strip("IRT"):
                yield Record("error", line, skip, first_line=first,
                             message=f"bad type string {types!r} in query")
                return
            sort = tokens[2] if len(tokens) > 2 else "nosort"
            if sort not in _SORTS:
                yield Record("error", line, skip, first_line=first,
                             message=f"unknown sort method {sort!r}")
                return
            label = tokens[3] if len(tokens) > 3 else None
            try:
                sep = body.index("----")
            except ValueError:
                sql, expected = body, []
            else:
                sql, expected = body[:sep], body[sep + 1:]
            yield Record("query", line, skip, sql="\n".join(sql), types=types, sort=sort,
                         label=label, expected=expected, first_line=first)
        elif kind == "hash-threshold":
            try:
                threshold = int(tokens[1])
            except (IndexError, ValueError):
                yield Record("error", line, skip, first_line=first,
                             message="hash-threshold needs an integer")
                return
            yield Record("hash-threshold", line, skip, threshold=threshold, first_line=first)
        elif kind == "halt":
            yield Record("halt", line, skip, first_line=first)
        else:
            yield Record("error", line, skip, first_line=first,
                         message=f"unknown record type {kind!r}")
            return


def parse_file(path, engine_name: str = ENGINE_NAME) -> list[Record]:
    """All Records of the script at ``path``."""
    return list(parse_script(read_script_text(path), engine_name))
