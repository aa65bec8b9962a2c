"""Declares sqlengine's compiled (Cython) extensions and builds them.

Run directly (``python build.py [NAME ...]``) to compile the extensions in place, optionally
only those whose module name contains one of the NAMEs; ``pip install .`` and
``pip install -e .`` reach the same declarations through ``setup.py``. Every ``.pyx`` file
under ``sqlengine/`` is an extension module of the same dotted name. This file only
declares and builds; it never holds engine code.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def _module_name(pyx: Path) -> str:
    return ".".join(pyx.relative_to(ROOT).with_suffix("").parts)


def pyx_sources(names: list[str] | None = None) -> list[Path]:
    found = sorted((ROOT / "sqlengine").rglob("*.pyx"))
    if names:
        found = [p for p in found if any(n in _module_name(p) for n in names)]
    return found


def _check_compiler() -> None:
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        sys.exit(
            f"sqlengine: no C compiler found ({cc!r} is not on PATH).\n"
            "sqlengine compiles its hot paths with Cython and needs a C compiler:\n"
            "  Debian/Ubuntu: apt-get install gcc python3-dev\n"
            "  macOS:         xcode-select --install"
        )


def extensions(names: list[str] | None = None):
    """The setuptools Extension objects, cythonized."""
    from Cython.Build import cythonize
    from setuptools import Extension

    exts = [
        Extension(_module_name(p), [str(p.relative_to(ROOT))], extra_compile_args=["-O2"])
        for p in pyx_sources(names)
    ]
    return cythonize(
        exts,
        compiler_directives={
            "language_level": 3,
            "boundscheck": True,
            "wraparound": True,
            "cdivision": True,
            "initializedcheck": False,
        },
        quiet=True,
        nthreads=0,
    )


def setup_kwargs(names: list[str] | None = None) -> dict:
    _check_compiler()
    return {"ext_modules": extensions(names)}


def main(argv: list[str]) -> None:
    from setuptools import setup

    os.chdir(ROOT)
    names = [a for a in argv if not a.startswith("-")]
    setup(script_args=["build_ext", "--inplace", "-j", "2"], **setup_kwargs(names))


if __name__ == "__main__":
    main(sys.argv[1:])
