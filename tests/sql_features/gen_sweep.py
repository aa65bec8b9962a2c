"""Writes the seeded differential sweep scripts ``scripts/sweep_*.sql`` (run by
test_scripts.py like the hand-written ones): window frames (ROWS/RANGE/GROUPS, EXCLUDE),
date/time modifiers, JSON functions and paths, printf/format specifiers, UPSERT with
RETURNING and triggers, ALTER TABLE on columns that views, triggers and indexes name,
generated columns and STRICT tables. The same seed gives the same scripts; rerun with
``python tests/sql_features/gen_sweep.py`` after changing it. This module only writes
SQL text; what is right is decided by running it on sqlite3 (see sqlfeat_diff)."""

from __future__ import annotations

import random
from pathlib import Path

OUT = Path(__file__).parent / "scripts"


def windows(rng):
    out = ["create table w(id integer primary key, g, v, s);"]
    for i in range(1, 13):
        v = rng.choice(["NULL", str(rng.randint(0, 6)), str(rng.randint(0, 6) + 0.5)])
        out.append(f"insert into w values({i}, {rng.randint(1, 3)}, {v}, '{chr(97 + i % 5)}');")
    funcs = ["sum(v)", "count(*)", "count(v)", "avg(v)", "min(v)", "max(v)", "total(v)",
             "group_concat(id, '.')", "first_value(id)", "last_value(id)", "nth_value(id, 2)",
             "json_group_array(id)"]
    ranking = ["row_number()", "rank()", "dense_rank()", "percent_rank()", "cume_dist()",
               "ntile(3)", "lag(v)", "lead(v, 2, -1)", "lag(id, 1, 0)"]
    bounds = ["UNBOUNDED PRECEDING", "1 PRECEDING", "2 PRECEDING", "CURRENT ROW",
              "1 FOLLOWING", "2 FOLLOWING", "UNBOUNDED FOLLOWING"]
    excludes = ["", " EXCLUDE NO OTHERS", " EXCLUDE CURRENT ROW", " EXCLUDE GROUP",
                " EXCLUDE TIES"]
    for _ in range(90):
        f = rng.choice(funcs)
        part = rng.choice(["", "PARTITION BY g "])
        order = rng.choice(["ORDER BY v", "ORDER BY v DESC", "ORDER BY v, id", "ORDER BY s",
                            "ORDER BY g DESC, v"])
        unit = rng.choice(["ROWS", "RANGE", "GROUPS"])
        i, j = sorted((rng.randrange(len(bounds)), rng.randrange(len(bounds))))
        if i == len(bounds) - 1:
            i -= 1
        if j == 0:
            j = 1
        lo, hi = bounds[i], bounds[j]
        if unit == "RANGE" and ("PRECEDING" in lo and lo[0].isdigit() or
                                "FOLLOWING" in hi and hi[0].isdigit()):
            order = rng.choice(["ORDER BY v", "ORDER BY v DESC"])
        frame = f"{unit} BETWEEN {lo} AND {hi}{rng.choice(excludes)}"
        out.append(f"select id, {f} over ({part}{order} {frame}) from w order by id;")
    for _ in range(20):
        f = rng.choice(ranking)
        part = rng.choice(["", "PARTITION BY g "])
        out.append(f"select id, {f} over ({part}ORDER BY v, id) from w order by id;")
    out += [
        "select id, sum(v) over win, count(*) over win from w window win as "
        "(order by v groups between 1 preceding and 1 following exclude ties) order by id;",
        "select id, sum(v) filter (where v > 2) over (order by id) from w order by id;",
        "select id, sum(v) over (order by v range between 1.5 preceding and 0.5 following) "
        "from w order by id;",
        "select id, sum(v) over (order by s range between 1 preceding and current row) "
        "from w order by id;",
        "select id, sum(v) over (rows between 1 following and 1 preceding) from w order by id;",
        "select id, sum(v) over (groups 1 preceding) from w order by id;",
        "select id, sum(v) over (order by v groups -1 preceding) from w order by id;",
        "select id, ntile(0) over (order by id) from w;",
        "select id, nth_value(id, 0) over (order by id) from w;",
        "select id, lag(v, -1) over (order by id) from w order by id;",
    ]
    return out


