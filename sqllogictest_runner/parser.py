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
import re

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


def _normalise(text: str) -> str:
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if text.endswith("\r"):
            text = text[:-1]
    return text


# One or more blank lines (empty or only white space) between records.
_SEPARATOR = re.compile(r"(\n(?:[ \t\v\f\r]*\n)+)")


def _blocks(text: str):
    """(line numbers, lines) of each run of non-blank lines, comment lines dropped.

    ``line numbers`` is the first line's number (an int) when no line was dropped, else the
    list of the kept lines' numbers.
    """
    parts = _SEPARATOR.split("\n" + _normalise(text) + "\n")
    line = 0  # parts[0] starts with the "\n" added above: its first line is line 1
    for k in range(0, len(parts), 2):
        block = parts[k]
        start = line
        line += block.count("\n")
        if k + 1 < len(parts):
            line += parts[k + 1].count("\n")
        if k == 0:
            block = block[1:]
            start += 1
        if not block or block.isspace():
            continue
        lines = block.split("\n")
        if "#" in block:
            nums = [start + j for j, ln in enumerate(lines) if ln[:1] != "#"]
            if not nums:
                continue
            if len(nums) < len(lines):
                yield nums, [ln for ln in lines if ln[:1] != "#"]
                continue
        yield start, lines


def parse_script(text: str, engine_name: str = ENGINE_NAME):
    """Yield the Records of a script's text, in order.

    Stops after an ``error`` record (the reference ends the script there). A ``halt`` record
    is yielded like any other; the runner stops at it unless it is skipped.
    """
    engine_name = engine_name.lower()
    for nums, lines in _blocks(text):
        first = nums if nums.__class__ is int else nums[0]
        skip = False
        i = 0
        tokens = lines[0].split()
        while tokens[0] in ("skipif", "onlyif"):
            cond = tokens[1].lower() if len(tokens) > 1 else ""
            if tokens[0] == "skipif":
                if cond == engine_name:
                    skip = True
            elif cond != engine_name:
                skip = True
            i += 1
            if i >= len(lines):
                yield Record("error", first, skip, message="condition without a record",
                             first_line=first)
                return
            tokens = lines[i].split()
        line = first + i if nums.__class__ is int else nums[i]
        kind = tokens[0]
        body = lines[i + 1:] if i else lines[1:]
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
