"""Batch mode (a script on stdin, SQL on the command line) gives the sqlite3 shell's
stdout, stderr and exit status: every output mode, the dot-commands, the error reports."""

from __future__ import annotations

import re

import pytest
from conftest import ShellRunner

MODES = ("list", "csv", "column", "box", "table", "markdown", "json", "line", "insert",
         "quote", "tabs", "html", "ascii", "qbox", "tcl")

SAMPLE = """create table t(id integer primary key, name text, score real, data blob, note);
insert into t values(1, 'ann', 1.5, x'41', null);
insert into t values(2, 'b,o"b', 1e20, null, 'multi
line');
insert into t values(3, 'ünï', 0.1, x'00ff', 'x');
insert into t values(4, '', -3, '', 12);
"""

SIMPLE = """create table t(id integer primary key, name text, score real);
insert into t values(1, 'ann', 1.5);
insert into t values(2, 'bob', -2.25);
insert into t values(3, 'cy', 10);
"""

SCHEMA = """create table t(id integer primary key, name text, score real);
create table "odd name"(x);
insert into t values(1, 'a''b', 1.5);
insert into t values(2, null, x'00');
create index ti on t(name);
create view v as select 1;
create trigger tr after insert on t begin select 1; end;
create table seq(id integer primary key autoincrement, v);
insert into seq(v) values(1);
"""

SCENARIOS = {}
for _mode in MODES:
    SCENARIOS[f"mode-{_mode}"] = (
        SAMPLE + f".mode {_mode}\nselect * from t; select 1 as z;\n.headers on\n"
        "select * from t where id < 3;\n", ())
    SCENARIOS[f"simple-{_mode}"] = (
        SIMPLE + f".mode {_mode}\nselect * from t order by id;\n.headers on\n"
        "select name, score from t where score > 0 order by name;\n", ())
for _option in ("-column", "-box", "-table", "-markdown", "-html", "-json", "-line", "-quote",
                "-tabs", "-ascii", "-list", "-csv"):
    SCENARIOS[f"option{_option}"] = ("select 1 as a, 'x' as b; select null;", (_option,))

