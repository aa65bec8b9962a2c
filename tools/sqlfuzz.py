"""SQL fuzzing: random schemas and statements run on sqlengine and on the stdlib sqlite3,
result for result, plus SQLancer's TLP and NoREC oracles on sqlengine alone.

* ``Gen`` makes a random schema (tables with INTEGER/TEXT/REAL/BLOB/untyped columns, some
  indexes, rows with edge values) and random statements: SELECTs with expressions over the
  columns (arithmetic, comparisons, logic, CASE, CAST, BETWEEN, IN, LIKE/GLOB, COLLATE,
  scalar functions, subqueries), joins, GROUP BY/HAVING with aggregates, ORDER BY, LIMIT,
  DISTINCT, compound SELECTs; and INSERT/UPDATE/DELETE.
  Statements are trees (``Node``) so a difference can be shrunk.
* Differential: both engines run the statement; the outcome (rows as a multiset, or as a
  list when ORDER BY fixes the order of every column; or the error message) must be equal.
  For DML the table contents after the statement must be equal too.
* TLP (ternary logic partitioning): for a predicate p, the rows of ``SELECT * FROM t``
  equal the union of those WHERE p, WHERE NOT p and WHERE p IS NULL.
* NoREC: ``SELECT count(*) FROM t WHERE p`` equals
  ``SELECT total(CASE WHEN p THEN 1 ELSE 0 END) FROM t`` (no optimisation possible).
* ``shrink`` minimises a failing statement (subtrees replaced by their children or by
  constants) and the table rows, keeping the failure.

Never edits the engine. CLI: ``python -m tools.sqlfuzz --statements 100000 --seed 1``.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sqlite3
import sys
import time

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sqlengine  # noqa: E402

INT_EDGES = [0, 1, -1, 2, 7, 10, -128, 255, 256, 2 ** 31 - 1, -2 ** 31, 2 ** 53,
             2 ** 63 - 1, -2 ** 63, 1000000]
REAL_EDGES = [0.0, -0.0, 0.5, -1.5, 1e100, -1e-100, 3.14159, 1e15, 2.5, 1e308]
TEXT_EDGES = ["", "a", "A", "abc", "ABC", "a%b", "_", " x ", "10", "-3", "1e5", "0x10",
              "ü", "ß", "NULL", "'", "9223372036854775808", "3.0"]
BLOB_EDGES = [b"", b"\x00", b"ab", b"\xc3\xa9"]
# text that CAST, affinity and the numeric functions read in unusual ways
CAST_EDGES = ["  12abc", "0x1F", "1e400", "-1e400", "-0", "+5", ".5", "5.", " 1 ", "1e", "--1",
              "9223372036854775807", "-9223372036854775808", "-9223372036854775809",
              "18446744073709551616", "1.7976931348623157e308", "4.9e-324", "1_000", "\t7",
              "0.1e1", "12e-1", "1,5", "  ", "inf", "nan", "+-1", "00012", "1e+2x"]
JSON_EDGES = ['{"a":1,"b":[1,2,{"c":null}],"d":"x"}', '[1,2.5,"3",null,true,false]',
              '{"a":{"b":{"c":[10,20]}}}', '"str"', '3', '{"a":1', '[]', '{}', 'null',
              '{"a b":1,"$":2,"":[]}', '[[1],[2,[3]]]', ' {"x" : -0.0e1 } ']
JSON_PATHS = ["'$'", "'$.a'", "'$.b[1]'", "'$.b[#-1]'", "'$.a.b.c[0]'", "'$[0]'",
              "'$[#-1]'", "'$.\"a b\"'", "'$.x'", "'a'", "'$[1'", "0", "1", "'$.d'"]
DATE_EDGES = ["'2024-02-29'", "'2023-01-31 12:34:56'", "'2000-01-01T00:00:00.123'",
              "'1970-01-01'", "2460000.5", "0", "1700000000", "'12:30'", "'2024-13-01'",
              "'-0001-01-01'", "'9999-12-31 23:59:59.999'", "'2024-03-10 02:30:00+05:00'",
              "'junk'", "NULL", "'2024-02-29 10:00Z'", "-1", "1e20"]
DATE_MODIFIERS = ["'+1 day'", "'-3 months'", "'+1.5 hours'", "'start of month'",
                  "'start of year'", "'start of day'", "'weekday 0'", "'weekday 3'",
                  "'unixepoch'", "'+12 years'", "'-90 minutes'", "'+30 seconds'",
                  "'julianday'", "'auto'", "'+1 month'", "'-1 month'", "'bogus'",
                  "'+0001-02-03 04:05:06'", "'subsec'", "'utc'"]
STRFTIME_FORMATS = ["'%Y-%m-%d'", "'%H:%M:%f'", "'%j %w %W %U'", "'%s'", "'%J'", "'%%'",
                    "'%Y%m%d%H%M%S'", "'%d/%m'", "'%q'", "''"]
PRINTF_FORMATS = ["'%d'", "'%5d|%-5d|%05d'", "'%.2f'", "'%10.3e'", "'%g'", "'%x %X %o'",
                  "'%s'", "'%.3s'", "'%-8s|'", "'%q'", "'%Q'", "'%w'", "'%c'", "'%i'",
                  "'%%'", "'%+d % d'", "'%,d'", "'%!.3g'", "'%#x'", "'%lld'", "'%z'",
                  "'%5.1f%%'", "'%*d'", "'%.*f'", "'%'", "'%u'", "'%e'", "'%E %G'"]     # valid UTF-8: sqlite3 cannot fetch
# text made of invalid UTF-8 (``Could not decode to UTF-8``), which is not what we test here


class Node:
    """A statement fragment: ``template`` with ``{}`` holes for ``kids``; ``expr`` nodes may
    be replaced by other expressions when shrinking."""

    __slots__ = ("template", "kids", "expr")

    def __init__(self, template, kids=(), expr=True):
        self.template = template
        self.kids = list(kids)
        self.expr = expr

    def sql(self) -> str:
        if not self.kids:
            return self.template
        return self.template.format(*(k.sql() for k in self.kids))

    def walk(self):
        yield self
        for k in self.kids:
            yield from k.walk()

    def copy(self):
        return Node(self.template, [k.copy() for k in self.kids], self.expr)


def lit(v) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isinf(v):
            return "1e999" if v > 0 else "-1e999"
        return repr(v)
    if isinstance(v, bytes):
        return "X'" + v.hex() + "'"
    return "'" + v.replace("'", "''") + "'"


def _esc(text: str) -> str:
    """A literal made a part of a Node template (whose {} are holes)."""
    return text.replace("{", "{{").replace("}", "}}")


class Gen:
    """``avoid``: constructs not to generate, for runs that must not trip over a known,
    reported bug or a missing feature: "nocase_column" (a column declared COLLATE NOCASE),
    "filter" (aggregate FILTER clauses), "window" (window functions)."""

    def __init__(self, rng: random.Random, avoid=()):
        self.r = rng
        self.avoid = set(avoid)
        self.tables: dict[str, list[tuple[str, str]]] = {}

    # -- schema ---------------------------------------------------------------------------
    def value(self, typ=None):
        r = self.r
        k = r.random()
        if k < 0.12:
            return None
        kind = typ if (typ and r.random() < 0.7) else r.choice(["INTEGER", "REAL", "TEXT",
                                                                  "BLOB", "INTEGER"])
        if kind == "INTEGER":
            return r.choice(INT_EDGES) if r.random() < 0.3 else r.randint(-20, 20)
        if kind == "REAL":
            return r.choice(REAL_EDGES) if r.random() < 0.3 else round(r.uniform(-20, 20), 2)
        if kind == "TEXT":
            return r.choice(TEXT_EDGES) if r.random() < 0.5 else \
                "".join(r.choice("abcAB12 %_") for _ in range(r.randint(0, 5)))
        if kind == "BLOB":
            return r.choice(BLOB_EDGES)
        return r.randint(-5, 5)

    def schema(self) -> list[str]:
        r = self.r
        out = []
        for t in range(r.randint(1, 3)):
            name = f"t{t}"
            cols = []
            for c in range(r.randint(1, 4)):
                typ = r.choice(["INTEGER", "TEXT", "REAL", "BLOB", "", "NUMERIC", "INT"])
                cols.append((f"c{c}", typ))
            self.tables[name] = cols
            defs = []
            for i, (c, typ) in enumerate(cols):
                d = f"{c} {typ}".strip()
                if i == 0 and typ == "INTEGER" and r.random() < 0.3:
                    d += " PRIMARY KEY"
                elif r.random() < 0.1 and "nocase_column" not in self.avoid:
                    d += " COLLATE NOCASE"
                defs.append(d)
            out.append(f"CREATE TABLE {name}({', '.join(defs)})")
            for k in range(r.randint(0, 2)):
                ic = r.sample([c for c, _ in cols], r.randint(1, min(2, len(cols))))
                uniq = "UNIQUE " if (r.random() < 0.3 and "upsert" not in self.avoid) else ""
                out.append(f"CREATE {uniq}INDEX i{t}_{k} ON {name}({', '.join(ic)})")
            pk = "PRIMARY KEY" in defs[0]
            for _ in range(r.randint(0, 12)):
                # no huge keys in an INTEGER PRIMARY KEY: after the largest rowid SQLite picks
                # a random free one for a NULL key, which two engines cannot agree on
                vals = ", ".join(lit(r.randint(-20, 20) if (i == 0 and pk) else
                                     self.value(typ or None))
                                 for i, (_, typ) in enumerate(cols))
                out.append(f"INSERT OR IGNORE INTO {name} VALUES({vals})")
        return out

    # -- expressions ----------------------------------------------------------------------
    def col(self, tables):
        t = self.r.choice(tables)
        c, _ = self.r.choice(self.tables[t])
        return Node(f"{t}.{c}")

    def expr(self, tables, depth=0, agg=False) -> Node:
        r = self.r
        if depth > 3 or r.random() < 0.25 + 0.15 * depth:
            if tables and r.random() < 0.6:
                return self.col(tables)
            return Node(lit(self.value()))
        k = r.random()
        e = lambda: self.expr(tables, depth + 1, agg)  # noqa: E731
        if agg and k < 0.12:
            fn = r.choice(["count({})", "sum({})", "min({})", "max({})", "total({})",
                           "avg({})", "count(DISTINCT {})", "group_concat({})"])
            return Node(fn, [self.expr(tables, depth + 1, False)])
        if k < 0.35:
            op = r.choice(["+", "-", "*", "/", "%", "||", "=", "<>", "<", "<=", ">", ">=",
                           "IS", "IS NOT", "AND", "OR", "&", "|", "<<", ">>", "==", "!=",
                           "IS DISTINCT FROM", "IS NOT DISTINCT FROM"])
            return Node("({} " + op + " {})", [e(), e()])
        if k < 0.45:
            op = r.choice(["-", "+", "NOT ", "~"])
            return Node("(" + op + "{})", [e()])
        if k < 0.52:
            return Node("({} " + r.choice(["BETWEEN", "NOT BETWEEN"]) + " {} AND {})",
                        [e(), e(), e()])
        if k < 0.58:
            n = r.randint(1, 3)
            return Node("({} " + r.choice(["IN", "NOT IN"]) + " ("
                        + ", ".join(["{}"] * n) + "))", [e() for _ in range(n + 1)])
        if k < 0.63:
            return Node("CAST({} AS " + r.choice(["INTEGER", "REAL", "TEXT", "BLOB",
                                                   "NUMERIC"]) + ")", [e()])
        if k < 0.70:
            n = r.randint(1, 2)
            parts = " ".join(["WHEN {} THEN {}"] * n)
            if r.random() < 0.5:
                return Node("CASE " + parts + " ELSE {} END", [e() for _ in range(2 * n + 1)])
            return Node("CASE {} " + parts + " END", [e() for _ in range(2 * n + 1)])
        if k < 0.75:
            return Node("({} " + r.choice(["LIKE", "NOT LIKE", "GLOB"]) + " {})", [e(), e()])
        if k < 0.78:
            return Node("({} " + r.choice(["IS NULL", "NOTNULL", "IS NOT NULL"]) + ")", [e()])
        if k < 0.80:
            return Node("({} COLLATE " + r.choice(["NOCASE", "BINARY", "RTRIM"]) + ")", [e()])
        if k < 0.83 and self.tables:
            t = r.choice(list(self.tables))
            inner = self.expr([t], depth + 2)
            kind = r.random()
            if kind < 0.4:
                return Node("(SELECT {} FROM " + t + " ORDER BY 1 LIMIT 1)", [inner])
            if kind < 0.7:
                return Node("EXISTS (SELECT 1 FROM " + t + " WHERE {})", [inner])
            return Node("({} IN (SELECT {} FROM " + t + "))", [e(), inner])
        if k < 0.85 and "rowvalue" not in self.avoid:
            return self.row_value(tables, e)
        fn = r.choice(["abs({})", "coalesce({}, {})", "ifnull({}, {})", "nullif({}, {})",
                       "length({})", "lower({})", "upper({})", "substr({}, {})",
                       "substr({}, {}, {})", "typeof({})", "round({})", "round({}, {})",
                       "max({}, {})", "min({}, {})", "instr({}, {})", "trim({})", "hex({})",
                       "quote({})", "iif({}, {}, {})", "unicode({})",
                       "replace({}, {}, {})", "ltrim({}, {})", "likely({})", "char({})",
                       "printf('%d-%s', {}, {})", "zeroblob(0) || {}"])
        if r.random() < 0.45:
            extra = self.feature_call(e)
            if extra is not None:
                return extra
        return Node(fn, [e() for _ in range(fn.count("{}"))])

    def feature_call(self, e) -> Node | None:
        """A call of the functions applications lean on beyond the corpus (issue #12):
        json (and -> / ->>), date and time with modifiers, printf/format and the string
        functions, CAST of edge texts; None when all of them are avoided."""
        r = self.r
        kinds = [k for k in ("json", "datetime", "strings", "cast_edges")
                 if k not in self.avoid]
        if not kinds:
            return None
        kind = r.choice(kinds)
        if kind == "json":
            return self.json_call(e)
        if kind == "datetime":
            return self.date_call(e)
        if kind == "cast_edges":
            v = lit(r.choice(CAST_EDGES))
            tgt = r.choice(["INTEGER", "REAL", "NUMERIC", "TEXT", "BLOB", "INT", "FLOAT",
                            "DECIMAL(10,2)", "BIGINT", "VARCHAR(3)", "STRING"])
            form = r.choice(["CAST(" + v + " AS " + tgt + ")", "(" + v + " + 0)",
                             "(" + v + " = {})", "abs(" + v + ")", "round(" + v + ", {})",
                             "(" + v + " < {})", "CAST({} || " + v + " AS " + tgt + ")"])
            return Node(form, [e() for _ in range(form.count("{}"))])
        fmt = r.choice(PRINTF_FORMATS)
        fn = r.choice(["printf(" + fmt + ", {})", "format(" + fmt + ", {}, {})",
                       "printf(" + fmt + ", {}, {}, {})", "substr({}, {}, {})",
                       "substring({}, {})", "instr({}, {})", "replace({}, {}, {})",
                       "trim({}, {})", "rtrim({}, {})", "hex({})", "quote({})",
                       "upper(hex({}))", "length(CAST({} AS BLOB))", "char({}, {})",
                       "unicode({})", "ltrim({})", "glob({}, {})", "like({}, {})",
                       "like({}, {}, '!')", "zeroblob({})", "length(zeroblob({} % 100))",
                       "lower({})", "round({}, {})",
                       "sign({})", "substr({}, -{})", "printf('%.*s', {}, {})",
                       "printf('%*s|', {}, {})"])
        return Node(fn, [e() for _ in range(fn.count("{}"))])

    def json_call(self, e) -> Node:
        r = self.r
        doc = _esc(lit(r.choice(JSON_EDGES))) if r.random() < 0.75 else "{}"
        path = r.choice(JSON_PATHS)
        fn = r.choice([
            "json_extract(" + doc + ", " + path + ")", "(" + doc + " -> " + path + ")",
            "(" + doc + " ->> " + path + ")", "json_type(" + doc + ", " + path + ")",
            "json_valid(" + doc + ")", "json(" + doc + ")", "json_quote({})",
            "json_array({}, {})", "json_object('k', {}, 'v', {})",
            "json_array_length(" + doc + ")", "json_array_length(" + doc + ", " + path + ")",
            "json_set(" + doc + ", " + path + ", {})", "json_insert(" + doc + ", " + path
            + ", {})", "json_replace(" + doc + ", " + path + ", {})",
            "json_remove(" + doc + ", " + path + ")", "json_patch(" + doc + ", "
            + _esc(lit(r.choice(JSON_EDGES))) + ")", "json_extract(" + doc + ", " + path + ", '$')",
            "(json_array({}, {}) ->> 1)", "(json_object('a', {}) -> '$.a')",
            "json_type(json_array({}))", "(SELECT group_concat(key || '=' || quote(value), ';')"
            " FROM json_each(" + doc + "))", "(SELECT count(*) FROM json_tree(" + doc + "))",
            "(" + doc + " -> 'a' ->> 0)"])
        kids = [e() for _ in range(fn.count("{}"))]
        if doc == "{}":
            kids.insert(0, e())
        return Node(fn, kids) if kids else Node(fn.format())

    def date_call(self, e) -> Node:
        r = self.r
        t = r.choice(DATE_EDGES) if r.random() < 0.8 else "{}"
        mods = "".join(", " + r.choice(DATE_MODIFIERS) for _ in range(r.randint(0, 3)))
        fn = r.choice(["date(", "time(", "datetime(", "julianday(", "unixepoch(",
                       "strftime(" + r.choice(STRFTIME_FORMATS) + ", "])
        return Node(fn + t + mods + ")", [e()] if t == "{}" else [])

    def row_value(self, tables, e) -> Node:
        """A comparison of row values (vectors): two of them, a subquery of two columns,
        BETWEEN, IN with a list of rows or a subquery."""
        r = self.r
        vec = "({}, {})"
        k = r.random()
        if k < 0.5:
            op = r.choice(["=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT"])
            return Node("(" + vec + " " + op + " " + vec + ")", [e() for _ in range(4)])
        if k < 0.65:
            return Node("(" + vec + " " + r.choice(["BETWEEN", "NOT BETWEEN"]) + " " + vec
                        + " AND " + vec + ")", [e() for _ in range(6)])
        if k < 0.8:
            return Node("(" + vec + " " + r.choice(["IN", "NOT IN"]) + " (" + vec + ", "
                        + vec + "))", [e() for _ in range(6)])
        if not self.tables:
            return Node("(" + vec + " = " + vec + ")", [e() for _ in range(4)])
        t = r.choice(list(self.tables))
        inner = [self.expr([t], 2), self.expr([t], 2)]
        if k < 0.9:
            return Node("(" + vec + " " + r.choice(["IN", "NOT IN"]) + " (SELECT {}, {} FROM "
                        + t + "))", [e(), e()] + inner)
        op = r.choice(["=", "<>", "<", ">="])
        return Node("(" + vec + " " + op + " (SELECT {}, {} FROM " + t
                    + " ORDER BY 1, 2 LIMIT 1))", [e(), e()] + inner)

    def window(self, tables) -> Node:
        """A window function call whose value does not depend on the order the engine reads
        the rows in: the window's ORDER BY ends with every source table's rowid when the
        function sees the order of rows within a peer group (row_number, lag, a ROWS frame,
        group_concat...); rank-like functions and RANGE/GROUPS frames see only peer groups."""
        r = self.r
        x = lambda: self.expr(tables, 2)  # noqa: E731
        part = " PARTITION BY {}" if r.random() < 0.5 else ""
        kids = [x()] if part else []
        by_peer = ["rank()", "dense_rank()", "percent_rank()", "cume_dist()", "count(*)",
                   "count({})", "max({})", "min({})", "ntile(3)"]
        by_row = ["row_number()", "lag({})", "lead({}, 2, 'd')", "first_value({})",
                  "last_value({})", "nth_value({}, 2)", "group_concat({}, '.')", "sum({})",
                  "total({})", "avg({})", "ntile({})", "lag({}, 1, {})"]
        fn = r.choice(by_peer + by_row)
        fkids = [x() for _ in range(fn.count("{}"))]
        if fn == "ntile({})":
            fkids = [Node(str(r.choice([1, 2, 3, 5, 0, -1])))]
        filt = ""
        if r.random() < 0.1 and "filter" not in self.avoid and fn in (
                "count(*)", "count({})", "max({})", "sum({})", "total({})"):
            filt = " FILTER (WHERE {})"
            fkids.append(x())
        order = ""
        okids = []
        if r.random() < 0.8:
            n = r.randint(1, 2)
            order = " ORDER BY " + ", ".join(
                "{}" + r.choice(["", " DESC", " ASC", " NULLS FIRST", " DESC NULLS LAST"])
                for _ in range(n))
            okids = [x() for _ in range(n)]
            if fn in by_row or r.random() < 0.2:
                order += ", " + ", ".join(f"{t}.rowid" for t in tables)
        frame = ""
        if order and r.random() < 0.5:
            unit = r.choice(["ROWS", "GROUPS"] + (["RANGE"] if len(okids) == 1 else []))
            bounds = ["UNBOUNDED PRECEDING", "1 PRECEDING", "CURRENT ROW", "2 FOLLOWING",
                      "UNBOUNDED FOLLOWING", "0 PRECEDING"]
            if unit == "RANGE":
                bounds = ["UNBOUNDED PRECEDING", "CURRENT ROW", "UNBOUNDED FOLLOWING"]
            a, b = r.choice(bounds), r.choice(bounds)
            frame = f" {unit} BETWEEN {a} AND {b}" if r.random() < 0.8 else f" {unit} {a}"
            if unit == "ROWS" and fn in by_peer and "rowid" not in order:
                order += ", " + ", ".join(f"{t}.rowid" for t in tables)
            if r.random() < 0.2:
                frame += " EXCLUDE " + r.choice(["CURRENT ROW", "GROUP", "TIES",
                                                 "NO OTHERS"])
        if fn in by_row and not order and fn not in ("count(*)",):
            order = " ORDER BY " + ", ".join(f"{t}.rowid" for t in tables)
        return Node(fn + filt + " OVER (" + part + order + frame + ")",
                    fkids + kids + okids, expr=False)

    def feature_select(self) -> tuple[Node, bool]:
        """A statement of the forms applications use beyond the corpus: WITH RECURSIVE
        (bounded), VALUES in FROM, a CTE joined to a table, a window over a CTE."""
        r = self.r
        names = list(self.tables)
        t = r.choice(names)
        x = lambda ts: self.expr(ts, 1)  # noqa: E731
        k = r.random()
        if k < 0.3 and "cte" not in self.avoid:
            step = r.choice(["x + 1", "x + 2", "x * 2 + 1", "x + 0.5"])
            limit = r.randint(0, 12)
            sql = ("WITH RECURSIVE c(x, y) AS (SELECT {}, {} UNION " + r.choice(["", "ALL "])
                   + f"SELECT {step}, {{}} FROM c WHERE x < {limit} LIMIT 40) "
                   "SELECT x, y, {} FROM c")
            kids = [Node(str(r.randint(-3, 3)), expr=False), x([]), x([]),
                    Node(r.choice(["y", "y || x", "x * 2", "typeof(y)", "NULL"]), expr=False)]
            if r.random() < 0.4 and "cte_join" not in self.avoid:
                c, _ = r.choice(self.tables[t])
                sql += f" JOIN {t} ON {t}.{c} " + r.choice(["=", ">=", "<>"]) + " c.x"
            return Node(sql, kids, expr=False), False
        if k < 0.55 and "values" not in self.avoid:
            n = r.randint(1, 4)
            rows = ", ".join("({}, {})" for _ in range(n))
            sql = "SELECT v.column1, v.column2, {} FROM (VALUES " + rows + ") AS v"
            kids = [Node(r.choice(["v.column1 + v.column2", "typeof(v.column1)",
                                   "v.column2 || 'z'", "count(*) OVER ()",
                                   "row_number() OVER (ORDER BY v.column1, v.column2)"]),
                         expr=False)]
            kids += [x([]) for _ in range(2 * n)]
            if r.random() < 0.5:
                sql += f" LEFT JOIN {t} ON {t}.{r.choice(self.tables[t])[0]} = v.column1"
            if r.random() < 0.5 and "OVER" not in kids[0].template:
                # (a row-dependent WHERE: under a constant false one SQLite never runs the
                # VALUES co-routine, where sqlengine fills its table first: README; none
                # beside a window call, where SQLite 3.40 reads ``x IS NOT (e NOTNULL)`` as
                # ``x IS NOT x``: README)
                sql += " WHERE v.column1 IS NOT {}"
                kids.append(self.expr([], 1))
            return Node(sql, kids, expr=False), False
        if k < 0.75 and "cte" not in self.avoid:
            c, _ = r.choice(self.tables[t])
            sql = (f"WITH s AS {r.choice(['', 'MATERIALIZED ', 'NOT MATERIALIZED '])}"
                   f"(SELECT {c} AS k, count(*) AS n FROM {t} GROUP BY {c}) "
                   f"SELECT s.k, s.n, {{}} FROM s WHERE {{}}")
            return Node(sql, [Node(r.choice(["s.n * 2", "s.k || s.n", "typeof(s.k)"]),
                                   expr=False), x([])], expr=False), False
        if "window" in self.avoid:
            return self.select()
        sql = f"SELECT {{}}, {{}} FROM {t} WHERE {{}}"
        node = Node(sql, [self.col([t]), self.window([t]), x([t])], expr=False)
        if r.random() < 0.3:
            node = Node(f"SELECT {{}}, {{}}, {{}} FROM {t} WINDOW w AS (ORDER BY {{}}, "
                        f"{t}.rowid)", [self.col([t]), Node("row_number() OVER w", expr=False),
                                        Node("sum(" + self.col([t]).template + ") OVER (w "
                                             "ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)",
                                             expr=False), self.col([t])], expr=False)
        return node, False

    def aggregate(self, tables) -> Node:
        """An aggregate call (kept whole when shrinking: a bare column in a grouped query
        would take any row's value)."""
        fns = ["count({})", "sum({})", "min({})", "max({})", "total({})", "count(DISTINCT {})"]
        if "filter" not in self.avoid:
            fns += ["count({}) FILTER (WHERE {})", "max({}) FILTER (WHERE {})"]
        fn = self.r.choice(fns)
        return Node(fn, [self.expr(tables, 1) for _ in range(fn.count("{}"))], expr=False)

    # -- statements -----------------------------------------------------------------------
    def select(self) -> tuple[Node, bool]:
        """(statement, ordered): ordered when ORDER BY fixes the whole row order."""
        r = self.r
        names = list(self.tables)
        from_t = r.sample(names, r.randint(1, min(2, len(names))))
        grouped = r.random() < 0.2
        ncol = r.randint(1, 3)
        if grouped:
            # the grouping column and aggregates only: SQLite documents a bare column's
            # value as an arbitrary row's (the row it reads first depends on its plan)
            key = self.col(from_t)
            cols = [Node(key.template, expr=False)] + [self.aggregate(from_t)
                                                      for _ in range(ncol - 1)]
        else:
            cols = [self.expr(from_t, 0) for _ in range(ncol)]
            if r.random() < 0.15 and "window" not in self.avoid:
                cols[-1] = self.window(from_t)
        kids = list(cols)
        sql = "SELECT " + ("DISTINCT " if r.random() < 0.15 else "") + \
            ", ".join(["{}"] * ncol)
        if len(from_t) == 2 and r.random() < 0.5:
            j = r.choice(["JOIN", "LEFT JOIN", "CROSS JOIN"])
            sql += f" FROM {from_t[0]} {j} {from_t[1]}"
            if j != "CROSS JOIN":
                sql += " ON {}"
                kids.append(self.expr(from_t, 1))
        elif len(from_t) == 1 and r.random() < 0.15:
            # the same table through a subquery in FROM (or a CTE): the same column names
            t = from_t[0]
            if r.random() < 0.5:
                sql = f"WITH {t} AS (SELECT * FROM {t} WHERE {{}}) " + sql + f" FROM {t}"
            else:
                sql += f" FROM (SELECT * FROM {t} WHERE {{}}) AS {t}"
            kids = ([self.expr(from_t, 1)] + kids) if sql.startswith("WITH") else \
                kids + [self.expr(from_t, 1)]
        else:
            sql += " FROM " + ", ".join(from_t)
        if r.random() < 0.7:
            sql += " WHERE {}"
            kids.append(self.expr(from_t, 0))
        if grouped:
            sql += " GROUP BY {}"
            kids.append(Node(key.template, expr=False))
            if r.random() < 0.4:
                sql += " HAVING ({} " + r.choice(["<", ">=", "=", "<>"]) + " {})"
                kids += [self.aggregate(from_t), self.expr([], 2)]
        ordered = False
        k = r.random()
        if k < 0.1 and not grouped:
            op = r.choice(["UNION", "UNION ALL", "INTERSECT", "EXCEPT"])
            sql += f" {op} SELECT " + ", ".join(["{}"] * ncol) + f" FROM {from_t[0]}"
            kids += [self.expr(from_t[:1], 1) for _ in range(ncol)]
        elif k < 0.4 and not grouped:
            # ORDER BY every output column: the row order is fixed (ties are equal rows)
            sql += " ORDER BY " + ", ".join(str(i + 1) for i in range(ncol))
            ordered = True
            if r.random() < 0.3:
                sql += f" LIMIT {r.randint(0, 4)} OFFSET {r.randint(0, 2)}"
        return Node(sql, kids, expr=False), ordered

    def dml(self) -> Node:
        r = self.r
        t = r.choice(list(self.tables))
        cols = self.tables[t]
        k = r.random()
        if k < 0.4:
            return Node(f"INSERT OR IGNORE INTO {t} VALUES(" + ", ".join(["{}"] * len(cols))
                        + ")", [self.expr([], 1) for _ in cols], expr=False)
        if k < 0.75:
            c, _ = r.choice(cols)
            ret, rkids = self.returning(t) if "upsert" not in self.avoid else ("", [])
            return Node(f"UPDATE OR IGNORE {t} SET {c} = {{}} WHERE {{}}" + ret,
                        [self.expr([t], 1), self.expr([t], 1)]
                        + (rkids if "{}" in ret else []), expr=False)
        if k < 0.85 or not ({"upsert", "update_from"} - self.avoid):
            return Node(f"DELETE FROM {t} WHERE {{}}", [self.expr([t], 0)], expr=False)
        if "upsert" in self.avoid or ("update_from" not in self.avoid and r.random() < 0.35):
            return self.update_from(t)
        return self.upsert(t)

    def returning(self, t) -> tuple[str, list]:
        r = self.r
        if r.random() < 0.5:
            return "", []
        return r.choice([" RETURNING *", " RETURNING rowid, {}", " RETURNING {} AS x"]), \
            [self.expr([t], 1)]

    def upsert(self, t) -> Node:
        """INSERT ... ON CONFLICT DO UPDATE / DO NOTHING (with or without a conflict target,
        which may name no unique key: an error to compare), maybe RETURNING."""
        r = self.r
        cols = self.tables[t]
        n = r.randint(1, 2)
        rows = ", ".join("(" + ", ".join(["{}"] * len(cols)) + ")" for _ in range(n))
        kids = [self.expr([], 1) for _ in range(n * len(cols))]
        target = ""
        if r.random() < 0.7:
            target = "(" + ", ".join(c for c, _ in r.sample(cols, r.randint(1, min(2, len(cols)))))
            target += ")"
            if r.random() < 0.15:
                target += " WHERE {}"
                kids.append(self.expr([t], 1))
        if r.random() < 0.3:
            action = " DO NOTHING"
        else:
            c, _ = r.choice(cols)
            action = f" DO UPDATE SET {c} = " + r.choice(
                [f"excluded.{c}", f"{c} || excluded.{r.choice(cols)[0]}", "{}",
                 f"coalesce(excluded.{c}, {t}.{c}) + 1"])
            if "{}" in action:
                kids.append(self.expr([t], 1))
            if r.random() < 0.4:
                action += " WHERE {}"
                kids.append(self.expr([t], 1))
        ret, rkids = self.returning(t)
        sql = f"INSERT INTO {t} VALUES {rows} ON CONFLICT{target}{action}"
        if target and r.random() < 0.15:
            sql += " ON CONFLICT DO NOTHING"
        sql += ret
        return Node(sql, kids + (rkids if "{}" in ret else []), expr=False)

    def update_from(self, t) -> Node:
        """UPDATE ... FROM a source giving at most one row per target row (a one-row
        aggregate, or a table joined on rowid), so the new values are defined."""
        r = self.r
        c, _ = r.choice(self.tables[t])
        u = r.choice(list(self.tables))
        uc, _ = r.choice(self.tables[u])
        if r.random() < 0.5:
            src = f"(SELECT max({u}.{uc}) AS m, count(*) AS n FROM {u}) AS s"
            val = r.choice(["s.m", "s.n", f"{t}.{c} || s.m", "s.m + s.n"])
            where = " WHERE {}"
        else:
            src = f"(SELECT rowid AS k, {uc} AS m, {uc} || 'f' AS n FROM {u}) AS s"
            val = r.choice(["s.m", "s.n", f"{t}.{c} + s.m"])
            where = f" WHERE {t}.rowid = s.k AND {{}}"
        ret, rkids = self.returning(t)
        return Node(f"UPDATE OR IGNORE {t} SET {c} = {val} FROM {src}{where}{ret}",
                    [self.expr([t], 1)] + (rkids if "{}" in ret else []), expr=False)


# -- running ------------------------------------------------------------------------------
def _canon(v):
    """A value to compare: a REAL rounded to 12 digits and tagged, so that 1.0 and 1 (equal
    in Python) are told apart as sqlite3 tells them apart (typeof)."""
    if isinstance(v, float):
        if v == 0:
            return ("real", 0.0)
        if math.isnan(v):
            return ("real", "nan")
        return ("real", float(f"{v:.12g}"))
    return v


def outcome(con, sql, ordered=False):
    try:
        rows = [tuple(_canon(v) for v in r) for r in con.execute(sql).fetchall()]
    except (sqlite3.Error, sqlengine.Error) as e:
        return ("error", type(e).__name__, str(e))
    except Exception as e:  # noqa: BLE001 - a foreign exception is a finding
        return ("foreign", type(e).__name__, str(e))
    if not ordered:
        rows = sorted(rows, key=repr)
    return ("rows", rows)


def same(a, b) -> bool:
    """Equal rows, or both errors with the same message (the class names differ: the
    engines' exception classes are distinct objects)."""
    if a[0] == "error" and b[0] == "error":
        return a[2] == b[2]
    return a == b


def contents(con, tables):
    return {t: outcome(con, f"SELECT * FROM {t}") for t in tables}


class SetupDiffers(Exception):
    pass


class Pair:
    """The same database in sqlengine and sqlite3."""

    def __init__(self, setup: list[str]):
        self.setup = setup
        self.ours = sqlengine.connect(":memory:", isolation_level=None)
        self.ref = sqlite3.connect(":memory:", isolation_level=None)
        for s in setup:
            a, b = outcome(self.ours, s), outcome(self.ref, s)
            if not same(a, b):
                self.close()
                raise SetupDiffers(f"{s}: sqlengine {_short(a)} / sqlite3 {_short(b)}")

    def close(self):
        self.ours.close()
        self.ref.close()


def check_select(pair, node, ordered) -> str | None:
    sql = node.sql()
    a = outcome(pair.ours, sql, ordered)
    b = outcome(pair.ref, sql, ordered)
    if a[0] == "foreign":
        return f"foreign exception {a[1]}: {a[2]}"
    if not same(a, b):
        return f"differs: sqlengine {_short(a)} / sqlite3 {_short(b)}"
    return None


def check_dml(pair, node, tables) -> str | None:
    sql = node.sql()
    a = outcome(pair.ours, sql)
    b = outcome(pair.ref, sql)
    if a[0] == "foreign":
        return f"foreign exception {a[1]}: {a[2]}"
    if not same(a, b):
        return f"differs: sqlengine {_short(a)} / sqlite3 {_short(b)}"
    ca, cb = contents(pair.ours, tables), contents(pair.ref, tables)
    if ca != cb:
        return "table contents differ after the statement"
    return None


def check_tlp(pair, gen, pred: Node, t: str) -> str | None:
    p = pred.sql()
    whole = outcome(pair.ours, f"SELECT * FROM {t}")
    parts = [outcome(pair.ours, f"SELECT * FROM {t} WHERE {q}")
             for q in (f"({p})", f"NOT ({p})", f"({p}) IS NULL")]
    for o in [whole] + parts:
        if o[0] == "foreign":
            return f"foreign exception {o[1]}: {o[2]}"
    if any(o[0] != "rows" for o in [whole] + parts):
        return None
    union = sorted(parts[0][1] + parts[1][1] + parts[2][1], key=repr)
    if union != whole[1]:
        return f"TLP: {len(whole[1])} rows, partitions give {len(union)}"
    return None


def check_norec(pair, pred: Node, t: str) -> str | None:
    p = pred.sql()
    a = outcome(pair.ours, f"SELECT count(*) FROM {t} WHERE {p}")
    b = outcome(pair.ours, f"SELECT total(CASE WHEN {p} THEN 1 ELSE 0 END) FROM {t}")
    if "foreign" in (a[0], b[0]):
        return f"foreign exception: {a if a[0] == 'foreign' else b}"
    if a[0] == "rows" and b[0] == "rows" and a[1][0][0] != int(b[1][0][0][1]):
        return f"NoREC: count {a[1][0][0]}, unoptimised {int(b[1][0][0][1])}"
    return None


def _short(o):
    s = repr(o[1:] if o[0] != "rows" else o[1])
    return s if len(s) < 200 else s[:200] + "..."


# -- shrinking ----------------------------------------------------------------------------
def shrink(setup, node, fails, budget=400):
    """Minimise (setup statements, statement tree) while ``fails(setup, node)`` stays true."""
    tries = 0
    changed = True
    while changed and tries < budget:
        changed = False
        # drop setup rows (INSERTs), one at a time
        for i in range(len(setup) - 1, -1, -1):
            if not setup[i].startswith(("INSERT", "CREATE INDEX", "CREATE UNIQUE", "UPDATE",
                                        "DELETE")):
                continue
            cand = setup[:i] + setup[i + 1:]
            tries += 1
            if fails(cand, node):
                setup = cand
                changed = True
        # replace expression subtrees by a child or a constant
        for target in list(node.walk()):
            if not target.expr or tries >= budget:
                continue
            saved = (target.template, target.kids)
            options = [(k.template, k.kids) for k in target.kids] + \
                [("NULL", []), ("1", []), ("0", []), ("'a'", [])]
            for tpl, kids in options:
                if (tpl, kids) == saved or (not saved[1] and tpl in ("NULL", "1", "0", "'a'")
                                            and len(saved[0]) <= len(tpl)):
                    continue
                target.template, target.kids = tpl, kids
                tries += 1
                if fails(setup, node):
                    changed = True
                    saved = (tpl, kids)
                    break
                target.template, target.kids = saved
    return setup, node


# -- driver -------------------------------------------------------------------------------
def run(statements: int, seed: int = 1, per_schema: int = 60, do_shrink: bool = True,
        progress=None, avoid=()) -> dict:
    stats = {"statements": 0, "selects": 0, "dml": 0, "tlp": 0, "norec": 0, "schemas": 0,
             "failures": []}
    s = seed
    while stats["statements"] < statements:
        rng = random.Random(s)
        gen = Gen(rng, avoid)
        setup = gen.schema()
        try:
            pair = Pair(setup)
        except Exception as e:  # noqa: BLE001
            stats["failures"].append({"seed": s, "kind": "setup", "error": repr(e),
                                      "setup": setup, "sql": ""})
            s += 1
            continue
        stats["schemas"] += 1
        tables = list(gen.tables)
        try:
            for _ in range(per_schema):
                if stats["statements"] >= statements:
                    break
                k = rng.random()
                if k < 0.55:
                    node, ordered = gen.feature_select() if (
                        k < 0.12 and "features" not in gen.avoid) else gen.select()
                    kind = "select"
                    err = check_select(pair, node, ordered)
                elif k < 0.7:
                    node = gen.dml()
                    kind = "dml"
                    err = check_dml(pair, node, tables)
                    pair.setup = pair.setup + [node.sql()]
                elif k < 0.85:
                    t = rng.choice(tables)
                    node = gen.expr([t])
                    kind = "tlp"
                    err = check_tlp(pair, gen, node, t)
                else:
                    t = rng.choice(tables)
                    node = gen.expr([t])
                    kind = "norec"
                    err = check_norec(pair, node, t)
                stats["statements"] += 1
                stats[{"select": "selects"}.get(kind, kind)] += 1
                if err:
                    rec = {"seed": s, "kind": kind, "error": err, "sql": node.sql(),
                           "setup": list(pair.setup)}
                    if do_shrink:
                        setup_before = pair.setup[:-1] if kind == "dml" else pair.setup
                        rec.update(_minimise(kind, setup_before, node, err, ordered
                                             if kind == "select" else False,
                                             tables if kind == "dml" else
                                             t if kind in ("tlp", "norec") else None))
                    stats["failures"].append(rec)
                    if kind == "dml":
                        break      # the two databases may now differ
                if progress and stats["statements"] % 5000 == 0:
                    progress(stats)
        finally:
            pair.close()
        s += 1
    return stats


def _minimise(kind, setup, node, err, ordered, table):
    klass = err.split(":")[0]

    def fails(st, nd):
        try:
            p = Pair(st)
        except Exception:  # noqa: BLE001
            return False
        try:
            if kind == "select":
                e = check_select(p, nd, ordered)
            elif kind == "dml":
                e = check_dml(p, nd, table)
            elif kind == "tlp":
                e = check_tlp(p, None, nd, table)
            else:
                e = check_norec(p, nd, table)
        finally:
            p.close()
        return bool(e) and e.split(":")[0] == klass

    st, nd = shrink(list(setup), node.copy(), fails)
    return {"min_setup": st, "min_sql": nd.sql(),
            "min_table": table}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--statements", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--avoid", default="", help="comma-separated constructs not to generate "
                    "(nocase_column, filter, window, rowvalue)")
    ap.add_argument("--show", type=int, default=15, help="minimised failures to print")
    a = ap.parse_args(argv)
    t0 = time.process_time()
    st = run(a.statements, a.seed, do_shrink=not a.no_shrink,
             avoid=[x for x in a.avoid.split(",") if x],
             progress=lambda s: print(f"  {s['statements']} statements, "
                                      f"{len(s['failures'])} failures", flush=True))
    print(f"statements: {st['statements']} (selects {st['selects']}, dml {st['dml']}, "
          f"TLP {st['tlp']}, NoREC {st['norec']}) over {st['schemas']} schemas  "
          f"failures: {len(st['failures'])}  cpu: {time.process_time() - t0:.0f}s")
    classes: dict = {}
    for f in st["failures"]:
        key = f["error"][:90]
        classes.setdefault(key, []).append(f)
    for key, fs in sorted(classes.items(), key=lambda kv: -len(kv[1]))[:a.show]:
        f = fs[0]
        print(f"\n{len(fs)} x [{f['kind']}] {key}")
        setup = f.get("min_setup", f["setup"])
        for s in setup:
            print("   ", s + ";")
        if f["kind"] in ("tlp", "norec"):
            print(f"    predicate on {f.get('min_table')}: {f.get('min_sql', f['sql'])}")
        else:
            print("   ", f.get("min_sql", f["sql"]) + ";")
    return 1 if st["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
