"""A statement that fails to compile leaves no reference cycles behind: the error it
raises does not keep the compiler's frames (and through them its Parse, builder and
scopes) alive in a cycle, so the cyclic garbage collector need not run for it. The
errors here are the ones found again after the compile failed (compiler/resolve_order.py:
SQLite's order of checks), each handed back as an exception object."""

import gc
import types

import pytest

import sqlengine

# {k} differs on every run: each text is compiled anew
FAILING = [
    "UPDATE t1 SET z{k} = 'foo'",
    "UPDATE t1 SET z{k} = 'foo' WHERE x > 0",
    "UPDATE t1 SET x = 1, z{k} = 2",
    "UPDATE t1 SET z{k} = t2.a FROM t2",
    "INSERT INTO t1 VALUES ({k}, 'a') ON CONFLICT (x) DO UPDATE SET z{k} = 1",
]


def _is_engine(obj):
    # (the collector may also free other libraries' cycles made unreachable since the
    # last collection, e.g. by an earlier test's weak references: only the engine's own
    # objects, frames and tracebacks count here)
    if isinstance(obj, types.TracebackType):
        obj = obj.tb_frame
    if isinstance(obj, types.FrameType):
        return "sqlengine" in obj.f_code.co_filename
    return type(obj).__module__.startswith("sqlengine")


def _engine_garbage():
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
    finally:
        gc.set_debug(0)
    found = [type(o).__name__ for o in gc.garbage if _is_engine(o)]
    gc.garbage.clear()
    return found


@pytest.mark.parametrize("sql", FAILING)
def test_failed_compile_leaves_no_cycles(sql):
    con = sqlengine.connect(":memory:", isolation_level=None, cached_statements=0)
    con.executescript("CREATE TABLE t1(x INTEGER UNIQUE, y TEXT);"
                      "CREATE TABLE t2(a); INSERT INTO t1 VALUES (1, 'a');")
    with pytest.raises(sqlengine.OperationalError, match="no such column: z0"):
        con.execute(sql.format(k=0))
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for k in range(1, 4):
            with pytest.raises(sqlengine.OperationalError, match=f"no such column: z{k}"):
                con.execute(sql.format(k=k))
        assert _engine_garbage() == []
    finally:
        if enabled:
            gc.enable()
        con.close()
