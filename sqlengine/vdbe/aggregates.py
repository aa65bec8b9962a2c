"""SQLite's built-in aggregate functions: count, count(*), sum, total, avg, min, max,
group_concat (and string_agg, its 3.44 name).

Protocol (the VM's side): one instance per group (or per window partition), made as
``cls(ctx)`` where ``ctx`` is the function context of ``functions.py`` (min/max read
``ctx.collation`` once, at construction: the VM sets it first). Then

* ``step(*args)`` for each row (NULL handling is the aggregate's own business; DISTINCT is
  done by the VM before calling step). ``min``/``max`` return ``True`` from step when the
  row's value became the current best (the row whose other columns a bare column in
  ``SELECT max(x), y`` reports), ``False`` when SQLite would skip loading it.
* ``finalize()`` -> the result value (called once; may raise ``integer overflow``).
* for window frames: ``inverse(*args)`` removes a row previously stepped (oldest first) and
  ``value()`` gives the current result without ending the aggregate.

The classes themselves are compiled (``_aggregates.pyx``, which also gives the VM a direct
per-row entry point); this module is their registry. It never reads registers or storage;
values are plain Python SQL values.
"""

from __future__ import annotations

from sqlengine.vdbe._aggregates import Avg, Count, GroupConcat, Max, Min, Sum, Total


AGGREGATES = {
    ("count", 0): Count,
    ("count", 1): Count,
    ("sum", 1): Sum,
    ("total", 1): Total,
    ("avg", 1): Avg,
    ("min", 1): Min,
    ("max", 1): Max,
    ("group_concat", 1): GroupConcat,
    ("group_concat", 2): GroupConcat,
    ("string_agg", 2): GroupConcat,
}


def register(registry) -> None:
    """Add the aggregates to a ``functions.FunctionRegistry``."""
    from sqlengine.vdbe.functions import FuncDef

    for (name, nargs), cls in AGGREGATES.items():
        registry.add(FuncDef(name, nargs, cls, True, name in ("min", "max"), "aggregate"))
