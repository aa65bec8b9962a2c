"""Table-valued functions joined with tables in every FROM order, compared with sqlite3
(seeded): json_each, json_tree, pragma_table_info and pragma_index_list whose HIDDEN
columns take their arguments from the call, from WHERE or ON terms (``=``, ``IN (...)``,
``IN (SELECT ...)``, ORs: SQLite's OR-to-IN or its OR-by-union) that read tables on either side of the function, so
that the planner must put the function after them (compiler/tablefunc.bind_hidden, the
function's loop prerequisites in compiler/_loops.pyx), as SQLite's xBestIndex makes it.
Rows are compared as multisets (the join orders may differ where both are valid), with
their types, and the errors by message; the EXPLAIN QUERY PLAN lines' texts are compared
for the statements of one function and one table, whose plans are SQLite's."""

import random
import sqlite3

import pytest

import sqlengine

SETUP = """
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c);
CREATE TABLE u(x, y, z UNIQUE);
CREATE INDEX ub ON u(y, x);
CREATE TABLE d(id INTEGER PRIMARY KEY, doc, path);
CREATE TABLE n(nm TEXT, sch TEXT);
INSERT INTO t VALUES (1, 'one', 1.5), (2, 'two', NULL), (5, 'five', 'x');
INSERT INTO u VALUES (1, 'a', 10), (2, 'b', 20), (5, NULL, 30);
INSERT INTO d VALUES (1, '[1,2]', '$'), (2, '{"a":5,"b":[7,8]}', '$.b'), (3, NULL, '$'),
  (4, '{"x":{"y":[true,null]}}', '$.x'), (5, '[5,[1,{"q":2}]]', '$[1]');
INSERT INTO n VALUES ('t', 'main'), ('u', 'main'), ('d', NULL), ('nosuch', 'main'),
  ('ub', 'temp'), (NULL, NULL), ('T', 'MAIN');
"""

# (the function's FROM item, its alias, the tables its terms may read, the terms that
# give its arguments: {kind: [(uses_call_args, item text, [terms])]})
JSON_FORMS = [
    ("{f}(d.doc)", []),
    ("{f}(d.doc, d.path)", []),
    ("{f}", ["{j}.json = d.doc"]),
    ("{f}", ["d.doc = {j}.json"]),
    ("{f}", ["{j}.json = d.doc", "{j}.root = d.path"]),
    ("{f}(d.doc)", ["{j}.root = d.path"]),
    ("{f}", ["{j}.json IN ('[1,2]', d.doc)"]),
    ("{f}", ["{j}.json IN (SELECT doc FROM d WHERE id < 3)"]),
    ("{f}", ["{j}.json IN (SELECT doc FROM d WHERE id <> d.id)"]),
    ("{f}", ["({j}.json = '[9]' OR {j}.json = '[1,2]')"]),
    ("{f}", ["({j}.json = '[9]' OR {j}.json = d.doc)"]),
    ("{f}", ["({j}.json = d.doc OR {j}.json IN ('[9]', '[5,6,7,8]'))"]),
    ("{f}", ["(({j}.json = d.doc AND {j}.root = d.path) OR {j}.json = '[1,[2,3]]')"]),
    ("{f}", ["{j}.json = (SELECT doc FROM d AS e WHERE e.id = d.id + 1)"]),
    ("{f}", ["{j}.json = '[3,4]'", "{j}.json = d.doc"]),
    ("{f}", ["{j}.json = d.doc", "{j}.root = '$'"]),
]
PRAGMA_FORMS = [
    ("{f}(n.nm)", []),
    ("{f}(n.nm, n.sch)", []),
    ("{f}", ["{p}.arg = n.nm"]),
    ("{f}", ["n.nm = {p}.arg"]),
    ("{f}", ["{p}.arg = n.nm", "{p}.schema = n.sch"]),
    ("{f}", ["{p}.arg = n.nm", "{p}.schema = 'main'"]),
    ("{f}('t')", ["{p}.schema = n.sch"]),
    ("{f}", ["{p}.arg = s.name"]),
    ("{f}", ["{p}.arg IN ('t', n.nm)"]),
    ("{f}", ["{p}.arg IN (SELECT nm FROM n)"]),
    ("{f}", ["{p}.arg IN (SELECT name FROM sqlite_schema WHERE type = 'table')"]),
    ("{f}", ["{p}.arg IN (SELECT nm FROM n WHERE nm <> s.name)"]),
    ("{f}", ["({p}.arg = 'u' OR {p}.arg = n.nm || '')"]),
    ("{f}", ["({p}.arg = 'u' OR {p}.arg = n.nm)"]),
    ("{f}", ["({p}.arg = n.nm OR {p}.arg IN ('u', 't', 'd'))"]),
    ("{f}", ["(({p}.arg = n.nm AND {p}.schema = 'main') OR {p}.arg = CAST('u' AS TEXT))"]),
    ("{f}", ["{p}.arg = (SELECT name FROM sqlite_schema WHERE type = 'index')"]),
    ("{f}", ["{p}.arg = 'u'", "{p}.arg = n.nm"]),
    ("{f}", ["{p}.arg = upper(n.nm)"]),
]
TABLES = {"d": "d", "n": "n", "s": "sqlite_schema s", "t": "t", "u": "u"}
SELECTS = {
    "json": "{j}.key, {j}.value, {j}.type, {j}.json, {j}.root",
    "tree": "{j}.fullkey, {j}.atom, {j}.path",
    "pragma_table_info": "{p}.name, {p}.type, {p}.pk, {p}.arg, {p}.schema",
    "pragma_index_list": "{p}.name, {p}.\"unique\", {p}.origin, {p}.arg",
}


