"""The LALR tables: computed from grammar.lark without any unresolved conflict, and the
cached copy is the computed one."""

from sqlengine.sql import tables


def test_tables_compute_without_conflicts_and_match_the_cache():
    fresh = tables._compute()  # raises GrammarConflict on any unresolved conflict
    assert fresh == tables.load_tables()
    assert fresh.start_state == 0 and fresh.accept


def test_type_name_is_the_source_text():
    from sqlengine.sql import parse_one
    ct = parse_one("CREATE TABLE u(a  varchar ( 10 , 2 ), b unsigned   big int, c)").stmt
    assert [c.type_name for c in ct.columns] == ["varchar ( 10 , 2 )", "unsigned   big int", None]
