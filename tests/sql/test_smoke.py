"""First checks of the SQL front end: the corpus's statement shapes build the right AST."""

from sqlengine.sql import ast as A
from sqlengine.sql import complete_statement, parse_all, parse_one


def stmt(sql):
    return parse_one(sql).stmt


def test_select_expression_precedence():
    s = stmt("SELECT - 14 + 42 * 46 AS col1")
    rc = s.body.columns[0]
    assert rc.alias == "col1"
    assert rc.text == "- 14 + 42 * 46"
    e = rc.expr
    assert isinstance(e, A.Binary) and e.op == "+"
    assert isinstance(e.left, A.Unary) and e.left.op == "-"
    assert isinstance(e.right, A.Binary) and e.right.op == "*"


def test_create_table_and_insert():
    ct = stmt("CREATE TABLE tab0(col0 INTEGER, col1 INTEGER, col2 INTEGER)")
    assert [c.name for c in ct.columns] == ["col0", "col1", "col2"]
    assert ct.columns[0].type_name == "INTEGER"
    ins = stmt("INSERT INTO tab0 VALUES(97,1,99)")
    assert ins.table == "tab0"
    assert [x.value for x in ins.source.body.rows[0]] == [97, 1, 99]


def test_parse_all_and_text():
    ps = parse_all("  SELECT 1 ;; -- c\n SELECT 2;")
    assert [p.text for p in ps] == ["SELECT 1", "SELECT 2"]
    assert ps[0].start == 2 and ps[0].end == 12


def test_complete_statement():
    assert complete_statement("SELECT 1;")
    assert not complete_statement("SELECT 1")
    assert not complete_statement("CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT 1;")
    assert complete_statement("CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT 1; END;")


def test_statement_cache_returns_the_same_object_and_is_bounded():
    import sqlengine.sql as S
    S.clear_cache()
    a = S.parse_one("SELECT 42")
    assert S.parse_one("SELECT 42") is a
    for i in range(S.CACHE_SIZE + 10):
        S.parse_one(f"SELECT {i} + 0")
    assert len(S._cache) == S.CACHE_SIZE
    assert S.parse_one("SELECT 42") is not a
