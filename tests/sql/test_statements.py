"""Valid SQL of every statement kind: accepted (as sqlite3 accepts it) and built into the
AST the compiler expects."""

import pytest

from sqlengine.sql import ast as A
from sqlengine.sql import parse_one

ACCEPTED = [
    "SELECT CAST(1 AS)", "SELECT 0x1g", "SELECT ?1a", "SELECT 1 /* unterminated comment",
    "SELECT 1 -- trailing comment",
    "CREATE TRIGGER r AFTER INSERT ON t BEGIN WITH x AS (SELECT 1) SELECT 1; END",
    "SELECT * FROM a LEFT OUTER JOIN b", "SELECT * FROM a NATURAL CROSS JOIN b",
    "SELECT * FROM t INDEXED BY i", "SELECT * FROM t NOT INDEXED", "SELECT * FROM (t1 JOIN t2) AS x",
    "SELECT * FROM (t1 JOIN t2)", "SELECT * FROM f(1, 2) AS x", "SELECT * FROM main.f(1)",
    "SELECT a IN t FROM t", "SELECT a NOT IN main.t FROM t", "SELECT a IN f(1) FROM t",
    "SELECT CURRENT_TIME, CURRENT_DATE, CURRENT_TIMESTAMP", "SELECT ?, ?1, :a, @b, $c, $a::b(x)",
    "SELECT a->b, a->>'c'", "SELECT a-->b", "SELECT 1 == 2 <> 3 != 4", "SELECT 'a' 'b'",
    "SELECT .5, 5., 1e5, 1E+5, 1e-5", "SELECT 1 ORDER BY 1 DESC NULLS LAST", "SELECT 1 LIMIT 1, 2",
    "SELECT 1 WHERE 1 GROUP BY 1 HAVING 1 WINDOW w AS () ORDER BY 1 LIMIT 1",
    "SELECT count(*) FILTER (WHERE a) OVER w FROM t WINDOW w AS (ORDER BY a)",
    "SELECT count(*) OVER (ORDER BY a RANGE BETWEEN 1 PRECEDING AND 2 FOLLOWING EXCLUDE NO OTHERS)",
    "SELECT window FROM window", "SELECT over FROM over", "SELECT filter FROM filter",
    "SELECT * FROM t window, u", "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x) SELECT n FROM x",
    "WITH x AS MATERIALIZED (SELECT 1), y AS NOT MATERIALIZED (SELECT 2) SELECT 1",
    "VALUES(1),(2)", "SELECT 1 UNION VALUES(1),(2)", "CREATE TABLE x(a GENERATED ALWAYS (1))",
    "CREATE TABLE x(a PRIMARY KEY) WITHOUT rowid, strict", "CREATE TABLE x AS SELECT 1",
    "CREATE VIRTUAL TABLE v USING fts5(a, b, tokenize = 'porter ascii')",
    "CREATE VIRTUAL TABLE v USING m(a, (b, c), d e f)", "INSERT INTO t DEFAULT VALUES RETURNING *",
    "INSERT INTO t SELECT * FROM u WHERE 1 ON CONFLICT DO NOTHING",
    "REPLACE INTO t VALUES(1) RETURNING *", "UPDATE t SET (a,b) = (1,2)",
    "UPDATE t SET a = 1 ORDER BY a LIMIT 1", "UPDATE OR ROLLBACK t SET a = 1",
    "DELETE FROM t LIMIT 1 OFFSET 2", "DELETE FROM t AS x WHERE x.a = 1",
    "BEGIN DEFERRED TRANSACTION x", "COMMIT TRANSACTION x", "END", "ROLLBACK TRANSACTION TO SAVEPOINT x",
    "PRAGMA x = ON", "PRAGMA x('a')", "PRAGMA main.x = -5", "ATTACH DATABASE 'x' AS y KEY 'k'",
    "VACUUM x INTO 'y'", "REINDEX", "ANALYZE main.t", "EXPLAIN QUERY PLAN SELECT 1",
    "CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT RAISE(FAIL, 'x'); END",
    "CREATE TRIGGER r AFTER UPDATE OF a, b ON t FOR EACH ROW WHEN new.a > 1 BEGIN "
    "UPDATE u SET a = new.a; INSERT INTO u VALUES(1, 2, 3); DELETE FROM u WHERE a = old.a; END",
    "SELECT count(*) OVER (PARTITION BY a ORDER BY b ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES) FROM t",
    "SELECT NOT EXISTS (SELECT 1)", "SELECT - - - 1", "SELECT +'a'", "SELECT (1, 2) = (3, 4)",
    "CREATE TABLE x(a INTEGER PRIMARY KEY ASC ON CONFLICT ABORT AUTOINCREMENT, b TEXT NOT NULL "
    "UNIQUE COLLATE nocase DEFAULT 'x' CHECK (b <> ''), c REFERENCES t(a) ON DELETE CASCADE "
    "DEFERRABLE INITIALLY DEFERRED, CONSTRAINT pk UNIQUE (a, b), FOREIGN KEY (c) REFERENCES u(a))",
    "ALTER TABLE t RENAME TO u", "ALTER TABLE t RENAME COLUMN a TO z", "ALTER TABLE t ADD COLUMN z",
    "ALTER TABLE t DROP COLUMN a", "SAVEPOINT s", "RELEASE s", "RELEASE SAVEPOINT s", "DETACH x",
    "CREATE TEMP TABLE temp.x(a)", "CREATE TABLE x(a, b, FOREIGN KEY(a, B) REFERENCES t)",
    "CREATE TABLE x(a REFERENCES t(b))", "CREATE TEMP TABLE main(a)", "CREATE INDEX i ON t(a DESC)",
    "SELECT 1 AS \u017felect", "SELECT 1 l\u0131m\u0131t", "SELECT 1 \ufb01rst",
    "SELECT max(" + ",".join(["1"] * 127) + ")", "SELECT count(DISTINCT a) FILTER (WHERE 1) FROM t",
]