def datetimes(rng):
    bases = ["'2024-01-31'", "'2023-02-28 13:45:10.5'", "'2000-02-29'", "'1970-01-01'",
             "'2024-12-31 23:59:59.999'", "2460000.5", "0", "1700000000", "'now'",
             "'2024-03-10T02:30:00Z'", "'2024-03-10 02:30:00+05:30'", "'12:30'",
             "'-4713-11-24 12:00:00'", "'9999-12-31 23:59:59'", "'2024-13-01'", "'abc'"]
    mods = ["'+1 month'", "'-1 month'", "'+13 months'", "'+1 year'", "'-1 year'",
            "'start of month'", "'start of year'", "'start of day'", "'weekday 0'",
            "'weekday 3'", "'+1 day'", "'-36 hours'", "'+90 minutes'", "'+30.5 seconds'",
            "'unixepoch'", "'localtime'", "'utc'", "'auto'", "'julianday'", "'subsec'",
            "'+1.5 days'", "'-0.25 years'", "'+2 months'", "'weekday 7'", "'+01:30'",
            "'-02:00:30'", "'+0001-02-03 04:05:06'", "'start of week'", "'ceiling'",
            "'floor'"]
    funcs = ["date", "time", "datetime", "julianday", "unixepoch", "strftime('%Y-%m-%d %H:%M:%f %j %w %s %W %U %u %%',"]
    out = []
    for _ in range(110):
        f = rng.choice(funcs)
        b = rng.choice(bases)
        if "now" in b and f != "date":
            b = "'2024-05-06 07:08:09'"
        ms = ", ".join(rng.sample(mods, rng.randint(0, 3)))
        if "localtime" in ms or "utc" in ms:
            ms = ms.replace("'localtime'", "'+0 days'").replace("'utc'", "'+0 days'")
        if b == "'now'":
            out.append(f"select typeof({f}(" + b + (", " + ms if ms else "") + "));"
                       if not f.startswith("strftime") else "select 1;")
            continue
        if f.startswith("strftime"):
            out.append(f"select {f} {b}{', ' + ms if ms else ''});")
        else:
            out.append(f"select {f}({b}{', ' + ms if ms else ''});")
    out += [
        "select julianday('2024-01-01 12:00:00') - julianday('2024-01-01');",
        "select datetime(1700000000.123, 'unixepoch', 'subsec');",
        "select time('12:34:56.789', 'subsec');",
        "select unixepoch('2024-01-01 00:00:00.750', 'subsec');",
        "select date('2024-01-31', '+1 month', 'start of month');",
        "select date('2024-03-31', '-1 month');",
        "select strftime('%H:%M:%S', 86399.9999, 'unixepoch');",
        "select datetime(2460000.25);",
        "select datetime('2460000.25', 'julianday');",
        "select datetime(1700000000, 'auto');",
        "select datetime(2460000.25, 'auto');",
        "select date(NULL), date(''), date(' 2024-01-01 '), date('2024-1-1');",
        "select strftime('%J', '2024-01-01'), strftime('%e|%k|%l|%p|%P|%I|%G|%g|%V|%F|%T|%R|%D', '2024-01-05 15:04:05');",
    ]
    return out


