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