@pytest.mark.parametrize("sql", ACCEPTED)
def test_accepted_like_sqlite(sql, oracle):
    assert oracle(sql) is None, "the oracle rejects this text: not a positive case"
    assert parse_one(sql) is not None


def stmt(sql):
    return parse_one(sql).stmt


def test_select_clauses():
    s = stmt("SELECT DISTINCT a AS x, t.b y, * , t.* FROM t WHERE a > 1 GROUP BY a, b "
             "HAVING count(*) > 1 ORDER BY 1 DESC, 2 NULLS FIRST LIMIT 5 OFFSET 2")
    core = s.body
    assert core.distinct
    assert [c.alias for c in core.columns[:2]] == ["x", "y"]
    assert core.columns[1].expr == A.Column("b", "t", pos=core.columns[1].expr.pos)
    assert isinstance(core.columns[2], A.Star) and core.columns[2].table is None
    assert core.columns[3].table == "t"
    assert isinstance(core.from_, A.TableRef) and core.from_.name == "t"
    assert core.where.op == ">"
    assert len(core.group_by) == 2
    assert isinstance(core.having.left, A.FunctionCall) and core.having.left.star
    assert [o.desc for o in s.order_by] == [True, False]
    assert s.order_by[1].nulls == "FIRST"
    assert s.limit.value == 5 and s.offset.value == 2


def test_empty_in_list_folds_to_a_constant_like_sqlite():
    cols = stmt("SELECT nosuch IN (), (1, 2) NOT IN () FROM t").body.columns
    assert [(type(c.expr).__name__, c.expr.value) for c in cols] == [("Literal", 0), ("Literal", 1)]
    assert [c.text for c in cols] == ["nosuch IN ()", "(1, 2) NOT IN ()"]


def test_limit_comma_swaps():
    s = stmt("SELECT 1 LIMIT 3, 7")
    assert s.limit.value == 7 and s.offset.value == 3


def test_compound_is_left_deep_and_takes_the_last_order_by():
    s = stmt("SELECT 1 UNION SELECT 2 EXCEPT SELECT 3 ORDER BY 1")
    assert isinstance(s.body, A.Compound) and s.body.op == "EXCEPT"
    assert isinstance(s.body.left, A.Compound) and s.body.left.op == "UNION"
    assert s.order_by is not None
    assert stmt("SELECT 1 UNION ALL SELECT 2").body.op == "UNION ALL"


def test_joins():
    f = stmt("SELECT * FROM a, b LEFT JOIN c ON a.x = c.x NATURAL JOIN d JOIN e USING (y, z)").body.from_
    assert isinstance(f, A.Join) and f.kind == "INNER" and f.using == ["y", "z"]
    assert f.left.natural and f.left.kind == "INNER"
    assert f.left.left.kind == "LEFT" and isinstance(f.left.left.on, A.Binary)
    assert f.left.left.left.kind == ","
    assert stmt("SELECT * FROM a CROSS JOIN b").body.from_.kind == "CROSS"
    assert stmt("SELECT * FROM a FULL OUTER JOIN b").body.from_.kind == "FULL"
    assert stmt("SELECT * FROM a RIGHT JOIN b").body.from_.kind == "RIGHT"