def json_cases(rng):
    docs = ['\'{"a":1,"b":[1,2,{"c":null}],"d":{"e":"x"}}\'', "'[1,[2,3],{\"k\":[4]}]'",
            "'\"str\"'", "'3.5'", "'null'", "'{}'", "'[]'", "'{\"a\":{\"a\":{\"a\":1}}}'",
            "'[1,2,3,4,5]'", "' [1 , 2 ] '", "'{\"x\":true,\"y\":false}'", "'{\"a\":\"\\u00e9\"}'"]
    paths = ["'$'", "'$.a'", "'$.b[1]'", "'$.b[#-1]'", "'$.b[#-1].c'", "'$[1][0]'", "'$[#-1]'",
             "'$.d.e'", "'$.nosuch'", "'$[0]'", "'$.\"a\"'", "'$[#]'", "'$.a.a.a'", "'$[#-9]'"]
    out = []
    for _ in range(60):
        d, pth = rng.choice(docs), rng.choice(paths)
        f = rng.choice(["json_extract({d}, {p})", "{d} -> {p}", "{d} ->> {p}",
                        "json_type({d}, {p})", "json_remove({d}, {p})",
                        "json_set({d}, {p}, 9)", "json_insert({d}, {p}, json('[0]'))",
                        "json_replace({d}, {p}, 'z')", "json_array_length({d}, {p})"])
        out.append("select " + f.format(d=d, p=pth) + ";")
    for d in docs:
        out.append(f"select key, value, type, atom, id, parent, fullkey, path from json_each({d});")
        out.append(f"select key, value, type, atom, id, parent, fullkey, path from json_tree({d});")
    out += [
        "select * from json_each('{\"a\":[1,2]}', '$.a');",
        "select * from json_tree('{\"a\":[1,{\"b\":2}]}', '$.a');",
        "select json('not json');", "select json('[1,2');", "select json_valid('{\"a\":}');",
        "select json_valid(''), json_valid('1'), json_valid('\"x\"'), json_valid(NULL);",
        "select json_quote(1), json_quote('a\"b'), json_quote(NULL), json_quote(1.5), json_quote(json('[1]'));",
        "select json_patch('{\"a\":1,\"b\":2}', '{\"b\":null,\"c\":3}');",
        "select json_patch('[1,2]', '{\"a\":1}'), json_patch('{\"a\":{\"b\":1}}', '{\"a\":{\"c\":2}}');",
        "select json_object('a', 1, 'b', json('[2]'), 'c', '[3]');",
        "select json_object('a');", "select json_object(1, 2);",
        "select json_array(1, 'x', NULL, 2.5, json('{}'));",
        "select json_group_object(k, v) from (select 'a' k, 1 v union all select 'b', json('[1]'));",
        "select json_extract('{\"a\":1}', '$.a', '$.b', '$');",
        "select json_extract('[1]', 'bad');", "select '[1]' -> 'bad';",
        "select json_set('{}', '$.a.b', 1);", "select json_set('[1]', '$[5]', 2), json_set('[1]', '$[#]', 2);",
        "select json_remove('[1,2,3]', '$[0]', '$[0]');",
        "select json_type('{\"a\":1.0}', '$.a'), json_type('[9223372036854775808]', '$[0]');",
        "select json(' { \"a\" : 1 } '), json('1e2'), json('-0'), json('[1.0]');",
        "select json_extract('{\"a\":\"\\u0041\\n\"}', '$.a');",
        "select json_array_length('{}'), json_array_length('[1,[2]]', '$[1]');",
        "select json('{\"a\":1,\"a\":2}') -> '$.a';",
        "select value from json_each('[1,2,3]') where value > 1;",
        "select sum(value) from json_each('[1,2,3.5]');",
        "select json_each.value from json_each('[[1],[2]]') order by 1 desc;",
    ]
    return out


def printf_cases(rng):
    specs = ["%d", "%5d", "%-5d|", "%05d", "%+d", "% d", "%x", "%X", "%o", "%#x", "%#o",
             "%f", "%.2f", "%10.3f", "%-10.1f|", "%e", "%.3e", "%E", "%g", "%.3g", "%G",
             "%s", "%.2s", "%10s", "%-10s|", "%q", "%Q", "%w", "%c", "%%", "%i", "%u",
             "%,d", "%!.3f", "%z", "%lld", "%5.1s|", "%.0f", "%#g", "%.10g"]
    vals = ["42", "-7", "3.14159", "0", "'abc'", "NULL", "'it''s'", "1e100", "-0.0",
            "9223372036854775807", "x'41'", "'12abc'", "2.5", "-2.5", "123456789"]
    out = []
    for _ in range(90):
        f = rng.choice(["printf", "format"])
        s = rng.choice(specs)
        out.append(f"select {f}('[{s}]', {rng.choice(vals)});")
    out += ["select printf('%*d|%-*d', 5, 42, 4, 7);", "select printf('%.*f', 2, 3.14159);",
            "select printf('%s %s', 'a');", "select printf();", "select printf(NULL);",
            "select printf('%d', '0x10');", "select printf('%c', '');", "select format('%s', 1, 2);"]
    return out


