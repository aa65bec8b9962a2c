"""The built-in window functions' arguments, as SQLite 3.40 checks and converts them.

At compile time: how many arguments each built-in window function takes (SQLite registers
one definition per count, so another count is 'wrong number of arguments to function
f()'; ``f(*)`` counts as no argument), and the error of such a function called without
OVER ('misuse of window function f()', its argument count checked first).

At run time: the value an argument stands for. ntile's N is read as an integer
(sqlite3_value_int64: a REAL truncated, TEXT or BLOB by its integer prefix) from the
first row of each partition. nth_value's N must be an integer once numeric affinity has
run (OP_MustBeInt: '2', 2.0 and ' 2 ' are 2; 1.5, 'x', a BLOB and NULL are not). lag's
and lead's offset is subtracted from or added to the row's number in its partition as
SQLite's arithmetic does it (so 'x' is 0, a negative offset looks the other way), and a
result that is no integer (NULL, 1.5 away) finds no row: the default.
"""

from __future__ import annotations

from sqlengine.errors import OperationalError
from sqlengine.vdbe._values import (
    add, apply_numeric_affinity, integer_affinity, sub, to_int)

# the numbers of arguments each built-in window function accepts
_COUNTS = {
    "row_number": (0,), "rank": (0,), "dense_rank": (0,), "percent_rank": (0,),
    "cume_dist": (0,), "ntile": (1,), "lag": (1, 2, 3), "lead": (1, 2, 3),
    "first_value": (1,), "last_value": (1,), "nth_value": (2,),
}


def count_error(e):
    """'wrong number of arguments to function f()' for a call ``e`` of the built-in
    window function it names with a count SQLite has no definition for, else None."""
    counts = _COUNTS.get(e.name.lower())
    if counts is None or (0 if e.star else len(e.args)) in counts:
        return None
    return OperationalError(f"wrong number of arguments to function {e.name}()")


def without_over_error(e):
    """The error of a call ``e`` of a built-in window function written without OVER:
    its argument count's error, else 'misuse of window function f()'; None when ``e``
    names no built-in window function."""
    if e.name.lower() not in _COUNTS:
        return None
    return count_error(e) or OperationalError(f"misuse of window function {e.name}()")


def ntile_buckets(value):
    """ntile's N from its argument's value; raises SQLite's error when it is not positive."""
    n = to_int(value)
    if n <= 0:
        raise OperationalError("argument of ntile must be a positive integer")
    return n


def nth_value_index(value):
    """nth_value's N from its argument's value; raises SQLite's error unless it is a
    positive integer after numeric affinity."""
    if type(value) is float:
        value = integer_affinity(value)
    elif type(value) is str:
        value = apply_numeric_affinity(value, True)
    if type(value) is not int or value <= 0:
        raise OperationalError("second argument to nth_value must be a positive integer")
    return value


def offset_row(k, offset, lead):
    """The 0-based position lag (``lead`` False) or lead reads for the row at position
    ``k`` with offset value ``offset``, or None when it names no position (NULL, or a
    number that is no integer); the caller checks the partition's bounds."""
    at = add(k + 1, offset) if lead else sub(k + 1, offset)
    if type(at) is float:
        at = integer_affinity(at)
    if type(at) is not int:
        return None
    return at - 1
