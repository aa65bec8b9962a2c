"""Completion offers keywords, dot-commands, functions and the open database's tables and
columns."""

from __future__ import annotations

import io

from sqlengine.shell import Shell
from sqlengine.shell.interactive import SqlCompleter


def test_completion_words(shell):
    session = Shell(stdout=io.StringIO(), stderr=io.StringIO())
    session.open(":memory:")
    session.run_sql("create table birds(wingspan real, name text); create index bi on birds(name);")
    completer = SqlCompleter(session)
    assert completer.complete("SEL") == ["SELECT"]
    assert "birds" in completer.complete("bi") and "bi" not in completer.complete("bi")
    assert completer.complete("wing") == ["wingspan"]
    assert ".tables" in completer.complete(".ta")
    assert "group_concat" in completer.complete("group_")


def test_the_word_completed_is_the_name_being_typed():
    word = SqlCompleter.word_before
    assert word("select wing") == "wing"
    assert word("select birds.wing") == "wing"
    assert word("select max(wing") == "wing"
    assert word("select a,wing") == "wing"
    assert word(".ta") == ".ta"
    assert word("  .sch") == ".sch"
    assert word("select ") == ""


def _session():
    session = Shell(stdout=io.StringIO(), stderr=io.StringIO())
    session.open(":memory:")
    return session


def test_functions_come_from_the_connections_registry():
    session = _session()
    completer = SqlCompleter(session)
    # the registry's own names, not a second list: every one is offered
    for name in session.con._db.functions.names():
        if name.isidentifier():
            assert name in completer.complete(name[:-1]), name
    for prefix, name in [("json_ex", "json_extract"), ("json_group_a", "json_group_array"),
                         ("json_ea", "json_each"), ("row_nu", "row_number"),
                         ("dense_", "dense_rank"), ("nth_", "nth_value"), ("atan", "atan2"),
                         ("log1", "log10"), ("sqr", "sqrt"), ("randomb", "randomblob")]:
        assert name in completer.complete(prefix), name
    assert not [w for w in completer.words() if not w.startswith(".") and "-" in w]


def test_user_functions_are_offered_once_created():
    session = _session()
    completer = SqlCompleter(session)
    assert completer.complete("my_fu") == []
    session.con.create_function("my_func", 1, lambda x: x)
    session.con.create_aggregate("my_fold", 1, type("Fold", (), {
        "step": lambda self, x: None, "finalize": lambda self: 0}))
    session.con.create_window_function("my_win", 1, type("Win", (), {
        "step": lambda self, x: None, "inverse": lambda self, x: None,
        "value": lambda self: 0, "finalize": lambda self: 0}))
    session.con.create_function("My_Upper", 1, str.upper)
    assert completer.complete("my_") == ["my_fold", "my_func", "my_upper", "my_win"]