def upserts(rng):
    out = ["create table kv(k primary key, v, n default 0);",
           "create table kvlog(op, k, v);",
           "create trigger kv_ins after insert on kv begin insert into kvlog values('ins', new.k, new.v); end;",
           "create trigger kv_upd after update on kv begin insert into kvlog values('upd', new.k, new.v); end;",
           "create table u2(a, b, c, unique(a, b));"]
    for i in range(40):
        k = rng.randint(1, 6)
        v = rng.choice(["'x'", "'y'", "NULL", str(rng.randint(0, 9))])
        form = rng.choice([
            f"insert into kv(k, v) values({k}, {v}) on conflict(k) do update set v = excluded.v, n = n + 1 returning k, v, n;",
            f"insert into kv(k, v) values({k}, {v}) on conflict do nothing returning *;",
            f"insert into kv(k, v) values({k}, {v}) on conflict(k) do update set n = n + 1 where excluded.v is not null returning n, rowid;",
            f"insert or replace into kv(k, v) values({k}, {v}) returning k, v;",
            f"update kv set v = {v} where k = {k} returning k, v, n;",
            f"delete from kv where k = {k} returning *;",
            f"insert into u2 values({k % 3}, {k % 2}, {v}) on conflict(a, b) do update set c = excluded.c returning a, b, c;",
        ])
        out.append(form)
        if i % 8 == 7:
            out.append("select * from kv order by k;")
            out.append("select * from kvlog order by rowid;")
    out += [
        "insert into kv(k, v) values(1, 1) on conflict(v) do nothing;",
        "insert into kv(k, v) values(1, 1) on conflict(k) do update set nosuch = 1;",
        "insert into kv(k, v) values(1, 1), (1, 2) on conflict(k) do update set v = excluded.v returning v;",
        "insert into kv(k, v) select 1, 5 where 1 on conflict(k) do update set v = 6 returning *;",
        "insert into kv(k, v) values(1, 1) on conflict(k) do update set v = 2 on conflict do nothing returning v;",
        "insert into kv(k, v) values(7, 1) returning k + 1 as kk, upper('a'), (select count(*) from kv);",
        "select * from kv order by k;", "select * from kvlog order by rowid;",
    ]
    return out


def alters(rng):
    out = []
    for n in range(8):
        t = f"a{n}"
        out += [f"create table {t}(id integer primary key, x, y text, z default 3);",
                f"insert into {t}(x, y) values(1, 'p'), (2, 'q');",
                f"create index {t}_x on {t}(x);",
                f"create view {t}_v as select x, y from {t} where x > 0;",
                f"create trigger {t}_tr after insert on {t} begin update {t} set z = new.x where id = new.id; end;"]
        ops = rng.sample([
            f"alter table {t} drop column x;", f"alter table {t} drop column y;",
            f"alter table {t} drop column z;", f"alter table {t} drop column id;",
            f"alter table {t} rename column x to xx;", f"alter table {t} rename column y to \"Y y\";",
            f"alter table {t} rename column nosuch to q;", f"alter table {t} rename column x to y;",
            f"alter table {t} add column w integer not null default 0;",
            f"alter table {t} add column w2 not null;", f"alter table {t} add column w3 unique;",
            f"alter table {t} add column w4 default (1+1);", f"alter table {t} add column w5 as (x+1);",
            f"alter table {t} add column w6 references {t}(id);",
            f"alter table {t} rename to {t}_new;", f"drop index {t}_x;", f"drop view {t}_v;",
            f"drop trigger {t}_tr;",
        ], 4)
        for op in ops:
            out.append(op)
            out.append("select type, name, tbl_name, sql from sqlite_schema order by name;")
        out.append(f"select * from {t};")
        out.append(f"select * from {t}_new;")
    return out


def generated_strict(rng):
    out = ["create table g(a integer, b as (a * 2) stored, c as (a || 'x') virtual not null, "
           "d as (b + 1) check (d < 100), e unique as (a % 3));",
           "create table s(i integer, r real, t text, b blob, a any, n int not null) strict;"]
    for _ in range(30):
        a = rng.choice(["1", "2", "50", "NULL", "'7'", "3.5", "'x'"])
        out.append(f"insert into g(a) values({a});")
    out += ["insert into g(a, b) values(1, 2);", "update g set b = 1;", "update g set a = a + 1;",
            "select * from g order by rowid;", "pragma table_xinfo(g);"]
    vals = ["1", "'1'", "1.0", "1.5", "'abc'", "x'00'", "NULL", "'  2'", "9223372036854775807",
            "'1e3'"]
    for _ in range(40):
        col = rng.choice(["i", "r", "t", "b", "a"])
        out.append(f"insert into s({col}, n) values({rng.choice(vals)}, 1);")
    out += ["insert into s(i) values(1);", "select typeof(i), typeof(r), typeof(t), typeof(b), "
            "typeof(a), i, r, t, b, a from s order by rowid;",
            "create table s2(x foo) strict;", "create table s3(x) strict;",
            "update s set i = 'z';", "update s set r = 2 where rowid = 1;"]
    return out


