"""Keeps the compiled copy of a plain-Python module from outliving its source.

``build.py`` compiles a few plain-Python modules (its ``PY_COMPILED``: the statement
compiler's hot path) with Cython as well, and records the SHA-256 of each source it
compiled in ``_compiled_sources.txt`` beside this file. Python's own finders load an
extension module in preference to the ``.py`` beside it, even after that ``.py`` was
edited or checked out anew; the finder here, first on ``sys.meta_path``, hands out the
``.py`` instead whenever a module of this package has both and the source is not the one
recorded. So an edit always runs, compiled or not: ``python build.py`` makes it fast again.

Importing this module installs the finder (``sqlengine/__init__.py`` does so before it
imports anything else). It looks only at modules of this package, never compiles or writes
anything, and leaves every other module to the normal finders.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys

MANIFEST = "_compiled_sources.txt"


def read_manifest(path: str) -> dict:
    """{module name: SHA-256 of its compiled source} (empty without a manifest)."""
    out = {}
    try:
        with open(path, encoding="ascii") as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2:
                    out[parts[0]] = parts[1]
    except OSError:
        pass
    return out


class SourceGuard:
    """A meta path finder for the modules of package ``package`` at directory ``root``."""

    def __init__(self, package: str, root: str):
        self.package = package
        self.prefix = package + "."
        self.root = root
        self.hashes = read_manifest(os.path.join(root, MANIFEST))
        self.stale: list = []  # the modules imported from source although compiled

    def find_spec(self, name, path=None, target=None):
        if not name.startswith(self.prefix):
            return None
        base = os.path.join(self.root, *name[len(self.prefix):].split("."))
        source = base + ".py"
        if not any(os.path.exists(base + s) for s in importlib.machinery.EXTENSION_SUFFIXES):
            return None
        try:
            with open(source, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
        except OSError:  # no .py: an extension of its own (a .pyx module)
            return None
        if digest == self.hashes.get(name):
            return None  # the extension was compiled from this very source
        self.stale.append(name)
        return importlib.util.spec_from_file_location(name, source)


def install(package: str, root: str) -> SourceGuard:
    """Put the guard of ``package`` first on ``sys.meta_path`` (once)."""
    for f in sys.meta_path:
        if isinstance(f, SourceGuard) and f.package == package:
            return f
    guard = SourceGuard(package, root)
    sys.meta_path.insert(0, guard)
    return guard


install(__package__, os.path.dirname(os.path.abspath(__file__)))
