"""sqlengine/_source_guard.py: a module compiled from its .py runs as the extension only
while the .py is the source build.py compiled; an edited (or unrecorded) .py runs from
source. The package's own modules are checked for consistency with the manifest."""

import hashlib
import importlib.machinery
import os
import sys

import sqlengine
from sqlengine import _source_guard as G

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _package(tmp_path, source, recorded):
    """A package ``gpkg`` with module ``m`` as source and a (dummy) extension of it, and
    a manifest recording ``recorded`` as the hash m was compiled from."""
    pkg = tmp_path / "gpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "m.py").write_text(source)
    (pkg / ("m" + SUFFIX)).write_bytes(b"not really an extension")
    (pkg / "plain.py").write_text("X = 1\n")
    if recorded is not None:
        (pkg / G.MANIFEST).write_text(f"gpkg.m {recorded}\n")
    return pkg


def _sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def test_current_source_leaves_the_extension(tmp_path):
    pkg = _package(tmp_path, "X = 1\n", _sha("X = 1\n"))
    guard = G.SourceGuard("gpkg", str(pkg))
    assert guard.find_spec("gpkg.m") is None  # the normal finders load the extension
    assert guard.stale == []


def test_edited_source_is_imported_from_source(tmp_path):
    pkg = _package(tmp_path, "X = 2\n", _sha("X = 1\n"))
    guard = G.SourceGuard("gpkg", str(pkg))
    spec = guard.find_spec("gpkg.m")
    assert spec is not None and spec.origin == str(pkg / "m.py")
    assert isinstance(spec.loader, importlib.machinery.SourceFileLoader)
    assert guard.stale == ["gpkg.m"]


def test_unrecorded_or_no_manifest_is_imported_from_source(tmp_path):
    pkg = _package(tmp_path, "X = 1\n", None)
    spec = G.SourceGuard("gpkg", str(pkg)).find_spec("gpkg.m")
    assert spec is not None and spec.origin == str(pkg / "m.py")


def test_other_modules_are_left_alone(tmp_path):
    pkg = _package(tmp_path, "X = 2\n", _sha("X = 1\n"))
    guard = G.SourceGuard("gpkg", str(pkg))
    assert guard.find_spec("gpkg.plain") is None  # no extension beside it
    assert guard.find_spec("gpkgx.m") is None
    assert guard.find_spec("json") is None


def test_guard_imports_the_edited_source(tmp_path, monkeypatch):
    pkg = _package(tmp_path, "X = 2\n", _sha("X = 1\n"))
    monkeypatch.syspath_prepend(str(tmp_path))
    guard = G.SourceGuard("gpkg", str(pkg))
    monkeypatch.setattr(sys, "meta_path", [guard] + sys.meta_path)
    try:
        import gpkg.m  # the dummy extension would fail to load
        assert gpkg.m.X == 2
    finally:
        for name in ("gpkg.m", "gpkg.plain", "gpkg"):
            sys.modules.pop(name, None)


def test_installed_first_for_sqlengine():
    guards = [f for f in sys.meta_path if isinstance(f, G.SourceGuard)]
    assert [g.package for g in guards].count("sqlengine") == 1
    assert G.install("sqlengine", guards[0].root) is guards[0]


def test_loaded_modules_match_the_manifest():
    """Every sqlengine module loaded as an extension that has a .py is the build of that
    very .py (else the guard would have loaded the source)."""
    root = os.path.dirname(sqlengine.__file__)
    hashes = G.read_manifest(os.path.join(root, G.MANIFEST))
    for name, mod in list(sys.modules.items()):
        f = getattr(mod, "__file__", None) or ""
        if not name.startswith("sqlengine.") or not f.endswith(SUFFIX):
            continue
        source = f[: -len(SUFFIX)] + ".py"
        if os.path.exists(source):
            with open(source, "rb") as fh:
                assert hashes.get(name) == hashlib.sha256(fh.read()).hexdigest(), name


def _closure_cells(tab):
    """The names the functions nested in symbol table ``tab`` take from enclosing scopes."""
    out = set()
    for ch in tab.get_children():
        if ch.get_type() == "function":
            out |= set(ch.get_frees())
        out |= _closure_cells(ch)
    return out


def _inner_functions_closed_over(path):
    """(function, [names]) where an inner function of ``function`` is closed over by
    another of its inner functions (or by itself)."""
    import symtable

    found = []

    def visit(tab):
        for ch in tab.get_children():
            if ch.get_type() == "function":
                local = {s.get_name() for s in ch.get_symbols() if s.is_local()}
                inner = {c.get_name() for c in ch.get_children() if c.get_type() == "function"}
                bad = _closure_cells(ch) & local & inner
                if bad:
                    found.append((ch.get_name(), sorted(bad)))
            visit(ch)
    with open(path) as f:
        visit(symtable.symtable(f.read(), path, "exec"))
    return found


def test_compiled_modules_close_over_no_inner_function():
    """Compiled, the inner functions of one function share one closure frame: one that
    another closes over makes that frame hold a function that holds it, a cycle left for
    the garbage collector on every call (tests/compiler/test_compile_garbage.py)."""
    import runpy

    root = os.path.dirname(os.path.dirname(sqlengine.__file__))
    build = runpy.run_path(os.path.join(root, "build.py"))
    for rel in build["PY_COMPILED"]:
        assert _inner_functions_closed_over(os.path.join(root, rel)) == [], rel