def scalar_functions(rng):
    vals = ["NULL", "0", "1", "-1", "2.5", "-0.5", "'abc'", "'ÄbÇ'", "''", "' x '", "'12'",
            "'1e2'", "x'00ff'", "x''", "9223372036854775807", "-9223372036854775808",
            "1e308", "'%_'", "'a''b'", "char(0)"]
    one = ["abs", "length", "lower", "upper", "hex", "quote", "typeof", "unicode", "trim",
           "ltrim", "rtrim", "round", "sign", "soundex", "zeroblob", "likely", "unlikely",
           "ceil", "floor", "sqrt", "ln", "log", "log10", "log2", "exp", "sin", "cos",
           "tan", "asin", "acos", "atan", "sinh", "degrees", "radians", "trunc",
           "json_quote", "json_valid", "json_type", "char",
           "total_changes", "nullif", "ifnull", "coalesce"]
    two = ["instr", "substr", "round", "trim", "ltrim", "rtrim", "ifnull", "nullif",
           "coalesce", "max", "min", "pow", "power", "atan2", "mod", "log", "glob",
           "like", "iif", "printf", "char", "substring", "format", "json_array",
           "json_extract", "replace"]
    # (unhex, octet_length, concat and concat_ws are newer than the oracle's SQLite 3.40)
    out = []
    for _ in range(120):
        f = rng.choice(one)
        out.append(f"select {f}({rng.choice(vals)});")
    for _ in range(120):
        f = rng.choice(two)
        args = ", ".join(rng.choice(vals) for _ in range(2))
        out.append(f"select {f}({args});")
    for _ in range(40):
        f = rng.choice(["substr", "replace", "iif", "like", "instr", "coalesce", "max"])
        args = ", ".join(rng.choice(vals) for _ in range(3))
        out.append(f"select {f}({args});")
    for _ in range(40):
        a, b_ = rng.choice(vals), rng.choice(vals)
        op = rng.choice(["+", "-", "*", "/", "%", "||", "<", "=", "<>", "IS", "IS NOT",
                         "AND", "OR", "&", "|", "<<", ">>", "LIKE", "GLOB", "->", "->>"])
        out.append(f"select {a} {op} {b_};")
    return out


def triggers_views(rng):
    out = ["create table tb(id integer primary key, v, w);",
           "create table tlog(ev, a, b);",
           "create view tv as select id, v, w, v || '-' || w as vw from tb;",
           "create view tv2 as select * from tv where id > 1;",
           "create trigger tv_ins instead of insert on tv begin insert into tb(v, w) values(new.v, new.w); insert into tlog values('ins', new.v, new.vw); end;",
           "create trigger tv_upd instead of update of v on tv begin update tb set v = new.v where id = old.id; insert into tlog values('upd', old.v, new.v); end;",
           "create trigger tv_del instead of delete on tv begin delete from tb where id = old.id; insert into tlog values('del', old.id, old.vw); end;",
           "create trigger tb_bu before update on tb when new.v = 'stop' begin select raise(abort, 'stopped'); end;",
           "create trigger tb_bi before insert on tb when new.v = 'skip' begin select raise(ignore); end;",
           "create trigger tb_ad after delete on tb begin insert into tlog values('tb-del', old.id, old.v); end;"]
    for _ in range(40):
        v = rng.choice(["'a'", "'b'", "'skip'", "'stop'", "1", "NULL"])
        k = rng.randint(1, 6)
        out.append(rng.choice([
            f"insert into tv(v, w) values({v}, {k});",
            f"update tv set v = {v} where id = {k};",
            f"update tv set w = {v} where id = {k};",
            f"delete from tv where id = {k};",
            f"insert into tb(v, w) values({v}, {k}) returning id, v;",
            f"update tb set v = {v} where id = {k} returning *;",
            f"insert into tv2(v, w) values({v}, {k});",
            f"delete from tv2 where id = {k};",
            "select * from tv order by id;",
            "select * from tlog order by rowid;",
            "select changes(), total_changes();",
        ]))
    out += ["savepoint s1;", "insert into tv(v, w) values('sp', 1);", "savepoint s2;",
            "delete from tv;", "rollback to s2;", "select count(*) from tv;", "release s1;",
            "select count(*) from tv;", "rollback to s1;", "begin immediate;",
            "insert into tv(v, w) values('tx', 2);", "rollback;", "select count(*) from tlog;",
            "begin exclusive;", "commit;", "begin deferred;", "begin;", "end;"]
    return out


