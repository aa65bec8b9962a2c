"""A new Parse (compiler/context.pyx, SQLite's Parse): the starting value of each field."""

import sqlengine
from sqlengine.compiler.context import Parse

# the fields context.pxd declares that start with a value other than None (__init__)
STARTING = {
    "trigger_stack": (), "n_param": 0, "param_names": (), "write": False,
    "one_row_write": False, "ddl": False, "nested": 0, "naming": 0,
    "values_unused": False, "eqp_parent": 0, "left_flat": False,
}
NONE_UNTIL_USED = (
    "alias_links", "params", "_param_pos", "trigger_ctx", "trigger_ignore", "halt_label",
    "body_db", "returning", "view_stack", "flat_names", "unused_values", "uncoded_results",
    "ctes", "no_hand_up", "json_seen", "partial_flags", "autoincs", "gen_busy",
)


def test_a_new_parse_starts_as_documented():
    con = sqlengine.connect(":memory:")
    db = con._db
    p = Parse(db, "SELECT 1", "the ast", True)
    assert p.db is db and p.schema is db.schema and p.functions is db.functions
    assert (p.sql, p.ast, p.eqp, p.eqp_names) == ("SELECT 1", "the ast", True, {})
    assert p.b.addr() == 0 and p.b.n_mem == 0
    for name, value in STARTING.items():
        got = getattr(p, name)
        assert got == value and type(got) is type(value), name
    for name in NONE_UNTIL_USED:
        assert getattr(p, name) is None, name
    q = Parse(db)
    assert (q.sql, q.ast, q.eqp) == ("", None, False)
    assert q.eqp_names is not p.eqp_names and q.b is not p.b
