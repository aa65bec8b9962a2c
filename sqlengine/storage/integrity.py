"""PRAGMA integrity_check at the b-tree level: walks every b-tree, overflow chain and the
freelist, and reports in SQLite's words what is wrong ("ok" when nothing is).

Checked (after SQLite's checkTreePage/checkList): each page used exactly once, page numbers
in range, page types consistent within a tree, all leaves at one depth, rowids ordered and
within their parent's bounds, cells inside the content area and not overlapping, freeblock
and fragment accounting, overflow chain lengths, the freelist count, pages never used.
Index entries are compared with their table by the layer above (it knows the collations);
here, index keys are only checked for being well-formed records.

Never modifies the database; bounded by the page count.
"""

from __future__ import annotations

from sqlengine import errors
from sqlengine.storage import _btree
from sqlengine.storage import format as fmt
from sqlengine.storage._record import decode_record


class _Check:
    def __init__(self, bt, max_errors: int):
        self.bt = bt
        self.pager = bt.pager
        self.n = bt.pager.db_size
        self.used = bytearray(self.n + 1)
        self.errors: list[str] = []
        self.max_errors = max_errors
        self.usable = bt.pager.usable_size

    def err(self, msg: str) -> None:
        if len(self.errors) < self.max_errors:
            self.errors.append(msg)

    def full(self) -> bool:
        return len(self.errors) >= self.max_errors

    def ref(self, pgno: int, ctx: str) -> bool:
        """Mark a page used; False if it cannot be followed."""
        if pgno < 1 or pgno > self.n:
            self.err(f"{ctx}invalid page number {pgno}")
            return False
        if self.used[pgno]:
            self.err(f"{ctx}2nd reference to page {pgno}")
            return False
        self.used[pgno] = 1
        return True

    def freelist(self) -> None:
        p1 = self.pager.get(1).data
        trunk = int.from_bytes(p1[32:36], "big")
        expected = int.from_bytes(p1[36:40], "big")
        count = 0
        guard = 0
        while trunk and not self.full():
            guard += 1
            if guard > self.n:
                self.err(f"Main freelist: 2nd reference to page {trunk}")
                break
            if not self.ref(trunk, "Main freelist: "):
                break
            count += 1
            data = self.pager.get(trunk).data
            nleaf = int.from_bytes(data[4:8], "big")
            if nleaf > self.usable // 4 - 2:
                self.err(f"freelist leaf count too big on page {trunk}")
                nleaf = 0
            for i in range(nleaf):
                leaf = int.from_bytes(data[8 + 4 * i:12 + 4 * i], "big")
                if self.ref(leaf, "Main freelist: "):
                    pass
                count += 1
            trunk = int.from_bytes(data[0:4], "big")
        if count != expected:
            self.err(f"Main freelist: size is {count} but should be {expected}")

    def overflow(self, pgno: int, npages: int, ctx: str) -> None:
        while npages > 0 and pgno:
            if not self.ref(pgno, ctx):
                return
            npages -= 1
            nxt = int.from_bytes(self.pager.get(pgno).data[0:4], "big")
            if npages == 0 and nxt != 0:
                self.err(f"{ctx}extends off end of page list")  # SQLite wording
                return
            pgno = nxt
        if npages > 0:
            self.err(f"{ctx}overflow list length is {npages} but should be 0")

    def tree(self, root: int) -> None:
        if root < 1 or root > self.n:
            self.err(f"invalid page number {root}")
            return
        self._leaf_depth = None
        self._page(root, 0, None, None, root, None, "")

    def _page(self, pgno, depth, lo, hi, root, intkey, refctx) -> None:
        """Check one page and its subtree (table keys must lie in (lo, hi]); refctx names the
        place that points at it, as SQLite's messages do."""
        ctx = f"On tree page {pgno}: "
        if depth > 20:
            self.err(f"{refctx}depth too great")
            return
        if not self.ref(pgno, refctx):
            return
        page = self.pager.get(pgno)
        try:
            page.invalidate()
            page.parse_header()
        except errors.DatabaseError:
            self.err(f"{ctx}btreeInitPage() returns error code 11")
            return
        if intkey is not None and page.intkey != intkey:
            self.err(f"{ctx}mixed table and index pages")
            return
        self._check_space(page, ctx)
        # first pass, in order: cells, overflow chains, key order within the page
        cells = []
        last = lo
        for i in range(page.ncell):
            if self.full():
                return
            try:
                key, npay, nlocal, size, ovfl, child, off = _btree.cell_info(page, i)
            except errors.DatabaseError:
                self.err(f"On tree page {pgno} cell {i}: malformed")
                continue
            cctx = f"On tree page {pgno} cell {i}: "
            if nlocal < npay:
                self.overflow(ovfl, (npay - nlocal + self.usable - 5) // (self.usable - 4), cctx)
            if page.intkey:
                if (last is not None and key <= last) or (hi is not None and key > hi):
                    self.err(f"{cctx}Rowid {key} out of order")
            elif nlocal == npay:
                try:
                    decode_record(_btree.local_payload_bytes(page, i))
                except errors.DatabaseError:
                    self.err(f"{cctx}malformed record")
            cells.append((i, key, child, last))
            if page.intkey:
                last = key
        # then the children as SQLite visits them: the right child, then right to left
        if not page.leaf:
            rc = int.from_bytes(page.data[page.hdr + 8:page.hdr + 12], "big")
            self._page(rc, depth + 1, last if page.intkey else None, hi, root, page.intkey,
                       f"On page {pgno} at right child: ")
            for i, key, child, before in reversed(cells):
                self._page(child, depth + 1, before if page.intkey else None,
                           key if page.intkey else None, root, page.intkey,
                           f"On tree page {pgno} cell {i}: ")
        else:
            if self._leaf_depth is None:
                self._leaf_depth = depth
            elif self._leaf_depth != depth:
                self.err(f"{ctx}Child page depth differs")
            if page.ncell == 0 and depth > 0:
                self.err(f"{ctx}empty leaf page")

    def _check_space(self, page, ctx: str) -> None:
        """Cells, freeblocks and fragments must tile the content area exactly."""
        d = page.data
        h = page.hdr
        usable = self.usable
        hsz = 8 if page.leaf else 12
        ncell = page.ncell
        top = int.from_bytes(d[h + 5:h + 7], "big") or 65536
        start = h + hsz + 2 * ncell
        if top > usable or top < start:
            self.err(f"{ctx}cell content area out of bounds")
            return
        spans = []
        for i in range(ncell):
            try:
                info = _btree.cell_info(page, i)
            except errors.DatabaseError:
                continue
            off, size = info[6], max(info[3], 4)
            if off < top or off + size > usable:
                self.err(f"{ctx}cell {i} extends off the page")
                continue
            spans.append((off, size))
        fb = int.from_bytes(d[h + 1:h + 3], "big")
        nfree = 0
        guard = 0
        while fb:
            guard += 1
            if guard > usable // 4 or fb + 4 > usable or fb < top:
                self.err(f"{ctx}freeblock list is corrupt")
                break
            size = int.from_bytes(d[fb + 2:fb + 4], "big")
            spans.append((fb, size))
            nfree += size
            nxt = int.from_bytes(d[fb:fb + 2], "big")
            if nxt and nxt <= fb + size:
                self.err(f"{ctx}freeblocks out of order")
                break
            fb = nxt
        spans.sort()
        pos = top
        gaps = 0
        for off, size in spans:
            if off < pos:
                self.err(f"Multiple uses for byte {pos - 1} of page {page.pgno}")
                return
            gaps += off - pos
            pos = off + size
        gaps += usable - pos
        frag = d[h + 7]
        if gaps != frag:
            self.err(f"Fragmentation of {gaps} bytes reported as {frag} on page {page.pgno}")


def ptrmap_pages(n: int, usable: int, page_size: int) -> list[int]:
    """The pointer-map pages of an auto-vacuum database of n pages (SQLite's ptrmapPageno:
    every usable/5+1 pages from page 2, moved past the lock-byte page)."""
    per = usable // 5 + 1
    lock_page = fmt.lock_byte_page(page_size)
    out = []
    pg = 2
    while pg <= n:
        out.append(pg + 1 if pg == lock_page else pg)
        pg += per
    return out


def schema_roots(bt) -> list[int]:
    """Page 1 plus every non-zero rootpage named in sqlite_schema."""
    roots = [1]
    cur = bt.cursor(1)
    try:
        ok = cur.first()
        guard = 0
        while ok:
            guard += 1
            if guard > bt.pager.db_size * 100 + 10:
                break
            rec = decode_record(cur.payload())
            if len(rec) >= 4 and isinstance(rec[3], int) and rec[3] > 0:
                roots.append(rec[3])
            ok = cur.next()
    finally:
        cur.close()
    return roots


def integrity_check(bt, roots=None, max_errors: int = 100, partial: bool = False) -> list[str]:
    """The messages, or ["ok"]. SQLite's PRAGMA shows them as one row: "*** in database
    main ***" and the messages joined by newlines (that framing is the pragma's job).
    ``partial``: only the b-trees at ``roots`` (one table's), so neither the freelist nor
    the pages no b-tree uses are looked at."""
    started = bt.pager.in_trans == 0
    if started:
        bt.begin(False)
    try:
        if bt.pager.db_size == 0:
            return ["ok"]
        chk = _Check(bt, max_errors)
        if not partial:
            chk.freelist()
        if roots is None:
            try:
                roots = schema_roots(bt)
            except errors.DatabaseError:
                roots = [1]
        for r in roots:
            if chk.full():
                break
            chk.tree(r)
        if partial:
            return chk.errors or ["ok"]
        lock_page = fmt.lock_byte_page(bt.pager.page_size)
        ptrmap = set(ptrmap_pages(chk.n, chk.usable, bt.pager.page_size)) \
            if bt.get_meta(4) else set()
        for pg in range(1, chk.n + 1):
            if chk.full():
                break
            if not chk.used[pg] and pg != lock_page and pg not in ptrmap:
                chk.err(f"Page {pg} is never used")
        return chk.errors or ["ok"]
    finally:
        if started:
            bt.pager.end_read()