def test_subqueries_and_predicates():
    w = stmt("SELECT * FROM (SELECT 1) AS s WHERE a IN (SELECT b FROM u) AND EXISTS "
             "(SELECT 1) AND c NOT IN (1, 2) AND d BETWEEN 1 AND 2 AND e NOT LIKE 'x%' "
             "ESCAPE '!' AND f GLOB 'a*' AND g IS NOT NULL AND h ISNULL AND i NOT NULL").body
    assert isinstance(w.from_, A.SubqueryRef) and w.from_.alias == "s"
    terms = []
    e = w.where
    while isinstance(e, A.Binary) and e.op == "AND":
        terms.append(e.right)
        e = e.left
    terms.append(e)
    terms.reverse()
    kinds = [type(t).__name__ for t in terms]
    assert kinds == ["InSelect", "Exists", "InList", "Between", "Like", "Like", "Binary",
                     "IsNull", "IsNull"]
    assert terms[2].negated and [i.value for i in terms[2].items] == [1, 2]
    assert terms[4].negated and terms[4].escape.value == "!" and terms[4].op == "LIKE"
    assert terms[5].op == "GLOB"
    assert terms[6].op == "IS NOT"
    assert not terms[7].negated and terms[8].negated


def test_case_cast_collate_functions():
    e = stmt("SELECT CASE a WHEN 1 THEN 'x' ELSE 'y' END, CAST(a AS VARCHAR(10)), "
             "b COLLATE nocase, count(DISTINCT c), max(1, 2)").body.columns
    case = e[0].expr
    assert isinstance(case, A.Case) and case.operand.name == "a" and case.else_.value == "y"
    assert e[1].expr.type_name == "VARCHAR(10)"
    assert e[2].expr.collation == "nocase"
    assert e[3].expr.distinct and e[3].expr.name == "count"
    assert len(e[4].expr.args) == 2


@pytest.mark.parametrize("sql,tree", [
    ("SELECT 1 + 2 * 3", ("+", 1, ("*", 2, 3))),
    ("SELECT 1 - 2 - 3", ("-", ("-", 1, 2), 3)),
    ("SELECT 1 || 2 * 3", ("*", ("||", 1, 2), 3)),
    ("SELECT 1 < 2 = 3", ("=", ("<", 1, 2), 3)),
    ("SELECT 1 OR 2 AND 3", ("OR", 1, ("AND", 2, 3))),
    ("SELECT 1 & 2 + 3", ("&", 1, ("+", 2, 3))),
    ("SELECT NOT 1 = 2", ("NOT", ("=", 1, 2))),
    ("SELECT - 1 * 2", ("*", ("-", 1), 2)),
    ("SELECT 1 + NOT 2 + 3", ("+", 1, ("NOT", ("+", 2, 3)))),
    ("SELECT 1 + NOT 2 AND 3", ("AND", ("+", 1, ("NOT", 2)), 3)),
    ("SELECT ~ 1 + 2", ("+", ("~", 1), 2)),
    ("SELECT 1 BETWEEN 2 AND 3 AND 4", ("AND", ("BETWEEN", 1, 2, 3), 4)),
    ("SELECT 1 = 2 IS 3", ("IS", ("=", 1, 2), 3)),
    ("SELECT 1 IS NOT DISTINCT FROM 2", ("IS", 1, 2)),
    ("SELECT 1 IS DISTINCT FROM 2", ("IS NOT", 1, 2)),
    ("SELECT 1 -> 2 || 3", ("||", ("->", 1, 2), 3)),
])
def test_precedence(sql, tree):
    def shape(e):
        if isinstance(e, A.Literal):
            return e.value
        if isinstance(e, A.Binary):
            return (e.op, shape(e.left), shape(e.right))
        if isinstance(e, A.Unary):
            return (e.op, shape(e.operand))
        if isinstance(e, A.Between):
            return ("BETWEEN", shape(e.expr), shape(e.low), shape(e.high))
        raise AssertionError(e)
    assert shape(stmt(sql).body.columns[0].expr) == tree