def pragmas(rng):
    # (the AUTOINCREMENT table comes after the table_list checks: SQLite's live
    # connection lists the sqlite_sequence its CREATE made before the table, a reopened
    # one after it, which sqlengine does not tell apart)
    out = ["create table pp(id integer primary key, a text not null default 'x' "
           "collate nocase, b real unique check (b > 0), c references pp(id) on delete set null,"
           " d as (a || b) stored, e int generated always as (b * 2) virtual);",
           "create table pc(x, y, z, primary key(y, x), unique(z desc), foreign key(x, y) "
           "references pc2(p, q) on update cascade deferrable initially deferred) without rowid;",
           "create table pc2(p, q, primary key(p, q));",
           "create index pp_ab on pp(a desc, b) where b > 1;",
           "create index pp_expr on pp(lower(a), b + 1);",
           "create view pv as select a, b from pp;",
           "create table ps(i integer, t text) strict;",
           "insert into pp(a, b) values('q', 1.5), ('r', 2.5);",
           "insert into pc2 values(1, 2);", "insert into pc values(1, 2, 3);",
           "insert into pc values(5, 6, 7);"]
    for t in ["pp", "pc", "pc2", "pv", "ps", "sqlite_schema", "sqlite_sequence", "nosuch"]:
        for prag in ["table_info", "table_xinfo", "index_list", "foreign_key_list"]:
            out.append(f"pragma {prag}({t});")
            out.append(f"select * from pragma_{prag}('{t}');")
    for ix in ["pp_ab", "pp_expr", "sqlite_autoindex_pp_1", "sqlite_autoindex_pc_1",
               "sqlite_autoindex_pc_2", "pc", "nosuch"]:
        out.append(f"pragma index_info({ix});")
        out.append(f"pragma index_xinfo({ix});")
    out += ["pragma foreign_key_check;", "pragma foreign_key_check(pc);",
            "pragma foreign_key_check(pp);", "select * from pragma_foreign_key_check;",
            "pragma table_list;", "pragma table_list(pp);", "pragma database_list;",
            "pragma main.table_list;", "select * from pragma_table_list where name like 'p%';",
            "pragma user_version;", "pragma user_version = 7;", "pragma user_version;",
            "pragma application_id = -5;", "pragma application_id;",
            "pragma schema_version;", "select * from sqlite_sequence;",
            "select type, name, tbl_name, sql from sqlite_master order by name;",
            "select name from sqlite_temp_master;", "pragma foreign_keys;",
            "pragma foreign_keys = 1;", "delete from pc2;", "pragma foreign_key_check;",
            "pragma defer_foreign_keys;", "pragma recursive_triggers;",
            "pragma case_sensitive_like;", "pragma encoding;", "pragma page_size;",
            "pragma auto_vacuum;", "pragma journal_mode;", "pragma freelist_count;",
            "pragma collation_list;",
            "create table pa(id integer primary key autoincrement, v);",
            "insert into pa(v) values(1), (2);", "select * from sqlite_sequence;",
            "pragma table_info(pa);", "pragma table_info(sqlite_sequence);"]
    return out


def constraints(rng):
    out = ["create table k(id integer primary key, a not null default 5, b unique collate nocase,"
           " c check (c is null or c > 0) default 7, d default (upper('x')), e text collate rtrim,"
           " constraint ck check (a <> c));"]
    vals = ["NULL", "1", "-1", "'A'", "'a'", "'a '", "0", "2.5", "'x'"]
    for _ in range(50):
        cols = rng.sample(["a", "b", "c", "e"], rng.randint(1, 3))
        row = ", ".join(rng.choice(vals) for _ in cols)
        verb = rng.choice(["insert", "insert or ignore", "insert or replace", "insert or fail",
                           "replace"])
        out.append(f"{verb} into k({', '.join(cols)}) values({row});")
        if rng.random() < 0.3:
            col = rng.choice(["a", "b", "c", "e"])
            out.append(f"update {rng.choice(['', 'or ignore ', 'or replace '])}k set {col} = "
                       f"{rng.choice(vals)} where id = {rng.randint(1, 8)};")
    out += ["select * from k order by id;", "select * from k where b = 'A';",
            "select * from k where e = 'a';", "select count(*) from k group by b;",
            "select b from k order by b collate binary;", "pragma integrity_check;"]
    return out


