"""The rows of PRAGMA function_list and module_list (and their pragma_NAME() forms).

``function_list`` lists what this engine provides, one row per function and argument
count (-1: any), with SQLite's columns name, builtin, type, enc, narg, flags: the built-in
functions (``vdbe.functions.BUILTINS``), the window-only functions the compiler codes
itself (``compiler.window``), then the connection's own (``create_function`` and the
like, builtin 0; a built-in a user function overrides is listed under both). ``type`` is
's' for a scalar, 'w' for an aggregate that may be a window function (every built-in
one; a user one from ``create_window_function``) and 'a' for another aggregate.

``flags`` is, as SQLite shows it, the function's SQLITE_DETERMINISTIC (0x800),
SQLITE_DIRECTONLY (0x80000), SQLITE_SUBTYPE (0x100000) and SQLITE_INNOCUOUS (0x200000)
bits. A built-in is innocuous except the JSON functions (3.40 registers those without
the flag); a scalar is deterministic when the engine treats it so (an index expression
may call it); a built-in aggregate is not, except json_group_array and json_group_object,
which are deterministic and set a subtype. A user function carries only its
``deterministic``. The engine has no DIRECTONLY function (it has no load_extension or
fts3_tokenizer).

``module_list`` names the table-valued functions (SQLite's eponymous virtual tables) the
engine has: json_each and json_tree, and each pragma_NAME function from the first
statement of the connection that named it in FROM (SQLite registers its module when a
statement is prepared with it, even one that then fails; a CREATE VIEW naming it does
not, a SELECT from that view does). The newest comes first, as in SQLite's module hash
table while it holds fewer than ten (no buckets yet: a new element goes to the head of
its list); SQLite, which also has FTS, R*Tree, dbstat and sqlite_stmt, orders them by
its string hash beyond that, which this engine does not model. The rows are computed
when the statement runs (a prepared module_list sees the modules registered after it).

This module only computes rows; pragma.py emits them.
"""

from __future__ import annotations

from sqlengine.compiler.tablefunc import TABLE_FUNCTIONS
from sqlengine.vdbe.functions import BUILTINS

DETERMINISTIC = 0x800
SUBTYPE = 0x100000
INNOCUOUS = 0x200000

# The window-only functions and the argument counts SQLite registers for each.
WINDOW_ARGS = {"row_number": (0,), "rank": (0,), "dense_rank": (0,), "percent_rank": (0,),
               "cume_dist": (0,), "ntile": (1,), "lag": (1, 2, 3), "lead": (1, 2, 3),
               "first_value": (1,), "last_value": (1,), "nth_value": (2,)}

_SUBTYPE_AGGREGATES = ("json_group_array", "json_group_object")


def _builtin_row(f):
    json = f.name.startswith("json") or f.name in ("->", "->>")
    flags = 0 if json else INNOCUOUS
    if f.kind == "scalar":
        if f.deterministic:
            flags |= DETERMINISTIC
        return (f.name, 1, "s", "utf8", f.nargs, flags)
    if f.name in _SUBTYPE_AGGREGATES:
        flags |= DETERMINISTIC | SUBTYPE
    return (f.name, 1, "w", "utf8", f.nargs, flags)


def _user_row(f):
    if f.kind == "scalar":
        return (f.name, 0, "s", "utf8", f.nargs, DETERMINISTIC if f.deterministic else 0)
    # (a user aggregate's FuncDef makes a UserAggregate around the DB-API's factory, whose
    # ``window`` says whether it came from create_window_function; no user code runs)
    factory = getattr(f.func(None), "cls", None)
    window = getattr(factory, "window", True)
    return (f.name, 0, "w" if window else "a", "utf8", f.nargs, 0)


def function_rows(registry) -> list[tuple]:
    """The rows of PRAGMA function_list for a connection whose function registry is
    ``registry`` (its parent chain ends in BUILTINS)."""
    rows = []
    for defs in BUILTINS._defs.values():
        rows.extend(_builtin_row(f) for f in defs.values())
    for name, counts in WINDOW_ARGS.items():
        rows.extend((name, 1, "w", "utf8", n, INNOCUOUS) for n in counts)
    reg = registry
    while reg is not None and reg is not BUILTINS:
        for defs in reg._defs.values():
            rows.extend(_user_row(f) for f in defs.values())
        reg = reg.parent
    return rows


def register_module(db, name):
    """Note that a statement of connection ``db`` named pragma function ``name``."""
    mods = getattr(db, "pragma_modules", None)
    if mods is None:
        mods = db.pragma_modules = []
    low = name.lower()
    if low not in mods:
        mods.append(low)


def module_names(db) -> list[str]:
    """The names PRAGMA module_list gives, newest first."""
    used = getattr(db, "pragma_modules", None) or []
    return used[::-1] + sorted(TABLE_FUNCTIONS, reverse=True)
