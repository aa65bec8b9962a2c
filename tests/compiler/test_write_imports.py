"""The write-statement compiler modules import one another at module level (a function-level
import costs every statement that runs it); each must still import first, in a fresh
interpreter, whichever of them a program imports before the others (an import cycle that
takes a name from a module not yet finished would fail there)."""

import subprocess
import sys

import pytest

MODULES = ["autoinc", "delete", "fkey", "generated", "insert", "partial", "returning",
           "strict", "trigger", "update", "upsert"]


@pytest.mark.parametrize("name", MODULES)
def test_imports_first(name):
    code = (f"import sqlengine.compiler.{name}\n"
            "import sqlengine\n"
            "c = sqlengine.connect(':memory:')\n"
            "c.execute('CREATE TABLE t(a INTEGER PRIMARY KEY AUTOINCREMENT, b UNIQUE, "
            "c AS (b * 2))')\n"
            "c.execute('CREATE INDEX tb ON t(b) WHERE b > 0')\n"
            "print(c.execute('INSERT INTO t(b) VALUES (2) ON CONFLICT(b) DO UPDATE "
            "SET b = b + 1 RETURNING a, c').fetchall())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[(1, 4)]"