SCENARIOS.update({
    "errors": ("select 1;\nselec 1;\nselect * from nosuch;\ncreate table x(a unique);\n"
               "insert into x values(1);\ninsert into x values(1);\nselect 2;\n.bogus\n"
               ".mode foo\nselect 3", ()),
    "bail": ("select 1;\nselec 1;\nselect 2;", ("-bail",)),
    "argv-error": ("", (":memory:", "selec 1")),
    "argv-statements": ("", (":memory:", "select 1", "select 2;", ".mode csv",
                             "select 'a', 3")),
    "argv-runtime-error": ("", (":memory:", "create table x(a unique); "
                                "insert into x values(1),(1)")),
    "multiline-statements": ("select 1 +\n 2;\nselect\n  nosuch(1)\n  ;\n", ()),
    "unterminated-comment": ("select 1 /* unterminated", ()),
    "unterminated-string": ("select 'abc", ()),
    "parse-errors": ("select nosuchcol;\nselect * from nosuch;\nselect abs(1,2);\n"
                     "create table t(a);\nselect t.zz from t;\n"
                     "select 1 from t where zz=1;\nselect count(*) from t group by;\n"
                     "  select\n\n nosuchfn(1);\nselect 1 + ;\n", ()),
    "more-parse-errors": ("select from t;\nselect * fro t;\nselect 1 2;\nselect (1;\n"
                          "select [abc\ncreate table (a);\nselect max( from t;\nselectx 1;\n"
                          "select x'zz';\nselect ?99999999999;\nselect 1e;\nselect 'a' 'b';\n"
                          "with x as select 1;\nselect nosuch_fn(1);\n  select\n   foo(1,2);\n"
                          "select 123456789012345678901234567890 / 'x' from t where zzzzzzzzzz = 1"
                          " and yyyyyyyyyyyyyyyy = 2 and xxxxxxxxxxx = 3 and q = ;\n", ()),
    "runtime-errors": ("create table t(a not null);\ninsert into t values(null);\n"
                       "create table u(a check(a>0));\ninsert into u values(0);\n"
                       "select abs(-9223372036854775808);\nbegin;\nbegin;\ncommit;\ncommit;\n"
                       "rollback;\nselect 'after';\n", ()),
    "argv-generic-error": ("", (":memory:", "select abs(-9223372036854775808)")),
    "option-cmd": ("select 1 as a, 'x' as b;\n", ("-cmd", ".mode csv", "-cmd", ".headers on")),
    "option-echo": ("select 1;\n.print hi\nselect 2;\n", ("-echo",)),
    "option-header-column": ("select 1;\n", ("-header", "-column")),
    "option-newline-separator": ("select 1, 2;\n", ("-newline", "X", "-separator", ";")),
    "option-noheader-line-nullvalue": ("select null;\n", ("-noheader", "-line", "-nullvalue",
                                                          "-")),
    "option-after-file": ("", (":memory:", "-json", "select 1 as a")),
    "option-bail-argv": ("", ("-bail", ":memory:", "select 1", "selec", "select 2")),
    "schema-commands": (SCHEMA + ".tables\n.tables t%\n.schema\n.schema t\n.indexes\n"
                        ".indexes t\n.show\n.dump\n", ()),
    "simple-schema-commands": (SIMPLE + "create table u(a, b);\n.tables\n.tables u%\n"
                               ".schema\n.schema u\n.dump\n", ()),
    "settings": (SIMPLE + ".changes on\ninsert into t values(9, 'z', 0);\n.changes off\n"
                 ".print hello \"w o\" x\n.echo on\nselect 1;\n.echo off\n.headers on\n"
                 "select 1 as a;\n.nullvalue NULL\nselect null;\n.separator ; ~\n"
                 "select 1,2;\n.width 5 -6\n.mode column\nselect 1 as a, 2 as b;\n", ()),
    "show-and-usage": (".show\n.mode insert foo\n.show\n.databases\n.mode\n.width 1 2\n.show\n"
                       ".tables\n.headers maybe\n.separator\n.width x\n.print\n.echo\n"
                       ".nullvalue\n.quit 3\n", ()),
    "exit-code": (".exit 3\n", ()),
    "quit-after-error": ("selec 1;\n.quit\nselect 2;\n", ()),
    "reals-and-text": ("select 0.1, 1e300*1e300, -1e300*1e300, 12345678901234567890.0, 100.0, "
                       "1.5e-7;\n.mode quote\nselect 0.1, 1e300*1e300, 100.0, 1.5e-7, 1e15, "
                       "123456789012345680000.0;\n.mode json\n"
                       "select char(1,9,10,13,34,92,127,233), x'0001ff';\n.mode insert foo\n"
                       ".headers on\nselect 1 as a, char(13) as b;\n.mode line\n"
                       "select 1 as \"ü\", 2 as bb;\n.mode list\n.headers on\n"
                       "select 1 as a where 0;\n.mode column\nselect 1 as a where 0;\n"
                       "select char(9)||'x'||char(9)||'y' as t, char(1)||'z' as c;\n"
                       ".headers off\nselect 1 as a;\n.mode table\nselect 1 as a;\n.width 3\n"
                       "select 'abcdefgh' as a, 2 as b;\n", ()),
    "line-breaks-and-csv": (".mode box\nselect 'abc'||char(10) as a, "
                            "'x'||char(13)||char(10)||'y' as b, 'q'||char(13)||'r' as c;\n"
                            ".mode insert\nselect 1e300*1e300, -1e300*1e300, 2.0, 0.5;\n"
                            ".mode csv\nselect 'a b', 'a|b', 'x'||char(127), '\"', ' ', '''';\n"
                            ".separator |\nselect 'a|b', 'a,b';\n.mode list\n"
                            "select x'41004243', 'a'||char(0)||'b';\n", ()),
    "csv-headers-html": (".mode csv\n.headers on\nselect 1 as 'a b', null, 'x';\n.mode html\n"
                         "select '<&>' as '\"q''';\n", ()),
    "csv-option-header": ("select 1;", ("-csv", "-header")),
    "nullvalue-separator-options": ("select 1, null;", ("-nullvalue", "N", "-separator", ":")),
    "box-option-two-statements": ("select 1; select 2", ("-box",)),
    "mode-switches": (".mode box\nselect 1 as a;\n.mode list\nselect 2 as b;\n.mode column\n"
                      "select 3 as c;\n.mode list\nselect 4 as d;\n", ()),
    "simple-where-order": (SIMPLE + ".headers on\nselect id, name from t where score < 5 "
                           "order by score desc;\nselect * from t where name = 'nobody';\n",
                           ()),
    "simple-errors": (SIMPLE + "insert into t values(1, 'dup', 0);\nselect count(*) from t;\n"
                      "selec;\n", ()),
    "eqp": ("create table t(id integer primary key, a, b); create index ia on t(a);\n"
            "insert into t values(1, 2, 3);\n.eqp on\nselect * from t where a = 2;\n"
            "select a, count(*) from t group by a order by 2;\n"
            "select * from t where a in (select b from t);\n.eqp off\n"
            "explain query plan select * from t where a > 1;\n", ()),
    "eqp-simple": (SIMPLE + ".eqp on\nselect * from t where id = 1;\nselect * from t;\n"
                   ".eqp off\nexplain query plan select name from t;\n", ()),
    "explain-modes": ("create table t(a,b);\ncreate index tb on t(b);\n"
                      "explain select * from t;\n.explain off\nexplain select 1;\n"
                      "explain query plan select * from t;\n.explain on\n"
                      "select 1 as x, 2 as y;\n"
                      "explain select a from t where b=1 order by a;\n.explain auto\n"
                      "explain query plan select * from t;\n.show\n", ()),
    "explain-switches": (".show\n.explain on\n.show\n.mode\n.mode line\n.show\n.explain\n"
                         ".explain off\n.mode\n.show\n.explain on\n.explain auto\n.show\n"
                         ".explain on\n.explain OFF\n.show\n.explain on\n.explain AUTO\n.show\n"
                         ".explain off\n.explain off\n.show\n.explain yes\n.show\n", ()),
    "explain-mode-rows": ("create table t(a, b);\ninsert into t values(1, 'a long text value');"
                          "\n.explain on\nselect a, b, a, b, a, b, a, b, a from t;\n"
                          "select 'abcdefghijklmnop' as abcdefghijklmnopqrstuvwxyz, 2 as y;\n"
                          "explain query plan select * from t;\n.headers on\n"
                          "select null as n;\n.nullvalue NULL\nselect null as n;\n", ()),
    "eqp-settings": (".eqp trigger\n.show\n.eqp full\n.show\n.eqp FULL\n.show\n.eqp on\n"
                     ".show\n.eqp trace\n.show\n.eqp\n.eqp on off\n.show\n", ()),
    "eqp-full": ("create table t(a, b);\ncreate index tb on t(b);\n"
                 "insert into t values(1, 2);\n.eqp full\nselect * from t where b = 2;\n"
                 "select a from t order by a;\n"
                 "explain query plan select * from t;\n.eqp off\nselect 1;\n", ()),
    "columnar-wrap": (".mode column\nselect printf('%.70c', 'a') as x, 'b c' as y;\n.mode\n"
                      ".mode box --wrap 10\nselect 'aaaa bbbb cccc dddd eeee' as z, "
                      "'the quick brown fox jumps over' as w;\n.mode box --wrap 10 --ww\n"
                      "select 'aaaa bbbb cccc dddd eeee' as z, 'the quick brown fox jumps over'"
                      " as w, 'abcdefghij-klmnopqrstuvwxyz' as v, 'abcdefghijklmnopqrstuvwxyz'"
                      " as u;\n.mode table --wrap 8 --wordwrap on\n"
                      "select 'hello, world; foo.bar baz' as a, '12345678\nnext' as b, "
                      "'tab\tin\there\tok' as c, '1234567890\n' as d;\n"
                      ".mode markdown --wrap 5\nselect 'abcdefghijklmno' as a;\n.show\n"
                      ".mode qbox\nselect 'x''y' as a, 1.5 as b, null as c, x'01' as d;\n"
                      ".mode\n.show\n.width 5 -3\n.mode column --wrap 3\n"
                      "select 'abcdefgh' as a, 'xyzxyz' as b, 'abcdefgh' as c;\n"
                      ".mode box --wrap 0\nselect printf('%.70c', 'b') as long;\n", ()),
    "mode-arguments": (".mode c\n.mode\n.mode t\n.mode\n.mode ta\n.mode\n.mode li\n.mode\n"
                       ".mode insert t extra\n.mode list extra\n.mode box --bogus\n.mode\n"
                       ".mode zz\n.mode insert\nselect 1;\n.mode --wrap 5 column\n.mode\n"
                       ".separator ,\n.mode list\n.separator ;\n.mode\nselect 1, 2;\n"
                       ".mode insert foo\n.mode\nselect 1;\n", ()),
    "eqp-trees": ("create table t(a, b);\ncreate table u(x, y);\ncreate index ub on u(x);\n"
                  ".eqp on\n"
                  "select * from t where a in (select x from u where y in (select b from t));\n"
                  "select (select count(*) from u where x = t.a) from t;\n"
                  "select a from t union select x from u order by 1;\n"
                  "select a from t union all select x from u;\n"
                  "with c(n) as (select 1 union all select n + 1 from c where n < 3) "
                  "select * from c;\n"
                  "select * from (select a, count(*) from t group by a) where a > 1;\n"
                  "select exists (select 1 from u where u.y = t.b) from t;\n", ()),
    "comments-and-blank-lines": ("-- a comment\n\n# not sql\nselect 1; -- trailing\n"
                                 "/* block */ select 2;\n", ()),
})

