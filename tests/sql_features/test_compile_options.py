"""PRAGMA compile_options, pragma_compile_options, sqlite_compileoption_used(X) and
sqlite_compileoption_get(N) against sqlite3: the rows' format and order, every listed limit
being the limit the engine enforces (one value past it fails with sqlite3's message), every
listed feature working, the options shared with sqlite3's list having its values, and the
two SQL functions answering as sqlite3's on inputs that do not depend on the list."""

import re
import sqlite3

import pytest

import sqlengine

ENGINES = (sqlite3, sqlengine)


def options(mod):
    con = mod.connect(":memory:")
    return [r[0] for r in con.execute("pragma compile_options")]


def as_dict(opts):
    return dict((o.split("=", 1) + [None])[:2] for o in opts)


OURS = as_dict(options(sqlengine))


def outcome(mod, sql, params=(), setup=()):
    con = mod.connect(":memory:")
    for s in setup:
        con.execute(s)
    try:
        return ("ok", con.execute(sql, params).fetchall())
    except sqlite3.Error as e:
        return ("error", type(e).__name__, str(e))
    except sqlengine.Error as e:
        return ("error", type(e).__name__, str(e))


def same(sql, params=(), setup=()):
    """Both engines' outcome of ``sql``; asserts they agree and returns it."""
    a = outcome(sqlite3, sql, params, setup)
    b = outcome(sqlengine, sql, params, setup)
    assert b == a, sql[:200]
    return a


def limit(name) -> int:
    return int(OURS[name])


def test_rows_format_and_order():
    rows = sqlengine.connect(":memory:").execute("pragma compile_options").fetchall()
    opts = [r[0] for r in rows]
    assert opts, "no options listed"
    assert all(len(r) == 1 and isinstance(r[0], str) for r in rows)
    assert opts == sorted(opts) and len(set(opts)) == len(opts)
    for o in opts:
        assert re.fullmatch(r"[A-Z][A-Z0-9_]*(=-?[0-9A-Za-z_.]+)?", o), o
        assert not o.startswith("SQLITE_")
    # sqlite3 lists its own in the same format
    assert all(re.fullmatch(r"[A-Z][A-Z0-9_]*(=.+)?", o) for o in options(sqlite3))


def test_shared_options_have_sqlite_values():
    theirs = as_dict(options(sqlite3))
    shared = set(OURS) & set(theirs)
    assert {"MAX_COLUMN", "MAX_EXPR_DEPTH", "THREADSAFE"} <= shared
    assert {k: OURS[k] for k in shared} == {k: theirs[k] for k in shared}


def test_table_valued_function():
    for mod in ENGINES:
        con = mod.connect(":memory:")
        cur = con.execute("select * from pragma_compile_options")
        assert [d[0] for d in cur.description] == ["compile_options"]
        assert [r[0] for r in cur] == options(mod)
    same("select count(*) = (select count(*) from pragma_compile_options) from "
         "pragma_compile_options where compile_options like 'MAX%'")


@pytest.mark.parametrize("expr", [
    "sqlite_compileoption_used(null)", "typeof(sqlite_compileoption_used('x'))",
    "sqlite_compileoption_used('SQLITE_MAX_COLUMN')", "sqlite_compileoption_used('sqlite_max_column')",
    "sqlite_compileoption_used('max_column=2000')", "sqlite_compileoption_used('MAX_COL')",
    "sqlite_compileoption_used('MAX_COLUMN=20')", "sqlite_compileoption_used('MAX_COLUMN=')",
    "sqlite_compileoption_used('THREADSAFE')", "sqlite_compileoption_used(1)",
    "sqlite_compileoption_used('')", "sqlite_compileoption_used('SQLITE_')",
    "sqlite_compileoption_get(-1)", "sqlite_compileoption_get(100000)",
    "typeof(sqlite_compileoption_get(0))",
    "sqlite_compileoption_get(null) = sqlite_compileoption_get(0)",
    "sqlite_compileoption_get('1') = sqlite_compileoption_get(1.9)",
    "(select min(sqlite_compileoption_used(compile_options)) from pragma_compile_options)",
    "(select count(*) from pragma_compile_options where sqlite_compileoption_used("
    "'SQLITE_' || lower(compile_options)) = 0)",
])
def test_compileoption_functions(expr):
    same(f"select {expr}")


def test_compileoption_get_walks_the_list():
    for mod in ENGINES:
        con = mod.connect(":memory:")
        opts = options(mod)
        got = [con.execute("select sqlite_compileoption_get(?)", (i,)).fetchone()[0]
               for i in range(len(opts) + 1)]
        assert got == opts + [None]


# Each option sqlengine lists needs a check here that it is true of sqlengine.

