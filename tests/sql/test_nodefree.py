"""The AST's node deallocator (sql/_nodefree.pyx): which classes get it, and that a node
it frees releases what it held, as CPython's own deallocator does."""

import dataclasses
import gc
import sys
import weakref

import pytest

from sqlengine.sql import ast as A
from sqlengine.sql import parser

_nodefree = pytest.importorskip("sqlengine.sql._nodefree")


class Held:
    """A value a node holds: a weak reference tells when it is freed."""


def test_every_node_class_and_parsed_get_it():
    """Every slotted dataclass of sql.ast, and Parsed, is freed by it once the parser
    module is imported (parser._free_nodes_fast); SchemaQualifier (a str) is not."""
    node_classes = [c for c in vars(A).values()
                    if dataclasses.is_dataclass(c) and isinstance(c, type)]
    assert len(node_classes) > 60
    for cls in node_classes + [parser.Parsed]:
        assert _nodefree.installed(cls), cls
    assert not _nodefree.installed(A.SchemaQualifier)


def test_only_plain_slotted_classes_pass():
    @dataclasses.dataclass(slots=True)
    class Plain:
        a: object
        b: object

    @dataclasses.dataclass(slots=True, weakref_slot=True)
    class WithWeakref:
        a: object

    @dataclasses.dataclass
    class WithDict:
        a: object

    @dataclasses.dataclass(slots=True)
    class WithDel:
        a: object

        def __del__(self):
            pass

    class Base:
        __slots__ = ("a",)

    class Derived(Base):
        __slots__ = ("b",)

    class NoSlots:
        pass

    assert _nodefree._plain_slots(Plain)
    for cls in (WithWeakref, WithDict, WithDel, Derived, NoSlots, int, str, tuple):
        assert not _nodefree._plain_slots(cls), cls
    assert _nodefree.install([Plain, WithDict, Derived, 3]) == [Plain]
    assert _nodefree.installed(Plain) and not _nodefree.installed(WithDict)


def test_freeing_a_node_releases_its_fields_and_class():
    held = Held()
    ref = weakref.ref(held)
    node = A.Binary("+", held, A.Literal(held), 3)
    with_node = sys.getrefcount(A.Binary)
    del node
    after = sys.getrefcount(A.Binary)  # (not in the assert: pytest's rewrite holds A.Binary)
    assert after == with_node - 1
    del held
    assert ref() is None


def test_a_deep_tree_is_freed_without_overflowing_the_c_stack():
    """(the trashcan: CPython's bound on the C recursion of nested deallocations)"""
    held = Held()
    ref = weakref.ref(held)
    node = A.Literal(held)
    for i in range(200_000):
        node = A.Unary("-", node, i)
    del held, node
    assert ref() is None


def test_a_python_subclass_of_a_node_is_freed_whole():
    """A subclass keeps CPython's deallocator, which clears its own slots and __dict__
    and then calls this one for the node's."""
    class Sub(A.Literal):
        __slots__ = ("extra",)

    class WithDict(A.Literal):
        pass

    for cls in (Sub, WithDict):
        held, extra = Held(), Held()
        refs = weakref.ref(held), weakref.ref(extra)
        node = cls(held)
        if cls is Sub:
            node.extra = extra
        else:
            node.other = extra
        before = sys.getrefcount(cls)
        del node
        after = sys.getrefcount(cls)
        assert after == before - 1
        del held, extra
        assert [r() for r in refs] == [None, None]


def test_a_node_in_a_cycle_is_collected():
    held = Held()
    ref = weakref.ref(held)
    items = [held]
    node = A.InList(A.Literal(1), items)
    items.append(node)
    del items, node, held
    gc.collect()
    assert ref() is None


def test_parsed_statements_are_freed():
    """A whole parsed statement (the parser's nodes made without their __init__) frees
    everything it held: no object is left behind by parsing many statements."""
    sql = ("SELECT DISTINCT a, -b, +c, t.d, count(*), f(e, 1), CAST(g AS INT), 'h' || x,"
           " i BETWEEN 1 AND 2, j IN (1, 2), CASE WHEN l THEN 4 END FROM t, u AS w"
           " JOIN v ON 1 WHERE o = 5 ORDER BY 1 DESC LIMIT 6")
    for _ in range(3):
        parser.parse_one(sql)
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(200):
        parsed = parser.parse_one(sql)
        del parsed
    gc.collect()
    assert len(gc.get_objects()) - before < 20


def test_deep_trees_of_nodes_lists_and_subclasses_are_freed():
    """Nodes in lists in nodes, and Python subclasses among them, many levels deep: the
    first levels are freed by plain recursion, the deeper ones through the trashcan
    (_nodefree.free_depth: its count of node frees under way is back to 0 after each)."""
    class Sub(A.Unary):
        __slots__ = ("extra",)

    plain_depth, under_way = _nodefree.free_depth()
    assert plain_depth > 1 and under_way == 0
    for depth in (plain_depth - 1, plain_depth, plain_depth + 1, 3 * plain_depth, 100_000):
        for shape in range(3):
            held = Held()
            ref = weakref.ref(held)
            node = A.Literal(held)
            for i in range(depth):
                if shape == 1 and i % 2:
                    node = A.InList(A.Literal(i), [A.Literal(i), node])
                elif shape == 2 and i % 3 == 0:
                    node = Sub("-", node, i)
                    node.extra = [node.operand]
                else:
                    node = A.Unary("-", node, i)
            del held, node
            assert ref() is None, (depth, shape)
            assert _nodefree.free_depth()[1] == 0
