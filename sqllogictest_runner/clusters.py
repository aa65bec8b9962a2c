"""Group failures by signature so that the biggest classes of failure come first.

A signature is ``(kind, message class, SQL feature)``:

- kind: statement failed / statement succeeded / query error / column count / wrong result /
  label mismatch / crash / timeout / worker died / script error (runner.py's names);
- message class: the error message with its specifics blanked out (quoted names, numbers),
  keeping the words that tell failures apart (``no such function: nullif``, syntax errors
  near a keyword); for wrong results, whether an error was raised while stepping;
- SQL feature: the statement kind (SELECT, INSERT, CREATE INDEX, ...) and the most specific
  construct found in the text (compound select, subquery, join, GROUP BY, aggregate, CASE,
  CAST, BETWEEN, IN list, ...), by a fixed priority.

This module only classifies; it never runs SQL.
"""

from __future__ import annotations

import re
from collections import Counter

from sqllogictest_runner.runner import WRONG_RESULT

__all__ = ["signature", "statement_kind", "sql_feature", "message_class", "Clusters"]

_KEYWORDS = set("""
ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYZE AND AS ASC ATTACH AUTOINCREMENT BEFORE BEGIN
BETWEEN BY CASCADE CASE CAST CHECK COLLATE COLUMN COMMIT CONFLICT CONSTRAINT CREATE CROSS
CURRENT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP DATABASE DEFAULT DEFERRABLE DEFERRED
DELETE DESC DETACH DISTINCT DO DROP EACH ELSE END ESCAPE EXCEPT EXCLUDE EXCLUSIVE EXISTS
EXPLAIN FAIL FILTER FIRST FOLLOWING FOR FOREIGN FROM FULL GENERATED GLOB GROUP GROUPS HAVING
IF IGNORE IMMEDIATE IN INDEX INDEXED INITIALLY INNER INSERT INSTEAD INTERSECT INTO IS ISNULL
JOIN KEY LAST LEFT LIKE LIMIT MATCH MATERIALIZED NATURAL NO NOT NOTHING NOTNULL NULL NULLS OF
OFFSET ON OR ORDER OTHERS OUTER OVER PARTITION PLAN PRAGMA PRECEDING PRIMARY QUERY RAISE RANGE
RECURSIVE REFERENCES REGEXP REINDEX RELEASE RENAME REPLACE RESTRICT RETURNING RIGHT ROLLBACK
ROW ROWS SAVEPOINT SELECT SET TABLE TEMP TEMPORARY THEN TIES TO TRANSACTION TRIGGER UNBOUNDED
UNION UNIQUE UPDATE USING VACUUM VALUES VIEW VIRTUAL WHEN WHERE WINDOW WITH WITHOUT
""".split())

_QUOTED = re.compile(r"""("([^"]|"")*"|'([^']|'')*'|`[^`]*`|\[[^\]]*\])""")
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(\.\d+)?([eE][-+]?\d+)?(?![\w.])")
_AFTER_COLON = re.compile(r"^(no such (?:table|column|index|view|trigger|collation sequence)"
                          r"|(?:UNIQUE|NOT NULL|CHECK|PRIMARY KEY|FOREIGN KEY) constraint "
                          r"failed|table|index|view|trigger|ambiguous column name"
                          r"|duplicate column name)(:?)\s+(.*)$", re.I)
_NEAR = re.compile(r'^near "(.*)": syntax error$', re.S)


def message_class(kind: str, message: str) -> str:
    """The message with its specifics blanked out."""
    msg = (message or "").strip()
    if kind == WRONG_RESULT:
        m = re.search(r"\(error while stepping: (.*)\)$", msg)
        return "error while stepping: " + message_class("", m.group(1)) if m else ""
    if kind in ("timeout", "worker died", "column count", "statement succeeded"):
        return ""
    msg = msg.splitlines()[0] if msg else ""
    m = _NEAR.match(msg)
    if m:
        tok = m.group(1)
        return f'near "{tok.upper()}": syntax error' if tok.upper() in _KEYWORDS else \
            'near "?": syntax error'
    m = _AFTER_COLON.match(msg)
    if m:
        return f"{m.group(1)}{m.group(2)} ?" + (" already exists" if "already exists" in
                                                 m.group(3) else "")
    if msg.lower().startswith("no such function:"):
        return msg.lower()
    msg = _QUOTED.sub("?", msg)
    msg = _NUMBER.sub("N", msg)
    return msg[:120]


_STMT = re.compile(r"^\s*(?:--[^\n]*\n\s*)*(\w+)(?:\s+(?:OR\s+\w+\s+)?(\w+))?(?:\s+(\w+))?",
                   re.I)


