"""SQLite's database file format: the constants, offsets and diagrams every storage module
shares. Facts only (from sqlite.org's "Database File Format"); no I/O, no logic.

The database header (first 100 bytes of page 1), all integers big-endian:

    offset size  meaning
      0     16   "SQLite format 3\\000"
     16      2   page size (512..32768, or 1 meaning 65536)
     18      1   file format write version (1 legacy/rollback, 2 WAL)
     19      1   file format read version
     20      1   bytes of reserved space at the end of each page (usually 0)
     21      1   max embedded payload fraction, must be 64
     22      1   min embedded payload fraction, must be 32
     23      1   leaf payload fraction, must be 32
     24      4   file change counter
     28      4   database size in pages (valid when 92..95 equals the change counter)
     32      4   first freelist trunk page
     36      4   total number of freelist pages
     40      4   schema cookie                              meta 1
     44      4   schema format number (1..4)               meta 2
     48      4   default page cache size                    meta 3
     52      4   largest root b-tree page (auto-vacuum)     meta 4
     56      4   text encoding (1 UTF-8, 2 UTF-16le, 3 UTF-16be)  meta 5
     60      4   user_version                               meta 6
     64      4   incremental-vacuum mode                    meta 7
     68      4   application_id                             meta 8
     72     20   reserved, zero
     92      4   version-valid-for number
     96      4   SQLITE_VERSION_NUMBER of the last writer

A b-tree page (the header starts at offset 100 on page 1, else 0):

    +--------+-------------------+-----------+-----------------+----------------------+
    | header | cell pointer array| unallocated (gap)           | cell content area    |
    | 8 / 12 | 2 bytes per cell  |                             | cells and freeblocks |
    +--------+-------------------+-----------+-----------------+----------------------+

    header offset size  meaning
      0      1   page type: 2 interior index, 5 interior table, 10 leaf index, 13 leaf table
      1      2   first freeblock (0 = none)
      3      2   number of cells
      5      2   start of the cell content area (0 means 65536)
      7      1   fragmented free bytes
      8      4   right-most child pointer (interior pages only)

A freeblock: 2 bytes offset of the next freeblock, 2 bytes size (>= 4). Fragments (< 4 bytes)
are counted in header byte 7 only.

Cells:
    table leaf (13):     varint payload-size, varint rowid, payload, [u32 first overflow]
    table interior (5):  u32 left child, varint rowid
    index leaf (10):     varint payload-size, payload, [u32 first overflow]
    index interior (2):  u32 left child, varint payload-size, payload, [u32 first overflow]

Local payload (U = usable size, P = payload size):
    table leaf: X = U-35;   index: X = ((U-12)*64/255)-23
    M = ((U-12)*32/255)-23;  K = M + ((P-M) % (U-4))
    P <= X: all local;  else local = K if K <= X else M; the rest in overflow pages, each
    ``u32 next-overflow-page, U-4 bytes of payload``.

Freelist: a chain of trunk pages ``u32 next-trunk, u32 leaf-count, u32 leaf pgnos...``
(at most U/4-2 leaves per trunk; SQLite writes at most U/4-8).

The lock-byte page: the page holding byte offset 0x40000000 (PENDING_BYTE) is never used.

Rollback journal: a header padded to the sector size
    0  8  magic d9 d5 05 f9 20 a1 63 d7
    8  4  number of page records (0xFFFFFFFF: all records to the end of the segment)
   12  4  nonce for the checksums
   16  4  database size in pages before the transaction
   20  4  sector size
   24  4  page size
followed by records ``u32 pgno, page data, u32 checksum`` where the checksum is the nonce
plus the bytes data[i] for i = page_size-200, page_size-400, ... > 0.
"""

MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100

PTF_INTKEY = 0x01
PTF_ZERODATA = 0x02
PTF_LEAFDATA = 0x04
PTF_LEAF = 0x08

PAGE_INTERIOR_INDEX = 2
PAGE_INTERIOR_TABLE = 5
PAGE_LEAF_INDEX = 10
PAGE_LEAF_TABLE = 13
PAGE_TYPES = (2, 5, 10, 13)

# meta indices (sqlite3BtreeGetMeta); the header offset is 36 + 4*i
META_FREE_PAGE_COUNT = 0
META_SCHEMA_VERSION = 1
META_FILE_FORMAT = 2
META_DEFAULT_CACHE_SIZE = 3
META_LARGEST_ROOT_PAGE = 4
META_TEXT_ENCODING = 5
META_USER_VERSION = 6
META_INCR_VACUUM = 7
META_APPLICATION_ID = 8

OFS_CHANGE_COUNTER = 24
OFS_DB_SIZE = 28
OFS_FREELIST_TRUNK = 32
OFS_FREELIST_COUNT = 36
OFS_VERSION_VALID_FOR = 92
OFS_VERSION_NUMBER = 96

SQLITE_VERSION_NUMBER = 3040001
PENDING_BYTE = 0x40000000

JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")
DEFAULT_SECTOR_SIZE = 512
DEFAULT_PAGE_SIZE = 4096
MIN_PAGE_SIZE = 512
MAX_PAGE_SIZE = 65536


def lock_byte_page(page_size: int) -> int:
    """The page number of the lock-byte page for a page size."""
    return PENDING_BYTE // page_size + 1


def max_local(usable: int, intkey_leaf: bool) -> int:
    return usable - 35 if intkey_leaf else ((usable - 12) * 64 // 255) - 23


def min_local(usable: int) -> int:
    return ((usable - 12) * 32 // 255) - 23


def local_payload(usable: int, payload: int, intkey_leaf: bool) -> int:
    """How many payload bytes are stored in the cell itself."""
    x = max_local(usable, intkey_leaf)
    if payload <= x:
        return payload
    m = min_local(usable)
    k = m + (payload - m) % (usable - 4)
    return k if k <= x else m


def new_database_header(page_size: int) -> bytearray:
    """The first 100 bytes of a new database, as SQLite writes them for a new file
    (change counter and size are filled in at commit)."""
    h = bytearray(HEADER_SIZE)
    h[0:16] = MAGIC
    h[16:18] = (1 if page_size == 65536 else page_size).to_bytes(2, "big")
    h[18] = 1
    h[19] = 1
    h[20] = 0
    h[21] = 64
    h[22] = 32
    h[23] = 32
    h[44:48] = (4).to_bytes(4, "big")   # schema format 4
    h[56:60] = (1).to_bytes(4, "big")   # UTF-8
    h[96:100] = SQLITE_VERSION_NUMBER.to_bytes(4, "big")
    return h
