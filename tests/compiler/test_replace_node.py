"""_resolve.replace_node, the compiler's copy of an AST node with some fields changed, makes
what dataclasses.replace makes: a new node of the same class, the changed fields as given,
every other field (those that take no part in == too) the same object as the original's."""

from __future__ import annotations

import dataclasses

import pytest

from sqlengine.compiler._resolve import replace_node
from sqlengine.sql import ast as A
from sqlengine.sql import parse_one


def _core(sql):
    return parse_one(sql).stmt.body


def test_select_core_fields_changed_and_kept():
    core = _core("select a as x, count(*) from t where a > 1 group by a having count(*) > 2")
    core.alias_columns = [A.ResultColumn(A.Column("a"), "x")]
    where, group_by = A.Literal(1), [A.Column("b")]
    new = replace_node(core, where=where, group_by=group_by)
    ref = dataclasses.replace(core, where=where, group_by=group_by)
    assert type(new) is A.SelectCore and new is not core
    assert new == ref
    for f in dataclasses.fields(A.SelectCore):
        expected = getattr(ref, f.name)
        assert getattr(new, f.name) is expected, f.name
    assert new.where is where and new.group_by is group_by
    assert core.where is not where  # (the original is unchanged)


def test_no_change_is_a_copy():
    core = _core("select distinct a from t")
    new = replace_node(core)
    assert new == core and new is not core and new.features == core.features


def test_unknown_field_is_the_error_of_dataclasses_replace():
    core = _core("select 1")
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        replace_node(core, nope=1)
    with pytest.raises(TypeError):
        dataclasses.replace(core, nope=1)


def test_other_node_classes():
    e = parse_one("select a + 1 from t").stmt.body.columns[0].expr
    assert type(e) is A.Binary
    new = replace_node(e, op="-")
    assert new == dataclasses.replace(e, op="-") and new.left is e.left and e.op == "+"
