"""``.pages`` and ``.btree TABLE``: the database file as it is, page by page.

Reads raw pages (through the engine's pager when it has one, else from the database
file) and decodes just enough of SQLite's file format to show each page's owner, kind,
cell count, payload and unused bytes, and overflow chains. The figures follow the
definitions of SQLite's ``dbstat`` virtual table, so they can be checked against it:

    .pages          one row per b-tree or overflow page:
                    pgno, name, path, pagetype, ncell, payload, unused
                    (path as dbstat: "/" root, "/00a/" child 10, "/00a+000001" overflow)
    .btree TABLE    the same rows for one table or index, drawn as a tree

Rows are printed in the shell's current output mode. Never writes; never runs SQL beyond
reading sqlite_schema.
"""

from __future__ import annotations

import os

from sqlengine.shell import render

_KIND = {2: "internal", 5: "internal", 10: "leaf", 13: "leaf"}


def _get2(data, offset):
    return (data[offset] << 8) | data[offset + 1]


def _get4(data, offset):
    return int.from_bytes(data[offset:offset + 4], "big")


def _varint(data, offset):
    """(value, length) of the SQLite varint at ``offset``."""
    value = 0
    for i in range(8):
        byte = data[offset + i]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, i + 1
    return (value << 8) | data[offset + 8], 9


class PageSource:
    """Raw page bytes of the main database."""

    def __init__(self, shell):
        self.shell = shell
        db = shell.db
        bt = getattr(db, "bt", None)
        self.pager = getattr(bt, "pager", None) if bt is not None else None
        self.bt = bt
        self.file = None
        if self.pager is None:
            path = shell.filename
            if path in ("", ":memory:") or not os.path.exists(path):
                raise OSError("page view needs a database file or sqlengine's pager")
            with open(path, "rb") as handle:
                self.file = handle.read()
        header = self.page(1)[:100] if self.file is None else self.file[:100]
        size = _get2(header, 16)
        self.page_size = 65536 if size == 1 else size
        self.usable = self.page_size - header[20]
        self.page_count = _get4(header, 28)

    def page(self, pgno):
        if self.file is not None:
            start = (pgno - 1) * self.page_size
            return self.file[start:start + self.page_size]
        return bytes(self.pager.get(pgno).data)


def _local_size(payload, usable, leaf_table):
    """Bytes of a payload of ``payload`` bytes stored in the cell itself."""
    max_local = usable - 35 if leaf_table else ((usable - 12) * 64 // 255) - 23
    min_local = ((usable - 12) * 32 // 255) - 23
    if payload <= max_local:
        return payload
    k = min_local + (payload - min_local) % (usable - 4)
    return k if k <= max_local else min_local


def walk(source, name, root):
    """Rows (pgno, name, path, pagetype, ncell, payload, unused, depth) of one b-tree, in
    the order dbstat visits them."""
    rows = []
    usable = source.usable

    def visit(pgno, path, depth):
        data = source.page(pgno)
        base = 100 if pgno == 1 else 0
        kind = data[base]
        interior = kind in (2, 5)
        header = 12 if interior else 8
        ncell = _get2(data, base + 3)
        content = _get2(data, base + 5) or 65536
        unused = content - (base + header + 2 * ncell) + data[base + 7]
        freeblock = _get2(data, base + 1)
        while freeblock:
            unused += _get2(data, freeblock + 2)
            freeblock = _get2(data, freeblock)
        payload_total = 0
        children = []
        overflows = []
        for i in range(ncell):
            cell = _get2(data, base + header + 2 * i)
            offset = cell
            if interior:
                children.append(_get4(data, offset))
                offset += 4
                if kind == 5:
                    continue
            payload, n = _varint(data, offset)
            offset += n
            if kind == 13:
                _, n = _varint(data, offset)
                offset += n
            local = _local_size(payload, usable, kind == 13)
            payload_total += local
            if local < payload:
                overflows.append((i, _get4(data, offset + local), payload - local))
        if interior:
            children.append(_get4(data, base + 8))
        rows.append((pgno, name, path, _KIND.get(kind, "corrupt"), ncell, payload_total,
                     unused, depth))
        for i, first, remaining in overflows:
            index = 0
            pgno_ovfl = first
            while pgno_ovfl and remaining > 0:
                here = min(remaining, usable - 4)
                rows.append((pgno_ovfl, name, f"{path}{i:03x}+{index:06x}", "overflow", 0,
                             here, usable - 4 - here, depth + 1))
                remaining -= here
                index += 1
                pgno_ovfl = _get4(source.page(pgno_ovfl), 0)
        for i, child in enumerate(children):
            visit(child, f"{path}{i:03x}/", depth + 1)

    visit(root, "/", 0)
    return rows


def _btrees(shell):
    trees = [("sqlite_schema", 1)]
    for name, root in shell.con.execute(
            "SELECT name, rootpage FROM sqlite_master WHERE rootpage > 0"):
        trees.append((name, root))
    return trees


def _emit(shell, rows, names=("pgno", "name", "path", "pagetype", "ncell", "payload",
                              "unused")):
    output = render.OUTPUTS[shell.mode](shell, list(names))
    for row in rows:
        output.row(row[:len(names)])
    output.end()


def _with_source(shell, action):
    bt = getattr(shell.db, "bt", None)
    own = bt is not None and getattr(bt, "in_trans", 1) == 0
    if own:
        bt.begin(False)
    try:
        return action(PageSource(shell))
    finally:
        if own:
            bt.commit()


def show_pages(shell):
    def action(source):
        rows = []
        for name, root in _btrees(shell):
            rows.extend(walk(source, name, root))
        rows.sort(key=lambda row: row[0])
        _emit(shell, rows)
        return 0

    return _with_source(shell, action)


def show_btree(shell, table):
    trees = {name.lower(): (name, root) for name, root in _btrees(shell)}
    if table.lower() not in trees:
        shell.error(f"Error: no such table or index: {table}")
        return 1
    name, root = trees[table.lower()]

    def action(source):
        rows = walk(source, name, root)
        shell.write(f"{name}: b-tree rooted at page {root}, {len(rows)} pages\n")
        for pgno, _, path, kind, ncell, payload, unused, depth in rows:
            shell.write(f"{'    ' * depth}{pgno} {kind} {path} cells={ncell} "
                        f"payload={payload} unused={unused}\n")
        return 0

    return _with_source(shell, action)
