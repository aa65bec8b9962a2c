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

    __slots__ = ("kind", "line", "skip", "sql", "ok", "types", "sort", "label",
                 "expected_text", "threshold", "message", "first_line")

    def __init__(self, kind, line, skip, sql=None, ok=True, types=None, sort="nosort",
                 label=None, expected=None, threshold=0, message=None, first_line=None,
                 expected_text=None):
        self.kind = kind
        self.line = line
        self.skip = skip
        self.sql = sql
        self.ok = ok
        self.types = types
        self.sort = sort
        self.label = label
        # the expected block as one string, its lines joined with "\n" ("" when empty)
        self.expected_text = expected_text if expected is None else "\n".join(expected)
        self.threshold = threshold
        self.message = message
        # first line of the record including its skipif/onlyif lines (for reproductions)
        self.first_line = first_line if first_line is not None else line

    @property
    def expected(self) -> list[str] | None:
        """The expected block's lines (a query's values, or its one hash line)."""
        t = self.expected_text
        if t is None:
            return None
        return t.split("\n") if t else []

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
_WS_LINE = re.compile(r"\n[ \t\v\f\r]+\n")  # a line of only white space


def _blocks(text: str):
    """(line numbers, lines) of each run of non-blank lines, comment lines dropped.

    ``line numbers`` is the first line's number (an int) when no line was dropped, else the
    list of the kept lines' numbers.
    """
    text = _normalise(text)
    if _WS_LINE.search("\n" + text + "\n"):
        chunks = _chunks_with_spaces(text)  # some line may be all white space
    else:
        chunks = _chunks(text)
    for start, block in chunks:
        if block[:1] == "#" or "\n#" in block:  # a comment line (a "#" inside a line is text)
            lines = block.split("\n")
            nums = [start + j for j, ln in enumerate(lines) if ln[:1] != "#"]
            if not nums:
                continue
            if len(nums) < len(lines):
                yield nums, "\n".join(ln for ln in lines if ln[:1] != "#")
                continue
        yield start, block


def _chunks(text: str):
    """(first line, text) of the runs of lines between empty lines (no all-space lines)."""
    line = 1
    for part in text.split("\n\n"):
        if part[:1] == "\n":
            stripped = part.lstrip("\n")
            line += len(part) - len(stripped)
            part = stripped
        nl = part.count("\n")
        if part[-1:] == "\n":
            part = part.rstrip("\n")
        if part:
            yield line, part
        line += nl + 2


def _chunks_with_spaces(text: str):
    parts = _SEPARATOR.split("\n" + text + "\n")
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
        if block and not block.isspace():
            yield start, block


def _split_query_body(rest: str):
    """(sql, expected text) of a query's lines after its first line: split at "----"."""
    if rest == "----":
        return "", ""
    if rest[:5] == "----\n":
        return "", rest[5:]
    k = rest.find("\n----\n")
    if k >= 0:
        return rest[:k], rest[k + 6:]
    if rest[-5:] == "\n----":
        return rest[:-5], ""
    return rest, ""


def parse_script(text: str, engine_name: str = ENGINE_NAME):
    """Yield the Records of a script's text, in order.

    Stops after an ``error`` record (the reference ends the script there). A ``halt`` record
    is yielded like any other; the runner stops at it unless it is skipped.
    """
    engine_name = engine_name.lower()
    for nums, block in _blocks(text):
        first = nums if nums.__class__ is int else nums[0]
        skip = False
        i = 0
        nl = block.find("\n")
        tokens = (block if nl < 0 else block[:nl]).split()
        while tokens[0] in ("skipif", "onlyif"):
            cond = tokens[1].lower() if len(tokens) > 1 else ""
            if tokens[0] == "skipif":
                if cond == engine_name:
                    skip = True
            elif cond != engine_name:
                skip = True
            if nl < 0:
                yield Record("error", first, skip, message="condition without a record",
                             first_line=first)
                return
            i += 1
            pos = nl + 1
            nl = block.find("\n", pos)
            tokens = (block[pos:] if nl < 0 else block[pos:nl]).split()
        line = first + i if nums.__class__ is int else nums[i]
        rest = "" if nl < 0 else block[nl + 1:]
        kind = tokens[0]
        if kind == "statement":
            mode = tokens[1] if len(tokens) > 1 else ""
            if mode == "ok" or mode == "error":
                yield Record("statement", line, skip, rest, mode == "ok", first_line=first)
            else:
                yield Record("error", line, skip, first_line=first,
                             message=f"statement argument should be 'ok' or 'error': {mode!r}")
                return
        elif kind == "query":
            n = len(tokens)
            types = tokens[1] if n > 1 else ""
            if not types or types.strip("IRT"):
                yield Record("error", line, skip, first_line=first,
                             message=f"bad type string {types!r} in query")
                return
            sort = tokens[2] if n > 2 else "nosort"
            if sort not in _SORTS:
                yield Record("error", line, skip, first_line=first,
                             message=f"unknown sort method {sort!r}")
                return
            sql, expected_text = _split_query_body(rest)
            yield Record("query", line, skip, sql, True, types, sort,
                         tokens[3] if n > 3 else None, None, 0, None, first, expected_text)
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