def _function(rng, k):
    """(FROM item, alias, select list, terms, tables read) of one random function."""
    kind = rng.choice(("json_each", "json_tree", "pragma_table_info", "pragma_index_list"))
    alias = f"f{k}"
    if kind.startswith("json"):
        item, terms = rng.choice(JSON_FORMS)
        sel = SELECTS["json" if kind == "json_each" else "tree"].format(j=alias)
        fmt = {"f": kind, "j": alias}
    else:
        item, terms = rng.choice(PRAGMA_FORMS)
        sel = SELECTS[kind].format(p=alias)
        fmt = {"f": kind, "p": alias}
    item = item.format(**fmt) + f" {alias}"
    terms = [t.format(**fmt) for t in terms]
    text = item + " " + " ".join(terms)
    reads = [x for x in ("d", "n", "s") if f"{x}." in text.replace(f"{alias}.", "")]
    return item, alias, sel, terms, reads


def _query(rng):
    """One random SELECT joining one or two functions with the tables they read (and
    maybe one more), in a random FROM order, their terms in WHERE or in an ON clause."""
    funcs = [_function(rng, k) for k in range(rng.choice((1, 1, 2)))]
    tables = sorted({r for f in funcs for r in f[4]})
    if rng.random() < 0.3:
        tables.append(rng.choice(("t", "u")))
    items = [(f[0], f[3]) for f in funcs] + [(TABLES[x], []) for x in tables]
    rng.shuffle(items)
    where = []
    from_ = ""
    for i, (item, terms) in enumerate(items):
        if i == 0:
            from_ = item
            where += terms
            continue
        style = rng.random()
        if style < 0.4:
            from_ += ", " + item
            where += terms
        else:
            # the terms in this join's ON clause (an inner join: SQLite adds them to WHERE)
            on = terms + (["1"] if not terms else [])
            from_ += f" JOIN {item} ON " + " AND ".join(on)
    if "t" in tables and rng.random() < 0.5:
        where.append("t.a < 5")
    if "d" in tables and rng.random() < 0.3:
        where.append("d.id <> 3")
    cols = [f[2] for f in funcs] + [
        {"d": "d.id", "n": "n.nm", "s": "s.name", "t": "t.b", "u": "u.y"}[x] for x in tables]
    sql = f"SELECT {', '.join(cols)} FROM {from_}"
    if where:
        sql += " WHERE " + " AND ".join(where)
    return sql, len(items) == 2 and len(funcs) == 1 and "SELECT" not in sql[6:] and \
        " OR " not in sql


def _outcome(conn, sql):
    try:
        return "rows", sorted(
            (tuple((type(v).__name__, v) for v in r) for r in conn.execute(sql).fetchall()),
            key=repr)
    except Exception as e:  # noqa: BLE001 - compared between engines
        return "error", str(e)


def _plan(conn, sql):
    try:
        return [r[3] for r in conn.execute("EXPLAIN QUERY PLAN " + sql).fetchall()]
    except Exception as e:  # noqa: BLE001 - compared between engines
        return str(e)


@pytest.mark.parametrize("seed", range(8))
def test_functions_in_every_join_order(seed):
    rng = random.Random(seed)
    a = sqlite3.connect(":memory:")
    b = sqlengine.connect(":memory:")
    a.executescript(SETUP)
    b.executescript(SETUP)
    bad = []
    for _ in range(60):
        sql, simple = _query(rng)
        x, y = _outcome(a, sql), _outcome(b, sql)
        if x != y:
            bad.append((sql, x, y))
        elif simple and _plan(a, sql) != _plan(b, sql):
            bad.append((sql, _plan(a, sql), _plan(b, sql)))
    assert not bad, "\n".join(f"{s}\n  sqlite3: {x}\n  engine:  {y}" for s, x, y in bad[:5])
