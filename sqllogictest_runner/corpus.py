"""Find the scripts to run: the default corpus, paths given, folders, shards, the CI subset.

- The default corpus is ``../shared/sqllogictest/test``, looked for from the current
  directory and from the repository root (the folder holding this package's pyproject.toml);
  with no corpus found, the repository's own ``tests/slt/`` scripts.
- Paths may be files or directories; directories are walked recursively for ``.test`` and
  ``.test.gz`` files; the result is sorted and de-duplicated.
- Each script belongs to a folder for reporting: ``select1`` .. ``select5``, ``evidence``,
  ``index/<sub>``, ``random/<sub>`` (the first two directory levels below the root).
- ``--shard K/N`` keeps every N-th script starting at the K-th (1-based) of the sorted list.
- The CI subset: every script of select1-5 and evidence, plus the smallest script of every
  leaf folder.

This module never runs a script.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Script", "find_corpus", "collect", "folder_of", "shard", "ci_subset",
           "is_script", "repo_root"]

SUFFIXES = (".test", ".test.gz")


def is_script(name: str) -> bool:
    return name.endswith(SUFFIXES)


@dataclass(frozen=True)
class Script:
    path: str   # absolute path
    rel: str    # path relative to the root it was found under (for reports and baselines)
    size: int   # bytes on disk (to schedule the biggest first and to estimate progress)

    @property
    def folder(self) -> str:
        return folder_of(self.rel)


def repo_root() -> Path | None:
    here = Path(__file__).resolve().parent.parent
    return here if (here / "pyproject.toml").exists() else None


def find_corpus(cwd: str | None = None) -> tuple[Path, bool]:
    """(directory, is_shared_corpus): the shared corpus if found, else tests/slt."""
    bases = [Path(cwd or os.getcwd()).resolve()]
    root = repo_root()
    if root is not None:
        bases.append(root)
    for base in bases:
        for cand in (base / ".." / "shared" / "sqllogictest" / "test",
                     base / "shared" / "sqllogictest" / "test"):
            if cand.is_dir():
                return cand.resolve(), True
    for base in bases:
        cand = base / "tests" / "slt"
        if cand.is_dir():
            return cand.resolve(), False
    raise FileNotFoundError("no sqllogictest corpus found (../shared/sqllogictest/test) "
                            "and no tests/slt directory")


def folder_of(rel: str) -> str:
    """The report folder of a script path relative to its corpus root."""
    parts = rel.replace(os.sep, "/").split("/")
    if len(parts) == 1:
        name = parts[0]
        for suf in (".test.gz", ".test"):
            if name.endswith(suf):
                return name[: -len(suf)]
        return name
    return "/".join(parts[:-1][:2])


def _walk(root: Path):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for f in filenames:
            if is_script(f):
                yield Path(dirpath) / f


def collect(paths: list[str] | None = None, cwd: str | None = None) -> tuple[list[Script], Path]:
    """The scripts named by ``paths`` (default: the corpus), sorted, and the report root."""
    corpus_root = None
    if not paths:
        corpus_root, _ = find_corpus(cwd)
        paths = [str(corpus_root)]
    else:
        try:
            cand, shared = find_corpus(cwd)
            corpus_root = cand if shared else None
        except FileNotFoundError:
            pass
    found: dict[str, Script] = {}
    roots = []
    for p in paths:
        path = Path(p).resolve()
        if path.is_dir():
            roots.append(path)
            for f in _walk(path):
                rel = f.relative_to(path).as_posix()
                found.setdefault(str(f), Script(str(f), rel, f.stat().st_size))
        elif path.is_file():
            roots.append(path.parent)
            found.setdefault(str(path), Script(str(path), path.name, path.stat().st_size))
        else:
            raise FileNotFoundError(f"no such file or directory: {p}")
    root = Path(os.path.commonpath([str(r) for r in roots])) if roots else Path.cwd()
    if corpus_root is not None and root.is_relative_to(corpus_root):
        root = corpus_root  # scripts of the corpus keep their corpus-relative names
    # with several roots, paths relative to their common ancestor keep names apart
    if len(set(roots)) > 1 or root in (corpus_root,):
        found = {k: Script(s.path, Path(s.path).relative_to(root).as_posix(), s.size)
                 for k, s in found.items()}
    return sorted(found.values(), key=lambda s: s.rel), root


def shard(scripts: list[Script], spec: str) -> list[Script]:
    """Keep shard K of N (``"K/N"``, 1-based) of the sorted list: every N-th from the K-th."""
    try:
        k, n = (int(x) for x in spec.split("/"))
    except ValueError:
        raise ValueError(f"--shard wants K/N, got {spec!r}") from None
    if not (1 <= k <= n):
        raise ValueError(f"--shard {spec}: need 1 <= K <= N")
    return scripts[k - 1::n]


def ci_subset(scripts: list[Script]) -> list[Script]:
    """select1-5 and evidence whole, plus the smallest script of every other leaf folder."""
    keep = {}
    smallest: dict[str, Script] = {}
    for s in scripts:
        top = s.rel.split("/")[0]
        if top.startswith("select") or top == "evidence":
            keep[s.rel] = s
            continue
        leaf = s.rel.rsplit("/", 1)[0] if "/" in s.rel else ""
        cur = smallest.get(leaf)
        if cur is None or (s.size, s.rel) < (cur.size, cur.rel):
            smallest[leaf] = s
    for s in smallest.values():
        keep[s.rel] = s
    return sorted(keep.values(), key=lambda s: s.rel)