SCENARIOS["attach"] = (
    "create table m(x);\nattach ':memory:' as aux;\ncreate table aux.t(a);\n"
    "create index aux.ti on t(a);\ncreate view aux.v as select 1;\ncreate index mi on m(x);\n"
    "insert into aux.t values(1), (2);\ninsert into m values(3);\nattach '' as mem;\n"
    "create table mem.zz(q);\n.databases\n.tables\n.tables z%\n.schema\n.schema t\n"
    ".indexes\n.indexes t\nselect * from aux.t join m order by 1;\nselect count(*) from t;\n"
    "attach ':memory:' as aux;\ndetach aux;\ndetach aux;\n.databases\n.tables\n"
    "create temp table tt(b);\ncreate index ti on tt(b);\ncreate temp view tv as select 1;\n"
    ".tables\n.schema\n.indexes\n.databases\n.dump\n", ())


def test_batch_matches_sqlite3(shell, scenario):
    script, args = SCENARIOS[scenario]
    assert shell.ours(script, args) == shell.sqlite3(script, args)


def test_file_database_and_dump_round_trip(shell):
    script = SIMPLE + ".output dump.sql\n.dump\n.output\n"
    assert shell.ours(script, ("data.db",)) == shell.sqlite3(script, ("data.db",))
    dump = (shell.ours_dir / "dump.sql").read_text()
    assert dump == (shell.theirs_dir / "dump.sql").read_text()
    # The dump sqlengine wrote loads into sqlite3 and back, with the same content.
    shell.files["dump.sql"] = dump
    check = ".read dump.sql\n.dump\n"
    assert shell.sqlite3(check, ("copy.db",))[0] == dump
    assert shell.ours(check, ("copy.db",))[0] == dump