def test_result_column_text_is_the_source_span():
    cols = stmt("SELECT a+ b ,(a), 1 /* c */ , 'x''y' FROM t").body.columns
    assert [c.text for c in cols] == ["a+ b", "(a)", "1 /* c */", "'x''y'"]


def test_insert_forms():
    i = stmt("INSERT OR REPLACE INTO main.t AS x (a, b) VALUES (1, 2), (3, 4) "
             "ON CONFLICT (a) WHERE a > 0 DO UPDATE SET b = excluded.b WHERE 1 "
             "ON CONFLICT DO NOTHING RETURNING a, *")
    assert (i.table, i.schema, i.alias, i.columns, i.or_action) == ("t", "main", "x", ["a", "b"], "REPLACE")
    assert len(i.source.body.rows) == 2
    assert len(i.upserts) == 2 and i.upserts[0].sets[0].columns == ["b"]
    assert i.upserts[0].target[0].expr.name == "a" and i.upserts[0].target_where is not None
    assert i.upserts[1].sets is None
    assert isinstance(i.returning[1], A.Star)
    assert stmt("REPLACE INTO t VALUES(1)").or_action == "REPLACE"
    d = stmt("INSERT INTO t DEFAULT VALUES")
    assert d.source is None
    w = stmt("WITH c AS (SELECT 1) INSERT INTO t SELECT * FROM c")
    assert w.with_.ctes[0].name == "c"


def test_update_delete():
    u = stmt("UPDATE OR IGNORE t INDEXED BY i SET a = 1, (b, c) = (2, 3) FROM u "
             "WHERE t.a = u.a RETURNING * ORDER BY a LIMIT 2 OFFSET 1")
    assert u.or_action == "IGNORE" and u.table.indexed_by == "i"
    assert [sc.columns for sc in u.sets] == [["a"], ["b", "c"]]
    assert u.from_.name == "u" and u.returning and u.limit.value == 2 and u.offset.value == 1
    d = stmt("DELETE FROM main.t NOT INDEXED WHERE a = 1 RETURNING a")
    assert d.table.schema == "main" and d.table.not_indexed and d.returning[0].text == "a"


def test_create_table_constraints():
    ct = stmt("CREATE TEMP TABLE IF NOT EXISTS s.x(a INTEGER CONSTRAINT pk PRIMARY KEY ASC "
              "ON CONFLICT ABORT AUTOINCREMENT, b VARCHAR (10, 2) NOT NULL DEFAULT -5 "
              "COLLATE nocase, c REFERENCES u(a) ON DELETE SET NULL ON UPDATE CASCADE "
              "DEFERRABLE INITIALLY DEFERRED, d AS (a + 1) STORED, e GENERATED ALWAYS AS (1), "
              "CONSTRAINT uq UNIQUE (a, b DESC) ON CONFLICT IGNORE, CHECK (a > 0), "
              "FOREIGN KEY (c, d) REFERENCES u(a, b) NOT DEFERRABLE) WITHOUT ROWID, STRICT")
    assert (ct.name, ct.schema, ct.temp, ct.if_not_exists) == ("x", "s", True, True)
    assert ct.without_rowid and ct.strict
    a, b, c, d, e = ct.columns
    pk = a.constraints[0]
    assert (pk.kind, pk.name, pk.desc, pk.conflict, pk.autoincrement) == ("PRIMARY KEY", "pk", False, "ABORT", True)
    assert b.type_name == "VARCHAR (10, 2)"
    assert [x.kind for x in b.constraints] == ["NOT NULL", "DEFAULT", "COLLATE"]
    assert b.constraints[1].expr.op == "-"
    fk = c.constraints[0].foreign_key
    assert (fk.table, fk.columns, fk.on_delete, fk.on_update, fk.deferred) == ("u", ["a"], "SET NULL", "CASCADE", True)
    assert d.constraints[0].kind == "GENERATED" and d.constraints[0].stored
    assert e.constraints[0].kind == "GENERATED" and not e.constraints[0].stored
    uq, ck, tfk = ct.constraints
    assert uq.name == "uq" and uq.conflict == "IGNORE" and uq.columns[1].desc
    assert ck.kind == "CHECK"
    assert tfk.fk_columns == ["c", "d"] and tfk.foreign_key.columns == ["a", "b"]