def statement_kind(sql: str) -> str:
    m = _STMT.match(sql or "")
    if not m:
        return "?"
    first = m.group(1).upper()
    if first in ("CREATE", "DROP"):
        words = [w.upper() for w in (m.group(2), m.group(3)) if w]
        for w in words:
            if w in ("TABLE", "INDEX", "VIEW", "TRIGGER"):
                return f"{first} {w}"
        return first
    return first


_FEATURES = [
    ("compound select", re.compile(r"\b(UNION|EXCEPT|INTERSECT)\b", re.I)),
    ("WITH", re.compile(r"^\s*WITH\b", re.I)),
    ("window function", re.compile(r"\bOVER\s*\(", re.I)),
    ("EXISTS subquery", re.compile(r"\bEXISTS\s*\(\s*SELECT\b", re.I)),
    ("IN subquery", re.compile(r"\bIN\s*\(\s*SELECT\b", re.I)),
    ("subquery", re.compile(r"\(\s*SELECT\b", re.I)),
    ("outer join", re.compile(r"\bLEFT\b(\s+OUTER)?\s+JOIN\b", re.I)),
    ("join", re.compile(r"\bJOIN\b|\bFROM\s+\w+(\s+(AS\s+)?\w+)?\s*,", re.I)),
    ("HAVING", re.compile(r"\bHAVING\b", re.I)),
    ("GROUP BY", re.compile(r"\bGROUP\s+BY\b", re.I)),
    ("aggregate", re.compile(r"\b(COUNT|SUM|AVG|MIN|MAX|TOTAL|GROUP_CONCAT)\s*\(", re.I)),
    ("DISTINCT", re.compile(r"\bDISTINCT\b", re.I)),
    ("CASE", re.compile(r"\bCASE\b", re.I)),
    ("CAST", re.compile(r"\bCAST\s*\(", re.I)),
    ("BETWEEN", re.compile(r"\bBETWEEN\b", re.I)),
    ("IN list", re.compile(r"\bIN\s*\(", re.I)),
    ("LIKE/GLOB", re.compile(r"\b(LIKE|GLOB)\b", re.I)),
    ("IS NULL", re.compile(r"\bIS\s+(NOT\s+)?NULL\b|\bNOTNULL\b|\bISNULL\b", re.I)),
    ("function", re.compile(r"\b(?!IN\b|EXISTS\b|VALUES\b|AS\b)[A-Za-z_]\w*\s*\(", re.I)),
    ("ORDER BY", re.compile(r"\bORDER\s+BY\b", re.I)),
    ("LIMIT", re.compile(r"\bLIMIT\b", re.I)),
    ("WHERE", re.compile(r"\bWHERE\b", re.I)),
]


def sql_feature(sql: str) -> str:
    """``"<statement kind>: <most specific construct>"``."""
    kind = statement_kind(sql)
    if kind.startswith(("CREATE", "DROP")) or kind in ("BEGIN", "COMMIT", "ROLLBACK",
                                                        "REINDEX", "PRAGMA", "ANALYZE"):
        body = sql
        if kind == "CREATE VIEW":
            m = re.search(r"\bAS\b(.*)$", sql, re.I | re.S)
            body = m.group(1) if m else ""
        elif kind != "CREATE TRIGGER":
            return kind
        for name, rx in _FEATURES:
            if rx.search(body):
                return f"{kind}: {name}"
        return kind
    for name, rx in _FEATURES:
        if rx.search(sql or ""):
            return f"{kind}: {name}"
    return kind


def signature(kind: str, message: str, sql: str) -> tuple[str, str, str]:
    return (kind, message_class(kind, message), sql_feature(sql) if sql else "")


class Clusters:
    """Counts of failures per signature, with the first example of each."""

    def __init__(self):
        self.counts: Counter = Counter()
        self.examples: dict[tuple, tuple] = {}

    def add_result(self, result) -> None:
        for f in result.failures:
            sig = signature(f[1], f[2], f[3])
            self.counts[sig] += 1
            if sig not in self.examples:
                self.examples[sig] = (result.path, f[0], f[2], f[3], result.engine)

    def ranked(self, n: int | None = None):
        """[(signature, count, example)] most frequent first."""
        return [(sig, c, self.examples[sig]) for sig, c in self.counts.most_common(n)]

    def format(self, n: int = 15) -> str:
        lines = []
        total = sum(self.counts.values())
        for i, (sig, c, ex) in enumerate(self.ranked(n), 1):
            kind, msg, feat = sig
            label = " | ".join(x for x in (kind, msg, feat) if x)
            lines.append(f"{i:>3}. {c:>9,} ({100.0 * c / total:5.1f}%)  {label}")
            sql = " ".join((ex[3] or "").split())
            lines.append(f"       e.g. {ex[0]}:{ex[1]}  {sql[:90]}")
            if ex[2] and kind != WRONG_RESULT:
                lines.append(f"            {ex[2][:100]}")
        if len(self.counts) > n:
            lines.append(f"     ... {len(self.counts) - n} more signatures")
        return "\n".join(lines)