def test_once_and_read(shell):
    shell.files["script.sql"] = "select 40 + 2;\nselec;\nselect 'after';\n"
    script = ".once once.txt\nselect 'to the file';\nselect 'to stdout';\n.read script.sql\n"
    assert shell.ours(script) == shell.sqlite3(script)
    assert (shell.ours_dir / "once.txt").read_text() == \
        (shell.theirs_dir / "once.txt").read_text() == "to the file\n"


def test_import_csv_creates_table(shell):
    shell.files["data.csv"] = 'name,score\nann,1\n"b,o",2\n'
    script = (".import --csv data.csv people\n.mode list\n.headers on\n"
              "select * from people;\n.schema people\n")
    assert shell.ours(script) == shell.sqlite3(script)


def test_readonly_database(shell):
    shell.files["setup.sql"] = "create table t(a);\ninsert into t values(1);\n"
    script = (".read setup.sql\n.open --readonly data.db\n.databases\n"
              "select count(*) from t;\ninsert into t values(2);\nselect count(*) from t;\n")
    script = ".open data.db\n" + script
    assert shell.ours(script) == shell.sqlite3(script)


def test_open_new_database(shell):
    script = ".open first.db\ncreate table a(x);\ninsert into a values(1);\n.open second.db\n" \
             ".tables\n.open first.db\nselect * from a;\n.databases\n"
    assert shell.ours(script) == shell.sqlite3(script)


