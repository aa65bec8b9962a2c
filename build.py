"""Declares sqlengine's compiled (Cython) extensions and builds them.

Run directly (``python build.py [NAME ...]``) to compile the extensions in place, optionally
only those whose module name contains one of the NAMEs; ``pip install .`` and
``pip install -e .`` reach the same declarations through ``setup.py``. Every ``.pyx`` file
under ``sqlengine/`` is an extension module of the same dotted name.

The plain-Python modules in ``PY_COMPILED`` (the statement compiler's hot path: the corpus
prepares every statement once, so compiling is most of its time) are compiled from their
``.py`` source too, unchanged: Cython's pure-Python mode, with annotations not taken as
types. The ``.py`` stays the source and runs as it is when not built. Python would prefer
a module's extension to its ``.py`` even after the ``.py`` was edited, so the build records
the SHA-256 of each source it compiled (``sqlengine/_compiled_sources.txt``) and
``sqlengine/_source_guard.py`` imports the ``.py`` whenever it no longer matches. This file
only declares and builds; it never holds engine code.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent

# Plain-Python modules also compiled (see the docstring); paths relative to ROOT.
PY_COMPILED = (
    "sqlengine/compiler/aggscope.py",
    "sqlengine/compiler/alias.py",
    "sqlengine/compiler/delete.py",
    "sqlengine/compiler/explain.py",
    "sqlengine/compiler/expr.py",
    "sqlengine/compiler/flatten.py",
    "sqlengine/compiler/fkey.py",
    "sqlengine/compiler/generated.py",
    "sqlengine/compiler/insert.py",
    "sqlengine/compiler/nestedfrom.py",
    "sqlengine/compiler/plan_minmax.py",
    "sqlengine/compiler/plan_terms.py",
    "sqlengine/compiler/planner.py",
    "sqlengine/compiler/resolve.py",
    "sqlengine/compiler/rightjoin.py",
    "sqlengine/compiler/select.py",
    "sqlengine/compiler/statement.py",
    "sqlengine/compiler/strict.py",
    "sqlengine/compiler/subtype.py",
    "sqlengine/compiler/update.py",
    "sqlengine/compiler/walk.py",
    "sqlengine/compiler/window.py",
    "sqlengine/errors.py",  # (every error raised calls Error.__init__)
    "sqlengine/schema.py",  # (a DDL statement rebuilds the schema, a cold open builds it)
    "sqlengine/sql/builder.py",
    "sqlengine/sql/cache.py",  # (every statement prepared looks its text up there)
    "sqlengine/vdbe/functions_bridge.py",
    "sqlengine/vdbe/sorter.py",
)
SOURCES_MANIFEST = "sqlengine/_compiled_sources.txt"  # read by sqlengine/_source_guard.py


def _module_name(pyx: Path) -> str:
    return ".".join(pyx.relative_to(ROOT).with_suffix("").parts)


def _selected(paths, names):
    if names:
        paths = [p for p in paths if any(n in _module_name(p) for n in names)]
    return paths


def pyx_sources(names: list[str] | None = None) -> list[Path]:
    return _selected(sorted((ROOT / "sqlengine").rglob("*.pyx")), names)


def py_sources(names: list[str] | None = None) -> list[Path]:
    return _selected([ROOT / p for p in PY_COMPILED], names)


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_manifest(path: Path) -> dict:
    """{module name: SHA-256 of the source its extension was compiled from}."""
    out = {}
    if path.is_file():
        for line in path.read_text().splitlines():
            parts = line.split()
            if len(parts) == 2:
                out[parts[0]] = parts[1]
    return out


def _check_compiler() -> None:
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        sys.exit(
            f"sqlengine: no C compiler found ({cc!r} is not on PATH).\n"
            "sqlengine compiles its hot paths with Cython and needs a C compiler:\n"
            "  Debian/Ubuntu: apt-get install gcc python3-dev\n"
            "  macOS:         xcode-select --install"
        )


def _extension(path: Path):
    from setuptools import Extension

    return Extension(_module_name(path), [str(path.relative_to(ROOT))],
                     extra_compile_args=["-O2"])


def extensions(names: list[str] | None = None):
    """The setuptools Extension objects, cythonized; each compiled ``.py`` one carries
    ``source_sha256``, the hash of the source Cython read."""
    from Cython.Build import cythonize

    exts = cythonize(
        [_extension(p) for p in pyx_sources(names)],
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
    py = py_sources(names)
    if py:
        hashes = {_module_name(p): source_hash(p) for p in py}
        py_exts = cythonize(
            [_extension(p) for p in py],
            # Python semantics throughout: no annotation is a C type, division as Python's
            compiler_directives={"language_level": 3, "binding": True,
                                 "annotation_typing": False},
            quiet=True,
            nthreads=0,
        )
        for e in py_exts:
            e.source_sha256 = hashes[e.name]
        exts += py_exts
    return exts


def _build_ext_class():
    """build_ext that records, once every extension is built, the hashes of the ``.py``
    sources compiled (merged into the manifest, so a partial build keeps the others)."""
    from setuptools.command.build_ext import build_ext

    class BuildExt(build_ext):
        def run(self):
            super().run()
            base = ROOT if self.inplace else Path(self.build_lib)
            manifest = base / SOURCES_MANIFEST
            entries = read_manifest(manifest)
            for e in self.extensions:
                if getattr(e, "source_sha256", None):
                    entries[e.name] = e.source_sha256
            if entries:
                manifest.parent.mkdir(parents=True, exist_ok=True)
                manifest.write_text("".join(f"{k} {v}\n" for k, v in sorted(entries.items())))

    return BuildExt


def setup_kwargs(names: list[str] | None = None) -> dict:
    _check_compiler()
    return {"ext_modules": extensions(names), "cmdclass": {"build_ext": _build_ext_class()}}


def main(argv: list[str]) -> None:
    from setuptools import setup

    os.chdir(ROOT)
    names = [a for a in argv if not a.startswith("-")]
    setup(script_args=["build_ext", "--inplace", "-j", "2"], **setup_kwargs(names))


if __name__ == "__main__":
    main(sys.argv[1:])
