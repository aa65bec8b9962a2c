# cython: language_level=3
"""Frees the AST's nodes (``sql.ast``'s slotted dataclasses) with a deallocator of their own.

Every statement's tree is freed once (when the parse cache lets it go), a node at a time,
and CPython frees an instance of a class written in Python with ``subtype_dealloc``, which
is generic: it checks for finalizers, ``__del__``, weak references and an instance
dict, and walks the class's member table to find the slots to clear. A node has none of
those, only its object slots, laid out one after the other behind the object header; for
such a class ``install`` puts in ``free_node``, which does what ``subtype_dealloc`` comes
to for it (untrack it from the garbage collector, clear each slot, free the memory,
release the class) in about a third of the instructions.

Freeing a node frees the nodes only it held, each inside the other's free: a statement's
tree is a few levels deep, a tree of nested expressions can be thousands. CPython bounds
that C recursion with its trashcan (past a depth, an object is set aside and freed when
the outermost free returns), whose calls cost a node about a fifth of its free; here a
count of the node frees under way lets the first FREE_PLAIN_DEPTH levels recurse plainly,
and only the deeper ones go through the trashcan.

A class is only given ``free_node`` after ``_plain_slots`` checked the layout that relies
on; any other class keeps CPython's deallocator. A subclass written in Python keeps
``subtype_dealloc``, which clears the subclass's own slots and then calls the base's
deallocator (this one) as for any base class with a deallocator of its own. This module
only frees nodes; it never makes or reads one.
"""

import types

from cpython.object cimport PyObject, PyTypeObject, destructor

cdef extern from *:
    """
    /* Node frees under way, one inside another (all threads': a thread's own nesting
       is never more). Below FREE_PLAIN_DEPTH a node is freed by plain recursion; at or
       past it through the trashcan, as CPython's own deallocators are (whose levels it
       bounds in turn). A Python subclass's instance is in the trashcan already
       (subtype_dealloc, which calls this one as its base's): never a second time. */
    #define FREE_PLAIN_DEPTH 50
    static int sqlengine_free_depth = 0;

    static void sqlengine_free_node(PyObject *o)
    {
        PyTypeObject *type = Py_TYPE(o), *base = type;
        PyObject **slots;
        Py_ssize_t i, n;
        PyObject_GC_UnTrack(o);
        Py_TRASHCAN_BEGIN_CONDITION(o, sqlengine_free_depth >= FREE_PLAIN_DEPTH
                                       && type->tp_dealloc == sqlengine_free_node)
        /* (a Python subclass's own slots were cleared by subtype_dealloc: the node class
           is the first base freed here) */
        while (base->tp_dealloc != sqlengine_free_node)
            base = base->tp_base;
        slots = (PyObject **)((char *)o + sizeof(PyObject));
        n = (base->tp_basicsize - (Py_ssize_t)sizeof(PyObject)) / (Py_ssize_t)sizeof(PyObject *);
        sqlengine_free_depth++;
        for (i = 0; i < n; i++)
            Py_CLEAR(slots[i]);
        sqlengine_free_depth--;
        base->tp_free(o);
        Py_DECREF(type);  /* (a heap type's instances hold a reference to it) */
        Py_TRASHCAN_END
    }
    """
    void sqlengine_free_node(PyObject *o)
    int sqlengine_free_depth
    int FREE_PLAIN_DEPTH

cdef extern from "Python.h":
    unsigned long Py_TPFLAGS_HEAPTYPE, Py_TPFLAGS_HAVE_GC, Py_TPFLAGS_MANAGED_DICT

cdef int _T_OBJECT_EX = 16  # (structmember.h: an object slot, AttributeError when unset)


cdef extern from *:
    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef *d_member


class _Probe:
    """A class written in Python: its deallocator is CPython's subtype_dealloc."""
    __slots__ = ("a",)


def _plain_slots(cls):
    """``cls`` is a heap type with the garbage collector's support whose instances hold
    its own object slots and nothing else (no __dict__, no __weakref__, no items), made of
    ``object`` directly, freed by subtype_dealloc with neither __del__ nor a finalizer."""
    cdef PyTypeObject *t = <PyTypeObject *> cls
    cdef PyTypeObject *probe = <PyTypeObject *> _Probe
    cdef Py_ssize_t n = (t.tp_basicsize - sizeof(PyObject)) // sizeof(PyObject *)
    if type(cls) is not type or cls.__bases__ != (object,):
        return False
    if not (t.tp_flags & Py_TPFLAGS_HEAPTYPE) or not (t.tp_flags & Py_TPFLAGS_HAVE_GC) \
            or t.tp_flags & Py_TPFLAGS_MANAGED_DICT:
        return False
    if t.tp_dealloc != probe.tp_dealloc or t.tp_finalize != NULL or t.tp_del != NULL:
        return False
    if t.tp_itemsize or cls.__dictoffset__ or cls.__weakrefoffset__ or n < 1 \
            or t.tp_basicsize != <Py_ssize_t> sizeof(PyObject) + n * sizeof(PyObject *):
        return False
    slots = cls.__dict__.get("__slots__")
    if isinstance(slots, str) or slots is None or len(tuple(slots)) != n:
        return False
    offsets = set()
    for name in slots:
        d = cls.__dict__.get(name)
        if type(d) is not types.MemberDescriptorType:
            return False
        m = (<PyMemberDescrObject *> d).d_member
        if m.type != _T_OBJECT_EX:
            return False
        offsets.add(m.offset)
    return offsets == {sizeof(PyObject) + i * sizeof(PyObject *) for i in range(n)}


def install(classes):
    """Give each class of ``classes`` that passes ``_plain_slots`` the node deallocator;
    returns the classes given it."""
    done = []
    for cls in classes:
        if isinstance(cls, type) and _plain_slots(cls):
            (<PyTypeObject *> cls).tp_dealloc = <destructor> sqlengine_free_node
            done.append(cls)
    return done


def installed(cls):
    """Whether ``cls`` is freed by the node deallocator."""
    return (<PyTypeObject *> cls).tp_dealloc == <destructor> sqlengine_free_node


def free_depth():
    """(FREE_PLAIN_DEPTH, the node frees under way now): the second is 0 between frees."""
    return FREE_PLAIN_DEPTH, sqlengine_free_depth