def check_max_column():
    n = limit("MAX_COLUMN")
    cols = lambda k: ", ".join(f"c{i}" for i in range(k))  # noqa: E731
    assert same(f"create table t({cols(n)})")[0] == "ok"
    assert same(f"create table t({cols(n + 1)})") == ("error", "OperationalError",
                                                       "too many columns on t")
    assert same(f"select {cols(n + 1)} from (select 1 c0)")[0] == "error"
    assert same(f"select {', '.join(['1'] * (n + 1))}")[2] == "too many columns in result set"


def check_max_expr_depth():
    n = limit("MAX_EXPR_DEPTH")
    assert same("select 1" + "+1" * (n - 1))[0] == "ok"
    assert same("select 1" + "+1" * n)[2] == f"Expression tree is too large (maximum depth {n})"


def check_max_function_arg():
    n = limit("MAX_FUNCTION_ARG")
    assert same(f"select max({', '.join(['1'] * n)})")[0] == "ok"
    assert same(f"select max({', '.join(['1'] * (n + 1))})")[2] == "too many arguments on function max"


def check_max_compound_select():
    n = limit("MAX_COMPOUND_SELECT")
    assert same(" union all ".join(["select 1"] * n))[0] == "ok"
    assert same(" union all ".join(["select 1"] * (n + 1)))[2] == "too many terms in compound SELECT"


def check_max_variable_number():
    n = limit("MAX_VARIABLE_NUMBER")
    assert same(f"select ?{n + 1}")[2] == f"variable number must be between ?1 and ?{n}"
    assert same(f"select ?{n}", (None,) * n)[0] == "ok"


def check_max_attached():
    n = limit("MAX_ATTACHED")
    for mod in ENGINES:
        con = mod.connect(":memory:")
        for i in range(n):
            con.execute(f"attach ':memory:' as a{i}")
        with pytest.raises(mod.OperationalError, match=f"^too many attached databases - max {n}$"):
            con.execute("attach ':memory:' as extra")


def check_max_like_pattern_length():
    n = limit("MAX_LIKE_PATTERN_LENGTH")
    assert same("select 'a' like ?", ("a" * n,)) == ("ok", [(0,)])
    assert same("select 'a' like ?", ("a" * (n + 1),))[2] == "LIKE or GLOB pattern too complex"


def check_max_length():
    n = limit("MAX_LENGTH")
    assert sqlengine.connect(":memory:").getlimit(sqlengine.SQLITE_LIMIT_LENGTH) == n
    assert same(f"select zeroblob({n + 1})")[2] == "string or blob too big"


def check_max_page_size():
    n = limit("MAX_PAGE_SIZE")
    for size, want in ((n, n), (2 * n, int(OURS["DEFAULT_PAGE_SIZE"]))):
        assert same("pragma page_size", setup=(f"pragma page_size={size}",
                                               "create table t(x)")) == ("ok", [(want,)])


def check_default_page_size():
    assert same("pragma page_size", setup=("create table t(x)",)) == (
        "ok", [(limit("DEFAULT_PAGE_SIZE"),)])


def check_default_cache_size():
    assert same("pragma cache_size") == ("ok", [(limit("DEFAULT_CACHE_SIZE"),)])


def check_threadsafe():
    # the stdlib module's own mapping from SQLITE_THREADSAFE to DB-API threadsafety
    dbapi_level = {0: 0, 1: 3, 2: 1}
    assert dbapi_level[limit("THREADSAFE")] == sqlengine.threadsafety
    assert dbapi_level[int(as_dict(options(sqlite3))["THREADSAFE"])] == sqlite3.threadsafety


def check_enable_math_functions():
    assert same("select pi(), sqrt(16), log2(8), mod(7, 3)")[0] == "ok"


def check_enable_update_delete_limit():
    setup = ("create table t(x)", "insert into t values (3),(1),(2)",
             "delete from t order by x limit 1", "update t set x = 0 order by x desc limit 1")
    assert same("select x from t order by rowid", setup=setup) == ("ok", [(0,), (2,)])


def check_like_doesnt_match_blobs():
    assert same("select x'61' like 'a', x'61' glob 'a', cast(x'61' as text) like 'a'") == (
        "ok", [(0, 0, 1)])


def check_soundex():
    assert same("select soundex('Robert'), soundex('Tymczak')") == ("ok", [("R163", "T522")])


CHECKS = {name[6:].upper(): fn for name, fn in globals().items() if name.startswith("check_")}


@pytest.mark.parametrize("name", sorted(OURS))
def test_option_is_true_of_sqlengine(name):
    assert name in CHECKS, f"{name} is listed but nothing checks it"
    CHECKS[name]()