def test_create_index_view_trigger_drop():
    ci = stmt("CREATE UNIQUE INDEX IF NOT EXISTS m.i ON t(a COLLATE nocase DESC, b + 1) WHERE a > 0")
    assert (ci.name, ci.schema, ci.table, ci.unique, ci.if_not_exists) == ("i", "m", "t", True, True)
    assert ci.columns[0].collation == "nocase" and ci.columns[0].desc
    assert isinstance(ci.columns[1].expr, A.Binary) and ci.where is not None
    cv = stmt("CREATE TEMP VIEW IF NOT EXISTS v(x, y) AS SELECT 1, 2")
    assert cv.columns == ["x", "y"] and cv.temp and cv.if_not_exists
    tr = stmt("CREATE TRIGGER IF NOT EXISTS r INSTEAD OF UPDATE OF a ON v FOR EACH ROW "
              "WHEN new.a BEGIN SELECT RAISE(ABORT, 'no'); DELETE FROM t; END")
    assert (tr.timing, tr.event, tr.update_columns, tr.for_each_row) == ("INSTEAD OF", "UPDATE", ["a"], True)
    assert len(tr.body) == 2 and isinstance(tr.body[1], A.Delete)
    assert stmt("CREATE TRIGGER r DELETE ON t BEGIN SELECT 1; END").timing == "BEFORE"
    dr = stmt("DROP VIEW IF EXISTS main.v")
    assert (dr.kind, dr.name, dr.schema, dr.if_exists) == ("VIEW", "v", "main", True)


def test_admin_statements():
    assert stmt("BEGIN IMMEDIATE").mode == "IMMEDIATE"
    assert stmt("BEGIN").mode is None
    assert isinstance(stmt("END TRANSACTION"), A.Commit)
    assert stmt("ROLLBACK TO SAVEPOINT s").savepoint == "s"
    p = stmt("PRAGMA main.cache_size = -2000")
    assert (p.schema, p.name, p.value.value) == ("main", "cache_size", -2000)
    assert stmt("PRAGMA journal_mode = WAL").value.name == "WAL"
    assert stmt("PRAGMA table_info('t')").value.value == "t"
    at = stmt("ATTACH DATABASE 'f.db' AS aux")
    assert at.expr.value == "f.db" and at.schema_expr.name == "aux"
    assert stmt("DETACH aux").schema == "aux"
    assert stmt("VACUUM INTO 'x.db'").into.value == "x.db"
    assert stmt("REINDEX main.i").schema == "main"
    assert stmt("ANALYZE t").name == "t"
    ex = stmt("EXPLAIN QUERY PLAN SELECT 1")
    assert ex.query_plan and isinstance(ex.statement, A.Select)
    al = stmt("ALTER TABLE t ADD COLUMN z INTEGER NOT NULL DEFAULT 0")
    assert al.action == "ADD COLUMN" and al.column_def.name == "z"
    assert stmt("ALTER TABLE t RENAME a TO b").action == "RENAME COLUMN"
    vt = stmt("CREATE VIRTUAL TABLE IF NOT EXISTS v USING fts5(a, b, tokenize = 'x')")
    assert vt.module == "fts5" and vt.args == ["a", "b", "tokenize = 'x'"]


def test_windows():
    s = stmt("SELECT sum(a) FILTER (WHERE a > 0) OVER (w ORDER BY b ROWS BETWEEN 1 PRECEDING "
             "AND CURRENT ROW EXCLUDE CURRENT ROW), rank() OVER w FROM t "
             "WINDOW w AS (PARTITION BY c), w2 AS (w)")
    f = s.body.columns[0].expr
    assert f.filter.op == ">" and f.over.base == "w"
    fr = f.over.frame
    assert (fr.units, fr.start.kind, fr.start.offset.value, fr.end.kind, fr.exclude) == \
        ("ROWS", "PRECEDING", 1, "CURRENT ROW", "CURRENT ROW")
    assert s.body.columns[1].expr.over == "w"
    assert [n for n, _ in s.body.windows] == ["w", "w2"]


def test_with_clause():
    s = stmt("WITH RECURSIVE c(n) AS NOT MATERIALIZED (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT * FROM c")
    assert s.with_.recursive and s.with_.ctes[0].columns == ["n"] and s.with_.ctes[0].materialized is False


def test_explain_and_text():
    p = parse_one("  EXPLAIN SELECT 1 ;  ")
    assert p.text == "EXPLAIN SELECT 1" and p.start == 2 and p.end == 20
