"""Dot-commands compared with the sqlite3 shell: .import (CSV, separators, options and
its usage errors), .tables/.indexes/.schema/.dump variants, separators and escapes,
.width/.nullvalue, .bail, .changes, .output, .read errors."""

from __future__ import annotations

FILES = {"a.csv": 'x,y\n1,2\n3\n4,5,6\n"q""uote",\n', "b.txt": "x|y\n1|2\n"}

_SCRIPTS = [
 ".import --csv a.csv t\nselect * from t;\n",
 "create table t(a,b);\n.import --csv a.csv t\nselect * from t;\n",
 ".import b.txt u\nselect * from u;\n.schema u\n",
 ".import --csv --skip 1 a.csv v\nselect * from v;\n",
 ".import nosuch.csv w\n",
 ".import\n",
 "".join(f"create table tbl_{i}(a);\n" for i in range(30)) + ".tables\n.tables tbl_1%\n",
 "create table t(a);\ncreate index i1 on t(a);\ncreate table u(b unique);\n.indexes\n.indexes u\n.indexes %\n",
 "create table t(a text, b blob, c real);\ninsert into t values('it''s\nx', x'00ff', 1e300*1e300);\ninsert into t values(null, '', -0.5);\n.dump\n.dump t\n.dump nosuch\n",
 ".separator \\t \\n\nselect 1, 2;\n.separator ',' '\\r\\n'\nselect 3, 4;\n",
 ".mode line\n.nullvalue <null>\nselect null as a, 1 as bb;\n",
 ".width 2 3\n.mode column\nselect 'abcdef' as a, 'ghijkl' as b, 'x' as c;\n",
 ".width -5\n.mode table\nselect 'ab' as a, 1 as b;\n",
 ".print a\\tb 'c d' \"e\\nf\"\n",
 ".headers on\n.mode csv\nselect 1 as 'a,b', 2 as 'c\"d';\n",
 ".mode insert \"weird name\"\nselect 1;\n.mode insert select\nselect 1;\n.mode insert ok_name\nselect 1;\n",
 "create view v as select 1 as a, 2 as \"b c\";\n.schema v\n.schema\n",
 ".bail on\nselect 1;\nselec;\nselect 2;\n",
 ".changes on\ncreate table t(a);\ninsert into t values(1),(2);\nupdate t set a=3;\nselect * from t;\n",
 ".output out.txt\nselect 1;\n.output\nselect 2;\n",
 ".read nosuch.sql\nselect 1;\n",
 ".output '|cat > piped.txt'\nselect 1;\n.output\n.read piped.txt\n"
 ".once '|tr 1 2 > tr.txt'\nselect 1;\nselect 3;\n.read tr.txt\n",
 ".mode list\n.headers on\n.nullvalue NULL\nselect null as n, 'x' as m union all select 1, null;\n",
]

SCENARIOS = {f"commands-{i}": (script, ()) for i, script in enumerate(_SCRIPTS)}


def test_commands_match_sqlite3(shell, scenario):
    shell.files.update(FILES)
    script, args = SCENARIOS[scenario]
    assert shell.ours(script, args) == shell.sqlite3(script, args)