LISTING_HEADER = ("addr  opcode         p1    p2    p3    p4             p5  comment      \n"
                  "----  -------------  ----  ----  ----  -------------  --  -------------\n")


LISTING_ROW = re.compile(r"\d+ +[A-Za-z]")
LIST_LISTING_ROW = re.compile(r"\d+\|[A-Za-z]+\|-?\d+\|")


def _mask_listings(text):
    """The output with each EXPLAIN listing's rows replaced by a mark: the listings show
    the engine's own bytecode, which is not sqlite3's."""
    out = []
    in_listing = False
    for line in text.splitlines(keepends=True):
        if line.startswith("----  -------------  ----"):
            in_listing = True
            out.append(line)
            continue
        if in_listing and LISTING_ROW.match(line):
            if out[-1] != "<listing>\n":
                out.append("<listing>\n")
            continue
        in_listing = False
        if LIST_LISTING_ROW.match(line):  # a listing in list mode (.explain off)
            if out[-1:] != ["<list listing>\n"]:
                out.append("<list listing>\n")
            continue
        out.append(line)
    return "".join(out)


def _listing_rows(text):
    rows = []
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("----  -------------  ----"):
            block = []
            for row in lines[index + 1:]:
                if not LISTING_ROW.match(row):
                    break
                block.append(row)
            rows.append(block)
    return rows


@pytest.mark.parametrize("scenario", ["explain-modes", "eqp-full"])
def test_explain_listing_format_on_the_engine(scenario, monkeypatch, tmp_path):
    """On sqlengine's engine the EXPLAIN listings hold its own bytecode; everything around
    them is sqlite3's, and each listing has the explain mode's layout: the fixed headers,
    addresses from 0, the opcode at column 6 (indented two spaces per loop), p1 to p3 at
    columns 21, 27 and 33 (a longer value pushes the rest right, as in sqlite3)."""
    runner = ShellRunner("sqlengine", monkeypatch, tmp_path)
    script, args = SCENARIOS[scenario]
    ours = runner.ours(script, args)
    theirs = runner.sqlite3(script, args)
    assert (_mask_listings(ours[0]), ours[1:]) == (_mask_listings(theirs[0]), theirs[1:])
    assert LISTING_HEADER in ours[0]
    listings = _listing_rows(ours[0])
    assert listings and len(listings) == len(_listing_rows(theirs[0]))
    for block in listings:
        indents = []
        parsed = []
        for address, line in enumerate(block):
            addr = line.split(" ", 1)[0]
            assert addr == str(address)
            assert line[:6] == addr.ljust(4) + "  "
            rest = line[6:]
            indent = len(rest) - len(rest.lstrip(" "))
            assert indent % 2 == 0, line
            fields = re.match(r"([A-Za-z]+\d*) +(-?\d+) +(-?\d+) +(-?\d+)", rest[indent:])
            assert fields, line
            opcode = fields[1]
            if len(opcode) <= 13:
                # opcode padded to 13, then p1 in a 4-wide column
                assert rest[indent:indent + 15] == opcode.ljust(13) + "  ", line
                assert rest[indent + 15:indent + 19].rstrip() == fields[2], line
            indents.append(indent)
            parsed.append((opcode, int(fields[3])))
        # a loop's body is indented: a Next back to an earlier address indents what it ends
        for address, (opcode, p2) in enumerate(parsed):
            if opcode in ("Next", "Prev", "SorterNext") and p2 < address:
                assert min(indents[p2:address]) >= indents[address] + 2, block
