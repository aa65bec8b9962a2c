"""Random tables (integers, reals, awkward text, BLOBs with stray bytes, NULLs) printed in
every output mode, compared byte for byte with the sqlite3 shell (fixed seed)."""

from __future__ import annotations

import random

MODES = ("list", "csv", "column", "box", "table", "markdown", "json", "line", "insert",
         "quote", "tabs", "html", "ascii", "qbox", "tcl")
_CHARS = "ab ,\"'|\t\n\r;é☃x<>&\\"


def _value(rng):
    kind = rng.randrange(7)
    if kind == 0:
        return "NULL"
    if kind == 1:
        return str(rng.randint(-10**12, 10**12))
    if kind == 2:
        return repr(rng.choice([0.5, -1.25, 1e-5, 123456.789, 1e100, 3.0, 2.5e-300, 0.1]))
    if kind == 3:
        text = "".join(rng.choice(_CHARS) for _ in range(rng.randrange(8)))
        return "'" + text.replace("'", "''") + "'"
    if kind == 4:
        return "x'" + "".join(rng.choice("0123456789abcdef") for _ in range(2 * rng.randrange(4))) + "'"
    if kind == 5:
        return "''"
    return str(rng.randint(0, 9))


def _script(seed):
    rng = random.Random(seed)
    ncol = rng.randint(1, 4)
    script = f"create table t({', '.join(f'c{i}' for i in range(ncol))});\n"
    for _ in range(rng.randint(0, 4)):
        script += f"insert into t values({', '.join(_value(rng) for _ in range(ncol))});\n"
    for mode in MODES:
        script += f".mode {mode}\n.headers {rng.choice(['on', 'off'])}\nselect * from t;\n"
    return script


SCENARIOS = {f"seed-{seed}": (_script(seed), ()) for seed in range(12)}


def test_random_tables_match_sqlite3(shell, scenario):
    script, args = SCENARIOS[scenario]
    assert shell.ours(script, args) == shell.sqlite3(script, args)