def queries(rng):
    out = ["create table q1(a, b);", "create table q2(b, c);"]
    for _ in range(8):
        out.append(f"insert into q1 values({rng.randint(0, 4)}, {rng.choice(['NULL', str(rng.randint(0, 3))])});")
        out.append(f"insert into q2 values({rng.choice(['NULL', str(rng.randint(0, 3))])}, {rng.randint(0, 9)});")
    forms = [
        "select a, (select count(*) from q2 where q2.b = q1.b) from q1 order by 1, 2;",
        "select * from q1 where b in (select b from q2) order by 1, 2;",
        "select * from q1 where b not in (select b from q2) order by 1, 2;",
        "select * from q1 where exists (select 1 from q2 where q2.b = q1.b and c > {n}) order by 1, 2;",
        "select * from (values (1, 'x'), (2, 'y'), ({n}, 'z')) order by 1;",
        "with r(n) as (select 1 union all select n + 1 from r where n < {n}) select sum(n), count(*) from r;",
        "with recursive f(n, x) as (select 0, 1 union all select n + 1, x * 2 from f limit {n}) select * from f;",
        "with t(x) as (select a from q1), u(y) as (select x + 1 from t) select max(y), min(y) from u;",
        "with t as materialized (select * from q1) select count(*) from t, t as t2 where t.a = t2.a;",
        "with t as not materialized (select * from q1 where a > {n}) select * from t order by 1, 2;",
        "select a, b, (select c from q2 where q2.b = q1.b order by c limit 1) from q1 order by 1, 2, 3;",
        "select * from q1 natural join q2 order by 1, 2, 3;",
        "select * from q1 join q2 using (b) order by 1, 2, 3;",
        "select * from q1 left join q2 on q1.b = q2.b and q2.c > {n} order by 1, 2, 3, 4;",
        "select a, count(*) filter (where b > {n}) from q1 group by a order by 1;",
        "select distinct b from q1 order by b desc nulls first;",
        "select a from q1 union select b from q2 order by 1;",
        "select a from q1 intersect select b from q2 order by 1;",
        "select a from q1 except select b from q2 order by 1;",
        "select a, b from q1 order by b nulls last, a limit 3 offset {n};",
        "select (select max(a) from q1) + (select min(c) from q2);",
        "select a, row_number() over w, sum(b) over w from q1 window w as (partition by a order by b) order by 1, 2;",
        "select * from q1 where (a, b) in (select b, c from q2) order by 1, 2;",
        "select * from q1 where (a, b) > (1, 2) order by 1, 2;",
        "select case a when 1 then 'one' when {n} then 'n' else 'other' end from q1 order by 1;",
        "select a, b from q1 where a between 1 and {n} and b is not null order by 1, 2;",
        "update q1 set b = (select max(c) from q2 where q2.b = q1.a) where a = {n} returning *;",
        "delete from q2 where c = (select max(c) from q2) returning b, c;",
        "update q2 set c = c + 1 from q1 where q1.a = q2.b returning q2.b, q2.c;",
        "select group_concat(a, '-') over (order by a rows between current row and 1 following) from q1 order by 1;",
    ]
    for _ in range(90):
        out.append(rng.choice(forms).format(n=rng.randint(0, 4)))
    return out


SWEEPS = {"windows": windows, "datetime": datetimes, "json": json_cases,
          "printf": printf_cases, "upsert": upserts, "alter": alters,
          "generated_strict": generated_strict, "scalar_functions": scalar_functions,
          "triggers_views": triggers_views, "pragmas": pragmas, "constraints": constraints,
          "queries": queries}


def main():
    for name, fn in SWEEPS.items():
        rng = random.Random(f"sweep-{name}")
        text = (f"-- generated by gen_sweep.py ({name}); do not edit by hand\n"
                + "\n".join(fn(rng)) + "\n")
        (OUT / f"sweep_{name}.sql").write_text(text)


if __name__ == "__main__":
    main()
